"""Watching hand-history folders: each hand imported seconds after the client wrote it.

``drawlab import --watch`` runs a ``Watcher``: it imports what the watched paths hold,
then waits for files to change and imports those, one batch at a time.  Changes come
from file system events (watchdog) where the system delivers them, and from a scan of
the files' size, time and inode every ``poll`` seconds, which also catches what events
miss (network shares, some containers) and is the only source when watchdog cannot
start.

The importer does the hard part: a grown file is read from its last hand on, and the
watcher has it hold back a hand still being written at the end of a file (``hold_tail``):
that hand is not stored, the file's resume point stays at it, and the read of the grown
file stores it whole, once.  A tail that never completes is not lost: once its file has
been unchanged for ``tail_wait`` seconds, or when the watcher stops cleanly, it is stored
as it stands (``incomplete``, with its message), and still replaced if the file grows
later.  A file replaced, truncated or rotated is read again and its hands already stored
are skipped by their keys.  The watcher adds only *when*: a file is imported once it has
been quiet for ``settle`` seconds (a client writes a hand in one go), and *briefly*: the
database is
opened for each batch and closed after it, so other programs can use the file in between
(README, "One database, several programs").  The dashboard runs a watcher too, on the
folders kept in the database (``analysis.pipeline.watched``): it passes an ``opener`` that borrows
its own shared connection (one writer per process) and ``set_roots`` as the list changes.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from analysis.faults import FAULTS, folder_gone, sentence
from analysis.pipeline.importer import ImportSummary, import_paths, open_database
from analysis.storage.db import LOCK_WAIT, Connection, DatabaseUnavailable

POLL = 1.0  # seconds between scans when no event arrives (events: sooner)
POLL_WITH_EVENTS = 5.0  # ...when watchdog delivers events, the scan is only a safety net
SETTLE = 0.25  # seconds a changed file must stay unchanged before it is read
BATCH_BYTES = 16 << 20  # a backlog is imported this much at a time, the file released between
YIELD = 0.05  # seconds the file is left free between two batches, for a waiting reader
TAIL_WAIT = 30.0  # seconds a file may end inside a hand before that hand is stored as is
SKIPPED_SUFFIXES = (".duckdb", ".wal", ".tmp", ".part", ".lock")

Stamp = tuple[int, int, int]  # size, modification time (ns), inode


@dataclass(frozen=True)
class Batch:
    """One round of the watcher: the files read and what the import made of them."""

    files: tuple[str, ...]
    summary: ImportSummary | None
    error: str | None = None  # the database could not be opened or written: the files wait
    root: Path | None = None  # the watched path the files are under

    def line(self) -> str:
        """The line ``drawlab import --watch`` prints for the batch."""
        now = time.strftime("%H:%M:%S")
        what = self.files[0] if len(self.files) == 1 else f"{len(self.files)} files"
        if self.summary is None and not self.files:  # news of a watched folder
            return f"{now} {self.error}"
        if self.summary is None:
            return f"{now} {what}: not imported yet: {self.error}"
        s = self.summary
        held = f", {len(s.held)} unfinished hand(s) waiting" if s.held else ""
        summaries = (f", {s.summaries_added} of {s.summaries} tournament summaries stored"
                     if s.summaries else "")
        summaries += f", {len(s.summary_errors)} not read" if s.summary_errors else ""
        return (
            f"{now} {what}: {s.added} hands added, {s.already_present} already present, "
            f"{s.problems} problems{held}{summaries}"
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


def root_of(path: Path, roots: Iterable[Path]) -> Path | None:
    """The first of ``roots`` that is ``path`` or a folder holding it."""
    for root in roots:
        if path == root or root in path.parents:
            return root
    return None


def _by_root(
    changed: list[tuple[Path, Stamp]], roots: list[Path]
) -> Iterator[tuple[Path | None, list[tuple[Path, Stamp]]]]:
    """The changed files per watched root, in the roots' order: each batch reads one
    root's files, so what it added is that folder's (the dashboard shows it per folder)."""
    per: dict[Path | None, list[tuple[Path, Stamp]]] = {}
    for item in changed:
        per.setdefault(root_of(item[0], roots), []).append(item)
    for root in [*roots, None]:
        if root in per:
            yield root, per.pop(root)


@contextlib.contextmanager
def _own_connection(db_path: str | None, wait: float) -> Iterator[Connection]:
    """The command line's way: open the file for one batch, close it after."""
    con = open_database(db_path, wait=wait)
    try:
        yield con
    finally:
        con.close()


