"""Overview and statistics: the hero's results, statistics, charts, sessions and opponents.

A page script (run by ``st.navigation``).  Every figure comes from ``analysis.statistics.figures``;
this page chooses, caches and draws.  Player names only ever reach the screen through
``st.dataframe``, ``st.text`` and selectbox options, which are plain text: Markdown,
even escaped, turns a bare ``https://`` name into a live link.

Two rules shape the filters.  Money is shown one kind at a time (one currency of cash
games, or tournament chips): sums across kinds mean nothing, so there is no "all" choice,
and the default is the hero's most played kind.  A player is a name at a site: "Hero" at
two sites is two people, so the hero is picked as (site, name), or as a person the user
named (``drawlab alias``), every name of theirs.

The hands behind a figure open in the replayer: their stored ids go in
``st.session_state[REPLAYER_HANDS]`` (a ``list[int]``) and the page switches over; the
replayer lists exactly those hands.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from typing import Any

import pandas as pd
import streamlit as st

from analysis import times
from analysis.statistics import figures as stats
from analysis.statistics import offers as stats_offers
from analysis.statistics.definitions import (
    STAT_BY_KEY,
    STATS,
    StatDef,
    all_stats,
    definitions,
)
from analysis.statistics.figures import Results
from analysis.statistics.hands_behind import Target, hand_ids_query, targets
from analysis.statistics.own import Refusal
from analysis.storage import memory
from analysis.storage.filters import Filters
from engine.rules import game_name
from ui import data, memory_panel, scope, state
from ui.charts import (
    CONFIG,
    STATIC,
    draw_chart,
    final_hand_chart,
    position_chart,
    results_by_date_chart,
    results_chart,
)
from ui.labels import (
    count,
    money,
    money_format,
    money_kind,
    plain,
    site_name,
    stakes_label,
)

DEFS = definitions()
BUILT_IN_GROUPS = frozenset(s.group for s in STATS)
ANY = "(all)"
REPLAYER_HANDS = "replayer_hand_ids"  # agreed with the replayer page: list[int] of hands.id
REPLAYER_PAGE = "ui/replayer_page.py"
OPPONENT_ROWS = 1000  # the table's most played opponents: each row is sent to the browser

def _stat_text(value: float | None, kind: str) -> str:
    if value is None:
        return "–"
    return f"{100 * value:.1f}%" if kind == "rate" else f"{value:.2f}"


def _pick(label: str, options: list[str], key: str, shown: Any = str) -> str | None:
    if st.session_state.get(key) not in (None, ANY, *options):
        del st.session_state[key]  # a value other filters no longer offer
    choice = st.selectbox(label, [ANY, *options], key=key, format_func=shown)
    return None if choice == ANY else str(choice)


def _wanted(money: Filters) -> Filters:
    """The picks as the widgets hold them, before they are drawn: the offers are
    computed under them, and a pick nothing allows any more is dropped."""
    def held(key: str) -> str | None:
        value = st.session_state.get(key)
        return None if value in (None, ANY) else str(value)

    low_high = _narrowed("f_players")
    days = _narrowed("f_dates")
    return replace(
        money, game=held("f_game"), stakes=held("f_stakes"), position=held("f_position"),
        tag=held("f_tag"),
        players_min=int(low_high[0]) if isinstance(low_high, tuple) else None,
        players_max=int(low_high[1]) if isinstance(low_high, tuple) else None,
        date_from=days[0] if isinstance(days, tuple) and len(days) == 2 else None,
        date_to=days[1] if isinstance(days, tuple) and len(days) == 2 else None,
    )


def _narrowed(key: str) -> Any:
    """A range widget's value when the user narrowed it; None when it is the whole range
    last offered (which, for another hero or money, is no choice of the user's: it is
    dropped, so the widget opens on the new whole range)."""
    held = st.session_state.get(key)
    if held is not None and tuple(held) == st.session_state.get(f"_{key}_span"):
        st.session_state.pop(key, None)
        return None
    return held


def _dates(offered: stats_offers.Offers) -> tuple[date | None, date | None]:
    first, last = offered.first_day, offered.last_day
    if first is None or last is None:
        st.session_state.pop("f_dates", None)
        return None, None
    held = st.session_state.get("f_dates")
    if isinstance(held, tuple) and not all(first <= d <= last for d in held):
        st.session_state.pop("f_dates", None)  # days another hero or money had
    st.session_state["_f_dates_span"] = (first, last)
    chosen = st.date_input("Dates", value=(first, last), min_value=first, max_value=last,
                           key="f_dates",
                           help="The days of the hero's hands, in the zone times are shown in.")
    if isinstance(chosen, tuple) and len(chosen) == 2 and tuple(chosen) != (first, last):
        return chosen[0], chosen[1]
    return None, None  # the whole range keeps undated hands too


def filters_sidebar(offered: stats_offers.Offers, stake_label: Any, tags: list[str]) -> Filters:
    """The filter widgets after the hero and the money, in the sidebar: each offers the
    values of the hero's hands under the others (``analysis.statistics.offers``), and
    ``tags``, the user's tags to pick from (``analysis.storage.memory``)."""
    kept = offered.kept
    with st.sidebar:
        game = _pick("Game", list(offered.games), "f_game", game_name)
        stakes = _pick("Stakes", list(offered.stakes), "f_stakes", stake_label)
        position = _pick("Position", list(offered.positions), "f_position")
        tag = _pick("Tag", tags, "f_tag")
        date_from, date_to = _dates(offered)
        low, high = offered.min_players, offered.max_players
        players_min = players_max = None
        held = st.session_state.get("f_players")
        if isinstance(held, tuple) and not (low <= held[0] <= held[1] <= high):
            st.session_state.pop("f_players", None)
        st.session_state["_f_players_span"] = (low, high)
        if low < high:
            picked = st.slider("Players at the table", low, high, (low, high), key="f_players")
            if tuple(picked) != (low, high):
                players_min, players_max = int(picked[0]), int(picked[1])
    return replace(kept, game=game, stakes=stakes, position=position,
                   date_from=date_from, date_to=date_to,
                   players_min=players_min, players_max=players_max, tag=tag)


