"""Hand histories into the database: once, in parallel, never half done, nothing lost.

The main process walks the sources (files, folders, zip members, uploads) and hashes
each; a file on disk is given to the worker processes as parts of about ``TASK_HANDS``
hands (``analysis.pipeline.hand_parts``), each read by its worker (decoded, cut, parsed,
verified, its per-player facts computed, each table's stacks followed within it), while
an archive member or an upload, which only this process can open, is cut here and sent as
batches of hand texts.  The workers return plain rows (``analysis.storage.rows``); the
main process checks the stacks across batches, numbers the new hands and appends the rows
in bulk, one transaction per ``FLUSH_HANDS``, so a killed import leaves only whole
batches behind and the next run, finding their hands present, completes it.

A hand is the same hand when its key is (``analysis.storage.rows.hand_key``): importing a file
again adds nothing.  The ``files`` table remembers each source's size and checksum, so an
unchanged file is not even parsed, and a file that grew is read from its last hand on; a
watcher's read (``hold_tail``) leaves out a last hand still being written and resumes there.

``import_files`` (``drawlab import``) owns its connection, so that between two
transactions it can release the database file to a reader waiting for it.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import io
import os
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import duckdb
import pyarrow.compute as pc

from analysis.pipeline.hand_parts import hand_parts
from analysis.pipeline.verification import HandResult, check
from analysis.pipeline.workers import ProcessTaskPool, TaskPool
from analysis.storage import summaries
from analysis.storage.db import (
    LOCK_WAIT,
    Connection,
    DatabaseUnavailable,
    connect,
    facts_stale,
    one,
    reader_waiting_since,
    resolve_path,
    restore_memory_limit,
)
from analysis.storage.player_facts import FACT_TYPES, FACTS, facts_fn, refill_notice
from analysis.storage.rows import ArrowRows, Rows, add_result, with_continuity
from analysis.storage.tournaments import store_summary
from analysis.storage.writer import FileState, Store
from analysis.tournament_hands import results_from_hands
from engine.continuity import ContinuityTracker
from parser.outcome import HandText, ParseError
from parser.ranges import Part
from parser.reader import parse, summaries_of
from parser.sources import (
    Opened,
    Rejected,
    Source,
    bytes_sources,
    iter_sources,
    open_lines,
    open_range,
)
from parser.tails import ends_with_line_break, hand_finished

STATUSES = ("ok", "invalid", "parse_error", "unsupported", "incomplete")
TASK_HANDS = 500  # hand texts per worker task (fewer, larger Arrow tables to send back)
TASK_CHARS = 1 << 20  # ...or this much text, whichever comes first
IN_FLIGHT_HANDS = 12_000  # hand texts out at this machine's workers at once (see _run)
FLUSH_HANDS = 10_000  # hands per transaction
FLUSH_SECONDS = 2.0  # how often a sharing import looks for a waiting reader (then commits)
# The dashboard's summary tables (``summaries.extend``) take in the new hands every so many
# hands, before the file is released to a reader and at the end, not after every commit: a
# call costs about 100 ms besides its hands (17.7 against 34.6 us a hand at 30,000 hands
# summed in one call or six), and cells behind the rows are never wrong, only unused
# (``stat_cells.current`` counts the rows, and the figures then read the rows).
CELLS_HANDS = 100_000
RELEASE = 0.15  # seconds the file is left free after a transaction (readers poll at 0.1)
REOPEN_WAIT = 600.0  # seconds a reopen waits for readers: an import does not give up soon
# DuckDB holds what was committed since its last checkpoint in memory (about the size of
# its write-ahead log), and keeps the pages it wrote cached up to its memory limit: the
# limit is that plus a little, or the cache grew with the import (512 MB: a main process
# of 533 MiB at 100,000 hands, 660 at 300,000; 192 and 320: 469 at 100,000; docs/scale.md)
CHECKPOINT_MB = 192  # write-ahead log size at which DuckDB checkpoints it into the file
DUCKDB_MEMORY_MB = 320  # DuckDB's own memory during an import (indexes spill past it)
SMALL_IMPORT = 1 << 20  # bytes below which worker processes cost more than they save
PROBLEM_LOG = 1000  # problem lines kept in the summary; the count is always whole


@dataclass(frozen=True)
class LoggedProblem:
    file: str
    line: int
    status: str
    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.status}: {self.code}: {self.message}"


@dataclass
class ImportSummary:
    """What an import did.  ``hands`` counts hand texts read this run, by ``statuses``;
    a file rejected whole (or cut short) counts as one more ``parse_error``, as in
    ``drawlab verify``, and its message is in ``rejected``.  ``held``: the files whose
    last hand was still being written (``hold_tail``), neither stored nor counted."""

    files: int = 0
    unchanged: int = 0
    rejected: list[str] = field(default_factory=list)
    hands: int = 0
    added: int = 0
    already_present: int = 0
    statuses: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STATUSES, 0))
    problems: int = 0
    problem_log: list[LoggedProblem] = field(default_factory=list)
    seconds: float = 0.0
    held: list[str] = field(default_factory=list)  # files whose last hand was held back
    # With ``import_files``: how long each release of the file to a waiting reader took,
    # from the look that found the reader to the file's close, and the longest stretch
    # between two looks for a waiting reader (the transactions, summary tables and
    # checkpoints in between): a reader waits at most about the sum of the two.
    releases: list[float] = field(default_factory=list)
    longest_between_looks: float = 0.0
    # Tournament summaries: read, stored new or replacing a running one's, and those
    # that did not read (``file:line: why``): their own verdicts, never a hand's.
    summaries: int = 0
    summaries_added: int = 0
    summary_errors: list[str] = field(default_factory=list)
    tournaments_from_hands: int = 0  # tournaments without a summary whose hands told more

    @property
    def read_nothing(self) -> bool:
        """Every source was rejected: no hand read and none found already imported."""
        return (
            self.hands == len(self.rejected) and self.already_present == 0
            and not self.summaries
        )  # fmt: skip

    def as_dict(self) -> dict[str, Any]:
        """The ``--json`` summary: counts per status as ``drawlab verify`` gives them."""
        return {
            "files": self.files,
            "unchanged_files": self.unchanged,
            "rejected_files": len(self.rejected),
            "hands": self.hands,
            **self.statuses,
            "added": self.added,
            "already_present": self.already_present,
            "problems": self.problems,
            "seconds": round(self.seconds, 3),
            "rejected": list(self.rejected),
            "summaries": self.summaries,
            "summaries_added": self.summaries_added,
            "summary_errors": list(self.summary_errors),
        }


@dataclass(frozen=True)
class Progress:
    hands: int
    files_done: int
    files_total: int
    problems: int
    seconds: float
    file: str
    bytes_done: int = 0  # of the sources' bytes, counting hand text read so far
    bytes_total: int = 0

    @property
    def rate(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else 0.0

    @property
    def fraction(self) -> float:
        """How far the import is, 0..1: by bytes where known, else by files."""
        if self.bytes_total > 0:
            return min(1.0, self.bytes_done / self.bytes_total)
        return self.files_done / self.files_total if self.files_total else 1.0


ProgressFn = Callable[[Progress], None]


def import_paths(
    db: Connection,
    paths: Iterable[str | os.PathLike[str]],
    progress: ProgressFn | None = None,
    workers: int | None = None,
    batch_hands: int = FLUSH_HANDS,
    pool: TaskPool | None = None,
    hold_tail: bool = False,
) -> ImportSummary:
    """Import files, folders (recursively) and .zip archives; see the module's text.

    ``workers``: processes that parse and verify (default one per core, none for small
    imports); ``batch_hands``: hands per transaction; ``pool``: where to parse instead
    of worker processes of this machine (a Dask cluster: ``analysis.pipeline.cluster``), which
    the caller closes.  ``hold_tail`` (a watcher): the last hand of a file that the client
    is still writing (``parser.tails``) is not stored; the file's resume point stays at it,
    so the next read of the grown file stores it whole, once.  Without it (a one-off import)
    such a hand is stored as what it is, mostly ``incomplete``, and replaced when the file
    grows.
    """
    sources = list(iter_sources(paths))
    return _Import(db, sources, progress, workers, batch_hands, pool, hold_tail).run()


def import_files(
    db_path: str | os.PathLike[str] | None,
    paths: Iterable[str | os.PathLike[str]],
    progress: ProgressFn | None = None,
    workers: int | None = None,
    batch_hands: int = FLUSH_HANDS,
    wait: float = LOCK_WAIT,
) -> ImportSummary:
    """``import_paths`` into the database file at ``db_path``, letting other programs in:
    a transaction is at most ``batch_hands`` hands, and every ``FLUSH_SECONDS`` of reading
    the import looks whether a reader has been waiting since its last release
    (``analysis.storage.db``: every open that finds the file locked touches
    ``waiting_reader_path``); if so, it commits, closes the file, leaves it free for
    ``RELEASE`` seconds (the waiting reader, the dashboard or ``drawlab stats``, gets in)
    and opens it again, waiting as long as ``REOPEN_WAIT`` for readers to close it.  So a
    reader waits about ``FLUSH_SECONDS`` at most, and an import nobody waits for pays
    nothing but a look at a file's time.  ``wait``: seconds the first open waits for
    another program.

    Raises ``DatabaseUnavailable`` when the file cannot be had at first, DuckDB's own error
    when a reopen fails (after ``REOPEN_WAIT``); whole transactions only are left behind,
    which the next run completes.
    """
    sources = list(iter_sources(paths))
    db = open_database(db_path, wait=wait)
    target = str(Path(resolve_path(db_path)).expanduser())

    def reopen() -> Connection:
        try:
            return connect(db_path, wait=REOPEN_WAIT)
        except DatabaseUnavailable as exc:  # part-way: the fault's sentence says what is kept
            raise exc.__cause__ or exc from None

    job = _Import(db, sources, progress, workers, batch_hands, reopen=reopen, shared_file=target)
    try:
        return job.run()
    finally:
        if not job.closed:
            job.db.close()


def import_bytes(
    db: Connection,
    name: str,
    data: bytes,
    progress: ProgressFn | None = None,
    workers: int | None = None,
    batch_hands: int = FLUSH_HANDS,
) -> ImportSummary:
    """Import an upload (a text file or a .zip archive) under the file name ``name``.

    Importing the same bytes again adds nothing; bytes that extend an earlier upload of
    the same name are read from its last hand on, as a grown file is.
    """
    sources = list(bytes_sources(name, data))
    return _Import(db, sources, progress, workers, batch_hands).run()


# --- worker side ------------------------------------------------------------------------

_READERS: dict[str, Any] | None = None


def reader_for(site: str) -> Any:
    global _READERS
    if _READERS is None:
        from parser.registry import READERS

        _READERS = {r.site: r for r in READERS}
    return _READERS[site]


def parse_task(site: str, chunks: Sequence[HandText]) -> ArrowRows:
    """A worker's job: hand texts to rows.  Never raises for anything a file holds."""
    return _rows_of(site, chunks).to_arrow(FACT_TYPES)


