"""The ``meta`` marks that say a summary table holds exactly the rows it sums.

Every summary kept beside the rows (``stat_cells`` and ``timeline_cells`` of
``player_hands``, ``hand_cells`` of ``hands``) is read only when its mark names this
code's layout and the row count DuckDB keeps: rows added by anyone
make the count differ, and a writer that rewrites rows in place deletes the mark.  One
mechanism, so the summaries cannot come to disagree on what "current" means.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from analysis.storage.db import Connection, memory_limited, one, table_exists
from analysis.storage.transactions import rollback

# DuckDB's memory while a summary is summed anew from every row.  By default (80 % of the
# machine) the sums of ten million hands' rows took 3.5 GB (the cells' 2.1, the sessions'
# and curves' windows 3.5), the peak of a whole ``drawlab reverify``; at 512 MB they
# spill to disk: peak 749 MiB, 92 s instead of 64 (``benchmarks`` docs/scale.md).
SUMMARY_MEMORY_MB = 512


def read_mark(con: Connection, name: str) -> dict[str, Any] | None:
    """The mark's fields, or ``None`` when there is none or it is damaged (then the
    summary is rebuilt, never trusted)."""
    row = one(con, "SELECT value FROM meta WHERE name = ?", [name])
    if row is None:
        return None
    try:
        mark = json.loads(str(row[0]))
    except ValueError:
        return None
    return mark if isinstance(mark, dict) else None


def write_mark(con: Connection, name: str, fields: dict[str, Any]) -> None:
    con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", [name, json.dumps(fields)])


def row_count(con: Connection, table: str = "player_hands") -> int:
    row = one(con, f"SELECT count(*) FROM {table}")
    return int(row[0]) if row else 0


def has_tables(con: Connection, tables: tuple[str, ...]) -> bool:
    return all(table_exists(con, table) for table in tables)


def is_current(
    con: Connection,
    name: str,
    tables: tuple[str, ...],
    layout: Callable[[Connection], str],
    counted: str = "player_hands",
    field: str = "rows",
) -> bool:
    """Whether the summary's tables and the table it counts (``counted``) exist and the
    mark ``name`` names ``layout`` and today's number of rows there (its ``field``).  Asked
    before every figure, so it is one query for the mark and the tables, the layout only
    when those pass, and the count (which DuckDB keeps): a few milliseconds at any size."""
    try:
        wanted = ", ".join("?" for _ in (*tables, counted))
        row = one(
            con,
            "SELECT (SELECT value FROM meta WHERE name = ?), "
            f"(SELECT count(*) FROM duckdb_tables() WHERE table_name IN ({wanted}))",
            [name, *tables, counted],
        )
        if row is None or row[0] is None or int(row[1]) != len(tables) + 1:
            return False
        mark = json.loads(str(row[0]))
        if not isinstance(mark, dict) or mark.get("layout") != layout(con):
            return False
        return int(mark.get(field, -1)) == row_count(con, counted)
    except Exception:  # a damaged mark means: read the rows
        return False


@contextmanager
def transaction(con: Connection) -> Iterator[None]:
    """One transaction around a summary's writes and its mark: committed whole, or rolled
    back on any exception (an interrupt too), so a mark never names cells not written.
    DuckDB's memory is held to ``SUMMARY_MEMORY_MB`` meanwhile (``memory_limited``)."""
    with memory_limited(con, SUMMARY_MEMORY_MB):
        con.execute("BEGIN TRANSACTION")
        try:
            yield
            con.execute("COMMIT")
        except BaseException:
            rollback(con)
            raise
