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
from typing import Protocol

BLOCK = 1 << 16
HEAD_CHARS = 8192
MAX_LINE = 1 << 20
_BREAK = re.compile(r"\r\n|\r|\n")
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


def open_stream(
    stream: ByteSource, first: bytes | None = None
) -> tuple[Decoded, Iterator[tuple[int, str]]]:
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

    return decoded, undouble(split_lines(texts()))


def text_lines(text: str) -> Iterator[tuple[int, str]]:
    """Numbered lines of text already in memory (a leading BOM dropped), doubling undone."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return undouble(split_lines(_pieces(text)))


def _pieces(text: str) -> Iterator[str]:
    for start in range(0, len(text), BLOCK):
        yield text[start : start + BLOCK]


def split_lines(pieces: Iterable[str]) -> Iterator[tuple[int, str]]:
    """Cut decoded pieces at CRLF, CR or LF into (line number, line) pairs, lazily.

    A CR at the end of a piece is held back: the next piece may start with its LF.
    """
    number = 0
    pending = ""
    for piece in pieces:
        if not piece:
            continue
        text = pending + piece
        parts = _BREAK.split(text)
        pending = parts.pop()
        if text.endswith("\r"):
            # "...\r" split as a break; the LF of a CRLF may follow in the next piece.
            pending = parts.pop() + "\r"
        for line in parts:
            number += 1
            yield number, line
        if len(pending) > MAX_LINE:
            # No text file has such lines; cut them so memory stays bounded.
            number += 1
            yield number, pending
            pending = ""
    if pending.endswith("\r"):  # a last line ended by a lone CR
        number += 1
        yield number, pending[:-1]
    elif pending:
        number += 1
        yield number, pending


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
