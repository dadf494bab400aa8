"""The draw review: every draw of the player whose cards are known, scored against the best
draw in that spot (``engine.sim.review``), kept in the database and summed up.

Each hand is reviewed once per player and model: ``reviewed_hands`` remembers it (with or
without a draw to judge), ``decisions`` holds one row per draw.  A change of the model
(``MODEL``: the trials and when they stop, the strategies, the alternatives) makes every
row stale, and the next run computes them again; new hands are reviewed as they arrive.

Only hands the replay found valid (status ``ok``) are read, so every card is where the
rules allow; a row whose cards still do not make sense is passed over, never raised.  Money
is the share of the pot at the draw given up, in big bets (the hand's ``big_bet``): the
bets after the draw are not modelled except the folds to the hero's bet after the last
draw, so it is the model's figure, not a bound.  Each opponent's read comes from the whole
hand before the draw (their counts in order, their bets in the round before it), the range
``profile`` is the user's choice, and a reshuffle (found by counting the stub, RULES.md
"The deck runs out") puts the hero's earlier discards back in play.

The work goes to worker processes by situation (``engine.sim.review.spot_key``): equal keys go
to the same worker, whose cache answers all but the first.
"""

from __future__ import annotations

import json
import os
import time
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import pyarrow as pa

from analysis.pipeline.workers import kill_workers, mp_context, worker_init
from analysis.storage.db import Connection, append_arrow, one
from analysis.storage.filters import NAMED
from analysis.storage.transactions import rollback
from engine.cards import CardError, Cards, format_cards, parse_cards
from engine.ranking import Ranking, hand_size_of, ranking_for
from engine.record import Game
from engine.sim.choice_sim import CHEAP_PLAYERS
from engine.sim.reads import PROFILES, STANDARD, Read, position_step
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
    Game.BADUGI: 3,
}
# review-3: the looks that cannot settle a verdict skipped where deals are cheap
# (engine.sim.stopping.Verdicts.next_block), so the same hand's figures differ from
# review-2's within the noise; every stored row is computed again once.
# review-4: the alternatives chosen in the canonical spot (engine.sim.review), so which of
# a pair's cards a keep takes first no longer falls by suit number: equal situations weigh
# the same keeps and the cache answers both (it raised KeyError on the second).
# review-5: opponents ranged from the whole hand under a named profile (engine.sim.reads),
# folds to the hero's bet after the last draw, the hero's discards back after a reshuffle.
# review-6: an opener's range a rank wider from CO/BTN/SB, tighter from UTG..UTG+4, and a
# blind defending a steal a rank wider (engine.sim.reads.position_step).
MODEL = "review-6/" + format(
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
PROFILE_NAMES: tuple[str, ...] = PROFILES  # the range profiles, for the pages and the CLI
DEFAULT_PROFILE = STANDARD
SNOW = "snow"  # a keep that can only end paired, then bet after the draw
BET = "bet"  # any other keep the hero bets after the draw


def model_of(profile: str = STANDARD) -> str:
    """The model a review under ``profile`` is stored and read by: another profile's rows
    are another review's."""
    if profile not in PROFILES:
        raise ValueError(f"a range profile is one of {', '.join(PROFILES)}, not {profile!r}")
    return f"{MODEL}/{profile}"


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
    shown: dict[str, Any] = field(default_factory=dict)  # the spot in full (``spot_shown``)
    line: str = ""  # ``SNOW``, ``BET`` or "" (no bet after the draw)


def kind_of(kept: Cards, ranking: Ranking) -> str:
    """The hand type kept, for the summary: "pat", "4 to 7" (four cards up to a seven) in
    the low games; the made hand or draw kept in high poker."""
    if len(kept) == hand_size_of(ranking):
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
    ace_low = ranking in (Ranking.ACE_FIVE, Ranking.BADUGI)
    top = max(kept, key=lambda c: ((c >> 2) + 1) % 13 if ace_low else c >> 2)
    return f"{len(kept)} to {format_cards([top])[0]}"


def _cards(text: object) -> Cards | None:
    if not isinstance(text, str):
        return None
    try:
        return parse_cards(text)
    except CardError:
        return None


def _scope(player: str | None, since: date | None,
           names: tuple[str, ...] | None = None) -> tuple[str, list[Any]]:
    games = [g.value for g in DRAWS_IN]
    where = (
        f"h.status = 'ok' AND h.hero IS NOT NULL AND h.hero_cards IS NOT NULL "
        f"AND h.game IN ({', '.join('?' * len(games))})"
    )
    params: list[Any] = list(games)
    if names is not None:  # a person's names, "site:name" (``Filters.names``)
        where += " AND " + NAMED.format(s="h.site", p="h.hero")
        params.append(list(names))
    elif player is not None:
        where += " AND h.hero = ?"
        params.append(player)
    if since is not None:
        where += " AND h.time >= ?"
        params.append(since)
    return where, params


def pending_hands(
    con: Connection,
    player: str | None = None,
    since: date | None = None,
    profile: str = STANDARD,
    names: tuple[str, ...] | None = None,
) -> list[tuple[int, str, str, str]]:
    """(id, game, hero, hero_cards) of the hands in scope not yet reviewed under this
    model and ``profile``; ``names``: a person's (``memory.person_names``) in place of
    ``player``, here and in every function of the review that takes them."""
    where, params = _scope(player, since, names)
    rows = con.execute(
        f"SELECT h.id, h.game, h.hero, h.hero_cards FROM hands h WHERE {where} "
        "AND NOT EXISTS (SELECT 1 FROM reviewed_hands r WHERE r.hand = h.id "
        "AND r.player = h.hero AND r.model = ?) ORDER BY h.id",
        [*params, model_of(profile)],
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
    SELECT h.id, h.big_bet, ph.position, h.players FROM hands h JOIN review_ids i ON i.id = h.id
    LEFT JOIN player_hands ph ON ph.hand = h.id AND ph.player = h.hero
"""
_ACTIONS = """
    SELECT a.hand, a.idx, a.street, a.player, a.kind, a.amount
    FROM actions a JOIN review_ids i ON i.id = a.hand
    ORDER BY a.hand, a.idx
"""
_SEATS = """
    SELECT ph.hand, ph.player, ph.position FROM player_hands ph JOIN review_ids i ON i.id = ph.hand
"""


@dataclass(frozen=True)
class _Action:
    """One action of the hand: its betting round (0 before the first draw), who, what, the
    chips put in."""

    street: int
    player: str
    kind: str
    amount: int


@dataclass(frozen=True)
class _Hand:
    """What the review reads of one hand besides the hero's cards: its draws (run-it-twice
    copies dropped), its actions, the big bet, the seats' positions and the players dealt."""

    draws: dict[int, list[tuple[Any, ...]]]
    actions: Sequence[_Action]
    big_bet: int
    positions: dict[str, str | None]
    dealt: int


def read_decisions(
    con: Connection, hands: Sequence[tuple[int, str, str, str]], profile: str = STANDARD
) -> list[Decision]:
    """The player's draws in ``hands`` (from ``pending_hands``) with the spot as they saw
    it: cards held, earlier discards, each opponent's counts and bets, pot, the hero's bet
    after the draw.  A draw whose cards are not known (or do not add up) ends that hand's
    review there."""
    ids = [h[0] for h in hands]
    draws = _hand_rows(con, _DRAWS, ids)
    heads = {k: v[0] for k, v in _hand_rows(con, _HEADS, ids).items()}
    actions = _hand_rows(con, _ACTIONS, ids)
    seats = _hand_rows(con, _SEATS, ids)
    out: list[Decision] = []
    for hand_id, game_text, hero, cards_text in hands:
        game = Game(game_text)
        held = _cards(cards_text)
        head = heads.get(hand_id)
        size = hand_size_of(ranking_for(game))
        if held is None or len(held) != size or head is None or not head[0]:
            continue
        hand = _Hand(
            _by_draw(draws.get(hand_id, [])),
            [_Action(int(a[1]), str(a[2]), str(a[3]), int(a[4])) for a in actions.get(hand_id, [])],
            int(head[0]),
            {str(p): pos for p, pos in seats.get(hand_id, [])},
            int(head[2] or 0),
        )
        out.extend(_hand_decisions(hand_id, game, hero, held, hand, head[1], profile))
    return out


def _by_draw(rows: Sequence[tuple[Any, ...]]) -> dict[int, list[tuple[Any, ...]]]:
    """The draw rows by draw, each player once (run it twice: the same discards on both
    runs)."""
    seen_runs: set[tuple[str, int]] = set()
    by_draw: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for row in rows:
        _, player, draw, *_ = row
        if (player, draw) in seen_runs:
            continue
        seen_runs.add((player, draw))
        by_draw[int(draw)].append(row)
    return by_draw


def reshuffles(counts: Sequence[tuple[int, int]], dealt: int, size: int = 5) -> list[int]:
    """The draws (by their event index) during which the stub ran out and the discards were
    shuffled into a new one (RULES.md, "The deck runs out"), from each draw's (index, count)
    in order and the players dealt in: the stub is what the deal left, the new stub every
    discard so far except the drawing player's own."""
    stub = 52 - size * dealt
    pile = 0
    out = []
    for idx, count in counts:
        if count > stub:
            out.append(idx)
            stub = pile - (count - stub)
            pile = count
        else:
            stub -= count
            pile += count
    return out


def _opener(hand: _Hand) -> str | None:
    """The position of the player who raised first in pre-draw: the first call, bet or
    raise of round 0 (posts and folds open nothing), if a bet or raise; else ``None``."""
    for a in hand.actions:
        if a.street == 0 and a.kind in ("call", "bet", "raise"):
            return hand.positions.get(a.player) if a.kind != "call" else None
    return None


def _opponent_read(
    player: str, draw: int, idx: int, total: int, hand: _Hand
) -> tuple[Read, dict[str, Any]]:
    """One opponent as the hero saw them at their draw ``draw`` (event ``idx``): the read
    that ranges them and what the spot shows of them."""
    counts = {d: next((int(r[3]) for r in hand.draws.get(d, []) if r[1] == player), None)
              for d in range(1, draw + 1)}  # fmt: skip
    here = next((r for r in hand.draws.get(draw, []) if r[1] == player), None)
    before = here is not None and int(here[0]) < idx
    seen_at = draw if before else draw - 1
    count = counts.get(seen_at) if seen_at >= 1 else None
    first = seen_at
    while count is not None and first > 1 and counts.get(first - 1) == count:
        first -= 1
    since = total - first + 1 if count is not None else total - draw + 1
    aggressor = any(
        a.street == draw - 1 and a.player == player and a.kind in ("bet", "raise")
        for a in hand.actions
    )
    opener = _opener(hand)
    step = position_step(hand.positions.get(player), opener)
    read = Read(count, min(since, total), aggressor, step)
    shown = {
        "position": hand.positions.get(player),
        "opener": opener,
        "position_step": step,
        "counts": [counts[d] for d in range(1, seen_at + 1) if counts.get(d) is not None],
        "order": "before" if before else "after",
        "aggressor": aggressor,
        "count": count,
        "since": read.since,
    }
    return read, shown


def _hero_bet(hero: str, draw: int, pot: int, hand: _Hand) -> float:
    """The hero's bet or raise in the betting round after draw ``draw``, over the pot before
    it (the pot at the draw and what was put in since); 0 when the hero did not bet."""
    before = pot
    for a in hand.actions:
        if a.street != draw:
            continue
        if a.player == hero and a.kind in ("bet", "raise"):
            return a.amount / before if before > 0 else 0.0
        before += a.amount
    return 0.0


def can_only_pair(kept: Cards, ranking: Ranking) -> bool:
    """A keep with no showdown value in the low games: it holds a pair, so every hand drawn
    to it is paired.  (High poker has no such keep; in Badugi a pair plays as a smaller
    hand, not as no hand.)"""
    if ranking in (Ranking.HIGH, Ranking.BADUGI):
        return False
    ranks = [c >> 2 for c in kept]
    return len(set(ranks)) < len(ranks)


def _hand_decisions(
    hand_id: int,
    game: Game,
    hero: str,
    held: Cards,
    hand: _Hand,
    position: str | None,
    profile: str = STANDARD,
) -> Iterator[Decision]:
    """The hero's draws of one hand, each with the spot as the hero saw it (``read_decisions``);
    the hand's review ends at a draw whose cards are not known or do not add up."""
    ranking = ranking_for(game)
    total = DRAWS_IN[game]
    order = sorted((int(r[0]), int(r[3])) for rows in hand.draws.values() for r in rows)
    size = hand_size_of(ranking)
    shuffled = reshuffles(order, hand.dealt, size) if hand.dealt else []
    thrown_at: list[tuple[int, Cards]] = []  # the hero's discards, by event index
    for draw in range(1, total + 1):
        here = hand.draws.get(draw, [])
        mine = next((r for r in here if r[1] == hero), None)
        if mine is None:
            return
        idx, _, _, count, discarded_text, kept_text, received_text, pot = mine
        discarded = _cards(discarded_text) if discarded_text is not None else None
        kept = _cards(kept_text) if kept_text is not None else None
        if kept is None and discarded is not None:
            kept = tuple(c for c in held if c not in discarded)
        if kept is None or not set(kept) <= set(held) or len(kept) != size - int(count):
            return
        reads, shown = [], []
        for r in here:
            if r[1] != hero:
                read, seen = _opponent_read(str(r[1]), draw, int(idx), total, hand)
                reads.append(read)
                shown.append(seen)
        # A reshuffle before this draw, or during it (the stub is empty when the hero draws),
        # puts the hero's earlier discards back in the stub the hero draws from.
        last = max((i for i in shuffled if i <= int(idx)), default=-1)
        dead = tuple(c for at, cards in thrown_at if at >= last for c in cards)
        bet = round(_hero_bet(hero, draw, int(pot), hand), 4)  # as stored: a drill asks it again
        try:
            spot = Spot(ranking, held, total - draw + 1, tuple(r.count for r in reads), dead,
                        tuple(reads), profile, bet)  # fmt: skip
        except (ValueError, CardError):
            return
        line = "" if bet <= 0 else (SNOW if can_only_pair(kept, ranking) else BET)
        details = {"opponents": shown, "bet": bet, "reshuffled": last >= 0}
        yield Decision(hand_id, draw, hero, game.value, position, int(pot) / hand.big_bet,
                       spot, kept, details, line)  # fmt: skip
        thrown = tuple(c for c in held if c not in kept)
        received = _cards(received_text) if received_text is not None else None
        if received is None or len(received) != len(thrown):
            return
        thrown_at.append((int(idx), thrown))
        held = (*kept, *received)
        gone = [c for at, cards in thrown_at if at >= last for c in cards]
        if len(set(held) | set(gone)) != len(held) + len(gone):
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


def _worker_start(games: Sequence[tuple[Ranking, int]], profile: str = STANDARD) -> None:
    """A review worker builds the ranges of the games it will deal under ``profile`` before
    its first task, while the main process still reads the first page."""
    worker_init()
    for ranking, draws in games:
        prepare(ranking, draws, profile)


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
        ("profile", pa.string()),
        ("line", pa.string()),
        ("spot", pa.string()),
    ]
)


