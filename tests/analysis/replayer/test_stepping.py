"""Moving through a replayed hand: the street buttons' targets and the draws by step."""

from __future__ import annotations

from dataclasses import replace

from analysis.replayer.stepping import (
    StreetJumps,
    draw_step,
    hero_draws,
    stored_view,
    street_jumps,
    street_starts,
)
from analysis.replayer.steps import hand_view
from analysis.storage.queries import StoredHand
from engine.verdict import Problem, Severity
from tests.analysis.replayer.test_steps import CASH, one_hand


def test_the_street_buttons_go_to_a_street_start_before_and_after_the_step() -> None:
    view = hand_view(one_hand(CASH, "220001010004"))  # Hero draws one, then pat twice
    steps = view.steps
    assert len(steps) == 25
    assert street_starts(steps) == [0, 1, 7, 9, 12, 14, 17, 19, 21, 24]
    assert street_jumps(steps, 0) == StreetJumps(back=0, on=1)
    assert street_jumps(steps, 7) == StreetJumps(back=1, on=9)  # a street's first: the one before
    assert street_jumps(steps, 8) == StreetJumps(back=7, on=9)
    assert street_jumps(steps, 24) == StreetJumps(back=21, on=24)  # the last: stays


def test_each_draw_is_found_at_its_step_and_the_hero_s_draws_so_far() -> None:
    hand = one_hand(CASH, "220001010004")
    view = hand_view(hand)
    at = [draw_step(view, "Hero", n) for n in (1, 2, 3, 4)]
    assert at == [8, 13, 18, None]  # no fourth draw
    assert [view.steps[i].text for i in (8, 13, 18)] == [
        "Hero draws 1",
        "Hero stands pat",
        "Hero stands pat",
    ]
    assert [(d.draw, d.count) for d in hero_draws(view, view.steps[12])] == [(1, 1)]
    assert [(d.draw, d.count) for d in hero_draws(view, view.steps[18])] == [(1, 1), (2, 0), (3, 0)]
    assert hero_draws(view, view.steps[7]) == []


def test_a_stored_hand_without_a_record_has_no_steps() -> None:
    hand = one_hand(CASH, "220001010004")
    problem = Problem("STACK_CHANGE", Severity.WARNING, 3, "a stack changed")
    stored = StoredHand(7, {}, "text", (problem,), hand)
    view = stored_view(stored)
    assert view is not None and len(view.steps) == 25
    assert view == hand_view(hand, (problem,))  # with the problems the store keeps
    assert view != hand_view(hand)
    assert stored_view(replace(stored, hand=None, note="unreadable")) is None
    assert stored_view(None) is None
