"""The folders the dashboard watches: a list kept in the database, with each one's last read.

Kept in the database (``watched_folders``, schema version 6) rather than in a settings
file, because the list belongs with the hands it fills: a dashboard started again, or on
another database, watches what that database was watching.  The watcher
(``analysis.pipeline.watch.Watcher``) writes a folder's last read in the same open of the file as
the import it made, so the two never disagree.

A path is stored as the user picked it, made absolute: DrawLab reads only what the user
picked (``analysis.pipeline.client_folders`` suggests, never adds).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from analysis.pipeline.watch import Batch
from analysis.storage.db import Connection


@dataclass(frozen=True)
class WatchedFolder:
    """One watched path and its last read: when the watcher last imported from it, the
    files and hands of that batch; ``hands``: the hands stored from its files now (by
    whatever import, the watcher's or another)."""

    path: str
    added: datetime
    last_read: datetime | None
    last_files: int | None
    last_added: int | None
    last_problems: int | None
    hands: int


def normalized(path: str | Path) -> str:
    """The path as stored: ``~`` expanded, absolute, without a trailing separator."""
    return str(Path(path).expanduser().absolute())


def folders(con: Connection) -> list[WatchedFolder]:
    """Every watched path, in the order they were picked."""
    rows = con.execute(
        "SELECT w.path, w.added, w.last_read, w.last_files, w.last_added, w.last_problems, "
        "(SELECT count(*) FROM hands h WHERE h.file = w.path OR starts_with(h.file, w.path || ?)) "
        "FROM watched_folders w ORDER BY w.added, w.path",
        [os.sep],
    ).fetchall()
    return [WatchedFolder(*row) for row in rows]


def paths(con: Connection) -> list[Path]:
    return [Path(f.path) for f in folders(con)]


def add(con: Connection, path: str | Path) -> str:
    """Watch ``path`` (a folder, or one file); returns it as stored.  ValueError, saying
    why, for a path that is not there; adding a watched path again changes nothing."""
    text = str(path).strip()
    if not text:
        raise ValueError("name a folder to watch")
    stored = normalized(text)
    target = Path(stored)
    if not target.exists():
        raise ValueError(f"{stored} does not exist")
    if not (target.is_dir() or target.is_file()):
        raise ValueError(f"{stored} is neither a folder nor a file")
    con.execute(
        "INSERT INTO watched_folders (path, added) VALUES (?, ?) ON CONFLICT DO NOTHING",
        [stored, datetime.now()],
    )
    return stored


def remove(con: Connection, path: str | Path) -> bool:
    """Stop watching ``path``; the hands it brought stay.  False when it was not watched."""
    stored = normalized(path)
    found = con.execute("SELECT count(*) FROM watched_folders WHERE path = ?", [stored]).fetchall()
    con.execute("DELETE FROM watched_folders WHERE path = ?", [stored])
    return bool(found[0][0])


def record(con: Connection, batch: Batch) -> None:
    """Note a batch the watcher imported as its folder's last read (``Watcher.on_import``)."""
    if batch.root is None or batch.summary is None:
        return
    stored = normalized(batch.root)
    s = batch.summary
    con.execute(
        "UPDATE watched_folders SET last_read = ?, last_files = ?, last_added = ?, "
        "last_problems = ? WHERE path = ?",
        [datetime.now(), len(batch.files), s.added, s.problems, stored],
    )
