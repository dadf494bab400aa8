"""An independent brute force for wild-card hands: every wild card replaced by every one of the
52 cards (duplicates of held cards included), each resulting five cards judged by a plain
evaluator written here, the best kept.  Nothing of engine/wild.py is used.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from itertools import product

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
