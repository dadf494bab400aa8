"""The draw review: every draw of the player whose cards are known, scored against the best
draw in that spot (``engine.sim.review``), kept in the database and summed up.

Each hand is reviewed once per player and model: ``reviewed_hands`` remembers it (with or
without a draw to judge), ``decisions`` holds one row per draw.  A change of the model
(``MODEL``: the trials and when they stop, the strategies, the alternatives) makes every
row stale, and the next run computes them again; new hands are reviewed as they arrive.

Only hands the replay found valid (status ``ok``) are read, so every card is where the
rules allow; a row whose cards still do not make sense is passed over, never raised.  Money
is the pot at the draw in big bets (the hand's ``big_bet``), a lower bound of what the
choice cost, since the bets still to come are not modelled.

The work goes to worker processes by situation (``engine.sim.review.spot_key``): equal keys go
to the same worker, whose cache answers all but the first.
"""

from __future__ import annotations

import json
import os
import time
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import pyarrow as pa

from analysis.pipeline.workers import kill_workers, mp_context, worker_init
from analysis.storage.db import Connection, append_arrow, one
from analysis.storage.transactions import rollback
from engine.cards import CardError, Cards, format_cards, parse_cards
from engine.ranking import Ranking, ranking_for
from engine.record import Game
from engine.sim.choice_sim import CHEAP_PLAYERS
from engine.sim.review import (
    BLOCK,
    TRIALS,
    UNSEEN,
    ReviewCache,
    Reviewed,
    Spot,
    prepare,
    review,
    spot_key,
)
from engine.sim.stopping import SURE_SE
from engine.sim.strategy import default_strategy

DRAWS_IN = {
    Game.TRIPLE_DRAW_27: 3,
    Game.TRIPLE_DRAW_A5: 3,
    Game.SINGLE_DRAW_27: 1,
    Game.SINGLE_DRAW_A5: 1,
    Game.FIVE_CARD_DRAW: 1,
}
# review-3: the looks that cannot settle a verdict skipped where deals are cheap
# (engine.sim.stopping.Verdicts.next_block), so the same hand's figures differ from
# review-2's within the noise; every stored row is computed again once.
# review-4: the alternatives chosen in the canonical spot (engine.sim.review), so which of
# a pair's cards a keep takes first no longer falls by suit number: equal situations weigh
# the same keeps and the cache answers both (it raised KeyError on the second).
MODEL = "review-4/" + format(
    zlib.crc32(
        "|".join(
            [
                str(TRIALS),
                str(BLOCK),
                str(SURE_SE),
                str(CHEAP_PLAYERS),
                *(default_strategy(r).describe() for r in Ranking),
            ]
        ).encode()
    ),
    "08x",
)
SMALL = 300  # hands below which worker processes cost more than they save
PAGE = 1000  # hands a transaction
BATCH = 64  # situations a worker task
COSTLIEST = 20

ProgressFn = Callable[[int, int], None]  # (done, total)


@dataclass(frozen=True)
class Decision:
    """One draw of the player as read from the database, ready to review."""

    hand: int
    draw: int
    player: str
    game: str
    position: str | None
    pot: float  # big bets
    spot: Spot
    kept: Cards


def kind_of(kept: Cards, ranking: Ranking) -> str:
    """The hand type kept, for the summary: "pat", "4 to 7" (four cards up to a seven) in
    the low games; the made hand or draw kept in high poker."""
    if len(kept) == 5:
        return "pat"
    if not kept:
        return "draw 5"
    if ranking is Ranking.HIGH:
        ranks = [c >> 2 for c in kept]
        counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
        if counts[0] >= 3:
            return "trips" if counts[0] == 3 else "quads"
        if counts[0] == 2:
            return "two pair" if len(counts) > 1 and counts[1] == 2 else "pair"
        if len(kept) == 4:
            return "four-flush" if len({c & 3 for c in kept}) == 1 else "four-straight"
        return f"{len(kept)} high card{'s' if len(kept) > 1 else ''}"
    top = max(kept, key=lambda c: ((c >> 2) + 1) % 13 if ranking is Ranking.ACE_FIVE else c >> 2)
    return f"{len(kept)} to {format_cards([top])[0]}"


