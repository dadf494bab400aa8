"""Where hand histories come from, and how their bytes become numbered lines: one pipeline.

``drawlab verify``, ``convert``, ``import``, ``reverify`` and the dashboard's uploads all
read through here, so a file gets the same name, the same limits and the same verdict
whichever of them reads it.  A *source* is one stream of bytes: a file on disk, a member of
a zip archive (archives inside archives are read too, up to ``MAX_NESTING`` deep) or an
upload's bytes.  What cannot be a hand history (binary data, lines of a megabyte, archives
that expand far beyond their size, text no site reader recognises) is ``Rejected`` with a
reason, and whoever reads the sources gives it one verdict naming the source.

Limits, for every reader alike:

- an archive member may expand to at most ``MAX_MEMBER_RATIO`` times its compressed size
  (text compresses 5-30x, zip bombs 1000x and more), and all the members of one archive
  together to ``MAX_ARCHIVE_BYTES``; a member's stream also stops at its declared size, so
  an archive lying about its sizes cannot fill memory;
- an archive inside an archive is held in memory to be opened (zipfile must seek), so it
  may be at most ``MAX_NESTED_BYTES`` big;
- a line of ``MAX_LINE_CHARS`` characters or more ends the source's lines.

Members are read in name order, folders recursively in name order (a link back up the tree
is not followed twice); a member's name is ``archive.zip/member.txt`` (``ARCHIVE_SEP``).
"""

from __future__ import annotations

import io
import os
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, BinaryIO, cast

from parser.encoding import (
    BLOCK,
    MAX_LINE,
    NumberedLines,
    block_count,
    decoded_pieces,
    line_blocks,
    open_stream,
)
from parser.registry import READERS
from parser.site import SiteReader

MAX_LINE_CHARS = MAX_LINE  # the parser cuts longer lines at this length; none is a hand
MAX_MEMBER_RATIO = 200  # expanded size over compressed size, beyond which a member is a bomb
MAX_ARCHIVE_BYTES = 8 << 30  # all members of one archive together, once expanded
MAX_NESTING = 3  # archives inside archives, counting the outermost
MAX_NESTED_BYTES = 512 << 20  # an archive inside an archive is opened in memory
ARCHIVE_SEP = "/"  # "archive.zip/member.txt": the name a member's hands carry everywhere

_ZIP_MAGIC = b"PK\x03\x04"
_EMPTY_ZIP_MAGIC = b"PK\x05\x06"
_ZIP_ERRORS = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    OSError,
    ValueError,
    EOFError,
    RuntimeError,  # an encrypted member
    NotImplementedError,  # a compression method zipfile lacks
)


class Rejected(Exception):
    """A whole source that will not be read; ``str()`` names it and says why.

    ``line_text``, ``expected`` and ``text`` are what a parse error shows about it (the
    first line of a text no site reads, what was expected, the text's head).
    """

    def __init__(
        self, name: str, reason: str, *, line_text: str = "", expected: str = "", text: str = ""
    ) -> None:
        self.name = name
        self.reason = reason
        self.line_text = line_text
        self.expected = expected
        self.text = text
        super().__init__(f"{name}: {reason}")

    def __reduce__(self) -> tuple[object, ...]:  # picklable, as ParseError is
        return (
            _rebuild_rejected,
            (self.name, self.reason, self.line_text, self.expected, self.text),
        )


def _rebuild_rejected(name: str, reason: str, line_text: str, expected: str, text: str) -> Rejected:
    return Rejected(name, reason, line_text=line_text, expected=expected, text=text)


@dataclass(frozen=True)
class Source:
    """A stream of bytes to read: a file on disk, an archive member, an upload."""

    name: str
    size: int
    open: Callable[[], BinaryIO]
    disk_path: str | None = None  # set for plain files, which can grow


def is_archive(magic: bytes) -> bool:
    """True for bytes that start a zip archive (an empty one included)."""
    return magic[:4] in (_ZIP_MAGIC, _EMPTY_ZIP_MAGIC)


def iter_sources(paths: Iterable[str | os.PathLike[str]]) -> Iterator[Source | Rejected]:
    """Every source under ``paths``, in a stable order, or why one cannot be read."""
    for p in paths:
        path = Path(p)
        if path.is_dir():
            yield from _dir_sources(path, frozenset())
        elif path.exists() or path.is_symlink():
            yield from _path_sources(path)
        else:
            yield Rejected(str(path), "no such file or folder")


