"""Default play for the home variants: wild cards and California high-low (engine/sim/scoring.py).

The same kind of stated, replaceable model as engine/sim/strategy.py, and the same on hands
without a wild card: a wild card is never thrown; in high a hand with one stands pat on a
straight or better, keeps the natural pairs and more, else a four-card flush the wild cards
complete to four, else the highest natural card.  In an ace-to-five low the wild cards are
kept beside the low cards of the threshold strategy, and the pat check counts them as the
lowest ranks not held.  High-low plays for the high when the hand holds a pair of naturals
or better (or a made high), for the low when three or more cards to the low are kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from engine.ranking import Ranking
from engine.sim.batch import HandArray
from engine.sim.scoring import Scoring
from engine.sim.strategy import (
    HighDrawStrategy,
    KeepMask,
    Strategy,
    ThresholdStrategy,
    default_strategy,
)
from engine.sim.wild_batch import category_high_batch, rank_high_batch, rank_low_batch
from engine.wild import Wild, wild_cards

STRAIGHT = 4  # engine.wild.HIGH_CATEGORIES index: a straight or better is a made high


def _wild_mask(h: HandArray, wild: Wild | None) -> KeepMask:
    mask: KeepMask = np.isin(h, list(wild_cards(wild)))
    return mask


def _natural_pair(h: HandArray, wild: Wild | None) -> KeepMask:
    """Rows holding two natural cards of one rank (a wild card pairs nothing here)."""
    ranks = np.where(_wild_mask(h, wild), 20 + np.arange(5), h >> 2).astype(np.int16)
    pair: KeepMask = ((ranks[:, :, None] == ranks[:, None, :]).sum(axis=2) >= 2).any(axis=1)
    return pair


@dataclass(frozen=True)
class WildHighStrategy:
    """Five-card draw with wild cards (module docstring)."""

    wild: Wild

    def keep(self, hands: HandArray, draws_left: int) -> KeepMask:
        h = np.asarray(hands)
        wm = _wild_mask(h, self.wild)
        has = wm.any(axis=1)
        keep = np.zeros(h.shape, dtype=np.bool_)
        if (~has).any():
            keep[~has] = HighDrawStrategy().keep(h[~has], draws_left)
        rows = np.flatnonzero(has)
        if not len(rows):
            return keep
        hw, w = h[rows], wm[rows]
        ranks = np.where(w, 20 + np.arange(5), hw >> 2).astype(np.int16)  # wilds pair nothing
        suits = np.where(w, 10 + np.arange(5), hw & 3).astype(np.int16)
        k = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2) >= 2
        made = category_high_batch(rank_high_batch(hw, self.wild)) >= STRAIGHT
        rest = ~k.any(axis=1) & ~made
        suit_count = (suits[:, :, None] == suits[:, None, :]).sum(axis=2)
        flush_draw = rest & (suit_count.max(axis=1) + w.sum(axis=1) >= 4)
        best_suit = suit_count == suit_count.max(axis=1, keepdims=True)
        k[flush_draw] = best_suit[flush_draw] & ~w[flush_draw]
        rest &= ~flush_draw
        at = np.flatnonzero(rest)
        natural_ranks = np.where(w, -1, ranks)
        k[at, np.argmax(natural_ranks[at], axis=1)] = True
        k |= w
        k[made] = True
        keep[rows] = k
        return keep

    def describe(self) -> str:
        return (
            f"five-card draw, {self.wild} wild (wild cards kept; pat on a straight or "
            "better; keep natural pairs, else a four-flush, else the highest card)"
        )


@dataclass(frozen=True)
class WildLowStrategy:
    """Ace-to-five with wild cards: ``base``'s thresholds, the wild cards always kept."""

    base: ThresholdStrategy
    wild: Wild | None

    def keep(self, hands: HandArray, draws_left: int) -> KeepMask:
        h = np.asarray(hands)
        wm = _wild_mask(h, self.wild)
        low = ((h >> 2).astype(np.int16) + 1) % 13
        keep_limit, pat_limit = self.base.limits(draws_left)
        pat = rank_low_batch(h, self.wild) <= pat_limit
        keep = (low <= keep_limit) & ~wm
        for i in range(1, 5):  # one natural card per rank
            for j in range(i):
                keep[:, i] &= (low[:, i] != low[:, j]) | wm[:, j] | ~keep[:, j]
        keep |= wm
        full = keep.all(axis=1) & ~pat
        if full.any():  # all five kept but no pat: break the highest natural card
            rows = np.flatnonzero(full)
            top = np.argmax(np.where(wm[rows], -1, low[rows]), axis=1)
            keep[rows, top] = False
        keep[pat] = True
        mask: KeepMask = keep
        return mask

    def describe(self) -> str:
        return f"{self.base.describe()}, wild cards kept"


@dataclass(frozen=True)
class HighLowStrategy:
    """California high-low (module docstring)."""

    high: Strategy
    low: WildLowStrategy

    def keep(self, hands: HandArray, draws_left: int) -> KeepMask:
        h = np.asarray(hands)
        high = self.high.keep(h, draws_left)
        low = self.low.keep(h, draws_left)
        pat = high.all(axis=1) | low.all(axis=1)
        go_low = (low.sum(axis=1) >= 3) & ~_natural_pair(h, self.low.wild)
        keep = np.where(go_low[:, None], low, high)
        keep[pat] = True
        mask: KeepMask = keep
        return mask

    def describe(self) -> str:
        return f"high-low: pat on either; for the low with 3+ low cards ({self.low.describe()})"


@cache
def strategy_for(scoring: Scoring) -> Strategy:
    """The default play of a scoring (one object per scoring: the ranges cache by it)."""
    if scoring.plain:
        return default_strategy(scoring.ranking)
    base = default_strategy(Ranking.ACE_FIVE)
    assert isinstance(base, ThresholdStrategy)
    low = WildLowStrategy(base, scoring.wild)
    if scoring.high_low:
        high: Strategy = (
            HighDrawStrategy() if scoring.wild is None else WildHighStrategy(scoring.wild)
        )
        return HighLowStrategy(high, low)
    if scoring.ranking is Ranking.HIGH and scoring.wild is not None:
        return WildHighStrategy(scoring.wild)
    return low
