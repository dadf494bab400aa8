"""``drawlab verify`` of files, folders and archives: in one process or on every core.

``verify_paths`` reads and replays in this process, or, given workers, in worker
processes.  This module holds both ways (``analysis.pipeline.verification`` checks one
hand text and imports nothing of the pipeline), so no module imports the other back.

With workers, the work is cut into *units*, each a run of consecutive hands of one
source: a part of a file on disk (``parser.ranges``: a big file is cut at hands' starts,
found cheaply here), or a batch of the hand texts of an archive member or upload, which
only this process can open.  A worker process reads its units itself (decode, cut,
parse, replay), follows the stacks from hand to hand within each unit, and sends back
compact rows, not records or texts.  What a unit cannot know is how each table's chain of
stacks came into it: it sends the first hand of each table (``Chain.firsts``) and how each
table ended (``Chain.ends``), and this process, taking the units in input order, compares
those first hands with the tables' ends so far (``ContinuityTracker.follows``,
``resume``).  So the output is the same whatever the number of workers, only cheaper to
put together.

The importer's worker processes are used, which survive a dead worker: the units it had
are then read here.
"""

from __future__ import annotations

import os
from collections import Counter, deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from operator import itemgetter
from typing import Literal, NamedTuple, TypeAlias

from analysis.pipeline.verification import (
    HandResult,
    Status,
    check,
    ends_chain,
    status_of,
    summary_result,
)
from analysis.pipeline.verify_report import (
    result_json,
    result_text,
    row_json,
    row_text,
)
from analysis.pipeline.workers import kill_workers, quick_context, worker_init, worker_result
from engine.continuity import ContinuityTracker, LastHand, TableHand, TableKey
from engine.record import Game, Hand
from engine.replay import replay
from engine.tournament import TournamentSummary
from engine.verdict import Problem
from parser import ranges
from parser.outcome import HandText, Outcome, ParseError
from parser.ranges import Part, cut_part, iter_parts
from parser.reader import Cut, cut_source, parse, read_sources, rejected_result, summaries_of
from parser.registry import READERS
from parser.sources import Rejected, Source, iter_sources

TASK_BYTES = 1 << 20  # the bytes of file (or characters of text) sent in one task
TASK_UNITS = 64  # ...or this many units (small files), whichever comes first
TAIL_BYTES = 1 << 18  # the parts of a file cut for workers: the smallest task at its end
TEXTS_HANDS = 200  # the hand texts of one batch of an archive member

_READERS = {reader.site: reader for reader in READERS}
_GAME_VALUES = {game: game.value for game in Game}  # (``.value`` is a property in Python)


@dataclass(frozen=True, slots=True)
class Texts:
    """Consecutive hand texts of one source only this process can open, all of ``site``."""

    site: str
    chunks: tuple[HandText, ...]


Unit = Part | Texts
Row = tuple[str, int, str, str, str, Status, tuple[Problem, ...], str, tuple[tuple[str, int], ...]]
"""A verdict without record, text or pots: file, line, hand id, site, game, status,
problems, reason and final stacks, as ``HandResult`` has them."""


class Chain(NamedTuple):
    """What a unit tells of its tables' chains of stacks: the first hand of each table
    (its row's index and summary), each table's end, and whether the file stopped."""

    firsts: tuple[tuple[int, TableHand], ...] = ()
    ends: tuple[tuple[TableKey, LastHand | None], ...] = ()
    stopped: bool = False  # a part ended its file: the file's later parts are not read


Render: TypeAlias = Literal["json", "text"]
"""How ``drawlab verify`` prints a hand: its JSON line, or the readable report's lines."""


class Lines(NamedTuple):
    """A unit's verdicts as the output prints them, made in the worker so that the main
    process does nothing per hand but write: each hand's text (None: it prints nothing),
    the counts by status, the files, the failed hands that end chains (file, line), and
    the rows of the tables' first hands, whose verdicts the main process may extend."""

    out: list[str | None]
    counts: dict[str, int]
    files: tuple[str, ...]
    breaks: tuple[tuple[str, int], ...]
    firsts: dict[int, Row]


class Printed(NamedTuple):
    """A run of hands as ``drawlab verify`` prints them: the text (each hand's lines, each
    line ending in a line break), the counts by status and the files they are in."""

    text: str
    counts: dict[str, int]
    files: tuple[str, ...]