def store(
    con: Connection,
    hands: Sequence[tuple[int, str, str, str]],
    decisions: Sequence[Decision],
    results: Sequence[Reviewed | None],
    profile: str = STANDARD,
) -> int:
    """Write the reviewed draws and mark the hands reviewed under ``profile`` (one
    transaction); returns the rows written."""
    model = model_of(profile)
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
                model,
                d.spot.profile,
                d.line,
                json.dumps(d.shown),
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
    marks = keys.append_column("model", pa.array([model] * len(hands), pa.string()))
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
    profile: str = STANDARD,
    names: tuple[str, ...] | None = None,
) -> int:
    """Review every hand in scope not yet reviewed under this model and range ``profile``
    (``engine.sim.reads``), a page of hands a
    transaction (a killed run keeps the pages done); returns how many draws were reviewed
    now.  ``progress(hands done, hands to do)`` after each page.  With workers, the next
    page is read and handed to them before a page is stored, so they never wait for the
    database; ``times`` collects their clocks (``WorkerTimes``)."""
    hands = pending_hands(con, player, since, profile, names)
    count = workers if workers is not None else (os.cpu_count() or 1)
    executor = None
    if count > 1 and len(hands) >= SMALL:
        games = {Game(h[1]) for h in hands}
        ranked = {(ranking_for(g), DRAWS_IN[g]) for g in games}
        prepare_first = sorted(ranked, key=lambda r: (r[0].value, r[1]))
        executor = ProcessPoolExecutor(
            count,
            mp_context=mp_context(),
            initializer=_worker_start,
            initargs=(prepare_first, profile),
        )
    written = 0
    try:
        waiting: _Waiting | None = None
        for start in range(0, len(hands), PAGE):
            page = hands[start : start + PAGE]
            decisions = read_decisions(con, page, profile)
            job = start_compute(decisions, executor=executor, trials=trials, times=times)
            if waiting is not None:
                written += _finish(con, waiting, len(hands), progress, profile)
            waiting = (start, page, decisions, job)
        if waiting is not None:
            written += _finish(con, waiting, len(hands), progress, profile)
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
    profile: str = STANDARD,
) -> int:
    """Store a page whose answers were asked for (the next page's are being computed)."""
    start, page, decisions, job = waiting
    written = store(con, page, decisions, job(), profile)
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
    lost: float = 0.0  # big bets
    by_draw: list[Breakdown] = field(default_factory=list)
    by_position: list[Breakdown] = field(default_factory=list)
    by_kind: list[Breakdown] = field(default_factory=list)

    @property
    def loss_per_100(self) -> float:
        """Big bets lost per 100 hands reviewed."""
        return 100 * self.lost / self.hands if self.hands else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "mistakes": self.mistakes,
            "loss_per_100": round(self.loss_per_100, 4),
        }


