"""The dashboard's watcher: the folders in ``watched_folders`` imported as they change, on a
thread of the dashboard's process for as long as it runs.

It is ``analysis.pipeline.watch.Watcher`` (the one ``drawlab import --watch`` runs) with the
dashboard's way of writing: each batch borrows the process's shared connection
(``ui.state.Shared``) under the one-import-at-a-time lock, so the watcher, an upload on the
Import page and the pages' reads never open the file twice in this process, and the file is
let go as soon as the batch is committed, for the other programs.  No Streamlit here but
the process-wide cache that makes it one watcher per database.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import deque
from collections.abc import Iterator
from pathlib import Path

import streamlit as st

from analysis.pipeline import watched
from analysis.pipeline.watch import Batch, Watcher
from analysis.storage.db import Connection, DatabaseUnavailable
from ui.state import OPEN_WAIT, Shared, shared

RESTART_PAUSE = 5.0  # seconds before a watcher that failed is run again
KEPT_BATCHES = 20


class DashboardWatcher:
    """One database's watcher thread, started once a folder is watched."""

    def __init__(self, s: Shared) -> None:
        self.shared = s
        self.batches: deque[Batch] = deque(maxlen=KEPT_BATCHES)
        self.error: str | None = None  # the last failure of the watcher itself
        self.watcher = Watcher(
            s.path, [], on_batch=self.batches.append, opener=self._open,
            on_import=watched.record, first_workers=0, lock_wait=OPEN_WAIT,
        )  # fmt: skip
        self._thread: threading.Thread | None = None
        self._guard = threading.Lock()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @contextlib.contextmanager
    def _open(self) -> Iterator[Connection]:
        """A batch's connection: the process's, while no upload or replay job writes."""
        if not self.shared.lock.acquire(timeout=OPEN_WAIT):
            raise DatabaseUnavailable("an import on the Import page is writing; tried again soon")
        try:
            con = self.shared.acquire()  # DatabaseUnavailable when another program holds it
            cur = con.cursor()
            try:
                yield cur
            finally:
                with contextlib.suppress(Exception):
                    cur.close()
                self.shared.release()
                self.shared.generation += 1
        finally:
            self.shared.lock.release()

    def refresh(self, roots: list[Path]) -> None:
        """Watch ``roots`` (the stored list, after the page changed it); the thread starts
        with the first one."""
        with self._guard:
            if self.running:
                self.watcher.set_roots(roots)
                return
            if not roots:
                return
            self.watcher.roots = list(roots)
            self._thread = threading.Thread(target=self._run, name="drawlab-watch", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        """The watcher, run again after a pause if it ever fails (a dashboard left open
        for days should not stop importing over one fault)."""
        while not self.watcher.stop_event.is_set():
            try:
                self.watcher.run()
            except Exception as exc:  # reported on the Import page, then tried again
                self.error = f"{type(exc).__name__}: {exc}"
                self.watcher.stop_event.wait(RESTART_PAUSE)
            else:
                return

    def stop(self, timeout: float = 30) -> None:
        self.watcher.stop()
        if self._thread is not None:
            self._thread.join(timeout)

    def checked_ago(self) -> float | None:
        """Seconds since the watcher last looked at the files (None: not yet)."""
        checked = self.watcher.checked
        return None if checked is None or not self.running else max(0.0, time.time() - checked)


@st.cache_resource(show_spinner=False)
def _watcher(path: str) -> DashboardWatcher:
    s = shared()
    w = DashboardWatcher(s)
    with s.reading() as con:
        roots = watched.paths(con)
    w.refresh(roots)
    return w


def watcher() -> DashboardWatcher:
    """This dashboard's watcher, started on its first call when folders are watched
    (app.py calls it on every run, so a dashboard started again resumes watching)."""
    return _watcher(shared().path)
