"""The records' quicker ``__init__`` builds what the dataclass's own built, and refuses
classes it could not build the same way."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from engine.fast_init import fast_init
from engine.record import Action, ActionKind, Hand, Seat


@dataclasses.dataclass(frozen=True, slots=True)
class _Plain:
    a: int
    b: str = "x"
    c: tuple[int, ...] = ()


_Original = _Plain.__init__
fast_init(_Plain)


def test_fields_and_defaults_are_set_as_the_dataclass_sets_them() -> None:
    built = _Plain(1)
    assert (built.a, built.b, built.c) == (1, "x", ())
    assert _Plain(2, c=(3,), b="y") == _Plain(2, "y", (3,))
    assert repr(_Plain(2, "y")) == "_Plain(a=2, b='y', c=())"
    old = object.__new__(_Plain)
    _Original(old, 2, "y")
    assert old == _Plain(2, "y") and hash(old) == hash(_Plain(2, "y"))


def test_a_record_stays_frozen_picklable_and_replaceable() -> None:
    action = Action("Hero", 1, ActionKind.RAISE, 12, 20, 40)
    assert (action.amount, action.to, action.all_in) == (20, 40, False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        action.amount = 30  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(action)) == action
    assert dataclasses.replace(action, all_in=True).all_in is True
    seat = Seat(seat=3, player="Hero", stack=500, line=4)
    assert (seat.seat, seat.stack, seat.sitting_out) == (3, 500, False)
    assert Hand.__init__.__qualname__ == "Hand.__init__"


def test_wrong_arguments_fail_as_they_did() -> None:
    with pytest.raises(TypeError):
        _Plain()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        _Plain(1, d=2)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        _Plain(1, "x", (), 4)  # type: ignore[call-arg]


def test_classes_it_cannot_serve_are_refused() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Factory:
        items: list[int] = dataclasses.field(default_factory=list)

    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            pass

    for cls in (Factory, NoSlots, Checked):
        with pytest.raises(TypeError):
            fast_init(cls)


def test_the_replays_results_stay_frozen_picklable_and_equal() -> None:
    """The replay's own results (problems, verdicts, pots, settlements) are built the
    quicker way too: workers pickle them, the tests compare them."""
    from engine.pots import Pot, SettledPot
    from engine.problems import Finding
    from engine.settle import Reported, Settlement
    from engine.verdict import Problem, Severity, Verdict

    problem = Problem("STACK_MISMATCH", Severity.ERROR, 7, "short")
    assert Finding("STACK_MISMATCH", "short").at(7) == problem
    assert Verdict((problem,)).problems == (problem,) and Verdict().problems == ()
    assert pickle.loads(pickle.dumps(Verdict((problem,)))) == Verdict((problem,))
    assert hash(Problem("STACK_MISMATCH", Severity.ERROR, 7, "short")) == hash(problem)
    with pytest.raises(dataclasses.FrozenInstanceError):
        problem.line = 8  # type: ignore[misc]
    pot = SettledPot(150, ("A", "B"), ("A",))
    assert (pot.high, pot.low) == (None, None) and Pot(5, ("A",)).eligible == ("A",)
    settled = Settlement([problem], (pot,), {})
    assert pickle.loads(pickle.dumps(settled)) == settled
    reported = Reported((), (), None, 150, (), False, 12)
    assert dataclasses.replace(reported, end_line=13).end_line == 13
