"""A hand as the replayer shows it: a header, then the table after each step a player sees.

``engine.replay`` gives the table after every step of the record, exactly as the state
machine holds it; that is right for checking a hand and wrong for watching one, in four
places this module corrects (the dashboard's replayer and ``drawlab replay`` share it):

- the forced bets are one step: the first step shows every blind and ante posted and the
  pot they make (the engine's first view comes before the posts, with a pot of 0);
- a bet is in front of a player only while its betting round is open: between rounds,
  in the draws and at the end the bets are swept into the pot;
- what a player collects is added to their stack at the step it is collected (the
  state machine never pays anyone: settling the pots is a check, not a move), and the last
  step, "the pots are settled", shows the stacks the hand ends with (the ones the next
  hand starts from, ``engine.replay.Replay.final``) and the winners of each pot;
- every problem is somewhere: at its step, or in ``HandView.unplaced`` (what the reader
  noticed, and what the store found between hands, such as a stack that changed).

Money stays ``int`` hundredths here; ``Units`` writes it as the table plays for it:
tournament chips as whole chips (``5,260``), money with two decimals (``5,260.00``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, tzinfo

from analysis import times
from analysis.statistics.positions import positions
from engine.cards import Cards
from engine.pots import Pot, SettledPot, pot_halves
from engine.profiles import chip_unit, profile_for
from engine.record import MISDEAL_NOTE, Action, Collect, Draw, Hand, Muck, Note, Post, Show, Step
from engine.replay import Replay, TableState, replay
from engine.rules import game_name, house_words, rules_for
from engine.verdict import Problem, Verdict
from engine.wild import Wild, wild_cards

FORCED_BETS = "the forced bets are posted"
SETTLED = "the pots are settled"
_OPEN_BETS = frozenset({"deal", "betting"})  # phases in which bets sit in front of players
_OVER = frozenset({"showdown", "won", "dead"})
STRUCTURE_NAMES = {"fixed": "Fixed limit", "pot": "Pot limit", "no_limit": "No limit"}


@dataclass(frozen=True, slots=True)
class Units:
    """What a hand's amounts count: tournament chips, or money in ``currency``."""

    chips: bool
    currency: str

    @property
    def name(self) -> str:
        return "chips" if self.chips else self.currency

    def text(self, amount: int) -> str:
        """For people: ``5,260`` chips, ``1,234.50`` money (thousands separated)."""
        return self._format(amount, ",")

    def plain(self, amount: int) -> str:
        """For scripts (``drawlab replay --json``): ``5260`` chips, ``1234.50`` money.

        A decimal string, not a JSON number: a float cannot hold ``0.10`` exactly."""
        return self._format(amount, "")

    def _format(self, amount: int, sep: str) -> str:
        sign = "-" if amount < 0 else ""
        whole, cents = divmod(abs(amount), 100)
        units = f"{whole:{sep}d}" if sep else str(whole)
        if self.chips and cents == 0:
            return f"{sign}{units}"
        return f"{sign}{units}.{cents:02d}"


def units_of(hand: Hand) -> Units:
    return Units(hand.tournament is not None, hand.currency)


@dataclass(frozen=True, slots=True)
class Header:
    """What a tracker shows above the table: every fact of the hand's first lines."""

    site: str
    hand_id: str
    game: str  # as a player reads it: "2-7 Triple Draw"
    structure: str  # "Fixed limit", "Pot limit", "No limit"
    stakes: str  # "0.10/0.20 USD", "blinds 10/20, ante 5 (chips)"
    table: str
    max_seats: int | None
    players: int  # dealt in
    button: int | None
    time: str  # ISO, or "" when the site wrote none
    tournament: str  # "" for cash games
    level: str
    house: str = ""  # a home game's house rules as a player says them ("" elsewhere)
    carried: str = ""  # the pot carried in from the deal before ("" when none)
    wild_cards: tuple[int, ...] = ()  # the cards that are wild in this hand's game
    hand_size: int = 5  # cards in a player's hand (Badugi: four), backs drawn for unseen ones

    def lines(self) -> list[str]:
        """The header as short plain-text lines (names of sites and tables are untrusted)."""
        seats = f"{self.max_seats}-max, " if self.max_seats else ""
        button = f", button seat {self.button}" if self.button is not None else ""
        first = f"Hand #{self.hand_id} · {self.site} · {self.game} · {self.structure}"
        first += f" · {self.stakes}"
        table = f"Table {self.table} ({seats}{self.players} players dealt in{button})"
        out = [first, table]
        if self.tournament:
            level = f", level {self.level}" if self.level else ""
            out.append(f"Tournament #{self.tournament}{level}")
        if self.house:
            out.append(f"House rules: {self.house}")
        if self.carried:
            out.append(f"Pot carried in from the last deal: {self.carried}")
        if self.time:
            out.append(self.time)
        return out


