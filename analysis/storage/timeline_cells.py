"""``session_cells`` and ``curve_cells``: what the overview, the sessions table and
``drawlab stats`` need from a player's hands in time order, kept at import so they never
fetch ten million rows to sort them.

``session_cells`` holds the sessions (hands no more than ``SESSION_GAP`` apart) of every
player per site, kind of money, game, stakes, big bet, position, table size and day: a
*piece* of a session.  The
sessions of any union of those keys (a player's hands at one site in one currency, or
all of them) are their pieces merged again by the same rule: sort the pieces by their
start and begin a new session where a piece starts more than ``SESSION_GAP`` after every
piece before it has ended.  That is exact: a piece's hands are no more than the gap apart,
and adding hands between two hands only shortens the gaps, so no piece is ever split by
a union, and two pieces are joined exactly when no gap of more than ``SESSION_GAP`` is
left between them.  New hands are merged the same way with the pieces near them, in time
order or not, so an import never re-reads stored rows.  Keyed by position and table size,
the pieces answer those filters too; keyed by day (a piece never passes midnight), a
date filter keeps whole pieces, and the running totals at the end of each day (each
piece's last hand, ``h1``, is kept) are exact points of the curve under any filter the
pieces answer.

``curve_cells`` holds each player's hands per site and kind of money (the overview's
curve is drawn within one) in time order (``time NULLS LAST, hand``, as the hand-by-hand
curve is), cut into runs of about ``RUN`` consecutive hands, each with its sums.  The
running totals at the end of every run are the curve's points, exact, found by adding
up the runs in order; a new hand goes into the run whose span holds it (a hand imported
out of time order) or extends the last one, so the runs stay consecutive without
reading the stored rows.

Both are derived, never the record: ``meta`` row ``timeline_cells`` says which layout
summed which rows (as ``stat_cells``' mark does); ``current`` says whether they hold
exactly the rows of ``player_hands``, and readers use the rows otherwise.  ``SUMMARY``
declares them to ``analysis.storage.summaries``, which keeps them up to date.
"""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta
from typing import Any

import numpy as np
import pandas as pd

from analysis.storage import marks
from analysis.storage.db import Connection, one

SESSION_GAP = timedelta(minutes=30)  # a longer pause between two hands ends a session
RUN = 128  # hands per run of ``curve_cells``: 78,000 runs at ten million hands
SESSION_TABLE = "session_cells"
CURVE_TABLE = "curve_cells"
MARK = "timeline_cells"  # meta row: {"layout", "rows", "upto"}
# new rows an extend merges in one pass (held in pandas frames): an import's
# extends (every 100,000 hands, 400,000 rows) take one pass, a database's first extend
# of millions of rows as many as it needs
EXTEND_ROWS = 1_000_000

MONEY_KEYS: tuple[tuple[str, str, str], ...] = (
    ("player", "player", "VARCHAR"),
    ("site", "site", "VARCHAR"),
    ("tournament", "tournament_id IS NOT NULL", "BOOLEAN"),
    ("currency", "currency", "VARCHAR"),
)
SESSION_KEYS: tuple[tuple[str, str, str], ...] = (
    *MONEY_KEYS,
    ("game", "game", "VARCHAR"),
    ("stakes", "stakes", "VARCHAR"),
    ("big_bet", "big_bet", "BIGINT"),
    ("position", "position", "VARCHAR"),
    ("players", "players", "SMALLINT"),
    ("day", "time::DATE", "DATE"),
)
MEASURES = ("hands", "net", "net_showdown", "net_nonshowdown")
MONEY_NAMES = tuple(n for n, _, _ in MONEY_KEYS)
SESSION_NAMES = tuple(n for n, _, _ in SESSION_KEYS)
_MEASURE_COLUMNS = ", ".join(f"{m} BIGINT" for m in MEASURES)
_SESSION_COLUMNS = (", ".join(f'"{n}" {t}' for n, _, t in SESSION_KEYS)
                    + f', start TIMESTAMP, "end" TIMESTAMP, h1 BIGINT, {_MEASURE_COLUMNS}')
_CURVE_COLUMNS = (", ".join(f'"{n}" {t}' for n, _, t in MONEY_KEYS)
                  + f", t0 TIMESTAMP, h0 BIGINT, t1 TIMESTAMP, h1 BIGINT, {_MEASURE_COLUMNS}")
