"""Stored hands replayed again: verdicts, problems, pots and facts as a new import gives them.

A database outlives the DrawLab that filled it.  When the engine learns a rule, a site's
profile is corrected or the statistics' facts change, the hands already imported should
say what this DrawLab says of them, without the user finding their files again: every
hand keeps its original text, so ``reverify`` reads each one again, replays it and
replaces what was derived from it (the hand's own columns, its seats, steps, problems,
pots and facts).  The hand keeps its id, key, file, line and text, so everything that
refers to it (drill answers, another import of the same file) still does.

Hands go in import order (their ids), so the stack carry-over from one hand to the next
at a table is checked as the import did.  One transaction a page, which also records in
``meta`` (``reverify_progress``) the last hand done and which DrawLab did it (a digest
of its code): a killed run leaves whole pages done and the rest as they were, and the
next run of the same DrawLab goes on after the last page done, its carry-over check
primed with each table's last hand before it (rebuilt from the rows, as the importer
does for a grown file); another DrawLab starts again from the first hand.

Quarantined texts (what an older reader could not parse) are read again too: those this
DrawLab reads become hands, added after the others as a new import would add them (a
hand already stored under the same key just leaves the quarantine); the rest stay.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from bisect import insort
from collections import Counter, deque
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from analysis.pipeline.importer import (
    CHECKPOINT_MB,
    DUCKDB_MEMORY_MB,
    STATUSES,
    Progress,
    ProgressFn,
    checked,
    reader_for,
)
from analysis.pipeline.reverify_changes import changed_rows
from analysis.pipeline.verification import HandResult
from analysis.pipeline.workers import kill_workers, mp_context, worker_init, worker_result
from analysis.storage import summaries
from analysis.storage.db import (
    Connection,
    append_arrow,
    has_player_hands,
    one,
    restore_memory_limit,
    set_facts_stale,
)
from analysis.storage.player_facts import facts_fn
from analysis.storage.queries import reader_of
from analysis.storage.rows import (
    HAND_COLUMNS,
    ArrowRows,
    Rows,
    add_result,
    with_continuity,
)
from analysis.storage.transactions import rollback
from analysis.storage.writer import last_hands
from engine.continuity import ContinuityTracker, LastHand, TableHand, TableKey
from engine.record import Hand
from engine.verdict import Problem
from parser.outcome import HandText

# Hands a transaction.  A page's statements and commit cost about 86 ms besides its hands
# (the main process's writes at 1 M stored hands: 69.9 us a hand in pages of 2,000, 44.2 in
# pages of 5,000); a page in flight holds its texts and rows (about 5 KB a hand), and a
# killed run replays at most the pages then in flight again.
PAGE = 5000
PROGRESS = "reverify_progress"  # meta row: how far a run got, and with which code
SMALL = 5000  # hands below which worker processes cost more than they save
_KEPT = ("key", "file", "line", "text")  # the hand's identity and source: never rewritten
_DERIVED = tuple(c for c in HAND_COLUMNS if c not in _KEPT)
StoredHand = tuple[int, str, str, int, str]  # id, site, file, line, text


@dataclass
class ReverifySummary:
    hands: int = 0
    resumed: int = 0  # hands a stopped run of this DrawLab had replayed: not done again
    changed: int = 0  # hands whose status, reason or problems are not what they were
    recovered: int = 0  # quarantined texts this DrawLab now reads, now hands
    quarantined: int = 0  # quarantined texts read again
    before: Counter[str] = field(default_factory=Counter)
    after: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "changed": self.changed,
            "before": {s: self.before[s] for s in STATUSES},
            "after": {s: self.after[s] for s in STATUSES},
            "quarantined": self.quarantined,
            "recovered": self.recovered,
            "resumed": self.resumed,
            "seconds": round(self.seconds, 3),
        }

    def headlines(self) -> list[str]:
        lines = [f"{self.hands:,} hands replayed again, {self.changed:,} with a new verdict."]
        if self.resumed:
            lines.append(f"(went on from a stopped run, which had replayed {self.resumed:,})")
        if self.quarantined:
            lines.append(
                f"{self.quarantined:,} unreadable texts read again, {self.recovered:,} now hands."
            )
        return lines

    def text(self) -> str:
        lines = self.headlines()
        width = max(len(s) for s in STATUSES)
        lines += [
            f"  {s:<{width}}  {self.before[s]:>9,} -> {self.after[s]:,}"
            for s in STATUSES
            if self.before[s] or self.after[s]
        ]
        return "\n".join(lines)


@dataclass
class _Page:
    """A page of stored texts replayed: their rows, and which stored text each row is."""

    rows: ArrowRows
    ids: list[int]  # the id (in ``hands`` or ``quarantine``) of each row of ``rows.hands``
    failed: list[tuple[int, str]]  # (id, why) of the texts that do not parse


def replay_page(hands: Sequence[StoredHand], known: dict[str, list[int]] | None = None) -> _Page:
    """A worker's job: stored texts to rows, as ``analysis.pipeline.importer.parse_task``
    makes them.  ``known`` (a worker's page): the lines of the failed hands the carry-over
    check knows in the page's files (``_Chains.known``); the stacks are then followed
    within the page here (``Rows.follow``), and only each table's first hand and end go
    back to the main process, as an import's parts do.  Without it the summary of every
    hand goes back, for the main process to follow (a page replayed there)."""
    facts, columns, types = facts_fn()
    rows = Rows()
    ids: list[int] = []
    failed: list[tuple[int, str]] = []
    for hand_id, site, file, line, text in hands:
        result = _read(site, file, line, text)
        if isinstance(result, str):
            failed.append((hand_id, result))
            continue
        if result.status == "parse_error":
            failed.append((hand_id, result.reason))
            rows.breaks.append((result.file, result.line))  # its table's chain ends
            continue
        add_result(rows, result, facts, columns)
        ids.append(hand_id)
    if known is not None:
        rows.follow(known)
    return _Page(rows.to_arrow(types), ids, failed)


def _read(site: str, file: str, line: int, text: str) -> HandResult | str:
    """A stored text read as ``queries.rebuild`` reads it: a hand is stored under the site
    its record names, not always its format's (a PHH hand under its venue, ``home`` or
    ``pokerstars``), so when the site's own reader is missing or cannot read the text the
    reader that recognises it (``queries.reader_of``) reads it.  The site's reader goes
    first without sniffing, since nearly every hand is its site's: no cost on that path.
    A string is why no reader could be found."""
    named = _reader_named(site)
    result = _checked_at(named, file, line, text) if named else None
    if result is not None and result.status != "parse_error":
        return result
    other = reader_of(site, text)
    if other is None or other is named:
        return result if result is not None else f"no reader for site {site!r}"
    return _checked_at(other, file, line, text)


def _checked_at(reader: Any, file: str, line: int, text: str) -> HandResult:
    """The text read as the import read it.  The stored line is the record's own line,
    which is the text's first for PokerStars but not for PHH (its ``_drawlab_hand`` table
    comes after the standard's keys); read at the stored line, such a record comes back
    shifted by as much, so it is read again from where its text really began."""
    result = checked(reader, HandText(file, line, text, reader.site))
    if result.status == "parse_error" or result.line == line:
        return result
    return checked(reader, HandText(file, 2 * line - result.line, text, reader.site))


def _reader_named(site: str) -> Any:
    try:
        return reader_for(site)
    except KeyError:
        return None


def reverify(
    db: Connection, progress: ProgressFn | None = None, workers: int | None = None
) -> ReverifySummary:
    """Replay every stored hand again and store what this DrawLab makes of it."""
    start = time.monotonic()
    summary = ReverifySummary()
    row = one(db, "SELECT count(*) FROM hands")
    total = int(row[0]) if row else 0
    if workers is None:
        workers = 0 if total < SMALL else (os.cpu_count() or 1)
    facts = has_player_hands(db)
    code = code_digest()
    after = _resume_after(db, code)
    if after:
        row = one(db, "SELECT count(*) FROM hands WHERE id <= ?", [after])
        summary.resumed = int(row[0]) if row else 0
    tracker = _tracker(db, after)
    if facts:  # the facts are rewritten in place: the summed cells no longer hold
        summaries.invalidate(db)
    pool = _Pool(workers)
    settings = _tune(db)
    try:
        for page in pool.replayed(_pages(db, "hands", after), tracker):
            _store(db, page, tracker, facts, summary, code)
            if progress is not None:
                seconds = time.monotonic() - start
                progress(Progress(summary.hands, 0, 0, 0, seconds, ""))
        for page in pool.replayed(_pages(db, "quarantine")):
            _recover(db, page, facts, summary)
    finally:
        pool.close()
        _untune(db, settings)
    if facts:
        set_facts_stale(db, False)
        summaries.rebuild_all(db)
    db.execute("DELETE FROM meta WHERE name IN ('replay_suggested', ?)", [PROGRESS])
    with contextlib.suppress(Exception):
        db.execute("CHECKPOINT")
    summary.seconds = time.monotonic() - start
    return summary


def _tune(db: Connection) -> tuple[Any, ...] | None:
    """The importer's settings for bulk writes (``Importer._tune``), for the same reasons:
    a page rewrites a few thousand rows of every table, and DuckDB's checkpoint at each
    16 MB of log cost ten times the page's own work (each checkpoint rewrote the row
    groups the page touched); the cores are the workers'; a small cache bounds memory."""
    before = one(db, "SELECT current_setting('threads'), current_setting('memory_limit')")
    db.execute(f"SET checkpoint_threshold = '{CHECKPOINT_MB}MB'")
    db.execute(f"SET memory_limit = '{DUCKDB_MEMORY_MB}MB'")
    db.execute("SET threads = 1")
    return before


