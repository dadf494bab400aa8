"""Statistics over table ``player_hands``, for the hero and every opponent, in DuckDB SQL.

Every function takes an open connection (``analysis.storage.db.connect``), a ``Filters``
(``analysis.storage.filters``) and
usually a player, and returns a pandas DataFrame or a small frozen dataclass that the
dashboard and ``drawlab stats`` render.  The statistics' definitions live in
``analysis.statistics.definitions``; the per-hand flags they sum in
``analysis.statistics.facts``.  Money is returned in hundredths, as stored; only the ratios
are floats.

Figures that need no single hand (results, statistics, the lists of players and the
pickers' values) are read from ``stat_cells`` (``analysis.storage.stat_cells``, thousands
of summed rows) when the cells are up to date and the filters ask only what cells keep,
else from ``player_hands`` itself: the same figures either way (``net_bb`` to the last
digits of a float sum).

The hero is the player most often named in "Dealt to" lines (``is_hero``) in the rows the
filters keep.

What there is: ``summary`` (results and every statistic per player, or per player and any
columns, in one grouped pass: the all-players table), ``player_report`` (everything for one
player), and its parts: ``overview`` (= ``results`` + ``player_stats`` + ``by_position``),
``timeline`` with ``cumulative_by_hand``, ``cumulative_by_date`` and ``sessions``,
``cube`` with ``draw_cells``, ``draw_summary``, ``draw_counts``, ``first_draw_win_rate``
and ``showdown_hands``; ``hero_name``, ``player_list`` and ``filter_choices`` for pickers;
for the dashboard ``money_kinds``, ``site_players``, ``by_stakes`` and ``hand_ids`` (the
hands behind a figure, for the replayer).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Any, Literal

import numpy as np
import pandas as pd

from analysis import times
from analysis.statistics.definitions import StatDef, all_stats, definitions, stat_by_key
from analysis.statistics.fact_row import FACT_COLUMNS
from analysis.statistics.hand_classes import ALL_CLASSES
from analysis.statistics.positions import POSITIONS
from analysis.storage import stat_cells, timeline_cells
from analysis.storage.db import Connection
from analysis.storage.filters import NO_FILTERS, WRITTEN, Filters, zone_day
from analysis.storage.hand_scope import plain
from analysis.storage.timeline_cells import SESSION_GAP as SESSION_GAP

CURVE_ROWS = 256_000  # hands under which the curve is drawn from the rows: every hand

RESULT_COLUMNS = (
    "hands", "net", "net_bb", "bb_per_100", "rake", "net_showdown", "net_nonshowdown",
)


@dataclass(frozen=True, slots=True)
class Results:
    player: str
    hands: int
    net: int
    net_bb: float
    bb_per_100: float | None
    rake: int
    net_showdown: int
    net_nonshowdown: int


@dataclass(frozen=True, slots=True)
class StatValue:
    key: str
    name: str
    group: str
    kind: str
    value: float | None  # numerator / denominator; None without a sample
    numerator: int
    denominator: int  # the sample size
    definition: str


@dataclass(frozen=True, slots=True)
class PlayerReport:
    """Everything ``drawlab stats`` shows for one player."""

    results: Results
    stats: tuple[StatValue, ...]
    by_position: pd.DataFrame
    sessions: pd.DataFrame
    draws: pd.DataFrame
    draw_counts: pd.DataFrame
    first_draw: pd.DataFrame
    showdown: pd.DataFrame
    by_currency: pd.DataFrame  # money sums mean something only within one currency
    by_date: pd.DataFrame
    # the player's rows in time order (``timeline``), fetched only when asked for
    rows: Callable[[], pd.DataFrame] = field(default=pd.DataFrame, repr=False, compare=False)
    definitions: dict[str, str] = field(default_factory=definitions)

    @property
    def timeline(self) -> pd.DataFrame:
        return self.rows()

    @property
    def by_hand(self) -> pd.DataFrame:
        """Running totals hand by hand (not in ``to_json``: one row a hand, so only made
        when asked for, from the rows: ten million rows at ten million hands)."""
        return by_hand_of(self.rows())

    def to_json(self) -> dict[str, Any]:
        def frame(df: pd.DataFrame) -> list[dict[str, Any]]:
            clean = df.astype(object).where(df.notna(), None)
            return [{str(k): v for k, v in r.items()} for r in clean.to_dict(orient="records")]

        return {
            "results": asdict(self.results),
            "stats": [asdict(s) for s in self.stats],
            "by_position": frame(self.by_position),
            "sessions": frame(self.sessions),
            "draws": frame(self.draws),
            "draw_counts": frame(self.draw_counts),
            "first_draw": frame(self.first_draw),
            "showdown": frame(self.showdown),
            "by_currency": frame(self.by_currency),
            "by_date": frame(self.by_date),
            "definitions": self.definitions,
        }


def _sum(expr: str) -> str:
    return f"coalesce(sum({expr}), 0)::BIGINT"


_RESULT_SQL = (
    "count(*)::BIGINT AS hands, "
    f"{_sum('net')} AS net, "
    "coalesce(sum(net::DOUBLE / nullif(big_bet, 0)), 0) AS net_bb, "
    f"{_sum('rake_share')} AS rake, "
    f"{_sum('net_showdown')} AS net_showdown, "
    f"{_sum('net_nonshowdown')} AS net_nonshowdown"
)


def _stat_sql(stats: tuple[StatDef, ...]) -> str:
    return ", ".join(
        f"coalesce({s.num_sql}, 0)::BIGINT AS \"{s.key}_n\", "
        f"coalesce({s.den_sql}, 0)::BIGINT AS \"{s.key}_d\""
        for s in stats
    )


_CELL_RESULT_SQL = (
    f"{_sum('hands')} AS hands, {_sum('net')} AS net, "
    "coalesce(sum(net_bb), 0) AS net_bb, "
    f"{_sum('rake')} AS rake, {_sum('net_showdown')} AS net_showdown, "
    f"{_sum('net_nonshowdown')} AS net_nonshowdown"
)


@dataclass(frozen=True, slots=True)
class _Rows:
    """Where a figure is summed from: ``player_hands`` or its cells, with the filters'
    condition over that table; each aggregate comes in both tables' SQL."""

    table: str
    where: str
    params: list[Any]
    cells: bool

    @property
    def hands(self) -> str:
        return _sum("hands") if self.cells else "count(*)::BIGINT"

    @property
    def hero_hands(self) -> str:
        return _sum("hero_hands" if self.cells else "is_hero::INTEGER")

    @property
    def results(self) -> str:
        return _CELL_RESULT_SQL if self.cells else _RESULT_SQL

    def stats(self, stats: tuple[StatDef, ...]) -> str:
        if not self.cells:
            return _stat_sql(stats)
        parts = []
        for s in stats:
            for part, cell in (("n", s.cell_num), ("d", s.cell_den)):
                name = f'"{s.key}_{part}"'
                # a player's own statistic is no measure of the cells: its own SQL over them
                parts.append(f"{f'({cell})::BIGINT' if cell else _sum(name)} AS {name}")
        return ", ".join(parts)


def _rows(
    con: Connection,
    filters: Filters,
    player: str | None = None,
    by: tuple[str, ...] = (),
    cells: bool = True,
) -> _Rows:
    """The cells when they are current and can answer these filters (and ``by``), else
    the rows; ``cells=False``: the rows (float sums to the row-by-row digits)."""
    filters = plain(con, filters)
    if cells and all(c in stat_cells.DIMENSION_NAMES for c in by):
        cell_where = filters.where_cells(player)
        if cell_where is not None and stat_cells.current(con):
            return _Rows(stat_cells.TABLE, cell_where[0], cell_where[1], True)
    where, params = filters.where(player)
    return _Rows("player_hands", where, params, False)


