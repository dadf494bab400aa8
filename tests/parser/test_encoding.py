"""Encodings, line ends and doubled lines are detected from the bytes, never asked."""

from __future__ import annotations

import codecs
import io
import tracemalloc

from hypothesis import given, settings
from hypothesis import strategies as st

from parser.encoding import (
    NumberedLines,
    detect_encoding,
    line_blocks,
    looks_binary,
    open_stream,
    split_lines,
    text_lines,
    undouble,
    undouble_blocks,
)
from tests.parser_corpus import CORPUS

SAMPLE = "PokerStars Hand #1: café\r\nSeat 1: Zoë ($5 in chips)\r\nHero: folds"


def lines_of(data: bytes) -> list[tuple[int, str]]:
    return list(open_stream(io.BytesIO(data))[1])


def test_utf8_with_and_without_bom_decode_to_the_same_lines() -> None:
    plain = SAMPLE.encode("utf-8")
    assert detect_encoding(plain) == "utf-8"
    assert detect_encoding(codecs.BOM_UTF8 + plain) == "utf-8-sig"
    expected = [
        (1, "PokerStars Hand #1: café"),
        (2, "Seat 1: Zoë ($5 in chips)"),
        (3, "Hero: folds"),
    ]
    assert lines_of(plain) == expected
    assert lines_of(codecs.BOM_UTF8 + plain) == expected


def test_utf16_with_bom_either_order_and_little_endian_without_bom() -> None:
    expected = [
        (1, "PokerStars Hand #1: café"),
        (2, "Seat 1: Zoë ($5 in chips)"),
        (3, "Hero: folds"),
    ]
    for data, codec in (
        (SAMPLE.encode("utf-16"), "utf-16"),
        (codecs.BOM_UTF16_BE + SAMPLE.encode("utf-16-be"), "utf-16"),
        (SAMPLE.encode("utf-16-le"), "utf-16-le"),
        (SAMPLE.encode("utf-16-be"), "utf-16-be"),
    ):
        assert detect_encoding(data) == codec
        assert lines_of(data) == expected


def test_cp1252_is_the_fallback_for_bytes_that_are_not_utf8() -> None:
    data = "Seat 1: José (€5 in chips)\n".encode("cp1252")
    assert detect_encoding(data) == "cp1252"
    assert lines_of(data) == [(1, "Seat 1: José (€5 in chips)")]


def test_crlf_lf_and_lone_cr_each_end_one_line() -> None:
    assert lines_of(b"a\r\nb\nc\rd\r\n") == [(1, "a"), (2, "b"), (3, "c"), (4, "d")]
    assert lines_of(b"a\n\nb") == [(1, "a"), (2, ""), (3, "b")]


def test_a_crlf_cut_between_two_blocks_is_one_break() -> None:
    assert list(split_lines(["a\r", "\nb"])) == [(1, "a"), (2, "b")]
    assert list(split_lines(["a\r", "b"])) == [(1, "a"), (2, "b")]
    assert list(split_lines(["a", "\r", "\n", "b\r"])) == [(1, "a"), (2, "b")]


def test_doubled_line_breaks_are_undone_keeping_the_file_line_numbers() -> None:
    # "A B C D, a blank line, E F" written with every line break doubled.
    doubled = "A\n\nB\n\nC\n\nD\n\n\n\nE\n\nF\n\n"
    assert list(text_lines(doubled)) == [
        (1, "A"), (3, "B"), (5, "C"), (7, "D"), (8, ""), (11, "E"), (13, "F"),
    ]  # fmt: skip


def test_single_spaced_text_keeps_its_blank_lines() -> None:
    text = "A\nB\n\nC\nD\nE\n"
    assert list(undouble(iter(split_lines([text])))) == [
        (1, "A"), (2, "B"), (3, ""), (4, "C"), (5, "D"), (6, "E"),
    ]  # fmt: skip


def test_full_tilt_utf16_double_spaced_corpus_file() -> None:
    path = CORPUS / "cash/FTP/Draw/3-Draw-Limit-USD-0.10-0.20-201011.txt"
    with path.open("rb") as f:
        decoded, lines = open_stream(f)
        first = [next(lines) for _ in range(3)]
    assert decoded.encoding == "utf-16"
    assert not decoded.binary
    assert first[0][0] == 1 and first[0][1].startswith("Full Tilt Poker Game #25325440000:")
    assert first[1] == (3, "Seat 1: Player1 ($2)")
    assert first[2][0] == 5


def test_binary_data_is_recognised() -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))
    decoded, _ = open_stream(io.BytesIO(png))
    assert decoded.binary
    assert not looks_binary(b"Hero: folds\n", "Hero: folds\n", "utf-8")


