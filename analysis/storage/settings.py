"""The user's settings that outlive a session (the dashboard's remembered switches), kept
in the database's ``meta`` table beside it, so every page and every later start reads
the same choice and the file carries them along."""

from __future__ import annotations

from analysis.storage.db import Connection, one

PREFIX = "setting:"
LEAVE_OUT_ERRORS = "leave_out_errors"  # "1": figures leave out the hands with errors


def get(con: Connection, name: str, default: str) -> str:
    row = one(con, "SELECT value FROM meta WHERE name = ?", [PREFIX + name])
    return default if row is None else str(row[0])


def put(con: Connection, name: str, value: str) -> None:
    con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", [PREFIX + name, value])


def leave_out_errors(con: Connection) -> bool:
    """Whether figures leave out the hands with errors: yes unless the user said no."""
    return get(con, LEAVE_OUT_ERRORS, "1") == "1"
