"""The Import page's watched folders: the list kept in the database, add and remove, the
poker clients' folders found on this computer as one-click suggestions, and when each
folder was last read, redrawn every two seconds while the dashboard's watcher imports.

Paths are the user's text: shown with ``st.dataframe`` and ``st.text`` only.
"""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo
from pathlib import Path

import duckdb
import pandas as pd
import streamlit as st

from analysis import times
from analysis.pipeline import watched
from analysis.pipeline.client_folders import Suggestion, suggested_folders
from ui import scope, state, watching
from ui.data import cached
from ui.labels import count

REFRESH = 2.0  # seconds between redraws of the folders' last reads

COLUMNS = ("folder", "state", "last checked", "last read", "files", "hands added", "problems",
           "hands in all")  # fmt: skip


@cached(8, ttl=600)
def stored_folders(path: str, gen: int) -> list[watched.WatchedFolder]:
    """The watched folders and their last reads, read once per change of the file."""
    with state.shared().reading() as con:
        return watched.folders(con)


def _when(moment: datetime | None, today: str, zone: tzinfo) -> str:
    """A read today (``today``: the display zone's day) by its time alone (the column
    stays narrow), an older one with its day; this computer's clock, shown in ``zone``."""
    if moment is None:
        return "not yet"
    day = times.shown(moment, zone, "this computer", "%Y-%m-%d")
    fmt = "%H:%M:%S" if day == today else "%Y-%m-%d %H:%M"
    return times.shown(moment, zone, "this computer", fmt)


def _ago(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    return "just now" if seconds < 1.5 else f"{seconds:.0f} s ago"


def folders_table(folders: list[watched.WatchedFolder], checked: float | None,
                  zone: tzinfo = UTC) -> pd.DataFrame:
    """One row per folder: whether it is there, when the watcher last looked (all folders
    at once), its last read (when the watcher last imported from it and what that batch
    brought) and the hands stored from it."""
    rows = []
    today = times.shown(datetime.now(), zone, "this computer", "%Y-%m-%d")
    for f in folders:
        there = Path(f.path).exists()
        rows.append({
            "folder": f.path, "state": "watching" if there else "missing",
            "last checked": _ago(checked) if there else "–",
            "last read": _when(f.last_read, today, zone),
            "files": f.last_files, "hands added": f.last_added, "problems": f.last_problems,
            "hands in all": f.hands,
        })  # fmt: skip
    return pd.DataFrame(rows, columns=list(COLUMNS))


@st.fragment(run_every=REFRESH)
def folders_panel(zone: tzinfo) -> None:
    """The folders, redrawn every ``REFRESH`` seconds; ``zone`` is read before the fragment
    (a fragment's rerun takes no hold on the database file)."""
    folders = stored_folders(state.db_path(), state.generation())
    w = watching.watcher()
    if not folders:
        st.caption("No folder is watched yet.")
        return
    live = "running" if w.running else "not running"
    st.text(f"Watching {count(len(folders), 'path')}; the watcher is {live}.")
    table = folders_table(folders, w.checked_ago(), zone)
    st.dataframe(table, hide_index=True, key="watched_table", width="stretch",
                 column_config={"folder": st.column_config.TextColumn("folder", width="medium")})
    if w.error:
        st.warning("The watcher stopped on an error and starts again by itself:")
        st.text(w.error)
    failed = [b for b in w.batches if b.summary is None]
    if failed and failed[-1] is w.batches[-1]:
        st.caption("The last batch is not imported yet (it is tried again):")
        st.text(failed[-1].error or "")


def _add(path: str | Path) -> None:
    """Store the folder and tell the watcher; a path that is not there is said why."""
    try:
        stored = watched.add(state.connection(), path)
    except ValueError as exc:
        st.session_state["watch_error"] = str(exc)
        return
    except duckdb.Error as exc:  # a write that met the watcher's: the user tries again
        st.session_state["watch_error"] = f"the database is busy, try again ({exc})"
        return
    st.session_state.pop("watch_error", None)
    st.session_state["watch_added"] = stored
    _refresh()


def _refresh() -> None:
    state.shared().generation += 1
    watching.watcher().refresh(watched.paths(state.connection()))


def suggestions(folders: list[watched.WatchedFolder]) -> list[Suggestion]:
    """The clients' folders on this computer that are not watched yet."""
    taken = {f.path for f in folders}
    return [s for s in suggested_folders() if watched.normalized(s.path) not in taken]


def main() -> None:
    st.divider()
    st.subheader("Watch folders")
    st.caption("New and grown hand-history files in these folders are imported as the poker "
               "client writes them, while the dashboard runs (as `drawlab import --watch` "
               "does in a terminal). A hand the client is still writing is read again, whole, "
               "when the file grows.")
    folders_panel(scope.display_zone())
    folders = stored_folders(state.db_path(), state.generation())
    cols = st.columns([5, 1], vertical_alignment="bottom")
    typed = cols[0].text_input("Folder to watch", key="watch_path",
                               placeholder=str(Path.home() / "PokerStars" / "HandHistory"))
    if cols[1].button("Watch", key="watch_add", icon=":material/visibility:"):
        _add(typed)
        st.rerun()
    if error := st.session_state.get("watch_error"):
        st.error("That folder cannot be watched:")
        st.text(error)
    elif added := st.session_state.get("watch_added"):
        st.success("Watching the folder below; its files are read now.")
        st.text(added)
    found = suggestions(folders)
    if found:
        st.caption("Hand-history folders of poker clients on this computer (not read until "
                   "you pick one):")
        for i, s in enumerate(found):
            row = st.columns([5, 1], vertical_alignment="center")
            row[0].text(f"{s.label}: {s.path}")
            if row[1].button("Watch this", key=f"watch_suggested_{i}"):
                _add(s.path)
                st.rerun()
    if folders:
        row = st.columns([5, 1], vertical_alignment="bottom")
        gone = row[0].selectbox("Stop watching", [f.path for f in folders], key="watch_remove_pick")
        if row[1].button("Stop", key="watch_remove") and gone is not None:
            watched.remove(state.connection(), gone)
            st.session_state.pop("watch_added", None)
            _refresh()
            st.rerun()

