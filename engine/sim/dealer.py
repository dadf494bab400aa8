"""The dealer: complete, random but legal hands from a seeded shuffle, as a site would log them.

Why: the replay, the parsers' writers, the store and the statistics all need many hands of
every game whose truth is known in advance.  ``deal_hands`` plays them at one table: the
button and blinds move each hand, stacks carry over, a player who goes broke leaves and a
new one sits down in that seat (so stacks continue exactly from hand to hand), and when the
hero goes broke the hero moves to a fresh table (sit-and-go tables instead knock players
out as the blinds rise).  The record holds what a site's history shows: every post, action
and draw count; the hero's cards, discards and new cards; pats; the cards shown at showdown
and the hero's mucked hand; uncalled bets; what each player collected from which pot; rake.

The rules are not here: ``engine.state.HandState`` (with the site's profile, e.g. the cap
lifted heads-up at PokerStars) says whose turn it is, what is legal, when a round ends and
what comes back uncalled; the dealer shuffles (``engine.sim.deck``, deck exhaustion included),
lets the players of ``engine.sim.players_model`` choose among the legal options, pays the pots
(``engine.pots``, ``engine.ranking``) and writes it all down.

The same ``seed`` always gives the same hands (only ``random.Random(seed)`` is used).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

from engine import pots
from engine.cards import Cards, format_card
from engine.hand_value import high_value, low_value
from engine.profiles import SiteProfile, profile_for, table_unit
from engine.ranking import Ranking, ranking_for
from engine.record import (
    MISDEAL_NOTE,
    Action,
    ActionKind,
    Collect,
    Draw,
    Game,
    Hand,
    HouseRules,
    Muck,
    Note,
    Post,
    PostKind,
    Seat,
    Show,
    Stakes,
    Step,
    Structure,
    Tournament,
    Uncalled,
)
from engine.rules import (
    HOUSE,
    Forced,
    GameRules,
    Opener,
    can_open,
    house_rules,
    rules_for,
)
from engine.sim.deck import Deck
from engine.sim.players_model import (
    BetOptions,
    Judge,
    Style,
    decide,
    keep_badugi,
    keep_high,
    keep_low,
    strength,
)
from engine.sim.players_wild import keep_wild, wild_strength
from engine.state import HandState, Legal, Phase

RESHUFFLE_TEXT = "The deck is reshuffled"  # the note of a reshuffle, in PokerStars' words

_DEFAULT_STRUCTURE = {
    Game.TRIPLE_DRAW_27: Structure.FIXED,
    Game.SINGLE_DRAW_27: Structure.NO_LIMIT,
    Game.TRIPLE_DRAW_A5: Structure.FIXED,
    Game.SINGLE_DRAW_A5: Structure.FIXED,
    Game.FIVE_CARD_DRAW: Structure.FIXED,
    Game.BADUGI: Structure.FIXED,
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
_EPOCH = datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC)
# sit-and-go big blinds (in chips) by level, and the levels' names as PokerStars writes them
_LEVELS = (20, 30, 40, 60, 80, 100, 150, 200, 300, 400, 600, 800, 1000, 1500, 2000, 3000)
_ANTE_FROM_LEVEL = 3  # pot- and no-limit sit-and-goes add antes from level IV
_ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII",
          "XIV", "XV", "XVI")  # fmt: skip


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
    """5% of the pot, capped at three big bets (at least $0.50, at most $3): a site-like rule.

    Taken only from hands that reach the first draw ("no draw, no drop"), out of the main
    pot first (``engine.pots.take_rake``)."""
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
    start: datetime = _EPOCH
    first_hand_id: int = 210_000_000_000
    tournament: bool = False  # a sit-and-go: chips, rising blinds, no rebuys, no rake
    buy_in: int = 300  # of the tournament, in cents
    fee: int = 30
    starting_chips: int = 1500
    hands_per_level: int = 10
    home: bool = False  # five-card draw as the user's documents play it (site "home")
    house: HouseRules | None = None  # the house rules the hands state (``None``: the documents')
    misdeal_per_mille: int = 0  # how often a card is exposed while dealing


@dataclass(slots=True)
class _Sitter:
    seat: int
    name: str
    stack: int
    style: Style


class DealRefused(ValueError):
    """Hands that cannot be dealt as asked; ``asked`` names what was asked wrong: "players"
    (or "hands", a negative number), "home" (the home form of another game), "house" (house
    rules outside a home game), "ace_draws" (an ace rule not above the draw), "misdeals"
    (not a number per thousand)."""

    def __init__(self, asked: str, message: str) -> None:
        super().__init__(message)
        self.asked = asked


def most_players(house: HouseRules | None) -> int:
    """Seats a table deals to: six, eight at home with no replacement (the stub runs out)."""
    return 8 if house is not None and house.no_replacement else 6


def check_deal(
    n: int,
    game: Game,
    players: int,
    *,
    home: bool = False,
    house: HouseRules | None = None,
    misdeal_per_mille: int = 0,
) -> None:
    """Raise ``DealRefused`` for a deal ``deal_hands`` cannot make, before any hand is
    dealt (a caller that writes a file checks first, so nothing is written)."""
    most = most_players(house)
    if n < 0 or not 2 <= players <= most:
        more = "" if most == 8 else " (7-8 only with no replacement at home)"
        asked = "hands" if n < 0 else "players"
        raise DealRefused(
            asked, f"a table deals 0 or more hands to 2-{most} players{more}, not {n} to {players}"
        )
    if home and game is not Game.FIVE_CARD_DRAW:
        raise DealRefused("home", "the home form is five-card draw's")
    if house is not None and not home:
        raise DealRefused("house", "house rules are a home game's")
    if (
        house is not None
        and house.max_draw_with_ace is not None
        and (house.max_draw_with_ace <= house.max_draw)
    ):
        raise DealRefused("ace_draws", "a player showing an ace must draw more than the others")
    if not 0 <= misdeal_per_mille <= 1000:
        raise DealRefused("misdeals", "misdeals are counted per thousand deals, 0 to 1000")


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
    tournament: bool = False,
    home: bool = False,
    house: HouseRules | None = None,
    misdeal_per_mille: int = 0,
) -> Iterator[Hand]:
    """``n`` consecutive hands of ``game`` at one table of ``players`` (2-6; 7-8 at home with
    no replacement), from ``seed``.

    Cash (the default): ``stakes`` (default blinds $0.05/$0.10), rake by ``rake`` (default
    ``default_rake``), a broke player replaced by a newcomer.  ``tournament``: sit-and-go
    tables where everyone starts with the same chips, the blinds rise every few hands
    (``stakes`` is ignored), nobody rebuys, and a new tournament starts when the hero is
    out or one player has all the chips.

    ``home`` (five-card draw only): the home game of the user's documents, site "home":
    antes instead of blinds (``stakes.ante``, default half a small bet), jacks or better to
    open, at most three cards drawn (four by a player who keeps and shows an ace), no rake.
    A hand nobody can open is dead and its antes stay in the pot for the next deal
    (``Hand.carried``), which the next dealer deals, everyone anteing again unless the house
    says otherwise.

    ``house``: the home game under these house rules (implies ``home``; the hands carry
    them): wild cards, high-low, shotgun, the ace draws, no replacement with 7-8 players.
    ``misdeal_per_mille``: how often (per thousand deals) a card is exposed while dealing
    at a home table: that hand is a misdeal (its antes posted, a ``misdeal`` note, nothing
    more) and the same dealer deals again with those antes carried.
    """
    if house is not None:
        home = True
    check_deal(n, game, players, home=home, house=house, misdeal_per_mille=misdeal_per_mille)
    structure = structure or default_structure(game)
    stakes = stakes or default_stakes(structure)
    if home:
        stakes = replace(stakes, small_blind=0, ante=stakes.ante or stakes.small_bet // 2)
        site = "home"
        rake = pots.NO_RAKE
    spec = TableSpec(
        game=game,
        structure=structure,
        stakes=stakes,
        rake=rake if rake is not None else default_rake(stakes),
        hero=hero,
        site=site,
        start=start or _EPOCH + timedelta(minutes=(seed % 10_000) * 7),
        first_hand_id=first_hand_id
        if first_hand_id is not None
        else 210_000_000_000 + (seed % 100_000) * 100_000,
        tournament=tournament,
        currency="chips" if tournament else "USD",
        home=home,
        max_seats=max(6, players),
        house=house,
        misdeal_per_mille=misdeal_per_mille if home else 0,
    )
    return Table(spec, players, seed).hands(n)  # arguments checked now, hands dealt lazily


class Table:
    """One table session: seats, stacks and the button carried from hand to hand."""

    def __init__(self, spec: TableSpec, players: int, seed: int) -> None:
        self.spec = spec
        self.rules: GameRules = (
            house_rules(spec.structure, spec.house or HOUSE)
            if spec.home
            else rules_for(spec.game, spec.structure)
        )
        self.carried = 0  # the antes of a dead or misdealt hand, in the next deal's pot
        self.redeal = False  # the last deal was a misdeal: the same dealer deals again
        self.rng = random.Random(seed)
        self.players = players
        self.table_no = 0
        self.time = spec.start
        self.hand_no = 0
        self._names_used = 0
        self.sitters: list[_Sitter] = []
        self.button = 0
        self.stakes = spec.stakes
        self.rake = pots.NO_RAKE if spec.tournament else spec.rake
        self.tournament_hands = 0
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
        self.carried = 0
        self.redeal = False
        self.tournament_hands = 0
        seats = sorted(self.rng.sample(range(1, self.spec.max_seats + 1), self.players))
        hero_seat = self.rng.choice(seats) if self.spec.hero else None
        self.sitters = []
        for seat in seats:
            name = self.spec.hero if seat == hero_seat and self.spec.hero else self._new_name()
            stack = self.spec.starting_chips * 100 if self.spec.tournament else self._fresh_stack()
            self.sitters.append(_Sitter(seat, name, stack, Style.draw(self.rng)))
        self.button = self.rng.choice(seats)
        self._set_level()

    def _set_level(self) -> None:
        if self.spec.tournament:
            level = min(self.tournament_hands // self.spec.hands_per_level, len(_LEVELS) - 1)
            stakes = default_stakes(self.spec.structure, _LEVELS[level] * 100)
            if self.spec.structure is not Structure.FIXED and level >= _ANTE_FROM_LEVEL:
                stakes = replace(stakes, ante=stakes.big_blind // 10)  # antes, as Stars adds
            self.stakes = stakes

    @property
    def tournament(self) -> Tournament | None:
        """The sit-and-go being played (one per table opened), with its blind level."""
        if not self.spec.tournament:
            return None
        level = min(self.tournament_hands // self.spec.hands_per_level, len(_LEVELS) - 1)
        return Tournament(
            tournament_id=str(self.spec.first_hand_id // 100 + self.table_no),
            buy_in=self.spec.buy_in,
            fee=self.spec.fee,
            level=_ROMAN[level],
            currency="USD",
        )

    @property
    def table_name(self) -> str:
        if self.tournament is not None:
            return f"{self.tournament.tournament_id} 1"
        names = self.spec.tables
        base = names[(self.table_no - 1) % len(names)]
        lap = (self.table_no - 1) // len(names)
        return base if lap == 0 else f"{base} {lap + 1}"

    def _after_hand(self, final: dict[str, int]) -> None:
        for s in self.sitters:
            s.stack = final[s.name]
        if self.redeal:
            return  # a misdeal: the same players, the same dealer, a new shuffle
        if self.spec.tournament:
            self._after_tournament_hand()
            return
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
        self._move_button()

    def _after_tournament_hand(self) -> None:
        """The broke are out; the tournament ends with the hero out or one player left."""
        self.sitters = [s for s in self.sitters if s.stack > 0]
        hero = self.spec.hero
        hero_out = hero is not None and all(s.name != hero for s in self.sitters)
        if hero_out or len(self.sitters) < 2:
            self._open_table()
            return
        self.tournament_hands += 1
        self._set_level()
        self._move_button()

    def _move_button(self) -> None:
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
            dead = bool(hand.total_pot) and not hand.collects
            self.redeal = dead and any(
                isinstance(s, Note) and s.kind == MISDEAL_NOTE for s in hand.steps
            )
            # a hand nobody opened (or misdealt) leaves its pot to the next deal
            self.carried = (hand.total_pot or 0) if dead else 0
            self._after_hand(final)


_JUDGES: dict[Ranking, Judge] = {
    Ranking.DEUCE_SEVEN: Judge.LOW_27,
    Ranking.ACE_FIVE: Judge.LOW_A5,
    Ranking.BADUGI: Judge.BADUGI,
}  # the judge of a game's cards by its ranking; any other ranks high


class _Settled(NamedTuple):
    """How a hand's pots went: who won what, the rake, and everything put in."""

    won: list[pots.Award]
    rake: int
    total: int


