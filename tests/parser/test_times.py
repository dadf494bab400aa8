"""Times to UTC: the offset remembered per zone and local hour is the one ``astimezone``
applies to every second of that hour, across every change of clocks."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from parser import times
from parser.times import ZONES, in_utc, zone_of


def direct(naive: datetime, zone: str) -> datetime | None:
    found = zone_of(zone)
    return None if found is None else naive.replace(tzinfo=found).astimezone(UTC)


@pytest.mark.parametrize("zone", sorted(ZONES))
def test_every_minute_of_the_days_the_clocks_change_reads_as_astimezone_reads_it(
    zone: str,
) -> None:
    times._OFFSETS.clear()
    days = [datetime(2024, m, d) for m in (3, 4, 9, 10, 11) for d in range(1, 32, 1) if d <= 30]
    for day in days:
        for minute in range(0, 24 * 60, 7):
            naive = day + timedelta(minutes=minute, seconds=minute % 60)
            assert in_utc(naive, zone) == direct(naive, zone), (zone, naive)


def test_the_hour_the_clocks_go_back_is_read_with_the_first_offset() -> None:
    times._OFFSETS.clear()
    # 2024-11-03 01:30 happens twice in New York: astimezone takes the first (EDT)
    assert in_utc(datetime(2024, 11, 3, 1, 30), "ET") == datetime(2024, 11, 3, 5, 30, tzinfo=UTC)
    assert in_utc(datetime(2024, 11, 3, 2, 30), "ET") == datetime(2024, 11, 3, 7, 30, tzinfo=UTC)
    # 2024-03-10 02:30 never happens in New York: astimezone reads it with EST
    assert in_utc(datetime(2024, 3, 10, 2, 30), "ET") == datetime(2024, 3, 10, 7, 30, tzinfo=UTC)
    assert in_utc(datetime(2024, 3, 10, 3, 30), "ET") == datetime(2024, 3, 10, 7, 30, tzinfo=UTC)


def test_an_hour_whose_offset_changes_within_it_is_read_second_by_second() -> None:
    times._OFFSETS.clear()
    # New York left local mean time (-4:56:02) for EST at 12:03:58 on 1883-11-18
    before, after = datetime(1883, 11, 18, 12, 1), datetime(1883, 11, 18, 12, 30)
    assert in_utc(before, "ET") == datetime(1883, 11, 18, 16, 57, 2, tzinfo=UTC)
    assert in_utc(after, "ET") == datetime(1883, 11, 18, 17, 30, tzinfo=UTC)
    assert times._OFFSETS == {("ET", 1883, 11, 18, 12): times._CHANGES}


def test_an_unknown_zone_is_no_moment_and_offsets_are_bounded() -> None:
    times._OFFSETS.clear()
    assert in_utc(datetime(2024, 1, 1, 12), "XYZ") is None
    for hour in range(times._OFFSETS_KEPT + 10):
        in_utc(datetime(2000, 1, 1) + timedelta(hours=hour), "CET")
    assert len(times._OFFSETS) <= times._OFFSETS_KEPT


def test_stated_times_read_twice_are_the_moments_local_gives() -> None:
    """Later readings of an hour come from its remembered start: the same moment as
    ``local`` makes from the text, across a clock change and in every zone kind."""
    from parser.times import local, stated_time

    cases = [
        ("2026/03/08", "1:59:59", "ET"),  # the hour before the clocks go forward
        ("2026/03/08", "3:00:01", "ET"),
        ("2026/11/01", "1:30:15", "ET"),  # the hour that comes twice
        ("2026/10/25", "2:45:00", "CET"),
        ("1883/11/18", "12:01:00", "ET"),  # New York's offset changed within this hour
        ("2026/03/01", "12:49:07", "UTC"),
        ("2026/03/01", "12:49:59", "GMT"),
        ("2026/03/01", "12:49:07", "XYZ"),  # a zone we do not know
        ("2026/02/29", "12:00:00", "ET"),  # no such day
    ]
    for date, clock, zone in cases:
        for seconds in ("00:00", "00:07", "07:59", "59:59", "31:00"):
            moment = clock[:-5] + seconds
            text = f"{date} {moment} {zone}"
            known = zone in ("ET", "CET", "UTC", "GMT")
            expected = local(date, moment, zone if known else None)
            assert stated_time(text) == expected, text
            assert stated_time(text) == expected, text  # from the hour remembered
            if expected is not None:
                assert stated_time(text).tzinfo == expected.tzinfo  # type: ignore[union-attr]
    assert stated_time("2026/03/01 12:49:60 UTC") is None  # the hour 12 is remembered
    assert stated_time("2026/03/01 12:61:00 ET") is None
    assert stated_time("2026/03/01 12:61:00 UTC") is None
    assert stated_time("2026/03/01 12:49 UTC") is None


def _time_texts() -> list[str]:
    """Times in the strict shapes ``stated_time`` keeps, and near misses of them."""
    texts = []
    for date, hour in (("2026/03/08", "1"), ("2026/03/08", "3"), ("2026/11/01", "1"),
                       ("2026/10/25", "2"), ("1883/11/18", "12"), ("2026/3/1", "23"),
                       ("2026/02/29", "12")):  # fmt: skip
        for zone in ("UTC", "GMT", "ET", "CET", "WET", "XYZ"):
            for bracket in ("", " [{d} {h}:{ms} ET]", " [{d} {h}:{ms} CET]", " [{d} {h}:{ms} XY]"):
                for ms in ("00:00", "07:59", "59:59", "31:07"):
                    tail = bracket.format(d=date, h=hour, ms=ms[::-1].replace(":", "")[:2] + ":00")
                    texts.append(f"{date} {hour}:{ms} {zone}{tail}")
    texts += [
        "2026/03/01 12:49:07 WET [2026/03/01 7:49:07 ET]",
        "2026/03/01 12:49:07 WET [2026/03/01 7:ab:07 ET]",  # no bracket read: the WET clock
        "2026/03/01 12:ab:07 WET [2026/03/01 7:49:07 ET]",  # no time at all
        "2026/03/01 12:49:07 UTC extra",
        "2026/03/01 12:49:07 UTC [2026/03/01 7:49:07 ET] extra",
        " 2026/03/01 12:49:07 UTC",
        "2026/03/01 12:49:07 UTC ",
        "2026/03/01 12:49:07 (ET)",
        "2026/03/01 - 12:49:07 ET",
        "2026/03/01 12:49:٠٧ UTC",
        "٢٠٢٦/03/01 12:49:07 UTC",
        "2026/03/01 12:49:07 UTC [2026/03/01 7:49:99 ET]",
        "2026/03/01 12:49:07 UTC [2026/03/01 7:4:07 ET]",
        "2026/03/01 1:49:07 UTC",
        "2026/03/01 :49:07 UTC",
        "2026/03/01 12:60:07 UTC",
        "2026/03/01 12:49:07 utc",
        "2026/03/01 12:4:077 UTC",  # the five characters after the colon are no mm:ss
        "2026/03/01 12:49:07 UTC [2026/03/01 7:49:07 ET]:",
        "2026/03/01 12:49:07 UTC [2026/03/01 7:49 :07 ET]",
        "2026/03/01 12:49:07:UTC",
        "2026/03/01 12",
    ]
    return texts


def test_quick_times_are_the_times_the_expression_reads() -> None:
    """Each time read from a remembered shape is the moment the regular expression's
    reading gives (``_stated_time``), read first, again and after a neighbour."""
    texts = _time_texts()
    for text in texts + texts[::-1] + texts:
        expected = times._stated_time(text)
        found = times.stated_time(text)
        assert found == expected, text
        if expected is not None:
            assert found is not None and found.tzinfo == expected.tzinfo, text
    assert times._QUICK  # the shapes were kept
    shape = "2026/03/01 12: UTC [2026/03/01 7: ET]"  # the text less minutes and seconds
    times.stated_time("2026/03/01 12:49:07 UTC [2026/03/01 7:49:07 ET]")
    assert times._QUICK[shape] == (datetime(2026, 3, 1, 12, tzinfo=UTC), 1)
    times.stated_time("2026/03/01 12:49:07 WET [2026/03/01 7:49:07 ET]")
    start, clock = times._QUICK["2026/03/01 12: WET [2026/03/01 7: ET]"]
    assert (start, clock) == (datetime(2026, 3, 1, 12, tzinfo=UTC), 4)  # from the ET clock