def money_picker(kinds: pd.DataFrame) -> tuple[bool, str] | None:
    """Cash in one currency, or tournament chips: never several added together.  The
    counts are the hero's hands; the first choice is the kind the hero played most."""
    options = [(bool(t), str(c)) for t, c in zip(kinds["tournament"], kinds["currency"],
                                                  strict=True)]
    if not options:
        return None
    if st.session_state.get("f_money") not in options:
        st.session_state.pop("f_money", None)
    hands = dict(zip(options, kinds["hands"], strict=True))
    return st.sidebar.selectbox(  # type: ignore[no-any-return]
        "Money", options, key="f_money",
        format_func=lambda o: f"{money_kind(*o)} · {count(int(hands[o]), 'hand')}",
        help="Results are summed within one currency, or within tournament chips, "
             "never across them. The counts are the hero's hands; the first choice is "
             "the kind the hero played most.",
    )


PERSON = memory_panel.PERSON  # the site of a person in the hero picker (drawlab alias)


def hero_picker(players: pd.DataFrame, people: list[tuple[str, str]],
                sample: bool) -> tuple[str, str] | None:
    """The hero as (site, name), the detected one (most "Dealt to" lines) first, then the
    people the user named (``PERSON``, name)."""
    options = [(str(s), str(p)) for s, p in zip(players["site"], players["player"],
                                                strict=True)]
    options[1:1] = people
    if st.session_state.get("hero") not in options:
        st.session_state.pop("hero", None)
    mark = " (sample)" if sample else ""
    return st.sidebar.selectbox(  # type: ignore[no-any-return]
        "Hero", options, key="hero",
        format_func=lambda o: f"{o[1]} · {site_name(o[0]) if o[0] else 'every name'}{mark}",
        help="Detected: the player most often named in the \"Dealt to\" lines. The same "
             "name at two sites is two players, unless drawlab alias makes them one "
             "person. Every other filter offers what this player's hands hold.",
    )


CHARTS = ("Results by hands", "Results by date", "Win rate by position", "Cards drawn",
          "Final hands")


@dataclass(frozen=True)
class ChartFrames:
    """What the overview's charts draw, read by the page's run (a fragment's rerun
    reads nothing): the curves, cards drawn, the positions and the showdowns; ``game``
    is the one whose final hands the page's "Hands behind" lists."""

    curves: data.Curves
    unit: str
    draws: pd.DataFrame
    positions: pd.DataFrame
    showdowns: pd.DataFrame
    games: tuple[str, ...]
    game: str | None


