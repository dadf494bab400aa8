"""Files, folders and archives in; one verdict per hand out, whatever the input holds.

The reader is site-blind: ``parser.sources`` (the one reading pipeline, shared with the
importer) walks the sources, decodes them and picks the site reader; here that reader cuts
and parses each source hand by hand.  Whatever goes wrong comes out as a ``ParseError``
value naming the file, so one bad hand, file or archive member never stops the rest from
being read.
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Iterable, Iterator

from engine.tournament import TournamentSummary
from parser.encoding import HEAD_CHARS, text_lines
from parser.outcome import HandText, Outcome, ParseError
from parser.site import SiteReader
from parser.sources import (
    Opened,
    Rejected,
    Source,
    bytes_sources,
    foreign,
    iter_sources,
    open_lines,
    site_reader,
)
from parser.summaries import read_summary_stream

Result = tuple[HandText, Outcome]

INTERNAL = "reader failed"  # message prefix of errors that are our bugs, not the file's
READ_ERRORS = (OSError, EOFError, ValueError, zipfile.BadZipFile)  # a stream that broke


def read_path(path: str | os.PathLike[str]) -> Iterator[Result]:
    """Every hand in a file, a folder (recursively, in sorted order) or a .zip archive."""
    yield from read_sources(iter_sources([path]))


def read_bytes(data: bytes, file: str) -> Iterator[Result]:
    """Every hand in an uploaded file's bytes (a text file or a .zip archive)."""
    yield from read_sources(bytes_sources(file, data))


def read_text(text: str, file: str) -> Iterator[Result]:
    """Every hand in decoded text."""
    head = text[:HEAD_CHARS].lstrip("\ufeff")
    if not head.strip() and not text.strip():
        yield rejected_result(Rejected(file, "the file holds no text", expected="a hand history"))
        return
    reader = site_reader(head)
    if reader is None:
        yield rejected_result(foreign(file, head))
        return
    yield from read_chunks(reader, reader.split(text_lines(text), file), file)


def read_sources(sources: Iterable[Source | Rejected]) -> Iterator[Result]:
    """Every hand of every source, in order; a rejected source is one error naming it."""
    for reader, chunk, error in cut_sources(sources):
        if error is not None:
            yield chunk, error
        else:
            assert reader is not None  # a hand text always comes with its reader
            yield chunk, parse(reader, chunk)


Cut = tuple[SiteReader | None, HandText, ParseError | None]
"""A hand text cut from a source with the site reader that cut it, to be parsed; or, with
a ``ParseError``, the verdict of a source that was rejected, broke or was cut short."""


def cut_sources(sources: Iterable[Source | Rejected]) -> Iterator[Cut]:
    """Every hand text of every source, in order, not yet parsed: what ``read_sources``
    parses in this process and ``drawlab verify --workers`` hands to worker processes."""
    for source in sources:
        if isinstance(source, Rejected):
            yield None, *rejected_result(source)
        else:
            yield from cut_source(source)


def summaries_of(source: Source) -> list[TournamentSummary | ParseError] | None:
    """A tournament summary file's summaries (each read, or an error at its line), or None
    for any other source.

    Every reader of sources (``drawlab import``, ``drawlab verify``) asks this before
    handing a source to the hand readers, so a summary is its own kind of record in all of
    them, never a hand; a source that cannot be opened is None here, the hand path's to
    report.
    """
    try:
        with source.open() as stream:
            return read_summary_stream(stream, source.name)
    except READ_ERRORS:
        return None


def cut_source(source: Source) -> Iterator[Cut]:
    """The hand texts of one source: opened, decoded and cut."""
    try:
        stream = source.open()
    except READ_ERRORS as exc:
        yield None, *file_error(source.name, f"cannot read the file: {_why(exc)}")
        return
    with stream:
        try:
            opened = open_lines(source, stream)
        except Rejected as exc:
            yield None, *rejected_result(exc)
            return
        except READ_ERRORS as exc:
            yield None, *file_error(source.name, f"cannot read the file: {_why(exc)}")
            return
        yield from cut_opened(source.name, opened)


def cut_opened(name: str, opened: Opened) -> Iterator[Cut]:
    """The hand texts of a source's decoded lines, then why its lines stopped early."""
    reader = opened.reader
    for chunk, error in cut_chunks(reader, reader.split(opened.lines, name), name):
        yield reader, chunk, error
    if opened.rejected:
        yield None, *file_error(name, opened.rejected.removeprefix(f"{name}:"))


def read_chunks(reader: SiteReader, chunks: Iterator[HandText], file: str) -> Iterator[Result]:
    """The hands a site reader cuts, each parsed; a failing cut ends the file with an error."""
    for chunk, error in cut_chunks(reader, chunks, file):
        yield chunk, error if error is not None else parse(reader, chunk)


def cut_chunks(
    reader: SiteReader, chunks: Iterator[HandText], file: str
) -> Iterator[tuple[HandText, ParseError | None]]:
    """The hand texts a site reader cuts; a failing cut ends the file with its error."""
    while True:
        try:
            chunk = next(chunks)
        except StopIteration:
            return
        except ParseError as exc:
            yield HandText(file, exc.line, exc.line_text, reader.site), exc
            return
        except READ_ERRORS as exc:
            yield file_error(file, f"cannot read the rest of the file: {exc}")
            return
        except Exception as exc:  # a site reader's bug must not stop the user's import
            yield file_error(file, f"{INTERNAL}: {type(exc).__name__}: {exc}")
            return
        yield chunk, None


def parse(reader: SiteReader, chunk: HandText) -> Outcome:
    """One hand text read; a site reader's bug is reported on the hand, never raised."""
    try:
        return reader.parse(chunk)
    except ParseError as exc:
        return exc
    except Exception as exc:
        return ParseError(
            f"{INTERNAL}: {type(exc).__name__}: {exc}",
            file=chunk.file,
            line=chunk.line,
            line_text=chunk.text.split("\n", 1)[0],
        )


def rejected_result(rejected: Rejected) -> tuple[HandText, ParseError]:
    """A rejected source's one verdict: a parse error at its first line."""
    return file_error(
        rejected.name,
        rejected.reason,
        line_text=rejected.line_text,
        expected=rejected.expected,
        text=rejected.text,
    )


def file_error(
    file: str, message: str, *, line_text: str = "", expected: str = "", text: str = ""
) -> tuple[HandText, ParseError]:
    """A whole file's (or the rest of a file's) one error, positioned at its first line."""
    line = 1
    where, sep, rest = message.partition(": ")
    if sep and where.isdigit():  # "12: a line of ...": the line the problem is on
        line, message = int(where), rest
    return HandText(file, line, text), ParseError(
        message, file=file, line=line, line_text=line_text, expected=expected
    )


def _why(exc: BaseException) -> str:
    return str(getattr(exc, "strerror", None) or exc)
