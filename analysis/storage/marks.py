"""A summary table's life cycle, and the ``meta`` marks that say it holds exactly the
rows it sums.

Every summary kept beside the rows (``stat_cells`` and ``timeline_cells`` of
``player_hands``, ``hand_cells`` of ``hands``) declares itself as one ``Summary``: its
tables, its layout, how its tables are filled from every row and how new rows are added.
The rest is written once, here: it is read only when its mark names this code's layout
and the row count DuckDB keeps (rows added by anyone make the count differ, and a writer
that rewrites rows in place deletes the mark); ``extend`` adds the rows of hands after the
last one summed, or sums everything anew when that would not be exact; ``compact`` makes
the repeated rows of a cell one once they double.  ``analysis.storage.summaries`` lists
them all.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Summary:
    """One summary of ``counted`` (its rows numbered by ``id_column``), kept in ``tables``
    under the ``meta`` mark ``name``: {"layout", ``count_field``, "upto", "compacted"}.

    ``fill`` creates the tables and sums every row into them, ``add`` sums the rows of
    ids ``after`` < id <= ``upto`` into them (each inside the caller's transaction);
    ``compact_cells`` (summaries whose cells add up) makes each cell's rows one, when the
    first table has doubled since last time and holds more than ``min_compact`` rows.
    ``pass_rows``: new rows summed per transaction at most (memory), else all at once."""

    name: str
    tables: tuple[str, ...]
    layout: Callable[[Connection], str]
    fill: Callable[[Connection], None]
    add: Callable[[Connection, int, int], None]
    counted: str = "player_hands"
    id_column: str = "hand"
    count_field: str = "rows"
    compact_cells: Callable[[Connection], None] | None = None
    min_compact: int = 0
    pass_rows: int | None = None

    def current(self, con: Connection) -> bool:
        """Whether the tables hold exactly today's rows as this code sums them."""
        return is_current(con, self.name, self.tables, self.layout, self.counted, self.count_field)

    def invalidate(self, con: Connection) -> None:
        """Say the tables are out of date (inside the caller's transaction, if any): a
        writer about to rewrite rows in place, which leaves their number and largest id as
        they were, calls this first."""
        con.execute("DELETE FROM meta WHERE name = ?", [self.name])

    def rebuild(self, con: Connection) -> None:
        """Every row summed anew, in one transaction (nothing when there are no rows)."""
        if not table_exists(con, self.counted):
            return
        with transaction(con):
            rows, upto = self._counts(con)
            self.fill(con)
            self._write_mark(con, rows, upto, self._cells(con))

    def extend(self, con: Connection) -> int:
        """Bring the tables up to date after hands were added: the rows of hands after the
        last one summed are added (only they are read: the id column's zone maps skip the
        others, so it costs the same at any size), or everything is summed anew when the
        tables are missing, of another layout, or miss rows of earlier hands.  Returns the
        number of rows summed."""
        if not table_exists(con, self.counted):
            return 0
        mark = read_mark(con, self.name)
        if (
            mark is None
            or mark.get("layout") != self.layout(con)
            or not has_tables(con, self.tables)
        ):
            self.rebuild(con)
            return row_count(con, self.counted)
        done, done_upto = int(mark.get(self.count_field, -1)), int(mark.get("upto", -1))
        total = row_count(con, self.counted)
        found = one(
            con,
            f"SELECT count(*), min({self.id_column}), max({self.id_column}) "
            f"FROM {self.counted} WHERE {self.id_column} > ?",
            [done_upto],
        )
        newer = int(found[0]) if found else 0
        if total - newer != done:
            self.rebuild(con)  # rows of hands already summed came or went
            return total
        if not newer or found is None:
            return 0
        self._add_passes(con, newer, int(found[1]), int(found[2]), done, mark.get("compacted"))
        return newer

    def _add_passes(
        self, con: Connection, newer: int, first: int, top: int, done: int, compacted: int | None
    ) -> None:
        """The ``newer`` rows of ids ``first``..``top`` added, ``pass_rows`` or so a
        transaction, each with the mark that says so: adding them in any slices gives the
        same tables, so memory is bounded (the first extend of millions of new rows, an
        upgraded database, held them all and was killed at 9 M rows)."""
        passes = -(-newer // self.pass_rows) if self.pass_rows else 1
        span = -(-(top - first + 1) // passes)  # ids a pass: about ``pass_rows`` rows
        rows, after = done, first - 1
        while after < top:
            upto = min(top, after + span)
            with transaction(con):
                if passes == 1:
                    rows += newer
                else:
                    found = one(
                        con,
                        f"SELECT count(*) FROM {self.counted} WHERE "
                        f"{self.id_column} > ? AND {self.id_column} <= ?",
                        [after, upto],
                    )
                    rows += int(found[0]) if found else 0
                self.add(con, after, upto)
                self._write_mark(con, rows, upto, compacted)
            after = upto

    def compact(self, con: Connection) -> bool:
        """Each cell's rows made one, when they have doubled since the last compaction
        (readers sum a cell's rows, so figures are the same either way; a compaction only
        keeps the tables small).  Returns whether it ran."""
        if self.compact_cells is None or not self.current(con):
            return False
        mark = read_mark(con, self.name)
        cells = row_count(con, self.tables[0])
        if mark is None or cells <= max(self.min_compact, 2 * int(mark.get("compacted", 0))):
            return False
        with transaction(con):
            self.compact_cells(con)
            write_mark(con, self.name, {**mark, "compacted": row_count(con, self.tables[0])})
        return True

    def _counts(self, con: Connection) -> tuple[int, int]:
        found = one(con, f"SELECT count(*), coalesce(max({self.id_column}), 0) FROM {self.counted}")
        return (int(found[0]), int(found[1])) if found else (0, 0)

    def _cells(self, con: Connection) -> int | None:
        """The first table's rows, which decide when a compaction is due (``None``:
        a summary that is never compacted keeps no count)."""
        return None if self.compact_cells is None else row_count(con, self.tables[0])

    def _write_mark(self, con: Connection, rows: int, upto: int, compacted: int | None) -> None:
        fields: dict[str, Any] = {"layout": self.layout(con), self.count_field: rows, "upto": upto}
        if compacted is not None:
            fields["compacted"] = compacted
        write_mark(con, self.name, fields)
