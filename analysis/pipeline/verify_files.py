"""``drawlab verify`` of files, folders and archives: in one process or on every core.

``verify_paths`` reads and replays in this process, or, given workers, in worker
processes.  There the main process walks and cuts the sources
(``parser.reader.cut_sources``, the one reading pipeline), as the importer does; batches
of one source's hand texts go to worker processes (the importer's, which survive a dead
worker: its batches are then read here), which parse and replay each hand and send back
its verdict, not its record.  The stacks are followed from hand to hand here, in input
order, exactly as ``verify_paths`` follows them in one process, so the output is the same
whatever the number of workers.

This module holds both ways (``analysis.pipeline.verification`` checks one hand text and imports
nothing of the pipeline), so no module imports the other back.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace

from analysis.pipeline.verification import HandResult, Status, check, ends_chain
from analysis.pipeline.workers import kill_workers, mp_context, worker_init, worker_result
from engine.continuity import ContinuityTracker, TableHand
from engine.record import Hand
from engine.verdict import Problem, Severity
from parser.outcome import HandText
from parser.reader import Cut, cut_sources, parse
from parser.registry import READERS
from parser.sources import Rejected, Source, iter_sources

TASK_HANDS = 200  # hand texts per worker task
TASK_CHARS = 1 << 19  # ...or this much text, whichever comes first

_READERS = {reader.site: reader for reader in READERS}
Light = tuple[HandResult, TableHand | None]
"""A verdict without its record, text or pots, and what the stack check needs of it."""


def verify_paths(
    paths: Iterable[str | os.PathLike[str]], workers: int = 1
) -> Iterator[HandResult]:
    """Every hand of every file, folder or .zip in ``paths``, read and replayed, in order.

    Stacks are also followed from hand to hand at each table (``engine.continuity``), in
    the order the files give the hands; a break is reported on the later hand, and a hand
    that failed (a parse error, a replay that gave no final stacks) ends its table's chain
    (``ContinuityTracker.break_chains``, ``feed``).

    ``workers`` above 1 parses and replays in that many worker processes
    (``verify_in_workers``): the same verdicts in the same order, but without the
    records and pots (``hand`` is None, ``pots`` empty), which would cost more to send back
    than to make.
    """
    if workers > 1:
        yield from verify_in_workers(paths, workers)
        return
    from parser.reader import read_path  # the reader pulls in every site's grammar

    tables = ContinuityTracker()
    for path in paths:
        for chunk, outcome in read_path(path):
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
    tracker = ContinuityTracker()
    context = mp_context()
    if context.get_start_method() == "forkserver":
        # the server imports the readers once and forks each worker ready; a no-op when
        # the server already runs (an import in the same process started it)
        context.set_forkserver_preload([__name__])
    executor = ProcessPoolExecutor(workers, mp_context=context, initializer=worker_init)
    broken = False
    inflight: deque[_Task] = deque()

    def submit(task: _Task) -> None:
        nonlocal broken
        if task.site and not broken:
            try:
                task.future = executor.submit(verify_task, task.site, task.chunks)
            except BrokenProcessPool:  # a worker died before we waited on it
                broken = True

    def finish(task: _Task) -> Iterator[HandResult]:
        nonlocal broken
        if task.done is None:
            results: list[Light] | None = None
            if task.future is not None and not broken:
                try:
                    results = worker_result(task.future, executor)
                except BrokenProcessPool:  # a worker died: this batch is read here
                    broken = True
            task.done = results if results is not None else verify_task(task.site, task.chunks)
        for chunk, (result, summary) in zip(task.chunks, task.done, strict=True):
            yield _followed(tracker, replace(result, text=chunk.text), summary)

    try:
        for task in _tasks(cut_sources(_sources(paths))):
            submit(task)
            inflight.append(task)
            while len(inflight) > 3 * workers:
                yield from finish(inflight.popleft())
        while inflight:
            yield from finish(inflight.popleft())
    finally:
        if broken:  # its queues may be wedged: waiting could hang
            kill_workers(executor)
        executor.shutdown(wait=not broken, cancel_futures=True)


def _sources(paths: Iterable[str | os.PathLike[str]]) -> Iterator[Source | Rejected]:
    for path in paths:  # one path at a time, as verify_paths reads them
        yield from iter_sources([path])


@dataclass
class _Task:
    """A batch of one source's hand texts, or a source's own verdict (``done``)."""

    site: str = ""
    chunks: list[HandText] = field(default_factory=list)
    future: Future[list[Light]] | None = None
    done: list[Light] | None = None


def _tasks(cuts: Iterator[Cut]) -> Iterator[_Task]:
    """Batches in input order; a batch ends at a source's end, its size or an error."""
    task = _Task()
    chars = 0
    for reader, chunk, error in cuts:
        site = reader.site if reader is not None else ""
        if task.chunks and (error is not None or site != task.site or _full(task, chars)):
            yield task
            task, chars = _Task(), 0
        if error is not None:
            yield _Task(chunks=[chunk], done=[(check(chunk, error), None)])
            continue
        task.site = site
        task.chunks.append(chunk)
        chars += len(chunk.text)
    if task.chunks:
        yield task


def _full(task: _Task, chars: int) -> bool:
    return len(task.chunks) >= TASK_HANDS or chars >= TASK_CHARS


def verify_task(site: str, chunks: Sequence[HandText]) -> list[Light]:
    """A worker's job: hand texts to verdicts.  Never raises for anything a file holds."""
    reader = _READERS[site]
    out: list[Light] = []
    for chunk in chunks:
        result = check(chunk, parse(reader, chunk))  # as verify_paths reads and replays
        hand = result.hand
        summary = None  # an unknown table has nothing to chain with (as ``feed``)
        if isinstance(hand, Hand) and hand.table.strip():
            summary = TableHand.of(hand, hand.time)
        out.append((replace(result, hand=None, text="", pots=()), summary))
    return out


def _followed(
    tracker: ContinuityTracker, result: HandResult, summary: TableHand | None
) -> HandResult:
    """``result`` with the stack carry-over problems found in input order, as
    ``verify_paths`` adds them."""
    if ends_chain(result.status):
        tracker.break_chains(result.file, result.line)
        return result
    if summary is None:
        return result
    return _carried(result, tracker.feed_table_hand(summary, dict(result.final)))


def _carried(result: HandResult, carried: tuple[Problem, ...]) -> HandResult:
    """``result`` with the stack carry-over problems of its table's previous hand."""
    if not carried:
        return result
    problems = result.problems + carried
    errors = [p for p in problems if p.severity is Severity.ERROR]
    status: Status = "invalid" if errors else "ok"
    reason = errors[0].message if errors else ""
    return replace(result, problems=problems, status=status, reason=reason)