def _where(
    player: str | None, since: date | None, alias: str = "x", profile: str = STANDARD,
    names: tuple[str, ...] | None = None,
) -> tuple[str, list[Any]]:
    where = f"{alias}.model = ?"
    params: list[Any] = [model_of(profile)]
    if names is not None:
        where += " AND " + NAMED.format(s="h.site", p=f"{alias}.player")
        params.append(list(names))
    elif player is not None:
        where += f" AND {alias}.player = ?"
        params.append(player)
    if since is not None:
        where += " AND h.time >= ?"
        params.append(since)
    return where, params


def summary(
    con: Connection, player: str | None = None, since: date | None = None, profile: str = STANDARD,
    names: tuple[str, ...] | None = None,
) -> ReviewSummary:
    """The totals of the stored review (this model's and profile's rows only): sums of the
    rows."""
    out = ReviewSummary()
    where, params = _where(player, since, "r", profile, names)
    row = one(
        con,
        f"SELECT count(*) FROM reviewed_hands r JOIN hands h ON h.id = r.hand WHERE {where}",
        params,
    )
    out.hands = int(row[0]) if row else 0
    where, params = _where(player, since, "x", profile, names)
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
    "draws_left",
    "position",
    "spot",
    "exact",
    "stderr",
    "profile",
    "line",
)


