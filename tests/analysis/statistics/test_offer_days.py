"""The dates the overview offers are the first and last day of the hero's hands in the
display zone (``Filters.zone``), as its date filter cuts them: a hand at 03:00 UTC is the
day before in New York, a hand at 23:30 UTC the day after in Paris, and a clock written
without a zone counts on the day written."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import duckdb
import pytest

from analysis.statistics import figures
from analysis.statistics.offers import offers
from analysis.storage import db as dbmod
from analysis.storage import summaries
from analysis.storage.filters import Filters
from tests.analysis.storage.test_filter_days import timed_database

# the eight older hands: 22:00 EST on 4 December 2025, 04:00 in Paris, 03:00 UTC
EARLIEST = datetime(2025, 12, 5, 3)
# (first, last) day offered in each zone; the last hand is at 23:30 UTC on 5 December 2026
SPANS = {
    "America/New_York": (date(2025, 12, 4), date(2026, 12, 5)),
    "Europe/Paris": (date(2025, 12, 5), date(2026, 12, 6)),
    None: (date(2025, 12, 5), date(2026, 12, 5)),
}


def edge_database(path: Path) -> dict[str, int]:
    """``timed_database`` with its older hands at ``EARLIEST``: hands at both edges of
    the span whose days differ by zone."""
    return timed_database(path, before=EARLIEST)


@pytest.fixture(scope="module")
def edges(tmp_path_factory: pytest.TempPathFactory) -> duckdb.DuckDBPyConnection:
    path = tmp_path_factory.mktemp("edges") / "e.duckdb"
    edge_database(path)
    return dbmod.connect(path)


@pytest.mark.parametrize("zone", list(SPANS))
def test_the_dates_offered_are_the_first_and_last_day_in_the_zone(
    edges: duckdb.DuckDBPyConnection, zone: str | None
) -> None:
    offered = offers(edges, "Hero", Filters(zone=zone))
    assert (offered.first_day, offered.last_day) == SPANS[zone]
    assert figures.day_span(edges, None, Filters(zone=zone)) == SPANS[zone]


def test_a_clock_written_without_a_zone_is_offered_on_the_day_written(tmp_path: Path) -> None:
    path = tmp_path / "w.duckdb"
    named = edge_database(path)
    con = dbmod.connect(path)
    # 01:00 on the 6th as written; read as UTC it would be 20:00 on the 5th in New York
    for table, column in (("hands", "id"), ("player_hands", "hand")):
        con.execute(f"UPDATE {table} SET time = ? WHERE {column} = ?",
                    [datetime(2026, 12, 6, 1), named["written"]])
    summaries.invalidate(con)
    summaries.rebuild_all(con)
    new_york = offers(con, "Hero", Filters(zone="America/New_York"))
    assert (new_york.first_day, new_york.last_day) == (date(2025, 12, 4), date(2026, 12, 6))
    con.close()