def _cards(text: object) -> Cards | None:
    if not isinstance(text, str):
        return None
    try:
        return parse_cards(text)
    except CardError:
        return None


def _scope(player: str | None, since: date | None) -> tuple[str, list[Any]]:
    games = [g.value for g in DRAWS_IN]
    where = (
        f"h.status = 'ok' AND h.hero IS NOT NULL AND h.hero_cards IS NOT NULL "
        f"AND h.game IN ({', '.join('?' * len(games))})"
    )
    params: list[Any] = list(games)
    if player is not None:
        where += " AND h.hero = ?"
        params.append(player)
    if since is not None:
        where += " AND h.time >= ?"
        params.append(since)
    return where, params


def pending_hands(
    con: Connection, player: str | None = None, since: date | None = None
) -> list[tuple[int, str, str, str]]:
    """(id, game, hero, hero_cards) of the hands in scope not yet reviewed under MODEL."""
    where, params = _scope(player, since)
    rows = con.execute(
        f"SELECT h.id, h.game, h.hero, h.hero_cards FROM hands h WHERE {where} "
        "AND NOT EXISTS (SELECT 1 FROM reviewed_hands r WHERE r.hand = h.id "
        "AND r.player = h.hero AND r.model = ?) ORDER BY h.id",
        [*params, MODEL],
    ).fetchall()
    return [(int(a), str(b), str(c), str(d)) for a, b, c, d in rows]


def _hand_rows(con: Connection, sql: str, ids: Sequence[int]) -> dict[int, list[tuple[Any, ...]]]:
    """The rows of ``sql`` (which joins ``review_ids``) by hand: the page's ids go in as
    one Arrow column, not a statement per id."""
    out: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    if not ids:
        return out
    con.register("review_ids", pa.table({"id": pa.array(ids, pa.int64())}))
    try:
        rows = con.execute(sql).fetchall()
    finally:
        con.unregister("review_ids")
    for row in rows:
        out[int(row[0])].append(tuple(row[1:]))
    return out


_DRAWS = """
    SELECT d.hand, d.idx, d.player, d.draw, d.count, d.discarded, d.kept, d.received,
        (SELECT coalesce(sum(a.amount), 0) FROM actions a
            WHERE a.hand = d.hand AND a.idx < d.idx)
        - (SELECT coalesce(sum(p.amount), 0) FROM payouts p
            WHERE p.hand = d.hand AND p.kind = 'uncalled' AND p.idx < d.idx)
    FROM draws d JOIN review_ids i ON i.id = d.hand
    WHERE d.run <= 1
    ORDER BY d.hand, d.idx
"""
_HEADS = """
    SELECT h.id, h.big_bet, ph.position FROM hands h JOIN review_ids i ON i.id = h.id
    LEFT JOIN player_hands ph ON ph.hand = h.id AND ph.player = h.hero
"""


def read_decisions(con: Connection, hands: Sequence[tuple[int, str, str, str]]) -> list[Decision]:
    """The player's draws in ``hands`` (from ``pending_hands``) with the spot as they saw
    it: cards held, earlier discards, opponents' counts, pot.  A draw whose cards are not
    known (or do not add up) ends that hand's review there."""
    ids = [h[0] for h in hands]
    draws = _hand_rows(con, _DRAWS, ids)
    heads = {k: v[0] for k, v in _hand_rows(con, _HEADS, ids).items()}
    out: list[Decision] = []
    for hand_id, game_text, hero, cards_text in hands:
        game = Game(game_text)
        held = _cards(cards_text)
        head = heads.get(hand_id)
        if held is None or len(held) != 5 or head is None or not head[0]:
            continue
        out.extend(_hand_decisions(hand_id, game, hero, held, draws.get(hand_id, []), head))
    return out


