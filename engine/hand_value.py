"""What a shown hand is worth under a game's rules: its ranking, its wild cards, and in a
high-low game the value of its low as well.

The replay and the dealer both judge showdowns; the rules (``engine.rules.GameRules``) say
how, so neither holds a branch for wild cards or split pots.  Values are ``engine.ranking``'s:
smaller is better, equal values split.
"""

from __future__ import annotations

from engine.cards import Cards
from engine.ranking import rank
from engine.rules import GameRules
from engine.wild import rank_high, rank_low


def high_value(cards: Cards, rules: GameRules) -> int:
    """The hand's value for the pot (the high half of a high-low pot), wild cards counted."""
    if rules.wild is not None:
        return rank_high(cards, rules.wild)
    return rank(cards, rules.ranking)


def low_value(cards: Cards, rules: GameRules) -> int | None:
    """The hand's ace-to-five low for the low half of a high-low pot (straights and flushes
    do not count against it), wild cards counted; ``None`` in a game with no low half."""
    if rules.low is None:
        return None
    if rules.wild is not None:
        return rank_low(cards, rules.wild)
    return rank(cards, rules.low)