def decision_rows(
    con: Connection,
    player: str | None = None,
    since: date | None = None,
    *,
    limit: int | None = None,
    costliest: bool = False,
    profile: str = STANDARD,
    names: tuple[str, ...] | None = None,
) -> list[dict[str, Any]]:
    """Stored decisions as dicts (the ``--json`` contract's fields, plus the hand's
    database id ``hand``, ``player``, ``site``, ``game``, ``kind``, ``held``, ``opponents``
    (the counts as text), ``dead``, ``cost`` in big bets and the ``choices`` weighed);
    costliest first when asked, else in hand order."""
    where, params = _where(player, since, "x", profile, names)
    order = "x.loss * x.pot DESC, x.hand, x.draw" if costliest else "x.hand, x.draw"
    sql = (
        "SELECT h.hand_id, x.draw, x.kept, x.discarded, x.best_kept, x.equity_chosen, "
        "x.equity_best, x.loss, x.pot, x.hand, x.game, x.position, x.kind, x.loss * x.pot, "
        "x.choices, x.held, x.opponents, x.exact, h.site, x.player, x.draws_left, x.dead, "
        "x.stderr, x.profile, x.line, x.spot "
        f"FROM decisions x JOIN hands h ON h.id = x.hand WHERE {where} ORDER BY {order}"
    )
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    out = []
    for r in con.execute(sql, params).fetchall():
        d = dict(zip(DECISION_FIELDS[:9], r[:9], strict=True))
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
            stderr=float(r[22]),
            profile=r[23],
            line=r[24] or "",
            spot=json.loads(r[25] or "{}"),
        )
        out.append(d)
    return out


