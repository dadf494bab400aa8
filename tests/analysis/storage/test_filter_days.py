"""The date filters cut the days of the display zone (``Filters.zone``): a player in New
York who asks for 5 December gets the hands played on 5 December there, over the hands,
the statistics' rows and the summary cells alike; a hand whose clock was written without
a zone counts on the day written."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import duckdb
import pytest

from analysis.pipeline.importer import import_paths
from analysis.statistics import figures
from analysis.storage import db as dbmod
from analysis.storage import hand_cells, stat_cells, summaries
from analysis.storage.filters import Filters
from tests.store_data import write_history

# four hands' times, as stored: UTC moments, and one clock written without a zone
LATE_4TH_IN_NEW_YORK = datetime(2026, 12, 5, 4, 30)  # 23:30 EST on the 4th; 05:30 in Paris
EARLY_5TH_IN_NEW_YORK = datetime(2026, 12, 5, 5, 30)  # 00:30 EST on the 5th
EARLY_6TH_IN_PARIS = datetime(2026, 12, 5, 23, 30)  # 18:30 EST on the 5th; 00:30 CET the 6th
WRITTEN = datetime(2026, 12, 5, 0, 15)  # as written: the 5th in every zone
FIFTH = {"date_from": date(2026, 12, 5), "date_to": date(2026, 12, 5)}


def timed_database(path: Path, before: datetime = datetime(2025, 12, 5, 12)) -> dict[str, int]:
    """A database at ``path`` of twelve hands (Hero in each): the four above, the others
    a year before (at ``before``, a UTC moment), the summaries summed anew; the four's ids
    by name."""
    con = dbmod.connect(path)
    import_paths(con, [write_history(path.with_suffix(".txt"), 12)], workers=0)
    ids = [int(r[0]) for r in con.execute("SELECT id FROM hands ORDER BY id").fetchall()]
    named = dict(zip(("late_4th", "early_5th", "early_6th_paris", "written"), ids, strict=False))
    con.execute("UPDATE hands SET time = ?, time_utc = TRUE", [before])
    for name, when in (("late_4th", LATE_4TH_IN_NEW_YORK), ("early_5th", EARLY_5TH_IN_NEW_YORK),
                       ("early_6th_paris", EARLY_6TH_IN_PARIS), ("written", WRITTEN)):
        con.execute("UPDATE hands SET time = ?, time_utc = ? WHERE id = ?",
                    [when, name != "written", named[name]])
    con.execute("UPDATE player_hands p SET time = h.time FROM hands h WHERE h.id = p.hand")
    summaries.invalidate(con)
    summaries.rebuild_all(con)
    con.close()
    return named


@pytest.fixture(scope="module")
def timed(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[duckdb.DuckDBPyConnection, dict[str, int]]:
    path = tmp_path_factory.mktemp("days") / "d.duckdb"
    named = timed_database(path)
    return dbmod.connect(path), named


def _hands(con: duckdb.DuckDBPyConnection, f: Filters) -> set[int]:
    where, params = f.where_hands()
    return {int(r[0]) for r in con.execute(f"SELECT h.id FROM hands h WHERE {where}",
                                           params).fetchall()}


def _rows(con: duckdb.DuckDBPyConnection, f: Filters) -> set[int]:
    where, params = f.where()
    return {int(r[0]) for r in con.execute(
        f"SELECT DISTINCT hand FROM player_hands WHERE {where}", params).fetchall()}


@pytest.mark.parametrize(("zone", "kept"), [
    ("America/New_York", {"early_5th", "early_6th_paris", "written"}),
    ("Europe/Paris", {"late_4th", "early_5th", "written"}),
    (None, {"late_4th", "early_5th", "early_6th_paris", "written"}),
])
def test_the_fifth_is_the_fifth_of_the_zone_asked_over_both_tables(
    timed: tuple[duckdb.DuckDBPyConnection, dict[str, int]], zone: str | None, kept: set[str]
) -> None:
    con, named = timed
    f = Filters(**FIFTH, zone=zone)
    wanted = {named[k] for k in kept}
    assert _hands(con, f) == wanted
    assert _rows(con, f) == wanted


def test_from_the_fifth_on_in_new_york_leaves_out_the_fourth_there(
    timed: tuple[duckdb.DuckDBPyConnection, dict[str, int]],
) -> None:
    con, named = timed
    f = Filters(date_from=date(2026, 12, 5), zone="America/New_York")
    assert _hands(con, f) == {named["early_5th"], named["early_6th_paris"], named["written"]}
    until = Filters(date_to=date(2026, 12, 4), zone="America/New_York")
    assert len(_hands(con, until)) == 12 - 3  # the year before and the 4th's late hand


def test_the_statistics_count_the_zones_day_and_the_cells_answer_only_utc_days(
    timed: tuple[duckdb.DuckDBPyConnection, dict[str, int]],
) -> None:
    con, _ = timed
    assert stat_cells.current(con)
    new_york = Filters(**FIFTH, zone="America/New_York")
    assert new_york.where_cells("Hero") is None  # the cells keep UTC days
    assert hand_cells.where(new_york) is None
    assert figures.results(con, "Hero", new_york).hands == 3
    assert figures.results(con, "Hero", Filters(**FIFTH, zone="Europe/Paris")).hands == 3
    utc = Filters(**FIFTH)
    assert utc.where_cells("Hero") is not None  # UTC days: the cells answer
    assert figures.results(con, "Hero", utc).hands == 4
    # London in winter is at UTC: its days are the cells' days
    assert Filters(**FIFTH, zone="Europe/London").utc_days
    assert not Filters(**FIFTH, zone="America/New_York").utc_days