@dataclass(slots=True)
class _HandPlay:
    """One hand being played on ``engine.state.HandState``: the cards, choices and record.

    The state machine decides whose turn it is, what is legal, when a round closes and
    what comes back uncalled; the dealer only shuffles, chooses among the legal options
    and writes down what happened.
    """

    table: Table
    steps: list[Step] = field(default_factory=list)

    def play(self) -> tuple[Hand, dict[str, int]]:
        """The hand dealt, played out and written down, and each player's stack after it."""
        t = self.table
        spec, rules, rng = t.spec, t.rules, t.rng
        start = {s.name: s.stack for s in t.sitters}
        profile = profile_for(spec.site)  # e.g. PokerStars lifts the cap heads-up
        hs = HandState(
            rules,
            t.stakes,
            [(s.seat, s.name, s.stack) for s in t.sitters],
            t.button,
            cap_heads_up=profile.cap_heads_up,
            casino_short_all_ins=profile.casino_short_all_ins,
            carried=t.carried,
        )
        order = list(hs.order)
        self._post_forced_bets(hs, order)
        deck = Deck(rng, rules.deck_size)
        hands = deck.deal_round_robin(len(order), rules.hand_size)
        dealt = dict(zip(order, hands, strict=True))
        if spec.misdeal_per_mille and rng.randrange(1000) < spec.misdeal_per_mille:
            return self._misdeal(hs, hands, start)
        holding: dict[str, Cards] = dict(dealt)
        hero = spec.hero if spec.hero in holding else None
        returned = dict(hs.returned)
        hs.deal()  # a blind nobody can match (the big blind all-in for less) comes back now
        self._uncalled(hs, returned)
        self._play_out(hs, holding, deck, hero)
        settled = self._settle(hs, order, holding, profile)
        if hero is not None and any(isinstance(s, Muck) and s.player == hero for s in self.steps):
            # sites write the hero's own mucked hand in the summary
            self.steps.append(Show(hero, holding[hero], 0, mucked=True))
        final = {p: start[p] - hs.total[p] for p in order}
        for won in settled.won:
            final[won.player] += won.amount
        hand = self._record(
            start,
            hero=hero,
            dealt=dealt[hero] if hero else None,
            rake=settled.rake,
            total_pot=settled.total,
            carried=t.carried,
            up_cards=tuple((p, dealt[p][0]) for p in order) if rules.shotgun else (),
        )
        return hand, final

    def _post_forced_bets(self, hs: HandState, order: list[str]) -> None:
        """Antes first, in seat order; then the blinds: heads-up the button (last in order)
        posts the small blind; a player whose ante took every chip posts no blind.  A
        redeal after a misdeal has its antes in already; a carried pot has them again
        only where the house antes again."""
        t = self.table
        stakes, rules = t.stakes, t.rules
        antes_again = not t.redeal and (not t.carried or rules.ante_again)
        if stakes.ante and antes_again:
            for s in t.sitters:
                self._post(hs, s.name, PostKind.ANTE, stakes.ante)
        if rules.forced is Forced.ANTES:
            return
        sb, bb = (order[1], order[0]) if len(order) == 2 else (order[0], order[1])
        for player, kind, amount in (
            (sb, PostKind.SMALL_BLIND, stakes.small_blind),
            (bb, PostKind.BIG_BLIND, stakes.big_blind),
        ):
            if hs.stack[player] > 0:
                self._post(hs, player, kind, amount)

    def _post(self, hs: HandState, player: str, kind: PostKind, amount: int) -> None:
        """Post ``amount``, or the player's whole stack where it is less."""
        paid = min(amount, hs.stack[player])
        hs.apply_post(player, kind, paid)
        self.steps.append(Post(player, kind, paid, 0, all_in=hs.stack[player] == 0))

    def _play_out(
        self, hs: HandState, holding: dict[str, Cards], deck: Deck, hero: str | None
    ) -> None:
        """Betting rounds and draws until the state machine says the hand is over; each
        player's cards in ``holding`` follow their draws."""
        t = self.table
        style = {s.name: s.style for s in t.sitters}
        judge = _JUDGES.get(ranking_for(t.spec.game), Judge.HIGH)
        guard = 0
        while not hs.over:
            guard += 1
            if guard > 500:
                raise RuntimeError("the hand does not end: the state machine is stuck")
            if hs.phase is Phase.BETTING:
                legal = hs.legal_actions()
                if legal is None:
                    raise RuntimeError("betting with nobody to act")
                self._bet(hs, legal, holding, judge, style[legal.player])
            elif hs.phase is Phase.DRAW:
                turn = hs.draw_turn()
                if turn is None:
                    raise RuntimeError("a draw with nobody to draw")
                holding[turn.player] = self._draw(
                    hs,
                    turn.player,
                    holding[turn.player],
                    draw=turn.draw,
                    limit=turn.limit,
                    deck=deck,
                    judge=judge,
                    is_hero=turn.player == hero,
                )
            else:
                raise RuntimeError(f"the dealer cannot continue in phase {hs.phase}")

    def _settle(
        self, hs: HandState, order: list[str], holding: dict[str, Cards], profile: SiteProfile
    ) -> _Settled:
        """The end: pots, showdown, rake and who collects what, the collects written down."""
        t = self.table
        carried = t.carried
        contributions = {p: hs.total[p] for p in order}
        live = hs.live
        total = sum(contributions.values()) + carried
        rake = t.rake.amount(total) if hs.street > 0 else 0  # no draw, no drop
        side = pots.side_pots(contributions, set(live))
        if carried and side:  # dead money in the main pot
            side = (pots.Pot(side[0].amount + carried, side[0].eligible), *side[1:])
        elif carried:
            side = (pots.Pot(carried, tuple(live)),)
        after_rake = pots.take_rake(side, rake)
        won: list[pots.Award]
        if hs.phase is Phase.DEAD:  # nobody could open: the antes stay in, nobody wins
            won = []
        elif len(live) == 1:
            won = [pots.Award(pot=0, player=live[0], amount=total - rake)]
        else:
            strengths, lows = self._showdown(hs.showdown_order(), holding, contributions)
            unit = table_unit(profile, t.spec.tournament, t.spec.currency)
            if lows is None:
                won = list(pots.award(after_rake, strengths, order, unit))
            else:
                won = list(pots.award_high_low(after_rake, strengths, lows, order, unit))
        several = len([p for p in after_rake if p.amount > 0]) > 1
        for w in sorted(won, key=lambda w: -w.pot):
            self.steps.append(Collect(w.player, w.amount, 0, pot=w.pot if several else 0))
        return _Settled(won=won, rake=rake, total=total)

    def _record(
        self,
        start: dict[str, int],
        *,
        rake: int,
        total_pot: int,
        carried: int,
        hero: str | None = None,
        dealt: Cards | None = None,
        up_cards: tuple[tuple[str, int], ...] = (),
    ) -> Hand:
        """The hand's record: the table's facts, the steps written down, and how it ended
        (a misdeal's has no hero, rake or cards)."""
        t = self.table
        spec = t.spec
        return Hand(
            site=spec.site,
            hand_id=str(spec.first_hand_id + t.hand_no),
            table=t.table_name,
            game=spec.game,
            structure=spec.structure,
            stakes=t.stakes,
            currency=spec.currency,
            time=t.time,
            button=t.button,
            seats=tuple(Seat(s.seat, s.name, start[s.name], 0) for s in t.sitters),
            steps=tuple(self.steps),
            file="",
            line=0,
            max_seats=spec.max_seats,
            tournament=t.tournament,
            house=(spec.house or HOUSE) if spec.home else None,
            hero=hero,
            dealt=dealt,
            rake=rake,
            total_pot=total_pot,
            carried=carried,
            up_cards=up_cards,
        )

    def _misdeal(
        self, hs: HandState, hands: list[Cards], start: dict[str, int]
    ) -> tuple[Hand, dict[str, int]]:
        """A card exposed while dealing: the deal is void, the antes stay in the pot and
        the same dealer deals again (the next hand).  The record holds the posts and the
        note only; the voided cards are nobody's."""
        t = self.table
        exposed = hands[t.rng.randrange(len(hands))][0]
        text = f"Misdeal: the {format_card(exposed)} is exposed; the same dealer deals again"
        self.steps.append(Note(MISDEAL_NOTE, text, 0))
        hand = self._record(start, rake=0, total_pot=hs.pot, carried=hs.carried)
        return hand, {p: hs.stack[p] for p in hs.order}

    def _bet(
        self,
        hs: HandState,
        legal: Legal,
        holding: dict[str, Cards],
        judge: Judge,
        style: Style,
    ) -> None:
        t = self.table
        player = legal.player
        draws_left = t.rules.draws - hs.street
        can_raise = legal.aggressive is not None
        opening = t.rules.opener is Opener.JACKS and hs.street == 0 and hs.current_bet == 0
        if opening and not can_open(holding[player], t.rules.wild):
            can_raise = False  # no openers: a check (a pass) is all this player may do
        elif opening and can_raise and t.rng.random() < 0.8:
            self._apply(hs, player, ActionKind.BET, legal.min_to)  # open what you can
            return
        opts = BetOptions(
            to_call=0 if legal.can_check else legal.call,
            raise_min_to=legal.min_to if can_raise else None,
            raise_max_to=legal.max_to if can_raise else None,
            committed=hs.street_bet[player],
            stack=hs.stack[player],
            pot=hs.pot,
            draws_left=draws_left,
            big_blind=t.stakes.big_blind,
            no_limit_or_pot=t.rules.structure is not Structure.FIXED,
        )
        wild = t.rules.wild
        feel = (
            strength(holding[player], judge, draws_left, t.rng)
            if wild is None
            else wild_strength(holding[player], wild, draws_left, t.rng)
        )
        choice = decide(opts, feel, style, t.rng)
        if choice.kind in ("call", "check") and self._shoves(hs, legal):
            assert legal.aggressive is not None
            self._apply(hs, player, legal.aggressive, legal.all_in_to)
            return
        if choice.kind == "fold":
            self._apply(hs, player, ActionKind.FOLD, 0)
        elif choice.kind == "check":
            self._apply(hs, player, ActionKind.CHECK, 0)
        elif choice.kind == "call":
            self._apply(hs, player, ActionKind.CALL, hs.street_bet[player] + legal.call)
        else:
            assert legal.aggressive is not None
            to = choice.to
            unit = table_unit(profile_for(t.spec.site), t.spec.tournament, t.spec.currency)
            if legal.min_to is not None and to not in (legal.min_to, legal.max_to):
                to = max(legal.min_to, to - to % unit)  # a size in whole chips
            self._apply(hs, player, legal.aggressive, to)

    def _shoves(self, hs: HandState, legal: Legal) -> bool:
        """A short stack in a fixed-limit tournament that would check or call puts in the
        rest half the time: an all-in bet or raise short of a full one, as real limit
        tournaments see them constantly (RULES.md, short all-ins: half a bet or more
        reopens the betting, less may be completed by the next player)."""
        t = self.table
        return (
            t.spec.tournament
            and t.rules.structure is Structure.FIXED
            and legal.aggressive is not None
            and legal.min_to == legal.all_in_to > hs.current_bet
            and t.rng.random() < 0.5
        )

    def _apply(self, hs: HandState, player: str, kind: ActionKind, to: int) -> None:
        """Perform and write down one action; ``to`` is the player's street total after it."""
        stack = hs.stack[player]
        returned = dict(hs.returned)
        street = hs.street
        amount = to - hs.street_bet[player] if to else 0
        hs.apply_action(player, kind, amount)
        all_in = amount > 0 and amount == stack
        # sites state the total a raise reaches ("raises $2 to $4"), not a bet's
        stated = to if kind is ActionKind.RAISE else None
        self.steps.append(Action(player, street, kind, 0, amount=amount, to=stated, all_in=all_in))
        self._uncalled(hs, returned)

    def _uncalled(self, hs: HandState, before: dict[str, int]) -> None:
        """Write the bets the state machine just gave back (a round closed unmatched)."""
        for p in hs.order:
            if hs.returned[p] > before[p]:
                self.steps.append(Uncalled(p, hs.returned[p] - before[p], 0))

    def _draw(
        self,
        hs: HandState,
        player: str,
        cards: Cards,
        *,
        draw: int,
        limit: int,
        deck: Deck,
        judge: Judge,
        is_hero: bool,
    ) -> Cards:
        rng = self.table.rng
        draws_left = self.table.rules.draws - draw + 1
        rules = self.table.rules
        shown: Cards | None = None
        if judge is Judge.HIGH and rules.max_discard_with_ace is not None:
            # home rule: three cards, four by a player who keeps (and shows) an ace, five
            # (the ace shown and thrown too) where the house allows it
            kept = (
                keep_high(cards, rng, 5)
                if rules.wild is None
                else keep_wild(cards, rules.wild, rng, 5)
            )
            while 5 - len(kept) > rules.discard_limit(any(c >> 2 == 12 for c in kept)):
                kept = (*kept, max((c for c in cards if c not in kept), key=lambda c: c >> 2))
            kept = tuple(c for c in cards if c in kept)
            if 5 - len(kept) > rules.max_discard:
                shown = kept
                if rules.max_discard_with_ace == 5 and rng.random() < 0.3:
                    kept = ()  # the ace shown, then thrown with the rest
        elif judge is Judge.HIGH:
            kept = keep_high(cards, rng, limit)
        elif judge is Judge.BADUGI:
            kept = keep_badugi(cards, draws_left, rng)
        else:
            kept = keep_low(cards, judge, draws_left, rng)
            while 5 - len(kept) > limit:
                kept = (*kept, next(c for c in cards if c not in kept))
        if rules.no_replacement:
            # no card once the stub and the discards shuffled once are used up: the player
            # keeps the best of the cards they cannot replace
            left = deck.left_without_replacement()
            while len(cards) - len(kept) > left:
                keep = max((c for c in cards if c not in kept), key=lambda c: c >> 2)
                kept = tuple(c for c in cards if c in kept or c == keep)
            if shown is not None and len(cards) - len(kept) <= rules.max_discard:
                shown = None  # no longer a draw the ace has to justify
        discarded = tuple(c for c in cards if c not in kept)
        got = deck.replace(discarded)
        returned = dict(hs.returned)
        reshuffled = hs.apply_draw(player, len(discarded))
        if reshuffled != got.reshuffled:
            raise RuntimeError("the deck and the state machine disagree on the stub")
        if reshuffled:  # written before the draw that needs the new stub, as PokerStars does
            self.steps.append(Note("reshuffle", RESHUFFLE_TEXT, 0))
        if is_hero:
            self.steps.append(
                Draw(
                    player,
                    draw,
                    len(discarded),
                    0,
                    discarded=discarded,
                    kept=kept,
                    received=got.received,
                    shown=shown,
                )
            )
        elif shown is not None and kept:  # drawing four: the ace kept is shown
            self.steps.append(
                Draw(
                    player,
                    draw,
                    len(discarded),
                    0,
                    kept=kept,
                    shown=shown,
                )
            )
        elif shown is not None:  # drawing five: the ace is shown, then thrown
            self.steps.append(
                Draw(
                    player,
                    draw,
                    len(discarded),
                    0,
                    kept=(),
                    shown=shown,
                )
            )
        elif discarded:
            self.steps.append(Draw(player, draw, len(discarded), 0))
        else:  # standing pat: that nothing was thrown or received is known of anyone
            self.steps.append(Draw(player, draw, 0, 0, discarded=(), received=()))
        self._uncalled(hs, returned)
        return kept + got.received

    def _showdown(
        self,
        turn: list[str],
        holding: dict[str, Cards],
        contributions: dict[str, int],
    ) -> tuple[dict[str, int], dict[str, int] | None]:
        """Show in the state's order; a player whose every pot is already lost (both halves
        of it, high-low) usually mucks.  Returns the shown hands' high values and, in a
        high-low game, their low values (smaller is better)."""
        rng = self.table.rng
        rules = self.table.rules
        shown: dict[str, int] = {}
        lows: dict[str, int] | None = {} if rules.low is not None else None
        for player in turn:
            value = high_value(holding[player], rules)
            low = low_value(holding[player], rules)
            beaten = any(
                v < value and contributions[q] >= contributions[player] for q, v in shown.items()
            )
            if beaten and lows is not None and low is not None:
                beaten = any(
                    v < low and contributions[q] >= contributions[player] for q, v in lows.items()
                )
            if beaten and rng.random() < 0.8:
                self.steps.append(Muck(player, 0))
                continue
            shown[player] = value
            if lows is not None and low is not None:
                lows[player] = low
            self.steps.append(Show(player, holding[player], 0))
        return shown, lows
