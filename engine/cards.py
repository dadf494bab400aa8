"""Cards as small ints, because the hot loops (ranking, equity, dealing) index tables with them.

A card is ``rank * 4 + suit`` with rank 0..12 for deuce..ace and suit 0..3 for
clubs, diamonds, hearts, spades.  The text form is the one every site writes:
``7s``, ``Th``, ``Ad`` (``10h`` is accepted on input).

Home games add jokers (engine/wild.py): cards 52 and 53, both written ``Jk``, so a text
names them by order (the first ``Jk`` is 52, a second 53).  They are outside ``DECK``,
which stays the 52 cards every game but a joker game deals; rank_of/suit_of mean nothing
for them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TypeAlias

Card: TypeAlias = int
Cards: TypeAlias = tuple[int, ...]

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
DECK: Cards = tuple(range(52))
JOKER: Card = 52
SECOND_JOKER: Card = 53
JOKERS: Cards = (JOKER, SECOND_JOKER)
JOKER_TEXT = "Jk"

_RANK_OF_CHAR = {c: i for i, c in enumerate(RANK_CHARS)} | {
    c.lower(): i for i, c in enumerate(RANK_CHARS)
}
_SUIT_OF_CHAR = {c: i for i, c in enumerate(SUIT_CHARS)} | {
    c.upper(): i for i, c in enumerate(SUIT_CHARS)
}
_CARD_TEXT = (*(r + s for r in RANK_CHARS for s in SUIT_CHARS), JOKER_TEXT, JOKER_TEXT)
_SPLIT = re.compile(r"[\s,]+")
_TOKEN = re.compile(r"10[cdhsCDHS]|[2-9TJQKAtjqka][cdhsCDHS]|[Jj][Kk]")


class CardError(ValueError):
    """A card text that is not a card, or a card repeated where cards must be distinct."""


def rank_of(card: Card) -> int:
    return card >> 2


def suit_of(card: Card) -> int:
    return card & 3


def make_card(rank: int, suit: int) -> Card:
    return rank * 4 + suit


def parse_card(text: str) -> Card:
    """One card; ``Jk`` is the first joker (52): only parse_cards, which sees the whole
    text, can tell a second joker."""
    t = text.strip()
    if t[:2] == "10":
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in _RANK_OF_CHAR or t[1] not in _SUIT_OF_CHAR:
        if t.lower() == "jk":
            return JOKER
        raise CardError(f"not a card: {text!r} (expected rank 2-9TJQKA and suit cdhs, like 7s)")
    return _RANK_OF_CHAR[t[0]] * 4 + _SUIT_OF_CHAR[t[1]]


def parse_cards(text: str, *, distinct: bool = True) -> Cards:
    """Read ``7s5d4h3c2s``, ``7s 5d 4h 3c 2s`` or ``7s,5d``; an empty text is no cards.

    ``Jk`` is a joker: the first of the text 52, a second 53, a third a CardError (no deck
    holds three), whatever ``distinct`` says."""
    tokens: list[str] = []
    for chunk in _SPLIT.split(text.strip()):
        if not chunk:
            continue
        pos = 0
        while pos < len(chunk):
            m = _TOKEN.match(chunk, pos)
            if m is None:
                raise CardError(f"not a card: {chunk[pos:pos + 3]!r} in {text!r}")
            tokens.append(m.group())
            pos = m.end()
    cards = tuple(parse_card(t) for t in tokens)
    if JOKER in cards:
        cards = _number_jokers(cards, text)
    if distinct:
        check_distinct(cards)
    return cards


def _number_jokers(cards: Cards, text: str) -> Cards:
    """The second ``Jk`` of a text is the second joker: both print the same."""
    jokers = iter(JOKERS)
    out: list[Card] = []
    for card in cards:
        if card == JOKER:
            card = next(jokers, -1)
            if card < 0:
                raise CardError(f"more than two jokers (Jk) in {text!r}")
        out.append(card)
    return tuple(out)


def number_jokers(groups: Sequence[Cards]) -> list[Cards]:
    """Several texts read apart (the hands of a comparison): the first joker written in any
    of them is 52, the next 53, a third a CardError."""
    jokers = iter(JOKERS)
    out: list[Cards] = []
    for group in groups:
        renumbered: list[Card] = []
        for card in group:
            if card in JOKERS:
                card = next(jokers, -1)
                if card < 0:
                    raise CardError("more than two jokers (Jk) in the hands")
            renumbered.append(card)
        out.append(tuple(renumbered))
    return out


def check_distinct(cards: Iterable[Card]) -> None:
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            raise CardError(f"card {format_card(c)} appears twice")
        seen.add(c)


def format_card(card: Card) -> str:
    if not 0 <= card < 54:
        raise CardError(f"not a card number: {card}")
    return _CARD_TEXT[card]


def format_cards(cards: Iterable[Card], sep: str = " ") -> str:
    return sep.join(format_card(c) for c in cards)
