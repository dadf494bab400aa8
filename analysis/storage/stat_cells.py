"""``stat_cells``: ``player_hands`` summed per player, site, game, stakes, currency, kind of
money, position, table size and day, so the dashboard's figures read thousands of rows
instead of one row per player and hand (forty million at ten million hands).

Every measure is a sum (hands, money, each statistic's numerator and denominator, which
are ``count_if`` and ``sum`` aggregates), so cells add up: a figure over any set of whole
cells is the same figure over the rows behind them, and new hands are summed into new
cells appended beside the old ones (a cell may then have several rows; readers sum them,
and ``extend`` folds them together once they double).  The only measure that is not an
integer, ``net_bb``, is a sum of quotients: summed per cell first, it can differ from the
row-by-row sum in the last digits, which is why ``drawlab stats`` (whose JSON is compared
byte for byte) keeps reading the rows.

The table is derived, never the record: ``meta`` row ``stat_cells`` says which layout
(this module's columns and the statistics' SQL) summed which rows (the number of
``player_hands`` rows and the largest hand id).  ``current`` compares that with the table
read now, so a reader never uses cells that miss rows or were summed by other code; it
reads the rows instead (correct, slower).  ``extend`` brings the cells up to date after
an import's transaction (only the new hands' rows are read) and ``rebuild`` sums them
anew (after ``drawlab reverify``, which rewrites rows in place).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from analysis.statistics.definitions import STATS, StatDef
from analysis.storage.db import Connection, one

TABLE = "stat_cells"
MARK = "stat_cells"  # meta row: {"layout", "rows", "upto", "compacted"}
# the cells' keys: (column, SQL over player_hands, type); a Filters field that maps onto
# these (``Filters.where_cells``) can be answered from the cells
DIMENSIONS: tuple[tuple[str, str, str], ...] = (
    ("player", "player", "VARCHAR"),
    ("site", "site", "VARCHAR"),
    ("game", "game", "VARCHAR"),
    ("stakes", "stakes", "VARCHAR"),
    ("big_bet", "big_bet", "BIGINT"),
    ("currency", "currency", "VARCHAR"),
    ("tournament", "tournament_id IS NOT NULL", "BOOLEAN"),
    ("position", "position", "VARCHAR"),
    ("players", "players", "SMALLINT"),
    ("day", "time::DATE", "DATE"),
)
DIMENSION_NAMES = tuple(name for name, _, _ in DIMENSIONS)
MIN_COMPACT = 50_000  # cell rows below which folding repeated cells is not worth it


def _sum(expr: str) -> str:
    return f"coalesce(sum({expr}), 0)::BIGINT"


def _measures(stats: tuple[StatDef, ...] = STATS) -> tuple[tuple[str, str, str], ...]:
    """(column, aggregate over player_hands, type) of every summed measure."""
    return (
        ("hands", "count(*)::BIGINT", "BIGINT"),
        ("hero_hands", _sum("is_hero::INTEGER"), "BIGINT"),
        ("net", _sum("net"), "BIGINT"),
        ("net_bb", "coalesce(sum(net::DOUBLE / nullif(big_bet, 0)), 0)", "DOUBLE"),
        ("rake", _sum("rake_share"), "BIGINT"),
        ("net_showdown", _sum("net_showdown"), "BIGINT"),
        ("net_nonshowdown", _sum("net_nonshowdown"), "BIGINT"),
        *(
            item
            for s in stats
            for item in (
                (f"{s.key}_n", f"coalesce({s.num_sql}, 0)::BIGINT", "BIGINT"),
                (f"{s.key}_d", f"coalesce({s.den_sql}, 0)::BIGINT", "BIGINT"),
            )
        ),
    )


MEASURES = _measures()
MEASURE_NAMES = tuple(name for name, _, _ in MEASURES)


def layout(con: Connection) -> str:
    """What the cells depend on: their columns, the statistics' SQL, and the layout of
    ``player_hands`` they sum (``analysis.storage.db`` keeps its digest in ``meta``)."""
    row = one(con, "SELECT value FROM meta WHERE name = 'player_hands_layout'")
    text = json.dumps([DIMENSIONS, MEASURES, row[0] if row else None])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _mark(con: Connection) -> dict[str, Any] | None:
    row = one(con, "SELECT value FROM meta WHERE name = ?", [MARK])
    if row is None:
        return None
    try:
        mark = json.loads(str(row[0]))
    except ValueError:
        return None
    return mark if isinstance(mark, dict) else None


def _exists(con: Connection, table: str) -> bool:
    row = one(con, "SELECT count(*) FROM duckdb_tables() WHERE table_name = ?", [table])
    return bool(row and row[0])


def _state(con: Connection) -> tuple[int, int]:
    """(rows, largest hand id) of ``player_hands`` now; DuckDB answers ``count(*)`` from
    its row counts and the maximum from the column's zone maps."""
    row = one(con, "SELECT count(*), coalesce(max(hand), 0) FROM player_hands")
    return (int(row[0]), int(row[1])) if row else (0, 0)