@dataclass
class Watcher:
    """Imports ``roots`` into the database at ``db_path``, then every change to them.

    ``events``: use watchdog's file system events (the scan runs anyway, less often);
    ``on_batch`` is called after every batch (the CLI prints its line).  ``opener``: the
    connection of one batch, as a context manager (default: the file opened and closed);
    ``on_import`` runs inside it after a batch is imported (the dashboard notes the read
    in ``watched_folders``, in the same open).  ``first_workers``: the worker processes of
    the first round's import (``import_paths``'s default; the dashboard uses none).
    ``checked``: when the watcher last looked at the files (a Unix time).  ``tail_wait``:
    seconds a file's unfinished last hand is held back while the file does not change.
    """

    db_path: str | None
    roots: list[Path]
    on_batch: Callable[[Batch], None] = lambda b: None
    poll: float | None = None
    settle: float = SETTLE
    events: bool = True
    lock_wait: float = LOCK_WAIT
    opener: Callable[[], AbstractContextManager[Connection]] | None = None
    on_import: Callable[[Connection, Batch], None] | None = None
    first_workers: int | None = None
    checked: float | None = None
    tail_wait: float = TAIL_WAIT
    stop_event: threading.Event = field(default_factory=threading.Event)
    _wake: threading.Event = field(default_factory=threading.Event)
    _seen: dict[Path, Stamp] = field(default_factory=dict)
    _observer: Any = None
    _held: dict[Path, float] = field(default_factory=dict)  # unfinished tail: since when
    _new_roots: list[Path] | None = None
    _gone: set[Path] = field(default_factory=set)  # watched paths found missing, said once

    def stop(self) -> None:
        """Ask the watcher to stop (from a signal handler or another thread): the batch
        being written is committed first."""
        self.stop_event.set()
        self._wake.set()

    @property
    def uses_events(self) -> bool:
        return self._observer is not None

    def set_roots(self, roots: Iterable[Path]) -> None:
        """Watch these paths from the next round on (from another thread: the dashboard's
        page); a new path's files are read at once, as on a first round."""
        self._new_roots = list(roots)
        self._wake.set()

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
                self._take_new_roots()
                self._round()
            self.release_tails()
        finally:
            self._stop_events()

    @property
    def held(self) -> list[Path]:
        """The files whose last hand is held back, still being written."""
        return list(self._held)

    def release_tails(self) -> None:
        """Store every held-back last hand as it stands (a clean stop: nothing is left
        only in this process's memory; a later growth of the file still replaces it)."""
        self._release([(p, s) for p in self._held if (s := stamp(p)) is not None])

    def _take_new_roots(self) -> None:
        new, self._new_roots = self._new_roots, None
        if new is None or new == self.roots:
            return
        self.roots = new
        if self.events:  # watch the new folders' events, and no longer the old ones'
            self._stop_events()
            self._start_events()

    def _round(self, first: bool = False) -> None:
        self._say_gone()
        changed = self._changed()
        self.checked = time.time()
        if not changed and not first:
            self._release_due()
            return
        # A file still changing (a client writing a hand) is left for a later round.
        if self.settle > 0 and changed:
            self.stop_event.wait(self.settle)
            quiet = [(path, before) for path, before in changed if stamp(path) == before]
            if len(quiet) < len(changed):
                self._wake.set()
            changed = quiet
        i = 0
        for root, files in _by_root(changed, self.roots):
            for group in _groups(files):
                if self.stop_event.is_set():
                    return  # the rest is not marked seen: the next run reads it
                if i:
                    self.stop_event.wait(YIELD)
                i += 1
                workers = self.first_workers if first else 0
                self.on_batch(self._import(group, root, workers=workers))
        self._release_due()

    def _say_gone(self) -> None:
        """A watched path that disappeared is said once (its files are not deleted hands:
        what was imported stays); when it is back, its files are read as new ones."""
        for root in self.roots:
            if root.exists():
                self._gone.discard(root)
            elif root not in self._gone:
                self._gone.add(root)
                self.on_batch(Batch((), None, folder_gone(str(root)), root=root))

    def _release_due(self) -> None:
        """Store the held tails of files unchanged for ``tail_wait`` seconds: the client
        stopped in the middle of a hand (a crash, a file cut by hand) and will not finish it."""
        now = time.monotonic()
        due = [
            (path, s)
            for path, since in self._held.items()
            if now - since >= self.tail_wait and (s := stamp(path)) == self._seen.get(path)
            and s is not None
        ]  # fmt: skip
        if due and not self.stop_event.is_set():
            self._release(due)

    def _release(self, files: list[tuple[Path, Stamp]]) -> None:
        for root, group in _by_root(files, self.roots):
            self.on_batch(self._import(group, root, workers=0, final=True))

    def _changed(self) -> list[tuple[Path, Stamp]]:
        now: dict[Path, Stamp] = {}
        for path in walk(self.roots):
            s = stamp(path)
            if s is not None:
                now[path] = s
        changed = [(p, s) for p, s in now.items() if self._seen.get(p) != s]
        for gone in set(self._seen) - set(now):  # deleted or rotated away: forget it
            del self._seen[gone]
            self._held.pop(gone, None)
        return changed

    def _import(
        self,
        changed: list[tuple[Path, Stamp]],
        root: Path | None,
        workers: int | None,
        final: bool = False,
    ) -> Batch:
        """One batch, one open of the database; ``workers`` as ``import_paths`` takes them
        (none after the first round: a few hands cost less than starting processes).
        ``final``: store the files' unfinished last hands too, instead of holding them."""
        files = tuple(str(p) for p, _ in changed)
        opened = (self.opener or (lambda: _own_connection(self.db_path, self.lock_wait)))()
        try:
            with opened as con:
                summary = import_paths(
                    con, [p for p, _ in changed], workers=workers, hold_tail=not final
                )
                batch = Batch(files, summary, root=root)
                if self.on_import is not None:
                    self.on_import(con, batch)
        except DatabaseUnavailable as exc:
            self._wake.set()  # not marked seen: tried again next round
            return Batch(files, None, str(exc), root=root)
        except FAULTS as exc:  # a full disk, a file gone: said, and tried again next round
            return Batch(files, None, sentence(exc, "import", self.db_path), root=root)
        held = set(summary.held)
        now = time.monotonic()
        for path, s in changed:
            self._seen[path] = s
            if str(path) in held:
                self._held[path] = now  # changed (or new): its wait starts again
            else:
                self._held.pop(path, None)
        return batch

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
