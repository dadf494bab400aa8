"""Plausible random opponents for the dealer: what to keep, what to bet, when to give up.

Uniformly random play folds most hands before the first draw and almost never reaches a
showdown, so dealt histories would exercise little of the replay.  These players instead
judge their hand roughly (a low draw's best kept cards, a high hand's category), have a
style (loose or tight, passive or aggressive, a little bluffing) drawn once per seat, and
add noise, so hands reach every street, go to showdown often, and short stacks go all-in.

Nothing here is a strategy to learn from; it is a generator of realistic-looking hands.
Money is ``int``; randomness only comes from the ``random.Random`` passed in.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from enum import Enum

from engine import badugi
from engine.cards import Card, Cards, rank_of, suit_of


class Judge(Enum):
    """Which way a hand is judged: lowball deuce-to-seven, lowball ace-to-five, or high."""

    LOW_27 = "27"
    LOW_A5 = "a5"
    HIGH = "high"
    BADUGI = "badugi"


@dataclass(frozen=True, slots=True)
class Style:
    """A seat's temperament, each in [0, 1]."""

    looseness: float  # how weak a hand still continues
    aggression: float  # how often a good hand bets or raises
    bluff: float  # how often a weak hand bets anyway
    sticky: float  # how often a weak hand calls instead of folding

    @staticmethod
    def draw(rng: random.Random) -> Style:
        return Style(
            looseness=rng.uniform(0.35, 0.9),
            aggression=rng.uniform(0.15, 0.65),
            bluff=rng.uniform(0.0, 0.15),
            sticky=rng.uniform(0.05, 0.45),
        )


@dataclass(frozen=True, slots=True)
class BetOptions:
    """What the rules allow the player to act on now, in street totals.

    ``to_call`` is the chips a call adds (0: the player may check); ``raise_min_to`` and
    ``raise_max_to`` bound a bet or raise as the player's total for the street, ``None``
    when no bet or raise is allowed.  ``committed`` is what the player has in this street.
    """

    to_call: int
    raise_min_to: int | None
    raise_max_to: int | None
    committed: int
    stack: int  # chips behind, before this action
    pot: int  # everything in the middle, current street included
    draws_left: int
    big_blind: int
    no_limit_or_pot: bool


@dataclass(frozen=True, slots=True)
class Decision:
    """``kind`` one of fold, check, call, bet, raise; ``to`` the street total of a bet or raise."""

    kind: str
    to: int = 0


# A card's low value, 0 for the best low card: deuce in 2-7 (ace the worst), ace in A-5.
_LOW_VALUES: dict[Judge, tuple[int, ...]] = {
    Judge.LOW_27: tuple(c >> 2 for c in range(52)),
    Judge.LOW_A5: tuple(((c >> 2) + 1) % 13 for c in range(52)),
    Judge.HIGH: tuple(c >> 2 for c in range(52)),
    Judge.BADUGI: tuple(((c >> 2) + 1) % 13 for c in range(52)),
}


def _low_value(card: Card, judge: Judge) -> int:
    return _LOW_VALUES[judge][card]


def _is_straight(ranks: list[int]) -> bool:
    s = sorted(set(ranks))
    return len(s) == 5 and s[4] - s[0] == 4


def keep_low(cards: Cards, judge: Judge, draws_left: int, rng: random.Random) -> Cards:
    """The cards a lowball player keeps: distinct low ranks, breaking a made straight or flush."""
    threshold = {3: 6, 2: 6, 1: 7}.get(draws_left, 7)  # value 6: an eight in 2-7, a seven in A-5
    threshold += rng.choice((0, 0, 0, 1, -1))
    values = _LOW_VALUES[judge]
    by_value = sorted(cards, key=values.__getitem__)
    kept: list[Card] = []
    seen: set[int] = set()
    for c in by_value:
        v = values[c]
        if v in seen:
            continue
        if v <= threshold or (len(kept) == 4 and v <= threshold + 2 and draws_left <= 1):
            kept.append(c)
            seen.add(v)
    if len(kept) == 5 and judge is Judge.LOW_27:
        ranks = [rank_of(c) for c in kept]
        flush = len({suit_of(c) for c in kept}) == 1
        if _is_straight(ranks) or flush:
            kept.pop()  # throw the highest card
    if len(kept) == 5 and rng.random() < 0.05:
        kept.pop()  # a weak pat hand sometimes draws one anyway
    if len(kept) < 5 and rng.random() < 0.02 * draws_left:
        return cards  # a snow: stand pat on nothing, to bluff
    return tuple(c for c in cards if c in kept)


