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

from dataclasses import asdict, dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Literal

import numpy as np
import pandas as pd

from analysis.statistics.definitions import STAT_BY_KEY, STATS, StatDef, definitions
from analysis.statistics.facts import FACT_COLUMNS
from analysis.statistics.hand_classes import ALL_CLASSES
from analysis.statistics.positions import POSITIONS
from analysis.storage import stat_cells
from analysis.storage.db import Connection
from analysis.storage.filters import NO_FILTERS, Filters

SESSION_GAP = timedelta(minutes=30)

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
    timeline: pd.DataFrame  # the player's rows in time order (``timeline``)
    by_date: pd.DataFrame
    definitions: dict[str, str] = field(default_factory=definitions)

    @property
    def by_hand(self) -> pd.DataFrame:
        """Running totals hand by hand (not in ``to_json``: one row a hand, so only made
        when asked for: ten million rows at ten million hands)."""
        return by_hand_of(self.timeline)

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
        names = [f'"{s.key}_{part}"' for s in stats for part in ("n", "d")]
        return ", ".join(f"{_sum(name)} AS {name}" for name in names)


def _rows(
    con: Connection,
    filters: Filters,
    player: str | None = None,
    by: tuple[str, ...] = (),
    cells: bool = True,
) -> _Rows:
    """The cells when they are current and can answer these filters (and ``by``), else
    the rows; ``cells=False``: the rows (float sums to the row-by-row digits)."""
    if cells and all(c in stat_cells.DIMENSION_NAMES for c in by):
        cell_where = filters.where_cells(player)
        if cell_where is not None and stat_cells.current(con):
            return _Rows(stat_cells.TABLE, cell_where[0], cell_where[1], True)
    where, params = filters.where(player)
    return _Rows("player_hands", where, params, False)


def _finish(df: pd.DataFrame, stats: tuple[StatDef, ...]) -> pd.DataFrame:
    """Add ``bb_per_100`` and each statistic's value beside its counts."""
    df["bb_per_100"] = (100.0 * df["net_bb"] / df["hands"]).where(df["hands"] > 0)
    for s in stats:
        den = df[f"{s.key}_d"]
        df[s.key] = (df[f"{s.key}_n"] / den.where(den > 0)).astype("float64")
    return df