def _untune(db: Connection, before: tuple[Any, ...] | None) -> None:
    with contextlib.suppress(Exception):  # a failed run may leave a transaction open
        if before is not None:
            db.execute(f"SET threads = {int(before[0])}")
            restore_memory_limit(db, str(before[1]))
        db.execute("RESET checkpoint_threshold")


class _Pool:
    """Worker processes that replay pages, in order, one page each in hand and one more
    besides the page being stored (so memory does not grow with the database: two pages
    each of 5,000 hands took the run's peak from 822 to 1,087 MiB at 100,000 hands); pages
    go on in this process if a worker dies, as the importer's batches do."""

    def __init__(self, workers: int) -> None:
        self.executor: ProcessPoolExecutor | None = None
        self.window = workers + 1
        self.broken = False
        self.chains: _Chains | None = None  # set: the workers follow the pages' stacks
        if workers > 0:
            self.executor = ProcessPoolExecutor(
                workers, mp_context=mp_context(), initializer=worker_init
            )

    def replayed(
        self, pages: Iterator[list[StoredHand]], chains: _Chains | None = None
    ) -> Iterator[_Page]:
        """The pages replayed, in order; with ``chains`` (the main process's carry-over
        check), each worker follows its page's stacks (``replay_page``)."""
        self.chains = chains
        inflight: deque[tuple[list[StoredHand], Future[_Page] | None, int | None]] = deque()
        for page in pages:
            inflight.append((page, *self._submit(page)))
            if len(inflight) > self.window:
                yield self._finish(*inflight.popleft())
        while inflight:
            yield self._finish(*inflight.popleft())

    def _submit(self, page: list[StoredHand]) -> tuple[Future[_Page] | None, int | None]:
        if self.executor is None or self.broken:
            return None, None
        known, mark = self.chains.known(page) if self.chains is not None else (None, None)
        try:
            return self.executor.submit(replay_page, page, known), mark
        except BrokenProcessPool:  # a worker died before we waited on it
            self.broken = True
            return None, None

    def _finish(
        self, page: list[StoredHand], future: Future[_Page] | None, mark: int | None = None
    ) -> _Page:
        """The page's rows: the worker's, or replayed here when its worker died or when
        a failed hand learnt since it was sent (in a page then in flight) lies among its
        hands (``_Chains.learnt_among``): its stacks are then followed here, in turn."""
        if future is not None and not self.broken:
            try:
                got = worker_result(future, self.executor)
            except BrokenProcessPool:
                self.broken = True
            else:
                if mark is None or self.chains is None or not self.chains.learnt_among(page, mark):
                    return got
        return replay_page(page)

    def close(self) -> None:
        if self.executor is None:
            return
        if self.broken:  # its queues may be wedged: waiting could hang
            kill_workers(self.executor)
        self.executor.shutdown(wait=not self.broken, cancel_futures=True)