def _hand_decisions(
    hand_id: int,
    game: Game,
    hero: str,
    held: Cards,
    rows: Sequence[tuple[Any, ...]],
    head: tuple[Any, ...],
) -> Iterator[Decision]:
    big_bet, position = int(head[0]), head[1]
    ranking = ranking_for(game)
    total = DRAWS_IN[game]
    seen_runs: set[tuple[str, int]] = set()
    by_draw: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for row in rows:
        _, player, draw, *_ = row
        if (player, draw) in seen_runs:  # run it twice: the same discards on both runs
            continue
        seen_runs.add((player, draw))
        by_draw[int(draw)].append(row)
    dead: list[int] = []
    for draw in range(1, total + 1):
        here = by_draw.get(draw, [])
        mine = next((r for r in here if r[1] == hero), None)
        if mine is None:
            return
        idx, _, _, count, discarded_text, kept_text, received_text, pot = mine
        discarded = _cards(discarded_text) if discarded_text is not None else None
        kept = _cards(kept_text) if kept_text is not None else None
        if kept is None and discarded is not None:
            kept = tuple(c for c in held if c not in discarded)
        if kept is None or not set(kept) <= set(held) or len(kept) != 5 - int(count):
            return
        previous = {r[1]: r[3] for r in by_draw.get(draw - 1, [])}
        opponents = tuple(
            int(r[3]) if r[0] < idx else (int(previous[r[1]]) if r[1] in previous else UNSEEN)
            for r in here
            if r[1] != hero
        )
        thrown = tuple(c for c in held if c not in kept)
        try:
            spot = Spot(ranking, held, total - draw + 1, opponents, tuple(dead))
        except (ValueError, CardError):
            return
        yield Decision(hand_id, draw, hero, game.value, position, int(pot) / big_bet, spot, kept)
        received = _cards(received_text) if received_text is not None else None
        if received is None or len(received) != len(thrown):
            return
        dead.extend(thrown)
        held = (*kept, *received)
        if len(set(held) | set(dead)) != len(held) + len(dead):
            return


# A page of hands whose answers were asked for: where it starts, its hands, its decisions
# and the function that collects the answers.
_Waiting = tuple[
    int, list[tuple[int, str, str, str]], list[Decision], "Callable[[], list[Reviewed | None]]"
]

# --- computing ----------------------------------------------------------------------------

_WORKER_CACHE = ReviewCache()


def worker_cache() -> ReviewCache:
    """This process's cache of answers by situation (its hits say how often it served)."""
    return _WORKER_CACHE


def review_batch(
    items: Sequence[tuple[Spot, Cards]], trials: int = TRIALS
) -> list[Reviewed | None]:
    """Review each (spot, kept) with this process's cache; ``None`` where the engine cannot
    deal the situation (hands that can hardly ever be dealt without sharing cards)."""
    out: list[Reviewed | None] = []
    for spot, kept in items:
        try:
            out.append(review(spot, kept, trials=trials, cache=_WORKER_CACHE))
        except (ValueError, CardError):
            out.append(None)
    return out


