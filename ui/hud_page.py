"""HUD: each table with a recent hand, each opponent in their seat with the figures a
draw player reads and the sample behind each; narrow enough to sit beside the client.

A page script; a fragment redraws it every ``REFRESH`` seconds when the database file
changed (see ``ui.live_page``).  Names and the user's notes on players (``drawlab note
player``) are untrusted text: shown with ``st.dataframe``.
"""

from __future__ import annotations

import math
from datetime import timedelta, tzinfo

import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

from analysis import times
from analysis.statistics import live
from analysis.statistics.definitions import stat_by_key
from analysis.storage import memory
from analysis.storage.filters import Filters
from ui import hud_settings, scope, state
from ui.data import cached
from ui.labels import site_name

REFRESH = 2.0
WINDOW_KEY = "hud_window"
# a figure's colour by its band (``live.HudColumn.band``): blue low (tight, passive),
# green between, red high (loose, aggressive); dark text on each, in either theme
COLOURS: dict[str, str] = {"low": "background-color: #cfe2ff; color: #052c65",
                           "mid": "background-color: #d1e7dd; color: #0a3622",
                           "high": "background-color: #f8d7da; color: #58151c"}


def label(key: str) -> str:
    """A column's heading: the short label its declaration gives."""
    return stat_by_key(key).label


@cached(8, ttl=600)
def tables_view(path: str, gen: int, filters: Filters,
                window_minutes: float) -> list[live.HudTable]:
    with state.shared().reading() as con:
        return live.hud(con, window=timedelta(minutes=window_minutes), filters=filters)


def sampled(value: object, sample: object) -> tuple[float | None, int]:
    """A figure and its sample; the figure None without a sample."""
    n = int(sample) if isinstance(sample, (int, float)) and not math.isnan(sample) else 0
    if n == 0 or not isinstance(value, float) or math.isnan(value):
        return None, n
    return value, n


def cell(value: object, sample: object, mean: bool) -> str:
    """``value (sample)``: a percentage, or cards drawn (a ratio) to one decimal; ``-``
    without a sample."""
    figure, n = sampled(value, sample)
    if figure is None:
        return f"- ({n})"
    return f"{figure:.1f} ({n})" if mean else f"{100 * figure:.0f} ({n})"


@cached(8, ttl=600)
def notes_view(path: str, gen: int) -> dict[tuple[str, str], str]:
    """The user's note on each player, (site, name) to ``[colour] text``."""
    with state.shared().reading() as con:
        return memory.note_labels(con)


def compact(players: pd.DataFrame, columns: tuple[live.HudColumn, ...],
            notes: dict[str, str] | None = None) -> Styler:
    """One row per opponent: seat, name, the user's note on him (when a player at the
    table has one), hands, then each chosen figure with its sample, coloured by its
    range."""
    rows, styles = [], []
    for r in players.to_dict("records"):
        person = r.get("person")  # every name of this person counted (drawlab alias)
        who = str(r["player"]) + (f" ({person})" if isinstance(person, str) else "")
        row: dict[str, object] = {"seat": r["seat"], "player": who}
        if notes:
            row["note"] = notes.get(str(r["player"]), "")
        row["hands"] = r["hands"]
        style = dict.fromkeys(row, "")
        for c in columns:
            value, sample = r.get(c.key), r.get(f"{c.key}_d")
            row[label(c.key)] = cell(value, sample, c.stat.kind != "rate")
            band = c.band(sampled(value, sample)[0])
            style[label(c.key)] = "" if band is None else COLOURS[band]
        rows.append(row)
        styles.append(style)
    frame = pd.DataFrame(rows)
    css = pd.DataFrame(styles, index=frame.index, columns=frame.columns)
    return frame.style.apply(lambda _: css, axis=None)


def _keep_window() -> None:
    live.set_minutes(state.connection(), live.HUD_WINDOW_SETTING,
                     timedelta(minutes=float(st.session_state[WINDOW_KEY])))


def window_input() -> float:
    """How far back a table counts as played, in minutes: a setting, remembered."""
    kept = live.minutes_setting(state.connection(), live.HUD_WINDOW_SETTING, live.HUD_WINDOW)
    st.session_state[WINDOW_KEY] = round(kept.total_seconds() / 60)
    return float(st.number_input(
        "Tables played in the last (minutes)", min_value=1, max_value=7 * 24 * 60, step=5,
        key=WINDOW_KEY, on_change=_keep_window,
        help="Every table with a hand this close to the latest hand stored."))


@st.fragment(run_every=REFRESH)
def hud_panel(filters: Filters, window_minutes: float, zone: tzinfo) -> None:
    """The tables, redrawn as hands arrive; ``zone``: the one times are shown in (read
    before the fragment: a fragment's rerun takes no hold on the database file)."""
    tables = tables_view(state.db_path(), state.generation(), filters, window_minutes)
    if not tables:
        st.info("No table with a recent hand.")
        return
    notes = notes_view(state.db_path(), state.generation())
    for i, t in enumerate(tables):
        when = "" if t.time is None else (
            f" · {times.shown(t.time, zone, times.hand_clock(t.time_utc), '%H:%M:%S')}")
        st.text(f"{site_name(t.site)} · {t.title}{when}")
        mine = {name: note for (site, name), note in notes.items() if site == t.site}
        st.dataframe(compact(t.players, t.columns, mine), hide_index=True, key=f"hud_{i}")
    st.caption("Figures over all the player's stored hands; (n) is the sample behind each, "
               "coloured blue under its range, green within it, red over it. "
               "D1-D3: cards drawn per draw; Pat: stood pat on the first draw.")


st.title("HUD")
waiting = st.empty()
waiting.caption("Reading the tables…")  # never a blank page while the first read runs
shown = Filters(valid_only=scope.errors_switch(state.connection()))
scope.errors_line(state.connection(), shown)
window = window_input()
hud_panel(shown, window, scope.display_zone())
waiting.empty()
latest = tables_view(state.db_path(), state.generation(), shown, window)
hud_settings.panel(latest[0].game if latest else None)