def _rows_of(site: str, chunks: Sequence[HandText]) -> Rows:
    facts, columns, _ = facts_fn()
    rows = Rows()
    if chunks:
        reader = reader_for(site)
        for chunk in chunks:
            add_result(rows, checked(reader, chunk), facts, columns)
    return rows


@dataclass
class Cut:
    """What cutting a run of a source's lines found besides its hand texts: the site, the
    texts handed on (from the resume line) and the first line of the last, why the lines
    stopped early, and the first line of a last hand held back (still being written)."""

    site: str = ""
    chunks: int = 0
    last_line: int = 0
    rejected: str | None = None
    held_line: int | None = None


@dataclass(frozen=True)
class PartRows:
    """A worker's rows of a part of a file it read itself, and what the cut found."""

    rows: ArrowRows
    cut: Cut


def read_part(part: Part, resume: int, hold_tail: bool) -> PartRows:
    """A worker's job: a part of a disk file read (decoded and cut, as this process cuts
    other sources: ``cut_hands``), its hands from line ``resume`` on turned into rows;
    ``hold_tail``: the part ends the file, whose last hand may still be being written.
    Never raises for anything a file holds."""
    cut = Cut()

    def opened(stream: BinaryIO) -> Opened:
        if not part.encoding:  # the file's first part, read as the whole file is
            return open_lines(part.name, stream)
        return open_range(part.name, stream, reader_for(part.site), part.encoding, part.line)

    chunks = list(cut_hands(part.name, lambda: _open_part(part), opened, resume, hold_tail, cut))
    rows = _rows_of(cut.site, chunks)
    rows.follow()  # the stacks within the part: only its tables' edges go back
    return PartRows(rows.to_arrow(FACT_TYPES), cut)