@dataclass
class WorkerTimes:
    """Where the workers' processor time went, for the benchmark's honest projection: per
    worker process (by pid), its processor and wall clock when its first task started
    (what came before is the fixed cost of a run: the process's start, its imports and the
    ranges built once) and its processor clock when its last task ended.  What lies between
    is the work that grows with the hands, the unpickling of the tasks included."""

    first: dict[int, tuple[float, float]] = field(default_factory=dict)
    last: dict[int, float] = field(default_factory=dict)

    def add(self, pid: int, cpu_start: float, cpu_end: float, wall_start: float) -> None:
        if pid not in self.first or wall_start < self.first[pid][1]:
            self.first[pid] = (cpu_start, wall_start)
        self.last[pid] = max(self.last.get(pid, 0.0), cpu_end)

    @property
    def working_cpu(self) -> float:
        """The workers' processor seconds from their first task's start to their last
        task's end, summed over the workers."""
        return sum(self.last[p] - self.first[p][0] for p in self.first)

    @property
    def fixed_cpu(self) -> float:
        """The workers' processor seconds before their first task (start, ranges)."""
        return sum(cpu for cpu, _ in self.first.values())

    @property
    def last_start(self) -> float:
        """The wall clock (``time.time``) at which the last worker to start began working."""
        return max((wall for _, wall in self.first.values()), default=0.0)


def timed_batch(
    items: Sequence[tuple[Spot, Cards]], trials: int = TRIALS
) -> tuple[list[Reviewed | None], int, float, float, float]:
    """``review_batch`` with this process's id, its processor clock before and after and
    the wall clock before (``WorkerTimes``)."""
    wall, cpu = time.time(), time.process_time()
    found = review_batch(items, trials)
    return found, os.getpid(), cpu, time.process_time(), wall


def compute(
    decisions: Sequence[Decision],
    *,
    executor: ProcessPoolExecutor | None = None,
    trials: int = TRIALS,
) -> list[Reviewed | None]:
    """The review of each decision, in order: equal situations side by side in one task
    (so one worker's cache answers all but the first), in ``executor``'s workers if given."""
    return start_compute(decisions, executor=executor, trials=trials)()


def start_compute(
    decisions: Sequence[Decision],
    *,
    executor: ProcessPoolExecutor | None = None,
    trials: int = TRIALS,
    times: WorkerTimes | None = None,
) -> Callable[[], list[Reviewed | None]]:
    """``compute`` handed to the workers now, its answers collected by the function
    returned: the caller reads and stores other pages meanwhile, and the workers never
    wait for the database (in one process the work is done at once).  ``times``: where
    the workers' clocks are added as their answers are collected."""
    groups: dict[tuple[object, ...], list[int]] = defaultdict(list)
    for i, d in enumerate(decisions):
        groups[spot_key(d.spot)].append(i)
    order = [i for members in groups.values() for i in members]
    batches = [order[i : i + BATCH] for i in range(0, len(order), BATCH)]
    items = [[(decisions[i].spot, decisions[i].kept) for i in b] for b in batches]
    if executor is None:
        answers = [review_batch(x, trials) for x in items]
        futures: list[Future[tuple[list[Reviewed | None], int, float, float, float]]] = []
    else:
        futures = [executor.submit(timed_batch, x, trials) for x in items]

    def collect() -> list[Reviewed | None]:
        if executor is None:
            found = answers
        else:
            found = []
            for f in futures:
                got, pid, cpu_start, cpu_end, wall = f.result()
                if times is not None:
                    times.add(pid, cpu_start, cpu_end, wall)
                found.append(got)
        results: list[Reviewed | None] = [None] * len(decisions)
        for batch, got in zip(batches, found, strict=True):
            for i, r in zip(batch, got, strict=True):
                results[i] = r
        return results

    return collect


def _worker_start(games: Sequence[tuple[Ranking, int]]) -> None:
    """A review worker builds the ranges of the games it will deal before its first
    task, while the main process still reads the first page."""
    worker_init()
    for ranking, draws in games:
        prepare(ranking, draws)


def _choices_json(r: Reviewed) -> str:
    return json.dumps(
        [
            {
                "kept": format_cards(c.keep, ""),
                "equity": round(c.equity, 5),
                "stderr": round(c.stderr, 5),
                "loss": round(c.loss, 5),
                "exact": c.exact,
                "as_good_as_best": c.as_good_as_best,
            }
            for c in r.choices
        ]
    )


