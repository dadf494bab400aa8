"""The overview's "Hands behind" picker: every figure's target with its label, in the
page's order, and the query of ``figures.hand_ids`` each one means."""

from __future__ import annotations

from datetime import datetime

import pandas as pd

from analysis.statistics.figures import StatValue
from analysis.statistics.hands_behind import EVERY_HAND, Target, hand_ids_query, targets


def _stat(key: str, numerator: int, denominator: int) -> StatValue:
    return StatValue(
        key,
        key.upper(),
        "preflop",
        "rate",
        numerator / denominator if denominator else None,
        numerator,
        denominator,
        "",
    )


SESSIONS = pd.DataFrame(
    {
        "start": [datetime(2021, 3, 1, 20, 5), datetime(2021, 3, 2, 9, 0)],
        "end": [datetime(2021, 3, 1, 21, 0), datetime(2021, 3, 2, 9, 0)],
        "hands": [12, 1],
    }
)


def test_every_figure_with_hands_is_a_target_with_its_label() -> None:
    got = targets(
        1234,
        pd.DataFrame({"position": ["BTN", "BB"], "hands": [5, 1]}),
        ["7-5 low"],
        [_stat("vpip", 11, 27), _stat("three_bet", 0, 0)],
        pd.DataFrame({"stakes": ["0.10/0.20", "0.10/0.20", "1/2"]}),
        SESSIONS,
    )
    assert list(got.items()) == [
        (Target("all"), "Every hand shown (1,234)"),
        (Target("position", "BTN"), "Position BTN (5 hands)"),
        (Target("position", "BB"), "Position BB (1 hands)"),
        (Target("final_class", "7-5 low"), "Showdowns with 7-5 low"),
        (Target("stat", "vpip", "hits"), "VPIP: where it happened (11)"),
        (Target("stat", "vpip", "sample"), "VPIP: its sample (27)"),
        (Target("stakes", "0.10/0.20"), "Stakes 0.10/0.20"),
        (Target("stakes", "1/2"), "Stakes 1/2"),
        (Target("session", 0), "Session 1: 2021-03-01 20:05 UTC (12 hands)"),
        (Target("session", 1), "Session 2: 2021-03-02 09:00 UTC (1 hand)"),
    ]  # a statistic without a sample has no hands to open


def test_a_clicked_bar_names_the_same_target_as_the_picker() -> None:
    assert Target("position", "BTN") == Target(kind="position", value="BTN", counted=None)
    assert Target("all") == EVERY_HAND


def test_each_target_is_the_query_of_its_hands() -> None:
    assert hand_ids_query(EVERY_HAND, SESSIONS) == {}
    assert hand_ids_query(Target("stat", "vpip", "hits"), SESSIONS) == {
        "stat": "vpip",
        "counted": "hits",
    }
    assert hand_ids_query(Target("final_class", "7-5 low"), SESSIONS) == {
        "column": "final_class",
        "value": "7-5 low",
    }
    assert hand_ids_query(Target("stakes", "1/2"), SESSIONS) == {"column": "stakes", "value": "1/2"}
    assert hand_ids_query(Target("session", 0), SESSIONS) == {
        "start": datetime(2021, 3, 1, 20, 5),
        "end": datetime(2021, 3, 1, 21, 0),
    }
