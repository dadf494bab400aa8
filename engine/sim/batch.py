"""Ranking many hands at once with numpy, for the equity simulator, drills and exhaustive checks.

Same key and tables as engine/ranking.py, so ``rank_batch(h)[i] == rank(h[i])`` always.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from engine import badugi
from engine.ranking import (
    CARD_KEY,
    FIVE_CARD_RANKINGS,
    FLUSH_SUIT_SUMS,
    SUIT_BITS,
    SUIT_MASK,
    TABLE_SIZE,
    Ranking,
    categories_for,
    table_for,
)

RankArray = npt.NDArray[np.int16]
HandArray = npt.NDArray[np.uint8]

CARD_KEYS = np.array([CARD_KEY[c] for c in range(52)], dtype=np.int32)
_FLUSH = np.zeros(SUIT_MASK + 1, dtype=np.int32)
_FLUSH[list(FLUSH_SUIT_SUMS)] = 1


def _dense_table(ranking: Ranking) -> npt.NDArray[np.int16]:
    """The rank table as an array over every index (-1 where no hand maps)."""
    table = np.full(TABLE_SIZE, -1, dtype=np.int16)
    items = table_for(ranking)
    table[list(items)] = list(items.values())
    return table


_TABLES = {r: _dense_table(r) for r in FIVE_CARD_RANKINGS}
_CATEGORIES = {
    r: np.array([int(c) for c in categories_for(r)], dtype=np.int8) for r in FIVE_CARD_RANKINGS
}


BATCH_CHUNK = 1 << 16  # rows per pass: keeps the intermediate arrays in cache


def _as_hands(hands: npt.ArrayLike, size: int = 5) -> npt.NDArray[np.integer]:
    h = np.asarray(hands)
    if h.ndim != 2 or h.shape[1] != size:
        raise ValueError(f"hands must have shape (N, {size}), got {h.shape}")
    return h


def _keys(h: npt.NDArray[np.integer]) -> npt.NDArray[np.int32]:
    total = CARD_KEYS[h[:, 0]]
    for i in range(1, 5):
        total += CARD_KEYS[h[:, i]]
    index: npt.NDArray[np.int32] = (total >> SUIT_BITS) * 2 + _FLUSH[total & SUIT_MASK]
    return index


def keys_batch(hands: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Table index of each hand (rank-multiset sum * 2 + flush)."""
    return _keys(_as_hands(hands))


def rank_batch(hands: npt.ArrayLike, ranking: Ranking) -> RankArray:
    """Rank of each row of an (N, 5) array of card ints ((N, 4) in Badugi): smaller is
    better, as ``rank``.

    The cards of a row must be distinct (not checked: this is the hot path; a row with a
    repeated card gets a wrong rank or -1).
    """
    if ranking is Ranking.BADUGI:
        return badugi.rank_batch(_as_hands(hands, badugi.HAND_SIZE))
    h = _as_hands(hands)
    table = _TABLES[ranking]
    if len(h) <= BATCH_CHUNK:
        small: RankArray = table[_keys(h)]
        return small
    out: RankArray = np.empty(len(h), dtype=np.int16)
    for start in range(0, len(h), BATCH_CHUNK):
        out[start : start + BATCH_CHUNK] = table[_keys(h[start : start + BATCH_CHUNK])]
    return out


def category_batch(ranks: npt.ArrayLike, ranking: Ranking) -> npt.NDArray[np.int8]:
    """Category (``engine.ranking.Category`` values) of each rank value (not Badugi: it
    has no five-card categories, KeyError)."""
    cats: npt.NDArray[np.int8] = _CATEGORIES[ranking][np.asarray(ranks)]
    return cats


@cache
def combinations_array(n: int, k: int) -> HandArray:
    """All k-subsets of range(n) (n <= 256), lexicographic, shape (C(n, k), k) uint8,
    read-only: built column by column, each row extended by every larger element."""
    if k == 0:
        rows = np.zeros((1, 0), dtype=np.uint8)
    else:
        rows = np.arange(n - k + 1, dtype=np.uint8)[:, None]
        for col in range(1, k):
            last = rows[:, -1].astype(np.int64)
            counts = n - k + col - last  # larger elements that still leave room after
            rep = np.repeat(rows, counts, axis=0)
            starts = np.repeat(last + 1 - np.cumsum(counts) + counts, counts)
            nxt = (np.arange(rep.shape[0]) + starts).astype(np.uint8)
            rows = np.concatenate([rep, nxt[:, None]], axis=1)
    rows.setflags(write=False)
    return rows


def all_hands() -> HandArray:
    """All 2,598,960 five-card hands, lexicographic, shape (2598960, 5) uint8 (read-only)."""
    return combinations_array(52, 5)
