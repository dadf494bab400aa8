"""The overview's plotly charts, built from the frames ``analysis.statistics.figures`` returns.

Only positions, card counts, hand classes and game names label these charts (never a
player's name), so no untrusted text reaches plotly's HTML-capable labels.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from analysis.statistics.figures import thin_index
from engine.rules import game_name

CHART_POINTS = 1500  # a line of more points than pixels only slows the browser

# What ``st.plotly_chart`` is given for every overview chart: no mode bar (its buttons are
# elements plotly.js lays out and redraws with each chart, on every filter change); hover
# and the bars' clicks stay.
CONFIG: dict[str, object] = {"displayModeBar": False}
# A chart nothing is picked from: no hover nor zoom either, plotly.js draws a picture.
STATIC: dict[str, object] = {**CONFIG, "staticPlot": True}


def thin(df: pd.DataFrame, points: int = CHART_POINTS) -> pd.DataFrame:
    """Every k-th row (the last one always), so a million hands draw as a few thousand."""
    if len(df) <= points:
        return df
    return df.iloc[thin_index(len(df), points)]


def results_chart(df: pd.DataFrame, unit: str = "Net won") -> go.Figure:
    """Running totals hand by hand (``stats.cumulative_by_hand``)."""
    df = thin(df)
    fig = go.Figure()
    for column, name in (("cum_net", "Total"), ("cum_showdown", "Showdown"),
                         ("cum_nonshowdown", "Non-showdown")):
        # SVG, not WebGL: without a GPU (headless chromium, many a laptop's browser) a
        # WebGL context per draw costs the browser more than 1,500 points of SVG
        fig.add_trace(go.Scatter(x=df["n"], y=df[column] / 100, mode="lines", name=name))
    fig.update_layout(title="Results by hands", xaxis_title="Hands", yaxis_title=unit,
                      height=380, margin={"t": 50, "b": 40, "l": 40, "r": 10})
    return fig


def results_by_date_chart(df: pd.DataFrame, unit: str = "Net won") -> go.Figure:
    """Running totals at the end of each day played (``stats.cumulative_by_date``): the
    calendar, where a month off is a gap and not a few hands."""
    fig = go.Figure()
    days = [pd.Timestamp(d).strftime("%Y-%m-%d") for d in df["day"]]
    for column, name in (("cum_net", "Total"), ("cum_showdown", "Showdown"),
                         ("cum_nonshowdown", "Non-showdown")):
        fig.add_trace(go.Scatter(x=days, y=df[column] / 100, mode="lines+markers", name=name,
                                 customdata=df["hands"],
                                 hovertemplate="%{x}: %{y:.2f} (%{customdata} hands that day)"))
    fig.update_layout(title="Results by date", xaxis_title="Day", yaxis_title=unit,
                      xaxis={"type": "date"}, height=380,
                      margin={"t": 50, "b": 40, "l": 40, "r": 10})
    return fig


def position_chart(df: pd.DataFrame) -> go.Figure:
    fig = go.Figure(go.Bar(x=df["position"], y=df["bb_per_100"],
                           customdata=df["hands"],
                           hovertemplate="%{x}: %{y:.2f} bb/100 over %{customdata} hands"))
    fig.update_layout(title="Win rate by position (big bets / 100 hands)", height=340,
                      margin={"t": 50, "b": 40, "l": 40, "r": 10})
    return fig


def draw_chart(counts: pd.DataFrame) -> go.Figure:
    """Share of each number of cards drawn, per draw (all positions)."""
    fig = go.Figure()
    everyone = counts[counts["position"] == "ALL"]
    for cards in sorted(everyone["cards"].unique()):
        part = everyone[everyone["cards"] == cards]
        label = "pat" if int(cards) == 0 else f"{int(cards)} card" + ("s" if cards > 1 else "")
        fig.add_trace(go.Bar(x=[f"draw {int(d)}" for d in part["draw"]], y=part["share"] * 100,
                             name=label))
    fig.update_layout(barmode="stack", title="Cards drawn per draw (% of hands)", height=340,
                      margin={"t": 50, "b": 40, "l": 40, "r": 10})
    return fig


def final_hand_chart(df: pd.DataFrame, game: str) -> go.Figure:
    """One game's showdown classes: 2-7, A-5 and high hands do not share an axis."""
    part = df[df["game"] == game]
    fig = go.Figure(go.Bar(x=part["final_class"], y=part["share"] * 100, name=game_name(game),
                           customdata=part["hands"],
                           hovertemplate="%{x}: %{y:.1f}% (%{customdata} hands)"))
    fig.update_layout(title=f"Final hand at showdown, {game_name(game)} (% of showdowns)",
                      height=340, margin={"t": 50, "b": 40, "l": 40, "r": 10})
    return fig
