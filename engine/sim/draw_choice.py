"""What to draw: the equity of every discard choice for one hand, best first.

This is the referee of the "what to draw" drill and of the review of the player's own
draws.  With one draw left against hands that stand pat (shown, or one unknown pat hand of
its strategy's range: ``engine.sim.exact_draw``), every possible draw is enumerated (numpy over
all card combinations), so the answer is exact.  Otherwise each choice is simulated with
the same seed, so that choices are compared on closely matched deals, and each carries its
standard error.

The game is a ``Ranking`` or a home variant's ``Scoring`` (wild cards, the high-low split:
engine/sim/scoring.py); the exact paths apply to the variants too, except the unknown pat range
(its counting is written for one ranking), where a variant is simulated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb, hypot
from typing import NamedTuple

import numpy as np

from engine.cards import CardError, Cards, check_distinct, format_cards
from engine.ranking import Ranking
from engine.sim.batch import combinations_array
from engine.sim.equity import EXACT_DEALS, MAX_PLAYERS, Player, counted, keep_equities
from engine.sim.exact_draw import equity_vs_pat_range, feasible
from engine.sim.ranges import unknown_range
from engine.sim.scoring import Scoring, scoring_of
from engine.sim.strategy import StandPat, Strategy
from engine.sim.wild_strategy import strategy_for

EXACT_LIMIT = 2_000_000  # most cards combinations enumerated per choice for an exact answer


class _Estimate(NamedTuple):
    """A keep's equity as found, before the best one is known."""

    keep: Cards
    discard: Cards
    equity: float
    stderr: float  # 0 when exact
    exact: bool


@dataclass(frozen=True)
class DrawChoice:
    """One way to play the hand: ``keep`` (the cards held), ``discard`` (the cards thrown),
    its share of the pot, the standard error (0 when exact), and ``loss``: the equity given
    up against the best choice.  ``as_good_as_best``: the loss is within the simulation's
    noise (three standard errors of the difference), so a drill should not mark it wrong;
    for exact answers only a loss of zero is."""

    keep: Cards
    discard: Cards
    equity: float
    stderr: float
    loss: float
    exact: bool
    as_good_as_best: bool = False

    @property
    def label(self) -> str:
        if not self.discard:
            return "stand pat"
        return f"keep {format_cards(self.keep) or 'nothing'}, draw {len(self.discard)}"


def all_keeps(hand: Cards) -> list[Cards]:
    """All 32 subsets of the five cards (16 of a Badugi hand's four), from standing pat down
    to drawing them all."""
    return [keep for n in range(len(hand), -1, -1) for keep in combinations(hand, n)]


def sensible_keeps(hand: Cards, ranking: Ranking) -> list[Cards]:
    """The subsets a low player would consider: no two cards of one rank (a pair is never
    worth keeping in a low game).  Every subset in high poker; in Badugi the subsets with
    no two cards of a rank or of a suit (a card that cannot play is never worth keeping)."""
    if ranking is Ranking.HIGH:
        return all_keeps(hand)
    if ranking is Ranking.BADUGI:
        return [
            k
            for k in all_keeps(hand)
            if len({c >> 2 for c in k}) == len(k) == len({c & 3 for c in k})
        ]
    return [k for k in all_keeps(hand) if len({c >> 2 for c in k}) == len(k)]


def _stands_pat(player: Player, scoring: Scoring, draws_left: int) -> bool:
    if len(player.cards) < scoring.size:
        return False
    strategy: Strategy = player.strategy or strategy_for(scoring)
    if isinstance(strategy, StandPat):
        return True
    keep = strategy.keep(np.array([player.cards], dtype=np.uint8), draws_left)
    return bool(keep.all())


def _exact_last_draw(
    keep: Cards, stub: Sequence[int], pats: Sequence[Cards], scoring: Scoring
) -> float:
    """Equity of drawing to ``keep`` once against these pat hands (in high-low, the mean
    of the two halves' shares)."""
    need = scoring.size - len(keep)
    cards = np.asarray(stub, dtype=np.uint8)[combinations_array(len(stub), need)]
    hands = np.concatenate([np.tile(np.asarray(keep, dtype=np.uint8), (len(cards), 1)), cards], 1)
    others = np.asarray(pats, dtype=np.uint8)
    halves = [(scoring.values(hands), scoring.values(others))]
    if scoring.high_low:
        halves.append((scoring.low_values(hands), scoring.low_values(others)))
    share = 0.0
    for mine16, theirs in halves:
        mine = mine16.astype(np.int32)
        best_other = int(theirs.min())
        ties = int((theirs == best_other).sum())
        won = (mine < best_other).sum() + (mine == best_other).sum() / (ties + 1)
        share += float(won / len(mine))
    return share / len(halves)