class _Chains:
    """The main process's carry-over check (``ContinuityTracker``), which also keeps the
    lines of the failed hands it was told of, by file and in the order it learnt them.

    A worker follows a page's stacks itself (``Rows.follow``) given the failed hands
    known in the page's files when the page was sent (``known``); one learnt later, from
    a page still in flight then, matters only if it lies among the page's own hands in
    its file (ids follow lines within an import, so it almost never does: a file of the
    same name imported again, whose lines overlap), which ``learnt_among`` tells.
    """

    def __init__(self) -> None:
        self.tracker = ContinuityTracker()
        self.lines: dict[str, list[int]] = {}
        self.learnt: list[tuple[str, int]] = []

    def break_chains(self, file: str, line: int) -> None:
        self.tracker.break_chains(file, line)
        insort(self.lines.setdefault(file, []), line)
        self.learnt.append((file, line))

    def feed(self, hand: Hand, final: dict[str, int]) -> None:
        self.tracker.feed(hand, final)

    def feed_table_hand(self, hand: TableHand, final: Mapping[str, int]) -> tuple[Problem, ...]:
        return self.tracker.feed_table_hand(hand, final)

    def follows(self, hand: TableHand) -> tuple[Problem, ...]:
        return self.tracker.follows(hand)

    def resume(self, key: TableKey, last: LastHand | None) -> None:
        self.tracker.resume(key, last)

    def known(self, page: Sequence[StoredHand]) -> tuple[dict[str, list[int]], int]:
        """The failed hands' lines in the page's files, and how many were learnt so far."""
        files = {hand[2] for hand in page}
        known = {f: list(self.lines[f]) for f in files if f in self.lines}
        return known, len(self.learnt)

    def learnt_among(self, page: Sequence[StoredHand], since: int) -> bool:
        """Whether a failed hand learnt after the first ``since`` lies within the lines
        of the page's hands of its file."""
        later = self.learnt[since:]
        if not later:
            return False
        spans: dict[str, tuple[int, int]] = {}
        for _, _, file, line, _ in page:
            low, high = spans.get(file, (line, line))
            spans[file] = (min(low, line), max(high, line))
        for file, line in later:
            span = spans.get(file)
            if span is not None and span[0] <= line <= span[1]:
                return True
        return False


