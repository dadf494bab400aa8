"""Bytes to numbered lines: detect the encoding, decode as the bytes arrive, split lazily.

Poker clients write UTF-8 with or without a byte-order mark, UTF-16 with a mark, UTF-16LE
without one (Full Tilt), or the Windows code page cp1252; some end lines with CRLF and Full
Tilt doubles every line break.  Users never tell us which, so everything here is detected
from the first block of bytes.  Decoding is incremental and lines are produced one at a
time, so reading a file of any size holds one block and one hand in memory.

Line numbers are those of the file as an editor shows it (1-based, counting every line
break), so an error can point at the text the user has.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import chain, count, islice
from typing import Protocol

BLOCK = 1 << 16
HEAD_CHARS = 8192
MAX_LINE = 1 << 20
_BREAK = re.compile(r"\r\n|\r|\n")
_LONE_CR = re.compile(r"\r(?!\n)")
_CONTROL = frozenset(chr(c) for c in range(32)) - {"\t", "\n", "\r", "\x0c", "\x1a"}


@dataclass(frozen=True, slots=True)
class Decoded:
    """A stream's encoding and the first characters of its text, for sniffing the site."""

    encoding: str
    head: str
    binary: bool


def detect_encoding(head: bytes) -> str:
    """The codec name for bytes that start with ``head`` (the first block of the file)."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    sample = head[:4096]
    if len(sample) >= 4:
        even_nuls = sample[0::2].count(0)
        odd_nuls = sample[1::2].count(0)
        half = len(sample) // 2
        if odd_nuls > half * 0.6 and even_nuls < half * 0.1:
            return "utf-16-le"
        if even_nuls > half * 0.6 and odd_nuls < half * 0.1:
            return "utf-16-be"
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return "cp1252"
    return "utf-8"


def looks_binary(head_bytes: bytes, head_text: str, encoding: str) -> bool:
    """True for bytes that are no text file: NULs outside UTF-16, or many control characters."""
    if not encoding.startswith("utf-16") and b"\x00" in head_bytes:
        return True
    sample = head_text[:HEAD_CHARS]
    if not sample:
        return False
    controls = sum(1 for ch in sample if ch in _CONTROL)
    replaced = sample.count("\ufffd")
    return controls > len(sample) // 100 + 2 or replaced > len(sample) // 20 + 2


def _decoder(encoding: str) -> codecs.IncrementalDecoder:
    return codecs.getincrementaldecoder(encoding)(errors="replace")


class ByteSource(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


def open_stream(stream: ByteSource, first: bytes | None = None) -> tuple[Decoded, NumberedLines]:
    """Detect the encoding from the first block (``first`` if already read); lines, lazily."""
    if first is None:
        first = stream.read(BLOCK)
    encoding = detect_encoding(first)
    decoder = _decoder(encoding)
    first_text = decoder.decode(first, final=False)
    decoded = Decoded(encoding, first_text[:HEAD_CHARS], looks_binary(first, first_text, encoding))

    def texts() -> Iterator[str]:
        yield first_text
        while True:
            block = stream.read(BLOCK)
            if not block:
                break
            yield decoder.decode(block, final=False)
        yield decoder.decode(b"", final=True)

    return decoded, NumberedLines(undouble_blocks(line_blocks(texts())))


def decoded_pieces(stream: ByteSource, encoding: str) -> Iterator[str]:
    """The text of ``stream`` block by block, decoded with ``encoding`` (already detected
    from the file's head): how a worker reads its part of a file cut at a hand's start."""
    decoder = _decoder(encoding)
    while True:
        block = stream.read(BLOCK)
        if not block:
            break
        yield decoder.decode(block, final=False)
    yield decoder.decode(b"", final=True)


def looks_doubled(head: str, probe: int = 200) -> bool | None:
    """Whether a file whose decoded head is ``head`` has its line breaks doubled, as
    ``undouble_blocks`` decides it; None when the head holds too few lines to tell."""
    first = list(islice(split_lines([head]), probe + 1))
    if len(first) <= probe:
        return None
    return _is_doubled(first[:probe])


def text_lines(text: str) -> NumberedLines:
    """Numbered lines of text already in memory (a leading BOM dropped), doubling undone."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return NumberedLines(undouble_blocks(line_blocks(_pieces(text))))


def _pieces(text: str) -> Iterator[str]:
    for start in range(0, len(text), BLOCK):
        yield text[start : start + BLOCK]


class NumberedLines:
    """(line number, line) pairs that can also be taken whole, as blocks of lines.

    A block is ``(number of its first line, its lines joined by "\\n")``; the lines of a
    block are consecutive in the file.  Iterating gives the pairs (made in C from the
    blocks, so a line costs no Python code here); a reader that cuts hands at a few marker
    lines can instead take ``blocks()`` and search each block with ``str`` methods.
    """

    __slots__ = ("_blocks", "_pairs", "_taken")

    def __init__(self, blocks: Iterator[tuple[int, str]]) -> None:
        self._blocks = blocks
        self._pairs: Iterator[tuple[int, str]] = _pairs(blocks)
        self._taken = False

    def __iter__(self) -> Iterator[tuple[int, str]]:
        self._taken = True
        return self._pairs

    def __next__(self) -> tuple[int, str]:
        self._taken = True
        return next(self._pairs)

    def blocks(self) -> Iterator[tuple[int, str]] | None:
        """The blocks, or None once any line was taken as a pair (the pairs and the blocks
        share one source, so a block half-taken as pairs cannot be given whole)."""
        if self._taken:
            return None
        self._taken = True
        return self._blocks


def _block_pairs(block: tuple[int, str]) -> Iterator[tuple[int, str]]:
    return zip(count(block[0]), block[1].split("\n"))


def _pairs(blocks: Iterable[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    """Blocks of lines as (line number, line) pairs."""
    return chain.from_iterable(map(_block_pairs, blocks))


def block_count(text: str) -> int:
    """How many lines a block holds (a block always holds at least one, maybe empty)."""
    return text.count("\n") + 1


def line_blocks(pieces: Iterable[str], number: int = 1) -> Iterator[tuple[int, str]]:
    """Cut decoded pieces at CRLF, CR or LF into blocks of whole lines, lazily.

    Each piece gives one block: its complete lines, joined by LF.  A piece whose CRs all
    stand in CRLFs (a Windows file) loses its CRs in one ``str.replace``; only a piece with
    a lone CR is cut by the regular expression.  A CR at the end of a piece is held back:
    the next piece may start with its LF.  A line still open after ``MAX_LINE`` characters
    is cut there.  ``number`` is the first piece's first line (1 at a file's start).
    """
    pending = ""  # the line still open; ``number`` is always the next line's
    for piece in pieces:
        if not piece:
            continue
        text = pending + piece
        held = ""
        if text.endswith("\r"):
            text, held = text[:-1], "\r"
        if "\r" in text and _LONE_CR.search(text) is None:
            text = text.replace("\r", "")  # every CR stands in a CRLF
        if "\r" in text:  # a lone CR: the regular expression tells it from CRLFs
            parts = _BREAK.split(text)
            pending = parts.pop() + held
            if parts:
                yield number, "\n".join(parts)
                number += len(parts)
        else:
            cut = text.rfind("\n")
            if cut >= 0:
                body = text[:cut]
                yield number, body
                number += body.count("\n") + 1
            pending = text[cut + 1 :] + held
        if len(pending) > MAX_LINE:
            # No text file has such lines; cut them so memory stays bounded.
            yield number, pending
            number += 1
            pending = ""
    if pending.endswith("\r"):  # a last line ended by a lone CR
        yield number, pending[:-1]
    elif pending:
        yield number, pending


def split_lines(pieces: Iterable[str]) -> Iterator[tuple[int, str]]:
    """Cut decoded pieces at CRLF, CR or LF into (line number, line) pairs, lazily."""
    return _pairs(line_blocks(pieces))


def undouble_blocks(
    blocks: Iterator[tuple[int, str]], probe: int = 200
) -> Iterator[tuple[int, str]]:
    """``undouble`` for blocks: blocks pass whole unless the file is doubled.

    The first ``probe`` lines decide, as in ``undouble``; a doubled file's kept lines come
    out one block each (their numbers are not consecutive).
    """
    head: list[tuple[int, str]] = []
    lines = 0
    for block in blocks:
        head.append(block)
        lines += block_count(block[1])
        if lines >= probe:
            break
    first = list(islice(_pairs(head), probe))
    if not _is_doubled(first):
        yield from head
        yield from blocks
        return
    pairs = _pairs(chain(head, blocks))
    yield from undouble(pairs, probe)


def undouble(lines: Iterator[tuple[int, str]], probe: int = 200) -> Iterator[tuple[int, str]]:
    """Undo the doubled line breaks some clients write, keeping the file's line numbers.

    A file is doubled when, in its first ``probe`` lines, every text line is followed by a
    blank one.  In such a file ``2n + 1`` blank lines stand for ``n`` written ones.
    """
    head: list[tuple[int, str]] = []
    for item in lines:
        head.append(item)
        if len(head) >= probe:
            break
    if not _is_doubled(head):
        yield from head
        yield from lines
        return
    blanks: list[tuple[int, str]] = []
    for item in _chain(head, lines):
        if item[1].strip():
            yield from blanks[: (len(blanks) - 1) // 2]
            blanks = []
            yield item
        else:
            blanks.append(item)
    yield from blanks[: (len(blanks) - 1) // 2]


def _chain(
    head: list[tuple[int, str]], rest: Iterator[tuple[int, str]]
) -> Iterator[tuple[int, str]]:
    yield from head
    yield from rest


def _is_doubled(head: list[tuple[int, str]]) -> bool:
    texts = [i for i, (_, line) in enumerate(head) if line.strip()]
    if len(texts) < 4:
        return False
    last = texts[-1]
    for i in texts:
        if i == last:
            break
        if i + 1 >= len(head) or head[i + 1][1].strip():
            return False
    return True
