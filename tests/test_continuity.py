"""Stacks carried from hand to hand at one table: exact in tournaments, top-ups warned in cash."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from engine.continuity import check_continuity
from engine.dealer import deal_hands
from engine.problems import STACK_CHANGE, STACK_MISMATCH
from engine.record import Game, Hand, Tournament
from engine.verdict import Severity


def _session() -> list[Hand]:
    return list(deal_hands(30, Game.TRIPLE_DRAW_27, 4, seed=3))


def _restack(hand: Hand, player: str, delta: int) -> Hand:
    seats = tuple(
        replace(s, stack=s.stack + delta) if s.player == player else s for s in hand.seats
    )
    return replace(hand, seats=seats)


def test_a_dealt_session_carries_every_stack_over() -> None:
    hands = _session()
    assert len({h.table for h in hands}) == 1
    assert check_continuity(hands) == {}


def test_a_cash_top_up_is_a_warning_and_a_lost_chip_an_error() -> None:
    hands = _session()
    player = hands[10].seats[0].player
    line = hands[10].seats[0].line
    up = [*hands[:10], _restack(hands[10], player, 500), *hands[11:]]
    found = check_continuity(up)
    key = (hands[10].site, hands[10].hand_id)
    after = (hands[11].site, hands[11].hand_id)  # the next hand starts below the topped-up end
    assert set(found) == {key, after}
    assert [p.code for p in found[after]] == [STACK_MISMATCH]
    (problem,) = found[key]
    assert (problem.code, problem.severity, problem.line) == (STACK_CHANGE, Severity.WARNING, line)
    assert "top-up or rebuy of 5" in problem.message
    down = [*hands[:10], _restack(hands[10], player, -1), *hands[11:]]
    (problem,) = check_continuity(down)[key]
    assert (problem.code, problem.severity) == (STACK_MISMATCH, Severity.ERROR)


def test_in_a_tournament_any_difference_is_an_error() -> None:
    tour = Tournament("77")
    hands = [replace(h, tournament=tour) for h in _session()]
    player = hands[5].seats[1].player
    up = [*hands[:5], _restack(hands[5], player, 100), *hands[6:]]
    (problem,) = check_continuity(up)[(hands[5].site, hands[5].hand_id)]
    assert (problem.code, problem.severity) == (STACK_MISMATCH, Severity.ERROR)


def test_hands_far_apart_or_in_other_files_are_not_compared() -> None:
    hands = _session()
    player = hands[10].seats[0].player
    later = replace(_restack(hands[10], player, -300), time=hands[9].time + timedelta(hours=1))
    assert (hands[10].site, hands[10].hand_id) not in check_continuity([*hands[:10], later])
    elsewhere = replace(_restack(hands[10], player, -300), file="other.txt")
    assert check_continuity([*hands[:10], elsewhere]) == {}


def test_the_order_given_does_not_matter_times_do() -> None:
    hands = _session()
    assert check_continuity(list(reversed(hands))) == {}