def header_of(hand: Hand, players: int, zone: tzinfo = UTC) -> Header:
    """The hand's header; its time in ``zone`` with the zone named (``analysis.times``)."""
    units = units_of(hand)
    s = hand.stakes
    if hand.house is not None:  # a home game: antes and bets, no blinds
        stakes = (
            f"{units.text(s.small_bet)}/{units.text(s.big_bet)}"
            if hand.structure.value == "fixed"
            else f"bets from {units.text(s.big_blind)}"
        )
    elif hand.structure.value == "fixed":
        stakes = f"{units.text(s.small_bet)}/{units.text(s.big_bet)}"
        if (s.small_blind, s.big_blind) != (s.small_bet // 2, s.small_bet):
            stakes += f", blinds {units.text(s.small_blind)}/{units.text(s.big_blind)}"
    else:
        stakes = f"blinds {units.text(s.small_blind)}/{units.text(s.big_blind)}"
    if s.ante:
        stakes += f", ante {units.text(s.ante)}"
    stakes += f" {units.name}"
    t = hand.tournament
    return Header(
        site=hand.site,
        hand_id=hand.hand_id,
        game=game_name(hand.game),
        structure=STRUCTURE_NAMES.get(hand.structure.value, hand.structure.value),
        stakes=stakes,
        table=hand.table,
        max_seats=hand.max_seats,
        players=players,
        button=hand.button,
        time="" if hand.time is None else times.shown(hand.time, zone, "as written"),
        tournament="" if t is None else t.tournament_id,
        level="" if t is None or t.level is None else t.level,
        house="" if hand.house is None else house_words(hand.house),
        carried=units.text(hand.carried) if hand.carried else "",
        wild_cards=_wild_cards(hand),
        hand_size=rules_for(hand.game, hand.structure).hand_size,
    )


def _wild_cards(hand: Hand) -> tuple[int, ...]:
    """The wild cards of a home hand's house rules, in card order (none elsewhere)."""
    if hand.house is None or not hand.house.wild:
        return ()
    return tuple(sorted(wild_cards(Wild(hand.house.wild))))


@dataclass(frozen=True, slots=True)
class SeatStep:
    """One player at one step: ``bet`` is 0 once the round's bets are swept into the pot."""

    seat: int
    player: str
    position: str  # BTN, SB, BB, UTG ... ("" when unknown)
    stack: int
    bet: int
    total: int  # chips put in this hand
    folded: bool
    all_in: bool
    cards: Cards | None
    drawn: tuple[int, ...]
    collected: int  # what the player has taken from the pots so far
    winner: bool  # won (part of) a pot: marked once the pot is theirs
    to_act: bool
    up: int | None = None  # shotgun: the first card, face up, seen by all


@dataclass(frozen=True, slots=True)
class PotStep:
    name: str  # "main", "side 1", ...
    amount: int
    eligible: tuple[str, ...]
    winners: tuple[str, ...]  # known at the settled step only
    high: tuple[str, ...] = ()  # high-low: who takes the high half (settled step only)
    low: tuple[str, ...] = ()  # and who the low half


@dataclass(frozen=True, slots=True)
class ViewStep:
    index: int  # 0 is the forced bets
    line: int  # source line of the step
    street: str  # "blinds", "pre-draw", "draw 1", "after draw 1", "showdown", "end", "settled"
    text: str
    pot: int  # chips in the middle, bets in front of players included
    pots: tuple[PotStep, ...]
    seats: tuple[SeatStep, ...]
    problems: tuple[Problem, ...]
    rake: int = 0  # at the settled step: what the house took, shown apart from the pot

    def seat(self, player: str) -> SeatStep | None:
        return next((s for s in self.seats if s.player == player), None)


@dataclass(frozen=True, slots=True)
class HandView:
    hand: Hand
    verdict: Verdict
    units: Units
    header: Header
    steps: tuple[ViewStep, ...]
    unplaced: tuple[Problem, ...]  # problems no step shows: listed above the table


def street_of(step: Step | None, s: TableState, before: str) -> str:
    """The street a step belongs to: that of the record's step (the check that closes
    the betting before the first draw is "pre-draw", though the table has moved on to the
    draw), the table's for the money at the end, the one before for a note."""
    if isinstance(step, Post):
        return "blinds"
    if isinstance(step, Action):
        return "pre-draw" if step.street == 0 else f"after draw {step.street}"
    if isinstance(step, Draw):
        return f"draw {step.draw}"
    if isinstance(step, Show | Muck):
        return "showdown"
    if isinstance(step, Note) or step is None:
        return before
    return "showdown" if s.phase == "showdown" else "end"


def hand_view(hand: Hand, stored: Sequence[Problem] = (), rep: Replay | None = None,
              zone: tzinfo = UTC) -> HandView:
    """The replayer's steps of ``hand``; ``stored`` are the problems the store keeps for it
    (some, like a stack changed between hands, no replay of the hand alone can find);
    ``zone``: the one its time is shown in."""
    rep = rep if rep is not None else replay(hand, views=True)
    final, settled = rep.final, rep.pots
    states = rep.states
    steps = hand.steps
    # the forced bets: the first view plus every post before anything else happens
    first = 0
    while first + 1 < len(states) and _is_post(steps, states[first + 1].step):
        first += 1
    where = positions(hand, [v.player for v in states[0].seats]) if states else {}
    collected: dict[str, int] = {}
    out: list[ViewStep] = []
    if states:
        merged = [p for s in states[: first + 1] for p in s.problems]
        out.append(_step(0, states[first], FORCED_BETS, "blinds", merged, collected, where))
    for s in states[first + 1 :]:
        step = steps[s.step] if 0 <= s.step < len(steps) else None
        if isinstance(step, Collect):
            collected[step.player] = collected.get(step.player, 0) + step.amount
        if s.step >= len(steps):  # the engine's own "settled" view: its problems go last
            continue
        street = street_of(step, s, out[-1].street)
        out.append(_step(len(out), s, s.text, street, s.problems, collected, where))
    if states and (states[-1].phase in _OVER or collected):
        last = states[-1]
        tail = last.problems if last.step >= len(steps) else ()
        end = _settled_step(len(out), hand, last, tail, final, settled, collected, where)
        out.append(end)
    shown = {_key(p) for s in out for p in s.problems}
    unplaced: list[Problem] = []
    for p in (*rep.verdict.problems, *stored):
        if _key(p) not in shown:
            shown.add(_key(p))
            unplaced.append(p)
    return HandView(
        hand=hand,
        verdict=rep.verdict,
        units=units_of(hand),
        header=header_of(hand, len(states[0].seats) if states else 0, zone),
        steps=tuple(out),
        unplaced=tuple(unplaced),
    )


def _is_post(steps: Sequence[object], index: int) -> bool:
    return 0 <= index < len(steps) and isinstance(steps[index], Post)


def _key(p: Problem) -> tuple[str, int, str]:
    return (p.code, p.line, p.message)


def _step(
    index: int,
    s: TableState,
    text: str,
    street: str,
    problems: Iterable[Problem],
    collected: dict[str, int],
    where: dict[str, str],
    settled: bool = False,
) -> ViewStep:
    bets_open = s.phase in _OPEN_BETS
    taken = sum(collected.values())
    seats = tuple(
        SeatStep(
            seat=v.seat,
            player=v.player,
            position=where.get(v.player, ""),
            stack=v.stack + collected.get(v.player, 0),
            bet=v.bet if bets_open else 0,
            total=v.total,
            folded=v.folded,
            all_in=v.all_in,
            cards=v.cards,
            drawn=v.drawn,
            collected=collected.get(v.player, 0),
            winner=collected.get(v.player, 0) > 0,
            to_act=s.to_act == v.player and not settled,
            up=v.up,
        )
        for v in s.seats
    )
    return ViewStep(
        index=index,
        line=s.line,
        street=street,
        text=text,
        pot=max(0, s.pot - taken),
        pots=_table_pots(s) if not taken else (),
        seats=seats,
        problems=tuple(dict.fromkeys(problems)),
    )


def _table_pots(s: TableState) -> tuple[PotStep, ...]:
    """The pots in the middle: a side pot begins above each all-in player's chips only.

    (The engine's ``TableState.pots`` cut a level at every live player's contribution,
    so the blinds alone made a "side pot" of the small blind's missing half.)"""
    live = [v for v in s.seats if not v.folded]
    caps = sorted({v.total for v in live if v.all_in})
    out: list[PotStep] = []
    below = 0
    carried = s.pot - sum(v.total for v in s.seats)  # antes of the deal before: main pot
    for cap in (*caps, None):
        amount = sum(
            max(0, (v.total if cap is None else min(v.total, cap)) - below) for v in s.seats
        )
        if not out:
            amount += carried
        if amount:  # everyone still in who is not all-in for less than this pot's top
            if cap is None:
                can_win = [v for v in live if not v.all_in] or [v for v in live if v.total > below]
            else:
                can_win = [v for v in live if not (v.all_in and v.total < cap)]
            eligible = tuple(v.player for v in can_win)
            out.append(PotStep("main" if not out else f"side {len(out)}", amount, eligible, ()))
        if cap is not None:
            below = cap
    return tuple(out)


def _pots(pots: Sequence[Pot], settled: Sequence[SettledPot] = ()) -> tuple[PotStep, ...]:
    out = []
    for i, p in enumerate(pots):
        won = settled[i].winners if i < len(settled) else None
        name = "main" if i == 0 else f"side {i}"
        high = settled[i].high if i < len(settled) else None
        low = settled[i].low if i < len(settled) else None
        out.append(
            PotStep(name, p.amount, p.eligible, tuple(won or ()), tuple(high or ()),
                    tuple(low or ()))
        )  # fmt: skip
    return tuple(out)


def _pot_words(pot: PotStep, units: Units, unit: int) -> str:
    """ "main pot 0.30 to A" or, split high-low, "main pot 0.31: high 0.16 to A, low 0.15
    to B" (one hand best both ways scoops: "to A (high and low)")."""
    head = f"{pot.name} pot {units.text(pot.amount)}"
    if not pot.high or not pot.low:
        return f"{head} to {', '.join(pot.winners)}"
    if pot.high == pot.low:
        return f"{head} to {', '.join(pot.high)} (high and low)"
    high, low = pot_halves(pot.amount, unit)
    return (
        f"{head}: high {units.text(high)} to {', '.join(pot.high)}, "
        f"low {units.text(low)} to {', '.join(pot.low)}"
    )


def _settled_step(
    index: int,
    hand: Hand,
    last: TableState,
    problems: Iterable[Problem],
    final: dict[str, int],
    settled: Sequence[SettledPot],
    collected: dict[str, int],
    where: dict[str, str],
) -> ViewStep:
    """The end of the hand: final stacks, nothing in front of anyone, each pot's winners
    (by the cards shown, else by who collected it)."""
    units = units_of(hand)
    pots = _pots([Pot(p.amount, p.eligible) for p in settled], settled)
    if len(pots) == 1 and not pots[0].winners and collected:
        pots = (PotStep("main", pots[0].amount, pots[0].eligible, tuple(collected)),)
    winners = {w for p in pots for w in p.winners} | {p for p, a in collected.items() if a}
    base = _step(index, last, SETTLED, "settled", problems, collected, where, True)
    seats = tuple(
        SeatStep(
            seat=v.seat,
            player=v.player,
            position=v.position,
            stack=final.get(v.player, v.stack),
            bet=0,
            total=v.total,
            folded=v.folded,
            all_in=v.all_in and not final.get(v.player, 0),
            cards=v.cards,
            drawn=v.drawn,
            collected=v.collected,
            winner=v.player in winners,
            to_act=False,
            up=v.up,
        )
        for v in base.seats
    )
    unit = chip_unit(hand, profile_for(hand.site))
    parts = [_pot_words(p, units, unit) for p in pots if p.winners]
    if hand.rake:
        parts.append(f"rake {units.text(hand.rake)}")
    text = SETTLED + (": " + "; ".join(parts) if parts else "")
    if not parts and hand.house is not None and not collected and last.pot:
        # a dead deal (nobody opened, or a misdeal): the pot waits for the next deal
        misdeal = any(isinstance(s, Note) and s.kind == MISDEAL_NOTE for s in hand.steps)
        why = "a misdeal, redealt by the same dealer" if misdeal else "nobody opened"
        text = f"{SETTLED}: {why}; {units.text(last.pot)} stays in the pot for the next deal"
    in_play = sum(v.total for v in last.seats) + hand.carried
    taken = sum(final.get(v.player, v.stack) - v.stack for v in last.seats)
    return ViewStep(
        index=index,
        line=base.line,
        street="settled",
        text=text,
        pot=max(0, in_play - max(0, taken) - (hand.rake or 0)),  # the rake is no pot
        pots=pots,
        seats=seats,
        rake=hand.rake or 0,
        problems=base.problems,
    )
