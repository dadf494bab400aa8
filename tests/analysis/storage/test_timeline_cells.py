"""``session_cells`` and ``curve_cells``: the sessions, the days and the curve from the
tables equal what the player's rows in time order give, under the filters the tables
answer, after imports in any order of time, and the tables are never read stale."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, datetime, timedelta
from pathlib import Path

import pandas as pd
import pytest

from analysis.pipeline.importer import import_paths
from analysis.statistics import figures as stats
from analysis.statistics.report import stats_json
from analysis.storage import db, stat_cells, summaries, timeline_cells
from analysis.storage.filters import NO_FILTERS, Filters
from tests.app_support import copy_db, corpus_db_file_fixture  # noqa: F401  (fixture)
from tests.store_data import stars_hand_texts
from tests.summary_support import redeclare, spy_rebuilds

_HEAD = re.compile(r"^(PokerStars (?:Game|Hand) #)(\d+)", re.MULTILINE)
_WHEN = re.compile(r"- \d{4}/\d{2}/\d{2} \d{1,2}:\d{2}:\d{2} \w+( \[[^\]]*\])?")
START = datetime(2021, 3, 1, 18, 30, 0)  # 23:30 UTC: the first session goes past midnight


def _hand(i: int, when: datetime) -> str:
    base = stars_hand_texts()
    text = _HEAD.sub(f"\\g<1>{800_000_000_000 + i}", base[i % len(base)], count=1)
    return _WHEN.sub(f"- {when:%Y/%m/%d %H:%M:%S} ET", text, count=1)


def _times(n: int) -> list[datetime]:
    """Hands a minute or two apart, with a pause of over half an hour every 17 hands, a
    day off every 40, and one pause of exactly half an hour (not a new session)."""
    out, t = [], START
    for i in range(n):
        out.append(t)
        step = timedelta(minutes=1 + i % 2)
        if i % 17 == 16:
            step = timedelta(minutes=31 + i % 5)
        if i % 40 == 39:
            step = timedelta(days=1, hours=3)
        if i == 7:
            step = timedelta(minutes=30)
        t += step
    return out


def _files(tmp: Path, n: int, parts: int) -> list[Path]:
    """``n`` hands in ``parts`` files, hand ``i`` in file ``i % parts``: every file spans
    the same hours, so each import after the first lands between stored hands."""
    times = _times(n)
    out = []
    for k in range(parts):
        path = tmp / f"part{k}.txt"
        path.write_text("\n\n\n".join(_hand(i, times[i]) for i in range(k, n, parts))
                        + "\n\n\n", encoding="utf-8")
        out.append(path)
    return out


def _rows_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(timeline_cells, "current", lambda con: False)
    monkeypatch.setattr(stat_cells, "current", lambda con: False)


def _figures(con: db.Connection, player: str, f: Filters) -> stats.Timeline:
    return stats.timeline_figures(con, player, f)


def _same(tables: stats.Timeline, rows: stats.Timeline, every: pd.DataFrame) -> None:
    """Sessions and days exactly equal (every float to the digit); each point of the
    table's curve exactly on the hand-by-hand curve, its last point the last hand."""
    pd.testing.assert_frame_equal(tables.sessions, rows.sessions, check_exact=True)
    pd.testing.assert_frame_equal(tables.by_date, rows.by_date, check_exact=True)
    assert (tables.first, tables.last) == (rows.first, rows.last)
    points = tables.by_hand
    assert list(points.columns) == list(stats.CURVE_COLUMNS)
    if every.empty:
        assert points.empty
        return
    at = every.set_index("n").loc[points["n"]]
    for c in ("hand", "cum_net", "cum_showdown", "cum_nonshowdown"):
        assert points[c].tolist() == at[c].tolist(), c
    assert int(points["n"].iloc[-1]) == len(every)