def final_game(games: tuple[str, ...]) -> str | None:
    """The game whose final hands are drawn and listed: the one picked, else the most
    played."""
    held = st.session_state.get("final_game")
    if held in games:
        return str(held)
    st.session_state.pop("final_game", None)  # a game these filters no longer hold
    return games[0] if games else None


@st.fragment
def charts(frames: ChartFrames) -> None:
    """One chart at a time, the results by hands first: each one drawn is plotly.js's
    work in the browser on every filter change, so the others wait for their pick
    (remembered for the session); a new pick reruns this fragment alone."""
    shown = st.segmented_control("Chart", CHARTS, default=CHARTS[0], required=True,
                                 key="chart_shown", persist_state="session",
                                 label_visibility="collapsed")
    if shown == "Results by date":
        st.plotly_chart(results_by_date_chart(frames.curves.by_date, frames.unit),
                        key="chart_results_date", config=CONFIG)
    elif shown == "Win rate by position":
        event = st.plotly_chart(position_chart(frames.positions), key="chart_positions",
                                config=CONFIG, on_select="rerun", selection_mode="points")
        if chart_pick(event, "chart_positions", "position"):
            st.rerun()  # the page's "Hands behind" shows the pick
    elif shown == "Cards drawn":
        st.plotly_chart(draw_chart(frames.draws), key="chart_draws", config=STATIC)
    elif shown == "Final hands":
        final_hands(frames)
    else:
        st.plotly_chart(results_chart(frames.curves.by_hand, frames.unit),
                        key="chart_results", config=CONFIG)


def final_hands(frames: ChartFrames) -> None:
    """The final hands at showdown of one game at a time; a bar clicked picks its hands."""
    if frames.game is None:
        st.caption("No showdown with known cards in these hands.")
        return
    game = frames.game
    if len(frames.games) > 1:
        game = st.selectbox("Final hands of", frames.games, format_func=game_name,
                            key="final_game", persist_state="session")
    event = st.plotly_chart(final_hand_chart(frames.showdowns, str(game)), key="chart_final",
                            config=CONFIG, on_select="rerun", selection_mode="points")
    if chart_pick(event, "chart_final", "final_class") or game != frames.game:
        st.rerun()  # the page's "Hands behind" lists this game's classes, or the pick


def key_figures(res: Results, chips: bool, currency: str) -> None:
    cols = st.columns(6)
    cols[0].metric("Hands", f"{res.hands:,}", help=DEFS["hands"])
    cols[1].metric("Net won", money(res.net, chips, currency), help=DEFS["net"])
    cols[2].metric("Big bets / 100", "–" if res.bb_per_100 is None else f"{res.bb_per_100:.2f}",
                   help=DEFS["bb_per_100"])
    cols[3].metric("Showdown", money(res.net_showdown, chips, currency), help=DEFS["net_showdown"])
    cols[4].metric("Non-showdown", money(res.net_nonshowdown, chips, currency),
                   help=DEFS["net_nonshowdown"])
    cols[5].metric("Rake paid", money(res.rake, chips, currency), help=DEFS["rake"])


def _words(key: str, text: str) -> str:
    """A statistic's name or definition as the page shows it: the player's own as plain
    text (``labels.plain``), the built-in ones as written."""
    return text if key in STAT_BY_KEY else plain(text)


def statistics(values: tuple[stats.StatValue, ...]) -> None:
    """One group of statistics at a time: only the open tab is drawn (opening another
    reruns the ``details`` fragment, not the page)."""
    st.subheader("Statistics", help="Hover a figure for its definition and sample size.")
    groups = tuple(dict.fromkeys(v.group for v in values))
    tabs = st.tabs([g.capitalize() if g in BUILT_IN_GROUPS else plain(g.capitalize())
                    for g in groups], key="stat_group", on_change="rerun")
    for tab, group in zip(tabs, groups, strict=True):
        if not tab.open:
            continue
        shown = [v for v in values if v.group == group]
        with tab:
            cols = st.columns(4)
            for i, v in enumerate(shown):
                cols[i % 4].metric(
                    _words(v.key, v.name), _stat_text(v.value, v.kind),
                    help=f"{_words(v.key, v.definition)} Sample: {v.numerator} of "
                         f"{v.denominator}.",
                )


