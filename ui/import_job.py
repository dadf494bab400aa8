"""An import running beside the page, so a large upload never blocks the dashboard.

The page starts an ``ImportJob`` on a thread of its own and polls it; the job holds the
uploads' bytes until each is imported, reports where it is, and keeps every upload's
summary.  No Streamlit here: the thread has no script context, and the job can be
tested without a page.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

import pandas as pd

from analysis import queries
from analysis.db import Connection
from analysis.importer import STATUSES, ImportSummary, Progress, import_bytes
from analysis.sources import ARCHIVE_SEP

MEMBER_COLUMNS = ("file", "hands", "added", "already_present", *STATUSES, "rejected")


@dataclass(frozen=True)
class UploadResult:
    """One upload's summary; for an archive also one row per member file read."""

    name: str
    size: int
    summary: ImportSummary
    members: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=MEMBER_COLUMNS))


def archive_members(con: Connection, name: str, files: int) -> pd.DataFrame:
    """The per-file rows the store wrote for the members of upload ``name`` just now."""
    if files == 0:
        return pd.DataFrame(columns=MEMBER_COLUMNS)
    recent = queries.import_history(con, limit=files)
    mine = recent[recent["file"].astype(str).str.startswith(f"{name}{ARCHIVE_SEP}")]
    return mine.loc[:, list(MEMBER_COLUMNS)].iloc[::-1].reset_index(drop=True)


class ImportJob:
    """Imports ``files`` (name, bytes) in turn, one job at a time per ``lock``."""

    def __init__(
        self,
        files: list[tuple[str, bytes]],
        connect: Callable[[], Connection],
        lock: threading.Lock,
        on_done: Callable[[], None] = lambda: None,
    ) -> None:
        self._files = list(files)
        self.names = [name for name, _ in files]
        self._connect = connect
        self._lock = lock
        self._on_done = on_done
        self._finished = threading.Event()
        self.results: list[UploadResult] = []
        self.error: str | None = None
        self.current = 0
        self.hands = 0
        self.fraction = 0.0

    def start(self) -> ImportJob:
        threading.Thread(target=self.run, name="drawlab-import", daemon=True).start()
        return self

    @property
    def finished(self) -> bool:
        return self._finished.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._finished.wait(timeout)

    @property
    def text(self) -> str:
        if self.finished:
            return "Import finished"
        total = len(self.names)
        return f"File {self.current + 1} of {total}: {self.hands:,} hands read"

    def run(self) -> None:
        total = max(1, len(self._files))
        try:
            with self._lock:
                for i, (name, content) in enumerate(self._files):
                    self.current = i

                    def report(p: Progress, i: int = i) -> None:
                        part = p.files_done / p.files_total if p.files_total else 1.0
                        self.hands = p.hands
                        self.fraction = min(1.0, (i + part) / total)

                    con = self._connect()
                    summary = import_bytes(con, name, content, progress=report)
                    members = archive_members(con, name, summary.files)
                    self.results.append(UploadResult(name, len(content), summary, members))
                    self._files[i] = (name, b"")  # the bytes are in the database now
        except Exception as exc:  # the importer keeps file faults in its summary; not this
            self.error = f"{type(exc).__name__}: {exc}"
        finally:
            self.fraction = 1.0
            try:
                self._on_done()
            finally:
                self._finished.set()
