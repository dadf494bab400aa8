"""Moving through a replayed hand by street and by draw: what the replayer's buttons and
the pages that open a hand at a draw ask of its steps (``analysis.replayer.steps``), and
the steps of a stored hand, for the replayer page and ``drawlab replay`` alike."""

from __future__ import annotations

from datetime import UTC, tzinfo
from typing import NamedTuple

from analysis.replayer.steps import HandView, ViewStep, hand_view
from analysis.storage.queries import StoredHand
from engine.record import Draw


class StreetJumps(NamedTuple):
    """Where the street buttons go from a step: the start of its street, or of the one
    before when the step is a street's first (``back``), and the next street's start
    (``on``; the last step when there is none)."""

    back: int
    on: int


def street_starts(steps: tuple[ViewStep, ...]) -> list[int]:
    """The index of each street's first step (0 first)."""
    starts = [0]
    for i in range(1, len(steps)):
        if steps[i].street != steps[i - 1].street:
            starts.append(i)
    return starts


def street_jumps(steps: tuple[ViewStep, ...], step: int) -> StreetJumps:
    """The street buttons' targets from ``step``."""
    starts = street_starts(steps)
    last = len(steps) - 1
    return StreetJumps(
        max((s for s in starts if s < step), default=0),
        min((s for s in starts if s > step), default=last),
    )


def hero_draws(view: HandView, upto: ViewStep) -> list[Draw]:
    """The hero's draws made by step ``upto``, in order."""
    hero = view.hand.hero
    return [d for d in view.hand.draws if d.player == hero and d.line <= upto.line]


def draw_step(view: HandView, player: str, draw: int) -> int | None:
    """The index of the step where ``player`` makes draw number ``draw``."""
    lines = {d.line for d in view.hand.draws if d.player == player and d.draw == draw}
    return next((v.index for v in view.steps if v.line in lines and player in v.text), None)


def stored_view(stored: StoredHand | None, zone: tzinfo = UTC) -> HandView | None:
    """The steps of a stored hand, with the problems the store keeps for it, its time
    shown in ``zone``; ``None`` for no hand, or one stored without a record
    (``stored.note`` says why)."""
    if stored is None or stored.hand is None:
        return None
    return hand_view(stored.hand, stored.problems, zone=zone)
