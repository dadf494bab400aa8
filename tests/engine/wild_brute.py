"""An independent brute force for wild-card hands: every wild card replaced by every one of the
52 cards (duplicates of held cards included), each resulting five cards judged by a plain
evaluator written here, the best kept.  Nothing of engine/wild.py is used.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from itertools import combinations_with_replacement, permutations, product

import numpy as np
import numpy.typing as npt

Key = tuple[int, ...]


def high_key(cards: Sequence[int]) -> Key:
    """Five cards, duplicates allowed: bigger is stronger; a class number first."""
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    suits = {c & 3 for c in cards}
    count = Counter(ranks)
    by_count = sorted(count.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    flush = len(suits) == 1
    distinct = sorted(count, reverse=True)
    straight_top = -1
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_top = distinct[0]
        if distinct == [12, 3, 2, 1, 0]:
            straight_top = 3
    if by_count[0][1] == 5:
        return (9, by_count[0][0])
    if straight_top >= 0 and flush:
        return (8, straight_top)
    if by_count[0][1] == 4:
        return (7, by_count[0][0], by_count[1][0])
    if by_count[0][1] == 3 and by_count[1][1] == 2:
        return (6, by_count[0][0], by_count[1][0])
    if flush:
        return (5, *ranks)
    if straight_top >= 0:
        return (4, straight_top)
    if by_count[0][1] == 3:
        return (3, by_count[0][0], by_count[1][0], by_count[2][0])
    if by_count[0][1] == 2 and by_count[1][1] == 2:
        return (2, by_count[0][0], by_count[1][0], by_count[2][0])
    if by_count[0][1] == 2:
        return (1, by_count[0][0], *(r for r, _ in by_count[1:]))
    return (0, *ranks)


def low_key(cards: Sequence[int]) -> Key:
    """Ace-to-five: smaller is better; the count shape first, then ranks ace low."""
    low = [((c >> 2) + 1) % 13 for c in cards]
    count = Counter(low)
    shape = tuple(sorted(count.values(), reverse=True))
    grouped = sorted(low, key=lambda r: (count[r], r), reverse=True)
    return (*shape, *([0] * (5 - len(shape))), *grouped)


def substitutions(cards: Sequence[int], wild: Collection[int]) -> list[tuple[int, ...]]:
    naturals = tuple(c for c in cards if c not in wild)
    slots = 5 - len(naturals)
    return [naturals + extra for extra in product(range(52), repeat=slots)]


def best_high(cards: Sequence[int], wild: Collection[int]) -> Key:
    return max(high_key(h) for h in substitutions(cards, wild))


def best_low(cards: Sequence[int], wild: Collection[int]) -> Key:
    return min(low_key(h) for h in substitutions(cards, wild))


# --- the same, vectorized, for the exhaustive tests ----------------------------------------

DIGIT = 13
CLASS_UNIT = DIGIT**5


def _class_table() -> npt.NDArray[np.int32]:
    """class by (sum over cards of how often their rank is held, flush, straight): the sum
    names the shape (5 no pair, 7 one pair, 9 two pair, 11 trips, 13 full house, 17 quads,
    25 five of a kind)."""
    table = np.zeros(26 * 4, dtype=np.int32)
    shape_class = {5: 0, 7: 1, 9: 2, 11: 3, 13: 6, 17: 7, 25: 9}
    for shape, cls in shape_class.items():
        for flush in (0, 1):
            for straight in (0, 1):
                best = cls
                if straight and flush:
                    best = 8
                elif flush and cls < 5:
                    best = 5
                elif straight and cls < 4:
                    best = 4
                table[shape * 4 + flush * 2 + straight] = best
    return table


_CLASS = _class_table()
_PLACES = DIGIT ** np.arange(4, -1, -1, dtype=np.int32)


def codes(cards: npt.NDArray[np.integer]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """high_key and low_key of each row of an (M, 5) array (duplicates allowed), each as one
    int: high, the class times 13**5 plus five tie-break digits, bigger is stronger; low,
    the shape (its sum names it, and grows with it) then the ranks ace low, smaller is
    better."""
    r = (cards >> 2).astype(np.int8)
    s = (cards & 3).astype(np.int8)
    per_card = (r[:, :, None] == r[:, None, :]).sum(axis=2, dtype=np.int8)
    shape = per_card.sum(axis=1, dtype=np.int32)
    high_first = np.sort(r, axis=1)[:, ::-1]
    grouped = np.sort(per_card * 16 + r, axis=1)[:, ::-1] & 15
    flush = (s == s[:, :1]).all(axis=1)
    wheel = (shape == 5) & (high_first[:, 0] == 12) & (high_first[:, 1] == 3)
    straight = ((shape == 5) & (high_first[:, 0] - high_first[:, 4] == 4)) | wheel
    category = _CLASS[shape * 4 + flush * 2 + straight]
    digits = np.where((category == 5)[:, None], high_first, grouped).astype(np.int32)
    tie = digits @ _PLACES
    run = (category == 8) | (category == 4)
    tie = np.where(run, np.where(wheel, 3, high_first[:, 0]) * _PLACES[0], tie)
    high = (category * CLASS_UNIT + tie).astype(np.int64)
    ace_low = np.where(r == 12, 0, r + 1).astype(np.int8)
    low_grouped = np.sort(per_card * 16 + ace_low, axis=1)[:, ::-1] & 15
    low = (shape * CLASS_UNIT + low_grouped.astype(np.int32) @ _PLACES).astype(np.int64)
    return high, low


_PERMUTATIONS = np.array(list(permutations(range(4))), dtype=np.int64)


def canonical(naturals: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """The least code of each row over the 24 renamings of the suits: rows that are the
    same up to suits get the same code (a renaming changes no hand's worth)."""
    r = (naturals >> 2).astype(np.int64)
    s = (naturals & 3).astype(np.int64)
    best = np.full(len(r), np.iinfo(np.int64).max, dtype=np.int64)
    for perm in _PERMUTATIONS:
        renamed = np.sort(r * 4 + perm[s], axis=1)
        code = np.zeros(len(r), dtype=np.int64)
        for col in range(renamed.shape[1]):
            code = code * 52 + renamed[:, col]
        best = np.minimum(best, code)
    return best


def decode(code: npt.NDArray[np.int64], size: int) -> npt.NDArray[np.int64]:
    out = np.zeros((len(code), size), dtype=np.int64)
    rest = code.copy()
    for col in range(size - 1, -1, -1):
        out[:, col] = rest % 52
        rest //= 52
    return out


def brute_codes(
    hands: npt.NDArray[np.integer], wild: Collection[int]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """(best high code, best low code) of each five-card row, every wild card tried as
    every one of the 52 cards.  Rows equal up to suits are tried once."""
    is_wild = np.isin(hands, list(wild))
    wilds = is_wild.sum(axis=1)
    high = np.zeros(len(hands), dtype=np.int64)
    low = np.zeros(len(hands), dtype=np.int64)
    for count in range(int(wilds.max()) + 1):
        rows = np.flatnonzero(wilds == count)
        if not len(rows):
            continue
        order = np.argsort(is_wild[rows], axis=1, kind="stable")
        naturals = np.take_along_axis(hands[rows], order, axis=1)[:, : 5 - count]
        if count == 0:
            high[rows], low[rows] = codes(naturals)
            continue
        classes, inverse = np.unique(canonical(naturals), return_inverse=True)
        reps = decode(classes, 5 - count)
        subs = np.array(list(combinations_with_replacement(range(52), count)), dtype=np.int64)
        best_high = np.empty(len(reps), dtype=np.int64)
        best_low = np.empty(len(reps), dtype=np.int64)
        step = max(1, 1_000_000 // len(subs))
        for start in range(0, len(reps), step):
            part = reps[start : start + step]
            tried = np.concatenate(
                [np.repeat(part, len(subs), axis=0), np.tile(subs, (len(part), 1))], axis=1
            )
            tried_high, tried_low = codes(tried)
            best_high[start : start + step] = tried_high.reshape(len(part), -1).max(axis=1)
            best_low[start : start + step] = tried_low.reshape(len(part), -1).min(axis=1)
        high[rows], low[rows] = best_high[inverse], best_low[inverse]
    return high, low
