"""One comparison line of ``drawlab compare``: text in, winning indices out, or a reason why not.

The CLI only prints; every rule about what a valid line is lives here so that the drills and
any other front end read hands the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from engine.cards import (
    JOKERS,
    RANK_CHARS,
    SUIT_CHARS,
    CardError,
    Cards,
    format_card,
    number_jokers,
    parse_cards,
)
from engine.ranking import Ranking, hand_size_of, winners
from engine.wild import Wild, deck_for, winners_high, winners_low

MIN_HANDS = 2
MAX_HANDS = 6


# Every two-character card text, for the fast path of parse_hand (the common, clean input).
_CARD_OF_TEXT = {
    r + s: rank_index * 4 + suit
    for rank_index, rank_char in enumerate(RANK_CHARS)
    for r in {rank_char, rank_char.lower()}
    for suit, suit_char in enumerate(SUIT_CHARS)
    for s in (suit_char, suit_char.upper())
}


_SIZE_WORDS = {4: "four", 5: "five"}


def parse_hand(text: str, size: int = 5) -> Cards:
    """Five distinct cards (``size``: four in Badugi), with or without spaces: ``7s5d4h3c2s``
    or ``7s 5d 4h 3c 2s``."""
    t = text.replace(" ", "")
    if len(t) == 10 and size == 5:
        get = _CARD_OF_TEXT.get
        fast = (get(t[0:2]), get(t[2:4]), get(t[4:6]), get(t[6:8]), get(t[8:10]))
        if None not in fast and len(set(fast)) == 5:
            return cast(Cards, fast)  # None was ruled out just above
    cards = parse_cards(text)  # the careful reader, which also words the errors
    if len(cards) != size:
        shown = text.strip() or "(nothing)"
        words = _SIZE_WORDS.get(size, str(size))
        raise CardError(f"a hand is {words} cards, got {len(cards)} in {shown!r}")
    return cards


def parse_hands(texts: Sequence[str], size: int = 5) -> list[Cards]:
    """2-6 hands of ``size`` cards, no card in two of them.  Jokers (``Jk``) are numbered
    across the hands: the first one written is 52, the next 53."""
    if not MIN_HANDS <= len(texts) <= MAX_HANDS:
        raise ValueError(f"expected {MIN_HANDS} to {MAX_HANDS} hands, got {len(texts)}")
    hands = [parse_hand(t.strip(), size) for t in texts]
    if any(c in JOKERS for hand in hands for c in hand):
        hands = number_jokers(hands)
    seen: dict[int, int] = {}
    for i, hand in enumerate(hands):
        for card in hand:
            if card in seen:
                raise CardError(f"card {format_card(card)} is in hand {seen[card]} and hand {i}")
            seen[card] = i
    return hands


def split_args(args: Sequence[str], size: int = 5) -> list[str]:
    """Command-line words to hand texts: each word is a hand, except when every word is a
    single card (``7s 5d 4h 3c 2s 8s ...`` unquoted): then they are taken five at a time
    (``size`` at a time: four in Badugi)."""
    if args and all(len(parse_cards_or_none(a)) == 1 for a in args):
        if len(args) % size:
            words = _SIZE_WORDS.get(size, str(size))
            raise ValueError(f"{len(args)} cards do not make whole {words}-card hands")
        return [" ".join(args[i : i + size]) for i in range(0, len(args), size)]
    return list(args)


def parse_cards_or_none(text: str) -> Cards:
    try:
        return parse_cards(text, distinct=False)
    except CardError:
        return ()


def compare_hands(texts: Sequence[str], ranking: Ranking) -> list[int]:
    """Indices of the winning hand(s); ValueError (CardError included) with the reason."""
    return winners(parse_hands(texts, hand_size_of(ranking)), ranking)


def compare_line(text: str, ranking: Ranking) -> list[int]:
    """A ``HAND | HAND | ...`` line to the winning indices."""
    if not text.strip():
        raise ValueError("empty line")
    return compare_hands(text.split("|"), ranking)


# --- wild cards and the high-low split ------------------------------------------------------

HIGH_LOW = "high-low"
GAMES = ("27", "a5", "high", "badugi", HIGH_LOW)
WILD_GAMES = ("a5", "high", HIGH_LOW)  # the games a wild card can play in


@dataclass(frozen=True)
class Contest:
    """How ``drawlab compare`` judges a showdown: ``game`` one of GAMES, ``wild`` the wild
    cards of a home game (high, ace-to-five and high-low only; jokers add to the deck)."""

    game: str
    wild: Wild | None = None

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise ValueError(f"unknown game {self.game!r}: one of {', '.join(GAMES)}")
        if self.wild is not None and self.game not in WILD_GAMES:
            raise ValueError(f"wild cards play in {', '.join(WILD_GAMES)}, not {self.game}")

    @property
    def size(self) -> int:
        return 4 if self.game == "badugi" else 5

    def hands(self, texts: Sequence[str]) -> list[Cards]:
        hands = parse_hands(texts, self.size)
        deck = set(deck_for(self.wild))
        for i, hand in enumerate(hands):
            for card in hand:
                if card not in deck:
                    if self.wild is Wild.JOKER:
                        raise CardError(f"hand {i}: the deck of --wild joker has one joker")
                    raise CardError(
                        f"hand {i}: Jk is a joker, in the deck only with --wild joker or "
                        "two-jokers"
                    )
        return hands

    def answer(self, texts: Sequence[str]) -> str:
        """The answer line: the winners' indices ("0 2"), or for high-low "high: 0; low: 2"
        (each half's winners)."""
        hands = self.hands(texts)
        if self.game == HIGH_LOW:
            high = " ".join(map(str, winners_high(hands, self.wild)))
            low = " ".join(map(str, winners_low(hands, self.wild)))
            return f"high: {high}; low: {low}"
        if self.wild is None:
            best = winners(hands, Ranking(self.game))
        elif self.game == "high":
            best = winners_high(hands, self.wild)
        else:
            best = winners_low(hands, self.wild)
        return " ".join(map(str, best))

    def answer_line(self, text: str) -> str:
        """A ``HAND | HAND | ...`` line to its answer."""
        if not text.strip():
            raise ValueError("empty line")
        return self.answer(text.split("|"))