_LAST = np.iinfo(np.int64).max  # an untimed hand's place: after every timed one


def layout(con: Connection) -> str:
    """What the tables depend on: their columns, the gap, the run length, and the layout
    of ``player_hands`` (its digest in ``meta``)."""
    row = one(con, "SELECT value FROM meta WHERE name = 'player_hands_layout'")
    text = json.dumps([_SESSION_COLUMNS, _CURVE_COLUMNS, SESSION_GAP.total_seconds(), RUN,
                       row[0] if row else None])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def current(con: Connection) -> bool:
    """Whether both tables hold exactly the rows of ``player_hands`` as this code sums
    them: the mark, the layout and the number of rows (a few milliseconds at any size)."""
    return SUMMARY.current(con)


def _keys_sql(keys: tuple[tuple[str, str, str], ...]) -> str:
    return ", ".join(f'{sql} AS "{name}"' for name, sql, _ in keys)


def _names(keys: tuple[str, ...], prefix: str = "") -> str:
    return ", ".join(f'{prefix}"{k}"' for k in keys)


def _sessions_sql(where: str = "TRUE") -> str:
    """Every session piece of the rows ``where`` keeps, in one windowed pass."""
    keys = _names(SESSION_NAMES)
    return f"""
        WITH r AS (
            SELECT {_keys_sql(SESSION_KEYS)}, time, hand, net, net_showdown, net_nonshowdown
            FROM player_hands WHERE time IS NOT NULL AND {where}),
        b AS (
            SELECT *, coalesce(time - lag(time) OVER w > INTERVAL {_gap_sql()}, true)::INTEGER
                   AS brk
            FROM r WINDOW w AS (PARTITION BY {keys} ORDER BY time)),
        s AS (
            SELECT *, sum(brk) OVER (PARTITION BY {keys} ORDER BY time
                                     ROWS UNBOUNDED PRECEDING) AS sid FROM b)
        SELECT {keys}, min(time) AS start, max(time) AS "end",
               arg_max(hand, (epoch_us(time)::HUGEINT << 64) + hand) AS h1,
               count(*)::BIGINT AS hands,
               sum(net)::BIGINT AS net, sum(net_showdown)::BIGINT AS net_showdown,
               sum(net_nonshowdown)::BIGINT AS net_nonshowdown
        FROM s GROUP BY {keys}, sid"""


def _gap_sql() -> str:
    return f"'{int(SESSION_GAP.total_seconds())} seconds'"


def _curve_sql(where: str = "TRUE") -> str:
    """Every run of ``RUN`` hands of the rows ``where`` keeps, in one windowed pass."""
    keys = _names(MONEY_NAMES)
    return f"""
        WITH r AS (
            SELECT {_keys_sql(MONEY_KEYS)}, time, hand, net, net_showdown, net_nonshowdown
            FROM player_hands WHERE {where}),
        n AS (
            SELECT *, row_number() OVER (PARTITION BY {keys} ORDER BY time NULLS LAST, hand)
                      - 1 AS rn FROM r)
        SELECT {keys}, arg_min_null(time, rn) AS t0, arg_min(hand, rn) AS h0,
               arg_max_null(time, rn) AS t1, arg_max(hand, rn) AS h1, count(*)::BIGINT AS hands,
               sum(net)::BIGINT AS net, sum(net_showdown)::BIGINT AS net_showdown,
               sum(net_nonshowdown)::BIGINT AS net_nonshowdown
        FROM n GROUP BY {keys}, rn // {RUN}"""


def _fill(con: Connection) -> None:
    """Both tables summed anew from every row (``Summary.fill``): one sorted pass over
    ``player_hands`` each, player by player so that DuckDB sorts one player's rows at a
    time."""
    con.execute(f"DROP TABLE IF EXISTS {SESSION_TABLE}")
    con.execute(f"DROP TABLE IF EXISTS {CURVE_TABLE}")
    con.execute(f"CREATE TABLE {SESSION_TABLE} ({_SESSION_COLUMNS})")
    con.execute(f"CREATE TABLE {CURVE_TABLE} ({_CURVE_COLUMNS})")
    for group in _player_groups(con):
        where = "player IN (SELECT unnest(?::VARCHAR[]))"
        con.execute(f"INSERT INTO {SESSION_TABLE} {_sessions_sql(where)}", [group])
        con.execute(f"INSERT INTO {CURVE_TABLE} {_curve_sql(where)}", [group])


