"""Discard strategies for the equity simulator: which cards a player keeps before a draw.

A strategy answers for many hands at once (numpy), because the simulator asks it once per
draw for every trial.  The default is the plain rule draw players teach first: stand pat on
a smooth enough made hand, otherwise keep the low cards of different ranks at or under a
threshold, and the thresholds loosen as the draws run out.  Five-card draw (high) has its
own: the pairs, made hands and one-card draws its rules' tips name.  A strategy knows
nothing of opponents' draws or of bluffing: it is a stated, replaceable assumption, not a
solver.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from engine import badugi
from engine.cards import RANK_CHARS
from engine.ranking import CLASS_COUNT, Category, Ranking, category_of_rank, example_hand
from engine.sim.batch import HandArray, category_batch, rank_batch

KeepMask = npt.NDArray[np.bool_]
T = TypeVar("T")


class Strategy(Protocol):
    """``keep(hands, draws_left)``: for an (N, 5) array of hands about to draw with
    ``draws_left`` draws to come (this one included), an (N, 5) mask of the cards kept."""

    def keep(self, hands: HandArray, draws_left: int) -> KeepMask: ...

    def describe(self) -> str: ...


@dataclass(frozen=True)
class StandPat:
    """Never draws: a pat hand, or a player who has stopped drawing."""

    def keep(self, hands: HandArray, draws_left: int) -> KeepMask:
        return np.ones(np.shape(hands), dtype=np.bool_)

    def describe(self) -> str:
        return "stands pat on every draw"


STAND_PAT = StandPat()


@dataclass(frozen=True)
class PatNow:
    """Stands pat on the draw with ``draws_left`` to come, then plays ``later``: a pat
    choice of the "what to draw" drill, replayed with the default play afterwards."""

    later: Strategy
    draws_left: int

    def keep(self, hands: HandArray, draws_left: int) -> KeepMask:
        if draws_left == self.draws_left:
            return np.ones(np.shape(hands), dtype=np.bool_)
        return self.later.keep(hands, draws_left)

    def describe(self) -> str:
        return f"stands pat with {self.draws_left} draws left, then {self.later.describe()}"


def _low_value(ranks: npt.NDArray[np.int16], ranking: Ranking) -> npt.NDArray[np.int16]:
    """Card order for "low": the ace is the highest in 2-7 and the lowest in A-5."""
    if ranking is Ranking.ACE_FIVE:
        low: npt.NDArray[np.int16] = (ranks + 1) % 13
        return low
    return ranks


def _char_value(char: str, ranking: Ranking) -> int:
    r = RANK_CHARS.index(char.upper())
    return (r + 1) % 13 if ranking is Ranking.ACE_FIVE else r


def _worst_pat_value(top: str, ranking: Ranking) -> int:
    """The largest rank value that is a no-pair hand topped by ``top`` or lower (the rank
    tables are monotone, so "rank <= this" means "``top``-low or better")."""
    limit = _char_value(top, ranking)
    worst = -1
    for value in range(CLASS_COUNT[ranking]):
        if category_of_rank(value, ranking) is not Category.HIGH_CARD:
            break
        ranks, _ = example_hand(value, ranking)
        if max(_char_value(RANK_CHARS[r], ranking) for r in ranks) > limit:
            break
        worst = value
    return worst


def at_draw(table: Mapping[int, T], draws_left: int) -> T:
    """A threshold table's entry for ``draws_left`` draws to come: the nearest draw's where
    the table has none (more draws than it names: its earliest; fewer: its last)."""
    if draws_left in table:
        return table[draws_left]
    return table[max(table)] if draws_left > max(table) else table[min(table)]


@dataclass(frozen=True)
class ThresholdStrategy:
    """Stand pat on ``pat[d]``-low or better; else keep one card of each rank at or under
    ``keep[d]`` (d = draws left, this draw included).  Five cards kept that are not a good
    enough pat (a straight or flush in 2-7, or too rough) lose their highest card."""

    ranking: Ranking
    keep_up_to: Mapping[int, str]
    pat_up_to: Mapping[int, str]
    _pat_value: dict[int, int] = field(init=False, repr=False, compare=False)
    _keep_value: dict[int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.ranking is Ranking.HIGH:
            raise ValueError("a low-card threshold strategy needs the 2-7 or A-5 ranking")
        if not self.keep_up_to or not self.pat_up_to:
            raise ValueError("a threshold strategy needs thresholds for at least one draw")
        for c in (*self.keep_up_to.values(), *self.pat_up_to.values()):
            if len(c) != 1 or c.upper() not in RANK_CHARS:
                raise ValueError(f"a threshold is a rank like 8 or T, not {c!r}")
        pat = {d: _worst_pat_value(c, self.ranking) for d, c in self.pat_up_to.items()}
        keep = {d: _char_value(c, self.ranking) for d, c in self.keep_up_to.items()}
        object.__setattr__(self, "_pat_value", pat)
        object.__setattr__(self, "_keep_value", keep)

    def limits(self, draws_left: int) -> tuple[int, int]:
        """(the highest card value kept, the worst rank value stood pat on) on this draw:
        card values ace low in A-5; rank values engine/ranking.py's."""
        return at_draw(self._keep_value, draws_left), at_draw(self._pat_value, draws_left)

    def keep(self, hands: HandArray, draws_left: int) -> KeepMask:
        """The kept slots of ``keep_bits`` as a mask."""
        mask: KeepMask = _BIT_MASKS[self.keep_bits(hands, draws_left)]
        return mask

    def keep_bits(self, hands: HandArray, draws_left: int) -> npt.NDArray[np.uint8]:
        """The kept slots of each hand as bits (bit i: slot i), read from a table by the
        five ranks in their order: what is kept of a hand depends on nothing else, pat or
        not, unless it is a flush (then its rank decides whether it is pat).  The
        simulator asks this for every trial of every draw, and a lookup is a few numpy
        passes where the rule is thirty."""
        h = np.asarray(hands)
        keep_limit, pat_limit = self.limits(draws_left)
        ranks = (h >> 2).astype(np.int32)
        index = ranks[:, 0] * 28561 + ranks[:, 1] * 2197 + ranks[:, 2] * 169
        index += ranks[:, 3] * 13 + ranks[:, 4]
        kept: npt.NDArray[np.uint8] = _keep_pat_table(self.ranking, keep_limit, pat_limit)[index]
        suits = h & 3
        flush = suits[:, 0] == suits[:, 1]
        for i in (2, 3, 4):
            flush &= suits[:, 0] == suits[:, i]
        if flush.any():
            rows = np.flatnonzero(flush)
            pat = rank_batch(h[rows], self.ranking) <= pat_limit
            kept[rows] = np.where(pat, 31, _keep_table(self.ranking, keep_limit)[index[rows]])
        return kept

    def describe(self) -> str:
        steps = ", ".join(
            f"{d} left: pat {self.pat_up_to[d]}-low, keep to {self.keep_up_to[d]}"
            for d in sorted(self.pat_up_to, reverse=True)
            if d in self.keep_up_to
        )
        return f"threshold ({steps})"


