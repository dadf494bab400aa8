"""The dealer: complete, random but legal hands from a seeded shuffle, as a site would log them.

Why: the replay, the parsers' writers, the store and the statistics all need many hands of
every game whose truth is known in advance.  ``deal_hands`` plays them at one table: the
button and blinds move each hand, stacks carry over, a player who goes broke leaves and a
new one sits down in that seat (so stacks continue exactly from hand to hand), and when the
hero goes broke the hero moves to a fresh table.  The record holds what a site's history
shows: every post, action and draw count; the hero's cards, discards and new cards; the
cards shown at showdown; uncalled bets; what each player collected from which pot; rake.

The same ``seed`` always gives the same hands (only ``random.Random(seed)`` is used).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from engine import pots
from engine.cards import Cards
from engine.deck import Deck
from engine.players_model import BetOptions, Judge, Style, decide, keep_high, keep_low, strength
from engine.ranking import Ranking, rank, ranking_for
from engine.record import (
    Action,
    ActionKind,
    Collect,
    Draw,
    Game,
    Hand,
    Muck,
    Post,
    PostKind,
    Seat,
    Show,
    Stakes,
    Step,
    Structure,
    Uncalled,
)
from engine.rules import GameRules, rules_for

_DRAWS = {
    Game.TRIPLE_DRAW_27: 3,
    Game.SINGLE_DRAW_27: 1,
    Game.TRIPLE_DRAW_A5: 3,
    Game.SINGLE_DRAW_A5: 1,
    Game.FIVE_CARD_DRAW: 1,
}

_DEFAULT_STRUCTURE = {
    Game.TRIPLE_DRAW_27: Structure.FIXED,
    Game.SINGLE_DRAW_27: Structure.NO_LIMIT,
    Game.TRIPLE_DRAW_A5: Structure.FIXED,
    Game.SINGLE_DRAW_A5: Structure.FIXED,
    Game.FIVE_CARD_DRAW: Structure.FIXED,
}

_SCREEN_NAMES = (
    "deuce7", "LowballLarry", "snowman42", "pat_hand", "sevenfive", "RazzleDazzle",
    "Kansas City", "drawmaster", "wheelie", "no.pair", "ThreeDraws", "jackpotjo",
    "seven_lo", "Mr Draw", "cardshark77", "tripledrawer", "NinetyNine", "lucky_deuce",
    "bluffalo", "smooth 8", "OneMoreCard", "the_nuts", "Pinochle", "ace_in_hole",
)  # fmt: skip
_TABLE_NAMES = (
    "Alcyone", "Mizar", "Deneb", "Vega", "Antares", "Rigel", "Castor", "Pollux",
    "Electra", "Merope", "Sadr", "Alnitak", "Bellatrix", "Mirfak", "Kochab", "Hamal",
)  # fmt: skip


def default_structure(game: Game) -> Structure:
    """How the game is usually dealt online: fixed limit, except no-limit 2-7 single draw."""
    return _DEFAULT_STRUCTURE[game]


def default_stakes(structure: Structure, big_blind: int = 10) -> Stakes:
    """Blinds half and whole of ``big_blind``; fixed limit bets one and two ``big_blind``."""
    small = big_blind // 2
    if structure is Structure.FIXED:
        return Stakes(small, big_blind, big_blind, 2 * big_blind)
    return Stakes(small, big_blind, big_blind, big_blind)


def default_rake(stakes: Stakes) -> pots.RakeRule:
    """5% of the pot, capped at three big bets (at least $0.50, at most $3): a site-like rule."""
    return pots.RakeRule(per_mille=50, cap=min(300, max(50, 3 * stakes.big_bet)))


@dataclass(frozen=True, slots=True)
class TableSpec:
    """What stays the same at one table: the game and stakes, and what the site logs."""

    game: Game
    structure: Structure
    stakes: Stakes
    rake: pots.RakeRule
    hero: str | None = "Hero"
    site: str = "pokerstars"
    currency: str = "USD"
    max_seats: int = 6
    tables: tuple[str, ...] = _TABLE_NAMES
    start: datetime = datetime(2026, 3, 1, 12, 0, 0)
    first_hand_id: int = 210_000_000_000


@dataclass(slots=True)
class _Sitter:
    seat: int
    name: str
    stack: int
    style: Style


def deal_hands(
    n: int,
    game: Game,
    players: int,
    seed: int,
    *,
    structure: Structure | None = None,
    stakes: Stakes | None = None,
    rake: pots.RakeRule | None = None,
    hero: str | None = "Hero",
    site: str = "pokerstars",
    start: datetime | None = None,
    first_hand_id: int | None = None,
) -> Iterator[Hand]:
    """``n`` consecutive hands of ``game`` at one table of ``players`` (2-6), from ``seed``."""
    if not 2 <= players <= 6:
        raise ValueError(f"a table deals to 2-6 players, not {players}")
    structure = structure or default_structure(game)
    stakes = stakes or default_stakes(structure)
    spec = TableSpec(
        game=game,
        structure=structure,
        stakes=stakes,
        rake=rake if rake is not None else default_rake(stakes),
        hero=hero,
        site=site,
        start=start or datetime(2026, 3, 1, 12, 0, 0) + timedelta(minutes=(seed % 10_000) * 7),
        first_hand_id=first_hand_id
        if first_hand_id is not None
        else 210_000_000_000 + (seed % 100_000) * 100_000,
    )
    yield from Table(spec, players, seed).hands(n)


class Table:
    """One table session: seats, stacks and the button carried from hand to hand."""

    def __init__(self, spec: TableSpec, players: int, seed: int) -> None:
        self.spec = spec
        self.rules: GameRules = rules_for(spec.game, spec.structure)
        self.rng = random.Random(seed)
        self.players = players
        self.table_no = 0
        self.time = spec.start
        self.hand_no = 0
        self._names_used = 0
        self.sitters: list[_Sitter] = []
        self.button = 0
        self._open_table()

    # --- seating ---------------------------------------------------------------------------
    def _fresh_stack(self) -> int:
        """Deep, medium and short stacks, so that all-ins and side pots happen."""
        bb = self.spec.stakes.big_blind
        kind = self.rng.random()
        if kind < 0.2:
            return bb * self.rng.randint(4, 15)
        if kind < 0.6:
            return bb * self.rng.randint(20, 60)
        return bb * self.rng.randint(60, 200)

    def _new_name(self) -> str:
        taken = {s.name for s in self.sitters}
        while True:
            base = _SCREEN_NAMES[self._names_used % len(_SCREEN_NAMES)]
            lap = self._names_used // len(_SCREEN_NAMES)
            self._names_used += 1
            name = base if lap == 0 else f"{base}{lap + 1}"
            if name not in taken and name != self.spec.hero:
                return name

    def _open_table(self) -> None:
        self.table_no += 1
        seats = sorted(self.rng.sample(range(1, self.spec.max_seats + 1), self.players))
        hero_seat = self.rng.choice(seats) if self.spec.hero else None
        self.sitters = []
        for seat in seats:
            name = self.spec.hero if seat == hero_seat and self.spec.hero else self._new_name()
            self.sitters.append(_Sitter(seat, name, self._fresh_stack(), Style.draw(self.rng)))
        self.button = self.rng.choice(seats)

    @property
    def table_name(self) -> str:
        names = self.spec.tables
        base = names[(self.table_no - 1) % len(names)]
        lap = (self.table_no - 1) // len(names)
        return base if lap == 0 else f"{base} {lap + 1}"

    def _after_hand(self, final: dict[str, int]) -> None:
        for s in self.sitters:
            s.stack = final[s.name]
        min_stack = self.spec.stakes.big_blind
        hero = self.spec.hero
        if hero and any(s.name == hero and s.stack < min_stack for s in self.sitters):
            self._open_table()
            return
        for s in self.sitters:
            if s.stack < min_stack:  # goes broke (or too short to post): a new player sits
                s.name = self._new_name()
                s.stack = self._fresh_stack()
                s.style = Style.draw(self.rng)
        seats = [s.seat for s in self.sitters]
        later = [x for x in seats if x > self.button]
        self.button = later[0] if later else seats[0]

    # --- hands -----------------------------------------------------------------------------
    def hands(self, n: int) -> Iterator[Hand]:
        for _ in range(n):
            hand, final = _HandPlay(self).play()
            yield hand
            self.hand_no += 1
            self.time += timedelta(seconds=self.rng.randint(25, 150))
            self._after_hand(final)


@dataclass(slots=True)
class _Options:
    """What the rules let the player to act do now (street totals)."""

    to_call: int
    raise_min_to: int | None
    raise_max_to: int | None


@dataclass(slots=True)
class _HandPlay:
    """One hand being played: the chips, the cards and the record as it grows."""

    table: Table
    steps: list[Step] = field(default_factory=list)

    def play(self) -> tuple[Hand, dict[str, int]]:
        t = self.table
        spec, rules, rng = t.spec, t.rules, t.rng
        sitters = t.sitters
        seat_of = {s.name: s.seat for s in sitters}
        order = pots.clockwise_from_button([s.name for s in sitters], seat_of, t.button)
        style = {s.name: s.style for s in sitters}
        start = {s.name: s.stack for s in sitters}
        judge = {Ranking.DEUCE_SEVEN: Judge.LOW_27, Ranking.ACE_FIVE: Judge.LOW_A5}.get(
            ranking_for(spec.game), Judge.HIGH
        )
        betting = _Betting(rules, spec.stakes, order, dict(start))
        steps = self.steps

        # blinds: heads-up the button posts the small blind
        sb, bb = (order[1], order[0]) if len(order) == 2 else (order[0], order[1])
        for player, kind, amount in (
            (sb, PostKind.SMALL_BLIND, spec.stakes.small_blind),
            (bb, PostKind.BIG_BLIND, spec.stakes.big_blind),
        ):
            paid = betting.post(player, amount)
            steps.append(Post(player, kind, paid, 0, all_in=betting.stack[player] == 0))

        deck = Deck(rng)
        dealt = deck.deal_round_robin(len(order))
        holding: dict[str, Cards] = dict(zip(order, dealt, strict=True))
        hero = spec.hero if spec.hero in holding else None

        draws = rules.draws
        reached_draw = False
        for street in range(draws + 1):
            if street > 0:
                if len(betting.live) < 2:
                    break
                reached_draw = True
                for drawer in order:
                    if drawer not in betting.live:
                        continue
                    holding[drawer] = self._draw(
                        drawer, street, holding[drawer], deck, judge, draws - street + 1,
                        drawer == hero,
                    )
            betting.start_street(street)
            while (actor := betting.next_to_act()) is not None:
                opts = betting.options(actor)
                s = strength(holding[actor], judge, draws - street, rng)
                bet_opts = BetOptions(
                    to_call=opts.to_call,
                    raise_min_to=opts.raise_min_to,
                    raise_max_to=opts.raise_max_to,
                    committed=betting.street_put[actor],
                    stack=betting.stack[actor],
                    pot=betting.pot,
                    draws_left=draws - street,
                    big_blind=spec.stakes.big_blind,
                    no_limit_or_pot=rules.structure is not Structure.FIXED,
                )
                choice = decide(bet_opts, s, style[actor], rng)
                steps.append(betting.act(actor, street, choice.kind, choice.to))
            if len(betting.live) < 2:
                break

        # the end: uncalled bet, showdown, pots, rake, collects
        contributions = dict(betting.total_put)
        back = pots.uncalled(contributions)
        if back is not None:
            player, amount = back
            contributions[player] -= amount
            steps.append(Uncalled(player, amount, 0))
        live = [p for p in order if p in betting.live]
        total = sum(contributions.values())
        rake = spec.rake.amount(total) if reached_draw else 0
        side = pots.side_pots({p: contributions[p] for p in order}, set(live))
        after_rake = pots.take_rake(side, rake)
        won: list[tuple[int, str, int]]
        if len(live) == 1:
            won = [(0, live[0], total - rake)]
        else:
            ranking = ranking_for(spec.game)
            strengths = self._showdown(
                live, betting, holding, contributions, ranking, order, street_of_last=draws
            )
            won = list(pots.award(after_rake, strengths, order))
        several = len([p for p in after_rake if p.amount > 0]) > 1
        for index, player, amount in sorted(won, key=lambda w: -w[0]):
            steps.append(Collect(player, amount, 0, pot=index if several else 0))

        final = {p: start[p] - contributions[p] for p in order}
        for _, player, amount in won:
            final[player] += amount
        seats = tuple(Seat(s.seat, s.name, start[s.name], 0) for s in sitters)
        hand = Hand(
            site=spec.site,
            hand_id=str(spec.first_hand_id + t.hand_no),
            table=t.table_name,
            game=spec.game,
            structure=spec.structure,
            stakes=spec.stakes,
            currency=spec.currency,
            time=t.time,
            button=t.button,
            seats=seats,
            steps=tuple(steps),
            file="",
            line=0,
            hero=hero,
            dealt=dict(zip(order, dealt, strict=True))[hero] if hero else None,
            max_seats=spec.max_seats,
            rake=rake,
            total_pot=total,
        )
        return hand, final

    def _draw(
        self,
        player: str,
        draw: int,
        cards: Cards,
        deck: Deck,
        judge: Judge,
        draws_left: int,
        is_hero: bool,
    ) -> Cards:
        rng = self.table.rng
        rules = self.table.rules
        if judge is Judge.HIGH:
            kept = keep_high(cards, rng, rules.max_discard)
        else:
            kept = keep_low(cards, judge, draws_left, rng)
        discarded = tuple(c for c in cards if c not in kept)
        got = deck.replace(discarded)
        new: Cards = kept + got.received
        if is_hero:
            self.steps.append(
                Draw(player, draw, len(discarded), 0, discarded, kept, got.received)
            )
        else:
            self.steps.append(Draw(player, draw, len(discarded), 0))
        return new

    def _showdown(
        self,
        live: list[str],
        betting: _Betting,
        holding: dict[str, Cards],
        contributions: dict[str, int],
        ranking: Ranking,
        order: list[str],
        street_of_last: int,
    ) -> dict[str, int]:
        """Show in turn (last aggressor first, else first left of the button); a beaten
        player usually mucks.  Returns the shown hands' ranks."""
        rng = self.table.rng
        first = betting.last_aggressor if betting.last_aggressor in live else None
        start = live.index(first) if first is not None else 0
        turn = live[start:] + live[:start]
        shown: dict[str, int] = {}
        for player in turn:
            value = rank(holding[player], ranking)
            beaten = any(
                v < value and contributions[q] >= contributions[player] for q, v in shown.items()
            )
            if beaten and rng.random() < 0.8:
                self.steps.append(Muck(player, 0))
                continue
            shown[player] = value
            self.steps.append(Show(player, holding[player], 0))
        return shown


