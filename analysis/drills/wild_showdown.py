"""The "which hand wins" drill with wild cards: five of a kind against a straight flush, a
wild card making a flush (a paired one, A-A-K-9-4, when the wild card doubles an ace), close
calls inside one class, and random deals from the wild deck.

Each question names its wild cards (jokers, deuces or one-eyed jacks) and the engine is the
referee (``engine.wild.winners_high``).  Hands are built for their topic from ranks and
suits, and each built hand is checked by the engine to be of the class it was built for, so
a topic produces what it says (a generator that draws a card the deck lacks simply tries
again).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from analysis.drills.showdown import ShowdownFeedback, check_table
from engine.cards import CardError, Cards, format_cards
from engine.sim.scoring import WILD_WORDS
from engine.wild import (
    HighCategory,
    Wild,
    category_high,
    deck_for,
    describe_high,
    rank_high,
    wild_cards,
    winners_high,
)

WILD_GAME = "wild"  # the drill answers' game: wild-card high hands, whatever the wild cards

RANDOM = "wild_random"
FIVE_VS_STRAIGHT_FLUSH = "five_vs_straight_flush"
WILD_FLUSH = "wild_flush"
CLOSE = "wild_close"

TOPIC_LABELS = {
    RANDOM: "random deals with wild cards",
    FIVE_VS_STRAIGHT_FLUSH: "five of a kind against a straight flush",
    WILD_FLUSH: "a wild card making a flush",
    CLOSE: "close calls with wild cards",
}
TOPICS = (RANDOM, FIVE_VS_STRAIGHT_FLUSH, WILD_FLUSH, CLOSE)

DECK_WORDS = {
    Wild.JOKER: "one joker (Jk) in a 53-card deck",
    Wild.TWO_JOKERS: "two jokers (Jk) in a 54-card deck",
    Wild.DEUCES: "the four deuces",
    Wild.ONE_EYED_JACKS: "the one-eyed jacks, J♠ and J♥",
}


@dataclass(frozen=True)
class WildQuestion:
    """Hands to compare under ``wild``; the names are "Hand 1".. (generated only)."""

    wild: Wild
    topic: str
    hands: tuple[Cards, ...]
    names: tuple[str, ...]
    source: str = "generated"

    def __post_init__(self) -> None:
        check_table(self.hands, self.names)
        for h in self.hands:
            rank_high(h, self.wild)  # five distinct cards of the deck or CardError

    @property
    def winners(self) -> frozenset[int]:
        return frozenset(winners_high(self.hands, self.wild))


def describe(q: WildQuestion, hand: Cards) -> str:
    """"five kings (Jk wild)": the made hand and the wild cards it used."""
    wild = [c for c in hand if c in wild_cards(q.wild)]
    made = describe_high(hand, q.wild)
    return f"{made} ({format_cards(wild)} wild)" if wild else f"{made} (natural)"


def _why(q: WildQuestion, best: Cards, other: Cards) -> str:
    a, b = category_high(rank_high(best, q.wild)), category_high(rank_high(other, q.wild))
    da, db = describe_high(best, q.wild), describe_high(other, q.wild)
    if rank_high(best, q.wild) == rank_high(other, q.wild):
        return f"both make {da}: cards speak, a wild hand ties a natural one"
    if a is not b:
        return f"{da} beats {db}: {a.value} is above {b.value}"
    if a is HighCategory.FLUSH:
        return f"{da} beats {db}: flushes compare card by card from the top"
    return f"{da} beats {db}"


def reasons(q: WildQuestion) -> tuple[str, ...]:
    """One line per other hand: why the (first) best hand beats it, or ties with it."""
    values = [rank_high(h, q.wild) for h in q.hands]
    order = sorted(range(len(q.hands)), key=lambda i: (values[i], i))
    best = order[0]
    out = []
    for i in order[1:]:
        link = "and" if values[i] == values[best] else "over"
        out.append(f"{q.names[best]} {link} {q.names[i]}: {_why(q, q.hands[best], q.hands[i])}")
    return tuple(out)


def check(q: WildQuestion, picked: Collection[int]) -> ShowdownFeedback:
    """Right when the picked hands are exactly the winners (every one of them on a tie)."""
    chosen = frozenset(picked)
    return ShowdownFeedback(chosen == q.winners, q.winners, chosen, reasons(q))


# --- building hands -------------------------------------------------------------------------


class _Deck:
    """The cards still free in one question, and the wild ones among them."""

    def __init__(self, wild: Wild, rng: random.Random) -> None:
        self.wild = wild
        self.rng = rng
        self.wilds = set(wild_cards(wild))
        self.free = set(deck_for(wild))

    def natural(self, rank: int, suit: int | None = None) -> int:
        suits = [suit] if suit is not None else self.rng.sample(range(4), 4)
        for s in suits:
            card = rank * 4 + s
            if card in self.free and card not in self.wilds:
                return card
        raise CardError(f"no free natural card of rank {rank}")

    def wild_card(self) -> int:
        left = sorted(self.wilds & self.free)
        if not left:
            raise CardError("no wild card left")
        return self.rng.choice(left)

    def take(self, cards: Sequence[int], want: HighCategory) -> Cards:
        """These cards, once checked free, distinct and of the class wanted."""
        hand = tuple(cards)
        if len(set(hand)) != 5 or not set(hand) <= self.free:
            raise CardError("a card is taken twice")
        if category_high(rank_high(hand, self.wild)) is not want:
            raise CardError(f"built a {category_high(rank_high(hand, self.wild))}, not {want}")
        self.free -= set(hand)
        hand_list = list(hand)
        self.rng.shuffle(hand_list)
        return tuple(hand_list)

    def random_hand(self) -> Cards:
        return tuple(self.rng.sample(sorted(self.free), 5))


def _low_ranks(deck: _Deck) -> list[int]:
    """Ranks with natural cards in this deck (no deuce when deuces are wild)."""
    return [r for r in range(13) if any(r * 4 + s not in deck.wilds for s in range(4))]


def _five(deck: _Deck) -> Cards:
    rank = deck.rng.choice(_low_ranks(deck))
    wilds = deck.rng.randint(1, min(2, len(deck.wilds)))
    cards = [deck.wild_card() for _ in range(wilds)]
    cards = list(dict.fromkeys(cards))
    suits = deck.rng.sample(range(4), 4)
    for s in suits:
        if len(cards) == 5:
            break
        card = rank * 4 + s
        if card in deck.free and card not in deck.wilds:
            cards.append(card)
    return deck.take(cards, HighCategory.FIVE_OF_A_KIND)


def _straight(deck: _Deck, suited: bool, wilds: int, top: int | None = None) -> list[int]:
    if top is None:
        top = deck.rng.randrange(4, 13)  # six-high to ace-high (the wheel is rarer on purpose)
    ranks = list(range(top - 4, top + 1))
    suit = deck.rng.randrange(4)
    holes = set(deck.rng.sample(range(5), wilds))
    cards = []
    for i, r in enumerate(ranks):
        if i in holes:
            cards.append(deck.wild_card())
        else:
            cards.append(deck.natural(r, suit if suited else None))
    return cards


def _straight_flush(deck: _Deck) -> Cards:
    wilds = deck.rng.choice((0, 1, 1))
    return deck.take(_straight(deck, True, wilds), HighCategory.STRAIGHT_FLUSH)


def _flush(deck: _Deck, wilds: int) -> Cards:
    suit = deck.rng.randrange(4)
    ranks = deck.rng.sample(_low_ranks(deck), 5 - wilds)
    cards = [deck.natural(r, suit) for r in ranks] + [deck.wild_card() for _ in range(wilds)]
    return deck.take(cards, HighCategory.FLUSH)


def _grouped(deck: _Deck, shape: Sequence[int], want: HighCategory, wilds: int) -> Cards:
    """Groups of ranks (3, 2 for a full house), ``wilds`` of the cards wild."""
    ranks = deck.rng.sample(_low_ranks(deck), len(shape))
    cards: list[int] = []
    for r, k in zip(ranks, shape, strict=True):
        suits = deck.rng.sample(range(4), 4)
        picked = [r * 4 + s for s in suits if r * 4 + s in deck.free and r * 4 + s not in
                  deck.wilds][:k]  # fmt: skip
        cards.extend(picked)
    cards = cards[wilds:] + [deck.wild_card() for _ in range(wilds)]  # a wild in the big group
    return deck.take(cards, want)


_MAKERS: dict[HighCategory, Callable[[_Deck, int], Cards]] = {
    HighCategory.TRIPS: lambda d, w: _grouped(d, (3, 1, 1), HighCategory.TRIPS, w),
    HighCategory.STRAIGHT: lambda d, w: d.take(_straight(d, False, w), HighCategory.STRAIGHT),
    HighCategory.FLUSH: _flush,
    HighCategory.FULL_HOUSE: lambda d, w: _grouped(d, (3, 2), HighCategory.FULL_HOUSE, w),
    HighCategory.QUADS: lambda d, w: _grouped(d, (4, 1), HighCategory.QUADS, w),
}


def _hand_of(deck: _Deck, want: HighCategory) -> Cards:
    """A hand of the class, wild or natural (a wild card when one is left, mostly)."""
    wilds = 1 if deck.wilds & deck.free and deck.rng.random() < 0.6 else 0
    return _MAKERS[want](deck, wilds)


def _fill(deck: _Deck, hands: list[Cards], n: int, classes: Sequence[HighCategory]) -> None:
    """More hands of these classes (nothing is taken from the deck by a failed try)."""
    while len(hands) < n:
        for _ in range(30):
            try:
                hands.append(_hand_of(deck, deck.rng.choice(classes)))
                break
            except CardError:
                continue
        else:
            raise CardError(f"no room for another hand of {', '.join(classes)}")


def gen_five_vs_straight_flush(deck: _Deck, n: int) -> list[Cards]:
    hands = [_five(deck), _straight_flush(deck)]
    fillers = (HighCategory.QUADS, HighCategory.FULL_HOUSE, HighCategory.FLUSH, HighCategory.TRIPS)
    _fill(deck, hands, n, fillers)
    return hands


def gen_wild_flush(deck: _Deck, n: int) -> list[Cards]:
    """A wild card completing a flush, against a natural flush, a straight or a full house
    (so the flush does not always win)."""
    hands = [_flush(deck, 1)]
    rival = deck.rng.choice((HighCategory.FLUSH, HighCategory.STRAIGHT, HighCategory.FULL_HOUSE))
    hands.append(_flush(deck, 0) if rival is HighCategory.FLUSH else _hand_of(deck, rival))
    _fill(deck, hands, n, (HighCategory.STRAIGHT, HighCategory.TRIPS, HighCategory.FLUSH))
    return hands


def gen_close(deck: _Deck, n: int) -> list[Cards]:
    """Every hand of one class, some made with a wild card; now and then a natural straight
    and the same straight made with a wild card, which tie (cards speak)."""
    want = deck.rng.choice(
        (HighCategory.TRIPS, HighCategory.STRAIGHT, HighCategory.FLUSH, HighCategory.FULL_HOUSE)
    )
    hands: list[Cards] = []
    if deck.rng.random() < 0.3:
        want = HighCategory.STRAIGHT
        top = deck.rng.randrange(8, 13)  # ten- to ace-high: room for lower ones behind
        hands.append(deck.take(_straight(deck, False, 0, top), want))
        hands.append(deck.take(_straight(deck, False, 1, top), want))
    _fill(deck, hands, n, (want,))
    return hands


def gen_random(deck: _Deck, n: int) -> list[Cards]:
    """A random deal from the wild deck, at least one wild card in it."""
    hands: list[Cards] = []
    while len(hands) < n:
        hand = deck.random_hand()
        deck.free -= set(hand)
        hands.append(hand)
    if not any(c in deck.wilds for h in hands for c in h):
        raise CardError("no wild card dealt")
    return hands


GENERATORS: dict[str, Callable[[_Deck, int], list[Cards]]] = {
    RANDOM: gen_random,
    FIVE_VS_STRAIGHT_FLUSH: gen_five_vs_straight_flush,
    WILD_FLUSH: gen_wild_flush,
    CLOSE: gen_close,
}


def generate(topic: str, n: int, rng: random.Random, wild: Wild | None = None) -> WildQuestion:
    """A question of ``topic`` with ``n`` hands under ``wild`` (a random setting if None)."""
    if topic not in GENERATORS:
        raise ValueError(f"no wild-card topic {topic!r}")
    if not 2 <= n <= 6:
        raise ValueError(f"2 to 6 hands, not {n}")
    for _ in range(200):
        setting = wild or rng.choice(list(Wild))
        try:
            hands = GENERATORS[topic](_Deck(setting, rng), n)
        except CardError:
            continue  # the cards drawn so far blocked a hand: build again
        rng.shuffle(hands)
        names = tuple(f"Hand {i + 1}" for i in range(len(hands)))
        return WildQuestion(setting, topic, tuple(hands), names)
    raise RuntimeError(f"could not build a {topic} question")  # pragma: no cover


def caption(q: WildQuestion) -> str:
    return f"High, {WILD_WORDS[q.wild]}: {DECK_WORDS[q.wild]}"
