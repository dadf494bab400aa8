"""A big file cut into parts at hands' starts reads, part by part, as the whole file reads."""

from __future__ import annotations

import mmap
import zipfile
from pathlib import Path

import pytest

from engine.record import Game
from engine.sim.dealer import deal_hands
from parser import ranges
from parser.phh import write_phh
from parser.ranges import Part, cut_part, iter_parts, parts
from parser.reader import Cut, cut_source
from parser.sources import Source, iter_sources
from tests.analysis.pipeline.test_chain_breaks import BROKEN, _hand


def _source(path: Path) -> Source:
    [source] = iter_sources([path])
    assert isinstance(source, Source)
    return source


HANDS = 20  # 320 lines: the reader tells a doubled file from the first 200


def _hands() -> list[str]:
    return [_hand(n % 10) for n in range(HANDS)]


def _session(path: Path, *, newline: str = "\n", bom: bool = False) -> Path:
    """Hands, one that does not read, blank lines between them as PokerStars writes."""
    hands = _hands()
    hands[4] = BROKEN
    text = "\n\n\n".join(hands).replace("\n", newline)
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    return path


def _plain(cuts: list[Cut]) -> list[tuple[str | None, str, int, str, str | None]]:
    return [
        (
            reader.site if reader is not None else None,
            chunk.file,
            chunk.line,
            chunk.text,
            None if error is None else str(error),
        )
        for reader, chunk, error in cuts
    ]


def _whole(path: Path) -> list[Cut]:
    return list(cut_source(_source(path)))


def _by_parts(found: list[Part]) -> list[Cut]:
    return [cut for part in found for cut in cut_part(part)]


@pytest.mark.parametrize(("newline", "bom"), [("\n", False), ("\r\n", True)])
def test_parts_start_at_hands_and_read_as_the_whole_file(
    tmp_path: Path, newline: str, bom: bool
) -> None:
    path = _session(tmp_path / "session.txt", newline=newline, bom=bom)
    found = parts(_source(path), part_bytes=1500)
    assert found is not None
    data = path.read_bytes()
    starts = [i for i in range(len(data)) if data.startswith(b"PokerStars Hand #", i)]
    expected = [0]  # each part runs from 1500 bytes after the last one's start to a hand
    while (after := [s for s in starts if s >= expected[-1] + 1500]) != []:
        expected.append(after[0])
    assert len(expected) >= 4
    assert [p.start for p in found] == expected
    assert [p.start for p in found[1:]] == [p.end for p in found[:-1]]
    assert found[0].start == 0 and found[-1].end is None
    for part in found[1:]:
        assert data[part.start :].startswith(b"PokerStars Hand #")
        assert part.line == data[: part.start].count(b"\n") + 1
        assert (part.encoding, part.site) == ("utf-8", "pokerstars")
    assert found[0].encoding == ""  # the first part is read as a file is: detected
    whole = _plain(_whole(path))  # a hand is 12 lines, its last break and two blank lines
    assert [line for _, _, line, _, _ in whole] == [1 + 15 * i for i in range(HANDS)]
    assert _plain(_by_parts(found)) == whole


def test_a_small_file_is_one_part(tmp_path: Path) -> None:
    path = _session(tmp_path / "session.txt")
    source = _source(path)
    assert parts(source) == [Part(str(path), str(path))]
    assert _plain(_by_parts([Part(str(path), str(path))])) == _plain(_whole(path))