# The ``decisions`` table's columns in order, as ``store`` writes them.
_DECISIONS = pa.schema(
    [
        ("hand", pa.int64()),
        ("draw", pa.int32()),
        ("player", pa.string()),
        ("game", pa.string()),
        ("position", pa.string()),
        ("draws_left", pa.int32()),
        ("opponents", pa.string()),
        ("held", pa.string()),
        ("dead", pa.string()),
        ("kept", pa.string()),
        ("discarded", pa.string()),
        ("best_kept", pa.string()),
        ("kind", pa.string()),
        ("equity_chosen", pa.float64()),
        ("equity_best", pa.float64()),
        ("stderr", pa.float64()),
        ("loss", pa.float64()),
        ("exact", pa.bool_()),
        ("pot", pa.float64()),
        ("choices", pa.string()),
        ("model", pa.string()),
    ]
)


def store(
    con: Connection,
    hands: Sequence[tuple[int, str, str, str]],
    decisions: Sequence[Decision],
    results: Sequence[Reviewed | None],
) -> int:
    """Write the reviewed draws and mark the hands reviewed (one transaction); returns the
    rows written."""
    rows = []
    counts: dict[int, int] = defaultdict(int)
    for d, r in zip(decisions, results, strict=True):
        if r is None:
            continue
        ranking = d.spot.ranking
        counts[d.hand] += 1
        rows.append(
            [
                d.hand,
                d.draw,
                d.player,
                d.game,
                d.position,
                d.spot.draws_left,
                ",".join("?" if o is UNSEEN else str(o) for o in d.spot.opponents),
                format_cards(d.spot.hand, ""),
                format_cards(d.spot.dead, ""),
                format_cards(r.kept, ""),
                format_cards([c for c in d.spot.hand if c not in r.kept], ""),
                format_cards(r.best_kept, ""),
                kind_of(r.kept, ranking),
                r.equity_chosen,
                r.equity_best,
                r.stderr,
                r.loss,
                r.exact,
                d.pot,
                _choices_json(r),
                MODEL,
            ]
        )
    if not hands:
        return 0
    keys = pa.table(
        {
            "hand": pa.array([h[0] for h in hands], pa.int64()),
            "player": pa.array([h[2] for h in hands], pa.string()),
        }
    )
    marks = keys.append_column("model", pa.array([MODEL] * len(hands), pa.string()))
    marks = marks.append_column(
        "decisions", pa.array([counts.get(h[0], 0) for h in hands], pa.int32())
    )
    con.execute("BEGIN TRANSACTION")
    con.register("review_keys", keys)
    try:
        # One statement a table for the whole page: a DELETE a hand scanned the table each
        # time, and the review's own rows made every page slower than the last.
        for table in ("decisions", "reviewed_hands"):
            con.execute(
                f"DELETE FROM {table} t USING review_keys k "
                "WHERE t.hand = k.hand AND t.player = k.player"
            )
        if rows:
            columns = [
                pa.array(values, f.type)
                for values, f in zip(zip(*rows, strict=True), _DECISIONS, strict=True)
            ]
            append_arrow(con, "decisions", pa.Table.from_arrays(columns, schema=_DECISIONS))
        append_arrow(con, "reviewed_hands", marks)
        con.execute("COMMIT")
    except BaseException:
        rollback(con)
        raise
    finally:
        con.unregister("review_keys")
    return len(rows)


