"""``stat_cells``: the dashboard's figures from the summed cells equal the figures from the
rows, under every filter the cells can answer, and the cells are never read stale."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from analysis.pipeline.importer import import_paths
from analysis.pipeline.reverify import reverify
from analysis.statistics import figures as stats
from analysis.storage import db, stat_cells, summaries
from analysis.storage.filters import NO_FILTERS, Filters
from tests.app_support import copy_db, corpus_db_file_fixture  # noqa: F401  (fixture)
from tests.quick import sweep
from tests.store_data import write_history
from tests.summary_support import redeclare, spy_rebuilds

FILTERS = (
    NO_FILTERS,
    Filters(site="pokerstars"),
    Filters(game="27_triple_draw"),
    Filters(currency="USD", tournament=False),
    Filters(tournament=True),
    Filters(position="BTN"),
    Filters(players_min=3, players_max=5),
    Filters(site="pokerstars", currency="USD", tournament=False, position="BB", players_min=3),
    Filters(date_from=date(2010, 1, 1), date_to=date(2012, 12, 31)),
    Filters(date_to=date(2015, 6, 30)),
    # days that cut months: the draw cube's whole months from draw_month_cells, the rest
    # from the rows
    Filters(date_from=date(2011, 6, 15), date_to=date(2013, 2, 10)),
    Filters(date_from=date(2011, 6, 26), date_to=date(2011, 6, 28)),
    Filters(date_from=date(2011, 6, 26)),
    Filters(date_to=date(2011, 6, 26), position="BTN", players_min=3),
    Filters(site="none"),
)
EMPTY = (Filters(tournament=True), Filters(site="none"))  # the cash corpus has no tournaments
# the filters make check tries (each a second): none, the cells' every column, days
# that cut months, one that finds nothing
QUICK = (
    NO_FILTERS,
    Filters(site="pokerstars", currency="USD", tournament=False, position="BB", players_min=3),
    Filters(date_from=date(2011, 6, 15), date_to=date(2013, 2, 10)),
    Filters(site="none"),
)


@pytest.fixture(name="con")
def con_fixture(corpus_db_file: Path, tmp_path: Path) -> db.Connection:
    con = db.connect(copy_db(corpus_db_file, tmp_path))
    assert stat_cells.current(con)  # the import summed its hands
    return con


def _rows_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stat_cells, "current", lambda con: False)


def _same_frame(cells: pd.DataFrame, rows: pd.DataFrame) -> None:
    assert list(cells.columns) == list(rows.columns)
    assert len(cells) == len(rows)
    floats = [c for c in rows.columns if rows[c].dtype.kind == "f"]
    exact = [c for c in rows.columns if c not in floats]
    pd.testing.assert_frame_equal(cells[exact], rows[exact])  # types, values, order
    for c in floats:
        assert cells[c].tolist() == pytest.approx(rows[c].tolist(), nan_ok=True), c


def _figures(con: db.Connection, f: Filters, hero: str) -> dict[str, Any]:
    return {
        "summary": stats.summary(con, f),
        "by_site": stats.summary(con, f, by=("site",)),
        "combos": stats.summary(con, f, by=("site", "game", "stakes", "players", "currency"),
                                stats=()),
        "by_position": stats.by_position(con, hero, f),
        "by_stakes": stats.by_stakes(con, hero, f),
        "hud": stats.summary(con, f, players=(hero, "nobody")),
        "player_list": stats.player_list(con, f),
        "money_kinds": stats.money_kinds(con, f),
        "site_players": stats.site_players(con, f),
        "hero": stats.hero_name(con, f),
        "results": stats.results(con, hero, f),
        "stats": stats.player_stats(con, hero, f),
        "overview": stats.overview(con, hero, f),
        "draws": stats.draw_cells_of(cube := stats.cube(con, hero, f)),
        "first_draw": stats.first_draw_of(cube),
        "showdown": stats.showdown_of(cube),
        "by_currency": stats.by_currency_of(cube),
        "everyone's draws": stats.draw_counts_of(stats.draw_cells_of(stats.cube(con, None, f))),
    }


def _same(cells: Any, rows: Any, what: str) -> None:
    if isinstance(rows, pd.DataFrame):
        _same_frame(cells, rows)
    elif isinstance(rows, tuple) and rows and isinstance(rows[-1], pd.DataFrame):
        for a, b in zip(cells, rows, strict=True):
            _same(a, b, what)
    elif isinstance(rows, stats.Results):
        assert replace(cells, net_bb=0.0, bb_per_100=None) == replace(
            rows, net_bb=0.0, bb_per_100=None), what
        assert cells.net_bb == pytest.approx(rows.net_bb), what
    else:
        assert cells == rows, what


@pytest.mark.parametrize("f", sweep(FILTERS, QUICK), ids=str)
def test_every_figure_from_the_cells_equals_the_rows(
    con: db.Connection, f: Filters, monkeypatch: pytest.MonkeyPatch
) -> None:
    hero = stats.hero_name(con) or "Hero"
    cells = _figures(con, f, hero)
    _rows_only(monkeypatch)
    rows = _figures(con, f, hero)
    for name, value in rows.items():
        _same(cells[name], value, name)
    assert (len(rows["summary"]) > 0) == (f not in EMPTY)


def test_a_date_filter_reads_only_the_days_of_the_months_it_cuts(
    con: db.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole months come from ``draw_month_cells``; the rows are read for the days of a
    month the filter cuts, and only those."""
    read: list[tuple[date | None, date | None]] = []
    real = stats._cube_rows

    def spy(player: str | None, f: Filters) -> tuple[str, list[Any]]:
        read.append((f.date_from, f.date_to))
        return real(player, f)

    monkeypatch.setattr(stats, "_cube_rows", spy)
    cases = {
        Filters(date_from=date(2010, 1, 1), date_to=date(2012, 12, 31)): [],
        Filters(date_from=date(2011, 6, 15), date_to=date(2013, 2, 10)): [
            (date(2011, 6, 15), date(2011, 6, 30)), (date(2013, 2, 1), date(2013, 2, 10))],
        Filters(date_to=date(2011, 6, 26)): [(date(2011, 6, 1), date(2011, 6, 26))],
        Filters(date_from=date(2011, 6, 26), date_to=date(2011, 6, 28)): [
            (date(2011, 6, 26), date(2011, 6, 28))],
        Filters(date_from=date(2011, 2, 1), date_to=date(2011, 2, 28)): [],
    }
    for f, days in cases.items():
        read.clear()
        stats.cube(con, "Hero", f)
        assert read == days, f
    assert int(db.one(con, "SELECT count(*) FROM draw_month_cells")[0]) > 0  # type: ignore[index]


