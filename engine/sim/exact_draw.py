"""The last draw against one unknown pat hand, exactly: every draw against every hand.

The opponent stands pat on a hand of their range (every hand their strategy stands pat on,
free of the known cards), and the hero draws ``n`` cards to ``keep`` from the unseen cards
that hand does not hold.  Each (hand, draw) pair free of shared cards is equally likely, so
the equity is the mean over the range of the share of draws that win.  Counting those draws
hand by hand is inclusion-exclusion over the cards the hand takes from the unseen ones:
the draws that avoid the hand's cards are all draws, less those holding one of its cards,
plus those holding two, and so on.  Each term is a count of draws containing a given set of
cards and ranking better than the hand, read from one sorted array by binary search, so a
range of 100,000 hands costs milliseconds, not the billions of rankings of a plain loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from math import comb

import numpy as np
import numpy.typing as npt

from engine.ranking import Ranking
from engine.sim.batch import combinations_array, rank_batch
from engine.sim.ranges import Range

RANK_SPAN = 1 << 13  # rank values are below 8,192 in every ranking (7,462 high classes)
EXACT_ENTRIES = 400_000  # most (draw, subset) rows indexed for one choice: up to three drawn


def feasible(unseen: int, need: int) -> bool:
    """Whether drawing ``need`` of ``unseen`` cards is small enough to enumerate."""
    return comb(unseen, need) * (1 << need) <= EXACT_ENTRIES


def _binomials(n: int) -> npt.NDArray[np.int64]:
    table = np.zeros((n + 1, 6), dtype=np.int64)
    for m in range(n + 1):
        for k in range(6):
            table[m, k] = comb(m, k)
    return table


def _subset_keys(
    rows: npt.NDArray[np.int64],
    positions: Sequence[int],
    binom: npt.NDArray[np.int64],
    offset: int,
) -> npt.NDArray[np.int64]:
    """Colex index (plus the size's ``offset``) of the subsets ``rows[:, positions]``; the
    rows are sorted, so the picked columns are too."""
    key = np.full(len(rows), offset, dtype=np.int64)
    for i, p in enumerate(positions):
        key += binom[rows[:, p], i + 1]
    return key


def equity_vs_pat_range(
    keep: Sequence[int], unseen: Sequence[int], pat: Range, ranking: Ranking
) -> float:
    """Share of the pot of drawing to ``keep`` from ``unseen`` once, against one opponent
    standing pat on a hand of ``pat`` (all of whose hands lie in ``unseen``)."""
    need = 5 - len(keep)
    m = len(unseen)
    local = np.full(52, -1, dtype=np.int64)
    local[list(unseen)] = np.arange(m)
    opp = np.sort(local[pat.hands.astype(np.int64)], axis=1)
    if (opp < 0).any():
        raise ValueError("a hand of the pat range holds a card that is not unseen")
    opp_rank = rank_batch(pat.hands, ranking).astype(np.int64)
    if need == 0:
        pat_rank = int(rank_batch(np.array([keep], dtype=np.uint8), ranking)[0])
        return float(((pat_rank < opp_rank) + 0.5 * (pat_rank == opp_rank)).mean())
    draws = combinations_array(m, need).astype(np.int64)  # sorted local indices
    cards = np.asarray(unseen, dtype=np.uint8)[draws]
    hands = np.concatenate([np.tile(np.asarray(keep, dtype=np.uint8), (len(draws), 1)), cards], 1)
    mine = rank_batch(hands, ranking).astype(np.int64)
    binom = _binomials(m)
    offsets = [sum(comb(m, t) for t in range(s)) for s in range(need + 1)]
    parts = []
    for size in range(need + 1):
        for positions in combinations(range(need), size):
            key = _subset_keys(draws, positions, binom, int(offsets[size]))
            parts.append(key * RANK_SPAN + mine)
    index = np.sort(np.concatenate(parts))
    better = np.zeros(len(opp), dtype=np.float64)
    for size in range(min(need, 5) + 1):
        sign = -1.0 if size % 2 else 1.0
        for positions in combinations(range(5), size):
            base = _subset_keys(opp, positions, binom, int(offsets[size])) * RANK_SPAN
            first = np.searchsorted(index, base)
            below = np.searchsorted(index, base + opp_rank)
            level = np.searchsorted(index, base + opp_rank + 1)
            better += sign * ((below - first) + 0.5 * (level - below))
    return float(better.mean() / comb(m - 5, need))
