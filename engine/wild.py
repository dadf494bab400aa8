"""Wild cards of the home games (RULES.md, "Home variants"): which cards are wild, the deck,
and the high and ace-to-five low rankings with wild cards.

A wild card stands for any card, a duplicate of a held card included, so five of a kind is
the best high hand and a flush may hold a pair (``As Ks 9s 4s Jk`` is the flush
A-A-K-9-4, which beats A-K-Q-9-4: flushes compare card by card from the top).  In a low a
wild card is the lowest rank not already held.  Cards speak: a hand is worth the best hand
its wild cards can make, and a natural hand does not beat an equal wild one.

Values are small ints and SMALLER IS BETTER, as in engine/ranking.py: the winner is the
minimum and equal values tie.  High values live on one scale for every wild setting (every
five ranks, with or without five of one suit, five of a kind included), so a hand without
wild cards has the same value whatever the setting; low values are engine/ranking.py's
ace-to-five values themselves.

Why a hand's value depends only on its natural cards' ranks, whether they are all of one
suit, and how many wild cards it holds: a wild card can take any rank and any suit, so the
suits of the naturals matter only through "could the five be a flush".  The best hand for
each such key is the best over every choice of ranks for the wild cards (at most 1,820
choices, four wild cards), computed once per key and cached.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from enum import StrEnum
from functools import cache
from itertools import combinations_with_replacement

from engine.cards import DECK, JOKER, JOKERS, RANK_CHARS, Card, CardError, Cards, make_card
from engine.ranking import CLASS_COUNT, Ranking, example_hand, rank

__all__ = [
    "HIGH_CATEGORIES",
    "HighCategory",
    "HighScale",
    "Wild",
    "category_high",
    "deck_for",
    "describe_high",
    "describe_low",
    "high_scale",
    "high_values",
    "low_ranks",
    "made_high",
    "rank_high",
    "rank_low",
    "wild_cards",
    "winners_high",
    "winners_low",
]


class Wild(StrEnum):
    """The wild-card settings of a home game (None where a setting is asked for: no wild)."""

    JOKER = "joker"  # one joker added: 53 cards
    TWO_JOKERS = "two-jokers"  # two jokers added: 54 cards
    DEUCES = "deuces"  # the four 2s
    ONE_EYED_JACKS = "one-eyed-jacks"  # the jack of spades and the jack of hearts


JACK = 9
_WILD_CARDS: dict[Wild | None, frozenset[Card]] = {
    None: frozenset(),
    Wild.JOKER: frozenset({JOKER}),
    Wild.TWO_JOKERS: frozenset(JOKERS),
    Wild.DEUCES: frozenset(make_card(0, suit) for suit in range(4)),
    Wild.ONE_EYED_JACKS: frozenset({make_card(JACK, 3), make_card(JACK, 2)}),
}
_DECKS: dict[Wild | None, Cards] = {
    None: DECK,
    Wild.JOKER: (*DECK, JOKER),
    Wild.TWO_JOKERS: (*DECK, *JOKERS),
    Wild.DEUCES: DECK,
    Wild.ONE_EYED_JACKS: DECK,
}


def wild_cards(wild: Wild | None) -> frozenset[Card]:
    return _WILD_CARDS[wild]


def deck_for(wild: Wild | None) -> Cards:
    """The cards dealt: 52, plus the jokers of a joker game."""
    return _DECKS[wild]


class HighCategory(StrEnum):
    """High hand classes, best last; FIVE_OF_A_KIND exists only with wild cards."""

    HIGH_CARD = "high card"
    PAIR = "pair"
    TWO_PAIR = "two pair"
    TRIPS = "three of a kind"
    STRAIGHT = "straight"
    FLUSH = "flush"
    FULL_HOUSE = "full house"
    QUADS = "four of a kind"
    STRAIGHT_FLUSH = "straight flush"
    FIVE_OF_A_KIND = "five of a kind"


HIGH_CATEGORIES: tuple[HighCategory, ...] = tuple(HighCategory)  # index = strength, 0 weakest

# --- the one high scale: every five ranks (a rank up to five times), suited or not ---------

Made = tuple[tuple[int, ...], bool]  # (five ranks high to low, all one suit)


def _strength(ranks: tuple[int, ...], suited: bool) -> tuple[int, tuple[int, ...]]:
    """How strong five ranks are (bigger is stronger): the class, then what breaks ties.

    A suited hand with a pair is a flush (it exists only through a wild duplicate) and
    compares card by card from the top like every flush."""
    counts = Counter(ranks)
    shape = sorted(counts.values(), reverse=True)
    grouped = tuple(sorted(ranks, key=lambda r: (-counts[r], -r)))
    distinct = sorted(counts)
    top: int | None = None
    if len(distinct) == 5:
        if distinct[4] - distinct[0] == 4:
            top = distinct[4]
        elif distinct == [0, 1, 2, 3, 12]:
            top = 3  # the wheel: five high
    if shape[0] == 5:
        return (9, grouped[:1])
    if top is not None:
        return (8 if suited else 4, (top,))
    if shape[0] == 4:
        return (7, grouped)
    if shape[:2] == [3, 2]:
        return (6, grouped)
    if suited:
        return (5, tuple(sorted(ranks, reverse=True)))
    return ({3: 3, 2: 2 if shape[:2] == [2, 2] else 1, 1: 0}[shape[0]], grouped)


class HighScale:
    """made hand -> value, value -> made hand and class, ranking.py's high value -> value.

    Built on first use (a quarter second), not at import: most programs never rank a
    wild card."""

    def __init__(self) -> None:
        made: list[Made] = []
        for combo in combinations_with_replacement(range(12, -1, -1), 5):
            made.append((combo, False))
            made.append((combo, True))
        keyed = sorted(((_strength(r, s), (r, s)) for r, s in made), reverse=True)
        self.value: dict[Made, int] = {}
        self.example: list[Made] = []
        self.category: list[int] = []
        previous: object = None
        for key, hand in keyed:
            if key != previous:
                self.example.append(hand)
                self.category.append(key[0])
                previous = key
            self.value[hand] = len(self.example) - 1
        natural: list[int] = []
        for value in range(CLASS_COUNT[Ranking.HIGH]):
            ranks, flush = example_hand(value, Ranking.HIGH)
            natural.append(self.value[(tuple(sorted(ranks, reverse=True)), flush)])
        self.natural = tuple(natural)


@cache
def high_scale() -> HighScale:
    """The one high scale (engine/sim/wild_batch.py builds its tables from it)."""
    return HighScale()


def high_values() -> int:
    """Values on the high scale: 0 (five aces) to high_values() - 1 (7-5-4-3-2)."""
    return len(high_scale().example)


@cache
def _best_high(naturals: tuple[int, ...], suited: bool, wilds: int) -> int:
    """The best value of these natural ranks (high to low) with ``wilds`` wild cards."""
    value = high_scale().value
    return min(
        value[(tuple(sorted(naturals + combo, reverse=True)), suited)]
        for combo in combinations_with_replacement(range(13), wilds)
    )


def _split(cards: Sequence[int], wild: Wild | None) -> tuple[list[int], int]:
    """The natural cards and the number of wild ones, after checking the hand."""
    if len(cards) != 5 or len(set(cards)) != 5:
        raise CardError(f"a hand is five distinct cards, got {len(cards)}: {list(cards)}")
    wilds = _WILD_CARDS[wild]
    naturals = [c for c in cards if c not in wilds]
    if any(not 0 <= c < 52 for c in naturals):
        raise CardError(f"not cards of this deck ({wild or 'no wild cards'}): {list(cards)}")
    return naturals, 5 - len(naturals)


def rank_high(cards: Cards | Sequence[int], wild: Wild | None) -> int:
    """The high value of five distinct cards: smaller is better, equal is a tie."""
    naturals, wilds = _split(cards, wild)
    if not wilds:
        return high_scale().natural[rank(naturals, Ranking.HIGH)]
    ranks = tuple(sorted((c >> 2 for c in naturals), reverse=True))
    return _best_high(ranks, len({c & 3 for c in naturals}) == 1, wilds)


def made_high(value: int) -> Made:
    """The made hand of a high value: its five ranks high to low and whether it is suited."""
    return high_scale().example[value]


def category_high(value: int) -> HighCategory:
    return HIGH_CATEGORIES[high_scale().category[value]]


def winners_high(hands: Sequence[Cards | Sequence[int]], wild: Wild | None) -> list[int]:
    """0-based indices of the best high hand(s), all of them when they tie."""
    return _winners([rank_high(h, wild) for h in hands])


def _winners(values: Sequence[int]) -> list[int]:
    if not values:
        return []
    best = min(values)
    return [i for i, v in enumerate(values) if v == best]


# --- ace-to-five low ------------------------------------------------------------------------

_LOW_ORDER = (12, *range(12))  # ace, deuce, three, ... king: the order a wild fills a low


def low_ranks(naturals: Iterable[int], wilds: int) -> tuple[int, ...]:
    """The five ranks a low plays: the naturals' ranks and, for each wild card, the lowest
    rank not already held (a pair never gets better by pairing again)."""
    ranks = [c >> 2 for c in naturals]
    held = set(ranks)
    fill = [r for r in _LOW_ORDER if r not in held][:wilds]
    return (*ranks, *fill)


def rank_low(cards: Cards | Sequence[int], wild: Wild | None) -> int:
    """The ace-to-five low value (engine/ranking.py's A-5 scale): smaller is better."""
    naturals, wilds = _split(cards, wild)
    if not wilds:
        return rank(naturals, Ranking.ACE_FIVE)
    # Any five distinct cards of these ranks have the same A-5 value (suits never count).
    ranks = low_ranks(naturals, wilds)
    seen: Counter[int] = Counter()
    stand_in: list[int] = []
    for r in ranks:
        stand_in.append(make_card(r, seen[r]))
        seen[r] += 1
    return rank(stand_in, Ranking.ACE_FIVE)


def winners_low(hands: Sequence[Cards | Sequence[int]], wild: Wild | None) -> list[int]:
    """0-based indices of the best ace-to-five low(s), all of them when they tie."""
    return _winners([rank_low(h, wild) for h in hands])


def describe_low(cards: Cards | Sequence[int], wild: Wild | None) -> str:
    """The low a hand plays, highest card first, ace as A: "5-4-3-2-A", "pair of nines"."""
    naturals, wilds = _split(cards, wild)
    ranks = low_ranks(naturals, wilds)
    counts = Counter(ranks)
    if max(counts.values()) == 1:
        ordered = sorted(ranks, key=lambda r: (r + 1) % 13, reverse=True)
        return "-".join("A" if r == 12 else RANK_CHARS[r] for r in ordered)
    return _words(*_strength(tuple(sorted(ranks, reverse=True)), False))


# --- words ----------------------------------------------------------------------------------

_SINGULAR = ("deuce", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
             "jack", "queen", "king", "ace")  # fmt: skip
_PLURAL = ("deuces", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines",
           "tens", "jacks", "queens", "kings", "aces")  # fmt: skip


def _dashed(ranks: Iterable[int]) -> str:
    return "-".join(RANK_CHARS[r] for r in sorted(ranks, reverse=True))


def _words(category: int, ties: tuple[int, ...]) -> str:
    g = ties
    match category:
        case 9:
            return f"five {_PLURAL[g[0]]}"
        case 8:
            return f"{_SINGULAR[g[0]]}-high straight flush"
        case 7:
            return f"four {_PLURAL[g[0]]}"
        case 6:
            return f"{_PLURAL[g[0]]} full of {_PLURAL[g[3]]}"
        case 5:
            return f"{_SINGULAR[g[0]]}-high flush, {_dashed(g)}"
        case 4:
            return f"{_SINGULAR[g[0]]}-high straight"
        case 3:
            return f"three {_PLURAL[g[0]]}"
        case 2:
            return f"two pair, {_PLURAL[g[0]]} and {_PLURAL[g[2]]}"
        case 1:
            return f"pair of {_PLURAL[g[0]]}"
    return f"{_SINGULAR[g[0]]} high, {_dashed(g)}"


def describe_high(cards: Cards | Sequence[int], wild: Wild | None) -> str:
    """A player's words for the best high hand the cards make: "five kings", "ace-high
    straight flush", "ace-high flush, A-A-K-9-4", "queens full of fours"."""
    ranks, suited = made_high(rank_high(cards, wild))
    return _words(*_strength(ranks, suited))
