"""Ranking many wild-card hands at once with numpy, for the equity simulator, the drills and
the exhaustive checks: ``rank_high_batch(h, wild)[i] == rank_high(h[i], wild)`` always.

The key is engine/sim/batch.py's, over the natural cards only, plus the count of wild cards:
each natural card adds its rank weight (a B5 set, so the sum names the multiset of natural
ranks) and its suit code (base 6, so "all the naturals of one suit" is visible), each wild
card adds one at ``WILD_SHIFT``.  A table per count of wild cards then holds the value of
every (natural ranks, suited) key; engine/wild.py explains why nothing else matters.

The tables are built on first use (a few hundred milliseconds) and weigh about 9 MB (high)
and 4 MB (low): a dense array is one numpy gather per hand, the hot path's whole cost.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

import numpy as np
import numpy.typing as npt

from engine.ranking import (
    MAX_RANK_SUM,
    RANK_WEIGHTS,
    SUIT_BITS,
    SUIT_CODES,
    SUIT_MASK,
    Ranking,
    table_for,
)
from engine.sim.batch import BATCH_CHUNK, RankArray
from engine.wild import Wild, high_scale, low_ranks, wild_cards

WILD_SHIFT = 32  # above the rank sums (< 2**19) and the suit counts (SUIT_BITS)
MAX_WILDS = 7  # a row with a card not of the deck counts 6 or more: its value is -1
_RANK_SUMS = MAX_RANK_SUM + 1
_NOT_A_CARD = 6 << WILD_SHIFT

# Suit-count sums with exactly one non-zero base-6 digit: the naturals are of one suit.
_SUITED = np.zeros(SUIT_MASK + 1, dtype=np.int64)
for _code in SUIT_CODES:
    _SUITED[[n * _code for n in range(1, 6)]] = 1


@cache
def _card_keys(wild: Wild | None) -> npt.NDArray[np.int64]:
    """Key of each card number 0..255 under this setting (a uint8 row indexes it)."""
    keys = np.full(256, _NOT_A_CARD, dtype=np.int64)
    for card in range(52):
        keys[card] = (RANK_WEIGHTS[card >> 2] << SUIT_BITS) + SUIT_CODES[card & 3]
    for card in wild_cards(wild):
        keys[card] = 1 << WILD_SHIFT
    keys.setflags(write=False)
    return keys


def _natural_multisets(size: int) -> list[tuple[int, ...]]:
    """Every multiset of ``size`` ranks a hand of distinct natural cards can hold."""
    return [
        combo
        for combo in combinations_with_replacement(range(12, -1, -1), size)
        if all(combo.count(r) <= 4 for r in set(combo))
    ]


def _count_codes(ranks: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Rows of ranks as sums of 6**rank: additive, so naturals + wild choices add up."""
    powers = 6 ** np.arange(13, dtype=np.int64)
    codes: npt.NDArray[np.int64] = powers[ranks].sum(axis=-1)
    return codes


@cache
def _high_table() -> npt.NDArray[np.int16]:
    """index ((wilds * rank sums + rank sum) * 2 + suited) -> high value, -1 where no hand."""
    scale = high_scale()
    made = list(scale.value)
    codes = _count_codes(np.array([ranks for ranks, _ in made], dtype=np.int64))
    suited = np.array([s for _, s in made], dtype=np.int64)
    values = np.array(list(scale.value.values()), dtype=np.int64)
    order = np.argsort(codes * 2 + suited)
    sorted_keys, sorted_values = (codes * 2 + suited)[order], values[order]
    table = np.full((MAX_WILDS + 1) * _RANK_SUMS * 2, -1, dtype=np.int16)
    for wilds in range(6):
        naturals = _natural_multisets(5 - wilds)
        nat = np.array(naturals, dtype=np.int64).reshape(len(naturals), 5 - wilds)
        choices = np.array(
            list(combinations_with_replacement(range(13), wilds)), dtype=np.int64
        ).reshape(-1 if wilds else 1, wilds)
        total = _count_codes(nat)[:, None] + _count_codes(choices)[None, :]
        rank_sum = np.array([sum(RANK_WEIGHTS[r] for r in n) for n in naturals], dtype=np.int64)
        base = (wilds * _RANK_SUMS + rank_sum) * 2
        distinct = np.array([len(set(n)) == len(n) for n in naturals])
        for flag in (0, 1):
            keys = total * 2 + flag
            best = sorted_values[np.searchsorted(sorted_keys, keys)].min(axis=1)
            rows = distinct if flag else np.ones(len(naturals), dtype=np.bool_)
            table[base[rows] + flag] = best[rows]
    table.setflags(write=False)
    return table


