"""The overview's "Dates" are the display zone's days: the same pick, 5 December, keeps
the hands played on 5 December in New York, in Paris or in UTC (``Filters.zone``)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from tests.analysis.statistics.test_offer_days import edge_database
from tests.analysis.storage.test_filter_days import timed_database
from tests.app_support import app_for


@pytest.mark.parametrize(("zone", "hands"), [
    ("America/New_York", 3), ("Europe/Paris", 3), ("UTC", 4),
])
def test_the_fifth_picked_is_the_fifth_in_the_zone_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, zone: str, hands: int
) -> None:
    path = tmp_path / "days.duckdb"
    timed_database(path)
    monkeypatch.setattr("ui.state.SAMPLES", tmp_path / "no-samples")
    at = app_for(path, monkeypatch).run()
    at.selectbox(key="display_zone").set_value(zone).run()
    at.date_input(key="f_dates").set_value((date(2026, 12, 5), date(2026, 12, 5))).run()
    assert not at.exception
    assert {m.label: m.value for m in at.metric}["Hands"] == str(hands)
    assert at.text[0].value.startswith(f"Showing Hero at PokerStars over {hands} hands, ")


@pytest.mark.parametrize(("zone", "span"), [
    ("America/New_York", (date(2025, 12, 4), date(2026, 12, 5))),
    ("Europe/Paris", (date(2025, 12, 5), date(2026, 12, 6))),
    ("UTC", (date(2025, 12, 5), date(2026, 12, 5))),
])
def test_the_dates_offered_are_the_hands_first_and_last_day_in_the_zone_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, zone: str, span: tuple[date, date]
) -> None:
    path = tmp_path / "edges.duckdb"
    edge_database(path)
    monkeypatch.setattr("ui.state.SAMPLES", tmp_path / "no-samples")
    at = app_for(path, monkeypatch).run()
    at.selectbox(key="display_zone").set_value(zone).run()
    assert not at.exception
    assert at.date_input(key="f_dates").value == span
    assert {m.label: m.value for m in at.metric}["Hands"] == "12"