def costliest(
    con: Connection,
    player: str | None = None,
    since: date | None = None,
    n: int = COSTLIEST,
    profile: str = STANDARD,
    names: tuple[str, ...] | None = None,
) -> list[dict[str, Any]]:
    """The ``n`` draws that cost the most big bets, mistakes only."""
    rows = decision_rows(con, player, since, limit=n, costliest=True, profile=profile,
                         names=names)
    return [d for d in rows if d["loss"] > 0]


def _opponent_text(o: Mapping[str, Any]) -> str:
    counts = o.get("counts") or []
    drew = "drew " + "-".join(str(c) for c in counts) if counts else "no draw seen"
    acts = "draws before" if o.get("order") == "before" else "draws after"
    bet = ", bet or raised last round" if o.get("aggressor") else ""
    return f"{o.get('position') or '?'} {drew} ({acts}{bet}{_position_text(o)})"


def _position_text(o: Mapping[str, Any]) -> str:
    """How the opponent's pre-draw position moved their range (``position_step``)."""
    step = int(o.get("position_step") or 0)
    if not step:
        return ""
    opened = o.get("opener") == o.get("position")
    what = f"opened from {o.get('position')}" if opened else f"defends {o.get('opener')}'s steal"
    return f", {what}: range a rank {'wider' if step > 0 else 'tighter'}"


