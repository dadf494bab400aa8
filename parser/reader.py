"""Files, folders and archives in; one verdict per hand out, whatever the input holds.

The reader is site-blind: it decodes, asks each registered site reader whether the text is
theirs, and lets that reader cut and parse it hand by hand.  Whatever goes wrong comes out
as a ``ParseError`` value naming the file, so one bad hand, file or archive member never
stops the rest from being read.
"""

from __future__ import annotations

import io
import os
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, BinaryIO, cast

from parser.encoding import BLOCK, HEAD_CHARS, ByteSource, open_stream, text_lines
from parser.outcome import HandText, Outcome, ParseError
from parser.registry import READERS
from parser.site import SiteReader

Result = tuple[HandText, Outcome]

MAX_ARCHIVE_BYTES = 4 << 30  # all members of one archive together, once expanded
MAX_MEMBER_RATIO = 200  # expanded size over compressed size, beyond which a member is a bomb
MAX_NESTING = 3  # archives inside archives
INTERNAL = "reader failed"  # message prefix of errors that are our bugs, not the file's
_ZIP_MAGIC = b"PK\x03\x04"
_EMPTY_ZIP = b"PK\x05\x06"


def read_path(path: str | os.PathLike[str]) -> Iterator[Result]:
    """Every hand in a file, a folder (recursively, in sorted order) or a .zip archive."""
    p = Path(path)
    if p.is_dir():
        yield from _read_dir(p)
        return
    name = str(p)
    try:
        stream = p.open("rb")
    except OSError as exc:
        yield _file_error(name, f"cannot open the file: {exc.strerror or exc}")
        return
    with stream:
        yield from _read_stream(stream, name)


def read_bytes(data: bytes, file: str) -> Iterator[Result]:
    """Every hand in an uploaded file's bytes (a text file or a .zip archive)."""
    yield from _read_stream(io.BytesIO(data), file)


def read_text(text: str, file: str) -> Iterator[Result]:
    """Every hand in decoded text."""
    head = text[:HEAD_CHARS].lstrip("\ufeff")
    yield from _read_lines(head, text_lines(text), file)


def _read_dir(folder: Path, seen: frozenset[Path] = frozenset()) -> Iterator[Result]:
    try:
        real = folder.resolve()
        entries = sorted(folder.iterdir(), key=lambda e: e.name)
    except (OSError, RuntimeError) as exc:
        yield _file_error(str(folder), f"cannot list the folder: {exc}")
        return
    if real in seen:  # a link back up the tree: its files are being read already
        return
    for entry in entries:
        if entry.is_dir():
            yield from _read_dir(entry, seen | {real})
        else:
            yield from read_path(entry)


def _read_stream(stream: ByteSource, file: str, depth: int = 0) -> Iterator[Result]:
    try:
        first = stream.read(BLOCK)
    except OSError as exc:
        yield _file_error(file, f"cannot read the file: {exc.strerror or exc}")
        return
    if first.startswith((_ZIP_MAGIC, _EMPTY_ZIP)):
        if depth >= MAX_NESTING:
            yield _file_error(file, "archive nested too deep: not read")
            return
        if isinstance(stream, _Bounded):  # an archive inside an archive: zipfile must seek
            stream = io.BytesIO(first + stream.read())
        yield from _read_zip(cast(BinaryIO, stream), file, depth)
        return
    decoded, lines = open_stream(stream, first)
    if decoded.binary:
        yield _file_error(
            file, "not a text file (binary data)", expected="a hand-history text file"
        )
        return
    yield from _read_lines(decoded.head, lines, file)


def _read_zip(stream: BinaryIO, file: str, depth: int) -> Iterator[Result]:
    try:
        stream.seek(0)
        archive = zipfile.ZipFile(stream)
        members = sorted(
            (m for m in archive.infolist() if not m.is_dir()), key=lambda m: m.filename
        )
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError) as exc:
        yield _file_error(file, f"not a readable .zip archive: {exc}")
        return
    budget = MAX_ARCHIVE_BYTES
    with archive:
        for member in members:
            name = f"{file}/{member.filename}"
            limit = min(budget, max(member.compress_size, 1) * MAX_MEMBER_RATIO + BLOCK)
            if member.file_size > limit:
                yield _file_error(
                    name, f"archive member expands to {member.file_size} bytes: not read"
                )
                continue
            try:
                with archive.open(member) as raw:
                    bounded = _Bounded(raw, limit)
                    yield from _read_stream(bounded, name, depth + 1)
            except (
                zipfile.BadZipFile,
                OSError,
                ValueError,
                EOFError,
                RuntimeError,
                NotImplementedError,
            ) as exc:
                yield _file_error(name, f"archive member cannot be read: {exc}")
                continue
            budget -= bounded.consumed
            if bounded.exceeded:
                yield _file_error(
                    name, f"archive member expands beyond {limit} bytes: the rest is not read"
                )


class _Bounded:
    """A member stream that ends at a byte budget, so a lying archive cannot fill memory."""

    def __init__(self, raw: IO[bytes], limit: int) -> None:
        self._raw = raw
        self._limit = limit
        self.consumed = 0
        self.exceeded = False

    def read(self, size: int = -1) -> bytes:
        room = self._limit - self.consumed
        if room <= 0:
            self.exceeded = self.exceeded or bool(self._raw.read(1))
            return b""
        data = self._raw.read(room if size < 0 else min(size, room))
        self.consumed += len(data)
        return data


def _read_lines(head: str, lines: Iterator[tuple[int, str]], file: str) -> Iterator[Result]:
    if not head.strip() and not any(line.strip() for _, line in lines):
        yield _file_error(file, "the file holds no text", expected="a hand history")
        return
    reader = _sniff(head)
    if reader is None:
        yield _file_error(
            file,
            "not a hand history this program reads",
            line_text=_first_line(head),
            expected="a hand history from " + ", ".join(r.site for r in READERS),
            text=head,
        )
        return
    chunks = reader.split(lines, file)
    while True:
        try:
            chunk = next(chunks)
        except StopIteration:
            return
        except ParseError as exc:
            yield HandText(file, exc.line, exc.line_text, reader.site), exc
            return
        except (OSError, EOFError, zipfile.BadZipFile) as exc:
            yield _file_error(file, f"cannot read the rest of the file: {exc}")
            return
        except Exception as exc:  # a site reader's bug must not stop the user's import
            yield _file_error(file, f"{INTERNAL}: {type(exc).__name__}: {exc}")
            return
        yield chunk, _parse(reader, chunk)


def _parse(reader: SiteReader, chunk: HandText) -> Outcome:
    try:
        return reader.parse(chunk)
    except ParseError as exc:
        return exc
    except Exception as exc:  # a site reader's bug is reported on the hand, never raised
        return ParseError(
            f"{INTERNAL}: {type(exc).__name__}: {exc}",
            file=chunk.file,
            line=chunk.line,
            line_text=chunk.text.split("\n", 1)[0],
        )


def _sniff(head: str) -> SiteReader | None:
    for reader in READERS:
        try:
            if reader.sniff(head):
                return reader
        except Exception:  # a broken sniff is that reader declining, not a crash
            continue
    return None


def _first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line[:200]
    return ""


def _file_error(
    file: str, message: str, *, line_text: str = "", expected: str = "", text: str = ""
) -> Result:
    return HandText(file, 1, text), ParseError(
        message, file=file, line=1, line_text=line_text, expected=expected
    )