def _sample_help(s: StatDef) -> str:
    """The tooltip of a statistic's sample column."""
    if s.key not in STAT_BY_KEY:  # the player's own: a denominator without words
        return f"{plain(s.name)}: the sample (the value's denominator)."
    if not s.per_action and s.kind == "rate":
        return f"{s.name}: the sample, hands where {s.denominator}."
    return f"{s.name}: the sample ({s.denominator})."


def own_refusals(refusals: tuple[Refusal, ...]) -> None:
    """The player's statistic files not loaded, each with its file, line and reason."""
    if refusals:
        st.warning(f"{count(len(refusals), 'statistic file')} of yours could not be loaded:",
                   icon=":material/warning:")
        for refusal in refusals:
            st.text(str(refusal))


EMPTY = "–"  # what an empty cell of a table reads (a bare NaN shows as "None")


def _money_column(label: str, chips: bool, currency: str, help: str | None = None) -> Any:
    """A column of money in units (hundredths / 100), formatted by the browser as
    ``labels.money`` writes it: the cells stay numbers, so sorting sorts numbers."""
    return st.column_config.NumberColumn(label, help=help,
                                         format=money_format(chips, currency))


def opponents_table(df: pd.DataFrame, chips: bool, currency: str,
                    notes: dict[tuple[str, str], str] | None = None) -> None:
    """Per player and site: results, and each statistic beside its sample; the user's
    note on the player (``notes``, by site and name) when one listed has one."""
    columns: list[str] = ["site", "player", "hands", "net", "bb_per_100"]
    shown_stats: tuple[StatDef, ...] = all_stats()
    for s in shown_stats:
        columns += [s.key, f"{s.key}_d"]
    shown = df[columns].head(OPPONENT_ROWS).copy()
    labels = [(notes or {}).get((str(s), str(p)), "")
              for s, p in zip(shown["site"], shown["player"], strict=True)]
    if any(labels):
        shown.insert(2, "note", labels)
    shown["site"] = shown["site"].map(site_name)
    shown["net"] = shown["net"] / 100
    config: dict[str, Any] = {
        "site": st.column_config.TextColumn("Site"),
        "player": st.column_config.TextColumn("Player"),
        "note": st.column_config.TextColumn("Note", help="Your note on the player"),
        "hands": st.column_config.NumberColumn("Hands", help=DEFS["hands"]),
        "net": _money_column("Net won", chips, currency, DEFS["net"]),
        "bb_per_100": st.column_config.NumberColumn("bb/100", help=DEFS["bb_per_100"],
                                                    format="%.2f"),
    }
    for s in shown_stats:
        if s.kind == "rate":
            shown[s.key] = shown[s.key] * 100
        config[s.key] = st.column_config.NumberColumn(
            s.name, help=_words(s.key, s.definition),
            format="%.1f%%" if s.kind == "rate" else "%.2f")
        config[f"{s.key}_d"] = st.column_config.NumberColumn("n", help=_sample_help(s))
    st.dataframe(shown, column_config=config, hide_index=True, placeholder=EMPTY,
                 width="stretch", height=420, key="opponents")


def hands_picker(labels: dict[Target, str]) -> Target:
    if st.session_state.get("open_target") not in labels:
        st.session_state.pop("open_target", None)
    return st.selectbox(  # type: ignore[no-any-return]
        "Hands behind", list(labels), key="open_target", format_func=labels.__getitem__,
        help="Pick a figure, or click a bar of a chart, then open its hands in the replayer.",
    )


def open_hands(con: Any, hero: str, filters: Filters, target: Target,
               sessions: pd.DataFrame) -> None:
    """Hand the ids behind ``target`` to the replayer and go there."""
    behind = hand_ids_query(target, sessions)
    st.session_state[REPLAYER_HANDS] = data.hand_ids(con, hero, filters, **behind)
    st.switch_page(REPLAYER_PAGE)