def current(con: Connection) -> bool:
    """Whether the cells hold exactly the rows of ``player_hands`` as this code sums them."""
    try:
        if not _exists(con, TABLE) or not _exists(con, "player_hands"):
            return False
        mark = _mark(con)
        if mark is None or mark.get("layout") != layout(con):
            return False
        return (int(mark.get("rows", -1)), int(mark.get("upto", -1))) == _state(con)
    except Exception:  # a damaged mark means: read the rows
        return False


def _select(where: str) -> str:
    keys = ", ".join(f"{sql} AS {name}" for name, sql, _ in DIMENSIONS)
    measures = ", ".join(f'{sql} AS "{name}"' for name, sql, _ in MEASURES)
    return f"SELECT {keys}, {measures} FROM player_hands WHERE {where} GROUP BY ALL"


def _write_mark(con: Connection, rows: int, upto: int, compacted: int) -> None:
    mark = json.dumps({"layout": layout(con), "rows": rows, "upto": upto,
                       "compacted": compacted})
    con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", [MARK, mark])


def _cell_rows(con: Connection) -> int:
    row = one(con, f"SELECT count(*) FROM {TABLE}")
    return int(row[0]) if row else 0


def rebuild(con: Connection) -> int:
    """Sum every row of ``player_hands`` into new cells, in one transaction; returns the
    number of cells (0, and no table, when there is no ``player_hands``)."""
    if not _exists(con, "player_hands"):
        return 0
    columns = ", ".join(
        f'"{name}" {sql_type}' for name, _, sql_type in (*DIMENSIONS, *MEASURES)
    )
    con.execute("BEGIN TRANSACTION")
    try:
        rows, upto = _state(con)
        con.execute(f"DROP TABLE IF EXISTS {TABLE}")
        con.execute(f"CREATE TABLE {TABLE} ({columns})")
        con.execute(f"INSERT INTO {TABLE} {_select('TRUE')} ORDER BY player, day")
        cells = _cell_rows(con)
        _write_mark(con, rows, upto, cells)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return cells


def invalidate(con: Connection) -> None:
    """Say the cells are out of date (inside the caller's transaction, if any): a writer
    about to rewrite rows in place, which leaves their number and largest id as they
    were, calls this first."""
    con.execute("DELETE FROM meta WHERE name = ?", [MARK])


def extend(con: Connection) -> int:
    """Bring the cells up to date after hands were added: the rows of hands after the
    last one summed become new cells (one transaction), or everything is summed anew
    when the cells are missing, of another layout, or miss rows of earlier hands.
    Returns the number of ``player_hands`` rows summed.  Cheap when nothing changed."""
    if not _exists(con, "player_hands"):
        return 0
    mark = _mark(con)
    rows, upto = _state(con)
    if (
        mark is None
        or not _exists(con, TABLE)
        or mark.get("layout") != layout(con)
    ):
        rebuild(con)
        return rows
    done_rows, done_upto = int(mark.get("rows", -1)), int(mark.get("upto", -1))
    if (done_rows, done_upto) == (rows, upto):
        return 0
    before = one(con, "SELECT count(*) FROM player_hands WHERE hand <= ?", [done_upto])
    if before is None or int(before[0]) != done_rows or upto < done_upto:
        rebuild(con)  # rows of hands already summed came or went: sum everything again
        return rows
    compacted = int(mark.get("compacted", 0))
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute(f"INSERT INTO {TABLE} {_select('hand > ?')}", [done_upto])
        cells = _cell_rows(con)
        if cells > max(MIN_COMPACT, 2 * compacted):
            _fold(con)
            cells = _cell_rows(con)
            compacted = cells
        _write_mark(con, rows, upto, compacted)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return rows - done_rows


def _fold(con: Connection) -> None:
    """Several rows of one cell made one (inside the caller's transaction)."""
    keys = ", ".join(DIMENSION_NAMES)
    sums = ", ".join(
        f'sum("{name}")::{sql_type} AS "{name}"' for name, _, sql_type in MEASURES
    )
    con.execute(f"CREATE TEMP TABLE _cells_folded AS SELECT {keys}, {sums} FROM {TABLE} "
                f"GROUP BY ALL ORDER BY player, day")
    con.execute(f"DELETE FROM {TABLE}")
    con.execute(f"INSERT INTO {TABLE} SELECT * FROM _cells_folded")
    con.execute("DROP TABLE _cells_folded")