Done = tuple[list[Row] | Lines, Chain]


@dataclass
class _Task:
    """Units sent to a worker together, the source each belongs to; or, with ``done``,
    a verdict of this process (a source that would not open)."""

    units: list[Unit] = field(default_factory=list)
    sources: list[int] = field(default_factory=list)
    size: int = 0
    future: Future[list[Done]] | None = None
    done: list[Done] | None = None


def verify_paths(
    paths: Iterable[str | os.PathLike[str]], workers: int = 1
) -> Iterator[HandResult]:
    """Every hand of every file, folder or .zip in ``paths``, read and replayed, in order.

    Stacks are also followed from hand to hand at each table (``engine.continuity``), in
    the order the files give the hands; a break is reported on the later hand, and a hand
    that failed (a parse error, a replay that gave no final stacks) ends its table's chain
    (``ContinuityTracker.break_chains``, ``feed``).

    ``workers`` above 1 parses and replays in that many worker processes
    (``verify_in_workers``), which read the files themselves: the same verdicts in the
    same order, but without the records, texts and pots (``hand`` is None, ``text`` empty,
    ``pots`` empty), which would cost more to send back than to make.
    """
    if workers > 1:
        yield from verify_in_workers(paths, workers)
        return
    tables = ContinuityTracker()
    for source in _sources(paths):
        found = summaries_of(source) if isinstance(source, Source) else None
        if found is not None:  # a tournament summary file: its own records, no hand
            yield from map(summary_result, found)
            continue
        for chunk, outcome in read_sources([source]):
            result = check(chunk, outcome)
            if not isinstance(outcome, Hand):
                if ends_chain(result.status):  # its table's stacks are unknown now
                    tables.break_chains(result.file, result.line)
                yield result
                continue
            # fed even without final stacks: the table's next hand then follows a hand
            # whose end is unknown and is compared with nothing (not with an older hand)
            yield _carried(result, tables.feed(outcome, dict(result.final)))


def verify_in_workers(
    paths: Iterable[str | os.PathLike[str]], workers: int
) -> Iterator[HandResult]:
    """``verify_paths`` in ``workers`` processes; see the module's text."""
    stitch = _Stitcher()
    for source, done in _in_workers(paths, workers, None):
        yield from stitch(source, done)


def print_paths(
    paths: Iterable[str | os.PathLike[str]], workers: int, render: Render
) -> Iterator[Printed]:
    """What ``drawlab verify`` prints of ``paths``, in input order, as ``render`` prints a
    hand: ``verify_paths``' verdicts, each hand rendered where it was replayed (a worker
    process when ``workers`` is above 1, this one otherwise), so that this process only
    writes the text and adds up the counts."""
    printer = _Printer(render)
    if workers > 1:
        for source, done in _in_workers(paths, workers, render):
            yield from printer(source, done)
        return
    for task in _tasks(_sources(paths), render=render):
        dones = task.done if task.done is not None else verify_units(task.units, render)
        for source, done in zip(task.sources, dones, strict=True):
            yield from printer(source, done)


def _in_workers(
    paths: Iterable[str | os.PathLike[str]], workers: int, render: Render | None
) -> Iterator[tuple[int, Done]]:
    """Each unit's ``verify_units`` done in ``workers`` processes, with its source's
    number, in input order (a dead worker's units are read here)."""
    context = quick_context()
    if context.get_start_method() == "forkserver":
        # the server imports the readers once and forks each worker ready; a no-op when
        # the server already runs (an import in the same process started it)
        context.set_forkserver_preload([__name__])
    executor = ProcessPoolExecutor(workers, mp_context=context, initializer=worker_init)
    broken = False
    inflight: deque[_Task] = deque()

    def submit(task: _Task) -> None:
        nonlocal broken
        if task.done is None and not broken:
            try:
                task.future = executor.submit(verify_units, task.units, render)
            except BrokenProcessPool:  # a worker died before we waited on it
                broken = True

    def finish(task: _Task) -> Iterator[tuple[int, Done]]:
        nonlocal broken
        if task.done is None:
            if task.future is not None and not broken:
                try:
                    task.done = worker_result(task.future, executor)
                except BrokenProcessPool:  # a worker died: these units are read here
                    broken = True
            if task.done is None:
                task.done = verify_units(task.units, render)
        yield from zip(task.sources, task.done, strict=True)

    try:
        for task in _tasks(_sources(paths), workers, render):
            submit(task)
            inflight.append(task)
            while len(inflight) > 2 * workers:
                yield from finish(inflight.popleft())
        while inflight:
            yield from finish(inflight.popleft())
    finally:
        if broken:  # its queues may be wedged: waiting could hang
            kill_workers(executor)
        executor.shutdown(wait=not broken, cancel_futures=True)