_SLOTS = np.arange(5, dtype=np.uint8)
_BIT_MASKS = (np.arange(32, dtype=np.uint8)[:, None] >> _SLOTS) & 1 == 1  # bits to a mask


def _keep_not_pat(low: npt.NDArray[np.int16], keep_limit: int) -> KeepMask:
    """``ThresholdStrategy``'s keep for hands that are not pat, from the cards' low values:
    one card of each rank at or under the limit; all five kept lose the highest."""
    keep = low <= keep_limit
    for i in range(1, 5):  # one card per rank: a pair is never kept
        for j in range(i):
            keep[:, i] &= low[:, i] != low[:, j]
    full = keep.all(axis=1)
    if full.any():  # all five kept but no pat: break off the highest card
        top = np.argmax(np.where(keep[full], low[full], -1), axis=1)
        keep[np.flatnonzero(full), top] = False
    return keep


@cache
def _keep_table(ranking: Ranking, keep_limit: int) -> npt.NDArray[np.uint8]:
    """The kept slots (bit i: slot i) of a hand that is not pat, for each of the 13^5 rank
    sequences (index: the ranks as base-13 digits, the first slot highest)."""
    ranks = np.indices((13,) * 5).reshape(5, -1).T.astype(np.int16)
    keep = _keep_not_pat(_low_value(ranks, ranking), keep_limit)
    table: npt.NDArray[np.uint8] = (keep.astype(np.uint8) << _SLOTS).sum(axis=1, dtype=np.uint8)
    return table


@cache
def _keep_pat_table(ranking: Ranking, keep_limit: int, pat_limit: int) -> npt.NDArray[np.uint8]:
    """``_keep_table`` with the hands that are pat unless a flush keeping all five: each
    rank sequence ranked as a hand of those ranks that is no flush (equal ranks get
    different suits, five different ranks two suits)."""
    ranks = np.indices((13,) * 5).reshape(5, -1).T.astype(np.uint8)
    suits = np.zeros(ranks.shape, dtype=np.uint8)
    for i in range(1, 5):
        suits[:, i] = (ranks[:, :i] == ranks[:, i : i + 1]).sum(axis=1)
    suits[(suits == 0).all(axis=1), 4] = 1
    possible = suits.max(axis=1) < 4  # five of one rank is no hand
    table = _keep_table(ranking, keep_limit).copy()
    rows = np.flatnonzero(possible)
    hands = (ranks[rows] << 2) | suits[rows]
    table[rows[rank_batch(hands, ranking) <= pat_limit]] = 31
    table.setflags(write=False)
    return table


