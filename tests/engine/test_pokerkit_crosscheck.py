"""Dealt hands replayed in pokerkit (an independent engine) end with the same stacks.

pokerkit 0.7.7 ships fixed-limit 2-7 triple draw and no-limit 2-7 single draw as named
games, but its ``State`` is assembled from parts (streets, betting structure, hand types),
so every game we deal can be built from them: 2-7 with ``StandardLowHand``, A-5 with
``RegularLowHand`` (ace low, straights and flushes ignored: razz's ranking), five-card draw
with ``StandardHighHand``; fixed, pot and no limit; 1 or 3 draws.  All five games and all
three structures are cross-checked here.

What pokerkit checks for us: whose turn it is at every action (we assert its actor is our
player), the chips of every call (its call amount against ours), that every bet and raise
is one it accepts, the side pots, who wins each pot at showdown and the final stacks.

Where the two differ by design, and how it is handled (not skipped):
- rake: pokerkit rakes pot by pot through a callback that sees one amount; sites (and we)
  take the rake from the main pot first.  pokerkit's own pots are raked that way here
  (``_MainPotFirstRake``), with the total rake the record states.
- odd chips: pokerkit gives a pot's whole remainder to the first winner in seat order, we
  give one chip each to the first winners clockwise from the button.  The two agree
  except when three or more players split a pot with a remainder of two or more; such a
  hand is compared after moving those chips, and the test counts them.
- a no-limit all-in raise that no opponent can answer (each is all-in or has fewer chips
  than the bet already faced) is refused by pokerkit; sites accept it and return the
  excess uncalled, so it is replayed in pokerkit as a call (the stacks end the same).
- everyone but one player all-in and that player's bet matched (the small blind all-in
  for less than the big blind): RULES.md has nobody left to decide and the record has no
  step; pokerkit still asks that player, who checks (``_check_where_nobody_decides``).
- pokerkit counts a fixed-limit cap without the big blind; ours is stricter (RULES.md), so
  every sequence we deal is one pokerkit accepts.  PokerStars lifts the cap when two
  players are left (its profile); pokerkit's cap is per round, so for such a site it gets
  none, and the cap is checked by our own state machine (tests/engine/sim/test_dealer.py).
- short fixed-limit all-ins: pokerkit has no casino rule (an all-in of half a bet that
  reopens the betting, the completion of a short all-in bet), so the hands here are dealt
  and replayed at sites without it (``casino_short_all_ins`` False, ``_as_pokerkit``); the
  casino rule is checked in tests/engine/test_short_all_ins.py.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from dataclasses import replace
from decimal import Decimal

import pytest
from pokerkit import (
    Automation,
    BettingStructure,
    Deck,
    HandHistory,
    Mode,
    Opening,
    Pot,
    RegularLowHand,
    StandardHighHand,
    StandardLowHand,
    State,
    Street,
)

from engine import pots
from engine.cards import Cards, format_cards
from engine.pots import NO_RAKE
from engine.profiles import PROFILES, profile_for
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
    Show,
    Structure,
    Uncalled,
)
from engine.rules import rules_for
from engine.sim.dealer import deal_hands
from parser.phh import write_phh

_HAND_TYPES = {
    Game.TRIPLE_DRAW_27: StandardLowHand,
    Game.SINGLE_DRAW_27: StandardLowHand,
    Game.TRIPLE_DRAW_A5: RegularLowHand,
    Game.SINGLE_DRAW_A5: RegularLowHand,
    Game.FIVE_CARD_DRAW: StandardHighHand,
}
_BETTING = {
    Structure.FIXED: BettingStructure.FIXED_LIMIT,
    Structure.POT: BettingStructure.POT_LIMIT,
    Structure.NO_LIMIT: BettingStructure.NO_LIMIT,
}
_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


@pytest.fixture(autouse=True)
def _as_pokerkit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sites these hands are dealt at, without the casino rule of short all-ins."""
    for site in ("pokerstars", "phh"):
        strict = replace(PROFILES[site], casino_short_all_ins=False)
        monkeypatch.setitem(PROFILES, site, strict)


def _text(cards: Cards | None, count: int) -> str:
    return format_cards(cards, "") if cards is not None else "??" * count


def record_final_stacks(hand: Hand) -> dict[str, int]:
    stacks = {s.player: s.stack for s in hand.seats}
    for step in hand.steps:
        if isinstance(step, Post | Action):
            stacks[step.player] -= step.amount
        elif isinstance(step, Uncalled | Collect):
            stacks[step.player] += step.amount
    return stacks


class _MainPotFirstRake(State):
    """pokerkit's state with the rake taken as sites take it: out of the main pot first.

    pokerkit rakes each pot through a callback that sees only the pot's amount; the rule
    "main pot first" needs the order, so the pots are raked here, on pokerkit's own pots.
    """

    drawlab_rake = 0

    @property
    def pots(self) -> Iterator[Pot]:
        if self._pots is not None:  # frozen at chips pushing: already raked
            yield from super().pots
            return
        left = self.drawlab_rake
        for pot in super().pots:
            taken = min(left, pot.unraked_amount)
            left -= taken
            yield Pot(pot.raked_amount + taken, pot.unraked_amount - taken, pot.player_indices)


