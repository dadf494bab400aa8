"""Times shown in the display zone with the zone named (``analysis.times``), from hands
whose history names its zone, hands whose history does not, and DrawLab's own clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from analysis import times
from analysis.pipeline.importer import import_paths
from analysis.storage import db
from tests.analysis.statistics.test_live import _dealt

NEW_YORK = ZoneInfo("America/New_York")
STATED = "2026/03/01 12:21:00 UTC [2026/03/01 7:21:00 ET]"  # the first dealt hand's header


def _one_hand(tmp_path: Path, when: str) -> tuple[datetime, object]:
    """Import one dealt hand whose header states ``when``: its stored time and flag."""
    text = _dealt(1, 3)
    assert STATED in text
    (tmp_path / "h.txt").write_text(text.replace(STATED, when), encoding="utf-8")
    con = db.connect(tmp_path / "d.duckdb")
    import_paths(con, [tmp_path / "h.txt"], workers=0)
    row = con.execute("SELECT time, time_utc FROM hands").fetchall()
    con.close()
    assert len(row) == 1
    return row[0][0], row[0][1]


def test_a_hand_written_in_eastern_time_shows_in_the_display_zone_with_its_zone(
    tmp_path: Path,
) -> None:
    stored, utc = _one_hand(tmp_path, "2026/01/15 14:12:58 ET")
    assert (stored, utc) == (datetime(2026, 1, 15, 19, 12, 58), True)  # stored in UTC
    assert times.shown(stored, NEW_YORK) == "2026-01-15 14:12:58 EST"
    assert times.shown(stored, UTC) == "2026-01-15 19:12:58 UTC"
    assert times.shown(stored, ZoneInfo("Europe/Paris"), fmt="%H:%M") == "20:12 CET"
    summer = datetime(2026, 7, 15, 18, 12, 58)  # 14:12:58 EDT
    assert times.shown(summer, NEW_YORK) == "2026-07-15 14:12:58 EDT"


def test_a_hand_whose_history_names_no_zone_shows_its_clock_as_written(
    tmp_path: Path,
) -> None:
    stored, utc = _one_hand(tmp_path, "2026/01/15 14:12:58")
    assert (stored, utc) == (datetime(2026, 1, 15, 14, 12, 58), False)
    clock = times.hand_clock(utc)
    assert clock == "as written"
    assert times.shown(stored, NEW_YORK, clock) == "2026-01-15 14:12:58 (zone not stated)"
    assert times.shown(stored, UTC, clock) == "2026-01-15 14:12:58 (zone not stated)"
    assert times.hand_clock(None) == times.hand_clock(True) == "utc"  # before the flag: UTC


def test_aware_times_and_this_computers_clock_are_converted_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    aware = datetime(2026, 1, 15, 14, 12, 58, tzinfo=timezone(timedelta(hours=-5)))
    assert times.shown(aware, UTC) == "2026-01-15 19:12:58 UTC"
    assert times.shown(None, UTC) == "–"
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    assert times.local_zone() == ZoneInfo("Asia/Tokyo")
    import time as time_module

    time_module.tzset()
    try:
        mine = datetime(2026, 1, 15, 9, 0, 0)  # 09:00 on this computer, in Tokyo
        assert times.shown(mine, UTC, "this computer") == "2026-01-15 00:00:00 UTC"
    finally:
        monkeypatch.delenv("TZ")
        time_module.tzset()


def test_the_display_zone_is_a_setting_this_computers_by_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    con = db.connect(db.MEMORY)
    monkeypatch.setenv("TZ", "America/New_York")
    assert times.display_zone(con) == NEW_YORK  # nothing set: this computer's zone
    assert times.display_zone_name(con) == times.THIS_COMPUTER
    times.set_display_zone(con, "Europe/Paris")
    assert times.display_zone(con) == ZoneInfo("Europe/Paris")
    assert times.display_zone_name(con) == "Europe/Paris"
    with pytest.raises(ValueError, match="unknown time zone: Mars/Olympus"):
        times.set_display_zone(con, "Mars/Olympus")
    assert times.display_zone_name(con) == "Europe/Paris"  # the refused name was not kept
    times.set_display_zone(con, "UTC")
    assert times.display_zone(con) is UTC
    assert "Europe/Paris" in times.zone_names() and "localtime" not in times.zone_names()


def test_reverify_fills_the_flag_of_hands_stored_before_it(tmp_path: Path) -> None:
    from analysis.pipeline.reverify import reverify

    _one_hand(tmp_path, "2026/01/15 14:12:58")
    con = db.connect(tmp_path / "d.duckdb")
    con.execute("UPDATE hands SET time_utc = NULL")  # as the migration leaves older rows
    assert times.hand_clock(con.execute("SELECT time_utc FROM hands").fetchall()[0][0]) == "utc"
    reverify(con, workers=0)
    assert con.execute("SELECT time_utc FROM hands").fetchall() == [(False,)]
    con.close()