def bytes_sources(name: str, data: bytes) -> Iterator[Source | Rejected]:
    """An upload: one file, or a zip archive whose members are the files."""
    if is_archive(data):
        yield from _zip_sources(name, lambda: io.BytesIO(data), len(data), 1)
    else:
        yield Source(name, len(data), lambda: io.BytesIO(data))


def _dir_sources(folder: Path, seen: frozenset[Path]) -> Iterator[Source | Rejected]:
    try:
        real = folder.resolve()
        entries = sorted(folder.iterdir(), key=lambda e: e.name)
    except (OSError, RuntimeError) as exc:
        yield Rejected(str(folder), f"cannot list the folder: {exc}")
        return
    if real in seen:  # a link back up the tree: its files are being read already
        return
    for entry in entries:
        if entry.is_dir():
            yield from _dir_sources(entry, seen | {real})
        else:
            yield from _path_sources(entry)


def _path_sources(path: Path) -> Iterator[Source | Rejected]:
    try:
        size = path.stat().st_size
        with path.open("rb") as f:
            magic = f.read(4)
    except OSError as exc:
        yield Rejected(str(path), f"cannot read the file: {exc.strerror or exc}")
        return
    if is_archive(magic):
        yield from _zip_sources(str(path), lambda: path.open("rb"), size, 1)
    else:
        yield Source(str(path), size, lambda: path.open("rb"), disk_path=str(path))


def _zip_sources(
    name: str, opener: Callable[[], BinaryIO], size: int, depth: int
) -> Iterator[Source | Rejected]:
    """The members of the archive ``opener`` opens, each bounded, nested ones expanded."""
    if depth > MAX_NESTING:
        yield Rejected(name, "archive nested too deep: not read")
        return
    try:
        with opener() as stream, zipfile.ZipFile(stream) as zf:
            infos = sorted((i for i in zf.infolist() if not i.is_dir()), key=lambda i: i.filename)
            nested = {i.filename for i in infos if _member_magic(zf, i)}
    except _ZIP_ERRORS as exc:
        yield Rejected(name, f"not a readable zip archive: {exc}")
        return
    budget = MAX_ARCHIVE_BYTES
    for info in infos:
        member = f"{name}{ARCHIVE_SEP}{info.filename}"
        ratio_limit = max(info.compress_size, 1) * MAX_MEMBER_RATIO + BLOCK
        if info.file_size > ratio_limit:
            yield Rejected(
                member,
                f"archive member expands to {info.file_size} bytes from "
                f"{info.compress_size:,}: refused as a zip bomb, not read",
            )
            continue
        if info.file_size > budget:
            yield Rejected(
                member,
                f"archive member expands to {info.file_size} bytes, beyond the "
                f"{MAX_ARCHIVE_BYTES:,} bytes one archive may hold: not read",
            )
            continue
        budget -= info.file_size
        open_member = _member_opener(opener, info.filename, info.file_size)
        if info.filename in nested:
            if info.file_size > MAX_NESTED_BYTES:
                yield Rejected(
                    member,
                    f"an archive inside an archive of {info.file_size:,} bytes "
                    f"(more than {MAX_NESTED_BYTES:,}): unpack it first",
                )
                continue
            yield from _zip_sources(member, _in_memory(open_member), info.file_size, depth + 1)
        else:
            yield Source(member, info.file_size, open_member)