def _open_part(part: Part) -> BinaryIO:
    """The part's bytes as a stream: the file itself when the part runs to its end (the
    held tail's check looks back from the file's end), else the part's bytes read once."""
    f = open(part.path, "rb")  # noqa: SIM115 - closed by whoever reads it
    if part.end is None:
        try:
            f.seek(part.start)
        except BaseException:
            f.close()
            raise
        return f
    with f:
        f.seek(part.start)
        return io.BytesIO(f.read(part.end - part.start))


def cut_hands(
    name: str,
    open_stream: Callable[[], BinaryIO],
    open_text: Callable[[BinaryIO], Opened],
    resume: int,
    hold_tail: bool,
    cut: Cut,
) -> Iterator[HandText]:
    """The hand texts of a source (or part of one) from line ``resume`` on; what else the
    cut found goes into ``cut``.  A source that cannot be read, or stops, keeps the hands
    before the trouble and says why in ``cut.rejected``: nothing raises."""
    try:
        with open_stream() as stream:
            # A grown file is cut from its first line again: a reader may need what the
            # file said before the resumed hand (one Merge <description> heads every
            # later <game>); the hands before it are already stored.
            opened = open_text(stream)
            cut.site = opened.reader.site
            chunks = opened.reader.split(opened.lines, name)
            if hold_tail:
                chunks = _holding_tail(chunks, cut, opened, stream)
            for chunk in chunks:
                if chunk.line < resume:
                    continue
                cut.chunks += 1
                cut.last_line = chunk.line
                yield chunk
            cut.rejected = opened.rejected
    except Rejected as exc:
        cut.rejected = str(exc)
    except ParseError as exc:
        cut.rejected = f"{name}:{exc.line}: {exc.message}"
    except (OSError, EOFError, ValueError) as exc:
        cut.rejected = f"{name}: cannot read the rest of the file: {exc}"
    except Exception as exc:  # a splitter's bug: this file stops, the import goes on
        cut.rejected = f"{name}: reader failed: {type(exc).__name__}: {exc}"


