"""The overview's "Hands behind" picker: which figures' hands can be opened in the
replayer, how each is named, and which hands each one means.

A figure on the page (every hand shown, a position, a showdown class, a statistic's
sample or the hands where it happened, stakes, a session) is a ``Target``; the page
lists ``targets`` and, when one is opened, asks ``figures.hand_ids`` for
``hand_ids_query(target, sessions)``.  A bar clicked on a chart names a target too
(``Target(kind, value)``), so the chart and the picker agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, tzinfo
from typing import Any, NamedTuple

import pandas as pd

from analysis import times
from analysis.statistics.figures import StatValue
from analysis.statistics.text import count


class Target(NamedTuple):
    """What a figure's hands are: ``kind`` "all", "position", "final_class", "stakes"
    (``value`` the position, class or stakes), "stat" (``value`` its key, ``counted``
    "sample" or "hits") or "session" (``value`` its row in the sessions)."""

    kind: str
    value: str | int | None = None
    counted: str | None = None


EVERY_HAND = Target("all")


def targets(
    hands: int,
    positions: pd.DataFrame,
    classes: Sequence[str],
    values: Sequence[StatValue],
    stakes: pd.DataFrame,
    sessions: pd.DataFrame,
    zone: tzinfo = UTC,
) -> dict[Target, str]:
    """Every target of the page's figures, in the page's order, with its label:
    ``positions`` (position, hands), the showdown ``classes`` shown, the statistics with
    a sample, ``stakes`` (stakes) and ``sessions`` (start, hands) as the page has them;
    a session's start shown in ``zone``."""
    out = {EVERY_HAND: f"Every hand shown ({hands:,})"}
    for p, n in zip(positions["position"], positions["hands"], strict=True):
        out[Target("position", str(p))] = f"Position {p} ({n:,} hands)"
    for c in classes:
        out[Target("final_class", c)] = f"Showdowns with {c}"
    for v in values:
        if v.denominator:
            out[Target("stat", v.key, "hits")] = f"{v.name}: where it happened ({v.numerator:,})"
            out[Target("stat", v.key, "sample")] = f"{v.name}: its sample ({v.denominator:,})"
    for s in stakes["stakes"].unique():
        out[Target("stakes", str(s))] = f"Stakes {s}"
    for i, row in sessions.iterrows():
        out[Target("session", int(str(i)))] = (
            f"Session {int(str(i)) + 1}: {times.shown(row['start'], zone, fmt='%Y-%m-%d %H:%M')} "
            f"({count(int(row['hands']), 'hand')})"
        )
    return out


def hand_ids_query(target: Target, sessions: pd.DataFrame) -> dict[str, Any]:
    """The keyword arguments of ``figures.hand_ids`` that find ``target``'s hands (a
    session by its span in ``sessions``)."""
    if target.kind == "stat":
        return {"stat": target.value, "counted": target.counted}
    if target.kind in ("position", "final_class", "stakes"):
        return {"column": target.kind, "value": target.value}
    if target.kind == "session":
        row = sessions.iloc[int(target.value or 0)]
        return {"start": row["start"].to_pydatetime(), "end": row["end"].to_pydatetime()}
    return {}
