"""The dashboard's shared state: the database held only while a run or a job uses it.

Other programs use the same file at the same time (``drawlab import --watch``, ``drawlab
stats`` from a terminal), and DuckDB lets one process hold a file for writing while no
other process has it open at all.  So the dashboard never keeps the file: a script run
(or a fragment, or an import job) takes a *hold* on the process's one connection, the
first hold opens it (waiting briefly while another program writes), and the last one to
let go closes it, which hands the file back.  Streamlit runs every session on its own
thread of this one process, so holders share the connection and each run reads through
its own cursor (DuckDB's per-thread handle).  The connection is opened for writing: inside
one process DuckDB refuses a read-only and a writing connection to the same file at once,
and an import job may write while pages read.

Page data is cached with ``st.cache_data`` keyed on the database path and its
*generation*, which changes whenever any program wrote the file (its and its write-ahead
log's size and time, plus a counter of this process's own imports): a page never
recomputes what it computed for the same hands, and sees another program's new hands on
its next run.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit as st

from analysis.faults import TRY_AGAIN, sentence
from analysis.pipeline.importer import ImportSummary, import_paths, open_database
from analysis.statistics import own
from analysis.statistics.definitions import use_own
from analysis.storage import db, queries
from analysis.storage.db import Connection, DatabaseUnavailable
from analysis.storage.samples import mark as marked_samples

SAMPLES = Path(__file__).resolve().parent.parent / "sample_histories"
SAMPLES_ENV = "DRAWLAB_SAMPLES"  # another folder to import on a first start ("" for none)
# Seconds a page waits for another program's write before saying so: as long as a
# command waits (``db.LOCK_WAIT``).  A ``drawlab import`` lets a waiting reader in once
# its transaction is done, which at ten million hands took 5 to 17 s (median 9): with 5 s
# most first visits during such an import said the file was busy (docs/scale.md).
OPEN_WAIT = db.LOCK_WAIT
WAITING = "Another program (an import?) is writing the database: waiting for it to let go…"


def samples_dir() -> Path | None:
    chosen = os.environ.get(SAMPLES_ENV)
    if chosen is None:
        return SAMPLES
    return Path(chosen) if chosen else None


def _updating(text: str) -> None:
    """Why the page is busy while an older database's facts are refilled (``shared``)."""
    st.info(text, icon=":material/update:")


@dataclass
class Shared:
    """What every session of this process shares for one database file."""

    path: str
    generation: int = 0  # this process's imports (others are seen in the file's stat)
    lock: threading.Lock = field(default_factory=threading.Lock)  # one import at a time
    _guard: threading.Lock = field(default_factory=threading.Lock)
    _con: Connection | None = None
    _holds: int = 0
    _job_holds: int = 0

    def acquire(self, wait: float | None = None) -> Connection:
        """A hold on the connection, opening it when nobody holds it (waiting ``wait``
        seconds, ``OPEN_WAIT`` by default, for another program); ``release`` it."""
        with self._guard:
            if self._con is None:
                self._con = open_database(self.path, wait=OPEN_WAIT if wait is None else wait)
            self._holds += 1
            return self._con

    def release(self) -> None:
        """Let go of a hold; the last one closes the connection, freeing the file."""
        with self._guard:
            self._holds = max(0, self._holds - 1)
            if self._holds == 0 and self._con is not None:
                con, self._con = self._con, None
                con.close()

    @property
    def held(self) -> bool:
        return self._con is not None

    @property
    def connection(self) -> Connection:
        """The connection for a job on a thread of its own (``ui.import_job``): a hold
        that ``imported`` (the job's ``on_done``) lets go of."""
        con = self.acquire()
        with self._guard:
            self._job_holds += 1
        return con

    def job_done(self) -> None:
        with self._guard:
            if self._job_holds == 0:
                return
            self._job_holds -= 1
        self.release()

    @contextlib.contextmanager
    def reading(self) -> Iterator[Connection]:
        """A cursor for the time of a ``with`` block (a fragment's rerun, a first start)."""
        con = self.acquire()
        cur = con.cursor()
        try:
            yield cur
        finally:
            with contextlib.suppress(Exception):
                cur.close()
            self.release()


@st.cache_resource(show_spinner="Opening the database (on a first start: importing the samples)…")
def _shared(path: str) -> Shared:
    shared = Shared(path)
    first_start(shared)
    return shared


def first_start(shared: Shared) -> ImportSummary | None:
    """A database that never saw an import gets the bundled sample hands, once.

    So a newcomer sees a working dashboard at once; a database whose hands were imported
    (or deliberately emptied after an import) is left alone.
    """
    with shared.reading() as con:
        if queries.count_hands(con) or not queries.import_history(con, limit=1).empty:
            return None
        samples = samples_dir()
        if samples is None or not samples.is_dir():
            return None
        summary = import_paths(con, [samples])
        marked_samples(con)  # simulated hands: shown apart, removable (analysis.storage.samples)
    shared.generation += 1
    return summary


def db_path() -> str:
    return db.resolve_path()


@st.cache_resource(show_spinner=False)
def _own_statistics(path: str) -> own.Loaded:
    return own.load(own.folder_of(path))


