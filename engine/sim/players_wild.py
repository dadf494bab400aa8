"""The dealer's players when cards are wild: what they keep and how strong they feel.

``engine.sim.players_model`` reads ranks and suits of natural cards; a joker has neither, and a
deuce that is wild is not a deuce.  Here the wild cards are always kept and the hand is
judged by what it makes (``engine.wild``): a stated model, like the rest of the players'.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.cards import Cards
from engine.sim.players_model import keep_high
from engine.wild import HIGH_CATEGORIES, Wild, category_high, rank_high, wild_cards

_PAT_FROM = HIGH_CATEGORIES.index(category_high(rank_high((48, 45, 42, 39, 36), None)))
"""A made straight or better stands pat (the index of a natural straight's class)."""


def keep_wild(cards: Cards, wild: Wild, rng: random.Random, max_discard: int = 5) -> Cards:
    """The wild cards, and of the naturals: a made straight or better whole, else the
    sets and pairs, else four to a flush with the wild cards, else the highest card."""
    wilds = wild_cards(wild)
    jokers = [c for c in cards if c in wilds]
    if not jokers:
        return keep_high(cards, rng, max_discard)
    naturals = [c for c in cards if c not in wilds]
    made = HIGH_CATEGORIES.index(category_high(rank_high(cards, wild)))
    if made >= _PAT_FROM:
        return cards
    counts = Counter(c >> 2 for c in naturals)
    suits = Counter(c & 3 for c in naturals)
    paired = {r for r, n in counts.items() if n >= 2}
    kept: list[int]
    if paired:
        kept = jokers + [c for c in naturals if c >> 2 in paired]
    elif naturals and max(suits.values()) + len(jokers) >= 4:
        suit = max(suits, key=lambda s: suits[s])
        kept = jokers + [c for c in naturals if c & 3 == suit]
    elif naturals:
        kept = [*jokers, max(naturals, key=lambda c: c >> 2)]
    else:
        kept = list(cards)
    while 5 - len(kept) > max_discard:
        kept.append(max((c for c in naturals if c not in kept), key=lambda c: c >> 2))
    return tuple(c for c in cards if c in kept)


def wild_strength(cards: Cards, wild: Wild, draws_left: int, rng: random.Random) -> float:
    """A rough [0, 1] sense of the hand: its made class, drawing hands pulled to the middle."""
    made = HIGH_CATEGORIES.index(category_high(rank_high(cards, wild)))
    base = 0.1 + 0.9 * made / (len(HIGH_CATEGORIES) - 1)
    if draws_left:
        base = 0.3 + 0.6 * base
    return min(1.0, max(0.0, base + rng.uniform(-0.1, 0.1)))