def pokerkit_final_stacks(hand: Hand) -> dict[str, int]:
    """Replay ``hand`` in pokerkit step by step; its stacks at the end, by player."""
    rules = rules_for(hand.game, hand.structure)
    seats = [s for s in hand.seats if not s.sitting_out]
    seat_of = {s.player: s.seat for s in seats}
    assert hand.button is not None
    order = pots.clockwise_from_button(list(seat_of), seat_of, hand.button)
    index = {p: i for i, p in enumerate(order)}
    n = len(order)
    blinds = [0] * n
    antes = [0] * n
    for post in hand.posts:
        assert not post.dead
        if post.kind is PostKind.ANTE:
            antes[index[post.player]] = post.amount
        else:
            assert post.kind in (PostKind.SMALL_BLIND, PostKind.BIG_BLIND)
            blinds[index[post.player]] = post.amount
    if n == 2:  # pokerkit: heads-up, player 0 posts the second blind (and ante)
        blinds = blinds[::-1]
        antes = antes[::-1]
    st = hand.stakes
    # pokerkit's cap holds for the whole round; a site that lifts it heads-up gets none
    cap = rules.cap if profile_for(hand.site).cap_heads_up else None
    streets = []
    for street in range(rules.rounds):
        if rules.structure is Structure.FIXED:
            size = st.big_bet if rules.big_bet_round(street) else st.small_bet
        else:
            size = st.big_blind
        streets.append(
            Street(False, (False,) * 5 if street == 0 else (), 0, street > 0, Opening.POSITION,
                   size, cap)
        )
    state = _MainPotFirstRake(
        _AUTOMATIONS,
        Deck.STANDARD,
        (_HAND_TYPES[hand.game],),
        tuple(streets),
        _BETTING[hand.structure],
        True,
        tuple(antes),
        tuple(blinds),
        0,
        tuple(s.stack for s in sorted(seats, key=lambda s: index[s.player])),
        n,
        mode=Mode.CASH_GAME,
    )
    state.drawlab_rake = hand.rake or 0
    known = dict(hand.dealt_others)
    if hand.hero is not None and hand.dealt is not None:
        known[hand.hero] = hand.dealt
    for _ in range(n):
        dealee = state.hole_dealee_index
        assert dealee is not None
        state.deal_hole(_text(known.get(order[dealee]), 5))
    to_receive: dict[int, str] = {}
    mucked: set[str] = set()
    for step in hand.steps:
        if isinstance(step, Draw | Show | Muck):
            _check_where_nobody_decides(state)
        if isinstance(step, Action):
            i = index[step.player]
            assert state.actor_index == i, f"pokerkit has player {state.actor_index} to act"
            if step.kind is ActionKind.FOLD:
                state.fold()
            elif step.kind in (ActionKind.CHECK, ActionKind.CALL):
                assert state.check_or_call().amount == step.amount
            elif state.can_complete_bet_or_raise_to():
                state.complete_bet_or_raise_to(state.bets[i] + step.amount)
            else:
                # nobody left could answer it (the others are all-in or covered): pokerkit
                # refuses the raise, sites take it and give the excess back uncalled
                assert step.all_in
                state.check_or_call()
        elif isinstance(step, Draw):
            i = index[step.player]
            assert state.stand_patter_or_discarder_index == i
            state.stand_pat_or_discard(_text(step.discarded, step.count))
            if step.count:
                to_receive[i] = _text(step.received, step.count)
            while state.can_deal_hole():
                dealee = state.hole_dealee_index
                assert dealee is not None
                state.deal_hole(to_receive.pop(dealee))
        elif isinstance(step, Show) and not step.mucked:
            state.show_or_muck_hole_cards(format_cards(step.cards, ""), index[step.player])
        elif isinstance(step, Muck | Show) and step.player not in mucked:
            # a summary's "mucked [cards]" after the muck itself says nothing new
            mucked.add(step.player)
            state.show_or_muck_hole_cards(False, index[step.player])
    assert not state.status, "pokerkit thinks the hand is not over"
    return {p: state.stacks[index[p]] for p in order}


def _check_where_nobody_decides(state: State) -> None:
    """pokerkit asks the one player left with chips to act even when everyone else is
    all-in and the bet is matched; RULES.md leaves nobody to decide there (the record has
    no step), so that player checks in pokerkit."""
    while state.actor_index is not None and state.checking_or_calling_amount == 0:
        with_chips = [
            i for i, live in enumerate(state.statuses) if live and state.stacks[i] > 0
        ]
        assert with_chips == [state.actor_index], "pokerkit has a real decision pending"
        state.check_or_call()