def _player_groups(con: Connection, rows: int = 4_000_000) -> list[list[str]]:
    """The players in groups of about ``rows`` rows (one group per big player): what one
    windowed pass sorts, so memory stays bounded at any size."""
    counts = con.execute(
        "SELECT player, count(*) FROM player_hands GROUP BY player ORDER BY player"
    ).fetchall()
    groups: list[list[str]] = []
    size = 0
    for player, n in counts:
        if not groups or size + int(n) > rows:
            groups.append([])
            size = 0
        groups[-1].append(str(player))
        size += int(n)
    return groups


def _add(con: Connection, after: int, upto: int) -> None:
    """The rows of hands ``after`` < hand <= ``upto`` merged into the pieces and runs near
    them (``Summary.add``, ``EXTEND_ROWS`` at a time): merging new hands in any slices
    gives the same sessions (exact, as a rebuild's) and runs as consecutive."""
    # the new rows once, with each key's number: pandas then works on integers only
    # (string columns cost more to move into pandas than everything else here)
    con.execute(
        f"CREATE OR REPLACE TEMP TABLE _tl_new AS SELECT {_keys_sql(SESSION_KEYS)}, "
        "hand, time, net, net_showdown, net_nonshowdown FROM player_hands "
        "WHERE hand > ? AND hand <= ?",
        [after, upto],
    )
    found = one(con, "SELECT count(*) FROM _tl_new")
    if found and int(found[0]):
        _add_sessions(con)
        _add_runs(con)
    con.execute("DROP TABLE IF EXISTS _tl_new")
    con.execute("DROP TABLE IF EXISTS _tl_keys")


SUMMARY = marks.Summary(
    name=MARK, tables=(SESSION_TABLE, CURVE_TABLE), layout=layout, fill=_fill, add=_add,
    pass_rows=EXTEND_ROWS,
)


def _us(times: pd.Series) -> np.ndarray:
    """Times as int64 microseconds (DuckDB's unit), untimed last (``_LAST``).

    Not nanoseconds: they end in the year 2262, and a history may state any year (a
    moved-on copy dated 2299 stopped an import here with ``OutOfBoundsDatetime``)."""
    values = pd.to_datetime(times).astype("datetime64[us]")
    out = values.to_numpy().astype(np.int64)
    out[values.isna().to_numpy()] = _LAST
    return out


def _null_safe(keys: tuple[str, ...], left: str, right: str) -> str:
    return " AND ".join(f'{left}."{k}" IS NOT DISTINCT FROM {right}."{k}"' for k in keys)


def _numbered(con: Connection, keys: tuple[str, ...]) -> None:
    """``_tl_keys``: each key of the new rows (``_tl_new``) with a number ``k`` and the
    span of its new hands' times."""
    names = _names(keys)
    con.execute(
        "CREATE OR REPLACE TEMP TABLE _tl_keys AS SELECT (row_number() OVER () - 1)::BIGINT "
        f"AS k, {names}, min(time) AS lo, max(time) AS hi FROM _tl_new GROUP BY {names}"
    )


def _write(con: Connection, table: str, keys: tuple[str, ...], frame: pd.DataFrame,
           columns: tuple[str, ...]) -> None:
    """Insert ``frame`` (numbered keys ``k`` and ``columns``) with its keys spelled out."""
    con.register("_tl_out", frame)
    try:
        picked = ", ".join(f'o."{c}"' for c in columns)
        con.execute(f"INSERT INTO {table} SELECT {_names(keys, 's.')}, {picked} "
                    "FROM _tl_out o JOIN _tl_keys s USING (k)")
    finally:
        con.unregister("_tl_out")


