"""Files, folders and archives: every hand gets one outcome, and nothing escapes as an exception."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

import parser.reader as reader
import parser.sources as sources
from engine.record import Hand
from parser.outcome import HandText, ParseError, Skipped
from parser.reader import read_bytes, read_path, read_text
from tests.parser_corpus import CORPUS

STARS = CORPUS / "cash/Stars/Draw"
TD = STARS / "Triple Draw 2-7 Lowball-FL-USD-0.10-0.20-201106.sample.txt"
FOLD = STARS / "5-Carddraw-FL-USD-0.10-0.20-201106.FoldedNodraw.txt"


def kinds(results: Iterable[tuple[HandText, object]]) -> list[str]:
    return [type(o).__name__ for _, o in results]


def test_a_file_is_read_hand_by_hand() -> None:
    results = list(read_path(TD))
    assert kinds(results) == ["Hand"]
    chunk, hand = results[0]
    assert isinstance(hand, Hand)
    assert (chunk.file, chunk.line, chunk.site) == (str(TD), 1, "pokerstars")
    assert hand.hand_id == "63845186378"


def test_a_folder_is_read_recursively_in_sorted_order(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "a.txt").write_bytes(TD.read_bytes())
    (tmp_path / "b" / "c.txt").write_bytes(FOLD.read_bytes())
    (tmp_path / "b" / "a.txt").write_bytes(FOLD.read_bytes())
    files = [chunk.file for chunk, _ in read_path(tmp_path)]
    assert files == [str(tmp_path / "a.txt"), str(tmp_path / "b/a.txt"), str(tmp_path / "b/c.txt")]


def test_a_folder_linking_to_itself_is_read_once(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes(TD.read_bytes())
    (tmp_path / "loop").symlink_to(tmp_path, target_is_directory=True)
    assert [chunk.file for chunk, _ in read_path(tmp_path)] == [str(tmp_path / "a.txt")]


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


def test_zip_archives_are_read_member_by_member_including_nested_ones(tmp_path: Path) -> None:
    inner = _zip({"x/fold.txt": FOLD.read_bytes()})
    archive = tmp_path / "hands.zip"
    archive.write_bytes(_zip({"td.txt": TD.read_bytes(), "deep/inner.zip": inner, "dir/": b""}))
    results = list(read_path(archive))
    assert [(c.file, type(o).__name__) for c, o in results] == [
        (f"{archive}/deep/inner.zip/x/fold.txt", "Hand"),
        (f"{archive}/td.txt", "Hand"),
    ]
    assert kinds(read_bytes(archive.read_bytes(), "upload.zip")) == ["Hand", "Hand"]


def test_an_archive_member_that_expands_too_far_is_refused(tmp_path: Path) -> None:
    bomb = _zip({"zeros.txt": b"0" * 3_000_000, "td.txt": TD.read_bytes()})
    results = list(read_bytes(bomb, "bomb.zip"))
    assert kinds(results) == ["Hand", "ParseError"]  # members in name order
    error = results[1][1]
    assert isinstance(error, ParseError)
    assert error.file == "bomb.zip/zeros.txt"
    assert "expands to 3000000 bytes" in error.message


def test_an_archive_over_its_total_budget_stops_being_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sources, "MAX_ARCHIVE_BYTES", 1000)
    results = list(read_bytes(_zip({"a.txt": TD.read_bytes()}), "small.zip"))
    assert kinds(results) == ["ParseError"]
    assert "not read" in str(results[0][1])


def test_a_corrupt_archive_is_one_error_naming_it() -> None:
    data = _zip({"td.txt": TD.read_bytes()})
    results = list(read_bytes(data[:60], "broken.zip"))
    assert kinds(results) == ["ParseError"]
    error = results[0][1]
    assert isinstance(error, ParseError) and error.file == "broken.zip"


def test_binary_empty_missing_and_foreign_files_are_errors_naming_the_file(tmp_path: Path) -> None:
    (tmp_path / "pic.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("shopping list\neggs\n")
    for name, message in (
        ("pic.png", "binary data, not a text hand history"),
        ("empty.txt", "the file holds no text"),
        ("notes.txt", "not a hand history this program reads"),
        ("missing.txt", "no such file or folder"),
    ):
        results = list(read_path(tmp_path / name))
        assert len(results) == 1
        error = results[0][1]
        assert isinstance(error, ParseError)
        assert error.file == str(tmp_path / name)
        assert error.message.startswith(message)


def _stars_hand(hand_id: str, extra: str = "") -> str:
    return (
        f"PokerStars Hand #{hand_id}:  Triple Draw 2-7 Lowball Limit ($0.10/$0.20 USD)"
        " - 2011/06/26 13:34:02 ET\n"
        "Table 'T' 6-max Seat #1 is the button\n"
        "Seat 1: A ($4 in chips)\nSeat 2: B ($4 in chips)\n"
        "A: posts small blind $0.05\nB: posts big blind $0.10\n"
        f"*** DEALING HANDS ***\n{extra}A: folds\n"
        "Uncalled bet ($0.05) returned to B\nB collected $0.10 from pot\n"
        "*** SUMMARY ***\nTotal pot $0.10 | Rake $0\n"
    )


def test_a_bad_hand_is_an_error_and_the_hands_around_it_are_still_read() -> None:
    text = "\n\n".join([_stars_hand("1"), _stars_hand("2", "A: bets $abc\n"), _stars_hand("3")])
    results = list(read_text(text, "mixed.txt"))
    assert kinds(results) == ["Hand", "ParseError", "Hand"]
    error = results[1][1]
    assert isinstance(error, ParseError)
    assert (error.file, error.line, error.line_text) == ("mixed.txt", 22, "A: bets $abc")
    assert error.expected.startswith("a line of play")
    assert [c.line for c, _ in results] == [1, 15, 30]


class _Broken:
    site = "broken"

    def sniff(self, head: str) -> bool:
        return head.startswith("BROKEN")

    def split(self, lines: Iterable[tuple[int, str]], file: str) -> Iterator[HandText]:
        for no, line in lines:
            if line:
                yield HandText(file, no, line, self.site)

    def parse(self, chunk: HandText) -> Hand | Skipped:
        if chunk.text == "BROKEN boom":
            raise ZeroDivisionError("division by zero")
        return Skipped("unsupported", "test", site=self.site, file=chunk.file, line=chunk.line)


def test_a_site_reader_bug_becomes_an_error_on_that_hand_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sources, "READERS", [_Broken()])
    results = list(read_text("BROKEN one\nBROKEN boom\nBROKEN three\n", "b.txt"))
    assert kinds(results) == ["Skipped", "ParseError", "Skipped"]
    error = results[1][1]
    assert isinstance(error, ParseError)
    assert error.line == 2
    assert error.message == f"{reader.INTERNAL}: ZeroDivisionError: division by zero"


def test_read_bytes_and_read_text_agree_with_read_path() -> None:
    data = TD.read_bytes()
    by_path = [o for _, o in read_path(TD)]
    by_bytes = [o for _, o in read_bytes(data, str(TD))]
    by_text = [o for _, o in read_text(data.decode("utf-8-sig"), str(TD))]
    assert by_path == by_bytes == by_text