@pytest.mark.parametrize("kind", ["lone CR", "doubled", "utf-16", "not PokerStars", "binary"])
def test_a_file_that_cannot_be_cut_is_read_whole(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "hands.txt"
    text = "\n\n\n".join(_hands())
    if kind == "lone CR":
        text = text.replace("A: folds\n", "A: folds\r", 1)
    elif kind == "doubled":
        text = text.replace("\n", "\n\n")
    data = text.encode("utf-16" if kind == "utf-16" else "utf-8")
    if kind == "not PokerStars":
        data = b"Table 'T' 6-max\n" * 400
    elif kind == "binary":
        data = bytes(range(256)) * 40
    path.write_bytes(data)
    found = parts(_source(path), part_bytes=1500)
    assert found == [Part(str(path), str(path))]
    assert _plain(_by_parts(found)) == _plain(_whole(path))


def test_an_archive_member_has_no_parts(tmp_path: Path) -> None:
    archive = tmp_path / "hands.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("a.txt", "\n\n".join(_hand(n) for n in range(1, 10)))
    [member] = iter_sources([archive])
    assert isinstance(member, Source)
    assert parts(member, part_bytes=100) is None


def test_an_enormous_line_in_a_later_part_ends_the_file_there(tmp_path: Path) -> None:
    """The file's lines stop at the first enormous line: reading parts, the part holding it
    says so, as the whole file's reading does, and the hands after it are not read."""
    hands = _hands()
    hands[15] = hands[15].replace("A: folds\n", "A: folds\n" + "x" * (1 << 20) + "\n")
    path = tmp_path / "session.txt"
    path.write_text("\n\n".join(hands), encoding="utf-8")
    found = parts(_source(path), part_bytes=3000)
    assert found is not None and len(found) == 3  # hands 0-8, 9-15, 16-19 (369 bytes each)
    whole = _plain(_whole(path))
    error = whole[-1][4]
    assert error is not None and "a line of 1,048,576 characters or more" in error
    assert len(whole) == 17  # 15 hands, the hand cut short, the file's error
    read = [_plain(list(cut_part(p))) for p in found]
    assert [len(r) for r in read] == [9, 8, 4]  # the last part, read alone, is dropped
    assert read[0] + read[1] == whole


def test_a_phhs_file_is_cut_at_its_sections(tmp_path: Path) -> None:
    """Each ``[n]`` table is a hand: a part starts at one and reads as the whole file."""
    hands = deal_hands(30, Game.TRIPLE_DRAW_27, 6, seed=7, site="phh")
    path = tmp_path / "hands.phhs"
    path.write_text(
        "\n".join(f"[{n}]\n{write_phh(hand)}" for n, hand in enumerate(hands, 1)),
        encoding="utf-8",
    )
    found = parts(_source(path), part_bytes=5000)
    assert found is not None and len(found) >= 4
    data = path.read_bytes()
    for part in found[1:]:
        section = data[part.start : data.index(b"\n", part.start)]
        assert section.startswith(b"[") and section.endswith(b"]")
        assert part.line == data[: part.start].count(b"\n") + 1
        assert part.site == "phh"
    whole = _plain(_whole(path))
    assert len(whole) == 30 and all(error is None for *_, error in whole)
    assert _plain(_by_parts(found)) == whole


def test_parts_are_given_as_they_are_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first part is handed out once the second's start is found, the file's later
    starts not looked for yet: a worker reads it while the rest is cut."""
    path = _session(tmp_path / "session.txt")
    calls: list[int] = []
    cutter = ranges.CUTTERS["pokerstars"]

    def counted(data: bytes | mmap.mmap, pos: int) -> int:
        calls.append(pos)
        return cutter(data, pos)

    monkeypatch.setitem(ranges.CUTTERS, "pokerstars", counted)
    found = iter_parts(_source(path), part_bytes=1500)
    assert found is not None
    first = next(found)
    assert calls == [1500]
    rest = list(found)
    assert len(calls) == len(rest) + 1  # one look for each later part's start, one at the end
    assert [first, *rest] == parts(_source(path), part_bytes=1500)


@pytest.mark.parametrize("where", ["early", "late"])
def test_a_lone_cr_anywhere_reads_the_file_whole_before_any_part_is_given(
    tmp_path: Path, where: str
) -> None:
    hands = _hands()
    at = 1 if where == "early" else HANDS - 1
    hands[at] = hands[at].replace("A: folds\n", "A: folds\r", 1)
    path = tmp_path / "hands.txt"
    path.write_bytes("\n\n\n".join(hands).replace("\n", "\r\n").encode("utf-8"))
    found = iter_parts(_source(path), part_bytes=1500)
    assert found is not None
    assert list(found) == [Part(str(path), str(path))]


@pytest.mark.parametrize(
    ("data", "lone"),
    [
        (b"ab\r\ncd\r\n", False),  # the CRLF straddles the slices' edge (4 bytes each)
        (b"abc\r\ncd\r\n", False),
        (b"abc\rxcd\r\n", True),
        (b"abcdefg\r", True),  # the file's last byte
        (b"abcdefgh", False),
        (b"abcd\r\r\n\n", True),
    ],
)
@pytest.mark.parametrize("find_bytes", [4, 1 << 24])
def test_a_lone_cr_is_found_across_the_slices_it_is_counted_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data: bytes, lone: bool, find_bytes: int
) -> None:
    monkeypatch.setattr(ranges, "_SCAN_BYTES", 4)
    monkeypatch.setattr(ranges, "_FIND_BYTES", find_bytes)  # the first look, in slices too
    path = tmp_path / "bytes"
    path.write_bytes(data)
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
        assert ranges._lone_cr(mapped) is lone


def test_a_file_that_shrinks_while_its_parts_are_given_ends_in_one_last_part(
    tmp_path: Path,
) -> None:
    """The mapping is never read past the file's new end (which would kill the process):
    what follows the parts given so far is one last part, read as the file then is."""
    path = _session(tmp_path / "session.txt")
    found = iter_parts(_source(path), part_bytes=1500)
    assert found is not None
    first, second = next(found), next(found)
    assert second.end is not None
    line = path.read_bytes()[: second.end].count(b"\n") + 1
    with open(path, "r+b") as f:
        f.truncate(second.end + 10)
    assert list(found) == [
        Part(str(path), str(path), second.end, None, line, "utf-8", "pokerstars")
    ]
    assert (first.start, first.end, second.start) == (0, second.start, first.end)


def _resident_kib(path: Path) -> int:
    """The resident memory of this process's mappings of ``path`` (Linux's smaps)."""
    total, inside = 0, False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        fields = line.split()
        if fields and "-" in fields[0] and len(fields) >= 5:  # a mapping's own line
            inside = fields[-1] == str(path)
        elif inside and fields[0] == "Rss:":
            total += int(fields[1])
    return total


def test_a_big_file_is_not_held_in_memory_while_its_parts_are_given(tmp_path: Path) -> None:
    """Each page looked at is let go: the importer's main process held a whole 1.4 GB
    file resident while cutting it (its peak memory doubled)."""
    path = tmp_path / "big.txt"
    hands = "\n\n\n".join(_hands()) + "\n\n\n"
    path.write_text(hands * (8_000_000 // len(hands)))
    found = iter_parts(_source(path), part_bytes=1 << 16)
    assert found is not None
    given = [next(found) for _ in range(100)]  # 6.4 MB of 8 into the file
    assert given[-1].start > 6_000_000
    # what the kernel maps ahead of a look (about a megabyte here), not what was looked at
    assert _resident_kib(path) <= 2048
    rest = list(found)
    assert rest[-1].end is None and given[0].start == 0