def _check(con: db.Connection, monkeypatch: pytest.MonkeyPatch, players: list[str],
           filters: tuple[Filters, ...]) -> None:
    assert timeline_cells.current(con) and stat_cells.current(con)
    monkeypatch.setattr(stats, "CURVE_ROWS", 0)
    got = {(p, f): _figures(con, p, f) for p in players for f in filters}
    with monkeypatch.context() as m:
        _rows_only(m)
        for (p, f), tables in got.items():
            rows = _figures(con, p, f)
            _same(tables, rows, stats.by_hand_of(stats.timeline(con, p, f)))
            frame = stats.timeline(con, p, f)  # and the rows' numpy path is the frame's
            assert rows.by_hand.equals(stats.by_hand_of(frame)[list(stats.CURVE_COLUMNS)])
            pd.testing.assert_frame_equal(rows.sessions, stats.sessions_of(frame),
                                          check_exact=True)
            pd.testing.assert_frame_equal(rows.by_date, stats.by_date_of(frame),
                                          check_exact=True)
            thinned = stats.timeline_figures(con, p, f, points=7).by_hand
            assert thinned["n"].tolist() == [
                int(n) for n in frame.index[stats.thin_index(len(frame), 7)] + 1]


def _pieces(con: db.Connection) -> pd.DataFrame:
    return con.execute("SELECT * FROM session_cells ORDER BY ALL").df()


def _money(con: db.Connection, player: str) -> Filters:
    row = db.one(con, "SELECT site, currency, tournament_id IS NOT NULL FROM player_hands "
                 "WHERE player = ? GROUP BY ALL ORDER BY count(*) DESC LIMIT 1", [player])
    assert row is not None
    return Filters(site=str(row[0]), currency=row[1], tournament=bool(row[2]))


@pytest.mark.slow
@pytest.mark.parametrize("order", [(0, 1, 2), (2, 1, 0), (1, 2, 0)], ids=str)
def test_imports_in_any_order_of_time_give_the_rows_figures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, order: tuple[int, ...]
) -> None:
    monkeypatch.setattr(timeline_cells, "RUN", 4)  # runs of four hands: many joins and splits
    files = _files(tmp_path, 150, 3)
    con = db.connect(tmp_path / "db.duckdb")
    rebuilt = spy_rebuilds(monkeypatch)
    for k in order:
        assert import_paths(con, [files[k]], workers=0).added == 50
    # the first import made the tables; the others merged into them
    assert rebuilt.count(timeline_cells.MARK) == 1
    players = [str(p) for (p,) in con.execute(
        "SELECT player FROM player_hands GROUP BY player ORDER BY count(*) DESC LIMIT 4"
    ).fetchall()]
    hero = players[0]
    mine = _money(con, hero)
    sessions = stats.sessions(con, hero)
    across = sessions[sessions["start"].dt.date != sessions["end"].dt.date]
    assert len(across) >= 1  # a session over midnight, which a day filter cuts
    day = across["end"].iloc[0].date()
    _check(con, monkeypatch, players, (
        NO_FILTERS, mine, replace_game(mine), Filters(stakes="0.10/0.20"),
        Filters(site="pokerstars"), Filters(date_from=day), Filters(date_to=day),
        replace(mine, date_from=day), replace(mine, date_to=day - timedelta(days=1)),
        replace(mine, date_from=day, date_to=day),
        replace(mine, date_from=day + timedelta(days=1)),
        *_keyed_filters(mine, day),
    ))
    # the position, table-size and date filters read no row for the curve and sessions
    with monkeypatch.context() as m:
        m.setattr(stats, "CURVE_ROWS", 0)
        m.setattr(stats, "_ordered", _no_rows)
        for f in _keyed_filters(mine, day):
            got = _figures(con, hero, f)
            assert len(got.by_hand) and len(got.sessions), f
    # and the sessions' pieces are what one pass over every row makes of them
    merged = _pieces(con)
    timeline_cells.SUMMARY.rebuild(con)
    pd.testing.assert_frame_equal(merged, _pieces(con), check_exact=True)
    runs = int(db.one(con, "SELECT count(*) FROM curve_cells")[0])  # type: ignore[index]
    assert runs > 20