def test_the_pickers_from_the_cells_equal_the_rows(
    con: db.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    cells = stats.filter_choices(con)
    _rows_only(monkeypatch)
    assert cells == stats.filter_choices(con)
    assert cells["dates"] and cells["position"]


def test_filters_the_cells_cannot_answer_read_the_rows(con: db.Connection) -> None:
    for f in (Filters(valid_only=True), Filters(status="invalid"),
              Filters(with_problems=True), Filters(player="Hero")):
        assert f.where_cells() is None
    assert Filters(tournament=False, date_to=date(2020, 1, 2)).where_cells() == (
        "day < ? AND NOT tournament", [date(2020, 1, 3)])
    # a figure under such a filter is still right: it comes from the rows
    valid = stats.summary(con, Filters(valid_only=True))
    every = stats.summary(con)
    assert int(valid["hands"].sum()) < int(every["hands"].sum())


def test_rows_added_behind_the_cells_back_make_them_stale(con: db.Connection) -> None:
    con.execute("INSERT INTO player_hands SELECT * FROM player_hands LIMIT 3")
    assert not stat_cells.current(con)
    summed = stats.summary(con)  # from the rows, with the three copies
    assert stat_cells.SUMMARY.extend(con) > 0  # rows of hands already summed: summed anew
    assert stat_cells.current(con)
    _same_frame(stats.summary(con), summed)


def test_an_import_extends_the_cells_with_its_hands_only(
    con: db.Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before_cells = int(db.one(con, "SELECT count(*) FROM stat_cells")[0])  # type: ignore[index]
    rebuilt = spy_rebuilds(monkeypatch)
    summary = import_paths(con, [write_history(tmp_path / "more.txt", 40)], workers=0)
    assert summary.added == 40
    assert rebuilt == []  # appended, not summed again
    assert stat_cells.current(con)
    after_cells = int(db.one(con, "SELECT count(*) FROM stat_cells")[0])  # type: ignore[index]
    assert after_cells > before_cells
    cells = stats.summary(con, by=("position",))
    monkeypatch.setattr(stat_cells, "current", lambda c: False)
    _same_frame(cells, stats.summary(con, by=("position",)))


def test_repeated_cells_are_compacted_once_they_double(
    con: db.Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    redeclare(monkeypatch, stat_cells, min_compact=0)
    mark = json.loads(str(db.one(con, "SELECT value FROM meta WHERE name = 'stat_cells'")[0]))  # type: ignore[index]
    con.execute("UPDATE meta SET value = ? WHERE name = 'stat_cells'",
                [json.dumps({**mark, "compacted": 1})])  # as if compacted when one cell was
    import_paths(con, [write_history(tmp_path / "a.txt", 30)], workers=0)
    cells = int(db.one(con, "SELECT count(*) FROM stat_cells")[0])  # type: ignore[index]
    keys = ", ".join(stat_cells.DIMENSION_NAMES)
    distinct = db.one(con, f"SELECT count(*) FROM (SELECT DISTINCT {keys} FROM stat_cells)")
    assert distinct is not None and cells == int(distinct[0])  # no cell twice after it
    assert stat_cells.current(con)
    compacted = stats.summary(con, by=("position", "players"))
    monkeypatch.setattr(stat_cells, "current", lambda c: False)
    _same_frame(compacted, stats.summary(con, by=("position", "players")))


def test_a_compaction_left_for_later_keeps_the_figures_and_the_next_one_compacts(
    con: db.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    summary = redeclare(monkeypatch, stat_cells, min_compact=0)
    mark = json.loads(str(db.one(con, "SELECT value FROM meta WHERE name = 'stat_cells'")[0]))  # type: ignore[index]
    con.execute("UPDATE meta SET value = ? WHERE name = 'stat_cells'",
                [json.dumps({**mark, "compacted": 1})])  # a compaction is due
    keys = ", ".join(stat_cells.DIMENSION_NAMES)

    def counts() -> tuple[int, int]:
        got = db.one(con, f"SELECT count(*), count(DISTINCT ({keys})) FROM stat_cells")
        assert got is not None
        return int(got[0]), int(got[1])

    distinct = counts()[1]
    assert counts() == (distinct, distinct)
    # every row again under later hand ids: each cell gets a second row in the new cells
    con.execute("INSERT INTO player_hands SELECT * REPLACE (hand + 1000000 AS hand) "
                "FROM player_hands")
    assert summary.extend(con) > 0
    assert stat_cells.current(con)
    assert counts() == (2 * distinct, distinct)  # left as they are, not compacted
    kept = json.loads(str(db.one(con, "SELECT value FROM meta WHERE name = 'stat_cells'")[0]))  # type: ignore[index]
    assert kept["compacted"] == 1  # still due
    cells = stats.summary(con, by=("position", "players"))
    with monkeypatch.context() as rows_only:
        rows_only.setattr(stat_cells, "current", lambda c: False)
        _same_frame(cells, stats.summary(con, by=("position", "players")))
    con.execute("INSERT INTO player_hands SELECT * REPLACE (hand + 2000000 AS hand) "
                "FROM player_hands WHERE hand < 1000000")
    assert summaries.extend(con) > 0
    assert summaries.compact(con) == 1  # the cells' only: the hands' counts are below 20,000
    assert counts() == (distinct, distinct)  # compacted, at the next call that may


def test_another_layout_of_the_rows_is_summed_anew(con: db.Connection) -> None:
    con.execute("UPDATE meta SET value = 'other' WHERE name = 'player_hands_layout'")
    assert not stat_cells.current(con)
    stat_cells.SUMMARY.extend(con)
    assert stat_cells.current(con)


def test_reverify_leaves_the_cells_current_and_equal_to_the_rows(
    con: db.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    con.execute("UPDATE player_hands SET net = net + 1 WHERE hand = (SELECT min(hand) "
                "FROM player_hands)")  # what an older DrawLab's facts might have said
    reverify(con, workers=0)
    assert stat_cells.current(con)
    cells = stats.summary(con)
    _rows_only(monkeypatch)
    _same_frame(cells, stats.summary(con))


def test_a_killed_reverify_leaves_no_stale_cells(con: db.Connection) -> None:
    summaries.invalidate(con)  # what reverify does first, before any page
    assert not stat_cells.current(con)
    assert summaries.extend(con) > 0  # the next import sums everything again
    assert stat_cells.current(con)


@pytest.mark.parametrize("f", FILTERS, ids=str)
def test_drawlab_stats_overview_is_the_rows_to_the_digit(con: db.Connection, f: Filters) -> None:
    """``drawlab stats`` takes its counts from the cells and its one float sum from the
    rows: to the last digit what the rows alone give (its JSON is compared byte for byte)."""
    hero = stats.hero_name(con) or "Hero"
    totals, values, positions = stats.exact_overview(con, hero, f)
    rows = stats.overview(con, hero, f, cells=False)
    assert totals == rows[0]  # net_bb and bb_per_100 exactly equal, not approximately
    assert values == rows[1]
    pd.testing.assert_frame_equal(positions, rows[2], check_exact=True)


def test_the_timeline_is_in_the_order_duckdb_gives(con: db.Connection) -> None:
    """``figures.timeline``: the player's rows as ``ORDER BY time NULLS LAST, hand`` gives
    them, a hand without a time last (sorting them in numpy instead was tried: 40% less
    CPU at 1 M, twice as much at 10 M)."""
    con.execute("UPDATE player_hands SET time = NULL WHERE hand IN "
                "(SELECT min(hand) FROM player_hands WHERE player = 'Hero')")
    for player, f in (("Hero", NO_FILTERS), ("Hero", Filters(position="BTN")),
                      ("nobody", NO_FILTERS)):
        where, params = f.where(player)
        ordered = con.execute(
            "SELECT hand, time, net, net_showdown, net_nonshowdown, "
            "coalesce(net::DOUBLE / nullif(big_bet, 0), 0) AS net_bb, big_bet FROM player_hands "
            f"WHERE {where} ORDER BY time NULLS LAST, hand", params).df()
        got = stats.timeline(con, player, f)
        pd.testing.assert_frame_equal(got, ordered, check_exact=True)
    assert pd.isna(stats.timeline(con, "Hero")["time"].iloc[-1])


def test_the_summaries_are_summed_under_a_memory_cap(con: db.Connection) -> None:
    """Every summary's writes (``marks.transaction``: the cells', the sessions' and
    curves', the hands' counts) run under ``SUMMARY_MEMORY_MB``: by default DuckDB took
    3.5 GB to sum ten million hands anew, and a reverify's peak with it."""
    from analysis.storage import marks

    def limit() -> str:
        return str(con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0])

    default = limit()
    with marks.transaction(con):
        capped = db.setting_bytes(limit())
        assert capped is not None and round(capped / 10**6) == 512
    assert marks.SUMMARY_MEMORY_MB == 512
    assert limit() == default
    stat_cells.SUMMARY.rebuild(con)
    assert limit() == default and stat_cells.current(con)
