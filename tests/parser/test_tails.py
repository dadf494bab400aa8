"""A file's last hand: whole as the client writes it, or cut while the client writes it."""

from __future__ import annotations

import codecs
import io
from pathlib import Path

import pytest

from parser.sources import Source, iter_sources, open_lines
from parser.tails import ends_with_line_break, hand_finished
from tests.corpus import CORPUS
from tests.store_data import stars_hand_texts

SITES_WITH_AN_ENDING = ("pokerstars", "fulltilt", "ongame", "merge", "boss")
SUMMARY_ONLY = ("Tournament Summary", "PokerStars Tournament #", "(partial)", "Hand cancelled")


def _corpus_hands() -> list[tuple[str, str, str]]:
    """(file, site, text) of every hand text the readers cut from the corpus."""
    out = []
    for src in iter_sources([CORPUS]):
        if not isinstance(src, Source):
            continue
        with src.open() as stream:
            try:
                opened = open_lines(src, stream)
            except Exception:  # side files (.gt, .hp...) that are not hand histories
                continue
            for chunk in opened.reader.split(opened.lines, src.name):
                out.append((src.name, opened.reader.site, chunk.text))
    return out


HANDS = _corpus_hands()


def test_every_hand_of_the_corpus_is_whole() -> None:
    assert len(HANDS) > 150
    cut = [(f, site) for f, site, text in HANDS if not hand_finished(site, text, True)]
    assert cut == []
    sites = {site for _, site, _ in HANDS}
    assert set(SITES_WITH_AN_ENDING) | {"winamax", "kingsclub"} <= sites


@pytest.mark.parametrize("site", SITES_WITH_AN_ENDING)
def test_a_hand_cut_at_any_line_is_not_whole(site: str) -> None:
    """Every line-prefix of every hand of these sites reads as still being written
    (summaries, partial and cancelled hands aside: they are written as they are)."""
    texts = [t for _, s, t in HANDS if s == site and not any(m in t for m in SUMMARY_ONLY)]
    assert texts
    prefixes = 0
    for text in texts:
        lines = text.split("\n")
        for k in range(1, len(lines)):
            part = "\n".join(lines[:k])
            if part.strip():
                prefixes += 1
                assert not hand_finished(site, part, True), (site, lines[k - 1])
    assert prefixes > len(texts)


@pytest.mark.parametrize("site", ["winamax", "kingsclub"])
def test_a_hand_cut_before_its_last_line_is_not_whole(site: str) -> None:
    """Winamax and KingsClub do not repeat every seat: their summary's last line (a seat,
    who won) is the ending, so a cut inside it is told only before that line."""
    texts = [t for _, s, t in HANDS if s == site]
    assert texts
    for text in texts:
        lines = text.split("\n")
        last = max(i for i, line in enumerate(lines) if line.startswith("*** SUMMARY"))
        for k in range(1, last + 2):
            assert not hand_finished(site, "\n".join(lines[:k]), True), (site, lines[k - 1])


def test_a_last_line_without_its_line_break_is_still_being_written() -> None:
    text = stars_hand_texts()[0]
    assert hand_finished("pokerstars", text, True)
    assert not hand_finished("pokerstars", text, False)  # "...won ($2" may follow
    merge = next(t for _, s, t in HANDS if s == "merge")
    assert hand_finished("merge", merge, False)  # the closing tag ends it
    assert not hand_finished("merge", merge[: merge.rindex("</game>")], True)


def test_a_summary_missing_one_seat_is_not_whole() -> None:
    text = stars_hand_texts()[0]
    lines = text.split("\n")
    assert lines[-1].startswith("Seat ")
    assert not hand_finished("pokerstars", "\n".join(lines[:-1]), True)


def test_phh_and_unknown_sites_are_always_whole() -> None:
    assert hand_finished("phh", "[1]\nvariant = 'F2L7TD'", False)
    assert hand_finished("elsewhere", "anything", False)


@pytest.mark.parametrize(
    ("encoding", "bom"),
    [("utf-8", b""), ("utf-8-sig", codecs.BOM_UTF8), ("cp1252", b""),
     ("utf-16", codecs.BOM_UTF16_LE), ("utf-16", codecs.BOM_UTF16_BE),
     ("utf-16-le", b""), ("utf-16-be", b"")],
)  # fmt: skip
def test_line_break_at_the_end_in_every_encoding(encoding: str, bom: bytes) -> None:
    codec = {codecs.BOM_UTF16_LE: "utf-16-le", codecs.BOM_UTF16_BE: "utf-16-be"}.get(
        bom, encoding.removesuffix("-sig")
    )
    for text, ended in [("Seat 1: Hé won\r\n", True), ("Seat 1: Hé won\n\n  ", True),
                        ("Seat 1: Hé won", False), ("", False)]:  # fmt: skip
        data = bom + text.encode(codec)
        stream = io.BytesIO(data)
        stream.seek(3)
        assert ends_with_line_break(stream, len(data), encoding) is ended, (text, bom)
        assert stream.tell() == 3  # left where it was
    if codec.startswith("utf-16"):  # a lone last byte of a half-written character
        data = bom + "Seat 1\n".encode(codec) + b"S"
        assert ends_with_line_break(io.BytesIO(data), len(data), encoding)


def test_the_full_tilt_utf16_file_with_a_stray_last_byte_ends_its_line(tmp_path: Path) -> None:
    mix = CORPUS / "cash" / "FTP" / "Mix" / "10Game-6max-USD-2.50-5.201104.Sample.txt"
    raw = mix.read_bytes()
    assert len(raw) % 2 == 1  # the corpus file ends with half a character
    with mix.open("rb") as f:
        assert ends_with_line_break(f, len(raw), "utf-16")
