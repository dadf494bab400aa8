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

Several choices of one hand (``equities_vs_pat_range``, as the review weighs them) share
the range, so the sum is turned around: for each draw, the hands of the range it beats and
shares no card with, by inclusion-exclusion over the draw's own cards (at most three, so
eight terms).  Each term is read from one table built once for all the choices: for every
set of up to two unseen cards and every rank class of the range, how many of its hands
hold those cards and rank that worse or worse still.  The pat ranges of the low games hold
about 120 rank classes, so the table is small; where it would not be (the high game's
straights and better) each choice is counted the first way.  The term of a draw of three
whose set is the whole draw is not read from a table (one row for each of the ~11,000 sets
of three unseen cards, most of them held by few hands): a hand holds all three cards of a
draw only when they are three of its own, so summed over the draws those terms are each
hand's ten sets of three, each looked up among the draws.
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
TABLE_CELLS = 4_000_000  # most cells of the shared table (card sets x rank classes)
TABLE_SETS = 2  # the table's card sets hold at most two cards; a draw's three are looked up


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


def _local_range(
    unseen: Sequence[int], pat: Range, ranking: Ranking
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The range's hands as sorted indices into ``unseen``, and their ranks."""
    local = np.full(52, -1, dtype=np.int64)
    local[list(unseen)] = np.arange(len(unseen))
    opp = np.sort(local[pat.hands.astype(np.int64)], axis=1)
    if (opp < 0).any():
        raise ValueError("a hand of the pat range holds a card that is not unseen")
    return opp, rank_batch(pat.hands, ranking).astype(np.int64)


def _pat_share(keep: Sequence[int], opp_rank: npt.NDArray[np.int64], ranking: Ranking) -> float:
    pat_rank = int(rank_batch(np.array([keep], dtype=np.uint8), ranking)[0])
    return float(((pat_rank < opp_rank) + 0.5 * (pat_rank == opp_rank)).mean())


def equities_vs_pat_range(
    keeps: Sequence[Sequence[int]], unseen: Sequence[int], pat: Range, ranking: Ranking
) -> list[float]:
    """``equity_vs_pat_range`` of each of ``keeps`` (each drawing at most three), the range
    read once for all of them (see the module's notes)."""
    m = len(unseen)
    needs = [5 - len(k) for k in keeps]
    if any(n > 3 for n in needs) or not len(pat.hands):
        return [equity_vs_pat_range(k, unseen, pat, ranking) for k in keeps]
    opp, opp_rank = _local_range(unseen, pat, ranking)
    classes = np.unique(opp_rank)
    top = min(max(needs), TABLE_SETS)
    binom = _binomials(m)
    offsets = [sum(comb(m, t) for t in range(s)) for s in range(top + 2)]
    width = len(classes) + 1
    if offsets[top + 1] * width > TABLE_CELLS:
        return [equity_vs_pat_range(k, unseen, pat, ranking) for k in keeps]
    # worse[S, j]: hands of the range holding the card set S whose class is j-th or later.
    bucket = np.searchsorted(classes, opp_rank).astype(np.int32)
    # term[i][p]: the colex term of the hand's card in slot p as the i-th card of a set.
    term = [[(binom[opp[:, p], i + 1] * width).astype(np.int32) for p in range(5)]
            for i in range(top)]  # fmt: skip
    cells = []
    for size in range(top + 1):
        for positions in combinations(range(5), size):
            cell = bucket + np.int32(offsets[size] * width)
            for i, p in enumerate(positions):
                cell += term[i][p]
            cells.append(cell)
    tally = np.bincount(np.concatenate(cells), minlength=offsets[top + 1] * width)
    counts = tally.astype(np.int32).reshape(-1, width)
    below = np.cumsum(counts, axis=1, dtype=np.int32)
    worse = below[:, -1:] - below + counts  # the last column (no class) stays 0
    out: list[float] = []
    for keep, need in zip(keeps, needs, strict=True):
        if need == 0:
            out.append(_pat_share(keep, opp_rank, ranking))
            continue
        draws = combinations_array(m, need).astype(np.int64)
        cards = np.asarray(unseen, dtype=np.uint8)[draws]
        hands = np.concatenate(
            [np.tile(np.asarray(keep, dtype=np.uint8), (len(draws), 1)), cards], 1
        )
        mine = rank_batch(hands, ranking).astype(np.int64)
        lo = np.searchsorted(classes, mine, side="left")
        hi = np.searchsorted(classes, mine, side="right")
        won = np.zeros(len(draws), dtype=np.int64)
        tied = np.zeros(len(draws), dtype=np.int64)
        for size in range(min(need, top) + 1):
            sign = -1 if size % 2 else 1
            for positions in combinations(range(need), size):
                row = _subset_keys(draws, positions, binom, int(offsets[size]))
                above = worse[row, hi]
                won += sign * above
                tied += sign * (worse[row, lo] - above)
        total = 2 * int(won.sum()) + int(tied.sum())
        if need > top:  # the draw itself as the set: each hand's own three cards, counted
            total -= _whole_draw_terms(draws, mine, opp, opp_rank, binom)
        out.append(total / (2 * len(opp) * comb(m - 5, need)))
    return out


def _whole_draw_terms(
    draws: npt.NDArray[np.int64],
    mine: npt.NDArray[np.int64],
    opp: npt.NDArray[np.int64],
    opp_rank: npt.NDArray[np.int64],
    binom: npt.NDArray[np.int64],
) -> int:
    """The inclusion-exclusion terms whose card set is a whole draw of three, summed over the
    draws (twice the wins plus the ties): a hand holds a draw's three cards only when the
    draw is three of the hand's own, so each hand's ten sets of three are looked up instead
    of a table row for every set of three unseen cards."""
    need = draws.shape[1]
    by_key = np.empty(len(draws), dtype=np.int64)
    by_key[_subset_keys(draws, range(need), binom, 0)] = mine
    term = [[binom[opp[:, p], i + 1] for p in range(5)] for i in range(need)]
    total = 0
    for positions in combinations(range(5), need):
        key = term[0][positions[0]].copy()
        for i in range(1, need):
            key += term[i][positions[i]]
        theirs = by_key[key]
        total += 2 * int((opp_rank > theirs).sum()) + int((opp_rank == theirs).sum())
    return total


def equity_vs_pat_range(
    keep: Sequence[int], unseen: Sequence[int], pat: Range, ranking: Ranking
) -> float:
    """Share of the pot of drawing to ``keep`` from ``unseen`` once, against one opponent
    standing pat on a hand of ``pat`` (all of whose hands lie in ``unseen``); hands of
    five cards, or four in Badugi (the range's width)."""
    hand_size = pat.hands.shape[1]
    need = hand_size - len(keep)
    m = len(unseen)
    opp, opp_rank = _local_range(unseen, pat, ranking)
    if need == 0:
        return _pat_share(keep, opp_rank, ranking)
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
    for size in range(min(need, hand_size) + 1):
        sign = -1.0 if size % 2 else 1.0
        for positions in combinations(range(hand_size), size):
            base = _subset_keys(opp, positions, binom, int(offsets[size])) * RANK_SPAN
            first = np.searchsorted(index, base)
            below = np.searchsorted(index, base + opp_rank)
            level = np.searchsorted(index, base + opp_rank + 1)
            better += sign * ((below - first) + 0.5 * (level - below))
    return float(better.mean() / comb(m - hand_size, need))