def _keyed_filters(mine: Filters, day: date) -> tuple[Filters, ...]:
    """Filters only the pieces keyed by position, table size and day answer."""
    return (
        replace(mine, position="BTN"), replace(mine, players_min=3),
        replace(mine, players_max=2), Filters(position="BB", date_to=day),
        replace(mine, position="SB", players_min=3, date_from=day),
        replace(mine, players_min=3, date_from=day, date_to=day),
        replace(replace_game(mine), position="BTN", date_from=day),
        replace(mine, players_max=3, date_to=day),
    )


def _no_rows(*args: object) -> dict[str, object]:
    raise AssertionError("read the rows")


def replace_game(f: Filters) -> Filters:
    return Filters(site=f.site, currency=f.currency, tournament=f.tournament,
                   game="27_triple_draw")


def test_untimed_and_earlier_hands_added_later(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows added after the tables (an import's): some without a time, which go last in
    the curve and in no session or day, some earlier than every stored hand."""
    monkeypatch.setattr(timeline_cells, "RUN", 3)
    con = db.connect(tmp_path / "db.duckdb")
    import_paths(con, _files(tmp_path, 60, 1), workers=0)
    top = int(db.one(con, "SELECT max(hand) FROM player_hands")[0])  # type: ignore[index]
    con.execute(
        f"INSERT INTO player_hands SELECT * REPLACE (hand + {top} AS hand, "
        "CASE WHEN hand % 3 = 0 THEN NULL ELSE time - INTERVAL 400 DAY END AS time) "
        "FROM player_hands WHERE hand % 2 = 0")
    assert not timeline_cells.current(con)
    summaries.extend(con)
    hero = stats.hero_name(con)
    assert hero is not None
    _check(con, monkeypatch, [hero], (NO_FILTERS, _money(con, hero)))
    curve = stats.timeline_figures(con, hero, _money(con, hero)).by_hand
    assert pd.isna(curve["time"].iloc[-1])  # the untimed hands come last
    timeline_cells.SUMMARY.rebuild(con)  # and one pass over the rows makes the same figures
    _check(con, monkeypatch, [hero], (NO_FILTERS, _money(con, hero)))


def test_hands_dated_past_the_nanosecond_range_import_and_sum(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A history may state any year: hands of 2299 (past pandas' nanoseconds, which end
    in 2262) once stopped the import in the sessions' merge; they are summed like any
    other, after hands of 2021 already stored."""
    monkeypatch.setattr(timeline_cells, "RUN", 3)
    con = db.connect(tmp_path / "db.duckdb")
    import_paths(con, _files(tmp_path, 40, 1), workers=0)
    late = tmp_path / "late.txt"
    late.write_text("\n\n\n".join(
        _hand(100 + i, t.replace(year=2299)) for i, t in enumerate(_times(30))) + "\n\n\n",
        encoding="utf-8")
    summary = import_paths(con, [late], workers=0)
    assert summary.added == 30
    hero = stats.hero_name(con)
    assert hero is not None
    _check(con, monkeypatch, [hero], (NO_FILTERS, _money(con, hero)))
    sessions = stats.timeline_figures(con, hero, NO_FILTERS).sessions
    assert sessions["start"].max().year == 2299


@pytest.fixture(name="path")
def path_fixture(corpus_db_file: Path, tmp_path: Path) -> Path:
    return copy_db(corpus_db_file, tmp_path)


@pytest.fixture(name="con")
def con_fixture(path: Path) -> db.Connection:
    con = db.connect(path)
    assert timeline_cells.current(con)  # the import made them
    return con


CORPUS_FILTERS = (
    NO_FILTERS,
    Filters(site="pokerstars"),
    Filters(site="pokerstars", currency="USD", tournament=False),
    Filters(game="27_triple_draw"),
    Filters(stakes="0.10/0.20"),
    Filters(tournament=True),
    Filters(position="BTN"),
    Filters(players_min=3),
    Filters(date_from=date(2010, 1, 1), date_to=date(2012, 12, 31)),
    Filters(site="pokerstars", currency="USD", tournament=False, date_from=date(2011, 6, 26)),
    Filters(site="pokerstars", currency="USD", tournament=False, date_to=date(2011, 6, 26)),
    Filters(valid_only=True),
    Filters(site="none"),
)


@pytest.mark.slow
def test_the_corpus_figures_from_the_tables_are_the_rows(
    con: db.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    players = [str(p) for (p,) in con.execute(
        "SELECT player FROM player_hands GROUP BY player ORDER BY count(*) DESC LIMIT 3"
    ).fetchall()]
    _check(con, monkeypatch, players, CORPUS_FILTERS)


def test_drawlab_stats_from_the_tables_is_the_rows_to_the_digit(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for f in (NO_FILTERS, Filters(game="27_triple_draw"), Filters(position="BB"),
              Filters(date_from=date(2010, 1, 1))):
        tables = stats_json(str(path), None, f)
        with monkeypatch.context() as m:
            _rows_only(m)
            rows = stats_json(str(path), None, f)
        assert tables == rows
        assert tables["report"]["sessions"] and tables["report"]["by_date"]


def test_stale_tables_are_never_read(con: db.Connection,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    hero = stats.hero_name(con)
    assert hero is not None
    con.execute("INSERT INTO player_hands SELECT * REPLACE (time + INTERVAL 1 MINUTE AS time) "
                "FROM player_hands WHERE player = ? LIMIT 5", [hero])
    assert not timeline_cells.current(con)
    got = stats.timeline_figures(con, hero, NO_FILTERS)
    pd.testing.assert_frame_equal(got.sessions, stats.sessions_of(stats.timeline(con, hero)))
    # the pieces were not read: their hands miss the five rows
    pieces = int(db.one(con, "SELECT sum(hands) FROM session_cells WHERE player = ?",
                        [hero])[0])  # type: ignore[index]
    assert int(got.sessions["hands"].sum()) == pieces + 5
    summaries.invalidate(con)
    assert not timeline_cells.current(con)  # a reverify's first step says both are stale
    summaries.extend(con)
    assert timeline_cells.current(con)
    con.execute("UPDATE meta SET value = 'other' WHERE name = 'player_hands_layout'")
    assert not timeline_cells.current(con)


@pytest.mark.slow
def test_an_extend_of_many_rows_goes_in_bounded_passes_with_the_rows_figures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """New rows past ``EXTEND_ROWS`` are merged a slice of hands at a time, each slice in
    its own transaction under its own mark: the same sessions as one pass over every row
    and a curve on the hand-by-hand one, never a rebuild."""
    monkeypatch.setattr(timeline_cells, "RUN", 4)
    files = _files(tmp_path, 150, 3)
    con = db.connect(tmp_path / "db.duckdb")
    assert import_paths(con, [files[1]], workers=0).added == 50
    rebuilt = spy_rebuilds(monkeypatch)
    passes: list[tuple[int, int]] = []

    def one_pass(c: db.Connection, after: int, upto: int) -> None:
        passes.append((after, upto))
        timeline_cells._add(c, after, upto)

    redeclare(monkeypatch, timeline_cells, pass_rows=30, add=one_pass)
    assert import_paths(con, [files[0], files[2]], workers=0).added == 100
    assert rebuilt == []
    assert len(passes) >= 10  # 100 hands of several players: hundreds of rows, 30 a pass
    assert all(a < u for a, u in passes)
    assert [a for a, _ in passes[1:]] == [u for _, u in passes[:-1]]  # consecutive slices
    assert timeline_cells.current(con)
    hero = stats.hero_name(con)
    assert hero is not None
    _check(con, monkeypatch, [hero], (NO_FILTERS, _money(con, hero)))
    merged = _pieces(con)
    timeline_cells.SUMMARY.rebuild(con)
    pd.testing.assert_frame_equal(merged, _pieces(con), check_exact=True)
    con.close()
