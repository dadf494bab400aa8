"""Watching hand-history folders: each hand imported seconds after the client wrote it.

``drawlab import --watch`` runs a ``Watcher``: it imports what the watched paths hold,
then waits for files to change and imports those, one batch at a time.  Changes come
from file system events (watchdog) where the system delivers them, and from a scan of
the files' size, time and inode every ``poll`` seconds, which also catches what events
miss (network shares, some containers) and is the only source when watchdog cannot
start.

The importer does the hard part: a grown file is read from its last hand on, so a hand
half written at the end of the file is read again, whole, when the file grows; a file
replaced, truncated or rotated is read again and its hands already stored are skipped by
their keys.  The watcher adds only *when*: a file is imported once it has been quiet for
``settle`` seconds (a client writes a hand in one go), and *briefly*: the database is
opened for each batch and closed after it, so other programs can use the file in between
(README, "One database, several programs").
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from analysis.pipeline.importer import ImportSummary, import_paths, open_database
from analysis.storage.db import LOCK_WAIT, DatabaseUnavailable

POLL = 1.0  # seconds between scans when no event arrives (events: sooner)
POLL_WITH_EVENTS = 5.0  # ...when watchdog delivers events, the scan is only a safety net
SETTLE = 0.25  # seconds a changed file must stay unchanged before it is read
BATCH_BYTES = 16 << 20  # a backlog is imported this much at a time, the file let go between
YIELD = 0.05  # seconds the file is left free between two batches, for a waiting reader
SKIPPED_SUFFIXES = (".duckdb", ".wal", ".tmp", ".part", ".lock")

Stamp = tuple[int, int, int]  # size, modification time (ns), inode


@dataclass(frozen=True)
class Batch:
    """One round of the watcher: the files read and what the import made of them."""

    files: tuple[str, ...]
    summary: ImportSummary | None
    error: str | None = None  # the database could not be opened: the files wait

    def line(self) -> str:
        """The line ``drawlab import --watch`` prints for the batch."""
        now = time.strftime("%H:%M:%S")
        what = self.files[0] if len(self.files) == 1 else f"{len(self.files)} files"
        if self.summary is None:
            return f"{now} {what}: not imported yet: {self.error}"
        s = self.summary
        return (
            f"{now} {what}: {s.added} hands added, {s.already_present} already present, "
            f"{s.problems} problems"
        )


def _wanted(path: Path) -> bool:
    name = path.name
    return not name.startswith(".") and not name.endswith(SKIPPED_SUFFIXES)


def walk(roots: Iterable[Path]) -> Iterator[Path]:
    """The files under ``roots`` (a root may be one file), named as ``drawlab import``
    names them, so the watcher's imports and a one-off import know the same files."""
    for root in roots:
        if root.is_dir():
            stack = [root]
            while stack:
                folder = stack.pop()
                try:
                    entries = sorted(folder.iterdir(), key=lambda e: e.name)
                except OSError:
                    continue
                for entry in entries:
                    if entry.is_dir() and not entry.is_symlink():
                        stack.append(entry)
                    elif _wanted(entry):
                        yield entry
        elif root.exists():
            yield root


def stamp(path: Path) -> Stamp | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino)


def _groups(changed: list[tuple[Path, Stamp]]) -> Iterator[list[tuple[Path, Stamp]]]:
    """Files in batches of about ``BATCH_BYTES``: a large backlog (the first round over a
    full history folder) does not keep the database from other programs all along."""
    group: list[tuple[Path, Stamp]] = []
    size = 0
    for item in changed:
        if group and size + item[1][0] > BATCH_BYTES:
            yield group
            group, size = [], 0
        group.append(item)
        size += item[1][0]
    if group:
        yield group


