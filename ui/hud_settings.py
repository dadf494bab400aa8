"""The HUD's settings, drawn: which statistics it shows for each game, in which order, and
the range that colours each.  What they mean and how they are kept is
``analysis.statistics.live`` (``hud_columns``, ``set_hud_columns``); this draws the form.
"""

from __future__ import annotations

import streamlit as st

from analysis.statistics import live
from analysis.statistics.definitions import all_stats, stat_by_key
from engine.record import Game
from engine.rules import game_name
from ui import state

GAME_KEY = "hud_game"


def _keys(game: str) -> tuple[str, str, str]:
    """The widget keys of a game's form: the statistics, and the prefixes of the bounds."""
    return f"hud_stats_{game}", f"hud_low_{game}_", f"hud_high_{game}_"


def _save(game: str) -> None:
    """The form's choice kept for ``game`` (a button's callback)."""
    stats_key, low, high = _keys(game)
    chosen = [str(k) for k in st.session_state.get(stats_key, [])]
    columns = [live.HudColumn(k, _number(low + k), _number(high + k)) for k in chosen]
    live.set_hud_columns(state.connection(), game, columns or None)
    state.imported_now()  # the tables are read again with the new columns


def _reset(game: str) -> None:
    """Back to the game's default, the form's widgets with it (a button's callback)."""
    live.set_hud_columns(state.connection(), game, None)
    prefixes = _keys(game)
    for key in [k for k in st.session_state if str(k).startswith(prefixes)]:
        del st.session_state[key]
    state.imported_now()


def _float(value: float | None) -> float | None:
    return None if value is None else float(value)


def _number(key: str) -> float | None:
    value = st.session_state.get(key)
    return None if value is None else float(value)


def panel(first_game: str | None) -> None:
    """The form, folded away under the tables; ``first_game``: the game it opens on (the
    latest table's)."""
    games = [str(g) for g in Game]
    if first_game in games and GAME_KEY not in st.session_state:
        st.session_state[GAME_KEY] = first_game
    with st.expander("Statistics and colours"):
        game = str(st.selectbox("Game", games, key=GAME_KEY, format_func=game_name))
        current = live.hud_columns(state.connection(), game)
        stats_key, low, high = _keys(game)
        chosen = st.multiselect(
            "Statistics, in order", [stat.key for stat in all_stats()],  # the player's own too
            default=[c.key for c in current], key=stats_key,
            format_func=lambda k: stat_by_key(k).name,
            help="The HUD shows these, in the order picked, for this game's tables.")
        bounds = {c.key: c for c in current}
        for key in chosen:
            was = bounds.get(key, live.HudColumn(key))
            unit = "%" if stat_by_key(key).kind == "rate" else ""
            left, right = st.columns(2)
            left.number_input(f"{stat_by_key(key).name}: low under {unit}".strip(),
                              value=_float(was.low), key=low + key, step=1.0)
            right.number_input(f"high over {unit}".strip(), value=_float(was.high), key=high + key,
                               step=1.0)
        save, reset = st.columns(2)
        save.button("Save", key="hud_save", on_click=_save, args=(game,))
        reset.button("Back to the default", key="hud_reset", on_click=_reset, args=(game,))