def spot_of(d: Mapping[str, Any]) -> Spot:
    """The spot a stored decision was judged in, read back from its row (``decision_rows``),
    so a drill asks it again in the same model."""
    spot = d.get("spot") or {}
    reads = tuple(
        Read(
            o.get("count"),
            int(o.get("since", d["draws_left"])),
            bool(o.get("aggressor")),
            int(o.get("position_step") or 0),
        )
        for o in spot.get("opponents") or []
    )
    counts = tuple(None if t == "?" else int(t) for t in str(d["opponents"]).split(",") if t)
    return Spot(
        ranking_for(Game(str(d["game"]))), parse_cards(str(d["held"])), int(d["draws_left"]),
        counts, parse_cards(str(d["dead"])) if d.get("dead") else (),
        reads if len(reads) == len(counts) else (), str(d.get("profile") or STANDARD),
        float(spot.get("bet") or 0.0),
    )  # fmt: skip


def _bet_text(d: Mapping[str, Any]) -> str:
    line = f" ({d['line']})" if d.get("line") else ""
    later = "" if d["draws_left"] == 1 else ", no fold modelled before the last draw"
    return f"hero bets {d['spot']['bet']:.2f} pot after{line}{later}"


def spot_text(d: Mapping[str, Any]) -> str:
    """The spot of a stored decision in full, as an expert reads it: draws left, each
    opponent's counts in order, position and bets, the pot, the hero's bet after the draw
    and the line, dead cards and a reshuffle, exact or simulated, the range profile."""
    spot = d.get("spot") or {}
    opponents = spot.get("opponents") or []
    best_se = float(d["choices"][0]["stderr"]) if d.get("choices") else 0.0
    parts = [
        f"draw {d['draw']} ({d['draws_left']} left), {d.get('position') or '?'}, "
        f"pot {d['pot']:.2f} BB",
        "vs " + "; ".join(_opponent_text(o) for o in opponents) if opponents else "",
        f"held {d['held']}" + (f", dead {d['dead']}" if d.get("dead") else ""),
        "deck reshuffled: earlier discards live" if spot.get("reshuffled") else "",
        _bet_text(d) if spot.get("bet") else "",
        "exact" if d["exact"] else f"simulated (s.e. {d['stderr']:.3f} kept, {best_se:.3f} best)",
        f"{d.get('profile') or STANDARD} ranges",
    ]
    return "; ".join(p for p in parts if p)


def summary_text(s: ReviewSummary, spots: Sequence[dict[str, Any]]) -> str:
    lines = [
        f"hands reviewed {s.hands}, draws {s.decisions}, mistakes {s.mistakes}, "
        f"big bets lost {s.lost:.2f} ({s.loss_per_100:.2f} per 100 hands: the share of the "
        "pot at the draw given up; the bets after the draw are not counted, except the "
        "folds to the hero's bet after the last draw)",
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
    for d in spots:
        lines.append(
            f"  {d['site']} {d['hand_id']}: kept {d['kept'] or '-'} ({d['equity_chosen']:.3f}), "
            f"best {d['best_kept'] or '-'} ({d['equity_best']:.3f}), lost {d['cost']:.2f} BB"
        )
        lines.append(f"    {spot_text(d)}")
    return "\n".join(lines)
