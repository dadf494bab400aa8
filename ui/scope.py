"""Which hands a page's figures are over, as every page that shows figures asks it: the
switch that leaves the hands with errors out (one switch, remembered in the database),
the choice between the user's own hands and the bundled samples (never both at once),
and the lines that say what the figures include.  The decisions are ``analysis``'s
(``hand_scope``, ``samples``, ``settings``); this draws them.
"""

from __future__ import annotations

from datetime import tzinfo

import streamlit as st

from analysis import times
from analysis.storage import settings
from analysis.storage.db import Connection
from analysis.storage.filters import Filters
from ui import data, state
from ui.labels import count

ERRORS_KEY = "leave_out_errors"
ZONE_KEY = "display_zone"
SAMPLES_KEY = "show_samples"
OWN, SAMPLES = "Your hands", "The bundled samples"


def _remember() -> None:
    settings.put(state.connection(), settings.LEAVE_OUT_ERRORS,
                 "1" if st.session_state[ERRORS_KEY] else "0")


def errors_switch(con: Connection) -> bool:
    """The switch, in the sidebar: on (the default) leaves the hands with errors out."""
    st.session_state[ERRORS_KEY] = data.leave_out_errors(con, state.db_path(), state.generation())
    return st.sidebar.toggle(
        "Leave out hands with errors", key=ERRORS_KEY, on_change=_remember,
        help="Hands whose replay found an error (chips that do not add up, an action "
             "out of turn...) are stored with their error. Left out, they feed no "
             "figure; the choice is remembered for every page.",
    )


def _keep_zone() -> None:
    times.set_display_zone(state.connection(), str(st.session_state[ZONE_KEY]))


def zone_picker(con: Connection) -> None:
    """The zone every page shows times in, in the sidebar: this computer's unless the
    user picks another; remembered in the database for every page and start."""
    st.session_state[ZONE_KEY] = times.display_zone_name(con)
    here = times.local_zone()
    st.sidebar.selectbox(
        "Times shown in", [times.THIS_COMPUTER, *times.zone_names()], key=ZONE_KEY,
        on_change=_keep_zone,
        format_func=lambda z: f"this computer's zone ({here})" if z == times.THIS_COMPUTER
        else z,
        help="Every time on every page is shown in this zone, with the zone named. "
             "Histories that name their zone are stored in UTC; a time written without "
             "one is shown as written, marked \"zone not stated\".")


def display_zone() -> tzinfo:
    """The zone the page's times are shown in (``zone_picker``'s setting)."""
    return times.display_zone(state.connection())


def samples_choice(con: Connection) -> bool | None:
    """``Filters.samples``: None without samples; True when the samples are all there is
    or are picked; False (the user's own hands) otherwise."""
    path, gen = state.db_path(), state.generation()
    if not data.has_samples(con, path, gen):
        return None
    if data.own_hands(con, path, gen) == 0:
        return True
    picked = st.sidebar.radio("Hands", [OWN, SAMPLES], key=SAMPLES_KEY, horizontal=True,
                              help="The bundled samples are simulated hands, kept apart "
                                   "from yours: never added to your figures.")
    return picked == SAMPLES


def scope(con: Connection) -> Filters:
    """The filters every figure of the page starts from; their days are the display
    zone's."""
    return Filters(valid_only=errors_switch(con), samples=samples_choice(con),
                   zone=times.day_zone(con))


def errors_line(con: Connection, filters: Filters, player: str | None = None) -> None:
    """What the figures include: how many of the hands have errors, and whether they are
    left out."""
    n = data.with_errors(con, state.db_path(), state.generation(), filters, player)
    if n == 0:
        st.caption("No hand here has an error.")
    elif filters.valid_only:
        st.caption(f"{count(n, 'hand')} with errors left out of these figures "
                   "(the switch in the sidebar includes them).")
    else:
        st.caption(f"These figures include {count(n, 'hand')} with errors "
                   "(the switch in the sidebar leaves them out).")


def samples_notice(con: Connection) -> None:
    """Said on every page while the samples are in the database."""
    n = data.sample_count(con, state.db_path(), state.generation())
    if n == 0:
        return
    st.info(f"The database holds the {n:,} bundled sample hands: simulated, not yours, "
            "kept apart from the hands you import. Remove them on the Import page.",
            icon=":material/science:")
