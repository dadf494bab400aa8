"""The tournaments' days are the display zone's (``TournamentFilters.zone``): a start at
04:30 UTC on 5 December is the 4th in New York, one at 23:30 UTC the 6th in Paris."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import duckdb
import pytest

from analysis import tournaments as tours
from analysis.pipeline.importer import import_paths
from analysis.storage import db as dbmod
from tests.corpus import CORPUS

SUMMARIES = CORPUS.parent / "summaries"
# the other tournaments' start: 23:00 EDT on 31 May 2025, 05:00 in Paris
EARLIER = datetime(2025, 6, 1, 3)
# three tournaments' starts (UTC) and the day each is in New York, Paris and UTC
STARTS = {
    "late_4th": datetime(2026, 12, 5, 4, 30),  # 23:30 EST on the 4th
    "early_5th": datetime(2026, 12, 5, 5, 30),  # 00:30 EST on the 5th
    "early_6th_paris": datetime(2026, 12, 5, 23, 30),  # 00:30 CET on the 6th
}
FIFTH = {
    "America/New_York": {"early_5th", "early_6th_paris"},
    "Europe/Paris": {"late_4th", "early_5th"},
    None: {"late_4th", "early_5th", "early_6th_paris"},
}
SPANS = {
    "America/New_York": (date(2025, 5, 31), date(2026, 12, 5)),
    "Europe/Paris": (date(2025, 6, 1), date(2026, 12, 6)),
    None: (date(2025, 6, 1), date(2026, 12, 5)),
}


def timed_tournaments(path: Path) -> dict[str, str]:
    """A database at ``path`` of the corpus's summaries, every tournament started at
    ``EARLIER`` but three US-dollar ones at ``STARTS``; those three's ids by name."""
    con = dbmod.connect(path)
    import_paths(con, [SUMMARIES], workers=0)
    ids = [str(r[0]) for r in con.execute(
        "SELECT DISTINCT t.tournament_id FROM tournaments t JOIN tournament_results r "
        "USING (site, tournament_id) WHERE t.currency = 'USD' AND r.source = 'summary' "
        "ORDER BY 1 LIMIT 3").fetchall()]
    con.execute("UPDATE tournaments SET started = ?", [EARLIER])
    named = dict(zip(STARTS, ids, strict=True))
    for name, tid in named.items():
        con.execute("UPDATE tournaments SET started = ? WHERE tournament_id = ?",
                    [STARTS[name], tid])
    con.close()
    return named


@pytest.fixture(scope="module")
def timed(tmp_path_factory: pytest.TempPathFactory) -> tuple[duckdb.DuckDBPyConnection,
                                                             dict[str, str]]:
    path = tmp_path_factory.mktemp("tours") / "t.duckdb"
    named = timed_tournaments(path)
    return dbmod.connect(path), named


@pytest.mark.parametrize("zone", list(FIFTH))
def test_the_fifth_is_the_fifth_of_the_zone_asked(
    timed: tuple[duckdb.DuckDBPyConnection, dict[str, str]], zone: str | None
) -> None:
    con, named = timed
    f = tours.TournamentFilters(date_from=date(2026, 12, 5), date_to=date(2026, 12, 5),
                                zone=zone)
    assert {r.tournament_id for r in tours.tournament_results(con, f)} == {
        named[k] for k in FIFTH[zone]}


@pytest.mark.parametrize("zone", list(SPANS))
def test_the_days_offered_are_the_first_and_last_start_in_the_zone(
    timed: tuple[duckdb.DuckDBPyConnection, dict[str, str]], zone: str | None
) -> None:
    con, _ = timed
    everything = tours.tournament_results(con, tours.TournamentFilters())
    assert tours.start_days(everything, zone) == SPANS[zone]
    assert tours.start_days([], zone) is None
