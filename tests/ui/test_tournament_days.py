"""The Tournaments page's dates are the display zone's: the days offered run from the
first start to the last there, a day picked is that zone's day, and the starts listed are
its clock (``TournamentFilters.zone``)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from tests.analysis.test_tournament_days import SPANS, timed_tournaments
from tests.app_support import app_for

# per zone: the tournaments started on 5 December there, and the listed start of the one
# at 23:30 UTC on the 5th
FIFTH = {"America/New_York": (2, "2026-12-05 18:30 EST"),
         "Europe/Paris": (2, "2026-12-06 00:30 CET"),
         "UTC": (3, "2026-12-05 23:30 UTC")}


@pytest.mark.parametrize("zone", list(FIFTH))
def test_the_tournaments_days_and_starts_are_the_zone_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, zone: str
) -> None:
    path = tmp_path / "tours.duckdb"
    named = timed_tournaments(path)
    at = app_for(path, monkeypatch).run()
    at.selectbox(key="display_zone").set_value(zone).run()
    at.switch_page("ui/tournaments_page.py").run()
    assert not at.exception
    assert at.selectbox(key="t_currency").value == "USD"
    assert at.date_input(key="t_dates").value == SPANS[None if zone == "UTC" else zone]
    at.date_input(key="t_dates").set_value((date(2026, 12, 5), date(2026, 12, 5))).run()
    count, start = FIFTH[zone]
    assert {str(m.label): str(m.value) for m in at.metric}["Tournaments"] == str(count)
    assert len(at.dataframe[2].value) == count
    at.date_input(key="t_dates").set_value((date(2026, 12, 5), date(2026, 12, 6))).run()
    listed = at.dataframe[2].value
    started = dict(zip(listed["tournament"], listed["started"], strict=True))
    assert started[named["early_6th_paris"]] == start