def _few_deals(stub: Sequence[int], discard: Cards, draws_left: int) -> bool:
    """Whether drawing ``discard``'s count on each draw left can be few enough deals to
    count (``counted`` counts them exactly; a two-card draw with two draws left is not)."""
    return bool(discard) and comb(len(stub), len(discard)) ** draws_left <= EXACT_DEALS


def draw_equity(
    hand: Cards,
    draws_left: int,
    ranking: Ranking | Scoring,
    opponents: Sequence[Player],
    *,
    dead: Cards = (),
    keeps: Sequence[Cards] | None = None,
    trials: int = 20_000,
    seed: int = 0,
) -> list[DrawChoice]:
    """The equity of each discard choice of ``hand`` (default: all 32), best first.

    The hero makes the choice on this draw and follows the game's default strategy on the
    draws after it; ``opponents`` are ``Player``s as in ``engine.sim.equity`` (a five-card
    opponent with ``STAND_PAT`` is a pat hand to beat).  Exact when one draw is left and
    every opponent stands pat, or against one unknown pat hand (``Player.drawing(0)``) when
    the draw is small enough to enumerate, or when every hand is known and the deals are
    few (``engine.sim.equity.counted``: a one-card draw against pat hands with two draws
    left); simulated with ``trials`` deals per choice otherwise.
    """
    scoring = scoring_of(ranking)
    size = scoring.size
    if len(hand) != size:
        words = "five" if size == 5 else "four"
        raise CardError(f"a hand to draw from is {words} cards, got {len(hand)}")
    if not 1 <= len(opponents) <= MAX_PLAYERS - 1:
        raise ValueError(f"1 to {MAX_PLAYERS - 1} opponents, got {len(opponents)}")
    if draws_left < 1:
        raise ValueError("no draw is left to choose")
    check_distinct([*hand, *dead, *(c for o in opponents for c in (*o.cards, *o.discards))])
    choices = list(keeps) if keeps is not None else all_keeps(hand)
    for k in choices:
        if not set(k) <= set(hand):
            raise CardError(f"cannot keep {format_cards(k)}: not all in {format_cards(hand)}")

    known = {*hand, *dead, *(c for o in opponents for c in (*o.cards, *o.discards))}
    stub = [c for c in scoring.deck if c not in known]
    exact = draws_left == 1 and all(_stands_pat(o, scoring, 1) for o in opponents)
    lone = opponents[0]
    pat_range = (
        unknown_range(lone.strategy or strategy_for(scoring), 1, size, known, size=size)
        if draws_left == 1
        and len(opponents) == 1
        and lone.keeps_unknown == size == lone.size
        and scoring.plain
        else None
    )
    results: list[_Estimate] = []
    simulated: list[Cards] = []
    for keep in choices:
        discard = tuple(c for c in hand if c not in keep)
        if exact:
            value = _exact_last_draw(keep, stub, [o.cards for o in opponents], scoring)
            results.append(_Estimate(tuple(keep), discard, value, 0.0, exact=True))
            continue
        if pat_range is not None and feasible(len(stub), len(discard)):
            value = equity_vs_pat_range(keep, stub, pat_range, scoring.ranking)
            results.append(_Estimate(tuple(keep), discard, value, 0.0, exact=True))
            continue
        hero = Player(tuple(keep), discards=discard)
        few = (counted([hero, *opponents], scoring, draws_left, dead=dead)
               if _few_deals(stub, discard, draws_left) else None)  # fmt: skip
        if few is not None:  # few deals: a one-card draw against pat hands, two draws left
            results.append(_Estimate(tuple(keep), discard, few.equity[0], 0.0, exact=True))
            continue
        simulated.append(tuple(keep))
    if simulated:
        found = keep_equities(
            hand, simulated, opponents, scoring, draws_left, dead=dead, trials=trials, seed=seed
        )
        for keep, (value, error) in zip(simulated, found, strict=True):
            discard = tuple(c for c in hand if c not in keep)
            results.append(_Estimate(keep, discard, value, error, exact=False))
    ordered = sorted(results, key=lambda r: (-r.equity, len(r.discard)))
    best = ordered[0]
    return [
        DrawChoice(
            r.keep,
            r.discard,
            r.equity,
            r.stderr,
            loss=best.equity - r.equity,
            exact=r.exact,
            as_good_as_best=best.equity - r.equity <= 3 * hypot(r.stderr, best.stderr) + 1e-12,
        )
        for r in ordered
    ]
