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


def test_a_dead_hand_keeps_the_antes_and_ends_the_table_session() -> None:
    hands = _home(Structure.FIXED, 3, n=200)
    dead = [h for h in hands if _dead(h)]
    assert len(dead) > 20
    for hand in dead:
        assert all(a.kind is ActionKind.CHECK for a in hand.actions)
        assert len(hand.actions) == len(hand.seats) and not hand.draws
        start = {s.player: s.stack for s in hand.seats}
        assert final_stacks(hand) == {p: v - hand.stakes.ante for p, v in start.items()}
    for before, after in itertools.pairwise(hands):
        if _dead(before):
            assert after.table != before.table  # the next deal is not dealt
        elif after.table != before.table:
            assert final_stacks(before)["Hero"] < before.stakes.big_blind  # the hero went broke


def test_home_hands_travel_through_phh_unchanged() -> None:
    for hand in _home(Structure.POT, 5, n=60):
        assert placeless(read_phh(write_phh(hand), "home.phh")) == placeless(hand)


@pytest.mark.parametrize("structure", list(Structure))
def test_home_hands_that_were_opened_end_with_the_same_stacks_in_pokerkit(
    structure: Structure,
) -> None:
    """pokerkit knows no opening requirement; it replays the antes, bets, draws and
    showdowns of every hand somebody opened (a dead hand has nothing left to pay)."""
    checked = 0
    for hand in _home(structure, 4, n=120):
        if _dead(hand):
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert pokerkit_final_stacks(hand) == record_final_stacks(hand), hand.hand_id
        checked += 1
    assert checked > 40
