"""The overview's charts and labels, built from small frames of known content."""

from __future__ import annotations

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from ui.charts import draw_chart, final_hand_chart, position_chart, results_chart, thin
from ui.labels import game_name, money


def test_money_is_hundredths_as_units() -> None:
    assert [money(0), money(5), money(-1234), money(123456789)] == [
        "0.00", "0.05", "-12.34", "1,234,567.89",
    ]


def test_game_names() -> None:
    assert game_name("27_triple_draw") == "2-7 Triple Draw"
    assert game_name("badugi") == "badugi"


@settings(deadline=None, max_examples=50)
@given(st.integers(0, 20_000), st.integers(2, 5_000))
def test_thin_keeps_first_last_and_at_most_the_budget(n: int, points: int) -> None:
    df = pd.DataFrame({"n": range(n)})
    out = thin(df, points)
    if n <= points:
        assert len(out) == n
    else:
        assert len(out) <= points + 1
        assert out["n"].iloc[0] == 0 and out["n"].iloc[-1] == n - 1
        assert out["n"].is_monotonic_increasing


def test_results_chart_has_total_showdown_and_non_showdown_in_units() -> None:
    df = pd.DataFrame({"n": [1, 2], "cum_net": [100, -250], "cum_showdown": [0, -300],
                       "cum_nonshowdown": [100, 50]})
    fig = results_chart(df)
    assert [t.name for t in fig.data] == ["Total", "Showdown", "Non-showdown"]
    assert list(fig.data[0].y) == [1.0, -2.5]
    assert list(fig.data[1].y) == [0.0, -3.0]


def test_position_chart_bars() -> None:
    df = pd.DataFrame({"position": ["BTN", "BB"], "bb_per_100": [12.5, -3.0], "hands": [4, 5]})
    fig = position_chart(df)
    assert list(fig.data[0].x) == ["BTN", "BB"]
    assert list(fig.data[0].y) == [12.5, -3.0]


def test_draw_chart_stacks_card_counts_of_all_positions() -> None:
    counts = pd.DataFrame({
        "draw": [1, 1, 2, 1], "position": ["ALL", "ALL", "ALL", "BTN"],
        "cards": [0, 2, 1, 3], "hands": [1, 3, 4, 9], "share": [0.25, 0.75, 1.0, 1.0],
    })
    fig = draw_chart(counts)
    assert [t.name for t in fig.data] == ["pat", "1 card", "2 cards"]
    assert list(fig.data[0].y) == [25.0]
    assert list(fig.data[2].x) == ["draw 1"]


def test_final_hand_chart_one_trace_per_game() -> None:
    df = pd.DataFrame({"game": ["27_triple_draw", "27_triple_draw", "five_card_draw"],
                       "final_class": ["7-low", "8-low", "pair"], "hands": [1, 3, 2],
                       "share": [0.25, 0.75, 1.0]})
    fig = final_hand_chart(df)
    assert [t.name for t in fig.data] == ["2-7 Triple Draw", "Five-Card Draw"]
    assert list(fig.data[0].y) == [25.0, 75.0]