def _pages(db: Connection, table: str, after: int = 0) -> Iterator[list[StoredHand]]:
    """Stored texts of ``hands`` or ``quarantine`` in id order from after id ``after``, a
    page at a time (each read before the page before it is rewritten).

    A page is a range of ids, ``(last, last + PAGE]``: its rows are found through the id
    column's zone maps alone, so a page costs the same at the first hand and the ten
    millionth (``ORDER BY id LIMIT`` would sort everything after ``last`` each time).
    Ids are given in import order with few gaps; an empty range skips to the next id."""
    row = one(db, f"SELECT coalesce(max(id), 0) FROM {table}")
    top = int(row[0]) if row else 0
    last = after
    while last < top:
        page = db.execute(
            f"SELECT id, coalesce(site, ''), coalesce(file, ''), coalesce(line, 1), text "
            f"FROM {table} WHERE id > ? AND id <= ? ORDER BY id",
            [last, last + PAGE],
        ).fetchall()
        if not page:
            found = one(db, f"SELECT min(id) FROM {table} WHERE id > ?", [last])
            if found is None or found[0] is None:
                return
            last = int(found[0]) - 1
            continue
        last += PAGE
        yield [(int(i), str(s), str(f), int(n), str(t)) for i, s, f, n, t in page]


def _store(
    db: Connection,
    page: _Page,
    tracker: _Chains,
    facts: bool,
    summary: ReverifySummary,
    code: str,
) -> None:
    """The page's replayed rows stored where they differ from the stored ones
    (``reverify_changes``): a table's rows of a hand are rewritten (deleted and appended
    again, or the hand's own columns updated) only when they changed or the hand no
    longer reads, in one transaction that also records how far the run got."""
    rows = with_continuity(page.rows, tracker) if page.rows.chained else page.rows
    ids = page.ids + [i for i, _ in page.failed]
    span = [min(ids), max(ids)] if ids else [0, -1]  # the page's ids: zone maps prune to it
    hands = rows.hands.select(list(_DERIVED)).add_column(0, "id", pa.array(page.ids, pa.int64()))
    local_ids = np.asarray(page.ids, dtype=np.int64)
    children = dict(rows.children)
    if facts:
        children["player_hands"] = rows.player_hands
    numbered = {
        table: part.set_column(0, "hand", pa.array(local_ids[_local(part)], pa.int64()))
        for table, part in children.items()
    }
    db.register("_page_ids", pa.table({"id": pa.array(ids, pa.int64())}))
    db.execute("BEGIN TRANSACTION")
    try:
        statuses = _statuses(db, span)
        changed = changed_rows(db, span, hands, numbered)
        for table in ("hands", *numbered):  # a hand that no longer reads loses every row
            changed.setdefault(table, set()).update(i for i, _ in page.failed)
        before, after = _rewrite(db, changed, hands, numbered, page.failed)
        if ids:  # how far this DrawLab got, in the transaction that got it there
            mark = json.dumps({"code": code, "after": max(ids)})
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", [PROGRESS, mark])
        db.execute("COMMIT")
    except BaseException:
        rollback(db)
        raise
    finally:
        db.unregister("_page_ids")
    summary.hands += len(ids)
    summary.before.update(statuses)
    statuses.subtract(verdict[0] for verdict in before.values())  # the unchanged hands'
    statuses.update(verdict[0] for verdict in after.values())
    summary.after.update(statuses)
    summary.changed += sum(1 for i, verdict in after.items() if before.get(i) != verdict)