def checked(reader: Any, chunk: HandText) -> HandResult:
    """One hand text read and replayed, as ``drawlab verify`` does it: a reader's bug is
    this hand's parse error (``parser.reader.parse``), the engine's its ``REPLAY_FAILED``
    (``engine.replay.replay``), never a crash."""
    return check(chunk, parse(reader, chunk))


# --- main side --------------------------------------------------------------------------


@dataclass
class _Task:
    """A batch of one source's hand texts on its way through a worker, a part of a disk
    file that the worker reads itself (``part``: ``read_part``'s arguments), or the
    source's end mark."""

    state: FileState
    site: str = ""
    chunks: list[HandText] = field(default_factory=list)
    future: Any = None  # the pool's handle of the batch being parsed
    rows: ArrowRows | PartRows | None = None
    end: bool = False
    chars: int = 0  # of hand text, or the part's bytes
    part: tuple[Part, int, bool] | None = None

    def run(self) -> ArrowRows | PartRows:
        """The batch's rows made in this process (no workers, or they died)."""
        if self.part is not None:
            return read_part(*self.part)
        return parse_task(self.site, self.chunks)


class _Import:
    def __init__(
        self,
        db: Connection,
        sources: list[Source | Rejected],
        progress: ProgressFn | None,
        workers: int | None,
        batch_hands: int = FLUSH_HANDS,
        pool: TaskPool | None = None,
        hold_tail: bool = False,
        reopen: Callable[[], Connection] | None = None,
        shared_file: str | None = None,
    ) -> None:
        self.batch_hands = max(1, batch_hands)
        self.hold_tail = hold_tail
        self.reopen = reopen  # set: the file may be released after every transaction
        self.closed = False  # between the close and the reopen of a release
        self.shared_file = shared_file  # the database file released to its waiting readers
        self.released_at = time.time()  # readers waiting before this were let in
        self.flushed = time.monotonic()
        self.db = db
        self.sources = sources
        self.progress = progress
        self.summary = ImportSummary()
        self.store = Store(db, run=uuid.uuid4().hex[:12])
        self.start = time.monotonic()
        self.files_total = len(sources)
        self.files_done = 0
        total = sum(s.size for s in sources if isinstance(s, Source))
        self.bytes_total = total
        self.bytes_done = 0
        if workers is None:
            workers = 0 if total < SMALL_IMPORT else (os.cpu_count() or 1)
        self.workers = workers
        self.tracker = ContinuityTracker()
        self.pool_broken = False
        self.pool: TaskPool | None = pool
        self.own_pool = pool is None
        self.pending: list[tuple[FileState, ArrowRows | None]] = []
        self.pending_hands = 0
        self.unsummed = 0  # hands committed since the summary tables were last extended

    # -- driving

    def run(self) -> ImportSummary:
        thresholds = gc.get_threshold()
        gc.set_threshold(50_000, 20, 100)  # as in the workers (see worker_init)
        limit = one(self.db, "SELECT current_setting('memory_limit')")
        threads = one(self.db, "SELECT current_setting('threads')")
        self._tune()
        try:
            return self._run()
        finally:
            gc.set_threshold(*thresholds)
            if not self.closed:  # (after a failed reopen there is no connection to set)
                self._untune(threads, limit)

    def _untune(self, threads: tuple[Any, ...] | None, limit: tuple[Any, ...] | None) -> None:
        if threads is not None:  # the workers are done: the last checkpoint gets the cores
            self.db.execute(f"SET threads = {int(threads[0])}")
        with contextlib.suppress(duckdb.Error):  # a transaction open: DuckDB does it later
            self.db.execute("CHECKPOINT")  # still under the import's memory cap
        self.db.execute("RESET checkpoint_threshold")
        if limit is not None:
            restore_memory_limit(self.db, str(limit[0]))

    def _tune(self) -> None:
        """DuckDB's settings for a bulk import, on the connection in use."""
        # DuckDB checkpoints whenever its log passes 16 MB: during a bulk import that
        # doubled the cost of each write; checkpoint less often, and once at the end.
        self.db.execute(f"SET checkpoint_threshold = '{CHECKPOINT_MB}MB'")
        # DuckDB keeps pages it has read or written cached up to 80% of the machine's
        # memory; an import only appends, so a small cache bounds memory at any size.
        self.db.execute(f"SET memory_limit = '{DUCKDB_MEMORY_MB}MB'")
        # The cores belong to the workers: DuckDB's own threads, spread over appends of a
        # few thousand rows, cost a fifth more CPU than one thread doing them in turn.
        self.db.execute("SET threads = 1")

    def _maybe_release(self, flushed: bool = False) -> None:
        """With ``reopen``: once ``FLUSH_SECONDS`` passed since the last look (or right
        after a commit, ``flushed``), release the file if a reader has been waiting since
        the last release, committing what is pending first: readers never wait much longer
        than that.  No reader waits: the transaction goes on to ``batch_hands`` hands, as
        without ``reopen`` (a commit every two seconds cost its fixed part, about 60 ms in
        the write and 100 in the cells, every few hundred hands under load)."""
        if self.reopen is None:
            return
        now = time.monotonic()
        if not flushed and now - self.flushed < FLUSH_SECONDS:
            return
        s = self.summary
        s.longest_between_looks = max(s.longest_between_looks, now - self.flushed)
        self.flushed = now
        if self.shared_file is None or self._reader_waiting():
            self._flush()
            self._extend_summaries(compact=False)  # the reader finds the summaries current
            self._release(now)

    def _reader_waiting(self) -> bool:
        """A reader has been waiting for the file since the last release."""
        return self.shared_file is not None and reader_waiting_since(
            self.shared_file, self.released_at
        )

    def _release(self, looked: float) -> None:
        """Close the file (DuckDB checkpoints its log into it), leave it free a moment, open
        it again.  Nothing is held across: every write so far is committed, the next opens
        its own transaction.  ``looked``: when the waiting reader was found
        (``ImportSummary.releases``)."""
        assert self.reopen is not None
        self.db.close()
        self.closed = True
        self.summary.releases.append(time.monotonic() - looked)
        time.sleep(RELEASE)
        self.db = self.reopen()
        self.closed = False
        self.store.db = self.db
        self._tune()
        self.flushed = time.monotonic()
        self.released_at = time.time()  # after the reopen, which may have waited itself

    def _run(self) -> ImportSummary:
        if self.pool is None and self.workers > 0:
            self.pool = ProcessTaskPool(self.workers)
        pool = self.pool
        try:
            inflight: deque[_Task] = deque()
            limit = pool.slots if pool is not None else 0
            if pool is not None and self.own_pool:
                # While this process commits a transaction or DuckDB checkpoints (seconds,
                # every 80,000 hands or so), the workers go on with what they were given:
                # with three batches each they stood idle after half a second.
                limit = max(limit, IN_FLIGHT_HANDS // TASK_HANDS)
            for task in self._tasks():
                if not task.end:
                    if pool is None or self.pool_broken:
                        self._parse_here(task)
                    else:
                        try:
                            if task.part is not None:
                                task.future = pool.submit(read_part, *task.part)
                            else:
                                task.future = pool.submit(parse_task, task.site, task.chunks)
                        except BrokenProcessPool:  # a worker died before we waited on it
                            self.pool_broken = True
                            self._parse_here(task)
                inflight.append(task)
                while len(inflight) > limit or (pool is None and inflight):
                    self._finish(inflight.popleft())
            while inflight:
                self._finish(inflight.popleft())
            self._flush()
            self._extend_summaries()
            self.summary.tournaments_from_hands = results_from_hands(self.db, self.store.run)
        finally:
            if pool is not None and self.own_pool:
                pool.close(self.pool_broken)
        self.summary.seconds = time.monotonic() - self.start
        self._report("")
        return self.summary

    def _parse_here(self, task: _Task) -> None:
        """Parse a batch in this process: no workers, or they died."""
        task.rows = task.run()
        task.chunks = []

    def _tasks(self) -> Iterator[_Task]:
        """Tasks in source order: chunk batches (not yet submitted) and end-of-source marks."""
        for src in self.sources:
            self._maybe_release()
            if isinstance(src, Rejected):
                self._reject(None, str(src))
                continue
            if self._summaries(src):
                continue
            try:
                state = self._plan(src)
            except Rejected as exc:
                self.bytes_done += src.size
                self._reject(None, str(exc))
                continue
            except OSError as exc:
                self.bytes_done += src.size
                self._reject(None, f"{src.name}: cannot read the file: {exc.strerror or exc}")
                continue
            if state is None:
                continue
            units = self._parts(src, state)
            if units is not None:  # the workers read the file themselves
                for unit in units:
                    yield _Task(state, chars=_part_bytes(unit[0], state.size), part=unit)
                yield _Task(state, end=True)
                continue
            batch: list[HandText] = []
            chars = 0
            cut = Cut()
            hold = self.hold_tail and src.disk_path is not None
            opened = functools.partial(open_lines, src)
            for chunk in cut_hands(src.name, src.open, opened, state.resume_from, hold, cut):
                batch.append(chunk)
                chars += len(chunk.text)
                if len(batch) >= TASK_HANDS or chars >= TASK_CHARS:
                    yield _Task(state, cut.site, batch, chars=chars)
                    batch, chars = [], 0
            state.chunks = cut.chunks
            if cut.chunks:
                state.last_chunk_line = cut.last_line
            state.held_line = cut.held_line
            state.rejected = cut.rejected
            if batch:
                yield _Task(state, cut.site, batch, chars=chars)
            yield _Task(state, end=True)

    def _summaries(self, src: Source) -> bool:
        """Read and store a tournament summary file whole, here; False for any other file
        (a file that cannot be opened is the hand path's to report)."""
        found = summaries_of(src)
        if found is None:
            return False
        for item in found:
            if isinstance(item, ParseError):
                self.summary.summary_errors.append(
                    f"{item.file}:{item.line}: {item.message}: {item.line_text}"
                )
                continue
            self.summary.summaries += 1
            if store_summary(self.db, item) in ("added", "replaced"):
                self.summary.summaries_added += 1
        self.files_done += 1
        self.bytes_done += src.size
        self._report(src.name)
        return True

    def _parts(self, src: Source, state: FileState) -> list[tuple[Part, int, bool]] | None:
        """``read_part``'s arguments for each part of a disk file to read, in order; None
        when this process cuts the source (not on disk, or a pool of another machine's
        workers, which may not see this machine's files).  The parts wholly before the
        resume line are left out; the file's last part holds the tail a watcher holds."""
        if not self.own_pool and self.pool is not None:
            return None
        found = hand_parts(src, TASK_HANDS)
        if found is None:
            return None
        resume = state.resume_from
        # a part holds lines up to the next one's first: wholly before the resume line
        kept = [p for i, p in enumerate(found) if i + 1 == len(found) or found[i + 1].line > resume]
        hold = self.hold_tail
        return [(p, resume, hold and p is kept[-1]) for p in kept]

    def _plan(self, src: Source) -> FileState | None:
        """Hash the source; None when its content is already imported whole."""
        known = self.store.file_row(src.name)
        digest = hashlib.sha256()
        prefix: str | None = None
        size = 0
        with src.open() as stream:
            prefix, size = _hash_stream(stream, digest, known.size if known else None)
        checksum = digest.hexdigest()
        # the last hand held back by a watcher: this read stores it, unless it holds too
        tail_left = (
            known is not None and known.held and size == known.size
            and checksum == known.checksum
        )  # fmt: skip
        same = None if tail_left else self.store.hands_of_content(size, checksum)
        if same is not None or (tail_left and self.hold_tail):
            if same is None:  # still being written: held on, as the earlier read did
                assert known is not None
                same = known.hands
                self.summary.held.append(src.name)
            self.summary.unchanged += 1
            self.summary.already_present += same
            self.files_done += 1
            self.bytes_done += src.size
            self._report(src.name)
            return None
        resume_from, hands_before, forgotten = 1, 0, 0
        grown = known is not None and size > known.size and prefix == known.checksum
        if known is not None and (grown or tail_left):
            resume_from = known.resume_line
            # the hand at resume_line is read again, unless it was held (never stored)
            hands_before = known.hands if known.held else max(known.hands - 1, 0)
            forgotten = self.store.forget_tail(src.name, resume_from)
            for hand, final in self.store.last_hands_before(src.name, resume_from):
                self.tracker.feed(hand, final)
        batch_id = self.store.open_batch(src.name, size, checksum)
        self.summary.files += 1
        return FileState(src, batch_id, size, checksum, resume_from, hands_before, forgotten)

    def _finish(self, task: _Task) -> None:
        state = task.state
        if task.end:
            self.bytes_done += max(0, state.size - state.chars_done)
            state.done = True
            if state.held_line is not None:
                self.summary.held.append(state.source.name)
            self.pending.append((state, None))
            self.files_done += 1
            if state.rejected:
                self._reject(state, state.rejected)
            self._report(state.source.name)
            return
        got = task.rows
        if got is None:
            assert task.future is not None
            try:
                assert self.pool is not None
                got = self.pool.result(task.future)
            except BrokenProcessPool:
                # A worker died (killed, out of memory): this and the remaining batches
                # are parsed here instead; the import goes on, slower.
                self.pool_broken = True
                got = task.run()
        task.chunks = []
        task.rows = None
        counted = min(task.chars, max(0, state.size - state.chars_done))
        state.chars_done += counted
        self.bytes_done += counted
        if isinstance(got, PartRows):
            if state.rejected is not None:  # an earlier part stopped the file: not read on
                self._report(state.source.name)
                return
            cut = got.cut
            state.chunks += cut.chunks
            if cut.chunks:
                state.last_chunk_line = cut.last_line
            if cut.held_line is not None:
                state.held_line = cut.held_line
            state.rejected = cut.rejected
            got = got.rows
        self._absorb(state, got)
        if self.pending_hands >= self.batch_hands:
            self._flush()
            self._maybe_release(flushed=True)
        else:
            self._maybe_release()
        self._report(state.source.name)

    def _absorb(self, state: FileState, rows: ArrowRows) -> None:
        """Count a worker's rows and hold them for the next transaction."""
        if rows.chained:
            rows = with_continuity(rows, self.tracker)
        self.pending.append((state, rows))
        n_quarantine = rows.quarantine.num_rows
        self.pending_hands += rows.hands.num_rows + n_quarantine
        s = self.summary
        s.hands += rows.hands.num_rows + n_quarantine
        for status in rows.hands.column("status").to_pylist():
            s.statuses[status] = s.statuses.get(status, 0) + 1
            state.counts[status] += 1
        s.statuses["parse_error"] += n_quarantine
        state.counts["parse_error"] += n_quarantine
        self._log_problems(rows)

    def _log_problems(self, rows: ArrowRows) -> None:
        s = self.summary
        quarantine = rows.quarantine
        s.problems += quarantine.num_rows
        room = PROBLEM_LOG - len(s.problem_log)
        if room > 0 and quarantine.num_rows:
            for r in quarantine.slice(0, room).select(["file", "line", "error"]).to_pylist():
                message = str(r["error"]).split("\n", 1)[0]
                s.problem_log.append(
                    LoggedProblem(r["file"], r["line"], "parse_error", "PARSE_ERROR", message)
                )
        problems = rows.children["problems"]
        if not problems.num_rows:
            return
        errors = problems.filter(pc.equal(problems.column("severity"), "error"))
        s.problems += errors.num_rows
        room = PROBLEM_LOG - len(s.problem_log)
        if room <= 0 or not errors.num_rows:
            return
        hands = rows.hands.select(["file", "line", "status"]).to_pylist()
        for p in errors.slice(0, room).to_pylist():
            hand = hands[p["hand"]]
            line = p["line"] if p["line"] is not None else hand["line"]
            s.problem_log.append(
                LoggedProblem(hand["file"], line, hand["status"], p["code"], p["message"])
            )

    def _flush(self) -> None:
        if not self.pending:
            return
        added, present = self.store.write(self.pending)
        self.summary.added += added
        self.summary.already_present += present
        self.unsummed += self.pending_hands
        self.pending = []
        self.pending_hands = 0
        if self.unsummed >= CELLS_HANDS:
            self._extend_summaries()

    def _extend_summaries(self, compact: bool = True) -> None:
        """The dashboard's summary tables take in the hands committed since they last did
        (``CELLS_HANDS``).  Their compaction, when due, waits while a reader does: it
        would add its seconds to the reader's wait for the release."""
        if self.unsummed:
            summaries.extend(self.db)
            if compact and not self._reader_waiting():
                summaries.compact(self.db)
            self.unsummed = 0

    def _reject(self, state: FileState | None, message: str) -> None:
        """List the rejection, and count it as ``drawlab verify`` does: one parse error
        (verify gives a file it cannot read, or stops reading, one such verdict)."""
        self.summary.rejected.append(message)
        self.summary.hands += 1
        self.summary.statuses["parse_error"] += 1
        if state is not None:
            state.counts["parse_error"] += 1  # the file's import_batches row too
        else:
            self.files_done += 1
            self._report("")

    def _report(self, name: str) -> None:
        if self.progress is None:
            return
        s = self.summary
        self.progress(
            Progress(
                hands=s.hands + 0,
                files_done=self.files_done,
                files_total=self.files_total,
                problems=s.problems,
                seconds=time.monotonic() - self.start,
                file=name,
                bytes_done=self.bytes_done,
                bytes_total=self.bytes_total,
            )
        )


def _holding_tail(
    chunks: Iterator[HandText], cut: Cut, opened: Opened, stream: BinaryIO
) -> Iterator[HandText]:
    """``chunks`` one behind, the last given only when it is whole (``parser.tails``);
    otherwise its line is kept in ``cut.held_line``.  A cut that fails still gives the
    hand before it: holding back is for hands being written, never a loss."""
    last: HandText | None = None
    try:
        for chunk in chunks:
            if last is not None:
                yield last
            last = chunk
    except Exception:  # the caller records why the file stopped; this hand is whole
        if last is not None:
            yield last
        raise
    if last is None:
        return
    if opened.rejected is None:  # lines that stopped early are no hand being written
        line_ended = ends_with_line_break(stream, stream.tell(), opened.encoding)
        if not hand_finished(opened.reader.site, last.text, line_ended):
            cut.held_line = last.line
            return
    yield last


def _part_bytes(part: Part, size: int) -> int:
    return (size if part.end is None else part.end) - part.start


def _hash_stream(stream: BinaryIO, digest: Any, prefix_size: int | None) -> tuple[str | None, int]:
    """Feed ``stream`` to ``digest``; also the hex digest of its first ``prefix_size`` bytes."""
    size = 0
    prefix: str | None = None
    while True:
        block = stream.read(1 << 20)
        if not block:
            break
        if prefix_size is not None and prefix is None and size + len(block) >= prefix_size:
            cut = prefix_size - size
            digest.update(block[:cut])
            prefix = digest.hexdigest()
            digest.update(block[cut:])
        else:
            digest.update(block)
        size += len(block)
    if prefix_size is not None and prefix is None and size == prefix_size:
        prefix = digest.hexdigest()
    return prefix, size


def open_database(
    path: str | os.PathLike[str] | None = None, *, wait: float = 0.0,
    told: Callable[[str], None] | None = None,
) -> Connection:
    """The database to write, its ``player_hands`` refilled first when this DrawLab's facts
    have other columns than those it was built with (``analysis.storage.db.connect`` only marks
    the table stale: opening a database never parses hands by itself).  ``wait``: seconds
    to keep trying while another program holds the file; ``told`` is given why a refill
    keeps the open busy (``player_facts.refill_notice``), once, before it starts."""
    con = connect(path, wait=wait)
    if facts_stale(con):
        if told is not None:
            told(refill_notice(con))
        FACTS.rebuild(con)
    return con
