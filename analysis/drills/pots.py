"""The pot drill: who takes what when there are all-ins, side pots, split pots and odd chips.

A question is a showdown with each player's chips in the pot (after any uncalled bet went
back), who folded, the cards shown and the button; the player says how much each player
collects.  The referee is ``engine.pots``: ``side_pots`` builds the pots, ``award`` pays each
one to its best eligible hand, splitting with the odd chips clockwise from the button.
Money is exact int hundredths throughout.

The high-low pot drill (``PotQuestion.high_low``, game ``HIGH_LOW``) is California
high-low, as the home games of RULES.md play it: each pot, side pots each on their own, is
halved (``engine.pots.pot_halves``: the odd chip to the high half), the best high hand
takes one half and the best ace-to-five low the other (``engine.pots.award_high_low``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import NamedTuple

from analysis.drills.showdown import hand_for, values_of
from engine.cards import CardError, Cards
from engine.money import format_money
from engine.pots import (
    Award,
    Pot,
    award,
    award_high_low,
    clockwise_from_button,
    pot_halves,
    side_pots,
)
from engine.ranking import Category, Ranking, describe, rank

SIDE_POTS = "side_pots"
SPLIT = "split"
ODD_CHIPS = "odd_chips"
TOPICS = (SIDE_POTS, SPLIT, ODD_CHIPS)
HL_HALVES = "hl_halves"
HL_SCOOP = "hl_scoop"
HL_SIDE_POTS = "hl_side_pots"
HL_ODD_CHIP = "hl_odd_chip"
HIGH_LOW_TOPICS = (HL_HALVES, HL_SCOOP, HL_SIDE_POTS, HL_ODD_CHIP)
TOPIC_LABELS = {
    SIDE_POTS: "side pots", SPLIT: "split pots", ODD_CHIPS: "odd chips",
    HL_HALVES: "high and low halves", HL_SCOOP: "one hand both ways",
    HL_SIDE_POTS: "side pots split high-low", HL_ODD_CHIP: "the odd chip to the high half",
}  # fmt: skip
HIGH_LOW = "high_low"
"""The game key of the high-low pot drill (the progress tables' game column)."""

PLAYERS_AT_LEVEL = ((2, 3), (3, 3), (3, 4), (4, 5), (5, 6))


@dataclass(frozen=True)
class PotSeat:
    """``put_in``: chips in the pot for the whole hand; ``cards``: shown (live players)."""

    name: str
    seat: int
    put_in: int
    folded: bool = False
    cards: Cards | None = None


class PotHalves(NamedTuple):
    """High-low: who takes what of one pot's high half and of its low half."""

    pot: int  # the pot's index, 0 the main pot
    high: tuple[Award, ...]
    low: tuple[Award, ...]


@dataclass(frozen=True)
class PotQuestion:
    ranking: Ranking
    topic: str
    seats: tuple[PotSeat, ...]
    button: int
    high_low: bool = False  # California high-low: each pot halved, high and low

    def __post_init__(self) -> None:
        if self.high_low and self.ranking is not Ranking.HIGH:
            raise ValueError("a high-low pot is split between high and ace-to-five low hands")
        names = [s.name for s in self.seats]
        if len(set(names)) != len(names) or len({s.seat for s in self.seats}) != len(names):
            raise ValueError("seats and names are one per player")
        live = [s for s in self.seats if not s.folded]
        if not live:
            raise ValueError("somebody must be left in the hand")
        for s in live:
            if s.cards is None:
                raise ValueError(f"{s.name} is live and shows no cards")
            rank(s.cards, self.ranking)
        if any(s.put_in < 0 for s in self.seats):
            raise ValueError("chips in the pot are never negative")

    @property
    def pots(self) -> tuple[Pot, ...]:
        live = {s.name for s in self.seats if not s.folded}
        return side_pots({s.name: s.put_in for s in self.seats}, live)

    @property
    def order(self) -> list[str]:
        """The odd-chip order: clockwise from the first seat left of the button."""
        seat_of = {s.name: s.seat for s in self.seats}
        return clockwise_from_button(seat_of, seat_of, self.button)

    @property
    def game(self) -> str:
        """The drill's game: the ranking's, or ``HIGH_LOW``."""
        return HIGH_LOW if self.high_low else self.ranking.value

    def strengths(self, ranking: Ranking) -> dict[str, int]:
        return {s.name: rank(s.cards, ranking) for s in self.seats if s.cards}

    def awards(self) -> tuple[Award, ...]:
        if self.high_low:
            high, low = self.strengths(Ranking.HIGH), self.strengths(Ranking.ACE_FIVE)
            return award_high_low(self.pots, high, low, self.order)
        return award(self.pots, self.strengths(self.ranking), self.order)

    def halves(self) -> list[PotHalves]:
        """High-low: per non-empty pot, its index and who takes what of its high half and
        of its low half."""
        high, low = self.strengths(Ranking.HIGH), self.strengths(Ranking.ACE_FIVE)
        out = []
        for index, pot in enumerate(self.pots):
            if pot.amount == 0:
                continue
            top, bottom = pot_halves(pot.amount)
            taken = []
            for part, strength in ((top, high), (bottom, low)):
                half = (Pot(part, pot.eligible),)
                paid = award(half, strength, self.order)
                taken.append(tuple(won._replace(pot=index) for won in paid))
            out.append(PotHalves(pot=index, high=taken[0], low=taken[1]))
        return out

    def payout(self) -> dict[str, int]:
        """What each player collects, every player listed (0 for nothing)."""
        out = {s.name: 0 for s in self.seats}
        for won in self.awards():
            out[won.player] += won.amount
        return out


@dataclass(frozen=True)
class PotFeedback:
    correct: bool
    expected: dict[str, int]
    given: dict[str, int]
    wrong: tuple[str, ...]  # players whose amount was wrong, in seat order
    lines: tuple[str, ...]  # how each pot is paid, in words


def money(amount: int) -> str:
    return format_money(amount, cents=True, thousands=False)


def parse_money(text: str) -> int:
    """``"12.5"`` -> 1250 hundredths, exactly; ValueError for anything else."""
    try:
        value = Decimal(text.strip().replace(",", ""))
    except InvalidOperation:
        raise ValueError(f"not an amount: {text!r}") from None
    if not value.is_finite():
        raise ValueError(f"not an amount: {text!r}")
    hundredths = value * 100
    if hundredths != hundredths.to_integral_value() or value < 0:
        raise ValueError(f"not an amount in hundredths: {text!r}")
    return int(hundredths)


def explain_pots(q: PotQuestion) -> tuple[str, ...]:
    """One line per pot: its size, who could win it, who did and why, the odd chips."""
    if q.high_low:
        return _explain_high_low(q)
    cards = {s.name: s.cards for s in q.seats if s.cards is not None}
    by_pot: dict[int, list[Award]] = {}
    for won in q.awards():
        by_pot.setdefault(won.pot, []).append(won)
    lines = []
    for index, pot in enumerate(q.pots):
        if pot.amount == 0:
            continue
        name = "main pot" if index == 0 else f"side pot {index}"
        head = f"{name.capitalize()} {money(pot.amount)} ({', '.join(pot.eligible)})"
        paid = by_pot.get(index, [])
        if len(paid) == 1:
            who = paid[0].player
            if len(pot.eligible) == 1:
                lines.append(f"{head}: only {who} can win it, it goes back to them")
            else:
                hand = cards[who]
                assert hand is not None
                lines.append(f"{head}: {who} wins with {describe(hand, q.ranking)}")
            continue
        first = cards[paid[0].player]
        assert first is not None
        shares = ", ".join(f"{won.player} {money(won.amount)}" for won in paid)
        text = f"{head}: split, {describe(first, q.ranking)} each: {shares}"
        odd = pot.amount % len(paid)
        if odd:
            chips = "chip" if odd == 1 else "chips"
            text += f" (odd {chips} to the first clockwise from the button)"
        lines.append(text)
    return tuple(lines)


def _explain_high_low(q: PotQuestion) -> tuple[str, ...]:
    """Per pot: its halves (the odd chip high), each half's winners and their hands."""
    cards = {s.name: s.cards for s in q.seats if s.cards is not None}
    pots = q.pots
    lines = []
    for halves in q.halves():
        index, high, low = halves.pot, halves.high, halves.low
        pot = pots[index]
        name = "main pot" if index == 0 else f"side pot {index}"
        head = f"{name.capitalize()} {money(pot.amount)} ({', '.join(pot.eligible)})"
        if len(pot.eligible) == 1:
            lines.append(f"{head}: only {pot.eligible[0]} can win it, it goes back to them")
            continue
        top, bottom = pot_halves(pot.amount)
        if [w.player for w in high] == [w.player for w in low] and len(high) == 1:
            who = high[0].player
            hand = cards[who]
            assert hand is not None
            lines.append(
                f"{head}: {who} scoops, best high ({describe(hand, Ranking.HIGH)}) and best "
                f"low ({describe(hand, Ranking.ACE_FIVE)})"
            )
            continue
        words = []
        for label, part, paid, ranking in (
            ("high", top, high, Ranking.HIGH),
            ("low", bottom, low, Ranking.ACE_FIVE),
        ):
            first = cards[paid[0].player]
            assert first is not None
            made = describe(first, ranking)
            if len(paid) == 1:
                words.append(f"{label} half {money(part)} to {paid[0].player} ({made})")
            else:
                shares = ", ".join(f"{won.player} {money(won.amount)}" for won in paid)
                words.append(f"{label} half {money(part)} split, {made} each: {shares}")
        odd = " (the odd chip goes to the high half)" if top != bottom else ""
        lines.append(f"{head}: " + "; ".join(words) + odd)
    return tuple(lines)


def check(q: PotQuestion, given: Mapping[str, int]) -> PotFeedback:
    """Right when every player's amount is exactly what the engine pays (missing is 0)."""
    expected = q.payout()
    answer = {s.name: int(given.get(s.name, 0)) for s in q.seats}
    wrong = tuple(n for n in expected if answer[n] != expected[n])
    return PotFeedback(not wrong, expected, answer, wrong, explain_pots(q))


# --- generated questions ----------------------------------------------------------------

Want = Callable[[PotQuestion], bool]


def _has_side_pot(q: PotQuestion) -> bool:
    return sum(1 for p in q.pots if p.amount > 0) >= 2


def _split_pots(q: PotQuestion) -> list[tuple[int, int]]:
    """(pot amount, winners) of every pot shared by two or more players."""
    count: dict[int, int] = {}
    for won in q.awards():
        count[won.pot] = count.get(won.pot, 0) + 1
    pots = q.pots
    return [(pots[i].amount, n) for i, n in count.items() if n >= 2]


def _has_even_split(q: PotQuestion) -> bool:
    splits = _split_pots(q)
    return bool(splits) and all(a % n == 0 for a, n in splits)


def _has_odd_chip(q: PotQuestion) -> bool:
    return any(a % n for a, n in _split_pots(q))


def _halves_apart(q: PotQuestion) -> list[int]:
    """High-low: the pots (by index) whose high and low halves go to different hands."""
    return [h.pot for h in q.halves()
            if {w.player for w in h.high}.isdisjoint(w.player for w in h.low)]  # fmt: skip


def _has_halves(q: PotQuestion) -> bool:
    return bool(_halves_apart(q))


def _has_scoop(q: PotQuestion) -> bool:
    pots = q.pots
    return any(
        len(pots[h.pot].eligible) >= 2
        and len(h.high) == 1
        and [w.player for w in h.low] == [h.high[0].player]
        for h in q.halves()
    )


def _has_side_pot_halves(q: PotQuestion) -> bool:
    return _has_side_pot(q) and len(_halves_apart(q)) >= 1


def _has_odd_half(q: PotQuestion) -> bool:
    pots = q.pots
    return any(pots[i].amount % 2 for i in _halves_apart(q))


WANTS: dict[str, Want] = {
    SIDE_POTS: _has_side_pot,
    SPLIT: _has_even_split,
    ODD_CHIPS: _has_odd_chip,
    HL_HALVES: _has_halves,
    HL_SCOOP: _has_scoop,
    HL_SIDE_POTS: _has_side_pot_halves,
    HL_ODD_CHIP: _has_odd_half,
}


def _deal(ranking: Ranking, live: int, tie: bool, rng: random.Random) -> list[Cards]:
    """Hands for the live players; with ``tie`` the best two share a rank value."""
    used: list[int] = []
    hands: list[Cards] = []
    if tie:
        pool = values_of(ranking, Category.HIGH_CARD)
        best = rng.randrange(len(pool) // 2)
        values = [pool[best], pool[best]]
        values += [rng.choice(pool[best + 1 :]) for _ in range(live - 2)]
        for v in values:
            h = hand_for(v, ranking, rng, used)
            used.extend(h)
            hands.append(h)
        rng.shuffle(hands)
        return hands
    cards = rng.sample(range(52), 5 * live)
    return [tuple(cards[5 * i : 5 * i + 5]) for i in range(live)]


def _attempt(topic: str, ranking: Ranking, players: int, rng: random.Random) -> PotQuestion:
    high_low = topic in HIGH_LOW_TOPICS
    folded = rng.randint(0, 1) if players >= 3 else 0
    if topic in (ODD_CHIPS, HL_ODD_CHIP):
        folded = 1  # a folded blind's odd cents make the split uneven
    live = players - folded
    unit = rng.choice((5, 10, 25, 50, 100)) if topic != ODD_CHIPS else rng.choice((5, 25))
    units = rng.randint(10, 40)
    covering = units * unit  # the biggest stacks' chips in: matched, so nothing went back
    side = topic in (SIDE_POTS, HL_SIDE_POTS)
    allin = max(0, live - 2) if side else rng.randint(0, max(0, live - 2))
    amounts = [unit * u for u in rng.sample(range(2, units), allin)]  # all-in for less
    amounts += [covering] * (live - allin)
    odd = topic in (ODD_CHIPS, HL_ODD_CHIP)
    dead = [rng.choice((5, 15, 25, 35) if odd else (10, 25, 50))
            for _ in range(folded)]  # fmt: skip
    hands = _deal(ranking, live, topic in (SPLIT, ODD_CHIPS), rng)
    seat_numbers = sorted(rng.sample(range(1, 7), players))
    order = list(range(players))
    rng.shuffle(order)
    seats = []
    for k, who in enumerate(order):
        seat = seat_numbers[k]
        name = f"Seat {seat}"
        if who < live:
            seats.append(PotSeat(name, seat, amounts[who], False, hands[who]))
        else:
            seats.append(PotSeat(name, seat, dead[who - live], True, None))
    button = rng.choice(seat_numbers)
    return PotQuestion(ranking, topic, tuple(seats), button, high_low)


def players_for_level(level: int, rng: random.Random) -> int:
    low, high = PLAYERS_AT_LEVEL[max(1, min(level, len(PLAYERS_AT_LEVEL))) - 1]
    return rng.randint(low, high)


def generate(topic: str, ranking: Ranking, players: int, rng: random.Random) -> PotQuestion:
    """A showdown whose payout has what ``topic`` says (side pots, an even split, an odd
    chip): drawn until it does, so every question of a topic is checked to be one."""
    if topic not in WANTS:
        raise ValueError(f"no pot topic {topic!r}")
    if topic in HIGH_LOW_TOPICS:
        ranking = Ranking.HIGH  # the high half's ranking; the low half is ace-to-five
    if not 2 <= players <= 6:
        raise ValueError(f"2 to 6 players, not {players}")
    if topic in (SIDE_POTS, ODD_CHIPS, HL_SIDE_POTS, HL_ODD_CHIP):
        players = max(players, 3)
    for _ in range(500):
        try:
            q = _attempt(topic, ranking, players, rng)
        except CardError:
            continue  # the tied hands did not fit in the deck: deal again
        if WANTS[topic](q):
            return q
    raise RuntimeError(f"could not build a {topic} question")  # pragma: no cover


def seats_in_order(q: PotQuestion) -> Sequence[PotSeat]:
    return sorted(q.seats, key=lambda s: s.seat)
