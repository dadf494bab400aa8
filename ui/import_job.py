"""An import running beside the page, so a large upload never blocks the dashboard.

The page starts an ``ImportJob`` on a thread of its own and polls it; the job holds the
uploads' bytes until each is imported, reports where it is, and keeps every upload's
summary. A ``ReverifyJob`` (every stored hand replayed again) runs the same way. No
Streamlit here: the thread has no script context, and the job can be tested without a
page.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Self

import pandas as pd

from analysis.faults import FAULTS, TRY_AGAIN, sentence
from analysis.pipeline.importer import STATUSES, ImportSummary, Progress, import_bytes
from analysis.pipeline.reverify import ReverifySummary, reverify
from analysis.storage import queries
from analysis.storage.db import Connection
from parser.sources import ARCHIVE_SEP
from ui.labels import count

MEMBER_COLUMNS = ("file", "hands", "added", "already_present", *STATUSES, "rejected")


@dataclass(frozen=True)
class UploadResult:
    """One upload's summary; for an archive also one row per member file read."""

    name: str
    size: int
    summary: ImportSummary
    members: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=MEMBER_COLUMNS))
    stored: int = 0  # the file's hands in the database after the import, whenever stored
    stored_errors: int = 0  # of which have errors


def archive_members(con: Connection, name: str, files: int) -> pd.DataFrame:
    """The per-file rows the store wrote for the members of upload ``name`` just now."""
    if files == 0:
        return pd.DataFrame(columns=MEMBER_COLUMNS)
    recent = queries.import_history(con, limit=files)
    mine = recent[recent["file"].astype(str).str.startswith(f"{name}{ARCHIVE_SEP}")]
    return mine.loc[:, list(MEMBER_COLUMNS)].iloc[::-1].reset_index(drop=True)


class _Job:
    """Work on a thread of its own, one job at a time per ``lock``, polled by the page."""

    name = "drawlab-job"
    done_text = "Finished"
    command = "import"  # what the fault sentence says was kept (``analysis.faults.KEPT``)

    def __init__(
        self,
        connect: Callable[[], Connection],
        lock: threading.Lock,
        on_done: Callable[[], None] = lambda: None,
    ) -> None:
        self._connect = connect
        self._lock = lock
        self._on_done = on_done
        self._finished = threading.Event()
        self.error: str | None = None
        self.fault: str | None = None  # a full disk, a damaged file: one sentence
        self.hands = 0
        self.fraction = 0.0

    def start(self) -> Self:
        threading.Thread(target=self.run, name=self.name, daemon=True).start()
        return self

    @property
    def finished(self) -> bool:
        return self._finished.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._finished.wait(timeout)

    @property
    def text(self) -> str:
        return self.done_text if self.finished else self.running_text()

    def running_text(self) -> str:
        return count(self.hands, "hand")

    def run(self) -> None:
        try:
            with self._lock:
                self.work()
        except FAULTS as exc:
            self.fault = sentence(exc, self.command, retry=TRY_AGAIN)
        except Exception as exc:  # the importer keeps file faults in its summary; not this
            self.error = f"{type(exc).__name__}: {exc}"
        finally:
            self.fraction = 1.0
            try:
                self._on_done()
            finally:
                self._finished.set()

    def work(self) -> None:
        raise NotImplementedError


class ImportJob(_Job):
    """Imports ``files`` (name, bytes) in turn."""

    name = "drawlab-import"
    done_text = "Import finished"

    def __init__(
        self,
        files: list[tuple[str, bytes]],
        connect: Callable[[], Connection],
        lock: threading.Lock,
        on_done: Callable[[], None] = lambda: None,
    ) -> None:
        super().__init__(connect, lock, on_done)
        self._files = list(files)
        self.names = [name for name, _ in files]
        self.results: list[UploadResult] = []
        self.current = 0

    def running_text(self) -> str:
        """Counts over the whole upload, never one file's: no file name (the progress text
        is Markdown, names are untrusted)."""
        total = len(self.names)
        return f"File {self.current + 1} of {total} · {count(self.hands, 'hand')} read in all"

    def work(self) -> None:
        total = max(1, len(self._files))
        for i, (name, content) in enumerate(self._files):
            self.current = i
            before = sum(r.summary.hands - len(r.summary.rejected) for r in self.results)

            def report(p: Progress, i: int = i, before: int = before) -> None:
                part = p.fraction  # by the bytes read: the bar moves from the first hand
                self.hands = before + p.hands
                self.fraction = min(1.0, (i + part) / total)

            con = self._connect()
            summary = import_bytes(con, name, content, progress=report)
            members = archive_members(con, name, summary.files)
            stored, errors = queries.stored_from(con, name, ARCHIVE_SEP)
            self.results.append(UploadResult(name, len(content), summary, members,
                                             stored, errors))
            self._files[i] = (name, b"")  # the bytes are in the database now


class ReverifyJob(_Job):
    """Replays every stored hand again (``analysis.pipeline.reverify``): after an upgrade."""

    name = "drawlab-reverify"
    done_text = "Every stored hand replayed again"
    command = "reverify"

    def __init__(
        self,
        connect: Callable[[], Connection],
        lock: threading.Lock,
        on_done: Callable[[], None] = lambda: None,
    ) -> None:
        super().__init__(connect, lock, on_done)
        self.total = 0
        self.summary: ReverifySummary | None = None

    def running_text(self) -> str:
        return f"{self.hands:,} of {count(self.total, 'hand')} replayed"

    def work(self) -> None:
        con = self._connect()
        self.total = queries.count_hands(con)

        def report(p: Progress) -> None:
            self.hands = p.hands
            self.fraction = min(1.0, p.hands / self.total) if self.total else 1.0

        self.summary = reverify(con, progress=report)