@cache
def _low_table() -> npt.NDArray[np.int16]:
    """index (wilds * rank sums + rank sum) -> ace-to-five value (engine/ranking.py's)."""
    a5 = table_for(Ranking.ACE_FIVE)
    table = np.full((MAX_WILDS + 1) * _RANK_SUMS, -1, dtype=np.int16)
    for wilds in range(6):
        for naturals in _natural_multisets(5 - wilds):
            ranks = low_ranks((r * 4 for r in naturals), wilds)
            played = sum(RANK_WEIGHTS[r] for r in ranks) * 2
            table[wilds * _RANK_SUMS + sum(RANK_WEIGHTS[r] for r in naturals)] = a5[played]
    table.setflags(write=False)
    return table


def _as_hands(hands: npt.ArrayLike) -> npt.NDArray[np.integer]:
    h = np.asarray(hands)
    if h.ndim != 2 or h.shape[1] != 5:
        raise ValueError(f"hands must have shape (N, 5), got {h.shape}")
    return h


def _parts(
    h: npt.NDArray[np.integer], wild: Wild | None
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    keys = _card_keys(wild)
    total = keys[h[:, 0]]
    for i in range(1, 5):
        total = total + keys[h[:, i]]
    wilds = np.minimum(total >> WILD_SHIFT, MAX_WILDS)
    rank_sum = (total >> SUIT_BITS) & ((1 << (WILD_SHIFT - SUIT_BITS)) - 1)
    return wilds, rank_sum, _SUITED[total & SUIT_MASK]


def _chunked(h: npt.NDArray[np.integer], one: _Ranker, wild: Wild | None) -> RankArray:
    if len(h) <= BATCH_CHUNK:
        return one(h, wild)
    out: RankArray = np.empty(len(h), dtype=np.int16)
    for start in range(0, len(h), BATCH_CHUNK):
        out[start : start + BATCH_CHUNK] = one(h[start : start + BATCH_CHUNK], wild)
    return out


class _Ranker:
    def __init__(self, low: bool) -> None:
        self.low = low

    def __call__(self, h: npt.NDArray[np.integer], wild: Wild | None) -> RankArray:
        wilds, rank_sum, suited = _parts(h, wild)
        if self.low:
            low: RankArray = _low_table()[wilds * _RANK_SUMS + rank_sum]
            return low
        high: RankArray = _high_table()[(wilds * _RANK_SUMS + rank_sum) * 2 + suited]
        return high


_HIGH = _Ranker(low=False)
_LOW = _Ranker(low=True)


def rank_high_batch(hands: npt.ArrayLike, wild: Wild | None) -> RankArray:
    """High value of each row of an (N, 5) array of card ints (engine/wild.py's scale).

    Rows must hold distinct cards of the setting's deck (not checked: the hot path); a
    joker where the deck has none gives -1."""
    return _chunked(_as_hands(hands), _HIGH, wild)


def rank_low_batch(hands: npt.ArrayLike, wild: Wild | None) -> RankArray:
    """Ace-to-five value of each row (engine/ranking.py's A-5 scale), as rank_low."""
    return _chunked(_as_hands(hands), _LOW, wild)


@cache
def _categories() -> npt.NDArray[np.int8]:
    return np.array(high_scale().category, dtype=np.int8)


def category_high_batch(values: npt.ArrayLike) -> npt.NDArray[np.int8]:
    """Class of each high value, as ``engine.wild.HIGH_CATEGORIES`` indexes (0 high card,
    9 five of a kind)."""
    cats: npt.NDArray[np.int8] = _categories()[np.asarray(values)]
    return cats