def chart_pick(event: Any, key: str, kind: str) -> bool:
    """A click on a bar picks the hands behind it (once per new selection); True when
    it picked."""
    points = list(getattr(getattr(event, "selection", None), "points", None) or [])
    seen = st.session_state.get(f"_seen_{key}")
    if not points or points == seen:
        return False
    st.session_state[f"_seen_{key}"] = points
    x = points[0].get("x")
    if x is None:
        return False
    st.session_state["open_target"] = Target(kind, str(x))
    return True


def stakes_and_sessions(stakes: pd.DataFrame, sessions: pd.DataFrame, chips: bool,
                        currency: str) -> None:
    """The hero's results by stakes and by session, money with its sign; the sessions'
    times in the display zone, with the zone named."""
    zone = scope.display_zone()

    def minute(t: Any) -> str:
        return times.shown(t, zone, fmt="%Y-%m-%d %H:%M")

    bb_per_100 = st.column_config.NumberColumn("bb/100", help=DEFS["bb_per_100"],
                                               format="%.2f")
    st.subheader("Results by stakes")
    st.dataframe(
        stakes.assign(game=stakes["game"].map(game_name), net=stakes["net"] / 100,
                      rake=stakes["rake"] / 100)
        [["game", "stakes", "hands", "net", "bb_per_100", "rake"]],
        hide_index=True, key="stakes_table", placeholder=EMPTY,
        column_config={"game": "Game", "stakes": "Stakes", "hands": "Hands",
                       "net": _money_column("Net won", chips, currency, DEFS["net"]),
                       "bb_per_100": bb_per_100,
                       "rake": _money_column("Rake", chips, currency, DEFS["rake"])},
    )
    st.subheader("Sessions", help=DEFS["session"])
    if sessions.empty:
        st.caption("These hands carry no time, so they make no session.")
    else:
        st.dataframe(
            sessions.assign(net=sessions["net"] / 100, number=sessions.index + 1,
                            start=sessions["start"].map(minute),
                            end=sessions["end"].map(minute))
            [["number", "start", "end", "minutes", "hands", "net", "bb_per_100"]],
            hide_index=True, key="sessions_table", placeholder=EMPTY,
            column_config={"number": "Session", "start": "Start", "end": "End",
                           "minutes": st.column_config.NumberColumn("Minutes", format="%.0f"),
                           "hands": "Hands",
                           "net": _money_column("Net won", chips, currency),
                           "bb_per_100": bb_per_100},
        )


def opponents(table: pd.DataFrame, hero: frozenset[str], chips: bool, currency: str,
              notes: dict[tuple[str, str], str]) -> None:
    """Every other player at every site under the same filters, the hero (every name of
    the hero's, "site:name") left out; ``notes``: the user's on each player.  A new
    minimum of hands reruns the ``details`` fragment, not the page."""
    st.subheader("Opponents", help="Click a column header to sort by it. Each figure has "
                 "its sample (n) beside it.")
    others = table[~(table["site"] + ":" + table["player"]).isin(hero)]
    most = int(others["hands"].max()) if len(others) else 1
    least = st.number_input("Minimum hands", min_value=1, max_value=max(1, most), value=1,
                            step=1, key="min_hands",
                            help="Leave out players seen in fewer hands: a figure over a "
                                 "handful of hands says little.")
    kept = others[others["hands"] >= int(least)]
    st.caption(f"{count(len(kept), 'opponent')} with at least {count(int(least), 'hand')}"
               + (f"; the {OPPONENT_ROWS:,} with the most hands are listed."
                  if len(kept) > OPPONENT_ROWS else "."))
    opponents_table(kept, chips, currency, notes)


def draws_table(draws: pd.DataFrame) -> None:
    """Cards drawn and stand-pat rate by draw and position."""
    st.subheader("Draws by position")
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


SECTIONS = ("Statistics", "Stakes & sessions", "Draws", "Opponents")


@dataclass(frozen=True)
class DetailFrames:
    """What the sections under the chart draw, read by the page's run (a fragment's
    rerun reads nothing): the statistics, the results by stakes and sessions, the
    draws, and the opponents with the hero's names and the user's notes."""

    values: tuple[stats.StatValue, ...]
    stakes: pd.DataFrame
    sessions: pd.DataFrame
    draws: pd.DataFrame
    players: pd.DataFrame
    hero: frozenset[str]
    notes: dict[tuple[str, str], str]
    chips: bool
    currency: str