def _member_magic(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> bool:
    """True when the member is itself a zip archive (by its bytes, not its name)."""
    if info.file_size < 4:
        return False
    with zf.open(info) as raw:
        return is_archive(raw.read(4))


def _member_opener(
    opener: Callable[[], BinaryIO], member: str, limit: int
) -> Callable[[], BinaryIO]:
    def open_member() -> BinaryIO:
        outer = opener()
        try:
            zf = zipfile.ZipFile(outer)
            raw = zf.open(member)
        except BaseException:
            outer.close()
            raise
        return cast(BinaryIO, Bounded(raw, limit, (zf, outer)))

    return open_member


def _in_memory(open_member: Callable[[], BinaryIO]) -> Callable[[], BinaryIO]:
    """An opener of an archive member as a seekable stream (zipfile seeks)."""

    def open_copy() -> BinaryIO:
        with open_member() as stream:
            return io.BytesIO(stream.read())

    return open_copy


class Bounded:
    """A member stream that ends at a byte budget, so a lying archive cannot fill memory.

    ``exceeded`` tells, once the stream ended, whether there was more than the budget.
    """

    def __init__(self, raw: IO[bytes], limit: int, owners: tuple[object, ...] = ()) -> None:
        self._raw = raw
        self._limit = limit
        self._owners = owners  # the archive and file the member is read from, closed with it
        self.consumed = 0
        self.exceeded = False

    def read(self, size: int = -1, /) -> bytes:
        room = self._limit - self.consumed
        if room <= 0:
            self.exceeded = self.exceeded or bool(self._raw.read(1))
            return b""
        data = self._raw.read(room if size is None or size < 0 else min(size, room))
        self.consumed += len(data)
        return data

    def close(self) -> None:
        self._raw.close()
        for owner in self._owners:
            close = getattr(owner, "close", None)
            if close is not None:
                close()

    def __enter__(self) -> Bounded:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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


def foreign(name: str, head: str) -> Rejected:
    """The rejection of a text no site reader recognises, ``head`` its first characters."""
    sites = ", ".join(r.site for r in READERS)
    return Rejected(
        name,
        f"not a hand history this program reads (sites read: {sites})",
        line_text=_first_line(head),
        expected="a hand history from " + sites,
        text=head,
    )


@dataclass
class Opened:
    """A source decoded: its site reader and its numbered lines.

    ``rejected`` is set once the lines stopped early at something no hand history holds
    (an enormous line, a member longer than its archive said); the hands before it are
    read normally.
    """

    reader: SiteReader
    encoding: str
    lines: Iterator[tuple[int, str]] = field(default_factory=lambda: iter(()))
    rejected: str | None = None


def open_lines(source: Source | str, stream: BinaryIO, *, start_line: int = 1) -> Opened:
    """Decode ``stream`` and number its lines from the file's first; pick its site reader.

    Lines before ``start_line`` are decoded (line numbers and doubled breaks depend on them)
    but not handed on: that is how a grown file resumes at its last hand.  Raises
    ``Rejected`` for binary data, no text, and text no site reader recognises; an enormous
    line ends the lines and sets ``rejected``.
    """
    name = source if isinstance(source, str) else source.name
    first = stream.read(BLOCK)
    decoded, lines = open_stream(stream, first)
    if decoded.binary:
        raise Rejected(
            name, "binary data, not a text hand history", expected="a hand-history text file"
        )
    if not decoded.head.strip() and len(first) < BLOCK:
        raise Rejected(name, "the file holds no text", expected="a hand history")
    reader = site_reader(decoded.head)
    if reader is None:
        raise foreign(name, decoded.head)
    opened = Opened(reader, decoded.encoding)
    blocks = lines.blocks()
    assert blocks is not None  # nothing has read the lines yet
    opened.lines = NumberedLines(_bounded(blocks, opened, name, start_line, stream))
    return opened


def open_range(
    name: str, stream: BinaryIO, reader: SiteReader, encoding: str, first_line: int
) -> Opened:
    """The numbered lines of a part of a file that starts at a hand, its first line
    ``first_line``: decoded with the file's ``encoding`` by the file's ``reader``, as
    ``open_lines`` would give them reading the whole file (``parser.ranges`` makes sure
    the file is one where that holds: no doubled or lone-CR line breaks)."""
    opened = Opened(reader, encoding)
    blocks = line_blocks(decoded_pieces(stream, encoding), first_line)
    opened.lines = NumberedLines(_bounded(blocks, opened, name, first_line, stream))
    return opened


def _bounded(
    blocks: Iterator[tuple[int, str]],
    opened: Opened,
    name: str,
    start_line: int,
    stream: object,
) -> Iterator[tuple[int, str]]:
    """The blocks of lines from ``start_line`` on, ending before the first enormous line.

    A block shorter than the limit cannot hold such a line, so only a block as long as the
    limit is looked at line by line.
    """
    limit = MAX_LINE_CHARS
    for no, text in blocks:
        if len(text) >= limit:
            lines = text.split("\n")
            for i, line in enumerate(lines):
                if len(line) >= limit:
                    keep = lines[max(start_line - no, 0) : i]
                    if keep:
                        yield max(no, start_line), "\n".join(keep)
                    opened.rejected = (
                        f"{name}:{no + i}: a line of {limit:,} characters or more: "
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
    if isinstance(stream, Bounded) and stream.exceeded:
        opened.rejected = (
            f"{name}: archive member longer than the archive says: the rest is not read"
        )


def _first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line[:200]
    return ""