def summary(
    con: Connection,
    filters: Filters = NO_FILTERS,
    player: str | None = None,
    by: tuple[str, ...] = (),
    stats: tuple[StatDef, ...] = STATS,
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


def _stats_of(row: Any) -> tuple[StatValue, ...]:
    out = []
    for i, s in enumerate(STATS):
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
    return _results_of(player, row)


def player_stats(
    con: Connection, player: str, filters: Filters = NO_FILTERS
) -> tuple[StatValue, ...]:
    """Every statistic for one player, with its counts and definition."""
    src = _rows(con, filters, player)
    row = con.execute(
        f"SELECT {src.stats(STATS)} FROM {src.table} WHERE {src.where}", src.params
    ).fetchone()
    assert row is not None
    return _stats_of(row)


def overview(
    con: Connection, player: str, filters: Filters = NO_FILTERS, *, cells: bool = True
) -> tuple[Results, tuple[StatValue, ...], pd.DataFrame]:
    """``results``, ``player_stats`` and ``by_position`` in one pass over the table (the
    rows themselves with ``cells=False``: ``drawlab stats`` prints ``net_bb`` to the digit)."""
    src = _rows(con, filters, player, cells=cells)
    df = con.execute(
        f"SELECT grouping(position) AS total, position, {src.results}, {src.stats(STATS)} "
        f"FROM {src.table} WHERE {src.where} GROUP BY GROUPING SETS ((position), ())",
        src.params,
    ).df()
    total = df[df["total"] == 1]
    n_results = len(RESULT_COLUMNS) - 1  # bb_per_100 is derived
    if total.empty:  # no rows at all: DuckDB still gives the empty grand total
        row: list[Any] = [0] * (n_results + 2 * len(STATS))
    else:
        row = total.iloc[0, 2:].tolist()
    per = df[df["total"] == 0].drop(columns="total").reset_index(drop=True)
    return (
        _results_of(player, row[:n_results]),
        _stats_of(row[n_results:]),
        order_by_position(_finish(per, STATS)),
    )


_NET_BB = "coalesce(sum(net::DOUBLE / nullif(big_bet, 0)), 0) AS net_bb"


def exact_overview(
    con: Connection, player: str, filters: Filters = NO_FILTERS
) -> tuple[Results, tuple[StatValue, ...], pd.DataFrame]:
    """``overview`` with ``net_bb`` summed row by row, as ``overview(cells=False)`` sums
    it, and the counts from the cells when they can: the rows are read for the one float
    sum (four columns, a tenth of the time), not for ninety aggregates."""
    src = _rows(con, filters, player)
    if not src.cells:
        return overview(con, player, filters, cells=False)
    totals, values, positions = overview(con, player, filters)
    where, params = filters.where(player)
    sums = con.execute(
        f"SELECT grouping(position) AS total, position, {_NET_BB} FROM player_hands "
        f"WHERE {where} GROUP BY GROUPING SETS ((position), ())",
        params,
    ).df()
    total = sums[sums["total"] == 1]
    net_bb = float(total["net_bb"].iloc[0]) if len(total) else 0.0
    totals = replace(totals, net_bb=net_bb,
                     bb_per_100=100.0 * net_bb / totals.hands if totals.hands else None)
    per = sums[sums["total"] == 0].drop(columns="total")
    exact = positions.drop(columns="net_bb").merge(per, on="position", how="left")
    exact = exact[list(positions.columns)]
    exact["bb_per_100"] = (100.0 * exact["net_bb"] / exact["hands"]).where(exact["hands"] > 0)
    return totals, values, exact


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
    """The player's hands in time order (untimed last): the one fetch the curves and the
    sessions are computed from, in numpy, which beats window functions on a million rows."""
    where, params = filters.where(player)
    return con.execute(
        f"""
        SELECT hand, time, net, net_showdown, net_nonshowdown,
               coalesce(net::DOUBLE / nullif(big_bet, 0), 0) AS net_bb
        FROM player_hands WHERE {where} ORDER BY {_ORDER}
        """,
        params,
    ).df()


def by_hand_of(rows: pd.DataFrame) -> pd.DataFrame:
    """Running totals hand by hand over ``timeline`` rows."""
    df = rows.drop(columns="net_bb")
    df.insert(0, "n", np.arange(1, len(rows) + 1, dtype=np.int64))
    df["cum_net"] = rows["net"].cumsum()
    df["cum_showdown"] = rows["net_showdown"].cumsum()
    df["cum_nonshowdown"] = rows["net_nonshowdown"].cumsum()
    df["cum_net_bb"] = rows["net_bb"].cumsum()
    return df


def by_date_of(rows: pd.DataFrame) -> pd.DataFrame:
    """Per day (hands with a time only) over ``timeline`` rows, with running totals."""
    timed = rows[rows["time"].notna()]
    df = (
        timed.assign(day=timed["time"].dt.normalize())
        .groupby("day", sort=True)
        .agg(hands=("net", "size"), net=("net", "sum"), net_showdown=("net_showdown", "sum"),
             net_nonshowdown=("net_nonshowdown", "sum"), net_bb=("net_bb", "sum"))
        .reset_index()
    )
    df["hands"] = df["hands"].astype(np.int64)
    df["cum_net"] = df["net"].cumsum()
    df["cum_showdown"] = df["net_showdown"].cumsum()
    df["cum_nonshowdown"] = df["net_nonshowdown"].cumsum()
    df["cum_net_bb"] = df["net_bb"].cumsum()
    return df


def sessions_of(rows: pd.DataFrame, gap: timedelta = SESSION_GAP) -> pd.DataFrame:
    """Sessions over ``timeline`` rows (see ``stat_defs.RESULT_DEFINITIONS['session']``);
    hands without a time belong to none."""
    timed = rows[rows["time"].notna()].reset_index(drop=True)
    starts = (timed["time"].diff() > pd.Timedelta(gap)).to_numpy(copy=True)
    if len(starts):
        starts[0] = True
    df = (
        timed.assign(session=np.cumsum(starts, dtype=np.int64))
        .groupby("session", sort=True)
        .agg(
            start=("time", "min"), end=("time", "max"), hands=("net", "size"),
            net=("net", "sum"), net_showdown=("net_showdown", "sum"),
            net_nonshowdown=("net_nonshowdown", "sum"), net_bb=("net_bb", "sum"),
        )
        .reset_index()
    )
    df["hands"] = df["hands"].astype(np.int64)
    df["minutes"] = (df["end"] - df["start"]).dt.total_seconds() / 60.0
    df["bb_per_100"] = 100.0 * df["net_bb"] / df["hands"]
    return df


def cumulative_by_hand(
    con: Connection, player: str, filters: Filters = NO_FILTERS
) -> pd.DataFrame:
    """Running totals hand by hand (in time order): all, showdown and non-showdown."""
    return by_hand_of(timeline(con, player, filters))


def cumulative_by_date(
    con: Connection, player: str, filters: Filters = NO_FILTERS
) -> pd.DataFrame:
    """Per day (hands with a time only): hands and nets, with running totals."""
    return by_date_of(timeline(con, player, filters))


def sessions(
    con: Connection, player: str, filters: Filters = NO_FILTERS, gap: timedelta = SESSION_GAP
) -> pd.DataFrame:
    """The player's sessions (see ``stat_defs.RESULT_DEFINITIONS['session']``)."""
    return sessions_of(timeline(con, player, filters), gap)


_CUBE_COLUMNS = ("position", "currency", "game", "drawn_1", "drawn_2", "drawn_3",
                 "final_class", "hands", "net", "net_bb", "rake", "net_showdown",
                 "net_nonshowdown", "won")


def cube(
    con: Connection, player: str | None, filters: Filters = NO_FILTERS, *, cells: bool = True
) -> pd.DataFrame:
    """Money sums per (position, currency, game, cards drawn on each draw, showdown class):
    one scan whose few thousand cells the draw tables, the first-draw results, the
    showdown hands and the results by currency are rolled up from.  ``player`` None:
    everyone.  From ``draw_cells`` when they are current and no days are asked for
    (``cells=False``: the rows, as ``drawlab stats`` prints them).  The cells are in no
    particular order, nor are the rows of GROUP BY ALL: the roll-ups sort."""
    keys = "position, currency, game, drawn_1, drawn_2, drawn_3, final_class"
    cell_where = filters.where_cells(player, days=False) if cells else None
    if cell_where is not None and stat_cells.current(con):
        sums = ", ".join(f"{_sum(m)} AS {m}" for m in (
            "hands", "net", "rake", "net_showdown", "net_nonshowdown", "won"))
        return con.execute(
            f"SELECT {keys}, {sums}, coalesce(sum(net_bb), 0) AS net_bb "
            f"FROM {stat_cells.DRAW_TABLE} WHERE {cell_where[0]} GROUP BY ALL",
            cell_where[1],
        ).df()[list(_CUBE_COLUMNS)]
    where, params = filters.where(player)
    return con.execute(
        f"""
        SELECT {keys},
               count(*)::BIGINT AS hands, {_sum('net')} AS net,
               coalesce(sum(net::DOUBLE / nullif(big_bet, 0)), 0) AS net_bb,
               {_sum('rake_share')} AS rake, {_sum('net_showdown')} AS net_showdown,
               {_sum('net_nonshowdown')} AS net_nonshowdown,
               coalesce(count_if(won), 0)::BIGINT AS won
        FROM player_hands WHERE {where} GROUP BY ALL
        """,
        params,
    ).df()


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
        taken.groupby("drawn_1")[["hands", "net", "net_bb", "won"]].sum().reset_index()
        .rename(columns={"drawn_1": "cards"})
    )
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
    money = ["hands", "net", "net_bb", "rake", "net_showdown", "net_nonshowdown"]
    df = cells.groupby("currency")[money].sum().reset_index()
    for col in ("hands", "net", "rake", "net_showdown", "net_nonshowdown"):
        df[col] = df[col].astype(np.int64)
    df["bb_per_100"] = 100.0 * df["net_bb"] / df["hands"]
    return df.sort_values(["hands", "currency"], ascending=[False, True]).reset_index(drop=True)