class _Betting:
    """Temporary chips bookkeeping and legal options (to be replaced by ``engine.state``)."""

    def __init__(self, rules: GameRules, stakes: Stakes, order: list[str], stack: dict[str, int]):
        self.rules = rules
        self.stakes = stakes
        self.order = order
        self.stack = stack
        self.total_put = {p: 0 for p in order}
        self.street_put = {p: 0 for p in order}
        self.live = set(order)
        self.all_in: set[str] = set()
        self.street = 0
        self.high = 0
        self.last_full = stakes.big_blind
        self.bets = 0
        self.needs: dict[str, bool] = {}
        self.may_raise: dict[str, bool] = {}
        self.cursor = 0
        self.last_aggressor: str | None = None

    @property
    def pot(self) -> int:
        return sum(self.total_put.values())

    def post(self, player: str, amount: int) -> int:
        paid = min(amount, self.stack[player])
        self._put(player, paid)
        return paid

    def _put(self, player: str, chips: int) -> None:
        self.stack[player] -= chips
        self.total_put[player] += chips
        self.street_put[player] += chips
        self.high = max(self.high, self.street_put[player])
        if self.stack[player] == 0:
            self.all_in.add(player)

    def _bet_size(self) -> int:
        if self.rules.big_bet_round(self.street):
            return self.stakes.big_bet
        return self.stakes.small_bet

    def start_street(self, street: int) -> None:
        self.street = street
        self.last_aggressor = None
        can_act = [p for p in self.order if p in self.live and p not in self.all_in]
        if street == 0:
            self.bets = 1
            self.last_full = self.stakes.big_blind
            first_index = 2 % len(self.order) if len(self.order) > 2 else 1
            # heads-up the button (order[1]) acts first before the draw
        else:
            for p in self.order:
                self.street_put[p] = 0
            self.high = 0
            self.bets = 0
            self.last_full = self.stakes.big_blind
            first_index = 0
        self.cursor = first_index
        active_others = len(can_act)
        self.needs = {p: p in can_act and active_others >= 2 for p in self.order}
        if street == 0 and len(can_act) == 1:
            # only one player can act: they still answer a bet they face
            p = can_act[0]
            self.needs[p] = self.street_put[p] < self.high
        self.may_raise = {p: True for p in self.order}

    def next_to_act(self) -> str | None:
        if len(self.live) < 2:
            return None
        n = len(self.order)
        for k in range(n):
            p = self.order[(self.cursor + k) % n]
            if self.needs.get(p) and p in self.live and p not in self.all_in:
                self.cursor = (self.cursor + k) % n
                return p
        return None

    def options(self, player: str) -> _Options:
        to_call = min(self.high - self.street_put[player], self.stack[player])
        others = [
            p for p in self.order if p != player and p in self.live and p not in self.all_in
        ]
        can_raise = (
            self.may_raise[player]
            and self.stack[player] > to_call
            and bool(others)
            and (self.rules.cap is None or self.bets < self.rules.cap)
        )
        if not can_raise:
            return _Options(to_call, None, None)
        most = self.street_put[player] + self.stack[player]
        if self.rules.structure is Structure.FIXED:
            to = min(self.high + self._bet_size(), most)
            return _Options(to_call, to, to)
        least = min(self.high + self.last_full, most)
        if self.rules.structure is Structure.POT:
            pot_after_call = self.pot + (self.high - self.street_put[player])
            most = min(most, self.high + pot_after_call)
        return _Options(to_call, least, max(least, most))

    def act(self, player: str, street: int, kind: str, to: int) -> Action:
        n = len(self.order)
        self.needs[player] = False
        self.cursor = (self.order.index(player) + 1) % n
        if kind == "fold":
            self.live.discard(player)
            return Action(player, street, ActionKind.FOLD, 0)
        if kind == "check":
            return Action(player, street, ActionKind.CHECK, 0)
        if kind == "call":
            chips = min(self.high - self.street_put[player], self.stack[player])
            self._put(player, chips)
            return Action(
                player, street, ActionKind.CALL, 0, chips, None, player in self.all_in
            )
        before = self.high
        chips = to - self.street_put[player]
        self._put(player, chips)
        increase = to - before
        full = increase >= (self._bet_size() if self.rules.structure is Structure.FIXED
                            else self.last_full)
        if full:
            self.bets += 1
            if self.rules.structure is not Structure.FIXED:
                self.last_full = increase
        for p in self.order:
            if p == player or p not in self.live or p in self.all_in:
                continue
            if full:
                self.needs[p] = True
                self.may_raise[p] = True
            elif not self.needs[p]:
                self.needs[p] = True
                self.may_raise[p] = False
        self.last_aggressor = player
        action_kind = ActionKind.BET if before == 0 else ActionKind.RAISE
        return Action(player, street, action_kind, 0, chips, to, player in self.all_in)