def own_statistics() -> tuple[own.Refusal, ...]:
    """The player's own statistics beside the database, read once per process (at the
    dashboard's start) and shown from this run on; the files refused, for a notice."""
    loaded = _own_statistics(db_path())
    use_own(loaded.stats)
    return loaded.refusals


def _unavailable(exc: DatabaseUnavailable) -> None:
    st.error("The database cannot be opened.", icon=":material/lock:")
    st.code(str(exc), language=None, wrap_lines=True)
    st.button("Try again", key="db_retry", icon=":material/refresh:")
    st.stop()


def fault(exc: BaseException) -> None:
    """A failure of the disk or of the database file in a page's run (a full disk, a file
    damaged under it): its sentence in a box; the other pages, and this one run again,
    keep working."""
    st.error(sentence(exc, None, db_path(), TRY_AGAIN), icon=":material/error:")


def shared() -> Shared:
    """The database of this process; a page that cannot have it says why and stops.

    Another program holds the file only for a short write, which is waited for; a long
    one (a large ``drawlab import``) is reported, and a failure is not cached, so "Try
    again" opens it once the other program is done.
    """
    path = db_path()
    try:
        if path not in _opened:
            _first_open(path)
        return _shared(path)
    except DatabaseUnavailable as exc:
        _unavailable(exc)
        raise  # st.stop() raises; this line is for the type checker


_run = threading.local()  # this thread's script run: its shared state and cursor
_opened: set[str] = set()  # the files this process has opened (``shared``)
# Two sessions' first runs at once (the server's own first visit, ``ui.server``, and a
# browser's; two tabs) both created a new file's tables: DuckDB refused the second.
_opening = threading.Lock()
_busy: dict[str, str] = {}  # why a first open under way takes long: its refill's notice
OPENING = "Another window is opening this database; this page follows when it is done."
WAIT_POLL = 0.25  # seconds between two looks at a first open another session is making


def _first_open(path: str) -> None:
    """The file's first open in this process, one at a time: it may create a new file's
    tables, or refill an older one's facts for minutes (saying why, in this run, not in
    the cache, whose elements every later call would draw again).  A run that comes while
    another session's open is under way (a second tab, the server's own first visit)
    waits saying why: that open's refill notice, as soon as there is one."""
    box: list[Any] = []

    def show(text: str) -> None:
        if not box:
            box.append(st.empty())
        box[0].info(text, icon=":material/update:")

    def told(text: str) -> None:
        _busy[path] = text
        _updating(text)

    await_opening(path, show)
    try:
        if path not in _opened:
            open_database(path, wait=OPEN_WAIT, told=told).close()
            _opened.add(path)
    finally:
        _busy.pop(path, None)
        _opening.release()
        if box:
            box[0].empty()


def await_opening(path: str, show: Callable[[str], None]) -> None:
    """Take the first opens' lock; while another session holds it, ``show`` why, each new
    reason once (the refill's notice once that open has given it, else ``OPENING``)."""
    shown = None
    while not _opening.acquire(timeout=WAIT_POLL):
        text = _busy.get(path, OPENING)
        if text != shown:
            show(text)
            shown = text


def connection() -> Connection:
    """A cursor for this script run, held until the run ends (``end_run``, app.py)."""
    s = shared()
    cur: Connection | None = getattr(_run, "cursor", None)
    if cur is not None and getattr(_run, "shared", None) is s:
        return cur
    end_run()
    try:
        con = _acquire_saying_so(s)
    except DatabaseUnavailable as exc:
        _unavailable(exc)
        raise
    cur = con.cursor()
    _run.shared, _run.cursor = s, cur
    return cur


def _acquire_saying_so(s: Shared) -> Connection:
    """``s.acquire()``, with a spinner saying why the page waits when the file is held
    (tried once first, so a free file shows nothing)."""
    try:
        return s.acquire(wait=0.0)
    except DatabaseUnavailable:
        with st.spinner(WAITING):
            return s.acquire()


def end_run() -> None:
    """Let go of this script run's hold, if it took one: app.py calls it after each run."""
    s: Shared | None = getattr(_run, "shared", None)
    cur: Connection | None = getattr(_run, "cursor", None)
    _run.shared = _run.cursor = None
    if cur is not None:
        with contextlib.suppress(Exception):
            cur.close()
    if s is not None:
        s.release()


def file_stamp(path: str) -> tuple[int, ...]:
    """The database file's and its write-ahead log's size and time: they change with
    every commit of any program, and cost two ``stat`` calls, no connection."""
    stamp: list[int] = []
    for name in (path, path + ".wal"):
        try:
            st_ = os.stat(name)
        except OSError:
            stamp += [0, 0]
        else:
            stamp += [st_.st_size, st_.st_mtime_ns]
    return tuple(stamp)


def generation() -> int:
    """Changes after every write to the database, by this or another program: the cache
    key that makes pages see new hands."""
    s = shared()
    return hash((s.generation, *file_stamp(s.path)))


def imported_now() -> None:
    """Call after this run wrote to the database itself (not a job on its own thread)."""
    shared().generation += 1


def imported(s: Shared | None = None) -> None:
    """Call after an import wrote to the database (from any thread, passing ``s``); it
    also lets go of the hold the job took through ``Shared.connection``."""
    s = s or shared()
    s.generation += 1
    s.job_done()
