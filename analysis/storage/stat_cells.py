"""``stat_cells`` and ``draw_cells``: ``player_hands`` summed per player, site, game,
stakes, currency, kind of money, position, table size and day, so the dashboard's figures
read thousands of rows instead of one row per player and hand (forty million at ten million hands);
``draw_cells`` the same by the cards drawn on each draw and the hand shown in place of
the day (``figures.cube``'s groups), and ``draw_month_cells`` those by month.

Every measure is a sum (hands, money, each statistic's numerator and denominator, which
are ``count_if`` and ``sum`` aggregates), so cells add up: a figure over any set of whole
cells is the same figure over the rows behind them, and new hands are summed into new
cells appended beside the old ones (a cell may then have several rows; readers sum them,
and a compaction makes them one once they double).  The only measure that is not an
integer, ``net_bb``, is a sum of quotients: summed per cell first, it can differ from the
row-by-row sum in the last digits, which is why ``drawlab stats`` (whose JSON is compared
byte for byte) keeps reading the rows.

The table is derived, never the record: ``meta`` row ``stat_cells`` says which layout
(this module's columns and the statistics' SQL) summed which rows (the number of
``player_hands`` rows and the largest hand id summed).  ``current`` compares that with the
table read now, so a reader never uses cells that miss rows or were summed by other code; it
reads the rows instead (correct, slower).  ``SUMMARY`` declares the tables to
``analysis.storage.summaries``, which extends them after an import, compacts them and sums
them anew (after ``drawlab reverify``, which rewrites rows in place).
"""

from __future__ import annotations

import hashlib
import json

from analysis.statistics.definitions import STATS, StatDef
from analysis.storage import marks
from analysis.storage.db import Connection, one

TABLE = "stat_cells"
MARK = "stat_cells"  # meta row: {"layout", "rows", "upto", "compacted"} (``marks.Summary``)
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
# ``draw_cells``: the same sums by the cards drawn and the hand shown instead of the day
# (what ``figures.cube`` groups by; without the day, a few tens of thousands of rows)
DRAW_TABLE = "draw_cells"
DRAW_DIMENSIONS: tuple[tuple[str, str, str], ...] = (
    *(d for d in DIMENSIONS if d[0] != "day"),
    ("drawn_1", "drawn_1", "SMALLINT"),
    ("drawn_2", "drawn_2", "SMALLINT"),
    ("drawn_3", "drawn_3", "SMALLINT"),
    ("final_class", "final_class", "VARCHAR"),
)
# ``draw_month_cells``: the draw cells by month as well, so a date filter reads whole
# months from them and only the days of the months it cuts from the rows (``figures.cube``):
# by day they would be nearly as many as the rows
DRAW_MONTH_TABLE = "draw_month_cells"
DRAW_MONTH_DIMENSIONS: tuple[tuple[str, str, str], ...] = (
    *DRAW_DIMENSIONS,
    ("month", "date_trunc('month', time)::DATE", "DATE"),
)
MIN_COMPACT = 50_000  # cell rows below which compacting repeated cells is not worth it


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
DRAW_MEASURES: tuple[tuple[str, str, str], ...] = (
    *(m for m in MEASURES[:7] if m[0] != "hero_hands"),
    ("won", "coalesce(count_if(won), 0)::BIGINT", "BIGINT"),
)
# each table: (name, dimensions, measures, the order its rows are written in)
TABLES = (
    (TABLE, DIMENSIONS, MEASURES, "player, day"),
    (DRAW_TABLE, DRAW_DIMENSIONS, DRAW_MEASURES, "player"),
    (DRAW_MONTH_TABLE, DRAW_MONTH_DIMENSIONS, DRAW_MEASURES, "player, month"),
)