@st.fragment
def details(frames: DetailFrames) -> None:
    """One section at a time, the statistics first: each element drawn is the browser's
    work on every filter change (the opponents' grid the most), so the tables wait for
    their pick (remembered for the session); a new pick reruns this fragment alone."""
    shown = st.segmented_control("Section", SECTIONS, default=SECTIONS[0], required=True,
                                 key="details_shown", persist_state="session",
                                 label_visibility="collapsed")
    if shown == "Stakes & sessions":
        stakes_and_sessions(frames.stakes, frames.sessions, frames.chips, frames.currency)
    elif shown == "Draws":
        draws_table(frames.draws)
    elif shown == "Opponents":
        opponents(frames.players, frames.hero, frames.chips, frames.currency, frames.notes)
    else:
        statistics(frames.values)


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
    base = scope.scope(con)
    with st.sidebar:
        st.header("Filters")
    chosen = hero_picker(data.site_players(con, path, gen, base), memory_panel.people_options(con),
                         base.samples is True)
    if chosen is None:
        st.warning("No hands match these filters.")
        return
    site, hero = chosen
    # the hero is one site's player, or every name of a person
    person = memory.person_filters(con, hero, base) if site == PERSON else None
    theirs = person or replace(base, site=site)
    picked = money_picker(data.money_kinds(con, path, gen, theirs, hero))
    if picked is None:
        st.warning(f"{hero} has no hands here.")
        return
    tournament, currency = picked
    chips = tournament and currency == "chips"
    money_filters = replace(theirs, tournament=tournament, currency=currency)
    offered = data.offers(con, path, gen, hero, _wanted(money_filters))
    mine = filters_sidebar(offered, lambda s: stakes_label(s, tournament, currency),
                           data.all_tags(con, path, gen))
    with st.sidebar:  # a saved set is filters, not the page's scope nor a person's names
        memory_panel.saved_filters_panel(
            replace(mine, valid_only=False, samples=None, names=None))
    filters = replace(mine, site=None, names=None)  # the opponents: every site's players
    res = data.results(con, path, gen, hero, mine)
    zone = scope.display_zone()  # the days of the graph by date and of the line above it
    curves = data.curves(con, path, gen, hero, mine, zone)
    span = ""
    if curves.first is not None and curves.last is not None:
        span = f", {times.day_span(curves.first, curves.last, zone)}"
    where = f"at {site_name(site)}" if person is None else f"({', '.join(person.names or ())})"
    st.text(f"Showing {hero} {where} over {count(res.hands, 'hand')}{span} "
            f"({money_kind(tournament, currency)}"
            f"{', the bundled samples' if base.samples else ''}).")
    scope.errors_line(con, mine, hero)
    key_figures(res, chips, currency)
    unit = "Net won (chips)" if chips else f"Net won ({currency})"

    positions = data.by_position(con, path, gen, hero, mine)
    shown = data.showdown_hands(con, path, gen, hero, mine)
    games = tuple(str(g) for g in stats_offers.most_played(shown, "game"))
    game = final_game(games)
    charts(ChartFrames(curves, unit, data.draw_counts(con, path, gen, hero, mine), positions,
                       shown, games, game))
    classes = [str(c) for c in shown[shown["game"] == game]["final_class"]]

    values = data.player_stats(con, path, gen, hero, mine)
    sessions = curves.sessions
    stakes = data.by_stakes(con, path, gen, hero, mine)
    labels = targets(res.hands, positions, classes, values, stakes, sessions, zone)
    with st.container(border=True):
        cols = st.columns([4, 1], vertical_alignment="bottom")
        with cols[0]:
            target = hands_picker(labels)
        if cols[1].button("Open in the replayer", key="open_replayer",
                          icon=":material/style:"):
            open_hands(con, hero, mine, target, sessions)

    names = frozenset(person.names or ()) if person else frozenset({f"{site}:{hero}"})
    own_refusals(state.own_statistics())  # nothing drawn unless a file was refused
    details(DetailFrames(values, stakes, sessions,
                         data.draw_summary(con, path, gen, hero, mine),
                         data.site_summary(con, path, gen, filters), names,
                         data.note_labels(con, path, gen), chips, currency))


main()
