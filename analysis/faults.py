"""One sentence for a failure of the machine or of the database file, for every command
and page: what happened, to which file, what was kept, and what to do.

A user whose disk filled during an import needs to know that the hands committed before
it are safe and that running the same import again finishes it, not DuckDB's internals.
``cli.main`` and the dashboard (``app.py``) catch ``FAULTS`` around everything they run
and show ``sentence``; ``db.connect`` words its own refusals here too, so a file that is
not a database is not blamed on a lock.  Writers commit whole transactions (a failed one
rolls back: ``analysis.storage.transactions``), which is what the "kept" part promises.
"""

from __future__ import annotations

import errno
import os
import re

import duckdb

from analysis.storage.schema import NewerSchema


class Explained(RuntimeError):
    """A refusal whose message is already its sentence (``db.DatabaseUnavailable``,
    ``db.SchemaOutdated``: a database that cannot be opened as it is)."""


# the exit status of a command stopped by a fault (as for a database that cannot be opened)
FAULT_STATUS = 2
FAULTS: tuple[type[BaseException], ...] = (OSError, duckdb.Error, Explained, NewerSchema)

# what a command that writes has kept when it stops half-way (each of its transactions is
# committed whole or not at all), and what running it again does
KEPT = {
    "import": ("the hands committed before it are kept and nothing half-written was stored",
               "it adds each missing hand once"),
    "reverify": ("the hands replayed before it are kept", "it goes on from there"),
    "export": ("the database is unchanged, but the files written so far may be incomplete",
               "it writes them whole"),
    "review": ("the reviews stored before it are kept", "it reviews the rest"),
    "bulk": ("the dataset may be incomplete", "it goes on where it stopped"),
    "delete": ("the hands are deleted whole or not at all", "it deletes what is left"),
}
OPENING = "open"  # the command's first step, opening the database: nothing done yet
UNCHANGED = frozenset({OPENING, "stats", "replay", "verify", "compare", "equity", "convert"})
NOTHING = "nothing was changed"
AGAIN = "run the same command again"
TRY_AGAIN = "try again"  # the dashboard: no command was typed
SOME = "what was stored before it is kept"

_FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
_DENIED = (errno.EACCES, errno.EPERM, errno.EROFS)
_QUOTED = re.compile(r'"([^"]+)"')
_LOCK = re.compile(r"\block\b", re.IGNORECASE)  # "Could not set lock on file", not "block"


def sentence(
    exc: BaseException,
    command: str | None = None,
    database: str | None = None,
    retry: str = AGAIN,
) -> str:
    """The one sentence for ``exc`` raised while ``command`` ran on ``database`` (a path).

    Refusals to open (``Explained``: a file that is not a database, a schema a newer
    DrawLab wrote) changed nothing, whatever the command; a failure part-way says what
    the command kept.  ``retry``: what running it again is called (a page: ``TRY_AGAIN``)."""
    if isinstance(exc, Explained | NewerSchema):
        return str(exc)
    kept, again = kept_by(command)
    what, todo = _describe(exc, _file_of(exc, database))
    return f"{what}: {kept}; " + todo.replace(AGAIN, retry + (f" ({again})" if again else ""))


def kept_by(command: str | None) -> tuple[str, str]:
    """What ``command`` kept when it stopped, and what running it again does."""
    if command in UNCHANGED:
        return NOTHING, ""
    return KEPT.get(command or "", (SOME, ""))


def opening(target: str, exc: BaseException, waited: float) -> str:
    """Why ``db.connect`` could not open ``target`` (``waited``: seconds spent waiting for
    another program to release it): nothing was changed in it."""
    what, todo = _describe(exc, _file_of(exc, target))
    if waited > 0 and is_lock(exc):
        what += f" (waited {waited:g} s)"
    return f"{what}: {NOTHING}; {todo}"


def is_lock(exc: BaseException) -> bool:
    """DuckDB's error for a file another process holds (the only one worth waiting on)."""
    return isinstance(exc, duckdb.IOException) and _LOCK.search(str(exc)) is not None


def folder_gone(folder: str) -> str:
    """A watched folder that disappeared: the watcher goes on, so this is news, not an end."""
    return (
        f"the watched folder {folder} is not there any more (deleted, renamed, or on a disk "
        "no longer mounted): the hands imported from it are kept; watching goes on and "
        "reads it again when it is back"
    )


def closed_output() -> int:
    """Standard output closed early by its reader (``drawlab replay ... | head``): not a
    failure, so no message; what remains unwritten goes nowhere, quietly, even the
    interpreter's last flush."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
    except OSError:
        pass
    return 0


def _file_of(exc: BaseException, database: str | None) -> str | None:
    """The file a failure names: the OS's, else the one DuckDB quotes (its log is the
    database's own business, so the database is named), else the database."""
    if isinstance(exc, OSError) and exc.filename:
        return os.fsdecode(exc.filename)
    found = _QUOTED.search(str(exc))
    if found:
        return found.group(1).removesuffix(".wal")
    return database


def _describe(exc: BaseException, file: str | None) -> tuple[str, str]:
    """(what happened to ``file``, what to do about it)."""
    name = file or "the database"
    text = str(exc)
    lowered = text.lower()
    code = exc.errno if isinstance(exc, OSError) else None
    if is_lock(exc):
        return (
            f"{name} is held by another program",
            "DuckDB lets one program write a database at a time, so close the other one (a "
            "DrawLab import lets go within seconds when asked) and try again, or use --db",
        )
    if code in _FULL or "no space left" in lowered or "disk quota" in lowered:
        return (
            f"the disk holding {name} is full",
            f"free some space on it, then {AGAIN}",
        )
    if code in _DENIED or "permission denied" in lowered or "read-only file system" in lowered:
        return (
            f"{name} cannot be written (a read-only file, folder or disk)",
            f"make it writable or name another place (--db, --out), then {AGAIN}",
        )
    if code == errno.ENOENT or "no such file or directory" in lowered:
        return (
            f"{name} is not there any more",
            f"check the path (a moved folder, an unplugged disk), then {AGAIN}",
        )
    if "not a valid duckdb database" in lowered:
        return (
            f"{name} is not a DuckDB database (not a DrawLab database)",
            "name your database with --db, or move this file away to start a new one",
        )
    if "could not read enough bytes" in lowered or "corrupt" in lowered:
        return (
            f"{name} is damaged (cut short or corrupted)",
            "restore it from a copy, or move it away and import your hand histories again",
        )
    if "version number" in lowered and "database file" in lowered:
        return (
            f"{name} was written by a newer DuckDB (a newer DrawLab)",
            "upgrade DrawLab to open it",
        )
    detail = (exc.strerror or text) if isinstance(exc, OSError) else text
    first = detail.strip().splitlines()[0] if detail.strip() else type(exc).__name__
    return (
        f"{name} failed: {first}",
        f"{AGAIN}, and report this message if it fails again",
    )
