"""Coarse classes of a hand, the buckets a draw player thinks in.

Lowball (2-7 and A-5) classes go by the highest card of a hand without a pair
("8-low"); high-hand games (five-card draw) by the usual category; Badugi (four cards) by
how many cards play and, for a four-card badugi, its top card ("4-card 6-high badugi",
"three-card").  A Badugi hand is made when it is a four-card badugi.  ``made`` says whether
a hand is one a player would normally keep: for 2-7 a ten-low or better with no pair,
straight or flush; for A-5 a ten-low or better without a pair; for five-card draw a
straight or better (a hand that cannot be improved by drawing without breaking it).
"""

from __future__ import annotations

from engine import badugi
from engine.cards import Cards, rank_of
from engine.ranking import (
    CARD_KEY,
    FLUSH_SUIT_SUMS,
    SUIT_BITS,
    SUIT_MASK,
    Category,
    Ranking,
    category,
    rank,
    ranking_for,
)
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
BADUGI_CLASSES: tuple[str, ...] = (
    "4-card 4-high badugi", "4-card 5-high badugi", "4-card 6-high badugi",
    "4-card 7-high badugi", "4-card 8-high badugi", "4-card 9-high or worse badugi",
    "three-card", "two-card", "one-card",
)
ALL_CLASSES: tuple[str, ...] = tuple(
    dict.fromkeys(LOWBALL_A5_CLASSES + LOWBALL_27_CLASSES + HIGH_CLASSES + BADUGI_CLASSES)
)
"""Every class once, best lowball first, for ordering tables."""

_LOW_NAMES = {5: "5-low", 6: "6-low", 7: "7-low", 8: "8-low", 9: "9-low", 10: "10-low"}

_HIGH_LABELS = {
    Category.HIGH_CARD: "high card", Category.PAIR: "pair", Category.TWO_PAIR: "two pair",
    Category.TRIPS: "three of a kind", Category.STRAIGHT: "straight",
    Category.FLUSH: "flush", Category.FULL_HOUSE: "full house",
    Category.QUADS: "four of a kind", Category.STRAIGHT_FLUSH: "straight flush",
}
_STRAIGHT_OR_FLUSH = frozenset({Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH})
_BADUGI = Ranking.BADUGI  # an Enum's attribute is slow


def hand_class(cards: Cards, game: Game) -> str | None:
    """The class of a five-card hand under ``game``'s ranking; ``None`` unless five cards.

    The category comes from ``engine.ranking`` (which knows that A-5-4-3-2 is no straight
    in 2-7 and that straights and flushes do not count in A-5); the low classes go by the
    top card, the ace high in 2-7 and low in A-5.  Hands of one rank value are one class,
    so the class is worked out once per value (a few thousand), not once per hand.
    """
    return hand_class_of(cards, ranking_for(game))


def hand_class_of(cards: Cards, ranking: Ranking) -> str | None:
    """``hand_class`` given the game's ranking, which the facts look up once a hand.

    Remembered per rank class only (``_class_index``): a cache keyed by the cards
    themselves (as this was) almost never hit, as the same five cards in another order
    are another key, and its misses cost more than the class."""
    if ranking is _BADUGI:
        return _badugi_class(cards)
    index = _class_index(cards)
    if index is None:
        return None
    classes = _CLASS_OF_INDEX[ranking]
    found = classes.get(index)
    if found is None:
        found = classes[index] = _five_card_class(cards, ranking)
    return found


def _class_index(cards: Cards) -> int | None:
    """The ranking tables' index of five distinct cards (``engine.ranking.rank`` before its
    table look-up: rank multiset and flush, the same for every ranking), ``None`` unless
    five distinct cards of the deck.  Hands of one index have one rank value, so one class
    under each ranking."""
    if len(cards) != 5 or len(set(cards)) != 5:
        return None
    key = CARD_KEY
    try:
        total = key[cards[0]] + key[cards[1]] + key[cards[2]] + key[cards[3]] + key[cards[4]]
    except KeyError:  # not a card of the deck (a joker)
        return None
    return (total >> SUIT_BITS) * 2 + ((total & SUIT_MASK) in FLUSH_SUIT_SUMS)


_CLASS_OF_INDEX: dict[Ranking, dict[int, str]] = {r: {} for r in Ranking}
"""Each ranking's classes by table index, filled as hands of each index are first seen."""
_MADE_OF_INDEX: dict[Ranking, dict[int, bool]] = {r: {} for r in Ranking}
"""``made_hand`` of the same, for the facts' look-up before every draw."""


def _five_card_class(cards: Cards, ranking: Ranking) -> str:
    cat = category(cards, ranking)
    if ranking is Ranking.HIGH:
        return _HIGH_LABELS[cat]
    if cat in _STRAIGHT_OR_FLUSH:
        return STRAIGHT_OR_FLUSH
    if cat is not Category.HIGH_CARD:
        return PAIRED
    if ranking is Ranking.DEUCE_SEVEN:
        top = max(rank_of(c) for c in cards) + 2  # deuce is 2 ... ace is 14
    else:
        top = max((rank_of(c) + 1) % 13 + 1 for c in cards)  # ace is 1 in A-5
    return _LOW_NAMES.get(top, J_LOW_OR_WORSE)


_BADUGI_SIZE_CLASSES = {3: "three-card", 2: "two-card", 1: "one-card"}


def _badugi_class(cards: Cards) -> str | None:
    """A four-card badugi by its top card (ace low), a smaller hand by its size."""
    if len(cards) != badugi.HAND_SIZE or len(set(cards)) != badugi.HAND_SIZE:
        return None
    if min(cards) < 0 or max(cards) > 51:
        return None
    value = rank(cards, Ranking.BADUGI)
    size = badugi.size_of(value)
    if size < badugi.HAND_SIZE:
        return _BADUGI_SIZE_CLASSES[size]
    top = badugi.low_ranks_of(value)[0] + 1  # ace 1, deuce 2 ... king 13
    return f"4-card {top}-high badugi" if top <= 8 else "4-card 9-high or worse badugi"


def is_made(cards: Cards, game: Game) -> bool | None:
    """Whether a hand is a made hand (see the module note); ``None`` if not a whole hand."""
    return made_hand(cards, ranking_for(game))


def made_hand(cards: Cards, ranking: Ranking) -> bool | None:
    """``is_made`` given the game's ranking."""
    if ranking is _BADUGI:
        cls = _badugi_class(cards)
        return None if cls is None else cls in _MADE[ranking]
    index = _class_index(cards)
    if index is None:
        return None
    known = _MADE_OF_INDEX[ranking]
    made = known.get(index)
    if made is None:
        made = known[index] = hand_class_of(cards, ranking) in _MADE.get(ranking, _MADE_LOW)
    return made


_MADE_LOW = frozenset(_LOW_NAMES.values())
_MADE: dict[Ranking, frozenset[str]] = {
    Ranking.BADUGI: frozenset(c for c in BADUGI_CLASSES if c.startswith("4-card")),
    Ranking.HIGH: frozenset(
        ("straight", "flush", "full house", "four of a kind", "straight flush")
    ),
}
