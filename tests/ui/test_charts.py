"""The overview's charts and labels, built from small frames of known content."""

from __future__ import annotations

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.statistics.figures import thin_index
from engine.rules import game_name
from ui.charts import (
    CHART_POINTS,
    draw_chart,
    final_hand_chart,
    position_chart,
    results_by_date_chart,
    results_chart,
    thin,
)
from ui.labels import count, money, money_format, money_kind, seconds, site_name


def test_money_is_hundredths_as_units() -> None:
    assert [money(0), money(5), money(-1234), money(123456789)] == [
        "0.00", "0.05", "-12.34", "1,234,567.89",
    ]


def test_game_names() -> None:
    assert game_name("27_triple_draw") == "2-7 Triple Draw"
    assert game_name("badugi") == "Badugi"  # the engine's name (the page had none for it)
    assert game_name("razz") == "razz"  # a site's own name for a game DrawLab does not replay


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
    assert {t.type for t in fig.data} == {"scatter"}  # SVG: WebGL cost more (dashboard-speed.md)
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


def test_final_hand_chart_shows_one_game() -> None:
    df = pd.DataFrame({"game": ["27_triple_draw", "27_triple_draw", "five_card_draw"],
                       "final_class": ["7-low", "8-low", "pair"], "hands": [1, 3, 2],
                       "share": [0.25, 0.75, 1.0]})
    fig = final_hand_chart(df, "27_triple_draw")
    assert [t.name for t in fig.data] == ["2-7 Triple Draw"]
    assert list(fig.data[0].x) == ["7-low", "8-low"]
    assert list(fig.data[0].y) == [25.0, 75.0]
    assert fig.layout.title.text == "Final hand at showdown, 2-7 Triple Draw (% of showdowns)"
    high = final_hand_chart(df, "five_card_draw")
    assert list(high.data[0].x) == ["pair"]


def test_results_by_date_chart_one_point_per_day_in_units() -> None:
    df = pd.DataFrame({"day": pd.to_datetime(["2024-01-02", "2024-01-05"]), "hands": [3, 1],
                       "cum_net": [150, -50], "cum_showdown": [100, 0],
                       "cum_nonshowdown": [50, -50]})
    fig = results_by_date_chart(df, "Net won (USD)")
    assert [t.name for t in fig.data] == ["Total", "Showdown", "Non-showdown"]
    assert list(fig.data[0].x) == ["2024-01-02", "2024-01-05"]
    assert list(fig.data[0].y) == [1.5, -0.5]
    assert fig.layout.yaxis.title.text == "Net won (USD)"


def test_money_labels() -> None:
    assert money(526000, chips=True) == "5,260"
    assert money(-200, chips=True) == "-2"
    assert money_kind(False, "USD") == "Cash games in USD"
    assert money_kind(False, "play") == "Cash games in play money"
    assert money_kind(True, "chips") == "Tournaments (chips)"
    assert [count(1, "hand"), count(2, "hand"), count(1234, "file")] == [
        "1 hand", "2 hands", "1,234 files"]
    assert [seconds(1.4875), seconds(42.4), seconds(125), seconds(None)] == [
        "1.5 s", "42 s", "2 min 5 s", "–"]
    assert site_name("pokerstars") == "PokerStars" and site_name("xyz") == "xyz"


def test_money_formats_of_a_table_column() -> None:
    """The grid's format of a column of units, as ``money`` writes the same amounts."""
    assert money(-1234, currency="USD") == "-$12.34"  # the grid's "dollar": -$12.34
    assert money(-1234, currency="EUR") == "-€12.34"  # its "euro"
    assert [money_format(False, c) for c in ("USD", "EUR", "GBP", "CAD", "play")] == [
        "dollar", "euro", "£%,.2f", "%,.2f CAD", "%,.2f"]
    assert money_format(True, "chips") == "%,d"  # whole chips: 5,260


def test_thin_index_keeps_every_kth_and_the_last() -> None:
    assert thin_index(10, 4).tolist() == [0, 3, 6, 9]  # step 3 ends on the last
    assert thin_index(11, 4).tolist() == [0, 3, 6, 9, 10]  # the last appended
    assert thin_index(3, 4).tolist() == [0, 1, 2]


def test_a_million_hands_curve_sends_at_most_1501_points() -> None:
    assert len(thin_index(1_000_000, CHART_POINTS)) == 1_501  # step 667, and the last
