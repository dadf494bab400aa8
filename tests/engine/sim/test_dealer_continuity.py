"""Dealt table sessions carry every stack from hand to hand (engine.continuity agrees), and a
stack that changes between two dealt hands is caught."""

from __future__ import annotations

import dataclasses

import pytest

from engine.continuity import check_continuity
from engine.record import Game, Hand, Structure
from engine.sim.dealer import deal_hands
from tests.engine.sim.test_dealer import final_stacks

SESSIONS = [
    (Game.TRIPLE_DRAW_27, Structure.FIXED, 6),
    (Game.TRIPLE_DRAW_27, Structure.FIXED, 2),
    (Game.SINGLE_DRAW_27, Structure.NO_LIMIT, 5),
    (Game.FIVE_CARD_DRAW, Structure.POT, 4),
]


@pytest.mark.parametrize(("game", "structure", "players"), SESSIONS)
def test_a_dealt_session_has_no_continuity_problem(
    game: Game, structure: Structure, players: int
) -> None:
    hands = list(deal_hands(150, game, players, seed=17, structure=structure))
    assert len({h.table for h in hands}) >= 1
    assert check_continuity(hands) == {}


def _with_stack(hand: Hand, player: str, stack: int) -> Hand:
    seats = tuple(dataclasses.replace(s, stack=stack) if s.player == player else s
                  for s in hand.seats)
    return dataclasses.replace(hand, seats=seats)


def test_a_stack_changed_between_dealt_hands_is_a_warning_up_and_an_error_down() -> None:
    hands = list(deal_hands(20, Game.TRIPLE_DRAW_27, 4, seed=2, structure=Structure.FIXED))
    first, second = hands[0], hands[1]
    assert first.table == second.table
    player = second.seats[0].player
    ended = final_stacks(first)[player]
    grown = [first, _with_stack(second, player, ended + 500)]
    found = check_continuity(grown)
    (problem,) = found[(second.site, second.hand_id)]
    assert problem.code == "STACK_CHANGE" and problem.severity.value == "warning"
    shrunk = [first, _with_stack(second, player, ended - 1)]
    (problem,) = check_continuity(shrunk)[(second.site, second.hand_id)]
    assert problem.code == "STACK_MISMATCH" and problem.severity.value == "error"