def _add_sessions(con: Connection) -> None:
    """The new timed hands merged with the pieces of their keys within ``SESSION_GAP``
    of them (inside the caller's transaction)."""
    _numbered(con, SESSION_NAMES)
    gap = _gap_sql()
    on = _null_safe(SESSION_NAMES, "p", "s")
    near = con.execute(
        f'SELECT p.rowid AS rid, s.k, p.start, p."end", p.h1, {_names(MEASURES, "p.")} '
        f"FROM {SESSION_TABLE} p JOIN _tl_keys s ON {on} "
        f'WHERE p."end" >= s.lo - INTERVAL {gap} AND p.start <= s.hi + INTERVAL {gap}'
    ).df()
    points = con.execute(
        'SELECT s.k, p.time AS start, p.time AS "end", p.hand AS h1, 1::BIGINT AS hands, '
        f"p.net, p.net_showdown, p.net_nonshowdown FROM _tl_new p JOIN _tl_keys s ON {on} "
        "WHERE p.time IS NOT NULL"
    ).df()
    if points.empty:
        return
    both = pd.concat([near.drop(columns="rid"), points], ignore_index=True)
    merged = merge_pieces(both, ["k"])
    if len(near):
        con.execute(f"DELETE FROM {SESSION_TABLE} WHERE rowid IN (SELECT unnest(?::BIGINT[]))",
                    [near["rid"].astype(np.int64).tolist()])
    _write(con, SESSION_TABLE, SESSION_NAMES, merged, ("start", "end", "h1", *MEASURES))


def session_ids(pieces: pd.DataFrame, keys: list[str], gap: timedelta = SESSION_GAP
                ) -> tuple[pd.DataFrame, np.ndarray]:
    """``pieces`` (``start``, ``end``) sorted by their keys and start, and the session each
    belongs to (0, 1, ...): a new one wherever a piece starts more than ``gap`` after
    every earlier piece of its keys has ended."""
    order = [*keys, "start", "end"]
    df = pieces.sort_values(order, kind="stable", na_position="last").reset_index(drop=True)
    if df.empty:
        return df, np.zeros(0, dtype=np.int64)
    group = (df.groupby(keys, dropna=False, sort=False).ngroup().to_numpy()
             if keys else np.zeros(len(df), dtype=np.int64))
    start, end = _us(df["start"]), _us(df["end"])
    new_group = np.ones(len(df), dtype=bool)
    new_group[1:] = group[1:] != group[:-1]
    reach = end.copy()  # the latest end so far within the group
    bounds = np.flatnonzero(new_group)
    for lo, hi in zip(bounds, [*bounds[1:], len(df)], strict=True):
        reach[lo:hi] = np.maximum.accumulate(end[lo:hi])
    breaks = new_group.copy()
    breaks[1:] |= start[1:] - reach[:-1] > gap // timedelta(microseconds=1)
    return df, np.cumsum(breaks) - 1


def merge_pieces(pieces: pd.DataFrame, keys: list[str], gap: timedelta = SESSION_GAP
                 ) -> pd.DataFrame:
    """Pieces (or single hands, ``start`` = ``end``) of the same keys merged into the
    sessions they make (``session_ids``), with their sums and their last hand (``h1``: of
    the latest end, the greatest id, as the curve orders hands)."""
    df, sid = session_ids(pieces, keys, gap)
    if df.empty:
        return pd.DataFrame(df)
    agg: dict[str, Any] = {k: (k, "first") for k in keys}
    agg.update(start=("start", "min"), end=("end", "max"))
    agg.update({m: (m, "sum") for m in MEASURES})
    out: pd.DataFrame = (df.assign(_sid=sid).groupby("_sid", sort=True).agg(**agg)
                         .reset_index(drop=True))
    for m in MEASURES:
        out[m] = out[m].astype(np.int64)
    h1 = df["h1"].to_numpy(dtype=np.int64)
    last = np.lexsort((h1, _us(df["end"]), sid))  # by session, then end, then hand
    ends = np.flatnonzero(np.append(sid[last][1:] != sid[last][:-1], True))
    out["h1"] = h1[last][ends]  # sessions are numbered 0, 1, ... in order: one end each
    return out


