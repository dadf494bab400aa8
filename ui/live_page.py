"""Live session: the current session's figures and latest hands, redrawn as hands arrive.

A page script.  A fragment reruns every ``REFRESH`` seconds; it reads only when the
database file changed (``state.generation``), through a short hold on the connection,
so a watcher (``drawlab import --watch``) writing the same file is never blocked for
long.  Names and ids are untrusted text: shown with ``st.dataframe`` and plain text.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pandas as pd
import streamlit as st

from analysis.statistics import live
from analysis.storage import memory
from analysis.storage.filters import Filters
from ui import memory_panel, scope, state
from ui.labels import money

REFRESH = 2.0  # seconds between looks at the database file (new hands show within it)


@st.cache_data(ttl=600, show_spinner=False, max_entries=8)
def session_view(path: str, gen: int,
                 filters: Filters) -> tuple[live.LiveSession | None, pd.DataFrame]:
    """The session and its last hands, read once per change of the file."""
    with state.shared().reading() as con:
        person = filters.player  # a person (drawlab alias): every name of theirs
        counted = None if person is None else memory.person_filters(
            con, person, replace(filters, player=None))
        session = (live.current_session(con, filters=filters) if counted is None
                   else live.current_session(con, person, filters=counted))
        hands = live.session_hands(con, session) if session else pd.DataFrame()
        if not hands.empty:  # the user's tags on each (drawlab tag, the replayer)
            tagged = memory.hand_memory(con, [int(i) for i in hands["id"]])
            hands["tags"] = [", ".join(tagged[int(i)].tags) if int(i) in tagged else ""
                             for i in hands["id"]]
    return session, hands


def replay(hand_id: str) -> None:
    """Open the replayer on a hand (its finder searches the site's id)."""
    st.session_state["finder"] = "Search by id"
    st.session_state["search_id"] = hand_id


@st.fragment(run_every=REFRESH)
def session_panel(filters: Filters) -> None:
    session, hands = session_view(state.db_path(), state.generation(), filters)
    if session is None:
        st.info("No timed hands of the hero yet: start `drawlab import --watch` on the "
                "client's hand-history folder, or import on the Import page.")
        return
    now = datetime.now()
    is_live = (session.last_import is not None
               and now - session.last_import <= live.LIVE_WINDOW)
    if is_live:
        st.success("Live: hands are arriving.", icon=":material/sensors:")
    else:
        st.caption("Not live: no hand imported in the last "
                   f"{int(live.LIVE_WINDOW.total_seconds() // 60)} minutes.")
    st.text(f"{session.player}, {session.start:%Y-%m-%d %H:%M} to {session.end:%H:%M}")
    cols = st.columns(3)
    cols[0].metric("Hands", f"{session.hands:,}")
    one = session.currencies[0] if len(session.currencies) == 1 else None
    chips = one == "chips"
    cols[1].metric("Net", money(session.net, chips, one))
    cols[2].metric("BB/100", f"{session.bb_per_100:.1f}")
    if len(session.currencies) > 1:
        st.warning("This session mixes currencies: the net adds them together.")
    if not hands.empty:
        shown = (hands.assign(net=hands["net"].map(lambda n: money(n, chips, one)))
                 .drop(columns=["id"])
                 .rename(columns={"hand_id": "hand", "table_name": "table",
                                  "final_cards": "final hand"})
                 .astype(object).fillna("–"))  # an empty cell reads "–", never "None"
        st.dataframe(shown, hide_index=True, key="live_hands")
        picked = st.selectbox("Replay a hand", list(hands["hand_id"]), key="live_pick")
        if st.button("Open in the replayer", icon=":material/style:", key="live_replay"):
            replay(str(picked))
            st.switch_page("ui/replayer_page.py")


def player_picker() -> str | None:
    """The detected hero, or a person the user named: the person's name, else None."""
    people: list[tuple[str, str] | None] = [None, *memory_panel.people_options(state.connection())]
    if st.session_state.get("live_player") not in people:
        st.session_state.pop("live_player", None)
    picked = st.selectbox(
        "Player", people, key="live_player",
        format_func=lambda o: "the hero (detected)" if o is None else f"{o[1]} · every name",
        help="A person (drawlab alias) counts the hands of every name of theirs.")
    return None if picked is None else picked[1]


st.title("Live session")
shown = Filters(valid_only=scope.errors_switch(state.connection()), player=player_picker())
session_panel(shown)
