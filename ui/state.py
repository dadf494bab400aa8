"""The dashboard's shared state: one database connection per process, a cursor per run.

DuckDB lets one process hold a file for writing, and Streamlit runs every session in the
same process on its own threads, so the connection is a cached resource and each script
run talks to it through its own cursor (a cursor is DuckDB's per-thread handle).

Page data is cached with ``st.cache_data`` keyed on the database path and its
*generation*: a counter this process raises after every import.  Only this process can
write the file while the dashboard holds it, so the counter is exact, and a page never
recomputes what it has already computed for the same hands.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from pathlib import Path

import streamlit as st

from analysis import db, queries
from analysis.db import Connection, DatabaseUnavailable
from analysis.importer import ImportSummary, import_paths, open_database

SAMPLES = Path(__file__).resolve().parent.parent / "sample_histories"
SAMPLES_ENV = "DRAWLAB_SAMPLES"  # another folder to import on a first start ("" for none)


def samples_dir() -> Path | None:
    chosen = os.environ.get(SAMPLES_ENV)
    if chosen is None:
        return SAMPLES
    return Path(chosen) if chosen else None


@dataclass
class Shared:
    """What every session of this process shares for one database file."""

    connection: Connection
    generation: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)  # one import at a time


@st.cache_resource(show_spinner="Opening the database (on a first start: importing the samples)…")
def _shared(path: str) -> Shared:
    shared = Shared(open_database(path))
    first_start(shared)
    return shared


def first_start(shared: Shared) -> ImportSummary | None:
    """A database that never saw an import gets the bundled sample hands, once.

    So a newcomer sees a working dashboard at once; a database whose hands were imported
    (or deliberately emptied after an import) is left alone.
    """
    con = shared.connection.cursor()
    if queries.count_hands(con) or not queries.import_history(con, limit=1).empty:
        return None
    samples = samples_dir()
    if samples is None or not samples.is_dir():
        return None
    summary = import_paths(con, [samples])
    shared.generation += 1
    return summary


def db_path() -> str:
    return db.resolve_path()


def shared() -> Shared:
    """The database of this process; a page that cannot have it says why and stops.

    DuckDB lets one program hold a file, so while ``drawlab import`` (or another
    dashboard) writes it, this one cannot even read it; a failure is not cached, so
    "Try again" opens it once the other program is done.
    """
    try:
        return _shared(db_path())
    except DatabaseUnavailable as exc:
        st.error("The database cannot be opened: another program is using it.",
                 icon=":material/lock:")
        st.code(str(exc), language=None, wrap_lines=True)
        st.button("Try again", key="db_retry", icon=":material/refresh:")
        st.stop()
        raise  # st.stop() raises; this line is for the type checker


def connection() -> Connection:
    """A cursor on the shared connection, for this script run's thread."""
    return shared().connection.cursor()


def generation() -> int:
    """Changes after every import: the cache key that makes pages see new hands."""
    return shared().generation


def imported(s: Shared | None = None) -> None:
    """Call after an import wrote to the database (from any thread, passing ``s``)."""
    s = s or shared()
    s.generation += 1
