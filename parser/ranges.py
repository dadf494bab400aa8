"""Big files cut into parts at hands' starts, so that worker processes each read their own.

``drawlab verify --workers`` used to read, decode and cut every file in its main process
and send the hand texts to the workers: one core's work that did not spread, and texts
pickled twice.  Here the main process only finds where parts may start (a few bytes looked
at every ``PART_BYTES``, and the line breaks counted in C, to number each part's first
line), handing each out as it is found (``iter_parts``), and a worker opens the file and
reads its part exactly as ``parser.reader`` reads the whole file: the same hand texts,
line numbers and verdicts.

A file is cut only where that reading is provably the same: a disk file in an
ASCII-compatible encoding (a hand's start is the same bytes wherever it stands, never
inside a character), without lone-CR line breaks (every line break is a ``\\n`` byte),
with line breaks not doubled (decided from the file's head, as the reader decides it),
and of a site whose hands start at a line recognisable in bytes (``CUTTERS``).  Any other
file is one part, read whole.
"""

from __future__ import annotations

import codecs
import mmap
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import BinaryIO, cast

from parser import phh, pokerstars
from parser.encoding import BLOCK, looks_doubled, open_stream
from parser.reader import READ_ERRORS, Cut, cut_opened, cut_source, file_error
from parser.registry import READERS
from parser.sources import Source, open_range, site_reader

PART_BYTES = 1 << 20  # a part's size, roughly: a few hundred hands, a fraction of a second
CUTTERS: dict[str, Callable[[bytes | mmap.mmap, int], int]] = {
    pokerstars.SITE: pokerstars.next_hand_start,
    phh.SITE: phh.next_hand_start,
}
"""Per site: the offset of the first hand's start at or after a byte offset, -1 if none."""
_CUT_ENCODINGS = {"utf-8": "utf-8", "utf-8-sig": "utf-8", "cp1252": "cp1252"}
"""The encodings a file may be cut in, and the codec of a part after the first (the
byte-order mark is at the file's start only)."""
_READERS = {reader.site: reader for reader in READERS}


@dataclass(frozen=True, slots=True)
class Part:
    """Bytes ``start`` to ``end`` (None: to the file's end) of the file at ``path``, whose
    hands are named ``name``, its first line numbered ``line``.

    The first part (``encoding`` empty) is read as the whole file is read, its encoding
    and site detected; a later one starts at a hand and is read with the file's
    ``encoding`` by the reader of ``site``.
    """

    path: str
    name: str
    start: int = 0
    end: int | None = None
    line: int = 1
    encoding: str = ""
    site: str = ""


def parts(source: Source, part_bytes: int | None = None) -> list[Part] | None:
    """A disk file's parts in order, of about ``part_bytes`` (``PART_BYTES``) each (one
    part when it is small or cannot be cut); None for a source that is not a plain file
    on disk (an archive member, an upload).  ``iter_parts``, all found at once."""
    found = iter_parts(source, part_bytes)
    return None if found is None else list(found)


def iter_parts(source: Source, part_bytes: int | None = None) -> Iterator[Part] | None:
    """``parts`` handed out as they are found: a part is known as soon as the next hand's
    start after it is, so a caller sends the first to a worker before the rest of the
    file is looked at (finding all of a 24 MB file's took 55 ms, the workers idle).

    Whether the file may be cut is decided before the first part is given (from its
    head, and a look for carriage returns over the whole file, ``_lone_cr``), so the
    parts given are those ``parts`` gives, whatever the file holds further on."""
    part_bytes = part_bytes or PART_BYTES
    path = source.disk_path
    if path is None:
        return None
    whole = Part(path, source.name)
    if source.size < 2 * part_bytes:
        return iter((whole,))
    return _found(path, source.name, part_bytes, whole)


def _found(path: str, name: str, part_bytes: int, whole: Part) -> Iterator[Part]:
    """The parts of the file at ``path``, its mapping open while they are given."""
    try:
        with open(path, "rb") as f:
            cut = _cuttable(f)
            if cut is None:
                yield whole
                return
            with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
                if _lone_cr(data):
                    yield whole  # a line may end at a lone CR: only the whole file's way
                    return
                yield from _cut(data, f.fileno(), Part(path, name), part_bytes, cut)
    except (OSError, ValueError):  # unreadable now: read whole, the reader says why
        yield whole


@dataclass(frozen=True, slots=True)
class _Cutting:
    """How a file that may be cut is cut: where its next hand starts, and what a later part
    is read as."""

    next_hand: Callable[[bytes | mmap.mmap, int], int]  # the cutter of the file's site
    codec: str
    site: str