def keep_badugi(cards: Cards, draws_left: int, rng: random.Random) -> Cards:
    """The cards a Badugi player keeps: the best subset of distinct ranks and suits, a
    four-card badugi always pat; of a three-card or smaller subset, a card above the
    threshold (a nine, a ten on the last draw) is drawn again rather than kept."""
    played = badugi.playing_cards(cards)
    if len(played) == badugi.HAND_SIZE:
        return cards
    threshold = {3: 8, 2: 8, 1: 9}.get(draws_left, 9) + rng.choice((0, 0, 0, 1, -1))
    values = _LOW_VALUES[Judge.BADUGI]
    kept = [c for c in played if values[c] <= threshold] or [min(played, key=values.__getitem__)]
    if rng.random() < 0.01 * draws_left:
        return cards  # a snow: stand pat on nothing, to bluff
    return tuple(c for c in cards if c in kept)


def _badugi_strength(cards: Cards, draws_left: int, rng: random.Random) -> float:
    """A made badugi by its top card (a 4-high 1.0, a king-high 0.35); a draw by the size and
    top card of what it keeps, worth more with more draws to come."""
    played = badugi.playing_cards(cards)
    top = _LOW_VALUES[Judge.BADUGI][played[0]]
    if len(played) == badugi.HAND_SIZE:
        return max(0.35, 1.0 - max(0, top - 3) * 0.07)
    if draws_left == 0:
        return 0.05 + 0.05 * len(played)
    kept = keep_badugi(cards, draws_left, rng)
    low = max((_LOW_VALUES[Judge.BADUGI][c] for c in kept), default=12)
    quality = len(kept) / 4 - low / 40
    return max(0.05, 0.2 + 0.7 * quality * (0.6 + 0.15 * draws_left))  # A-2-3 to draw: 0.7


def keep_high(cards: Cards, rng: random.Random, max_discard: int = 5) -> Cards:
    """The cards a high-hand player keeps: sets and pairs, made hands, four-flushes."""
    counts = Counter(rank_of(c) for c in cards)
    ranks = [rank_of(c) for c in cards]
    suits = Counter(suit_of(c) for c in cards)
    flush = max(suits.values()) == 5
    straight = _is_straight(ranks) or sorted(ranks) == [0, 1, 2, 3, 12]
    if flush or straight or sorted(counts.values()) in ([1, 4], [2, 3]):
        kept: Cards = cards
    elif max(counts.values()) >= 2:
        made = {r for r, n in counts.items() if n >= 2}
        kept = tuple(c for c in cards if rank_of(c) in made)
        if len(kept) == 2 and rng.random() < 0.3:
            best_kicker = max((c for c in cards if rank_of(c) not in made), key=rank_of)
            if rank_of(best_kicker) == 12:
                kept = (*kept, best_kicker)
    elif max(suits.values()) == 4:
        suit = max(suits, key=lambda s: suits[s])
        kept = tuple(c for c in cards if suit_of(c) == suit)
    else:
        high = sorted(cards, key=rank_of, reverse=True)
        kept = tuple(high[: rng.choice((1, 1, 2))])
    while 5 - len(kept) > max_discard:
        extra = max((c for c in cards if c not in kept), key=rank_of)
        kept = (*kept, extra)
    return tuple(c for c in cards if c in kept)


