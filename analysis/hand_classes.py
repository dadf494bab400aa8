"""Coarse classes of a five-card hand, the buckets a draw player thinks in.

Lowball (2-7 and A-5) classes go by the highest card of a hand without a pair
("8-low"); high-hand games (five-card draw) by the usual category.  ``made`` says whether
a hand is one a player would normally keep: for 2-7 a ten-low or better with no pair,
straight or flush; for A-5 a ten-low or better without a pair; for five-card draw a
straight or better (a hand that cannot be improved by drawing without breaking it).
"""

from __future__ import annotations

from collections import Counter

from engine.cards import Cards, rank_of, suit_of
from engine.record import Game

STRAIGHT_OR_FLUSH = "straight or flush"
PAIRED = "paired"
J_LOW_OR_WORSE = "J-low or worse"

LOWBALL_27_CLASSES: tuple[str, ...] = (
    "7-low", "8-low", "9-low", "10-low", J_LOW_OR_WORSE, PAIRED, STRAIGHT_OR_FLUSH,
)
LOWBALL_A5_CLASSES: tuple[str, ...] = (
    "5-low", "6-low", "7-low", "8-low", "9-low", "10-low", J_LOW_OR_WORSE, PAIRED,
)
HIGH_CLASSES: tuple[str, ...] = (
    "high card", "pair", "two pair", "three of a kind", "straight", "flush",
    "full house", "four of a kind", "straight flush",
)
ALL_CLASSES: tuple[str, ...] = tuple(
    dict.fromkeys(LOWBALL_A5_CLASSES + LOWBALL_27_CLASSES + HIGH_CLASSES)
)
"""Every class once, best lowball first, for ordering tables."""

_LOW_NAMES = {5: "5-low", 6: "6-low", 7: "7-low", 8: "8-low", 9: "9-low", 10: "10-low"}

Family = str  # "27", "a5" or "high"


def family_of(game: Game) -> Family:
    if game in (Game.TRIPLE_DRAW_27, Game.SINGLE_DRAW_27):
        return "27"
    if game in (Game.TRIPLE_DRAW_A5, Game.SINGLE_DRAW_A5):
        return "a5"
    return "high"


def _shape(cards: Cards) -> tuple[list[int], bool, bool]:
    """Rank counts (largest first), straight (ace high or low), flush."""
    ranks = sorted({rank_of(c) for c in cards})
    counts = sorted(Counter(rank_of(c) for c in cards).values(), reverse=True)
    flush = len({suit_of(c) for c in cards}) == 1
    straight = len(ranks) == 5 and (ranks[4] - ranks[0] == 4 or ranks == [0, 1, 2, 3, 12])
    return counts, straight, flush


def hand_class(cards: Cards, game: Game) -> str | None:
    """The class of a five-card hand under ``game``'s ranking; ``None`` unless five cards."""
    if len(cards) != 5:
        return None
    family = family_of(game)
    counts, straight, flush = _shape(cards)
    if family == "high":
        if straight and flush:
            return "straight flush"
        if counts[0] == 4:
            return "four of a kind"
        if counts[:2] == [3, 2]:
            return "full house"
        if flush:
            return "flush"
        if straight:
            return "straight"
        if counts[0] == 3:
            return "three of a kind"
        if counts[:2] == [2, 2]:
            return "two pair"
        return "pair" if counts[0] == 2 else "high card"
    if counts[0] > 1:
        return PAIRED
    if family == "27":
        wheel = sorted(rank_of(c) for c in cards) == [0, 1, 2, 3, 12]  # ace high in 2-7
        if (straight and not wheel) or flush:
            return STRAIGHT_OR_FLUSH
        top = max(rank_of(c) for c in cards) + 2  # deuce is 2 ... ace is 14
    else:
        top = max((rank_of(c) + 1) % 13 + 1 for c in cards)  # ace is 1 in A-5
    return _LOW_NAMES.get(top, J_LOW_OR_WORSE)


def is_made(cards: Cards, game: Game) -> bool | None:
    """Whether a five-card hand is a made hand (see the module note); ``None`` if not five."""
    cls = hand_class(cards, game)
    if cls is None:
        return None
    if family_of(game) == "high":
        return cls in ("straight", "flush", "full house", "four of a kind", "straight flush")
    return cls in _LOW_NAMES.values()
