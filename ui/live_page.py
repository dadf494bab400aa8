"""Live session: the current session's figures and latest hands, redrawn as hands arrive.

A page script.  A fragment reruns every ``REFRESH`` seconds; it reads only when the
database file changed (``state.generation``), through a short hold on the connection,
so a watcher (``drawlab import --watch``) writing the same file is never blocked for
long.  Names and ids are untrusted text: shown with ``st.dataframe`` and plain text.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, tzinfo

import pandas as pd
import streamlit as st

from analysis import times
from analysis.statistics import live
from analysis.statistics.figures import SESSION_GAP
from analysis.storage import memory
from analysis.storage.filters import Filters
from ui import data, memory_panel, scope, state
from ui.data import cached
from ui.labels import count, money, site_name

REFRESH = 2.0  # seconds between looks at the database file (new hands show within it)
GAP_KEY = "live_gap"


Choice = tuple[str, str]  # (site, name) of a player, or (``PERSON``, person)


@cached(8, ttl=600)
def sessions_view(path: str, gen: int, choice: Choice | None, filters: Filters,
                  gap_minutes: float) -> list[live.LiveSession]:
    """Every session of the player picked (the hero by default), newest first, read once
    per change of the file."""
    with state.shared().reading() as con:
        gap = timedelta(minutes=gap_minutes)
        if choice is None:
            return live.player_sessions(con, filters=filters, gap=gap)
        site, name = choice
        counted = (memory.person_filters(con, name, filters) if site == memory_panel.PERSON
                   else replace(filters, site=site))
        if counted is None:  # a person whose names are gone
            return []
        return live.player_sessions(con, name, counted, gap)


@cached(8, ttl=600)
def hands_view(path: str, gen: int, session: live.LiveSession) -> pd.DataFrame:
    """The session's last hands with the user's tags on each."""
    with state.shared().reading() as con:
        hands = live.session_hands(con, session)
        if not hands.empty:  # the user's tags on each (drawlab tag, the replayer)
            tagged = memory.hand_memory(con, [int(i) for i in hands["id"]])
            hands["tags"] = [", ".join(tagged[int(i)].tags) if int(i) in tagged else ""
                             for i in hands["id"]]
    return hands


def replay(hand_id: str) -> None:
    """Open the replayer on a hand (its finder searches the site's id)."""
    st.session_state["finder"] = "Search by id"
    st.session_state["search_id"] = hand_id


def _span(session: live.LiveSession, zone: tzinfo) -> str:
    """When a session ran, in the display zone: its start's day and time to its end's
    time (and day, when another), each with the zone."""
    end = "%H:%M" if times.shown(session.start, zone, fmt="%Y-%m-%d") == times.shown(
        session.end, zone, fmt="%Y-%m-%d") else "%Y-%m-%d %H:%M"
    return (f"{times.shown(session.start, zone, fmt='%Y-%m-%d %H:%M')} to "
            f"{times.shown(session.end, zone, fmt=end)}")


def session_picker(sessions: list[live.LiveSession], zone: tzinfo) -> live.LiveSession:
    """The latest session (the default, which follows new hands) or a past one, known by
    its start (which stays while the session grows)."""
    starts: list[datetime | None] = [None, *(s.start for s in sessions[1:])]
    if st.session_state.get("live_session") not in starts:
        st.session_state.pop("live_session", None)
    by_start = {s.start: s for s in sessions}

    def label(start: datetime | None) -> str:
        s = sessions[0] if start is None else by_start[start]
        span = f"{_span(s, zone)} · {count(s.hands, 'hand')}"
        return f"The latest: {span}" if start is None else span

    picked = st.selectbox("Session", starts, key="live_session", format_func=label,
                          help="Any session of the player's; the latest follows new hands.")
    return sessions[0] if picked is None else by_start[picked]


@st.fragment(run_every=REFRESH)
def session_panel(choice: Choice | None, filters: Filters, gap_minutes: float,
                  zone: tzinfo) -> None:
    """The session picked, redrawn as hands arrive; ``zone`` is read before the fragment
    (a fragment's rerun takes no hold on the database file)."""
    sessions = sessions_view(state.db_path(), state.generation(), choice, filters, gap_minutes)
    if not sessions:
        st.info("No timed hands of this player yet: start `drawlab import --watch` on the "
                "client's hand-history folder, or import on the Import page.")
        return
    session = session_picker(sessions, zone)
    hands = hands_view(state.db_path(), state.generation(), session)
    now = datetime.now()
    is_live = (session is sessions[0] and session.last_import is not None
               and now - session.last_import <= live.LIVE_WINDOW)
    if is_live:
        st.success("Live: hands are arriving.", icon=":material/sensors:")
    elif session is not sessions[0]:
        st.caption("A past session.")
    else:
        st.caption("Not live: no hand imported in the last "
                   f"{int(live.LIVE_WINDOW.total_seconds() // 60)} minutes.")
    st.text(f"{session.player}, {_span(session, zone)}")
    cols = st.columns(3)
    cols[0].metric("Hands", f"{session.hands:,}")
    one = session.currencies[0] if len(session.currencies) == 1 else None
    chips = one == "chips"
    cols[1].metric("Net", money(session.net, chips, one))
    cols[2].metric("BB/100", f"{session.bb_per_100:.1f}")
    if len(session.currencies) > 1:
        st.warning("This session mixes currencies: the net adds them together.")
    if not hands.empty:
        clocks = [times.hand_clock(u) for u in hands["time_utc"]]
        shown = (hands.assign(net=hands["net"].map(lambda n: money(n, chips, one)),
                              time=[times.shown(t, zone, c) for t, c in
                                    zip(hands["time"], clocks, strict=True)])
                 .drop(columns=["id", "time_utc"])
                 .rename(columns={"hand_id": "hand", "table_name": "table",
                                  "final_cards": "final hand"})
                 .astype(object).fillna("–"))  # an empty cell reads "–", never "None"
        st.dataframe(shown, hide_index=True, key="live_hands")
        picked = st.selectbox("Replay a hand", list(hands["hand_id"]), key="live_pick")
        if st.button("Open in the replayer", icon=":material/style:", key="live_replay"):
            replay(str(picked))
            st.switch_page("ui/replayer_page.py")


def player_picker(filters: Filters) -> Choice | None:
    """The player whose sessions are shown: a hero as (site, name), the detected one
    first (None until there is any), then the people the user named."""
    con = state.connection()
    heroes = data.site_players(con, state.db_path(), state.generation(), filters)
    heroes = heroes[heroes["as_hero"] > 0]
    options: list[Choice] = [(str(s), str(p)) for s, p in zip(heroes["site"], heroes["player"],
                                                                strict=True)]
    options[1:1] = memory_panel.people_options(con)
    if not options:
        return None
    if st.session_state.get("live_player") not in options:
        st.session_state.pop("live_player", None)
    return st.selectbox(  # type: ignore[no-any-return]
        "Player", options, key="live_player",
        format_func=lambda o: f"{o[1]} · {site_name(o[0]) if o[0] else 'every name'}",
        help="The hero first (most \"Dealt to\" lines); a player is a name at a site, and "
             "a person (drawlab alias) counts the hands of every name of theirs.")


def _keep_gap() -> None:
    live.set_minutes(state.connection(), live.SESSION_GAP_SETTING,
                     timedelta(minutes=float(st.session_state[GAP_KEY])))


def gap_input() -> float:
    """The gap between two hands that ends a session, in minutes: a setting, remembered."""
    kept = live.minutes_setting(state.connection(), live.SESSION_GAP_SETTING, SESSION_GAP)
    st.session_state[GAP_KEY] = round(kept.total_seconds() / 60)
    return float(st.number_input(
        "Gap that ends a session (minutes)", min_value=1, max_value=7 * 24 * 60, step=5,
        key=GAP_KEY, on_change=_keep_gap,
        help="Two hands further apart than this belong to two sessions."))


st.title("Live session")
waiting = st.empty()
waiting.caption("Reading the sessions…")  # never a blank page while the first read runs
base = Filters(valid_only=scope.errors_switch(state.connection()))
picker, gap_box = st.columns([2, 1])
with picker:
    chosen = player_picker(base)
with gap_box:
    gap_minutes = gap_input()
session_panel(chosen, base, gap_minutes, scope.display_zone())
waiting.empty()