def verify_in_parts(paths: Iterable[str | os.PathLike[str]]) -> Iterator[HandResult]:
    """The workers' way in this one process: the same units, read, followed and stitched
    as the workers and the main process do it (what a benchmark times as their CPU)."""
    stitch = _Stitcher()
    for task in _tasks(_sources(paths)):
        done = task.done if task.done is not None else verify_units(task.units)
        for source, unit_done in zip(task.sources, done, strict=True):
            yield from stitch(source, unit_done)


def _sources(paths: Iterable[str | os.PathLike[str]]) -> Iterator[Source | Rejected]:
    for path in paths:  # one path at a time, as verify_paths reads them
        yield from iter_sources([path])


def _tasks(
    sources: Iterator[Source | Rejected], workers: int = 1, render: Render | None = None
) -> Iterator[_Task]:
    """The tasks in input order: parts of files grouped up to ``TASK_BYTES``, batches of
    the texts of what only this process can open, verdicts of what did not open, and the
    verdicts of tournament summary files, read here (``_summary_done``, as ``render``
    prints them) as the importer reads them: a summary is never cut into hands.

    For ``workers`` processes a file is cut in parts of ``TAIL_BYTES`` (at most) and the
    tasks of a file cut in several shrink towards its end, to a ``2 * workers``-th of what
    is left but never below a part, so the workers finish together: tasks of a megabyte
    to the last left one worker alone with the last task, a tenth of a second on a file
    of 20,000 hands.  Small files are grouped into tasks as for one process."""
    task = _Task()
    for number, source in enumerate(sources):
        summaries = summaries_of(source) if isinstance(source, Source) else None
        if summaries is not None:
            if task.units:
                yield task
                task = _Task()
            yield _Task(sources=[number], done=[_summary_done(summaries, render)])
            continue
        cut = min(ranges.PART_BYTES, TAIL_BYTES) if workers > 1 else None
        found = iter_parts(source, cut) if isinstance(source, Source) else None
        if isinstance(source, Source) and found is not None:
            for part in found:  # each as soon as it is found: the workers start at once
                end = source.size if part.end is None else part.end
                size = end - part.start
                limit = TASK_BYTES
                # a file's parts cover it, so what is left is what follows the part's
                # start; one part (small files) keeps the tasks as before
                if workers > 1 and not (part.start == 0 and part.end is None):
                    left = source.size - part.start
                    limit = min(TASK_BYTES, max(TAIL_BYTES, left // (2 * workers)))
                if task.units and _full(task, size, limit):
                    yield task
                    task = _Task()
                task.units.append(part)
                task.sources.append(number)
                task.size += size
            continue
        if task.units:
            yield task
            task = _Task()
        yield from _texts_tasks(number, source)
    if task.units:
        yield task


def _summary_done(
    summaries: Sequence[TournamentSummary | ParseError], render: Render | None
) -> Done:
    """A summary file's verdicts: rows without ``render`` (``summary_result``'s fields),
    else its lines as ``drawlab verify`` prints them.  No table's chain goes through it."""
    results = [summary_result(item) for item in summaries]
    if render is None:
        rows: list[Row] = [
            (r.file, r.line, r.hand_id, r.site, r.game, r.status, r.problems, r.reason, ())
            for r in results
        ]
        return rows, Chain()
    show = result_json if render == "json" else result_text
    out: list[str | None] = [show(r) for r in results]
    counts: dict[str, int] = dict(Counter(r.status for r in results))
    files = tuple(dict.fromkeys(r.file for r in results))
    return Lines(out, counts, files, (), {}), Chain()


def _full(task: _Task, size: int, limit: int = TASK_BYTES) -> bool:
    return task.size + size > limit or len(task.units) >= TASK_UNITS


def _texts_tasks(number: int, source: Source | Rejected) -> Iterator[_Task]:
    """A source cut here (``parser.reader.cut_source``): batches of its hand texts, and
    its error (a rejected source, a cut that failed) as a verdict of its own."""
    if isinstance(source, Rejected):
        yield _Task(sources=[number], done=[_verified([(None, *rejected_result(source))])])
        return
    chunks: list[HandText] = []
    chars = 0
    site = ""
    for reader, chunk, error in cut_source(source):
        if chunks and (error is not None or len(chunks) >= TEXTS_HANDS or chars >= TASK_BYTES):
            yield _Task([Texts(site, tuple(chunks))], [number])
            chunks, chars = [], 0
        if error is not None:
            yield _Task(sources=[number], done=[_verified([(reader, chunk, error)])])
            continue
        assert reader is not None  # a hand text always comes with its reader
        site = reader.site
        chunks.append(chunk)
        chars += len(chunk.text)
    if chunks:
        yield _Task([Texts(site, tuple(chunks))], [number])


def verify_units(units: Sequence[Unit], render: Render | None = None) -> list[Done]:
    """A worker's job: each unit read, parsed and replayed, its stacks followed within it,
    and with ``render`` its hands rendered (``Lines``).  Never raises for anything a file
    holds; a file that stopped is not read further."""
    out: list[Done] = []
    stopped = False  # the file of the units' last part stopped
    for unit in units:
        if isinstance(unit, Part):
            stopped = stopped and unit.start > 0  # a file's parts come one after another
            if stopped:
                out.append(([], Chain(stopped=True)))
                continue
            done = _verified(cut_part(unit))
            stopped = done[1].stopped
        else:
            reader = _READERS[unit.site]
            done = _verified((reader, chunk, None) for chunk in unit.chunks)
        out.append(done if render is None else _rendered(done, render))
    return out


def _rendered(done: Done, render: Render) -> Done:
    """A unit's rows as ``Lines``: what the main process prints and counts of them."""
    rows, chain = done
    if isinstance(rows, Lines):
        return done
    rendered: list[str | None]
    if render == "json":
        rendered = [row_json(r[0], r[2], r[3], r[4], r[5], r[6]) for r in rows]
    else:
        rendered = [row_text(*r[:8]) for r in rows]
    # the counts, files and breaks over the rows at once (``Counter`` counts in C)
    counts = dict(Counter(map(_STATUS, rows)))
    files = tuple(dict.fromkeys(map(_FILE, rows)))
    breaks = (
        tuple((r[0], r[1]) for r in rows if ends_chain(r[5]))
        if any(map(ends_chain, counts))
        else ()
    )
    firsts = {index: rows[index] for index, _ in chain.firsts}
    return Lines(rendered, counts, files, breaks, firsts), chain


_OK: tuple[Status, str] = ("ok", "")  # ``status_of`` of no problem
_STATUS = itemgetter(5)  # a row's status and file, read in C
_FILE = itemgetter(0)


def _render(row: Row, render: Render) -> str | None:
    file, line, hand_id, site, game, status, problems, reason, _ = row
    if render == "json":
        return row_json(file, hand_id, site, game, status, problems)
    return row_text(file, line, hand_id, site, game, status, problems, reason)


def _verified(cuts: Iterable[Cut]) -> Done:
    """Rows of a run of one source's hand texts, the stacks followed as ``verify_paths``
    follows them, and what the main process needs to follow them across runs.  A hand's
    row is made from its replay directly (``check`` less its ``HandResult``)."""
    tracker = ContinuityTracker()
    rows: list[Row] = []
    firsts: list[tuple[int, TableHand]] = []
    seen: set[TableKey] = set()  # the tables met in this run: their chains follow within it
    stopped = False
    for reader, chunk, error in cuts:
        if error is not None:
            stopped = True  # a cut's error ends its file
            outcome: Outcome = error
        else:
            assert reader is not None  # a hand text always comes with its reader
            outcome = parse(reader, chunk)
        if not isinstance(outcome, Hand):
            result = check(chunk, outcome)
            if ends_chain(result.status):
                tracker.break_chains(result.file, result.line)
            rows.append(
                (
                    result.file,
                    result.line,
                    result.hand_id,
                    result.site,
                    result.game,
                    result.status,
                    result.problems,
                    result.reason,
                    result.final,
                )
            )
            continue
        done = replay(outcome)
        problems = done.verdict.problems
        status, reason = status_of(problems) if problems else _OK
        if outcome.table.strip():
            summary = TableHand.of(outcome, outcome.time)
            if summary.key not in seen:
                seen.add(summary.key)
                firsts.append((len(rows), summary))
            carried = tracker.feed_table_hand(summary, done.final)
            if carried:
                problems, status, reason = _with(problems, carried)
        rows.append(
            (
                outcome.file or chunk.file,
                outcome.line,
                outcome.hand_id,
                outcome.site,
                _GAME_VALUES[outcome.game],
                status,
                problems,
                reason,
                tuple(done.final.items()),
            )
        )
    ends = tuple((summary.key, tracker.last(summary.key)) for _, summary in firsts)
    return rows, Chain(tuple(firsts), ends, stopped)


def _with(
    problems: tuple[Problem, ...], carried: tuple[Problem, ...]
) -> tuple[tuple[Problem, ...], Status, str]:
    """A hand's problems, status and reason once its carry-over problems are added, as
    ``verify_paths`` adds them."""
    problems = problems + carried
    return (problems, *status_of(problems))


def _carried(result: HandResult, carried: tuple[Problem, ...]) -> HandResult:
    """``result`` with the stack carry-over problems of its table's previous hand."""
    if not carried:
        return result
    problems, status, reason = _with(result.problems, carried)
    return replace(result, problems=problems, status=status, reason=reason)


class _Chains:
    """Each table's chain of stacks followed from unit to unit, in input order."""

    def __init__(self) -> None:
        self.tracker = ContinuityTracker()
        self.stopped: set[int] = set()  # the sources a part ended: the later parts are not read

    def follow(
        self, source: int, breaks: Iterable[tuple[str, int]], chain: Chain
    ) -> dict[int, tuple[Problem, ...]] | None:
        """The carry-over problems of the unit's first hands of tables, by row index;
        None when the unit's source stopped before it (its rows are not given)."""
        if source in self.stopped:
            return None
        tracker = self.tracker
        for file, line in breaks:
            tracker.break_chains(file, line)
        carried = {index: tracker.follows(summary) for index, summary in chain.firsts}
        for key, last in chain.ends:
            tracker.resume(key, last)
        if chain.stopped:
            self.stopped.add(source)
        return carried


class _Stitcher(_Chains):
    """The units' rows in input order as results, each table's chain followed."""

    def __call__(self, source: int, done: Done) -> Iterator[HandResult]:
        rows, chain = done
        assert not isinstance(rows, Lines)  # rows are asked for whenever results are
        carried = self.follow(source, ((r[0], r[1]) for r in rows if ends_chain(r[5])), chain)
        if carried is None:
            return
        for index, (file, line, hand_id, site, game, status, problems, reason, final) in (
            enumerate(rows)
        ):
            more = carried.get(index)
            if more:
                problems, status, reason = _with(problems, more)
            yield HandResult(
                file, line, hand_id, site, game, status, problems, None, "", reason, final
            )


class _Printer(_Chains):
    """The units' printed text in input order, each table's chain followed: only a first
    hand of a table whose stacks do not follow is rendered again here."""

    def __init__(self, render: Render) -> None:
        super().__init__()
        self.render = render

    def __call__(self, source: int, done: Done) -> Iterator[Printed]:
        lines, chain = _rendered(done, self.render)  # a verdict of this process: rows
        assert isinstance(lines, Lines)
        carried = self.follow(source, lines.breaks, chain)
        if carried is None:
            return
        out, counts = lines.out, lines.counts
        for index, more in carried.items():
            if more:
                row = lines.firsts[index]
                problems, status, reason = _with(row[6], more)
                counts = dict(counts) if counts is lines.counts else counts
                counts[row[5]] -= 1
                counts[status] = counts.get(status, 0) + 1
                out[index] = _render(
                    (*row[:5], status, problems, reason, row[8]), self.render
                )
        text = "\n".join([x for x in out if x is not None])
        yield Printed(text + "\n" if text else "", counts, lines.files)