def keep_bits(strategy: Strategy, hands: HandArray, draws_left: int) -> npt.NDArray[np.uint8]:
    """Any strategy's kept slots as bits (bit i: slot i), the threshold strategy's from
    its table."""
    if isinstance(strategy, ThresholdStrategy):
        return strategy.keep_bits(hands, draws_left)
    mask = strategy.keep(hands, draws_left)
    bits: npt.NDArray[np.uint8] = (mask.astype(np.uint8) << _SLOTS).sum(axis=1, dtype=np.uint8)
    return bits


_OPEN_ENDED = tuple(0xF << low for low in range(9))  # 2-3-4-5 up to T-J-Q-K: two ends


@dataclass(frozen=True)
class HighDrawStrategy:
    """Five-card draw as its rules' tips teach it (the shared seeds' five-card draw
    rules): stand pat on a made hand (a straight or better); keep trips (draw two), two
    pair (draw one), a pair (draw three); with no pair keep a four-card flush or an
    open-ended four-card straight (draw one), otherwise only the highest card (draw four).
    Inside straights are not drawn to ("rarely profitable"), and it never snows."""

    def keep(self, hands: HandArray, draws_left: int) -> KeepMask:
        h = np.asarray(hands)
        ranks = (h >> 2).astype(np.int16)
        suits = h & 3
        keep = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2) >= 2  # pairs and more
        made = category_batch(rank_batch(h, Ranking.HIGH), Ranking.HIGH) >= Category.STRAIGHT
        keep[made] = True
        rest = ~keep.any(axis=1)
        suit_count = (suits[:, :, None] == suits[:, None, :]).sum(axis=2)
        four_flush = rest & (suit_count.max(axis=1) == 4)
        keep[four_flush] = suit_count[four_flush] == 4
        rest &= ~four_flush
        bits = np.bitwise_or.reduce(np.left_shift(1, ranks.astype(np.int32)), axis=1)
        for low, window in enumerate(_OPEN_ENDED):
            hit = rest & ((bits & window) == window)
            if hit.any():
                r = ranks[hit]
                keep[hit] = (r >= low) & (r <= low + 3)
                rest &= ~hit
        rows = np.flatnonzero(rest)
        keep[rows, np.argmax(ranks[rows], axis=1)] = True
        mask: KeepMask = keep
        return mask

    def describe(self) -> str:
        return (
            "five-card draw (pat on a straight or better; keep trips, two pair or a pair; "
            "else a four-flush or open-ended straight draw; else the highest card)"
        )


@dataclass(frozen=True)
class BadugiStrategy:
    """Badugi: stand pat on any four-card badugi; otherwise keep the cards of the best
    subset (distinct ranks and suits) at or under ``keep_up_to[d]`` (ace low; d = draws
    left, this draw included) and draw the rest."""

    keep_up_to: Mapping[int, str]

    def keep(self, hands: HandArray, draws_left: int) -> KeepMask:
        h = np.asarray(hands)
        _, columns = badugi.best_subsets(h)
        in_subset = (columns[:, None] >> np.arange(badugi.HAND_SIZE)) & 1 == 1
        limit = _char_value(at_draw(self.keep_up_to, draws_left), Ranking.ACE_FIVE)
        low = ((h >> 2).astype(np.int16) + 1) % 13
        keep = in_subset & (low <= limit)
        keep[in_subset.all(axis=1)] = True  # a four-card badugi stands pat
        mask: KeepMask = keep
        return mask

    def describe(self) -> str:
        steps = ", ".join(
            f"{d} left: keep to {self.keep_up_to[d]}" for d in sorted(self.keep_up_to, reverse=True)
        )
        return f"badugi (pat any badugi; {steps})"


@cache
def default_strategy(ranking: Ranking) -> Strategy:
    """2-7: pat 9-low with two or three draws left, T-low with one; keep cards to the 8,
    to the 9 on the last draw.  A-5 (ace low): pat 8-low, 9-low on the last draw; keep to
    the 7, to the 8 on the last draw.  High (five-card draw): ``HighDrawStrategy``.  Badugi:
    pat any badugi; keep the best subset's cards to the 8, to the 9 with two draws left,
    all of them on the last draw."""
    if ranking is Ranking.DEUCE_SEVEN:
        return ThresholdStrategy(ranking, {3: "8", 2: "8", 1: "9"}, {3: "9", 2: "9", 1: "T"})
    if ranking is Ranking.ACE_FIVE:
        return ThresholdStrategy(ranking, {3: "7", 2: "7", 1: "8"}, {3: "8", 2: "8", 1: "9"})
    if ranking is Ranking.BADUGI:
        return BadugiStrategy({3: "8", 2: "9", 1: "K"})
    return HighDrawStrategy()
