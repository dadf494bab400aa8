"""Faults injected without privileges: a DuckDB connection that fails as a full disk does,
at the n-th statement of a kind, and what a database holds, to compare with a clean one.

A full disk shows in DuckDB as an ``IOException`` from the statement that wrote, or, when
the log is written at ``COMMIT``, as a ``TransactionException`` after which DuckDB has
already ended the transaction (a ``ROLLBACK`` then finds none): ``Faulty`` does the same.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

import duckdb

FULL = "No space left on device"
CHILDREN = ("seats", "actions", "draws", "shows", "payouts", "problems", "pots", "player_hands")


class InjectedFault(Exception):
    """Not raised: the type of ``Faulty.raised`` when nothing fired."""


class Faulty:
    """``con`` with the ``n``-th statement matching ``kind`` (a regular expression over
    the statement's start: ``COMMIT``, ``INSERT``, ``CHECKPOINT``, ``COPY``) failing for a
    full disk at ``file``; every other call goes to ``con``."""

    def __init__(self, con: duckdb.DuckDBPyConnection, kind: str, n: int, file: str) -> None:
        self._con = con
        self._kind = re.compile(kind, re.IGNORECASE)
        self._left = n
        self._file = file
        self.seen = 0
        self.fired = False

    def execute(self, sql: str, params: Any = None) -> Any:
        if not self.fired and self._kind.match(sql.lstrip()):
            self.seen += 1
            self._left -= 1
            if self._left == 0:
                self.fired = True
                message = f'Could not write file "{self._file}.wal": {FULL}'
                if sql.strip().upper() == "COMMIT":
                    self._con.execute("ROLLBACK")  # DuckDB ends a transaction it cannot commit
                    raise duckdb.TransactionException(
                        f"TransactionContext Error: Failed to commit: {message}"
                    )
                raise duckdb.IOException(f"IO Error: {message}")
        return self._con.execute(sql) if params is None else self._con.execute(sql, params)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._con, name)


def snapshot(con: duckdb.DuckDBPyConnection) -> dict[str, Any]:
    """What a database holds, by hand key (not by id): every hand's status and text, each
    child table's rows per hand, the quarantined texts, the files read to their end."""

    def rows(sql: str) -> list[tuple[Any, ...]]:
        return sorted(tuple(r) for r in con.execute(sql).fetchall())

    hands = [
        (key, status, hashlib.sha256(text.encode()).hexdigest())
        for key, status, text in rows("SELECT key, status, text FROM hands")
    ]
    shot: dict[str, Any] = {"hands": hands}
    for child in CHILDREN:
        shot[child] = rows(
            f"SELECT h.key, count(*) FROM {child} c JOIN hands h ON c.hand = h.id GROUP BY h.key"
        )
        shot[f"{child} orphans"] = rows(
            f"SELECT count(*) FROM {child} WHERE hand NOT IN (SELECT id FROM hands)"
        )
    shot["quarantine"] = rows("SELECT key, error FROM quarantine")
    shot["files"] = rows("SELECT path, size, checksum, hands FROM files")
    shot["duplicate keys"] = rows("SELECT key FROM hands GROUP BY key HAVING count(*) > 1")
    return shot


def whole(con: duckdb.DuckDBPyConnection) -> None:
    """Whatever a fault left is whole: no row without its hand, every replayed hand with
    all its seats (transactions are committed whole or not at all), no hand twice."""
    shot = snapshot(con)
    for child in CHILDREN:
        assert shot[f"{child} orphans"] == [(0,)], child
    assert shot["duplicate keys"] == []
    assert con.execute(
        "SELECT count(*) FROM hands h WHERE status IN ('ok', 'invalid') "
        "AND players <> (SELECT count(*) FROM seats s WHERE s.hand = h.id)"
    ).fetchall() == [(0,)]
