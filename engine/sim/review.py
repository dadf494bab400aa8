"""Reviewing one of the hero's draws: the equity of what was done and of every sensible
alternative, as the hero could have known it at that moment.

The model (a stated assumption, changeable here and written in the README):

- Each opponent still in the hand holds a hand of the game's default strategy
  (``engine.sim.strategy``) consistent with the draw count the hero has seen: the count on
  this draw for an opponent who drew before the hero, else their count on the previous
  draw (taken as what they will draw again), else (the first draw, acting after the hero)
  any hand.  The hero's own cards and earlier discards are out of every range.  Cards
  opponents show later are never used: no hindsight.
- After this draw everyone plays the default strategy to the showdown and nobody folds,
  so the money measure (loss times the pot at the draw) is a lower bound: the bets still
  to come are not modelled.
- The last draw against one pat opponent is exact (``engine.sim.exact_draw``); otherwise each
  choice is simulated with a seed fixed by the situation, so a re-run gives the same
  answer, and a choice within three standard errors of the best is not a mistake (its
  loss counts as 0).

Situations that give the same answer share it (``spot_key``): the same ranks held, the
suit that matters (a suit holding three or more of the five cards: the only one a flush
can come from with the likely draws), the ranks of the known dead cards, the opponents'
counts and the draws left.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.cards import Card, Cards, check_distinct
from engine.ranking import Ranking
from engine.sim.draw_choice import DrawChoice, draw_equity
from engine.sim.equity import Player
from engine.sim.ranges import base_range
from engine.sim.strategy import Strategy, default_strategy

TRIALS = 3_000  # deals per choice when simulated (as the drill)
UNSEEN = None  # an opponent's count the hero has not seen yet


@dataclass(frozen=True)
class Spot:
    """The hero about to draw: ``hand`` (five cards), ``draws_left`` (this one included),
    each opponent's count as the hero saw it (``UNSEEN``: none yet) and the cards the hero
    knows are out of play (their own earlier discards)."""

    ranking: Ranking
    hand: Cards
    draws_left: int
    opponents: tuple[int | None, ...]
    dead: Cards = ()

    def __post_init__(self) -> None:
        if len(self.hand) != 5:
            raise ValueError(f"a hand to draw from is five cards, got {len(self.hand)}")
        check_distinct([*self.hand, *self.dead])
        if not 1 <= len(self.opponents) <= 5:
            raise ValueError(f"1 to 5 opponents, got {len(self.opponents)}")
        if not 1 <= self.draws_left <= 3:
            raise ValueError(f"1 to 3 draws left, not {self.draws_left}")


@dataclass(frozen=True)
class Reviewed:
    """One draw judged: the choice made and the best one, their equities, the loss (0 when
    within the noise, or when it was the best) and every choice considered, best first."""

    kept: Cards
    best_kept: Cards
    equity_chosen: float
    equity_best: float
    stderr: float
    loss: float
    exact: bool
    choices: tuple[DrawChoice, ...] = field(default=())

    @property
    def mistake(self) -> bool:
        return self.loss > 0


def _low_value(card: Card, ranking: Ranking) -> int:
    rank = card >> 2
    return (rank + 1) % 13 if ranking is Ranking.ACE_FIVE else rank


def best_order(hand: Cards, ranking: Ranking) -> list[Card]:
    """The hand's cards from most to least worth keeping: in the low games the lowest of
    each rank first (pairs' second cards last); in high poker paired ranks first (more of
    a kind first), then high cards."""
    if ranking is Ranking.HIGH:
        count = {c >> 2: sum(1 for d in hand if d >> 2 == c >> 2) for c in hand}
        return sorted(hand, key=lambda c: (-count[c >> 2], -(c >> 2), c))
    seen: set[int] = set()
    first: list[Card] = []
    second: list[Card] = []
    for c in sorted(hand, key=lambda c: (_low_value(c, ranking), c)):
        (second if c >> 2 in seen else first).append(c)
        seen.add(c >> 2)
    return first + second


def alternatives(hand: Cards, ranking: Ranking, draws_left: int, kept: Cards) -> list[Cards]:
    """The choices weighed: the best k cards for every k (standing pat is k = 5), the
    default strategy's keep, and what was really done."""
    order = best_order(hand, ranking)
    keeps = [tuple(order[:k]) for k in range(5, -1, -1)]
    mask = default_strategy(ranking).keep(np.array([hand], dtype=np.uint8), draws_left)[0]
    keeps.append(tuple(c for c, k in zip(hand, mask, strict=True) if k))
    keeps.append(tuple(kept))
    out: list[Cards] = []
    for k in keeps:
        if not any(sorted(k) == sorted(o) for o in out):
            out.append(k)
    return out