def _finish(df: pd.DataFrame, stats: tuple[StatDef, ...]) -> pd.DataFrame:
    """Add ``bb_per_100`` and each statistic's value beside its counts (the columns made
    apart and joined once: inserting ninety columns one by one costs a tenth of a second)."""
    added: dict[str, pd.Series] = {
        "bb_per_100": (100.0 * df["net_bb"] / df["hands"]).where(df["hands"] > 0)}
    for s in stats:
        den = df[f"{s.key}_d"]
        added[s.key] = (df[f"{s.key}_n"] / den.where(den > 0)).astype("float64")
    return pd.concat([df.drop(columns=[c for c in added if c in df.columns]),
                      pd.DataFrame(added, index=df.index)], axis=1)


def exact_net_bb(parts: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """``net_bb`` per ``keys`` from integer nets per big bet (``parts``: the keys,
    ``big_bet`` and ``net``): each big bet's net summed as an integer, divided once, and
    the quotients added in the order of the big bets, starting from zero.  The same
    digits whatever the rows were summed from (the rows, the cells, the sessions) and in
    whatever order: a float sum of one quotient per hand depends on that order.  A big
    bet of zero or none counts nothing, as ``net / nullif(big_bet, 0)`` does.  Returns
    the keys (sorted, missing values last) and ``net_bb``."""
    df = (parts.groupby([*keys, "big_bet"], dropna=False, sort=True)["net"].sum()
          .reset_index())
    bb = df["big_bet"].to_numpy(dtype=np.float64, na_value=np.nan)
    net = df["net"].to_numpy(dtype=np.float64)
    ok = bb > 0
    q = np.zeros(len(df))
    np.divide(net, bb, out=q, where=ok)
    if keys:
        group = df.groupby(keys, dropna=False, sort=False).ngroup().to_numpy()
        out = df.drop_duplicates(keys)[keys].reset_index(drop=True)
    else:
        group = np.zeros(len(df), dtype=np.int64)
        out = pd.DataFrame(index=range(1))
    rank = pd.Series(group).groupby(group).cumcount().to_numpy()
    acc = np.zeros(len(out))
    for j in range(int(rank.max()) + 1 if len(rank) else 0):
        at = rank == j
        acc[group[at]] = acc[group[at]] + q[at]
    out["net_bb"] = acc
    return out


def _net_bb_parts(con: Connection, src: _Rows, keys: tuple[str, ...] = ()) -> pd.DataFrame:
    """The integer net per ``keys`` and big bet of what ``src`` keeps (the cells and the
    rows have both columns): what ``exact_net_bb`` divides."""
    names = ", ".join((*keys, "big_bet"))
    return con.execute(
        f"SELECT {names}, {_sum('net')} AS net FROM {src.table} WHERE {src.where} "
        f"GROUP BY {names}",
        src.params,
    ).df()


def _total_net_bb(con: Connection, src: _Rows) -> float:
    return float(exact_net_bb(_net_bb_parts(con, src), [])["net_bb"].iloc[0])


def summary(
    con: Connection,
    filters: Filters = NO_FILTERS,
    player: str | None = None,
    by: tuple[str, ...] = (),
    stats: tuple[StatDef, ...] | None = None,
    players: tuple[str, ...] | None = None,
    cells: bool = True,
) -> pd.DataFrame:
    """Results and every statistic per player (and per ``by`` column, e.g. position).

    Columns: ``player``, the ``by`` columns, ``RESULT_COLUMNS``, then for each statistic
    ``<key>`` (the ratio, NaN without a sample), ``<key>_n`` and ``<key>_d`` (the counts).
    One pass over the table whatever the number of players; ``players`` limits it to
    those (a HUD's table), which reads only their rows.  ``cells=False`` reads the rows
    even where the cells could answer (``net_bb`` to the row-by-row digits).
    """
    unknown = [c for c in by if c not in FACT_COLUMNS]
    if unknown:  # names go into the SQL text: only the table's own columns
        raise ValueError(f"not a player_hands column: {', '.join(unknown)}")
    if stats is None:
        stats = all_stats()
    src = _rows(con, filters, player, by, cells)
    where, params = src.where, src.params
    if players is not None:
        where = f"({where}) AND player IN (SELECT unnest(?::VARCHAR[]))"
        params = [*params, list(players)]
    keys = ", ".join(("player", *by))
    columns = ", ".join(part for part in (keys, src.results, src.stats(stats)) if part)
    sql = (
        f"SELECT {columns} FROM {src.table} "
        f"WHERE {where} GROUP BY {keys} ORDER BY hands DESC, {keys}"
    )
    df = con.execute(sql, params).df()
    if cells:
        df = _exact_net_bb(con, df, src, ("player", *by), where, params)
    return _finish(df, stats)


def _exact_net_bb(
    con: Connection,
    df: pd.DataFrame,
    src: _Rows,
    keys: tuple[str, ...],
    where: str,
    params: list[Any],
) -> pd.DataFrame:
    """``df`` with its ``net_bb`` as the sum, in the order of the big bets, of each big
    bet's exact net (an integer) divided by it: the same digits from the cells and from
    the rows, however the hands were batched into cells (an import's transactions) and
    whether a database has cells at all (a Parquet load has none until its next import);
    a float sum of one quotient per row depends on the order of the rows."""
    names = ", ".join(keys)
    sums = con.execute(
        f"SELECT {names}, coalesce(sum(q ORDER BY bb), 0) AS net_bb FROM ("
        f"SELECT {names}, big_bet AS bb, sum(net)::DOUBLE / nullif(big_bet, 0) AS q "
        f"FROM {src.table} WHERE {where} GROUP BY {names}, big_bet) GROUP BY {names}",
        params,
    ).df()
    columns = list(df.columns)
    return df.drop(columns="net_bb").merge(sums, on=list(keys), how="left")[columns]


def key_counts(con: Connection, by: tuple[str, ...],
               filters: Filters = NO_FILTERS, player: str | None = None) -> pd.DataFrame:
    """The hands (player rows) per combination of the ``by`` columns, without results or
    statistics: what the filter pickers offer (``summary`` by the same columns also sums
    every statistic and each player's exact ``net_bb``, nine tenths of its time at ten
    million hands for figures the pickers never show).  From the cells where they answer."""
    unknown = [c for c in by if c not in FACT_COLUMNS]
    if unknown or not by:  # names go into the SQL text: only the table's own columns
        raise ValueError(f"not player_hands columns: {', '.join(unknown) or '(none)'}")
    src = _rows(con, filters, player, by=by)
    keys = ", ".join(by)
    hands = _sum("hands") if src.cells else "count(*)::BIGINT"
    return con.execute(
        f"SELECT {keys}, {hands} AS hands FROM {src.table} WHERE {src.where} "
        f"GROUP BY {keys} ORDER BY {keys}",
        src.params,
    ).df()


def filter_choices(con: Connection) -> dict[str, list[Any]]:
    """The values each filter can take in this database (for the dashboard's pickers)."""
    out: dict[str, list[Any]] = {}
    src = _rows(con, NO_FILTERS)
    for column in ("site", "game", "stakes", "currency", "position", "players"):
        rows = con.execute(
            f"SELECT DISTINCT {column} FROM {src.table} WHERE {column} IS NOT NULL "
            f"ORDER BY {column}"
        ).fetchall()
        out[column] = [r[0] for r in rows]
    rank = {p: i for i, p in enumerate(POSITIONS)}
    out["position"].sort(key=lambda p: (rank.get(p, len(rank)), p))
    day = "day" if src.cells else "time::DATE"
    span = con.execute(f"SELECT min({day}), max({day}) FROM {src.table}").fetchone()
    out["dates"] = [span[0], span[1]] if span and span[0] is not None else []
    return out


def hero_name(con: Connection, filters: Filters = NO_FILTERS) -> str | None:
    src = _rows(con, filters)
    if src.cells:
        sql = (f"SELECT player, {src.hero_hands} AS n FROM {src.table} WHERE {src.where} "
               "GROUP BY player HAVING n > 0 ORDER BY n DESC, player LIMIT 1")
    else:
        sql = (f"SELECT player, count(*) AS n FROM player_hands WHERE is_hero AND {src.where} "
               "GROUP BY player ORDER BY n DESC, player LIMIT 1")
    row = con.execute(sql, src.params).fetchone()
    return None if row is None else str(row[0])


def day_span(con: Connection, player: str | None,
             filters: Filters = NO_FILTERS) -> tuple[date | None, date | None]:
    """The first and last day of the player's hands (everyone's with ``None``) the
    filters keep, days of ``filters.zone`` as the date filters cut them: what a date
    picker offers."""
    src = _rows(con, filters, player)
    day = "day" if src.cells else "time::DATE"
    row = con.execute(f"SELECT min({day}), max({day}) FROM {src.table} WHERE {src.where}",
                      src.params).fetchone()
    if row is None or row[0] is None or filters.zone is None:
        return (None, None) if row is None else (row[0], row[1])
    return _zone_span(con, player, filters, row[0], row[1])


def _zone_span(con: Connection, player: str | None, filters: Filters, first: date,
               last: date) -> tuple[date | None, date | None]:
    """``day_span`` in a zone other than UTC, from the stored days' span (``first`` and
    ``last``, which the cells give): the zone's first and last day from the first and
    last stored moments of the rows, a clock written without a zone as written.  A zone
    is less than a day off UTC, so those moments lie before the second day after
    ``first`` and from the day before ``last`` on: only those rows are read."""
    src = _rows(con, filters, player, cells=False)
    near = [datetime.combine(first + timedelta(days=2), time()),
            datetime.combine(last - timedelta(days=1), time())]
    edges = "(time < ? OR time >= ?)"
    ends = con.execute(
        "SELECT min(time) FILTER (WHERE NOT w), max(time) FILTER (WHERE NOT w), "
        "min(time) FILTER (WHERE w), max(time) FILTER (WHERE w) FROM (SELECT time, hand IN "
        f"(SELECT id FROM hands WHERE {WRITTEN} AND {edges}) AS w FROM player_hands "
        f"WHERE {src.where} AND {edges})", [*near, *src.params, *near]).fetchone()
    if ends is None:
        return None, None
    moment_first, moment_last, written_first, written_last = ends
    firsts = [d for d in (zone_day(moment_first, filters.zone), _date(written_first)) if d]
    lasts = [d for d in (zone_day(moment_last, filters.zone), _date(written_last)) if d]
    return min(firsts, default=None), max(lasts, default=None)


def _date(clock: datetime | None) -> date | None:
    return None if clock is None else clock.date()


def player_list(con: Connection, filters: Filters = NO_FILTERS) -> pd.DataFrame:
    """Every player with their number of hands, most hands first."""
    src = _rows(con, filters)
    return con.execute(
        f"SELECT player, {src.hands} AS hands, {src.hero_hands} AS as_hero "
        f"FROM {src.table} WHERE {src.where} GROUP BY player ORDER BY hands DESC, player",
        src.params,
    ).df()


def _results_of(player: str, row: Any) -> Results:
    hands, net, net_bb, rake, sd, nsd = row
    return Results(
        player=player,
        hands=int(hands),
        net=int(net),
        net_bb=float(net_bb),
        bb_per_100=100.0 * float(net_bb) / hands if hands else None,
        rake=int(rake),
        net_showdown=int(sd),
        net_nonshowdown=int(nsd),
    )


def _stats_of(row: Any, stats: tuple[StatDef, ...]) -> tuple[StatValue, ...]:
    out = []
    for i, s in enumerate(stats):
        num, den = int(row[2 * i]), int(row[2 * i + 1])
        out.append(StatValue(s.key, s.name, s.group, s.kind,
                             num / den if den else None, num, den, s.definition))
    return tuple(out)


def results(con: Connection, player: str, filters: Filters = NO_FILTERS) -> Results:
    src = _rows(con, filters, player)
    row = con.execute(
        f"SELECT {src.results} FROM {src.table} WHERE {src.where}", src.params
    ).fetchone()
    assert row is not None  # an aggregate without GROUP BY always gives one row
    hands, net, _, rake, sd, nsd = row
    return _results_of(player, (hands, net, _total_net_bb(con, src), rake, sd, nsd))


def player_stats(
    con: Connection, player: str, filters: Filters = NO_FILTERS
) -> tuple[StatValue, ...]:
    """Every statistic for one player, with its counts and definition."""
    src = _rows(con, filters, player)
    stats = all_stats()
    row = con.execute(
        f"SELECT {src.stats(stats)} FROM {src.table} WHERE {src.where}", src.params
    ).fetchone()
    assert row is not None
    return _stats_of(row, stats)


def overview(
    con: Connection, player: str, filters: Filters = NO_FILTERS, *, cells: bool = True
) -> tuple[Results, tuple[StatValue, ...], pd.DataFrame]:
    """``results``, ``player_stats`` and ``by_position`` in one pass over the table, and
    ``net_bb`` from the integer nets per position and big bet (``exact_net_bb``): the same
    digits from the cells and from the rows (``cells=False``)."""
    src = _rows(con, filters, player, cells=cells)
    stats = all_stats()
    df = con.execute(
        f"SELECT grouping(position) AS total, position, {src.results}, {src.stats(stats)} "
        f"FROM {src.table} WHERE {src.where} GROUP BY GROUPING SETS ((position), ())",
        src.params,
    ).df()
    parts = _net_bb_parts(con, src, ("position",))
    total = df[df["total"] == 1]
    n_results = len(RESULT_COLUMNS) - 1  # bb_per_100 is derived
    if total.empty:  # no rows at all: DuckDB still gives the empty grand total
        row: list[Any] = [0] * (n_results + 2 * len(stats))
    else:
        row = total.iloc[0, 2:].tolist()
    row[2] = float(exact_net_bb(parts, [])["net_bb"].iloc[0])
    per = df[df["total"] == 0].drop(columns="total").reset_index(drop=True)
    exact = exact_net_bb(parts, ["position"])
    columns = list(per.columns)
    per = per.drop(columns="net_bb").merge(exact, on="position", how="left")[columns]
    return (
        _results_of(player, row[:n_results]),
        _stats_of(row[n_results:], stats),
        order_by_position(_finish(per, stats)),
    )


def exact_overview(
    con: Connection, player: str, filters: Filters = NO_FILTERS
) -> tuple[Results, tuple[StatValue, ...], pd.DataFrame]:
    """``overview`` for ``drawlab stats``: from the cells when they can answer, and to
    the digit what the rows give (every sum is of integers; ``net_bb`` is divided once
    per big bet)."""
    return overview(con, player, filters)


def order_by_position(df: pd.DataFrame) -> pd.DataFrame:
    """Rows in pre-draw acting order of their ``position`` (labels we do not know last)."""
    rank = {p: i for i, p in enumerate(POSITIONS)}
    order = df["position"].map(lambda p: rank.get(p, len(rank)))
    return df.assign(_o=order).sort_values(["_o", "position"]).drop(columns="_o").reset_index(
        drop=True
    )


def by_position(con: Connection, player: str, filters: Filters = NO_FILTERS) -> pd.DataFrame:
    """``summary`` of one player split by position, in pre-draw acting order."""
    df = summary(con, filters, player, by=("position",))
    return order_by_position(df.drop(columns="player"))


_ORDER = "time NULLS LAST, hand"


def timeline(con: Connection, player: str, filters: Filters = NO_FILTERS) -> pd.DataFrame:
    """The player's hands in time order (untimed last): what the curves and the sessions
    are computed from where their tables (``timeline_cells``, ``stat_cells``) cannot
    answer the filters."""
    where, params = filters.where(player)
    return con.execute(
        f"""
        SELECT hand, time, net, net_showdown, net_nonshowdown,
               coalesce(net::DOUBLE / nullif(big_bet, 0), 0) AS net_bb, big_bet
        FROM player_hands WHERE {where} ORDER BY {_ORDER}
        """,
        params,
    ).df()


def by_hand_of(rows: pd.DataFrame) -> pd.DataFrame:
    """Running totals hand by hand over ``timeline`` rows."""
    df = rows.drop(columns=[c for c in ("net_bb", "big_bet") if c in rows.columns])
    df.insert(0, "n", np.arange(1, len(rows) + 1, dtype=np.int64))
    df["cum_net"] = rows["net"].cumsum()
    df["cum_showdown"] = rows["net_showdown"].cumsum()
    df["cum_nonshowdown"] = rows["net_nonshowdown"].cumsum()
    df["cum_net_bb"] = rows["net_bb"].cumsum()
    return df


_MONEY = ("net", "net_showdown", "net_nonshowdown")
CURVE_COLUMNS = ("n", "hand", "time", "cum_net", "cum_showdown", "cum_nonshowdown")


def _day(values: pd.Series) -> pd.Series:
    return pd.to_datetime(values).astype("datetime64[us]").dt.normalize()


def days_of(parts: pd.DataFrame) -> pd.DataFrame:
    """Per day, with running totals, from the sums per day and big bet (``parts``: day,
    big_bet, hands and the nets), whether they come from the rows or the cells: the
    integers summed, ``net_bb`` and ``cum_net_bb`` each big bet's net divided once
    (``exact_net_bb``)."""
    parts = parts.assign(day=_day(parts["day"]), big_bet=parts["big_bet"].fillna(0))
    df = parts.groupby("day", sort=True)[["hands", *_MONEY]].sum().reset_index()
    for c in ("hands", *_MONEY):
        df[c] = df[c].astype(np.int64)
    df["net_bb"] = exact_net_bb(parts, ["day"])["net_bb"].to_numpy()
    for c, cum in (("net", "cum_net"), ("net_showdown", "cum_showdown"),
                   ("net_nonshowdown", "cum_nonshowdown")):
        df[cum] = df[c].cumsum()
    by_bb = parts.pivot_table(index="day", columns="big_bet", values="net", aggfunc="sum",
                              fill_value=0).sort_index().cumsum()
    running = pd.DataFrame({"net": by_bb.stack()}).reset_index()
    df["cum_net_bb"] = exact_net_bb(running, ["day"])["net_bb"].to_numpy()
    return df[["day", "hands", *_MONEY, "net_bb", "cum_net", "cum_showdown",
               "cum_nonshowdown", "cum_net_bb"]]


def by_date_of(rows: pd.DataFrame) -> pd.DataFrame:
    """Per day (hands with a time only) over ``timeline`` rows, with running totals."""
    timed = rows[rows["time"].notna()]
    parts = (timed.assign(day=_day(timed["time"]), big_bet=timed["big_bet"].fillna(0))
             .groupby(["day", "big_bet"], sort=True)
             .agg(hands=("net", "size"), net=("net", "sum"),
                  net_showdown=("net_showdown", "sum"),
                  net_nonshowdown=("net_nonshowdown", "sum"))
             .reset_index())
    return days_of(parts)


def sessions_frame(parts: pd.DataFrame) -> pd.DataFrame:
    """The sessions from their sums per session and big bet (``parts``: ``session``
    1, 2, ..., ``big_bet``, ``start``, ``end``, hands and the nets), whether from the
    rows or from ``session_cells``; ``net_bb`` divided once per big bet."""
    df = (parts.groupby("session", sort=True)
          .agg(start=("start", "min"), end=("end", "max"), hands=("hands", "sum"),
               net=("net", "sum"), net_showdown=("net_showdown", "sum"),
               net_nonshowdown=("net_nonshowdown", "sum"))
          .reset_index())
    for c in ("session", "hands", *_MONEY):
        df[c] = df[c].astype(np.int64)
    df["net_bb"] = exact_net_bb(parts.assign(big_bet=parts["big_bet"].fillna(0)),
                                ["session"])["net_bb"].to_numpy()
    df["minutes"] = (df["end"] - df["start"]).dt.total_seconds() / 60.0
    df["bb_per_100"] = 100.0 * df["net_bb"] / df["hands"]
    return df


def sessions_of(rows: pd.DataFrame, gap: timedelta = SESSION_GAP) -> pd.DataFrame:
    """Sessions over ``timeline`` rows (see ``stat_defs.RESULT_DEFINITIONS['session']``);
    hands without a time belong to none."""
    timed = rows[rows["time"].notna()].reset_index(drop=True)
    starts = (timed["time"].diff() > pd.Timedelta(gap)).to_numpy(copy=True)
    if len(starts):
        starts[0] = True
    parts = (timed.assign(session=np.cumsum(starts, dtype=np.int64),
                          big_bet=timed["big_bet"].fillna(0))
             .groupby(["session", "big_bet"], sort=True)
             .agg(start=("time", "min"), end=("time", "max"), hands=("net", "size"),
                  net=("net", "sum"), net_showdown=("net_showdown", "sum"),
                  net_nonshowdown=("net_nonshowdown", "sum"))
             .reset_index())
    return sessions_frame(parts)


def thin_index(n: int, points: int) -> np.ndarray:
    """Which of ``n`` points a chart of ``points`` keeps: every k-th and the last."""
    if n <= points:
        return np.arange(n)
    step = -(-n // points)
    keep = np.arange(0, n, step)
    return keep if keep[-1] == n - 1 else np.append(keep, n - 1)


def _ordered(con: Connection, player: str, filters: Filters) -> dict[str, np.ndarray]:
    """The columns the curve and the sessions need of the player's rows in time order
    (untimed last), as numpy arrays: a third of the time ``timeline``'s frame costs."""
    where, params = filters.where(player)
    got = con.execute(
        "SELECT hand, time, net, net_showdown, net_nonshowdown, big_bet "
        f"FROM player_hands WHERE {where} ORDER BY {_ORDER}",
        params,
    ).fetchnumpy()
    out: dict[str, np.ndarray] = {}
    for name, values in got.items():
        if name == "time":
            out[name] = np.ma.filled(np.ma.asarray(values).astype("datetime64[us]"),
                                     np.datetime64("NaT"))
        elif name == "big_bet":
            out[name] = np.ma.filled(np.ma.asarray(values).astype(np.float64), 0.0)
        else:
            out[name] = np.ma.filled(np.ma.asarray(values), 0).astype(np.int64)
    return out


def _curve_of(rows: dict[str, np.ndarray], points: int | None) -> pd.DataFrame:
    """The running totals of ``_ordered`` rows at the hands a chart of ``points`` keeps
    (every hand without ``points``), as ``by_hand_of`` has them."""
    n = len(rows["hand"])
    at = np.arange(n) if points is None else thin_index(n, points)
    sums = {c: np.cumsum(rows[c])[at] for c in _MONEY}
    return pd.DataFrame({
        "n": (at + 1).astype(np.int64), "hand": rows["hand"][at],
        "time": pd.Series(rows["time"][at]),
        "cum_net": sums["net"], "cum_showdown": sums["net_showdown"],
        "cum_nonshowdown": sums["net_nonshowdown"],
    })


def _sessions_of_rows(rows: dict[str, np.ndarray], gap: timedelta) -> pd.DataFrame:
    """``sessions_of`` over ``_ordered`` rows, summed in numpy (the same integers, so the
    same frame)."""
    timed = ~np.isnat(rows["time"])
    t = rows["time"][timed]
    if not len(t):
        return sessions_of(pd.DataFrame({"time": pd.Series([], dtype="datetime64[us]"),
                                         "net": [], "net_showdown": [], "net_nonshowdown": [],
                                         "big_bet": []}), gap)
    starts = np.ones(len(t), dtype=bool)
    starts[1:] = (t[1:] - t[:-1]) > np.timedelta64(int(gap.total_seconds() * 1e6), "us")
    session = np.cumsum(starts)
    bounds = np.flatnonzero(starts)
    ends = np.append(bounds[1:], len(t)) - 1
    bbs, code = np.unique(rows["big_bet"][timed], return_inverse=True)
    part, inverse = np.unique(session * len(bbs) + code, return_inverse=True)
    count = np.bincount(inverse).astype(np.int64)
    sums = {c: np.bincount(inverse, weights=rows[c][timed]).astype(np.int64) for c in _MONEY}
    sid = part // len(bbs)
    return sessions_frame(pd.DataFrame({
        "session": sid, "big_bet": bbs[part % len(bbs)],
        "start": pd.Series(t[bounds][sid - 1]), "end": pd.Series(t[ends][sid - 1]),
        "hands": count, **sums,
    }))


@dataclass(frozen=True)
class Timeline:
    """What is drawn from a player's hands in time order: the running totals
    (``CURVE_COLUMNS``; every hand, or the end of every run of ``curve_cells``), the first
    and last timed hand, the days and the sessions."""

    by_hand: pd.DataFrame
    first: pd.Timestamp | None
    last: pd.Timestamp | None
    by_date: pd.DataFrame
    sessions: pd.DataFrame


def _keyed(filters: Filters) -> bool:
    """Whether the filters name only what the session pieces key (site, money, game,
    stakes, position, table size, day): not verdicts nor another player at the table."""
    return filters.where_cells() is not None


def _span(filters: Filters) -> tuple[datetime | None, datetime | None]:
    """The times the days keep: from the first day's midnight, to before the midnight
    after the last (as ``Filters.where``)."""
    lo = None if filters.date_from is None else datetime.combine(filters.date_from, time())
    hi = None if filters.date_to is None else datetime.combine(
        filters.date_to + timedelta(days=1), time())
    return lo, hi


_PIECE_COLUMNS = ("day", "big_bet", "start", "end", "h1", "hands", *_MONEY)


def _session_pieces(con: Connection, player: str, filters: Filters,
                    gap: timedelta) -> pd.DataFrame | None:
    """The player's session pieces the filters keep (``session_cells``: keyed by
    position, table size and day, so every filter the cells answer keeps whole pieces),
    or None when the table cannot answer them."""
    if gap != SESSION_GAP or not _keyed(filters) or not timeline_cells.current(con):
        return None
    where = filters.where_cells(player)
    assert where is not None
    columns = ", ".join(f'"{c}"' for c in _PIECE_COLUMNS)
    return con.execute(
        f"SELECT {columns} FROM {timeline_cells.SESSION_TABLE} WHERE {where[0]}", where[1]
    ).df()


def _day_curve(con: Connection, player: str, filters: Filters,
               pieces: pd.DataFrame) -> pd.DataFrame | None:
    """The running totals at the end of each day (``CURVE_COLUMNS``) from the session
    pieces the filters keep: exact points of the hand-by-hand curve, since a piece never
    passes midnight and the hands of a day come before the next day's (the day's last
    hand is the piece's ``h1`` of the latest end).  None when there are hands without a
    time (they end the curve in id order, which no table keeps) or too few hands for
    days to be worth it (``CURVE_ROWS``)."""
    hands = int(pieces["hands"].sum())
    if hands < CURVE_ROWS or not stat_cells.current(con):
        return None
    where = filters.where_cells(player)
    assert where is not None
    untimed = con.execute(f"SELECT {_sum('hands')} FROM {stat_cells.TABLE} "
                          f"WHERE ({where[0]}) AND day IS NULL", where[1]).fetchone()
    if untimed is None or int(untimed[0]) != 0:
        return None
    ends = np.lexsort((pieces["h1"].to_numpy(dtype=np.int64),
                       pieces["end"].to_numpy(dtype="datetime64[us]").astype(np.int64)))
    last = pieces.iloc[ends].groupby("day", sort=True)[["end", "h1"]].last()
    sums = pieces.groupby("day", sort=True)[["hands", *_MONEY]].sum()
    totals = {c: sums[c].cumsum().to_numpy(dtype=np.int64) for c in ("hands", *_MONEY)}
    return pd.DataFrame({
        "n": totals["hands"], "hand": last["h1"].to_numpy(dtype=np.int64),
        "time": last["end"].to_numpy(), "cum_net": totals["net"],
        "cum_showdown": totals["net_showdown"], "cum_nonshowdown": totals["net_nonshowdown"],
    })


def sessions_from_pieces(pieces: pd.DataFrame, gap: timedelta = SESSION_GAP) -> pd.DataFrame:
    """The sessions the pieces of ``session_cells`` make (``timeline_cells.session_ids``)."""
    df, sid = timeline_cells.session_ids(pieces, [], gap)
    return sessions_frame(df.assign(session=sid + 1))


def _days(con: Connection, player: str, filters: Filters) -> pd.DataFrame | None:
    """The days from ``stat_cells`` (per day and big bet), or None when they cannot
    answer the filters."""
    where = filters.where_cells(player)
    if where is None or not stat_cells.current(con):
        return None
    parts = con.execute(
        f"SELECT day, big_bet, {_sum('hands')} AS hands, {_sum('net')} AS net, "
        f"{_sum('net_showdown')} AS net_showdown, {_sum('net_nonshowdown')} AS net_nonshowdown "
        f"FROM {stat_cells.TABLE} WHERE ({where[0]}) AND day IS NOT NULL "
        "GROUP BY day, big_bet ORDER BY day, big_bet",
        where[1],
    ).df()
    return days_of(parts)


def _runs(con: Connection, player: str, filters: Filters) -> pd.DataFrame | None:
    """The running totals at the end of each run of ``curve_cells``, or None when the
    filters ask for other than one player's hands at one site in one kind of money, or
    the player has too few hands for runs to be worth it (``CURVE_ROWS``).  Under a date
    filter: the ends of the runs within the days, less what came before the first day
    (from ``stat_cells``), and the last hand within them."""
    if (filters.site is None or filters.currency is None or filters.tournament is None
            or filters.game is not None or filters.stakes is not None
            or filters.position is not None or filters.players_min is not None
            or filters.players_max is not None
            or not _keyed(filters) or not timeline_cells.current(con)
            or not stat_cells.current(con)):
        return None
    undated = replace(filters, date_from=None, date_to=None)
    where = undated.where_cells(player)
    assert where is not None
    runs = con.execute(
        f"SELECT h1 AS hand, t1 AS time, t0, hands, {', '.join(_MONEY)} "
        f"FROM {timeline_cells.CURVE_TABLE} WHERE {where[0]} ORDER BY t1 NULLS LAST, h1",
        where[1],
    ).df()
    lo, hi = _span(filters)
    dated = lo is not None or hi is not None
    if dated:
        inside = _cell_totals(con, player, filters)
        if inside[0] < CURVE_ROWS:
            return None
    elif int(runs["hands"].sum()) < CURVE_ROWS:
        return None
    sums = {c: runs[c].cumsum().to_numpy(dtype=np.int64) for c in ("hands", *_MONEY)}
    points = pd.DataFrame({
        "n": sums["hands"], "hand": runs["hand"].astype(np.int64), "time": runs["time"],
        "cum_net": sums["net"], "cum_showdown": sums["net_showdown"],
        "cum_nonshowdown": sums["net_nonshowdown"],
    })
    if not dated:
        return points
    before = (0, 0, 0, 0)
    if filters.date_from is not None:  # every hand before the first day comes first
        before = _cell_totals(
            con, player, replace(undated, date_to=filters.date_from - timedelta(days=1)))
    ends = runs["time"]
    keep = ends.notna().to_numpy(copy=True)
    if lo is not None:
        keep &= (ends >= lo).to_numpy()
    if hi is not None:
        keep &= (ends < hi).to_numpy()
    points = points[keep].reset_index(drop=True)
    for column, offset in zip(("n", "cum_net", "cum_showdown", "cum_nonshowdown"), before,
                              strict=True):
        points[column] = points[column] - offset
    n = inside[0]
    if len(points) and int(points["n"].iloc[-1]) == n:
        return points
    # the last run within the days ends after them: their last hand, from the rows
    later = runs[~keep & (runs.index > (np.flatnonzero(keep)[-1] if keep.any() else -1))]
    since = later["t0"].dropna().min() if len(later) else None
    row_where, row_params = filters.where(player)
    last = con.execute(
        f"SELECT hand, time FROM player_hands WHERE ({row_where}) "
        "AND time >= coalesce(?, time) ORDER BY time DESC, hand DESC LIMIT 1",
        [*row_params, since if since is not None and not pd.isna(since) else lo],
    ).fetchone()
    assert last is not None
    end = pd.DataFrame({"n": [n], "hand": [int(last[0])], "time": [last[1]],
                        "cum_net": [inside[1]], "cum_showdown": [inside[2]],
                        "cum_nonshowdown": [inside[3]]})
    end["time"] = end["time"].astype(points["time"].dtype)
    return pd.concat([points, end], ignore_index=True)


def _cell_totals(con: Connection, player: str, filters: Filters) -> tuple[int, int, int, int]:
    """Hands and the three nets of what the filters keep, from ``stat_cells``."""
    where = filters.where_cells(player)
    assert where is not None
    row = con.execute(
        f"SELECT {_sum('hands')}, {_sum('net')}, {_sum('net_showdown')}, "
        f"{_sum('net_nonshowdown')} FROM {stat_cells.TABLE} WHERE {where[0]}",
        where[1],
    ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1]), int(row[2]), int(row[3])


def timeline_figures(con: Connection, player: str, filters: Filters = NO_FILTERS,
                     gap: timedelta = SESSION_GAP, *, curve: bool = True,
                     points: int | None = None, zone: tzinfo = UTC) -> Timeline:
    """The curve, the span, the days and the sessions: each from its table where the
    filters allow (``session_cells``, ``curve_cells``, ``stat_cells``), the rest from one
    fetch of the player's rows in time order, made only when something needs it.
    ``curve=False``: no curve (``by_hand`` empty), for ``drawlab stats``, which prints
    none; ``points``: the curve from the rows thinned to a chart's points
    (``thin_index``); ``zone``: the days are that zone's (the cells keep UTC days, so
    another zone's are cut from the rows)."""
    fetched: list[dict[str, np.ndarray]] = []
    filters = plain(con, filters)

    def rows() -> dict[str, np.ndarray]:
        if not fetched:
            fetched.append(_ordered(con, player, filters))
        return fetched[0]

    pieces = _session_pieces(con, player, filters, gap)
    sessions = sessions_from_pieces(pieces, gap) if pieces is not None else None
    by_date = _days(con, player, filters) if times.is_utc(zone) else None
    by_hand = _runs(con, player, filters) if curve else pd.DataFrame(columns=CURVE_COLUMNS)
    if by_hand is None and pieces is not None:
        by_hand = _day_curve(con, player, filters, pieces)
    if by_hand is None:
        by_hand = _curve_of(rows(), points)
    if sessions is None:
        sessions = _sessions_of_rows(rows(), gap)
    if by_date is None:
        ordered = pd.DataFrame(rows())
        if not times.is_utc(zone):
            ordered = ordered.assign(time=times.local_clocks(ordered["time"], zone))
        by_date = by_date_of(ordered)
    if pieces is not None:
        first = pieces["start"].min() if len(pieces) else None
        last = pieces["end"].max() if len(pieces) else None
    else:
        stamps = rows()["time"][~np.isnat(rows()["time"])]
        first, last = ((pd.Timestamp(stamps.min()), pd.Timestamp(stamps.max())) if len(stamps)
                       else (None, None))
    return Timeline(by_hand, None if pd.isna(first) else first,
                    None if pd.isna(last) else last, by_date, sessions)


def cumulative_by_hand(
    con: Connection, player: str, filters: Filters = NO_FILTERS
) -> pd.DataFrame:
    """Running totals hand by hand (in time order): all, showdown and non-showdown."""
    return by_hand_of(timeline(con, player, filters))


def cumulative_by_date(
    con: Connection, player: str, filters: Filters = NO_FILTERS
) -> pd.DataFrame:
    """Per day (hands with a time only): hands and nets, with running totals."""
    days = _days(con, player, filters)
    return days if days is not None else by_date_of(timeline(con, player, filters))


def sessions(
    con: Connection, player: str, filters: Filters = NO_FILTERS, gap: timedelta = SESSION_GAP
) -> pd.DataFrame:
    """The player's sessions (see ``stat_defs.RESULT_DEFINITIONS['session']``)."""
    pieces = _session_pieces(con, player, filters, gap)
    if pieces is not None:
        return sessions_from_pieces(pieces, gap)
    return sessions_of(timeline(con, player, filters), gap)


_CUBE_COLUMNS = ("position", "currency", "game", "drawn_1", "drawn_2", "drawn_3",
                 "final_class", "big_bet", "hands", "net", "net_bb", "rake", "net_showdown",
                 "net_nonshowdown", "won")


def cube(
    con: Connection, player: str | None, filters: Filters = NO_FILTERS, *, cells: bool = True
) -> pd.DataFrame:
    """Money sums per (position, currency, game, cards drawn on each draw, showdown class,
    big bet): one scan whose few thousand cells the draw tables, the first-draw results,
    the showdown hands and the results by currency are rolled up from.  ``player`` None:
    everyone.  From ``draw_cells`` when they are current and no days are asked for; under
    a date filter, the whole months from ``draw_month_cells`` and the days of the months
    it cuts from the rows (``cells=False``: all from the rows); every sum is of integers,
    so all give the same cube (``net_bb`` is each cell's net divided once by its big
    bet).  The cells are in no particular order, nor are the rows of GROUP BY ALL: the
    roll-ups sort."""
    sums = ", ".join(f"{_sum(m)} AS {m}" for m in _CUBE_SUMS)
    filters = plain(con, filters)
    cell_where = filters.where_cells(player, days=False) if cells else None
    undated = replace(filters, date_from=None, date_to=None)
    if cell_where is not None and stat_cells.current(con):
        df = con.execute(
            f"SELECT {_CUBE_KEYS}, {sums} FROM {stat_cells.DRAW_TABLE} "
            f"WHERE {cell_where[0]} GROUP BY ALL",
            cell_where[1],
        ).df()
    elif (cells and undated.where_cells(player, days=False) is not None
          and stat_cells.current(con)):
        parts, params = _dated_cube_parts(player, filters)
        df = con.execute(
            f"SELECT {_CUBE_KEYS}, {sums} FROM ({' UNION ALL '.join(parts)}) GROUP BY ALL",
            params,
        ).df()
    else:
        where, params = _cube_rows(player, filters)
        df = con.execute(f"SELECT {_CUBE_KEYS}, {sums} FROM ({where}) GROUP BY ALL",
                         params).df()
    bb = df["big_bet"].to_numpy(dtype=np.float64, na_value=np.nan)
    q = np.zeros(len(df))
    np.divide(df["net"].to_numpy(dtype=np.float64), bb, out=q, where=bb > 0)
    df["net_bb"] = q
    return df[list(_CUBE_COLUMNS)]


_CUBE_KEYS = "position, currency, game, drawn_1, drawn_2, drawn_3, final_class, big_bet"
_CUBE_SUMS = ("hands", "net", "rake", "net_showdown", "net_nonshowdown", "won")


def _cube_rows(player: str | None, filters: Filters) -> tuple[str, list[Any]]:
    """The cube's sums over the rows the filters keep, as a subquery."""
    where, params = filters.where(player)
    return (f"SELECT {_CUBE_KEYS}, count(*)::BIGINT AS hands, {_sum('net')} AS net, "
            f"{_sum('rake_share')} AS rake, {_sum('net_showdown')} AS net_showdown, "
            f"{_sum('net_nonshowdown')} AS net_nonshowdown, "
            "coalesce(count_if(won), 0)::BIGINT AS won "
            f"FROM player_hands WHERE {where} GROUP BY ALL"), params


def _month_after(day: date) -> date:
    return (day.replace(day=1) + timedelta(days=32)).replace(day=1)


def _dated_cube_parts(player: str | None, filters: Filters) -> tuple[list[str], list[Any]]:
    """The cube under a date filter as subqueries to add up: the months the days hold
    whole, from ``draw_month_cells``, and the days of a month they cut (at most the first
    and the last month's), from the rows."""
    lo, hi = filters.date_from, filters.date_to
    first = None if lo is None else (lo if lo.day == 1 else _month_after(lo))
    end = None  # the first day of the first month past them that they do not hold whole
    if hi is not None:
        after = hi + timedelta(days=1)
        end = after if after.day == 1 else hi.replace(day=1)
    if first is not None and end is not None and first >= end:
        sql, only = _cube_rows(player, filters)  # no whole month: the rows
        return [sql], only
    where = replace(filters, date_from=None, date_to=None).where_cells(player, days=False)
    assert where is not None
    parts = [f"SELECT {_CUBE_KEYS}, {', '.join(_CUBE_SUMS)} FROM {stat_cells.DRAW_MONTH_TABLE} "
             f"WHERE ({where[0]}) AND month >= coalesce(?, month) AND month < coalesce(?, "
             "month + 1)"]
    params: list[Any] = [*where[1], first, end]
    if first is not None and lo is not None and lo < first:
        sql, more = _cube_rows(player, replace(filters, date_to=first - timedelta(days=1)))
        parts.append(sql)
        params += more
    if end is not None and hi is not None and end <= hi:
        sql, more = _cube_rows(player, replace(filters, date_from=end))
        parts.append(sql)
        params += more
    return parts, params


def draw_cells_of(cells: pd.DataFrame) -> pd.DataFrame:
    """Hands per (draw, position, cards drawn), ``ALL`` positions included, from ``cube``."""
    parts = []
    for k in (1, 2, 3):
        col = f"drawn_{k}"
        taken = cells[cells[col].notna()]
        part = taken.groupby(["position", col])["hands"].sum().reset_index()
        part = part.rename(columns={col: "cards"})
        part.insert(0, "draw", k)
        parts.append(part)
    df = pd.concat(parts, ignore_index=True)
    every = df.groupby(["draw", "cards"])["hands"].sum().reset_index()
    every.insert(1, "position", "ALL")
    df = pd.concat([every, df], ignore_index=True)
    df["draw"] = df["draw"].astype(np.int64)
    df["cards"] = df["cards"].astype(np.int64)
    df["hands"] = df["hands"].astype(np.int64)
    return _sort_draws(df[["draw", "position", "cards", "hands"]])


def draw_cells(
    con: Connection, player: str | None, filters: Filters = NO_FILTERS
) -> pd.DataFrame:
    """Hands per (draw, position, cards drawn), ``ALL`` positions included."""
    return draw_cells_of(cube(con, player, filters))


def draw_summary_of(cells: pd.DataFrame) -> pd.DataFrame:
    """Per draw and position: hands, mean cards drawn, pats and pat rate, from ``draw_cells``."""
    df = (
        cells.assign(total=cells["cards"] * cells["hands"],
                     pats=cells["hands"].where(cells["cards"] == 0, 0))
        .groupby(["draw", "position"], as_index=False)[["hands", "total", "pats"]]
        .sum()
    )
    df["mean_cards"] = df["total"] / df["hands"]
    df["pat_rate"] = df["pats"] / df["hands"]
    return _sort_draws(df[["draw", "position", "hands", "mean_cards", "pats", "pat_rate"]])


def draw_counts_of(cells: pd.DataFrame) -> pd.DataFrame:
    """``draw_cells`` with each count's share of its draw and position."""
    df = cells.copy()
    df["share"] = df["hands"] / df.groupby(["draw", "position"])["hands"].transform("sum")
    return df


def draw_summary(
    con: Connection, player: str | None, filters: Filters = NO_FILTERS
) -> pd.DataFrame:
    """Per draw and position (and ``ALL`` positions): hands, mean cards drawn, pat rate."""
    return draw_summary_of(draw_cells(con, player, filters))


def draw_counts(
    con: Connection, player: str | None, filters: Filters = NO_FILTERS
) -> pd.DataFrame:
    """The distribution of cards drawn: per draw, position (and ``ALL``) and card count."""
    return draw_counts_of(draw_cells(con, player, filters))


def _sort_draws(df: pd.DataFrame) -> pd.DataFrame:
    rank = {p: i for i, p in enumerate(("ALL", *POSITIONS))}
    order = df["position"].map(lambda p: rank.get(p, len(rank)))
    return (
        df.assign(_o=order)
        .sort_values(["draw", "_o", *(["cards"] if "cards" in df.columns else [])])
        .drop(columns="_o")
        .reset_index(drop=True)
    )


def first_draw_of(cells: pd.DataFrame) -> pd.DataFrame:
    """Results by the number of cards taken on the first draw, from ``cube``."""
    taken = cells[cells["drawn_1"].notna()]
    df = (
        taken.groupby("drawn_1")[["hands", "net", "won"]].sum().reset_index()
        .rename(columns={"drawn_1": "cards"})
    )
    df["net_bb"] = exact_net_bb(taken.rename(columns={"drawn_1": "cards"}),
                                ["cards"])["net_bb"].to_numpy()
    for col in ("cards", "hands", "net", "won"):
        df[col] = df[col].astype(np.int64)
    df["bb_per_100"] = 100.0 * df["net_bb"] / df["hands"]
    df["won_rate"] = df["won"] / df["hands"]
    return df[["cards", "hands", "net", "net_bb", "won", "bb_per_100", "won_rate"]]


def first_draw_win_rate(
    con: Connection, player: str | None, filters: Filters = NO_FILTERS
) -> pd.DataFrame:
    """Results grouped by the number of cards the player took on the first draw."""
    return first_draw_of(cube(con, player, filters))


def showdown_of(cells: pd.DataFrame) -> pd.DataFrame:
    """Hands held at showdown per game and class, with shares, from ``cube``."""
    shown = cells[cells["final_class"].notna()]
    df = shown.groupby(["game", "final_class"])["hands"].sum().reset_index()
    df["hands"] = df["hands"].astype(np.int64)
    df["share"] = df["hands"] / df.groupby("game")["hands"].transform("sum")
    rank = {c: i for i, c in enumerate(ALL_CLASSES)}
    order = df["final_class"].map(lambda c: rank.get(c, len(rank)))
    return df.assign(_o=order).sort_values(["game", "_o"]).drop(columns="_o").reset_index(
        drop=True
    )


def showdown_hands(
    con: Connection, filters: Filters = NO_FILTERS, player: str | None = None
) -> pd.DataFrame:
    """How often each final hand class was held at showdown (one player, or everyone)."""
    return showdown_of(cube(con, player, filters))


def by_currency_of(cells: pd.DataFrame) -> pd.DataFrame:
    """Results per currency, most hands first, from ``cube``."""
    money = ["hands", "net", "rake", "net_showdown", "net_nonshowdown"]
    df = cells.groupby("currency")[money].sum().reset_index()
    known = cells[cells["currency"].notna()]
    df.insert(3, "net_bb", exact_net_bb(known, ["currency"])["net_bb"].to_numpy())
    for col in ("hands", "net", "rake", "net_showdown", "net_nonshowdown"):
        df[col] = df[col].astype(np.int64)
    df["bb_per_100"] = 100.0 * df["net_bb"] / df["hands"]
    return df.sort_values(["hands", "currency"], ascending=[False, True]).reset_index(drop=True)


def player_report(
    con: Connection, player: str, filters: Filters = NO_FILTERS
) -> PlayerReport:
    totals, values, positions = exact_overview(con, player, filters)
    time_ordered = timeline_figures(con, player, filters, curve=False)
    cells = cube(con, player, filters)
    draws = draw_cells_of(cells)
    return PlayerReport(
        results=totals,
        stats=values,
        by_position=positions,
        sessions=time_ordered.sessions,
        draws=draw_summary_of(draws),
        draw_counts=draw_counts_of(draws),
        first_draw=first_draw_of(cells),
        showdown=showdown_of(cells),
        by_currency=by_currency_of(cells),
        by_date=time_ordered.by_date,
        rows=lambda: timeline(con, player, filters),
    )


# --- for the dashboard: which money, which hands -----------------------------------------


def money_kinds(con: Connection, filters: Filters = NO_FILTERS,
                player: str | None = None) -> pd.DataFrame:
    """Each kind of money in the rows the filters keep (``player``'s only, where one is
    named): ``tournament`` (bool) and ``currency``, with ``hands`` and ``hero_hands``
    (the rows of "Dealt to" players).

    Money adds up only within one of these (dollars and euros, cash and tournament
    chips never), so the dashboard shows one at a time; the first row, the hero's
    most played, is its default.
    """
    src = _rows(con, replace(filters, currency=None, tournament=None), player)
    kind = "tournament" if src.cells else "tournament_id IS NOT NULL"
    return con.execute(
        f"SELECT {kind} AS tournament, currency, {src.hands} AS hands, "
        f"{src.hero_hands} AS hero_hands FROM {src.table} WHERE {src.where} "
        "GROUP BY ALL ORDER BY hero_hands DESC, hands DESC, tournament, currency",
        src.params,
    ).df()


def site_players(con: Connection, filters: Filters = NO_FILTERS) -> pd.DataFrame:
    """Every player as the sites know them, ``site`` and ``player`` (the same name at two
    sites is two people), with ``hands`` and ``as_hero``; the hero's most played first."""
    src = _rows(con, filters)
    return con.execute(
        f"SELECT site, player, {src.hands} AS hands, {src.hero_hands} AS as_hero "
        f"FROM {src.table} WHERE {src.where} GROUP BY site, player "
        "ORDER BY as_hero DESC, hands DESC, site, player",
        src.params,
    ).df()


Counted = Literal["sample", "hits"]


def hand_ids(
    con: Connection,
    player: str,
    filters: Filters = NO_FILTERS,
    *,
    stat: str | None = None,
    counted: Counted = "sample",
    column: str | None = None,
    value: Any = None,
    start: datetime | None = None,
    end: datetime | None = None,
    limit: int = 10_000,
) -> list[int]:
    """The stored ids (``hands.id``) of the player's hands behind a figure, in time order.

    ``stat`` (a statistic's key, ``stat_by_key``): the hands of its sample
    (``counted="sample"``, the denominator) or those where it happened (``"hits"``, the
    numerator), found by summing the statistic's own SQL per hand, so a list always
    matches its figure.
    ``column``/``value``: rows where that ``player_hands`` column equals ``value``
    (a position, a showdown class, stakes).  ``start``/``end``: a session's span,
    inclusive.
    """
    where, params = filters.where(player)
    if column is not None:
        if column not in FACT_COLUMNS:  # names go into the SQL text
            raise ValueError(f"not a player_hands column: {column}")
        where += f" AND {column} = ?"
        params.append(value)
    if start is not None:
        where += " AND time >= ?"
        params.append(start)
    if end is not None:
        where += " AND time <= ?"
        params.append(end)
    having = ""
    if stat is not None:
        definition = stat_by_key(stat)
        having = f"HAVING ({definition.den_sql if counted == 'sample' else definition.num_sql}) > 0"
    rows = con.execute(
        f"SELECT hand FROM player_hands WHERE {where} GROUP BY hand {having} "
        "ORDER BY min(time) NULLS LAST, hand LIMIT ?",
        [*params, limit],
    ).fetchall()
    return [int(r[0]) for r in rows]


def by_stakes(con: Connection, player: str, filters: Filters = NO_FILTERS) -> pd.DataFrame:
    """Results per game and stakes (one currency and kind per the filters), most hands first."""
    df = summary(con, filters, player, by=("game", "stakes", "big_bet"), stats=())
    df = df.sort_values(["game", "big_bet"]).reset_index(drop=True)
    return df.drop(columns=["player"])