def player_report(
    con: Connection, player: str, filters: Filters = NO_FILTERS
) -> PlayerReport:
    totals, values, positions = exact_overview(con, player, filters)
    rows = timeline(con, player, filters)
    cells = cube(con, player, filters, cells=False)
    draws = draw_cells_of(cells)
    return PlayerReport(
        results=totals,
        stats=values,
        by_position=positions,
        sessions=sessions_of(rows),
        draws=draw_summary_of(draws),
        draw_counts=draw_counts_of(draws),
        first_draw=first_draw_of(cells),
        showdown=showdown_of(cells),
        by_currency=by_currency_of(cells),
        timeline=rows,
        by_date=by_date_of(rows),
    )


# --- for the dashboard: which money, which hands -----------------------------------------


def money_kinds(con: Connection, filters: Filters = NO_FILTERS) -> pd.DataFrame:
    """Each kind of money in the rows the filters keep: ``tournament`` (bool) and
    ``currency``, with ``hands`` and ``hero_hands`` (the rows of "Dealt to" players).

    Money adds up only within one of these (dollars and euros, cash and tournament
    chips never), so the dashboard shows one at a time; the first row, the hero's
    most played, is its default.
    """
    src = _rows(con, replace(filters, currency=None, tournament=None))
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

    ``stat`` (a key of ``STATS``): the hands of its sample (``counted="sample"``, the
    denominator) or those where it happened (``"hits"``, the numerator), found by
    summing the statistic's own SQL per hand, so a list always matches its figure.
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
        definition = STAT_BY_KEY[stat]
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