def _odd_chip_shift(hand: Hand) -> dict[str, int]:
    """What pokerkit's remainder-to-the-first rule moves, for 3+-way splits."""
    shift: dict[str, int] = {}
    by_pot: dict[int | None, list[Collect]] = {}
    for c in hand.collects:
        by_pot.setdefault(c.pot, []).append(c)
    for collects in by_pot.values():
        if len(collects) < 3:
            continue
        amounts = [c.amount for c in collects]
        total = sum(amounts)
        share, odd = divmod(total, len(amounts))
        if odd < 2:
            continue
        assert hand.button is not None
        seat_of = {s.player: s.seat for s in hand.seats}
        first = pots.clockwise_from_button([c.player for c in collects], seat_of, hand.button)
        for k, player in enumerate(first):
            ours = share + (1 if k < odd else 0)
            theirs = share + (odd if k == 0 else 0)
            shift[player] = shift.get(player, 0) + theirs - ours
    return shift


GAMES = [
    (Game.TRIPLE_DRAW_27, Structure.FIXED),
    (Game.TRIPLE_DRAW_27, Structure.POT),
    (Game.SINGLE_DRAW_27, Structure.NO_LIMIT),
    (Game.TRIPLE_DRAW_A5, Structure.FIXED),
    (Game.SINGLE_DRAW_A5, Structure.FIXED),
    (Game.FIVE_CARD_DRAW, Structure.FIXED),
    (Game.FIVE_CARD_DRAW, Structure.POT),
    (Game.FIVE_CARD_DRAW, Structure.NO_LIMIT),
]


@pytest.mark.parametrize(("game", "structure"), GAMES)
@pytest.mark.parametrize("players", [2, 4, 6])
def test_dealt_hands_end_with_the_same_stacks_in_pokerkit(
    game: Game, structure: Structure, players: int
) -> None:
    showdowns = 0
    for hand in deal_hands(40, game, players, seed=players * 31 + 7, structure=structure):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pokerkit warns about cards it did not deal
            theirs = pokerkit_final_stacks(hand)
        ours = record_final_stacks(hand)
        for player, delta in _odd_chip_shift(hand).items():
            ours[player] += delta
        assert theirs == ours, hand.hand_id
        showdowns += bool(hand.shows)
    assert showdowns > 0


@pytest.mark.parametrize(("game", "structure"), GAMES)
def test_dealt_sit_and_go_hands_end_with_the_same_stacks_in_pokerkit(
    game: Game, structure: Structure
) -> None:
    """Rising blinds, blinds posted all-in for less, knock-outs: pokerkit agrees too."""
    hands = deal_hands(120, game, 4, seed=23, structure=structure, tournament=True)
    for hand in hands:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = pokerkit_final_stacks(hand)
        ours = record_final_stacks(hand)
        for player, delta in _odd_chip_shift(hand).items():
            ours[player] += delta
        assert theirs == ours, hand.hand_id


def test_the_oracle_notices_a_pot_paid_to_the_wrong_player() -> None:
    """The comparison above can fail: pay a showdown pot to the loser and pokerkit disagrees."""
    hands = deal_hands(60, Game.TRIPLE_DRAW_27, 3, seed=4, structure=Structure.FIXED)
    hand = next(h for h in hands if len(h.shows) >= 2 and len(h.collects) == 1)
    winner = hand.collects[0].player
    loser = next(s.player for s in hand.shows if s.player != winner)
    wrong = replace(
        hand,
        steps=tuple(
            replace(s, player=loser) if isinstance(s, Collect) else s for s in hand.steps
        ),
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = pokerkit_final_stacks(wrong)
    assert theirs == record_final_stacks(hand)
    assert theirs != record_final_stacks(wrong)


# pokerkit's own PHH loader knows only the variants it ships among our games.
_PHH_GAMES = [(Game.TRIPLE_DRAW_27, Structure.FIXED), (Game.SINGLE_DRAW_27, Structure.NO_LIMIT)]


@pytest.mark.parametrize(("game", "structure"), _PHH_GAMES)
@pytest.mark.parametrize("players", [2, 3, 6])
def test_our_phh_files_replay_in_pokerkit_to_the_dealers_stacks(
    game: Game, structure: Structure, players: int
) -> None:
    """pokerkit reads the PHH text we write (standard fields only) and replays it itself.

    PHH has no rake field and pokerkit's named games keep the cap heads-up, so these
    hands are dealt without rake at a table that keeps the rulebook's cap (site "phh")."""
    hands = deal_hands(
        40, game, players, seed=players * 13, structure=structure, rake=NO_RAKE, site="phh"
    )
    for hand in hands:
        history = HandHistory.loads(write_phh(hand))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            *_, last = iter(history)
        order = list(history.players or ())
        theirs = {p: int(Decimal(last.stacks[i]) * 100) for i, p in enumerate(order)}
        ours = record_final_stacks(hand)
        for player, delta in _odd_chip_shift(hand).items():
            ours[player] += delta
        assert theirs == ours, hand.hand_id