def strength(cards: Cards, judge: Judge, draws_left: int, rng: random.Random) -> float:
    """A rough [0, 1] sense of how good the hand is now, drawing hands valued by what they keep."""
    if judge is Judge.BADUGI:
        base = _badugi_strength(cards, draws_left, rng)
    elif judge is Judge.HIGH:
        counts = sorted(Counter(rank_of(c) for c in cards).values(), reverse=True)
        ranks = [rank_of(c) for c in cards]
        top = max(ranks) / 12
        flush = len({suit_of(c) for c in cards}) == 1
        if flush or _is_straight(ranks) or counts[0] == 4 or counts[:2] == [3, 2]:
            base = 0.95
        elif counts[0] == 3:
            base = 0.85
        elif counts[:2] == [2, 2]:
            base = 0.7
        elif counts[0] == 2:
            pair = max(r for r in ranks if ranks.count(r) == 2)
            base = 0.35 + 0.3 * pair / 12
        else:
            base = 0.1 + 0.15 * top
        if draws_left:
            base = 0.3 + 0.6 * base
    else:
        values = sorted(_low_value(c, judge) for c in cards)
        distinct = len(set(values)) == 5
        broken = judge is Judge.LOW_27 and (
            _is_straight([rank_of(c) for c in cards]) or len({suit_of(c) for c in cards}) == 1
        )
        # 7-high in 2-7 (value 5) is 1.0, each higher top card a step down
        made = max(0.05, 1.0 - (values[-1] - 5) * 0.13) if distinct and not broken else 0.05
        if draws_left == 0:
            base = made
        else:
            kept = keep_low(cards, judge, draws_left, rng)
            if len(kept) == 5:
                base = made
            else:
                low = sorted(_low_value(c, judge) for c in kept)
                quality = len(kept) / 5 - (low[-1] / 40 if low else 0)
                base = max(made, 0.15 + 0.55 * quality * (0.6 + 0.15 * draws_left))
    return min(1.0, max(0.0, base + rng.uniform(-0.1, 0.1)))


def decide(opts: BetOptions, hand_strength: float, style: Style, rng: random.Random) -> Decision:
    """Fold, check, call, bet or raise, with sizes inside what ``opts`` allows."""
    s = hand_strength
    can_raise = opts.raise_min_to is not None and opts.raise_max_to is not None
    facing = opts.to_call > 0
    if facing:
        price = opts.to_call / max(1, opts.pot + opts.to_call)
        strong = s > 0.8 - 0.2 * style.aggression or rng.random() < style.bluff * 0.3
        if can_raise and strong and rng.random() < style.aggression + 0.15:
            return Decision("raise", _size(opts, s, style, rng))
        continue_bar = 1.0 - style.looseness - 0.1 * opts.draws_left + price
        if s >= continue_bar or rng.random() < style.sticky * (1.0 - price):
            return Decision("call")
        return Decision("fold")
    if can_raise and (
        (s > 0.6 and rng.random() < style.aggression + 0.25) or rng.random() < style.bluff
    ):
        kind = "raise" if opts.committed > 0 else "bet"
        return Decision(kind, _size(opts, s, style, rng))
    return Decision("check")


def _size(opts: BetOptions, s: float, style: Style, rng: random.Random) -> int:
    """The street total for a bet or raise: the only size in fixed limit, a pot share otherwise."""
    assert opts.raise_min_to is not None and opts.raise_max_to is not None
    lo, hi = opts.raise_min_to, opts.raise_max_to
    if not opts.no_limit_or_pot or lo >= hi:
        return lo
    shove = s > 0.85 and rng.random() < 0.25 + 0.3 * style.aggression
    short = opts.stack <= 12 * opts.big_blind and rng.random() < 0.5
    if shove or short or rng.random() < 0.05:
        return hi
    fraction = rng.choice((0.33, 0.5, 0.66, 0.75, 1.0, 1.0, 1.5))
    after_call = opts.pot + opts.to_call
    target = opts.committed + opts.to_call + int(after_call * fraction)
    return max(lo, min(hi, target))