class _Endless(io.RawIOBase):
    """A stream of ``blocks`` copies of one block, made as it is read."""

    def __init__(self, block: bytes, blocks: int) -> None:
        self.block = block
        self.left = blocks

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if self.left == 0:
            return b""
        self.left -= 1
        return self.block


def test_memory_stays_flat_however_long_the_stream() -> None:
    block = ("Player1: calls $0.10\r\n" * 3000).encode("utf-16-le")

    def peak(blocks: int) -> int:
        tracemalloc.start()
        count = sum(1 for _ in open_stream(_Endless(block, blocks))[1])
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert count == 3000 * blocks
        return top

    small, large = peak(5), peak(100)
    assert large < small * 2


_LINE = st.text(
    alphabet=st.characters(exclude_characters="\r\n", exclude_categories=["Cs"]),
    max_size=30,
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_LINE, max_size=20), st.sampled_from(["\n", "\r\n", "\r"]))
def test_split_lines_gives_back_every_line_whatever_the_line_end(
    lines: list[str], end: str
) -> None:
    text = "".join(line + end for line in lines)
    cuts = [text[i : i + 7] for i in range(0, len(text), 7)]
    assert list(split_lines(cuts)) == list(enumerate(lines, start=1))


@settings(max_examples=150, deadline=None)
@given(
    # NULs excluded: UTF-8 bytes that are mostly NULs are read as UTF-16 by design; and a
    # line that is only byte-order marks, which as the first and only line is no text at all
    st.lists(
        _LINE.filter(lambda t: t.lstrip("\ufeff").strip() != "" and "\x00" not in t),
        min_size=1,
        max_size=20,
    ),
    st.sampled_from(["\n", "\r\n"]),
    st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-16-be"]),
)
def test_any_text_in_any_unicode_encoding_reads_back(
    lines: list[str], end: str, codec: str
) -> None:
    data = end.join(lines).encode(codec)
    if codec == "utf-16-be":
        data = codecs.BOM_UTF16_BE + data
    assert [line for _, line in lines_of(data)] == [
        line.lstrip("\ufeff") if i == 0 else line for i, line in enumerate(lines)
    ]


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=3000), st.integers(min_value=1, max_value=64))
def test_any_bytes_cut_anywhere_decode_without_error(data: bytes, cut: int) -> None:
    pieces = [data[i : i + cut] for i in range(0, len(data), cut)]

    class Pieces(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def read(self, size: int = -1) -> bytes:
            return pieces.pop(0) if pieces else b""

    decoded, lines = open_stream(Pieces())
    numbers = [n for n, _ in lines]
    assert numbers == sorted(numbers)
    assert isinstance(decoded.binary, bool)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(_LINE, max_size=30),
    st.sampled_from(["\n", "\r\n", "\r"]),
    st.integers(min_value=1, max_value=9),
)
def test_blocks_hold_every_line_consecutively_whatever_the_cut(
    lines: list[str], end: str, cut: int
) -> None:
    text = "".join(line + end for line in lines)
    pieces = [text[i : i + cut] for i in range(0, len(text), cut)]
    blocks = list(line_blocks(pieces))
    pairs = [(no + i, line) for no, block in blocks for i, line in enumerate(block.split("\n"))]
    assert pairs == list(enumerate(lines, start=1))


def test_numbered_lines_give_blocks_only_while_no_line_was_taken() -> None:
    fresh = NumberedLines(undouble_blocks(line_blocks(["a\nb\n", "c\nd"])))
    assert list(fresh.blocks() or ()) == [(1, "a\nb"), (3, "c"), (4, "d")]
    started = text_lines("a\nb\nc")
    assert next(started) == (1, "a")
    assert started.blocks() is None
    assert list(started) == [(2, "b"), (3, "c")]


def test_a_doubled_file_gives_its_kept_lines_one_block_each() -> None:
    doubled = "A\n\nB\n\nC\n\nD\n\n\n\nE\n\n"
    blocks = text_lines(doubled).blocks()
    assert list(blocks or ()) == [(1, "A"), (3, "B"), (5, "C"), (7, "D"), (8, ""), (11, "E")]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(_LINE.filter(bool), st.sampled_from(["\n", "\r\n", "\r"])), max_size=30),
    st.integers(min_value=1, max_value=9),
)
def test_crlf_and_lone_cr_mixed_in_one_piece_each_end_one_line(
    ended: list[tuple[str, str]], cut: int
) -> None:
    text = "".join(line + end for line, end in ended)
    expected = list(enumerate((line for line, _ in ended), start=1))
    assert list(split_lines([text])) == expected
    assert list(split_lines([text[i : i + cut] for i in range(0, len(text), cut)])) == expected