Verdicts = dict[int, tuple[str, str, tuple[str, ...]]]


def _rewrite(
    db: Connection,
    changed: Mapping[str, set[int]],
    hands: pa.Table,
    children: Mapping[str, pa.Table],
    failed: Sequence[tuple[int, str]],
) -> tuple[Verdicts, Verdicts]:
    """Each table's rows of its ``changed`` hands replaced by the replayed ones
    (``children``: each table's rows numbered with the stored ids; ``hands``: the hands'
    own columns, updated) and the failed hands' by a parse error; the verdicts before and
    after of the hands whose own columns or problems changed, to count the ones that did."""
    judged = sorted(changed.get("hands", set()) | changed.get("problems", set()))
    before = _verdicts(db, judged) if judged else {}
    for table, part in children.items():
        rewritten = sorted(changed.get(table, ()))
        if rewritten:
            wanted = pa.array(rewritten, pa.int64())
            with _ids(db, "_rewritten_ids", wanted):
                db.execute(
                    f"DELETE FROM {table} WHERE hand BETWEEN ? AND ? "
                    "AND hand IN (SELECT id FROM _rewritten_ids)",
                    [rewritten[0], rewritten[-1]],
                )
            part = part.filter(pc.is_in(part.column("hand"), value_set=wanted))
            if part.num_rows:
                append_arrow(db, table, part)
    updated = sorted(changed.get("hands", ()))
    if updated:
        wanted = pa.array(updated, pa.int64())
        new = hands.filter(pc.is_in(hands.column("id"), value_set=wanted))
        sets = ", ".join(f'"{c}" = n."{c}"' for c in _DERIVED)
        with _ids(db, "_page_hands", new):
            db.execute(
                f"UPDATE hands SET {sets} FROM _page_hands n "
                "WHERE hands.id = n.id AND hands.id BETWEEN ? AND ?",
                [updated[0], updated[-1]],
            )
    for hand_id, why in failed:  # after the deletes: its problem is the parse error alone
        db.execute(
            "UPDATE hands SET status = 'parse_error', reason = ?, errors = 1, warnings = 0 "
            "WHERE id = ?",
            [why, hand_id],
        )
        db.execute(
            "INSERT INTO problems SELECT id, 'PARSE_ERROR', 'error', line, ? FROM hands "
            "WHERE id = ?",
            [why, hand_id],
        )
    after = _verdicts(db, judged) if judged else {}
    return before, after


