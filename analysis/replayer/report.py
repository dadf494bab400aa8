"""The output of ``drawlab replay``: a hand's steps in a terminal, or one JSON object a step.

The JSON shape is a contract scripts rely on (issue 13), one line per step:
``{"hand_id", "step", "street", "event", "pot", "stacks": {player: amount},
"bets": {player: amount}}``.  Amounts are decimal strings in the table's units, as
``analysis.replayer.steps.Units.plain`` writes them: money with two decimals (``"1.50"``),
tournament chips whole (``"5260"``); never JSON numbers, which are floats to most readers.
The steps are the replayer's (``analysis.replayer.steps``): step 0 has the forced bets
posted, the last one the pots settled and the stacks the hand ends with.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from analysis.replayer.steps import HandView, ViewStep
from engine.verdict import Problem


def step_json(view: HandView, step: ViewStep) -> str:
    units = view.units
    return json.dumps(
        {
            "hand_id": view.hand.hand_id,
            "step": step.index,
            "street": step.street,
            "event": step.text,
            "pot": units.plain(step.pot),
            "stacks": {s.player: units.plain(s.stack) for s in step.seats},
            "bets": {s.player: units.plain(s.bet) for s in step.seats},
        },
        ensure_ascii=False,
    )


def hand_json(view: HandView) -> Iterator[str]:
    for step in view.steps:
        yield step_json(view, step)


def _problem(p: Problem) -> str:
    return f"    ! line {p.line}: {p.severity.value} {p.code}: {p.message}"


def hand_text(view: HandView) -> Iterator[str]:
    """The header, the problems no step shows, then each step: what happened, the pot, and
    every player's stack (with the bet in front of them, and who won)."""
    units = view.units
    yield from view.header.lines()
    for p in view.unplaced:
        yield _problem(p)
    width = max((len(s.street) for s in view.steps), default=0)
    for step in view.steps:
        yield f"{step.index:>3}  {step.street:<{width}}  pot {units.text(step.pot):>9}  {step.text}"
        seats = []
        for s in step.seats:
            bet = f" (bet {units.text(s.bet)})" if s.bet else ""
            mark = " *won*" if s.winner else ""
            out = " folded" if s.folded else ""
            seats.append(f"{s.player} {units.text(s.stack)}{bet}{out}{mark}")
        yield "     " + " | ".join(seats)
        for p in step.problems:
            yield _problem(p)