def opponent_players(spot: Spot, strategy: Strategy | None = None) -> list[Player]:
    """The opponents as the simulator deals them; a count the strategy never plays (five
    drawn where it always keeps a card) falls back to any hand."""
    strategy = strategy or default_strategy(spot.ranking)
    out = []
    for count in spot.opponents:
        if count is UNSEEN or not len(base_range(strategy, spot.draws_left, 5 - count).hands):
            out.append(Player.unseen(strategy))
        else:
            out.append(Player.drawing(count, strategy))
    return out


def _flush_suit(hand: Cards) -> int | None:
    for suit in range(4):
        if sum(1 for c in hand if c & 3 == suit) >= 3:
            return suit
    return None


def _descriptor(card: Card, flush: int | None) -> tuple[int, bool]:
    return (card >> 2, flush is not None and card & 3 == flush)


def spot_key(spot: Spot) -> tuple[object, ...]:
    """What the answer depends on (see the module's notes): equal keys, equal answers."""
    flush = _flush_suit(spot.hand)
    return (
        spot.ranking.value,
        spot.draws_left,
        tuple(sorted(_descriptor(c, flush) for c in spot.hand)),
        tuple(sorted(c >> 2 for c in spot.dead)),
        tuple(sorted(-1 if o is UNSEEN else o for o in spot.opponents)),
    )


def keep_key(spot: Spot, keep: Cards) -> tuple[tuple[int, bool], ...]:
    flush = _flush_suit(spot.hand)
    return tuple(sorted(_descriptor(c, flush) for c in keep))


def seed_of(key: tuple[object, ...]) -> int:
    """A seed fixed by the situation, the same in every process and every run."""
    return zlib.crc32(repr(key).encode()) & 0x7FFFFFFF


# One cached choice: equity, standard error, exact.
_Cached = tuple[float, float, bool]


@dataclass
class ReviewCache:
    """Answers by situation: for each ``spot_key``, each keep's equity (by ``keep_key``)."""

    entries: dict[tuple[object, ...], dict[tuple[tuple[int, bool], ...], _Cached]] = field(
        default_factory=dict
    )
    hits: int = 0
    misses: int = 0


def review(
    spot: Spot, kept: Cards, *, trials: int = TRIALS, cache: ReviewCache | None = None
) -> Reviewed:
    """Judge keeping ``kept`` (a subset of ``spot.hand``) against the alternatives."""
    if not set(kept) <= set(spot.hand):
        raise ValueError("the cards kept are not all in the hand")
    key = spot_key(spot)
    known = cache.entries.get(key, {}) if cache is not None else {}
    keeps = alternatives(spot.hand, spot.ranking, spot.draws_left, kept)
    missing = [k for k in keeps if keep_key(spot, k) not in known]
    if cache is not None:
        if missing:
            cache.misses += 1
        else:
            cache.hits += 1
    if missing:
        computed = draw_equity(
            spot.hand, spot.draws_left, spot.ranking, opponent_players(spot),
            dead=spot.dead, keeps=missing, trials=trials, seed=seed_of(key),
        )  # fmt: skip
        known = dict(known)
        for c in computed:
            known[keep_key(spot, c.keep)] = (c.equity, c.stderr, c.exact)
        if cache is not None:
            cache.entries[key] = known
    return _judge(spot, kept, keeps, known)


def _judge(
    spot: Spot,
    kept: Cards,
    keeps: Sequence[Cards],
    known: dict[tuple[tuple[int, bool], ...], _Cached],
) -> Reviewed:
    rows = [(k, *known[keep_key(spot, k)]) for k in keeps]
    rows.sort(key=lambda r: (-r[1], -len(r[0])))
    best, best_eq, best_se, _ = rows[0]
    choices = []
    for k, eq, se, exact in rows:
        discard = tuple(c for c in spot.hand if c not in k)
        loss = best_eq - eq
        within = loss <= 3 * (se * se + best_se * best_se) ** 0.5 + 1e-12
        choices.append(DrawChoice(tuple(k), discard, eq, se, loss, exact, within))
    chosen = next(c for c in choices if sorted(c.keep) == sorted(kept))
    loss = 0.0 if chosen.as_good_as_best else chosen.loss
    return Reviewed(
        tuple(kept),
        tuple(best),
        chosen.equity,
        best_eq,
        chosen.stderr,
        loss,
        chosen.exact,
        tuple(choices),
    )
