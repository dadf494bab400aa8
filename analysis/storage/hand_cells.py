"""``hand_cells``: the ``hands`` table counted per site, game, verdict, kind of money,
day, whether the pot is known and whether the replay found a problem, so the replayer's
lists need not scan ten million hands to learn what they hold.

Two readers: ``pot_units`` (the kinds of money the pots are in, with their hand counts,
a count of every hand before) and ``since`` (how far back the newest hands a list wants
reach: a list in time order then reads only the row groups of those days, which the
``time`` column's zone maps find, instead of ordering every hand).  Both are counts, so
cells add up as ``stat_cells``' do: new hands are counted into new cells beside the old
ones, readers sum them, and a compaction makes repeated cells one once they double.

Derived, never the record: ``meta`` row ``hand_cells`` names this module's layout and the
number of hands and largest id counted.  ``current`` compares them with the table read
now (DuckDB keeps the count), and every writer that changes hands in place (``drawlab
reverify``) invalidates the mark through ``analysis.storage.summaries``; a reader finds no
current cells and scans the hands instead (correct, slower).
"""

from __future__ import annotations

import hashlib
import json
from datetime import date, timedelta
from typing import Any

from analysis.storage import marks
from analysis.storage.db import Connection
from analysis.storage.filters import Filters

TABLE = "hand_cells"
MARK = "hand_cells"  # meta row: {"layout", "hands", "upto", "compacted"}
# (column, SQL over hands, type): what a list's filters and the pot units ask of a hand
KEYS: tuple[tuple[str, str, str], ...] = (
    ("site", "site", "VARCHAR"),
    ("game", "game", "VARCHAR"),
    ("status", "status", "VARCHAR"),
    ("tournament", "tournament_id IS NOT NULL", "BOOLEAN"),
    ("currency", "currency", "VARCHAR"),
    ("day", "time::DATE", "DATE"),
    ("pot", "total_pot IS NOT NULL", "BOOLEAN"),
    ("problems", "(errors + warnings) > 0", "BOOLEAN"),
)
KEY_NAMES = tuple(name for name, _, _ in KEYS)
_COLUMNS = ", ".join(f'"{name}" {sql_type}' for name, _, sql_type in KEYS) + ", hands BIGINT"
MIN_COMPACT = 20_000  # cell rows below which compacting repeated cells is not worth it


def layout() -> str:
    """What the cells depend on: their keys' SQL (the hands' columns are the schema's)."""
    return hashlib.sha256(json.dumps([KEYS, _COLUMNS]).encode()).hexdigest()[:16]


def _select(where: str) -> str:
    keys = ", ".join(f'{sql} AS "{name}"' for name, sql, _ in KEYS)
    return f"SELECT {keys}, count(*)::BIGINT AS hands FROM hands WHERE {where} GROUP BY ALL"


def current(con: Connection) -> bool:
    """Whether the cells count exactly today's hands as this code counts them: the mark,
    the table, and the number of hands (which DuckDB keeps): one query at any size."""
    return SUMMARY.current(con)


def _fill(con: Connection) -> None:
    """Every hand counted into a new table (``Summary.fill``)."""
    con.execute(f"DROP TABLE IF EXISTS {TABLE}")
    con.execute(f"CREATE TABLE {TABLE} ({_COLUMNS})")
    con.execute(f"INSERT INTO {TABLE} {_select('TRUE')} ORDER BY day")


def _add(con: Connection, after: int, upto: int) -> None:
    """The hands ``after`` < id <= ``upto`` counted into new cells (``Summary.add``)."""
    con.execute(f"INSERT INTO {TABLE} {_select('id > ? AND id <= ?')}", [after, upto])


def _compact(con: Connection) -> None:
    """Several rows of one cell made one (inside the caller's transaction)."""
    keys = ", ".join(f'"{name}"' for name in KEY_NAMES)
    con.execute(f"CREATE TEMP TABLE _hand_cells_compacted AS SELECT {keys}, "
                f"sum(hands)::BIGINT AS hands FROM {TABLE} GROUP BY ALL ORDER BY day")
    con.execute(f"DELETE FROM {TABLE}")
    con.execute(f"INSERT INTO {TABLE} SELECT * FROM _hand_cells_compacted")
    con.execute("DROP TABLE _hand_cells_compacted")


SUMMARY = marks.Summary(
    name=MARK,
    tables=(TABLE,),
    layout=lambda _con: layout(),
    fill=_fill,
    add=_add,
    counted="hands",
    id_column="id",
    count_field="hands",
    compact_cells=_compact,
    min_compact=MIN_COMPACT,
)


def where(filters: Filters) -> tuple[str, list[Any]] | None:
    """``Filters.where_hands`` over the cells, or ``None`` when a field asks what they do
    not keep: a player at the table, whether hands are samples, the statistics' rows'
    stakes, position and table size, the user's tags, a person's names, and days that
    are not UTC's (``Filters.utc_days``)."""
    if (filters.player is not None or filters.stakes is not None
            or filters.samples is not None
            or filters.position is not None or filters.players_min is not None
            or filters.players_max is not None or filters.tag is not None
            or filters.names is not None or not filters.utc_days):
        return None
    parts: list[str] = []
    params: list[Any] = []
    for sql, value in (
        ("site = ?", filters.site),
        ("game = ?", filters.game),
        ("status = ?", filters.status),
        ("currency = ?", filters.currency),
        ("day >= ?", filters.date_from),
        ("day < ?", None if filters.date_to is None else filters.date_to + timedelta(days=1)),
    ):
        if value is not None:
            parts.append(sql)
            params.append(value)
    if filters.tournament is not None:
        parts.append("tournament" if filters.tournament else "NOT tournament")
    if filters.valid_only:
        parts.append("status = 'ok'")
    if filters.with_problems is not None:
        parts.append("problems" if filters.with_problems else "NOT problems")
    return " AND ".join(parts) or "TRUE", params


def pot_units(con: Connection, filters: Filters) -> list[tuple[bool, str | None, int]] | None:
    """(tournament, currency or ``None``, hands) of the hands with a pot the filters
    keep, most hands first (``queries.pot_units``' order), or ``None`` when the cells
    cannot say (not current, or a filter they do not keep)."""
    cond = where(filters)
    if cond is None or not current(con):
        return None
    rows = con.execute(
        "SELECT tournament AS t, CASE WHEN NOT tournament THEN currency END AS c, "
        f"sum(hands)::BIGINT AS n FROM {TABLE} WHERE pot AND {cond[0]} "
        "GROUP BY t, c ORDER BY n DESC, t, c",
        cond[1],
    ).fetchall()
    return [(bool(t), None if c is None else str(c), int(n)) for t, c, n in rows]


def days(con: Connection, filters: Filters, newest_first: bool) -> list[tuple[date, int]] | None:
    """The hands the filters keep per day, newest or oldest day first (untimed hands left
    out), or ``None`` when the cells cannot say."""
    cond = where(filters)
    if cond is None or not current(con):
        return None
    rows = con.execute(
        f"SELECT day, sum(hands)::BIGINT FROM {TABLE} WHERE day IS NOT NULL AND {cond[0]} "
        f"GROUP BY day ORDER BY day {'DESC' if newest_first else 'ASC'}",
        cond[1],
    ).fetchall()
    return [(d, int(n)) for d, n in rows]


def reach(days: list[tuple[date, int]], wanted: int) -> date | None:
    """The day, going through ``days`` in their order (as ``days`` gives them), by which
    at least ``wanted`` hands are counted; ``None`` when all of them hold fewer."""
    total = 0
    for day, n in days:
        total += n
        if total >= wanted:
            return day
    return None