def layout(con: Connection) -> str:
    """What the cells depend on: their columns, the statistics' SQL, and the layout of
    ``player_hands`` they sum (``analysis.storage.db`` keeps its digest in ``meta``)."""
    row = one(con, "SELECT value FROM meta WHERE name = 'player_hands_layout'")
    text = json.dumps([TABLES, row[0] if row else None])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def current(con: Connection) -> bool:
    """Whether the cells hold exactly the rows of ``player_hands`` as this code sums them.

    Asked before every figure, so it costs a few milliseconds at any size: the mark, the
    layout and the number of rows (which DuckDB keeps).  Rows added by anyone make the
    number differ; the writers that rewrite rows in place (``drawlab reverify``, a new
    layout of ``player_hands``) invalidate the mark or change the layout."""
    return SUMMARY.current(con)


def _select(
    where: str,
    dimensions: tuple[tuple[str, str, str], ...] = DIMENSIONS,
    measures: tuple[tuple[str, str, str], ...] = MEASURES,
) -> str:
    keys = ", ".join(f"{sql} AS {name}" for name, sql, _ in dimensions)
    sums = ", ".join(f'{sql} AS "{name}"' for name, sql, _ in measures)
    return f"SELECT {keys}, {sums} FROM player_hands WHERE {where} GROUP BY ALL"


def _fill(con: Connection) -> None:
    """Every row of ``player_hands`` summed into new tables (``Summary.fill``)."""
    for table, dimensions, measures, order in TABLES:
        columns = ", ".join(
            f'"{name}" {sql_type}' for name, _, sql_type in (*dimensions, *measures)
        )
        con.execute(f"DROP TABLE IF EXISTS {table}")
        con.execute(f"CREATE TABLE {table} ({columns})")
        con.execute(f"INSERT INTO {table} {_select('TRUE', dimensions, measures)} ORDER BY {order}")


def _add(con: Connection, after: int, upto: int) -> None:
    """The rows of hands ``after`` < hand <= ``upto`` summed into new cells beside the
    old ones (``Summary.add``)."""
    for table, dimensions, measures, _ in TABLES:
        con.execute(f"INSERT INTO {table} "
                    f"{_select('hand > ? AND hand <= ?', dimensions, measures)}", [after, upto])


def _compact(con: Connection) -> None:
    """Several rows of one cell made one, in every table (inside the caller's
    transaction).  Only the cells with several rows are rewritten, found by their keys
    alone: new hands mostly make new cells (new days), so the repeated ones are a few
    days' worth, where summing and rewriting every cell made this the longest step of an
    import between two looks for a waiting reader."""
    for table, dimensions, measures, order in TABLES:
        names = [name for name, _, _ in dimensions]
        keys = ", ".join(names)
        same = " AND ".join(f"t.{name} IS NOT DISTINCT FROM r.{name}" for name in names)
        sums = ", ".join(
            f'sum(t."{name}")::{sql_type} AS "{name}"' for name, _, sql_type in measures
        )
        con.execute(f"CREATE TEMP TABLE _cells_repeated AS SELECT {keys} FROM {table} "
                    "GROUP BY ALL HAVING count(*) > 1")
        repeated = one(con, "SELECT count(*) FROM _cells_repeated")
        if repeated and int(repeated[0]):
            con.execute(
                f"CREATE TEMP TABLE _cells_compacted AS SELECT "
                f"{', '.join(f't.{name}' for name in names)}, {sums} FROM {table} t "
                f"SEMI JOIN _cells_repeated r ON {same} GROUP BY ALL ORDER BY {order}"
            )
            con.execute(f"DELETE FROM {table} t USING _cells_repeated r WHERE {same}")
            con.execute(f"INSERT INTO {table} SELECT * FROM _cells_compacted")
            con.execute("DROP TABLE _cells_compacted")
        con.execute("DROP TABLE _cells_repeated")


SUMMARY = marks.Summary(
    name=MARK,
    tables=tuple(table for table, _, _, _ in TABLES),
    layout=layout,
    fill=_fill,
    add=_add,
    compact_cells=_compact,
    min_compact=MIN_COMPACT,
)
