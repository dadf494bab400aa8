"""Big files cut into parts at hands' starts, so that worker processes each read their own.

``drawlab verify --workers`` used to read, decode and cut every file in its main process
and send the hand texts to the workers: one core's work that did not spread, and texts
pickled twice.  Here the main process only finds where parts may start (a few bytes looked
at every ``PART_BYTES``, and the line breaks counted in C, to number each part's first
line), and a worker opens the file and reads its part exactly as ``parser.reader`` reads
the whole file: the same hand texts, line numbers and verdicts.

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
from collections.abc import Callable, Iterator
from dataclasses import dataclass
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
    on disk (an archive member, an upload)."""
    part_bytes = part_bytes or PART_BYTES
    path = source.disk_path
    if path is None:
        return None
    whole = [Part(path, source.name)]
    if source.size < 2 * part_bytes:
        return whole
    try:
        with open(path, "rb") as f:
            cut = _cuttable(f)
            if cut is None:
                return whole
            with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
                return _cut(data, source.name, path, part_bytes, *cut) or whole
    except (OSError, ValueError):  # unreadable now: read whole, the reader says why
        return whole


def _cuttable(f: BinaryIO) -> tuple[Callable[[bytes | mmap.mmap, int], int], str, str] | None:
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
    return cutter, codec, reader.site


def _cut(
    data: mmap.mmap,
    name: str,
    path: str,
    part_bytes: int,
    cutter: Callable[[bytes | mmap.mmap, int], int],
    codec: str,
    site: str,
) -> list[Part] | None:
    """The parts of ``data``, or None when a lone CR breaks a line somewhere."""
    starts: list[tuple[int, int]] = [(0, 1)]  # (offset, line) of each part
    size = len(data)
    pos, line = 0, 1
    while True:
        nxt = cutter(data, pos + part_bytes) if pos + part_bytes < size else -1
        piece = data[pos : nxt if nxt >= 0 else size]
        if piece.count(b"\r") != piece.count(b"\r\n"):
            return None  # a part ends at a line's start, so no CRLF straddles two parts
        if nxt < 0:
            break
        line += piece.count(b"\n")
        starts.append((nxt, line))
        pos = nxt
    ends = [offset for offset, _ in starts[1:]] + [None]
    return [
        Part(path, name, start, end, no, "" if start == 0 else codec, site)
        for (start, no), end in zip(starts, ends, strict=True)
    ]


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
