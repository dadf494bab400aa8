"""Side pots, split pots, odd chips, uncalled bets and rake: the arithmetic of who can win what.

Both the dealer (which decides the payouts) and the replay (which checks a site's payouts)
need the same answer, so it lives here once.  Everything is exact ``int`` money.

Conventions, because real sites agree on them (see ``RULES.md`` and the PokerStars corpus
file ``5-Carddraw-FL-USD-0.10-0.20-201106.sidepot.txt``: "Main pot $0.43. Side pot $0.10.
| Rake $0.02" out of $0.45 + $0.10):

- pots are built from *contributions after the uncalled bet was returned*; the levels are
  the distinct contributions of the players still live (not folded), so every all-in makes
  a level; folded players' chips stay in every pot their contribution reached;
- the main pot comes first, then side pots in order of rising level;
- rake comes out of the main pot first, then the next pot if the main pot is too small;
- an odd chip of a split goes to the first winner clockwise from the button: the caller
  orders the winners (``clockwise_from_button`` does it from seat numbers).  The odd chip
  is the table's smallest chip, not a hundredth: a cent in a cash game, a whole chip in a
  tournament (``split``'s ``unit``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple


class Pot(NamedTuple):
    """One pot: ``eligible`` are the live players who reached its level, in contribution order.

    A named tuple, not a frozen dataclass: the replay makes one for every level of every
    hand, and a frozen dataclass's constructor sets each field through ``object.__setattr__``."""

    amount: int
    eligible: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RakeRule:
    """A site's rake: ``per_mille`` of the whole pot, rounded down, never more than ``cap``.

    ``per_mille=50`` is 5%.  ``cap`` is in the same hundredths as every amount.
    """

    per_mille: int
    cap: int

    def amount(self, total_pot: int) -> int:
        if total_pot <= 0:
            return 0
        return min(total_pot * self.per_mille // 1000, self.cap)


NO_RAKE = RakeRule(0, 0)


class Award(NamedTuple):
    """One player's take from one pot, read by name where it is paid or explained."""

    pot: int  # 0 the main pot, n side pot n
    player: str
    amount: int


def side_pots(
    contributions: Mapping[str, int],
    live: Collection[str],
    dead: Mapping[str, int] | None = None,
) -> tuple[Pot, ...]:
    """The main pot and side pots, main first.

    ``contributions`` are each player's chips in the pot for the whole hand (blinds, antes
    and dead chips included), after any uncalled bet was given back; ``live`` are the
    players who have not folded.  Chips a folded player put in above the highest live
    level (which only happens when an uncalled bet was not returned first) go to the top
    pot, so the sum of the pots is always the sum of the contributions.  With nobody live
    the whole money is one pot nobody is eligible for.

    ``dead`` are the parts of the contributions that never counted as a bet (a dead small
    blind posted on coming back): they make no level of their own and go to the main pot.
    """
    if dead and any(dead.values()):
        dead_total = sum(dead.values())
        bets = {p: c - dead.get(p, 0) for p, c in contributions.items()}
        parts = list(side_pots(bets, live))
        if not parts:  # nothing but dead money (antes everyone checked behind): every
            # live player can win it
            everyone = tuple(p for p in contributions if p in live)
            return (Pot(dead_total, everyone),) if dead_total else ()
        parts[0] = Pot(parts[0].amount + dead_total, parts[0].eligible)
        return tuple(parts)
    live_levels = sorted({c for p, c in contributions.items() if c > 0 and p in live})
    if not live_levels:
        total = sum(contributions.values())
        return (Pot(total, ()),) if total else ()
    top = live_levels[-1]
    pots: list[Pot] = []
    previous = 0
    for level in live_levels:
        # each contribution's part between the previous level and this one; those live
        # players who reached this level are eligible; chips above the top level (a folded
        # player's) go to the top pot (one loop, no generators: every hand settles here)
        amount = 0
        above = 0
        eligible: list[str] = []
        for p, c in contributions.items():
            if c <= previous:
                continue
            if c < level:
                amount += c - previous
            else:
                amount += level - previous
                above += c - level
                if p in live:
                    eligible.append(p)
        pots.append(Pot(amount + above if level == top else amount, tuple(eligible)))
        previous = level
    return tuple(pots)


def split(
    amount: int, winners: Sequence[str], unit: int = 1, all_to_first: bool = False
) -> dict[str, int]:
    """Equal shares in whole ``unit``s; the odd units go one each to the first winners in
    the given order (``all_to_first``: all of them to the first winner, pokerkit's way).

    ``unit`` is the smallest amount the table can split, in the record's hundredths: one
    cent (1) in a cash game, one chip (100) in a tournament or any game played in chips
    (``engine.profiles.chip_unit`` says which).  Money below one unit (a pot that is not a
    whole number of units, which only a record of odd amounts gives) goes with the first
    winner's share, so the shares always sum to ``amount``.
    """
    if not winners:
        raise ValueError("a pot needs at least one winner")
    if len(set(winners)) != len(winners):
        raise ValueError(f"a winner is listed twice: {list(winners)}")
    if unit < 1:
        raise ValueError(f"the chip unit must be positive: {unit}")
    units, below = divmod(amount, unit)
    share, odd = divmod(units, len(winners))
    if all_to_first:
        out = {w: share * unit for w in winners}
        out[winners[0]] += odd * unit + below
        return out
    out = {w: (share + (1 if i < odd else 0)) * unit for i, w in enumerate(winners)}
    out[winners[0]] += below
    return out


def pot_halves(amount: int, unit: int = 1) -> tuple[int, int]:
    """A high-low pot's high half and low half, in whole ``unit``s: the odd unit goes to the
    high half (RULES.md), as does money below one unit (an odd record's)."""
    low = amount // unit // 2 * unit
    return amount - low, low


def award_high_low(
    pots: Sequence[Pot],
    high: Mapping[str, int],
    low: Mapping[str, int],
    order: Sequence[str],
    unit: int = 1,
) -> tuple[Award, ...]:
    """``award`` for California high-low: each pot halved (``pot_halves``), the high half
    by ``high`` and the low half by ``low`` (each smaller is better), so one hand may take
    both halves and ties split each half.  A player's two shares of a pot are one entry."""
    out: dict[tuple[int, str], int] = {}
    for index, pot in enumerate(pots):
        if pot.amount == 0:
            continue
        top, bottom = pot_halves(pot.amount, unit)
        halves = (Pot(top, pot.eligible), Pot(bottom, pot.eligible))
        for half, strength in zip(halves, (high, low), strict=True):
            for won in award((half,), strength, order, unit):
                key = (index, won.player)
                out[key] = out.get(key, 0) + won.amount
    return tuple(Award(pot, player, amount) for (pot, player), amount in out.items())


class UncalledBet(NamedTuple):
    """The part of the top contribution nobody matched, and whose it is."""

    player: str
    amount: int


def uncalled(contributions: Mapping[str, int]) -> UncalledBet | None:
    """The part of the top contribution that nobody matched: who gets it back, and how much.

    ``None`` when the top contribution is matched (two or more players share it) or when
    nobody put anything in.  One pass, no sort: the importer's facts ask it of every hand.
    """
    top_player: str | None = None
    top = 0
    second = 0  # with one contribution, nobody matched any of it
    several = False
    for p, c in contributions.items():
        if top_player is None:
            top_player = p
            top = c
        elif c > top:
            second = top
            top = c
            top_player = p
            several = True
        elif c > second or not several:
            second = c
            several = True
    if top_player is None or top <= second:
        return None
    return UncalledBet(top_player, top - second)


def take_rake(pots: Sequence[Pot], rake: int) -> tuple[Pot, ...]:
    """The pots after the rake, taken from the main pot first and then upwards."""
    if rake < 0:
        raise ValueError(f"rake cannot be negative: {rake}")
    if rake > sum(p.amount for p in pots):
        raise ValueError(f"rake {rake} is more than the pots hold")
    left = rake
    out: list[Pot] = []
    for pot in pots:
        taken = min(left, pot.amount)
        left -= taken
        out.append(Pot(pot.amount - taken, pot.eligible))
    return tuple(out)


def clockwise_from_button(
    players: Iterable[str], seat_of: Mapping[str, int], button: int
) -> list[str]:
    """``players`` in the order the odd chip goes: first seat left of the button, clockwise.

    The button seat itself comes last.  Seats are the site's seat numbers; gaps are fine.
    """
    return sorted(players, key=lambda p: (seat_of[p] <= button, seat_of[p]))


def award(
    pots: Sequence[Pot], strength: Mapping[str, int], order: Sequence[str], unit: int = 1
) -> tuple[Award, ...]:
    """Who takes what from each pot (``Award``: pot index, player, amount), pot by pot.

    ``strength`` is each showing player's hand value, smaller is better (as
    ``engine.ranking.rank`` gives it); a pot with one eligible player goes to that player
    whether or not they showed.  ``order`` is the odd-chip order (``clockwise_from_button``)
    and ``unit`` the smallest chip (``split``).  Empty pots are skipped.
    """
    position = {p: i for i, p in enumerate(order)}
    out: list[Award] = []
    for index, pot in enumerate(pots):
        if pot.amount == 0:
            continue
        if len(pot.eligible) == 1:
            out.append(Award(index, pot.eligible[0], pot.amount))
            continue
        contenders = [p for p in pot.eligible if p in strength]
        if not contenders:
            raise ValueError(f"pot {index} has several eligible players and no hand shown")
        best = min(strength[p] for p in contenders)
        tied = [p for p in contenders if strength[p] == best]
        winners = sorted(tied, key=lambda p: position.get(p, len(order)))
        for player, amount in split(pot.amount, winners, unit).items():
            out.append(Award(index, player, amount))
    return tuple(out)


class SettledPot(NamedTuple):
    """A pot as the replay settled it, before rake: who could win it and who did by the
    cards shown (``None`` where a hand still in it was never shown).  A high-low pot also
    says who took its high half and who its low half (``None`` in other games).  Named
    tuple, as ``Pot``: one or more for every hand replayed."""

    amount: int
    eligible: tuple[str, ...]
    winners: tuple[str, ...] | None
    high: tuple[str, ...] | None = None
    low: tuple[str, ...] | None = None
