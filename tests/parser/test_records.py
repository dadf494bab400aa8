"""The readers' quick record constructors build the very records the classes build."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from engine.record import Action, ActionKind, Draw, Hand, Seat
from parser.outcome import HandText
from parser.records import new_action, new_draw, new_hand_text, new_seat, twin


def test_a_twin_builds_the_record_itself_frozen_and_equal() -> None:
    built = new_action("Hero", 2, ActionKind.RAISE, 17, 20, 40)
    assert type(built) is Action
    assert built == Action("Hero", 2, ActionKind.RAISE, 17, 20, 40)
    assert hash(built) == hash(Action("Hero", 2, ActionKind.RAISE, 17, 20, 40))
    assert repr(built) == repr(Action("Hero", 2, ActionKind.RAISE, 17, 20, 40))
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.amount = 30  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(built)) == built
    assert dataclasses.replace(built, all_in=True).all_in is True


def test_a_quick_hand_text_is_a_hand_text_and_pickles_as_one() -> None:
    made = new_hand_text("a.txt", 3, "PokerStars Hand #1: ...", "pokerstars")
    assert type(made) is HandText
    assert made == HandText("a.txt", 3, "PokerStars Hand #1: ...", "pokerstars")
    assert made.__reduce__() == (HandText, ("a.txt", 3, "PokerStars Hand #1: ...", "pokerstars"))
    assert pickle.loads(pickle.dumps(made)) == made
    assert new_hand_text("a.txt", 3, "x") == HandText("a.txt", 3, "x", "")


def test_a_twin_takes_the_same_defaults_and_keywords() -> None:
    assert new_seat(3, "Ann", 500, 4) == Seat(3, "Ann", 500, 4, False)
    assert new_draw("Ann", 1, 2, 9, kept=(1, 2, 3)) == Draw("Ann", 1, 2, 9, None, (1, 2, 3))
    with pytest.raises(TypeError):
        new_seat(3, "Ann")  # type: ignore[call-arg]


def test_a_class_a_twin_cannot_mirror_is_refused() -> None:
    @dataclasses.dataclass(frozen=True)
    class NotSlotted:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Factory:
        a: list[int] = dataclasses.field(default_factory=list)

    for cls in (NotSlotted, Factory):
        with pytest.raises(TypeError):
            twin(cls)
    assert twin(Hand).__init__.__qualname__ == "Hand.__init__"