def _add_runs(con: Connection) -> None:
    """The new hands put into the runs of their player, site and money (inside the
    caller's transaction): a hand inside a run's span joins it; a hand after a run and
    before the next extends that run up to ``RUN`` hands, and starts new runs past it."""
    keys = ["k"]
    _numbered(con, MONEY_NAMES)
    on = _null_safe(MONEY_NAMES, "c", "s")
    old = con.execute(
        f"""
        SELECT c.rowid AS rid, s.k, c.t0, c.h0, c.t1, c.h1, {_names(MEASURES, "c.")}
        FROM {CURVE_TABLE} c JOIN _tl_keys s ON {on}
        QUALIFY c.t1 IS NULL OR c.t1 >= s.lo
             OR row_number() OVER (PARTITION BY s.k ORDER BY c.t1 DESC NULLS FIRST,
                                   c.h1 DESC) = 1
        """
    ).df()
    rows = con.execute(
        "SELECT s.k, p.time AS t0, p.hand AS h0, p.time AS t1, p.hand AS h1, "
        "1::BIGINT AS hands, p.net, p.net_showdown, p.net_nonshowdown "
        f"FROM _tl_new p JOIN _tl_keys s ON {_null_safe(MONEY_NAMES, 'p', 's')}"
    ).df()
    marks = old.drop(columns="rid").assign(_kind=0)
    ev = pd.concat([marks, rows.assign(_kind=1)], ignore_index=True)
    group = ev.groupby(keys, dropna=False, sort=False).ngroup().to_numpy()
    t, h = _us(ev["t0"]), ev["h0"].to_numpy(dtype=np.int64)
    order = np.lexsort((ev["_kind"].to_numpy(), h, t, group))
    ev = ev.iloc[order].reset_index(drop=True)
    group, t, h = group[order], t[order], h[order]
    is_mark = (ev["_kind"] == 0).to_numpy()
    pos = np.arange(len(ev))
    last = np.maximum.accumulate(np.where(is_mark, pos, -1))
    owner = np.where((last >= 0) & (group[np.maximum(last, 0)] == group), last, -1)
    end_t, end_h = _us(ev["t1"]), ev["h1"].to_numpy(dtype=np.int64)
    o = np.maximum(owner, 0)
    inside = (owner >= 0) & ~is_mark & (
        (t < end_t[o]) | ((t == end_t[o]) & (h <= end_h[o])))
    # a hand past its run's end: the run takes it while it has room, new runs the rest
    outside = ~is_mark & ~inside
    base = np.where(owner >= 0, ev["hands"].to_numpy()[o], RUN)
    taken_inside = pd.Series(inside.astype(np.int64)).groupby(owner).transform("sum").to_numpy()
    room = np.where(owner >= 0, np.maximum(RUN - base - taken_inside, 0), 0)
    rank = pd.Series(outside.astype(np.int64)).groupby(owner).cumsum().to_numpy() - 1
    joins = outside & (rank < room)
    target = np.where(is_mark | inside | joins, owner, -1)
    fresh = outside & ~joins
    # new runs: consecutive fresh hands of one owner, ``RUN`` at a time
    slot = np.where(fresh, (rank - room) // RUN, 0)
    fresh_key = pd.DataFrame({"g": group, "o": owner, "s": slot})[fresh]
    new_ids = fresh_key.groupby(["g", "o", "s"], sort=False).ngroup().to_numpy() + len(ev)
    target[fresh] = new_ids
    ev["_target"] = target
    ev["_t1"], ev["_h1"] = end_t, end_h
    ev = ev.sort_values(["_target", "_t1", "_h1"], kind="stable")
    agg: dict[str, Any] = {k: (k, "first") for k in keys}
    agg.update(t1=("t1", "last"), h1=("h1", "last"))
    agg.update({m: (m, "sum") for m in MEASURES})
    out = ev.groupby("_target", sort=False).agg(**agg)
    _first_start(out, ev)
    if len(old):
        con.execute(f"DELETE FROM {CURVE_TABLE} WHERE rowid IN (SELECT unnest(?::BIGINT[]))",
                    [old["rid"].astype(np.int64).tolist()])
    out = out.reset_index(drop=True)
    for m in (*MEASURES, "h0", "h1", "k"):
        out[m] = out[m].astype(np.int64)
    _write(con, CURVE_TABLE, MONEY_NAMES, out, ("t0", "h0", "t1", "h1", *MEASURES))


def _first_start(out: pd.DataFrame, ev: pd.DataFrame) -> None:
    """Each run's first hand: the earliest start of what went into it (in time order,
    untimed last, then by hand)."""
    t = _us(ev["t0"])
    h = ev["h0"].to_numpy(dtype=np.int64)
    order = np.lexsort((h, t, ev["_target"].to_numpy()))
    first = ev.iloc[order].groupby("_target", sort=False)[["t0", "h0"]].first()
    out["t0"] = first["t0"]
    out["h0"] = first["h0"]