def _cuttable(f: BinaryIO) -> _Cutting | None:
    """The cutter, the parts' codec and the site of a file that may be cut, from its head."""
    first = f.read(BLOCK)
    decoded, _ = open_stream(f, first)
    codec = _CUT_ENCODINGS.get(decoded.encoding)
    if codec is None or decoded.binary:
        return None
    reader = site_reader(decoded.head)
    cutter = None if reader is None else CUTTERS.get(reader.site)
    if reader is None or cutter is None:
        return None
    head = codecs.decode(first, decoded.encoding, errors="replace")
    if looks_doubled(head) is not False:
        return None
    return _Cutting(next_hand=cutter, codec=codec, site=reader.site)


_SCAN_BYTES = 1 << 20  # the slice of the file a carriage return count looks at at once
_FIND_BYTES = 1 << 24  # the slice a first look for a carriage return takes at once


def _let_pages_go(data: mmap.mmap, end: int) -> None:
    """Unmap from this process the pages of ``data`` before ``end``, once looked at.

    Every page of a mapping that was read counts in this process's resident memory until
    the mapping closes: cutting a 1.4 GB file peaked at 1,401 MiB (43 MiB with its pages
    let go), which put the importer's main process at 1,390 MiB where 634 was its most
    otherwise; a verify run holds its mapping the whole run.  The pages stay in the
    system's file cache; a later look at them maps them again."""
    whole = end - end % mmap.PAGESIZE
    if whole > 0 and hasattr(mmap, "MADV_DONTNEED"):
        data.madvise(mmap.MADV_DONTNEED, 0, whole)


def _lone_cr(data: mmap.mmap) -> bool:
    """Whether a CR byte of ``data`` is not followed by a LF byte.  A file without any CR
    (most) is told by ``find`` in C, a large slice at a time; the others' CRs and CRLFs
    are counted a slice at a time, each slice one byte longer to see the LF after its
    last byte."""
    size = len(data)
    try:
        for pos in range(0, size, _FIND_BYTES):
            if data.find(b"\r", pos, pos + _FIND_BYTES) >= 0:
                break
            _let_pages_go(data, pos + _FIND_BYTES)
        else:
            return False
        for pos in range(0, size, _SCAN_BYTES):
            piece = data[pos : pos + _SCAN_BYTES + 1]
            crs = piece.count(b"\r", 0, _SCAN_BYTES)
            if crs and crs != piece.count(b"\r\n"):
                return True
            _let_pages_go(data, pos)
        return False
    finally:
        _let_pages_go(data, size)


def _cut(
    data: mmap.mmap, fileno: int, whole: Part, part_bytes: int, cutting: _Cutting
) -> Iterator[Part]:
    """The parts of ``data`` (no lone CR in it), the file ``whole`` is, each once the next
    one's start is found: every part after the first starts at a hand about ``part_bytes``
    past the last.

    The file is mapped while the parts are given out, a whole run long: should it shrink
    meanwhile, a look at the mapping past its new end would kill the process (SIGBUS),
    so its size is checked before each look, and once it has shrunk what is left of it
    is the last part, which a worker reads as it then is."""
    size = len(data)
    pos, line = 0, 1
    while True:
        if os.fstat(fileno).st_size < size:
            nxt = -1
        else:
            nxt = cutting.next_hand(data, pos + part_bytes) if pos + part_bytes < size else -1
        encoding = cutting.codec if pos else ""  # the first part's is detected, as a file's
        if nxt < 0:
            yield replace(whole, start=pos, line=line, encoding=encoding, site=cutting.site)
            return
        breaks = data[pos:nxt].count(b"\n")
        _let_pages_go(data, nxt)
        yield replace(whole, start=pos, end=nxt, line=line, encoding=encoding, site=cutting.site)
        line += breaks
        pos = nxt


def cut_part(part: Part) -> Iterator[Cut]:
    """The hand texts of one part, as ``parser.reader.cut_source`` gives those of the file."""
    if not part.encoding:
        yield from cut_source(
            Source(part.name, 0, lambda: _open(part), disk_path=part.path)
        )
        return
    try:
        stream = _open(part)
    except READ_ERRORS as exc:
        yield None, *file_error(part.name, f"cannot read the file: {exc}")
        return
    with stream:
        opened = open_range(part.name, stream, _READERS[part.site], part.encoding, part.line)
        yield from cut_opened(part.name, opened)


def _open(part: Part) -> BinaryIO:
    f = open(part.path, "rb")  # noqa: SIM115 - closed by whoever reads it
    if part.start == 0 and part.end is None:
        return f
    return cast(BinaryIO, _Window(f, part.start, part.end))


class _Window:
    """Bytes ``start`` to ``end`` of an open file, read as a stream of their own."""

    def __init__(self, f: BinaryIO, start: int, end: int | None) -> None:
        self._f = f
        try:
            f.seek(start)
        except BaseException:
            f.close()
            raise
        self._left = None if end is None else end - start

    def read(self, size: int = -1, /) -> bytes:
        if self._left is None:
            return self._f.read(size)
        want = self._left if size is None or size < 0 else min(size, self._left)
        data = self._f.read(want)
        self._left -= len(data)
        return data

    def close(self) -> None:
        self._f.close()

    def __enter__(self) -> _Window:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