@contextlib.contextmanager
def _ids(db: Connection, name: str, rows: pa.Array | pa.Table) -> Iterator[None]:
    """``rows`` registered as ``name`` (an array: as its ``id`` column) while in use."""
    db.register(name, rows if isinstance(rows, pa.Table) else pa.table({"id": rows}))
    try:
        yield
    finally:
        db.unregister(name)


def _statuses(db: Connection, span: list[int]) -> Counter[str]:
    """How many of the page's hands are stored under each status."""
    return Counter(
        {
            str(status): int(n)
            for status, n in db.execute(
                "SELECT status, count(*) FROM hands WHERE id BETWEEN ? AND ? "
                "AND id IN (SELECT id FROM _page_ids) GROUP BY status",
                span,
            ).fetchall()
        }
    )


def code_digest() -> str:
    """What makes this DrawLab's verdicts its own: a digest of the code that reads,
    replays and computes rows (``engine``, ``parser`` with its grammars, ``analysis``).
    A stopped run is continued only by the same code; any change starts again."""
    import analysis
    import engine
    import parser

    digest = hashlib.sha256()
    for package in (engine, parser, analysis):
        root = Path(package.__file__ or "").parent
        for path in sorted((*root.rglob("*.py"), *root.rglob("*.lark"))):
            digest.update(str(path.relative_to(root.parent)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _resume_after(db: Connection, code: str) -> int:
    """The last hand id a stopped run of this same code replayed, 0 to start afresh."""
    row = one(db, "SELECT value FROM meta WHERE name = ?", [PROGRESS])
    if row is None:
        return 0
    try:
        mark = json.loads(str(row[0]))
        return int(mark["after"]) if mark.get("code") == code else 0
    except (ValueError, KeyError, TypeError):
        return 0


def _tracker(db: Connection, after: int) -> _Chains:
    """The carry-over check as it stood after hand ``after`` (a new one for 0): every
    text that did not read or was not replayed ends its chains, and each table's last
    replayed hand up to ``after`` is the one the next hand there is compared with."""
    tracker = _Chains()
    for file, line in db.execute(
        "SELECT coalesce(file, ''), coalesce(line, 1) FROM quarantine"
    ).fetchall():
        tracker.break_chains(str(file), int(line))  # a text that did not read ends its chains
    if not after:
        return tracker
    for file, line in db.execute(
        "SELECT coalesce(file, ''), coalesce(line, 1) FROM hands WHERE id <= ? "
        "AND status IN ('parse_error', 'unsupported') ORDER BY id",
        [after],
    ).fetchall():
        tracker.break_chains(str(file), int(line))
    for hand, final in last_hands(db, "id <= ?", [after]):
        tracker.feed(hand, final)
    return tracker


def _recover(db: Connection, page: _Page, facts: bool, summary: ReverifySummary) -> None:
    """Quarantined texts that now read as hands become hands (``page.ids`` are their
    quarantine ids); a key already among the hands only leaves the quarantine."""
    summary.quarantined += len(page.ids) + len(page.failed)
    if not page.ids:
        return
    rows = page.rows
    db.execute("BEGIN TRANSACTION")
    try:
        keys = rows.hands.column("key").to_pylist()
        taken = {
            str(r[0])
            for r in db.execute(
                "SELECT key FROM hands WHERE key IN (SELECT unnest(?::VARCHAR[]))", [keys]
            ).fetchall()
        }
        new = np.zeros(len(keys), dtype=bool)
        for i, key in enumerate(keys):
            if key not in taken:
                taken.add(key)
                new[i] = True
        row = one(db, "SELECT coalesce(max(id), 0) + 1 FROM hands")
        first = int(row[0]) if row else 1
        ids = np.full(len(keys), -1, dtype=np.int64)
        ids[new] = np.arange(first, first + int(new.sum()), dtype=np.int64)
        if new.any():
            batches = dict(
                db.execute(
                    "SELECT id, batch FROM quarantine WHERE id IN (SELECT unnest(?::BIGINT[]))",
                    [page.ids],
                ).fetchall()
            )
            hands = rows.hands.filter(pa.array(new))
            hands = hands.add_column(0, "id", pa.array(ids[new])).append_column(
                "batch",
                pa.array(
                    [batches.get(q) for q, n in zip(page.ids, new, strict=True) if n], pa.int64()
                ),
            )
            append_arrow(db, "hands", hands)
            children = dict(rows.children)
            if facts:
                children["player_hands"] = rows.player_hands
            for table, part in children.items():
                if not part.num_rows:
                    continue
                hand_ids = ids[_local(part)]
                keep = hand_ids >= 0
                if keep.any():
                    part = part.set_column(0, "hand", pa.array(hand_ids))
                    append_arrow(db, table, part.filter(pa.array(keep)))
        db.execute("DELETE FROM quarantine WHERE id IN (SELECT unnest(?::BIGINT[]))", [page.ids])
        db.execute("COMMIT")
    except BaseException:
        rollback(db)
        raise
    summary.recovered += int(new.sum())


def _local(table: pa.Table) -> np.ndarray:
    column: np.ndarray = table.column("hand").to_numpy()
    return column


def _verdicts(db: Connection, ids: list[int]) -> Verdicts:
    """The status, reason and problems of each hand of ``ids`` (sorted), to count the
    verdicts that changed (both tables pruned to the ids' span by their zone maps)."""
    out: Verdicts = {}
    with _ids(db, "_judged_ids", pa.array(ids, pa.int64())):
        for hand_id, status, reason, problems in db.execute(
            "SELECT h.id, h.status, coalesce(h.reason, ''), list_sort(list(concat_ws(':', "
            "p.code, p.severity, p.line, p.message)) FILTER (p.code IS NOT NULL)) "
            "FROM hands h LEFT JOIN (SELECT * FROM problems WHERE hand BETWEEN $1 AND $2) p "
            "ON p.hand = h.id WHERE h.id BETWEEN $1 AND $2 "
            "AND h.id IN (SELECT id FROM _judged_ids) GROUP BY h.id, h.status, h.reason",
            [ids[0], ids[-1]],
        ).fetchall():
            out[int(hand_id)] = (str(status), str(reason), tuple(problems or ()))
    return out