def run_review(
    con: Connection,
    player: str | None = None,
    since: date | None = None,
    *,
    workers: int | None = None,
    progress: ProgressFn | None = None,
    trials: int = TRIALS,
    times: WorkerTimes | None = None,
) -> int:
    """Review every hand in scope not yet reviewed under this model, a page of hands a
    transaction (a killed run keeps the pages done); returns how many draws were reviewed
    now.  ``progress(hands done, hands to do)`` after each page.  With workers, the next
    page is read and handed to them before a page is stored, so they never wait for the
    database; ``times`` collects their clocks (``WorkerTimes``)."""
    hands = pending_hands(con, player, since)
    count = workers if workers is not None else (os.cpu_count() or 1)
    executor = None
    if count > 1 and len(hands) >= SMALL:
        games = {Game(h[1]) for h in hands}
        ranked = {(ranking_for(g), DRAWS_IN[g]) for g in games}
        prepare_first = sorted(ranked, key=lambda r: (r[0].value, r[1]))
        executor = ProcessPoolExecutor(
            count, mp_context=mp_context(), initializer=_worker_start, initargs=(prepare_first,)
        )
    written = 0
    try:
        waiting: _Waiting | None = None
        for start in range(0, len(hands), PAGE):
            page = hands[start : start + PAGE]
            decisions = read_decisions(con, page)
            job = start_compute(decisions, executor=executor, trials=trials, times=times)
            if waiting is not None:
                written += _finish(con, waiting, len(hands), progress)
            waiting = (start, page, decisions, job)
        if waiting is not None:
            written += _finish(con, waiting, len(hands), progress)
    except BaseException:
        if executor is not None:
            kill_workers(executor)
        raise
    finally:
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
    return written


def _finish(
    con: Connection,
    waiting: _Waiting,
    total: int,
    progress: ProgressFn | None,
) -> int:
    """Store a page whose answers were asked for (the next page's are being computed)."""
    start, page, decisions, job = waiting
    written = store(con, page, decisions, job())
    if progress is not None:
        progress(start + len(page), total)
    return written


# --- the summary --------------------------------------------------------------------------


@dataclass
class Breakdown:
    """Decisions, mistakes and big bets lost in one slice (a draw, a position, a kind)."""

    label: str
    decisions: int
    mistakes: int
    lost: float


@dataclass
class ReviewSummary:
    hands: int = 0
    decisions: int = 0
    mistakes: int = 0
    lost: float = 0.0  # big bets, a lower bound
    by_draw: list[Breakdown] = field(default_factory=list)
    by_position: list[Breakdown] = field(default_factory=list)
    by_kind: list[Breakdown] = field(default_factory=list)

    @property
    def loss_per_100(self) -> float:
        """Big bets lost per 100 hands reviewed (a lower bound)."""
        return 100 * self.lost / self.hands if self.hands else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "mistakes": self.mistakes,
            "loss_per_100": round(self.loss_per_100, 4),
        }


def _where(player: str | None, since: date | None, alias: str = "x") -> tuple[str, list[Any]]:
    where = f"{alias}.model = ?"
    params: list[Any] = [MODEL]
    if player is not None:
        where += f" AND {alias}.player = ?"
        params.append(player)
    if since is not None:
        where += " AND h.time >= ?"
        params.append(since)
    return where, params


def summary(con: Connection, player: str | None = None, since: date | None = None) -> ReviewSummary:
    """The totals of the stored review (this model's rows only): sums of the rows."""
    out = ReviewSummary()
    where, params = _where(player, since, "r")
    row = one(
        con,
        f"SELECT count(*) FROM reviewed_hands r JOIN hands h ON h.id = r.hand WHERE {where}",
        params,
    )
    out.hands = int(row[0]) if row else 0
    where, params = _where(player, since)
    base = f"FROM decisions x JOIN hands h ON h.id = x.hand WHERE {where}"
    totals = one(
        con,
        f"SELECT count(*), count(*) FILTER (WHERE x.loss > 0), coalesce(sum(x.loss * x.pot), 0) "
        f"{base}",
        params,
    )
    if totals:
        out.decisions, out.mistakes, out.lost = int(totals[0]), int(totals[1]), float(totals[2])
    slices = (
        ("by_draw", "x.draw::VARCHAR"),
        ("by_position", "coalesce(x.position, '?')"),
        ("by_kind", "x.kind"),
    )
    for attr, column in slices:
        rows = con.execute(
            f"SELECT {column} AS label, count(*), count(*) FILTER (WHERE x.loss > 0), "
            f"sum(x.loss * x.pot) {base} GROUP BY label ORDER BY label",
            params,
        ).fetchall()
        setattr(out, attr, [Breakdown(str(a), int(b), int(c), float(d)) for a, b, c, d in rows])
    return out


