"""Where imported bytes come from, and how they become numbered lines, within hard limits.

The importer reads files, folders (recursively), zip archives and uploaded bytes.  It
decodes them as ``parser.encoding`` does (so line numbers match ``drawlab verify``),
streams every source line by line so that memory does not grow with a file, and refuses
what cannot be a hand history (binary data, lines of a megabyte, archives that expand far
beyond their size) with a message that names the file.
"""

from __future__ import annotations

import io
import os
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from parser.encoding import BLOCK, MAX_LINE, NumberedLines, block_count, open_stream
from parser.registry import READERS
from parser.site import SiteReader

MAX_LINE_CHARS = MAX_LINE  # the parser cuts longer lines at this length; none is a hand
MAX_ARCHIVE_RATIO = 200  # text compresses 5-30x; zip bombs 1000x and more
MAX_ARCHIVE_BYTES = 8 << 30
# "archive.zip/member.txt": the name parser.reader gives the member's hands (HandText.file),
# so `drawlab verify`, the database and the dashboard name a hand's file alike
ARCHIVE_SEP = "/"

_ZIP_MAGIC = b"PK\x03\x04"
_EMPTY_ZIP_MAGIC = b"PK\x05\x06"


class Rejected(Exception):
    """A whole source that will not be imported; the message names it and says why."""


@dataclass(frozen=True)
class Source:
    """A stream of bytes to import: a file on disk, an archive member, an upload."""

    name: str
    size: int
    open: Callable[[], BinaryIO]
    disk_path: str | None = None  # set for plain files, which can grow


def iter_sources(paths: Iterable[str | os.PathLike[str]]) -> Iterator[Source | Rejected]:
    """Every source under ``paths``, in a stable order, or why one cannot be read."""
    for p in paths:
        path = Path(p)
        if path.is_dir():
            try:
                files = sorted(f for f in path.rglob("*") if not f.is_dir())
            except OSError as e:
                yield Rejected(f"{path}: cannot list the folder: {e.strerror or e}")
                continue
            for f in files:
                yield from _path_sources(f)
        elif path.exists():
            yield from _path_sources(path)
        else:
            yield Rejected(f"{path}: no such file or folder")


def bytes_sources(name: str, data: bytes) -> Iterator[Source | Rejected]:
    """An upload: one file, or a zip archive whose members are the files."""
    if data[:4] in (_ZIP_MAGIC, _EMPTY_ZIP_MAGIC):
        yield from _zip_sources(name, lambda: io.BytesIO(data), len(data))
    else:
        yield Source(name, len(data), lambda: io.BytesIO(data))


def _path_sources(path: Path) -> Iterator[Source | Rejected]:
    try:
        size = path.stat().st_size
        with path.open("rb") as f:
            magic = f.read(4)
    except OSError as e:
        yield Rejected(f"{path}: cannot read the file: {e.strerror or e}")
        return
    if magic in (_ZIP_MAGIC, _EMPTY_ZIP_MAGIC):
        yield from _zip_sources(str(path), lambda: path.open("rb"), size)
    else:
        yield Source(str(path), size, lambda: path.open("rb"), disk_path=str(path))


def _zip_sources(
    name: str, opener: Callable[[], BinaryIO], size: int
) -> Iterator[Source | Rejected]:
    try:
        with zipfile.ZipFile(opener()) as zf:
            infos = sorted((i for i in zf.infolist() if not i.is_dir()), key=lambda i: i.filename)
    except (zipfile.BadZipFile, OSError, ValueError) as e:
        yield Rejected(f"{name}: not a readable zip archive: {e}")
        return
    budget = min(MAX_ARCHIVE_BYTES, max(size, 1 << 16) * MAX_ARCHIVE_RATIO)
    declared = sum(i.file_size for i in infos)
    if declared > budget:
        yield Rejected(
            f"{name}: the archive would expand to {declared:,} bytes from {size:,} "
            f"(more than {budget:,}): refused as a zip bomb"
        )
        return
    for info in infos:
        member = f"{name}{ARCHIVE_SEP}{info.filename}"
        if info.filename.lower().endswith(".zip"):
            yield Rejected(f"{member}: archives inside archives are not read; unpack it first")
            continue
        yield Source(member, info.file_size, _member_opener(opener, info.filename))


def _member_opener(opener: Callable[[], BinaryIO], member: str) -> Callable[[], BinaryIO]:
    def open_member() -> BinaryIO:
        zf = zipfile.ZipFile(opener())
        stream: BinaryIO = zf.open(member)  # type: ignore[assignment]
        return stream

    return open_member


# --- text ------------------------------------------------------------------------------


def site_reader(head: str) -> SiteReader | None:
    """The first registered site reader that recognises a file's head."""
    for reader in READERS:
        try:
            if reader.sniff(head):
                return reader
        except Exception:  # a broken sniff is that reader declining, not a crash
            continue
    return None


@dataclass
class Opened:
    """A source decoded: its site reader and its numbered lines.

    ``rejected`` is set when the lines stopped early at something no hand history holds;
    the hands before it are read normally.
    """

    reader: SiteReader
    encoding: str
    lines: Iterator[tuple[int, str]] = field(default_factory=lambda: iter(()))
    rejected: str | None = None


def open_lines(source: Source, stream: BinaryIO, *, start_line: int = 1) -> Opened:
    """Decode ``stream`` as the parser does and number its lines from the file's first.

    Lines before ``start_line`` are decoded (line numbers and doubled breaks depend on them)
    but not handed on: that is how a grown file resumes at its last hand.  Raises
    ``Rejected`` for binary data and text no site reader recognises; an enormous line ends
    the lines and sets ``rejected``.
    """
    first = stream.read(BLOCK)
    decoded, lines = open_stream(stream, first)
    if decoded.binary:
        raise Rejected(f"{source.name}: binary data, not a text hand history")
    if not decoded.head.strip() and len(first) < BLOCK:
        raise Rejected(f"{source.name}: the file holds no text")
    reader = site_reader(decoded.head)
    if reader is None:
        sites = ", ".join(r.site for r in READERS)
        raise Rejected(
            f"{source.name}: not a hand history this program reads (sites read: {sites})"
        )
    opened = Opened(reader, decoded.encoding)
    blocks = lines.blocks()
    assert blocks is not None  # nothing has read the lines yet
    opened.lines = NumberedLines(_bounded(blocks, opened, source.name, start_line))
    return opened


def _bounded(
    blocks: Iterator[tuple[int, str]], opened: Opened, name: str, start_line: int
) -> Iterator[tuple[int, str]]:
    """The blocks of lines from ``start_line`` on, ending before the first enormous line.

    A block shorter than the limit cannot hold such a line, so only a block as long as the
    limit is looked at line by line.
    """
    for no, text in blocks:
        if len(text) >= MAX_LINE_CHARS:
            lines = text.split("\n")
            for i, line in enumerate(lines):
                if len(line) >= MAX_LINE_CHARS:
                    keep = lines[max(start_line - no, 0) : i]
                    if keep:
                        yield max(no, start_line), "\n".join(keep)
                    opened.rejected = (
                        f"{name}:{no + i}: a line of {MAX_LINE_CHARS:,} characters or more: "
                        "not a hand history; the rest of the file is not read"
                    )
                    return
        if no < start_line:
            skip = start_line - no
            if skip >= block_count(text):
                continue
            cut = -1
            for _ in range(skip):
                cut = text.index("\n", cut + 1)
            text = text[cut + 1 :]
            no = start_line
        yield no, text
