"""HUD: each table with a recent hand, each opponent in their seat with the figures a
draw player reads and the sample behind each; narrow enough to sit beside the client.

A page script; a fragment redraws it every ``REFRESH`` seconds when the database file
changed (see ``ui.live_page``).  Names and the user's notes on players (``drawlab note
player``) are untrusted text: shown with ``st.dataframe``.
"""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from analysis.statistics import live
from analysis.storage import memory
from analysis.storage.filters import Filters
from ui import scope, state
from ui.labels import site_name

REFRESH = 2.0
LABELS = live.HUD_LABELS
MEANS = {s.key for s in live.HUD_STATS if s.kind == "mean"}  # cards drawn: not a percentage


@st.cache_data(ttl=600, show_spinner=False, max_entries=8)
def tables_view(path: str, gen: int, filters: Filters) -> list[live.HudTable]:
    with state.shared().reading() as con:
        return live.hud(con, filters=filters)


def cell(value: object, sample: object, mean: bool) -> str:
    """``value (sample)``: a percentage, or cards drawn to one decimal; ``-`` without a
    sample."""
    n = int(sample) if isinstance(sample, (int, float)) and not math.isnan(sample) else 0
    if n == 0 or not isinstance(value, float) or math.isnan(value):
        return f"- ({n})"
    return f"{value:.1f} ({n})" if mean else f"{100 * value:.0f} ({n})"


@st.cache_data(ttl=600, show_spinner=False, max_entries=8)
def notes_view(path: str, gen: int) -> dict[tuple[str, str], str]:
    """The user's note on each player, (site, name) to ``[colour] text``."""
    with state.shared().reading() as con:
        return memory.note_labels(con)


def compact(players: pd.DataFrame, notes: dict[str, str] | None = None) -> pd.DataFrame:
    """One row per opponent: seat, name, the user's note on him (when a player at the
    table has one), hands, then each figure with its sample."""
    rows = []
    for r in players.to_dict("records"):
        person = r.get("person")  # every name of this person counted (drawlab alias)
        who = str(r["player"]) + (f" ({person})" if isinstance(person, str) else "")
        row: dict[str, object] = {"seat": r["seat"], "player": who}
        if notes:
            row["note"] = notes.get(str(r["player"]), "")
        row["hands"] = r["hands"]
        for key, label in LABELS.items():
            row[label] = cell(r.get(key), r.get(f"{key}_d"), key in MEANS)
        rows.append(row)
    return pd.DataFrame(rows)


@st.fragment(run_every=REFRESH)
def hud_panel(filters: Filters) -> None:
    tables = tables_view(state.db_path(), state.generation(), filters)
    if not tables:
        st.info("No table with a recent hand.")
        return
    notes = notes_view(state.db_path(), state.generation())
    for i, t in enumerate(tables):
        when = "" if t.time is None else f" · {pd.Timestamp(t.time):%H:%M:%S}"
        st.text(f"{site_name(t.site)} · {t.title}{when}")
        mine = {name: label for (site, name), label in notes.items() if site == t.site}
        st.dataframe(compact(t.players, mine), hide_index=True, key=f"hud_{i}")
    st.caption("Figures over all the player's stored hands; (n) is the sample behind each. "
               "D1-D3: cards drawn per draw; Pat: stood pat on the first draw.")


st.title("HUD")
shown = Filters(valid_only=scope.errors_switch(state.connection()))
scope.errors_line(state.connection(), shown)
hud_panel(shown)
