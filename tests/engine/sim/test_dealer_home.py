"""Five-card draw as the user's home game: antes, jacks or better to open, three cards drawn
(four with an ace shown), dead hands when nobody can open."""

from __future__ import annotations

import itertools
import warnings

import pytest

from engine.record import ActionKind, Game, Hand, PostKind, Structure
from engine.rules import can_open
from engine.sim.dealer import deal_hands
from engine.verify import verify
from parser.phh import read_phh, write_phh
from tests.engine.sim.test_dealer import final_stacks
from tests.engine.sim.test_dealer_roundtrip import placeless
from tests.engine.test_pokerkit_crosscheck import pokerkit_final_stacks, record_final_stacks


def _home(structure: Structure, players: int, n: int = 150, seed: int = 3) -> list[Hand]:
    return list(deal_hands(n, Game.FIVE_CARD_DRAW, players, seed, structure=structure,
                           home=True))


def _dead(hand: Hand) -> bool:
    return bool(hand.total_pot) and not hand.collects


@pytest.mark.parametrize("structure", list(Structure))
@pytest.mark.parametrize("players", [2, 4, 6])
def test_home_hands_verify_under_the_home_rules(structure: Structure, players: int) -> None:
    for hand in _home(structure, players):
        assert hand.site == "home"
        assert verify(hand).problems == (), hand.hand_id


def test_everyone_antes_nobody_posts_a_blind_and_nothing_is_raked() -> None:
    for hand in _home(Structure.FIXED, 5):
        assert [p.kind for p in hand.posts] == [PostKind.ANTE] * len(hand.seats)
        assert {p.amount for p in hand.posts} == {hand.stakes.ante} == {5}
        assert hand.rake == 0


def test_the_hero_opens_only_with_jacks_or_better() -> None:
    opened = 0
    for hand in _home(Structure.FIXED, 4, n=400):
        first_bet = next((a for a in hand.actions if a.kind is ActionKind.BET), None)
        if first_bet is not None and first_bet.street == 0 and first_bet.player == hand.hero:
            assert hand.dealt is not None and can_open(hand.dealt)
            opened += 1
    assert opened > 10


def test_draws_are_three_at_most_or_four_with_the_ace_shown() -> None:
    fours = 0
    for hand in _home(Structure.FIXED, 6, n=300):
        for d in hand.draws:
            assert d.count <= 4
            if d.count == 4:
                fours += 1
                assert d.kept is not None and len(d.kept) == 1 and d.kept[0] >> 2 == 12
    assert fours > 10


def test_a_dead_hand_keeps_the_antes_for_the_next_dealer_at_the_same_table() -> None:
    """Nobody opens: the antes stay in, the deal passes to the next seat and everyone antes
    again on top (RULES.md, "Home variants"); the next hand's record carries the pot."""
    hands = _home(Structure.FIXED, 3, n=200)
    dead = [h for h in hands if _dead(h)]
    assert len(dead) > 20
    for hand in dead:
        assert all(a.kind is ActionKind.CHECK for a in hand.actions)
        assert len(hand.actions) == len(hand.seats) and not hand.draws
        start = {s.player: s.stack for s in hand.seats}
        assert final_stacks(hand) == {p: v - hand.stakes.ante for p, v in start.items()}
        assert hand.total_pot == hand.carried + hand.stakes.ante * len(hand.seats)
    carried = 0
    for before, after in itertools.pairwise(hands):
        if _dead(before):
            if after.table == before.table:
                carried += 1
                assert after.carried == before.total_pot
                seats = sorted(s.seat for s in after.seats)
                later = [s for s in seats if s > (before.button or 0)]
                assert after.button == (later[0] if later else seats[0])
                assert [p.kind for p in after.posts] == [PostKind.ANTE] * len(after.seats)
            else:  # the hero went broke paying the ante: a new table, nothing carried
                assert final_stacks(before)["Hero"] < before.stakes.big_blind
                assert after.carried == 0
        else:
            assert after.carried == 0
            if after.table != before.table:
                assert final_stacks(before)["Hero"] < before.stakes.big_blind  # went broke
    assert carried > 20


def test_home_hands_travel_through_phh_unchanged() -> None:
    for hand in _home(Structure.POT, 5, n=60):
        assert placeless(read_phh(write_phh(hand), "home.phh")) == placeless(hand)


@pytest.mark.parametrize("structure", list(Structure))
def test_home_hands_that_were_opened_end_with_the_same_stacks_in_pokerkit(
    structure: Structure,
) -> None:
    """pokerkit knows no opening requirement and no pot carried in from the deal before; it
    replays the antes, bets, draws and showdowns of every hand somebody opened with a fresh
    pot (a dead hand has nothing left to pay)."""
    checked = 0
    for hand in _home(structure, 4, n=200):
        if _dead(hand) or hand.carried:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert pokerkit_final_stacks(hand) == record_final_stacks(hand), hand.hand_id
        checked += 1
    assert checked > 40
