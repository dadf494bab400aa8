"""Overview and statistics: the hero's results, statistics, charts and opponents.

A page script (run by ``st.navigation``).  Every figure comes from ``analysis.stats``;
this page chooses, caches and draws.  Player names only ever reach the screen through
``st.dataframe``, ``st.text`` and selectbox options, which are plain text: Markdown,
even escaped, turns a bare ``https://`` name into a live link.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pandas as pd
import streamlit as st

from analysis import stats
from analysis.stat_defs import STATS, definitions
from analysis.stats import Filters, Results
from ui import data, state
from ui.charts import draw_chart, final_hand_chart, position_chart, results_chart
from ui.labels import game_name, money

DEFS = definitions()
GROUPS = tuple(dict.fromkeys(s.group for s in STATS))
ANY = "(all)"
def _stat_text(value: float | None, kind: str) -> str:
    if value is None:
        return "–"
    return f"{100 * value:.1f}%" if kind == "rate" else f"{value:.2f}"


def _pick(label: str, options: list[str], key: str, games: bool = False) -> str | None:
    shown = game_name if games else str
    choice = st.selectbox(label, [ANY, *options], key=key, format_func=shown)
    return None if choice == ANY else str(choice)


def filters_sidebar(options: data.FilterOptions) -> Filters:
    """The filter widgets, in the sidebar, and the ``Filters`` they make."""
    with st.sidebar:
        st.header("Filters")
        site = _pick("Site", list(options.sites), "f_site")
        game = _pick("Game", list(options.games), "f_game", games=True)
        stakes = _pick("Stakes", list(options.stakes), "f_stakes")
        currency = None
        if len(options.currencies) > 1:
            currency = _pick("Currency", list(options.currencies), "f_currency")
        date_from: date | None = None
        date_to: date | None = None
        if options.first_day is not None and options.last_day is not None:
            chosen = st.date_input(
                "Dates", value=(options.first_day, options.last_day),
                min_value=options.first_day, max_value=options.last_day, key="f_dates",
            )
            if isinstance(chosen, tuple) and len(chosen) == 2:
                date_from, date_to = chosen
                if (date_from, date_to) == (options.first_day, options.last_day):
                    date_from = date_to = None  # the whole range keeps undated hands too
        low, high = options.min_players, options.max_players
        players_min = players_max = None
        if low < high:
            picked = st.slider("Players at the table", low, high, (low, high), key="f_players")
            if tuple(picked) != (low, high):
                players_min, players_max = int(picked[0]), int(picked[1])
    return Filters(site=site, game=game, stakes=stakes, currency=currency,
                   date_from=date_from, date_to=date_to,
                   players_min=players_min, players_max=players_max)


def key_figures(res: Results) -> None:
    cols = st.columns(6)
    cols[0].metric("Hands", f"{res.hands:,}", help=DEFS["hands"])
    cols[1].metric("Net won", money(res.net), help=DEFS["net"])
    cols[2].metric("Big bets / 100", "–" if res.bb_per_100 is None else f"{res.bb_per_100:.2f}",
                   help=DEFS["bb_per_100"])
    cols[3].metric("Showdown", money(res.net_showdown), help=DEFS["net_showdown"])
    cols[4].metric("Non-showdown", money(res.net_nonshowdown), help=DEFS["net_nonshowdown"])
    cols[5].metric("Rake paid", money(res.rake), help=DEFS["rake"])


def statistics(values: tuple[stats.StatValue, ...]) -> None:
    tabs = st.tabs([g.capitalize() for g in GROUPS])
    for tab, group in zip(tabs, GROUPS, strict=True):
        shown = [v for v in values if v.group == group]
        with tab:
            cols = st.columns(4)
            for i, v in enumerate(shown):
                cols[i % 4].metric(
                    v.name, _stat_text(v.value, v.kind),
                    help=f"{v.definition} Sample: {v.numerator} of {v.denominator}.",
                )


def opponents_table(df: pd.DataFrame) -> None:
    keys = [s.key for s in STATS]
    shown = df[["player", "hands", "net", "bb_per_100", *keys]].copy()
    shown["net"] = shown["net"] / 100
    for s in STATS:
        if s.kind == "rate":
            shown[s.key] = shown[s.key] * 100
    config: dict[str, Any] = {
        "player": st.column_config.TextColumn("Player"),
        "hands": st.column_config.NumberColumn("Hands", help=DEFS["hands"]),
        "net": st.column_config.NumberColumn("Net won", help=DEFS["net"], format="%.2f"),
        "bb_per_100": st.column_config.NumberColumn("bb/100", help=DEFS["bb_per_100"],
                                                    format="%.2f"),
    }
    for s in STATS:
        config[s.key] = st.column_config.NumberColumn(
            s.name, help=s.definition, format="%.1f%%" if s.kind == "rate" else "%.2f"
        )
    st.dataframe(shown, column_config=config, hide_index=True, width="stretch", height=420,
                 key="opponents")


def main() -> None:
    st.title("Overview & statistics")
    con = state.connection()
    gen = state.generation()
    path = state.db_path()
    options = data.filter_options(con, path, gen)
    if options.hands == 0:
        st.info("The database holds no hands yet: import some on the Import page.")
        st.page_link("ui/import_page.py", label="Go to Import", icon=":material/upload_file:")
        return
    filters = filters_sidebar(options)
    players = data.player_list(con, path, gen, filters)
    if players.empty:
        st.warning("No hands match these filters.")
        return
    detected = data.hero_name(con, path, gen, filters)
    names = [str(p) for p in players["player"]]
    default = names.index(detected) if detected in names else 0
    hero = st.selectbox(
        "Hero", names, index=default, key="hero",
        help="Detected: the player most often named in the \"Dealt to\" lines.",
    )
    if hero is None:
        return
    st.text(f"Showing {hero} over {options.description} in the database.")
    if filters.currency is None and len(options.currencies) > 1:
        st.warning(  # fixed text: currency names come from files, and this is Markdown
            "These sums add money of several currencies together (cash, play money or "
            "tournament chips): pick one under Currency in the sidebar."
        )
    key_figures(data.results(con, path, gen, hero, filters))

    left, right = st.columns(2)
    with left:
        st.plotly_chart(results_chart(data.cumulative(con, path, gen, hero, filters)),
                        key="chart_results")
        st.plotly_chart(draw_chart(data.draw_counts(con, path, gen, hero, filters)),
                        key="chart_draws")
    with right:
        st.plotly_chart(position_chart(data.by_position(con, path, gen, hero, filters)),
                        key="chart_positions")
        st.plotly_chart(final_hand_chart(data.showdown_hands(con, path, gen, hero, filters)),
                        key="chart_final")

    st.subheader("Statistics", help="Hover a figure for its definition and sample size.")
    statistics(data.player_stats(con, path, gen, hero, filters))
    st.subheader("Draws by position")
    draws = data.draw_summary(con, path, gen, hero, filters)
    st.dataframe(
        draws.assign(pat_rate=draws["pat_rate"] * 100), hide_index=True, key="draw_table",
        column_config={
            "draw": st.column_config.NumberColumn("Draw"),
            "position": st.column_config.TextColumn("Position"),
            "hands": st.column_config.NumberColumn("Hands"),
            "mean_cards": st.column_config.NumberColumn("Mean cards", format="%.2f",
                                                        help=DEFS["drawn_1"]),
            "pat_rate": st.column_config.NumberColumn("Stand-pat rate", format="%.1f%%",
                                                      help=DEFS["pat_1"]),
            "pats": st.column_config.NumberColumn("Pats"),
        },
    )
    st.subheader("Opponents", help="Click a column header to sort by it.")
    table = data.summary(con, path, gen, filters)
    opponents_table(table[table["player"] != hero])


main()