DECISION_FIELDS = (
    "hand_id",
    "draw",
    "kept",
    "discarded",
    "best_kept",
    "equity_chosen",
    "equity_best",
    "loss",
    "pot",
)


def decision_rows(
    con: Connection,
    player: str | None = None,
    since: date | None = None,
    *,
    limit: int | None = None,
    costliest: bool = False,
) -> list[dict[str, Any]]:
    """Stored decisions as dicts (the ``--json`` contract's fields, plus the hand's
    database id ``hand``, ``player``, ``site``, ``game``, ``position``, ``kind``, ``held``,
    ``opponents``, ``exact``, ``draws_left``, ``dead``, ``cost`` in big bets and the
    ``choices`` weighed); costliest first when asked, else in hand order."""
    where, params = _where(player, since)
    order = "x.loss * x.pot DESC, x.hand, x.draw" if costliest else "x.hand, x.draw"
    sql = (
        "SELECT h.hand_id, x.draw, x.kept, x.discarded, x.best_kept, x.equity_chosen, "
        "x.equity_best, x.loss, x.pot, x.hand, x.game, x.position, x.kind, x.loss * x.pot, "
        "x.choices, x.held, x.opponents, x.exact, h.site, x.player, x.draws_left, x.dead "
        f"FROM decisions x JOIN hands h ON h.id = x.hand WHERE {where} ORDER BY {order}"
    )
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    out = []
    for r in con.execute(sql, params).fetchall():
        d = dict(zip(DECISION_FIELDS, r[:9], strict=True))
        d["hand_id"] = str(d["hand_id"]) if d["hand_id"] is not None else str(r[9])
        d.update(
            hand=int(r[9]),
            game=r[10],
            position=r[11],
            kind=r[12],
            cost=float(r[13]),
            choices=json.loads(r[14]),
            held=r[15],
            opponents=r[16],
            exact=bool(r[17]),
            site=r[18],
            player=r[19],
            draws_left=int(r[20]),
            dead=r[21],
        )
        out.append(d)
    return out


def costliest(
    con: Connection, player: str | None = None, since: date | None = None, n: int = COSTLIEST
) -> list[dict[str, Any]]:
    """The ``n`` draws that cost the most big bets, mistakes only."""
    return [d for d in decision_rows(con, player, since, limit=n, costliest=True) if d["loss"] > 0]


def summary_text(s: ReviewSummary, spots: Sequence[dict[str, Any]]) -> str:
    lines = [
        f"hands reviewed {s.hands}, draws {s.decisions}, mistakes {s.mistakes}, "
        f"big bets lost {s.lost:.2f} ({s.loss_per_100:.2f} per 100 hands; a lower bound: "
        "the bets still to come are not counted)",
    ]
    for title, parts in (
        ("by draw", s.by_draw),
        ("by position", s.by_position),
        ("by hand kept", s.by_kind),
    ):
        lines.append(f"{title}:")
        lines.extend(
            f"  {p.label:<14} draws {p.decisions:>6}  mistakes {p.mistakes:>5}  "
            f"big bets lost {p.lost:8.2f}"
            for p in parts
        )
    lines.append(f"the {len(spots)} costliest draws:")
    lines.extend(
        f"  {d['site']} {d['hand_id']} draw {d['draw']}: held {d['held']}, kept "
        f"{d['kept'] or '-'} ({d['equity_chosen']:.3f}), best {d['best_kept'] or '-'} "
        f"({d['equity_best']:.3f}), pot {d['pot']:.2f} BB, lost {d['cost']:.2f} BB"
        for d in spots
    )
    return "\n".join(lines)