@dataclass
class Watcher:
    """Imports ``roots`` into the database at ``db_path``, then every change to them.

    ``events``: use watchdog's file system events (the scan runs anyway, less often);
    ``on_batch`` is called after every batch (the CLI prints its line).
    """

    db_path: str | None
    roots: list[Path]
    on_batch: Callable[[Batch], None] = lambda b: None
    poll: float | None = None
    settle: float = SETTLE
    events: bool = True
    lock_wait: float = LOCK_WAIT
    stop_event: threading.Event = field(default_factory=threading.Event)
    _wake: threading.Event = field(default_factory=threading.Event)
    _seen: dict[Path, Stamp] = field(default_factory=dict)
    _observer: Any = None

    def stop(self) -> None:
        """Ask the watcher to stop (from a signal handler or another thread): the batch
        being written is committed first."""
        self.stop_event.set()
        self._wake.set()

    @property
    def uses_events(self) -> bool:
        return self._observer is not None

    def run(self) -> None:
        """Watch until ``stop``."""
        self._start_events()
        try:
            self._round(first=True)
            while not self.stop_event.is_set():
                interval = self.poll or (POLL_WITH_EVENTS if self.uses_events else POLL)
                self._wake.wait(interval)
                if self.stop_event.is_set():
                    break
                self._wake.clear()
                self._round()
        finally:
            self._stop_events()

    def _round(self, first: bool = False) -> None:
        changed = self._changed()
        if not changed and not first:
            return
        # A file still changing (a client writing a hand) is left for a later round.
        if self.settle > 0 and changed:
            self.stop_event.wait(self.settle)
            quiet = [(path, before) for path, before in changed if stamp(path) == before]
            if len(quiet) < len(changed):
                self._wake.set()
            changed = quiet
        for i, group in enumerate(_groups(changed)):
            if self.stop_event.is_set():
                return  # the rest is not marked seen: the next run reads it
            if i:
                self.stop_event.wait(YIELD)
            self.on_batch(self._import(group, workers=None if first else 0))

    def _changed(self) -> list[tuple[Path, Stamp]]:
        now: dict[Path, Stamp] = {}
        for path in walk(self.roots):
            s = stamp(path)
            if s is not None:
                now[path] = s
        changed = [(p, s) for p, s in now.items() if self._seen.get(p) != s]
        for gone in set(self._seen) - set(now):  # deleted or rotated away: forget it
            del self._seen[gone]
        return changed

    def _import(self, changed: list[tuple[Path, Stamp]], workers: int | None) -> Batch:
        """One batch, one open of the database; ``workers`` as ``import_paths`` takes them
        (none after the first round: a few hands cost less than starting processes)."""
        files = tuple(str(p) for p, _ in changed)
        try:
            con = open_database(self.db_path, wait=self.lock_wait)
        except DatabaseUnavailable as exc:
            self._wake.set()  # not marked seen: tried again next round
            return Batch(files, None, str(exc))
        try:
            summary = import_paths(con, [p for p, _ in changed], workers=workers)
        finally:
            con.close()
        for path, s in changed:
            self._seen[path] = s
        return Batch(files, summary)

    # -- file system events

    def _start_events(self) -> None:
        if not self.events:
            return
        try:
            from watchdog.events import FileSystemEvent, FileSystemEventHandler
            from watchdog.observers import Observer
        except ImportError:
            return

        wake = self._wake

        class _Handler(FileSystemEventHandler):
            def on_any_event(self, event: FileSystemEvent) -> None:
                if event.event_type in ("created", "modified", "moved", "deleted", "closed"):
                    name = os.fsdecode(event.src_path)
                    if _wanted(Path(name)) or event.is_directory:
                        wake.set()

        observer = Observer()
        try:
            for root in self.roots:
                target = root if root.is_dir() else root.parent
                observer.schedule(_Handler(), str(target), recursive=root.is_dir())
            observer.daemon = True
            observer.start()
        except (OSError, RuntimeError):  # no inotify here (limits, some containers): poll
            return
        self._observer = observer

    def _stop_events(self) -> None:
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=5)
            self._observer = None
