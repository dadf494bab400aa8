"""The replay's table views, one per step, as the dashboard's replayer shows them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.cards import parse_cards
from engine.pots import Pot
from engine.problems import COLLECT_MISMATCH, DUPLICATE_CARD, OUT_OF_TURN
from engine.record import Note, Post, PostKind, Seat, Tournament
from engine.replay import TableState, replay
from tests.verify_hands import (
    BASE_STEPS,
    C,
    R,
    X,
    act,
    base_hand,
    draw,
    make_hand,
    show,
    with_step,
)


def at_line(states: tuple[TableState, ...], line: int) -> TableState:
    (state,) = [s for s in states if s.line == line and s.step >= 0]
    return state


def test_one_view_before_the_first_step_and_one_after_each_step() -> None:
    r = replay(base_hand(), views=True)
    assert r.verdict.ok and r.verdict.problems == ()
    assert [s.step for s in r.states] == list(range(-1, len(BASE_STEPS)))
    first = r.states[0]
    assert (first.phase, first.pot, first.to_act) == ("deal", 0, None)


def test_the_view_after_a_raise() -> None:
    s = at_line(replay(base_hand(), views=True).states, 8)  # A raises to 20
    assert (s.phase, s.street, s.to_act, s.pot, s.current_bet) == ("betting", 0, "B", 35, 20)
    seats = {v.player: v for v in s.seats}
    assert (seats["A"].stack, seats["A"].bet, seats["A"].total) == (980, 20, 20)
    assert (seats["B"].bet, seats["C"].bet) == (5, 10)
    assert s.text == "A raises to 0.20"
    assert s.problems == ()


def test_the_view_after_a_draw_shows_the_known_cards_and_the_counts() -> None:
    states = replay(base_hand(), views=True).states
    s = at_line(states, 13)  # A throws Kd, gets 2s
    seats = {v.player: v for v in s.seats}
    assert seats["A"].cards == parse_cards("7s 5d 4h 3c 2s")
    assert seats["A"].drawn == (1,)
    assert seats["B"].cards is None and seats["B"].drawn == (2,)
    assert (s.phase, s.street, s.to_act) == ("betting", 1, "B")
    assert at_line(states, 11).to_act == "C"  # the next to draw
    assert at_line(states, 11).draw == 1


def test_the_last_view_is_the_showdown_with_the_whole_pot() -> None:
    s = replay(base_hand(), views=True).states[-1]
    assert s.text == "A collects 1.71"
    assert (s.phase, s.pot) == ("showdown", 180)
    assert s.pots == (Pot(180, ("C", "A")),)
    seats = {v.player: v for v in s.seats}
    assert seats["B"].folded and not seats["C"].folded


def test_a_problem_is_attached_to_the_view_of_its_step() -> None:
    steps = list(BASE_STEPS)
    steps[3], steps[4] = steps[4], steps[3]  # C calls before B
    states = replay(make_hand(steps), views=True).states
    flagged = [(s.line, [p.code for p in s.problems]) for s in states if s.problems]
    assert flagged == [(9, [OUT_OF_TURN])]


def test_side_pots_appear_when_a_player_is_all_in() -> None:
    steps = [
        Post("B", PostKind.SMALL_BLIND, 5, 0),  # 6
        Post("C", PostKind.BIG_BLIND, 10, 0),  # 7: C has 5 behind
        act("A", 0, R, 20),  # 8
        act("B", 0, C, 15),  # 9
        act("C", 0, C, 5),  # 10: all-in for 15
        draw("B", 1, 0),
        draw("C", 1, 0),
        draw("A", 1, 0),
        act("B", 1, X),
        act("A", 1, X),
        *[
            s
            for d in (2, 3)
            for s in (
                draw("B", d, 0),
                draw("C", d, 0),
                draw("A", d, 0),
                act("B", d, X),
                act("A", d, X),
            )
        ],
        show("B", "8s 6d 4h 3c 2s"),
        show("C", "7h 5c 4c 3s 2d"),
        show("A", "9h 6c 4d 3d 2c"),
    ]
    hand = make_hand(steps, stacks=(1000, 1000, 15), rake=None, total_pot=None, dealt=None)
    s = at_line(replay(hand, views=True).states, 10)
    assert s.pots == (Pot(45, ("B", "C", "A")), Pot(10, ("B", "A")))
    assert {v.player: v.all_in for v in s.seats} == {"A": False, "B": False, "C": True}


# Rules the one-pass engine's tests pinned (engine/fast_replay.py went; these are the one
# engine's own now).


def test_a_card_thrown_comes_back_only_after_the_stub_ran_out() -> None:
    # C receives the king A threw in the first draw, with 42 cards still in the stub
    hand = make_hand(with_step(19, draw("C", 2, 1, received="Kd")))
    assert [(p.code, p.line) for p in replay(hand).verdict.problems] == [(DUPLICATE_CARD, 19)]


def test_a_reshuffle_where_the_site_writes_it_lets_a_thrown_card_come_back() -> None:
    """The deck reshuffled before C's second draw: the stub is rebuilt there, and A's king,
    thrown before it, may come back to C."""
    steps = with_step(19, draw("C", 2, 1, received="Kd"))
    steps.insert(19 - 6, Note("reshuffle", "The deck is reshuffled", 0))
    assert replay(make_hand(steps)).verdict.problems == ()


def test_a_seat_the_steps_never_name_is_not_dealt_in() -> None:
    hand = base_hand()
    watched = replace(hand, seats=(*hand.seats, Seat(9, "Watcher", 500, hand.line)))
    r = replay(watched)
    assert r.verdict.problems == ()
    assert r.final["Watcher"] == 500  # seated, never dealt in: the stack is untouched
    assert r.final == {**replay(hand).final, "Watcher": 500}


@pytest.mark.parametrize(
    "changes",
    [
        {"rake": None, "total_pot": None},  # 80 of 180 missing
        {"rake": 9, "total_pot": None},  # 100 + 9 is not 180
        {"rake": None, "total_pot": 180},
    ],
)
def test_a_collect_short_of_the_pot_is_a_collect_mismatch(changes: dict[str, object]) -> None:
    short = replace(BASE_STEPS[-1], amount=100)
    hand = make_hand(with_step(31, short), **changes)  # type: ignore[arg-type]
    assert [p.code for p in replay(hand).verdict.problems] == [COLLECT_MISMATCH]


def test_a_tournament_pot_with_a_chip_missing_is_a_collect_mismatch() -> None:
    hand = replace(make_hand(list(BASE_STEPS), rake=None, total_pot=None), currency="chips")
    hand = replace(hand, tournament=Tournament("T1"))
    steps = list(hand.steps)
    steps[-1] = replace(steps[-1], amount=179)  # one chip short, no rake in a tournament
    hand = replace(hand, steps=tuple(steps))
    assert [p.code for p in replay(hand).verdict.problems] == [COLLECT_MISMATCH]
