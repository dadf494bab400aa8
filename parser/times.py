"""Times as sites state them, to timezone-aware UTC where the site names its zone.

Sites write local times with an abbreviation ("ET", "CET", "WET") and PokerStars adds the
same moment in Eastern time in brackets.  An abbreviation is read as the region it names
(``ET`` is America/New_York, daylight saving included), so a summer "ET" is EDT.  A time
whose zone we cannot name stays as written, without a zone.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from typing import Final
from zoneinfo import ZoneInfo

ZONES: dict[str, str] = {
    "ET": "America/New_York",
    "EST": "America/New_York",
    "EDT": "America/New_York",
    "CT": "America/Chicago",
    "MT": "America/Denver",
    "PT": "America/Los_Angeles",
    "AT": "America/Halifax",
    "AKT": "America/Anchorage",
    "HT": "Pacific/Honolulu",
    "BRT": "America/Sao_Paulo",
    "ART": "America/Argentina/Buenos_Aires",
    "WET": "Europe/Lisbon",
    "WEST": "Europe/Lisbon",
    "BST": "Europe/London",
    "CET": "Europe/Paris",
    "CEST": "Europe/Paris",
    "EET": "Europe/Helsinki",
    "MSK": "Europe/Moscow",
    "IST": "Asia/Kolkata",
    "CCT": "Asia/Shanghai",
    "JST": "Asia/Tokyo",
    "AWST": "Australia/Perth",
    "ACST": "Australia/Adelaide",
    "AEST": "Australia/Sydney",
    "AET": "Australia/Sydney",
    "NZT": "Pacific/Auckland",
    "GMT": "UTC",
    "UTC": "UTC",
}

_TIME = re.compile(
    r"(?P<date>(?P<year>\d{4})/(?P<month>\d\d?)/(?P<day>\d\d?))(?: -)?"
    r" (?P<clock>(?P<hour>\d\d?):(?P<minute>\d\d):(?P<second>\d\d))"
    r"(?: \(?(?P<zone>[A-Z]{1,5})\)?)?"
    r"(?: \[(?P<date2>(?P<year2>\d{4})/(?P<month2>\d\d?)/(?P<day2>\d\d?))"
    r" (?P<clock2>(?P<hour2>\d\d?):(?P<minute2>\d\d):(?P<second2>\d\d))"
    r" (?P<zone2>[A-Z]{1,5})\])?"
)
"""A PokerStars-style time; the groups inside ``date`` and ``clock`` (``date2`` and
``clock2``: the bracketed Eastern time) are their numbers, so ``stated_time`` reads them
by name without splitting the text again."""


_OFFSET = re.compile(r"(?:GMT|UTC)(?P<sign>[+-])(?P<hours>\d\d):?(?P<minutes>\d\d)")


def zone_of(name: str) -> tzinfo | None:
    """The zone an abbreviation (``CET``) or an offset (``GMT+0100``) names, else None."""
    m = _OFFSET.fullmatch(name)
    if m is not None:
        minutes = int(m["hours"]) * 60 + int(m["minutes"])
        return timezone(timedelta(minutes=minutes if m["sign"] == "+" else -minutes))
    region = ZONES.get(name)
    if region is None:
        return None
    return UTC if region == "UTC" else ZoneInfo(region)


def in_utc(naive: datetime, zone: str) -> datetime | None:
    """A time as written in ``zone``, as the UTC moment; None when the zone is unknown."""
    n = naive
    return _utc(
        n.year,
        n.month,
        n.day,
        hour=n.hour,
        minute=n.minute,
        second=n.second,
        micro=n.microsecond,
        zone=zone,
    )


def local(date: str, clock: str, zone: str | None) -> datetime | None:
    """One stated time; UTC if ``zone`` is one we know, naive if none, None if invalid."""
    try:
        year, month, day = map(int, date.split("/"))
        hour, minute, second = map(int, clock.split(":"))
        if zone is None:
            return datetime(year, month, day, hour, minute, second)
        return _utc(year, month, day, hour=hour, minute=minute, second=second, zone=zone)
    except ValueError:
        return None


def _utc(
    year: int,
    month: int,
    day: int,
    *,
    hour: int,
    minute: int,
    second: int,
    micro: int = 0,
    zone: str,
) -> datetime | None:
    """The UTC moment of a local time in ``zone``, as ``astimezone`` makes it (None for
    an unknown zone); raises ValueError for a date or time that does not exist.

    Every hand of a file states its time, and a zone's offset hardly ever changes within
    an hour: the offset of each (zone, local hour) is found once (``_hour_offset``), and
    the moment is built in one step (``datetime.replace`` and ``astimezone`` cost more than
    the rest of reading a hand's header).
    """
    key = (zone, year, month, day, hour)
    offset = _OFFSETS.get(key, _UNSEEN)
    if offset is _UNSEEN:
        offset = _hour_offset(datetime(year, month, day, hour), zone)
        if len(_OFFSETS) >= _OFFSETS_KEPT:
            _OFFSETS.clear()  # the hours of the file being read come back at once
        _OFFSETS[key] = offset
    if isinstance(offset, timedelta):
        return datetime(year, month, day, hour, minute, second, micro, UTC) - offset
    if offset is None:
        return None
    found = zone_of(zone)  # the offset changes within this hour: this time's own
    naive = datetime(year, month, day, hour, minute, second, micro)
    return naive.replace(tzinfo=found).astimezone(UTC)


_UNSEEN: Final = object()
_CHANGES: Final = "changes"
_OFFSETS: dict[tuple[str, int, int, int, int], object] = {}
_OFFSETS_KEPT: Final = 4096


def _hour_offset(hour: datetime, zone: str) -> timedelta | str | None:
    """The UTC offset of ``zone`` all through the local ``hour``, as ``astimezone``
    applies it (``fold`` 0); ``_CHANGES`` when it is not the same at the hour's first
    and last second (the clocks change within the hour); None for an unknown zone."""
    found = zone_of(zone)
    if found is None:
        return None
    start = hour.replace(tzinfo=found)
    first = start.utcoffset()
    last = start.replace(minute=59, second=59).utcoffset()
    if first is None or first != last:
        return _CHANGES
    return first


def stated_time(text: str) -> datetime | None:
    """The moment a PokerStars-style time text states (``_stated_time``), the commonest
    forms the quick way.

    Every hand states its time, and the hands of a file fall in a few hours: a time of
    the strict form ``2026/03/09 10:48:57 UTC [2026/03/09 6:48:57 ET]`` (or without the
    bracket) is its text less the minutes and seconds of each clock (the *shape*, one
    string: ``_QUICK``), whose hour's start and the clock it is read from are found once,
    plus that clock's minutes and seconds.  A shape is kept only where its hour's moment
    is the start plus the minutes and seconds (no change of the clocks within the hour).

    The minutes and seconds are the five characters after each clock's first colon (the
    date holds none); two texts of one shape differ only there, and where those are valid
    minutes and seconds (``_MINSEC``) a text of a kept shape has the strict form too, so
    the regular expression would read it the same way.  One slice-and-join and one
    look-up of a string: a third of splitting the text into words and hashing a tuple of
    them, the way this was read before.
    """
    first = text.find(":")
    if first < 0:
        return _stated_time(text)
    second = text.find(":", first + 6)
    if second >= 0:
        key = text[: first + 1] + text[first + 6 : second + 1] + text[second + 6 :]
    else:
        key = text[: first + 1] + text[first + 6 :]
    known = _QUICK.get(key)
    if known is not None:
        start, at = known
        late = _MINSEC.get(text[first + 1 : first + 6])
        if second >= 0:
            later = _MINSEC.get(text[second + 1 : second + 6])
            if late is not None and later is not None:
                return start + (late if at == 1 else later)
        elif late is not None:
            return start + late
    found = _stated_time(text)
    if found is not None and _SHAPE.fullmatch(text):
        _learn(key, text.split(" "), found)
    return found


def _learn(key: str, parts: list[str], found: datetime) -> None:
    """Keep a time's shape (``stated_time``): its hour's start and the clock read."""
    zone = parts[2]
    second_zone = parts[5][:-1] if len(parts) == 6 else ""
    at = 1
    later = second_zone in ZONES
    if zone not in ("UTC", "GMT") and (second_zone == "ET" or zone not in ZONES) and later:
        at, zone = 4, second_zone
    clock = parts[at]
    if zone in ZONES:
        year, month, day = parts[at - 1].lstrip("[").split("/")
        offset = _OFFSETS.get((zone, int(year), int(month), int(day), int(clock[:-6])))
        if not isinstance(offset, timedelta):
            return  # the clocks change within this hour: each time is its own
    if len(_QUICK) >= _OFFSETS_KEPT:
        _QUICK.clear()  # the hours of the file being read come back at once
    _QUICK[key] = (found - _MINSEC[clock[-5:]], at)


_MINSEC: Final = {
    f"{m:02d}:{s:02d}": timedelta(minutes=m, seconds=s) for m in range(60) for s in range(60)
}
_QUICK: dict[str, tuple[datetime, int]] = {}
_SHAPE: Final = re.compile(
    r"\d{4}/\d\d?/\d\d? \d\d?:[0-5]\d:[0-5]\d [A-Z]{1,5}"
    r"(?: \[\d{4}/\d\d?/\d\d? \d\d?:[0-5]\d:[0-5]\d [A-Z]{1,5}\])?",
    re.ASCII,
)
"""The strict form of the times ``stated_time`` reads the quick way."""


def _stated_time(text: str) -> datetime | None:
    """The moment a PokerStars-style time text states.

    A UTC or GMT time is taken as is; otherwise Eastern time wins where it is given (the
    site's own reference clock), then any other zone we know; else the time as written.
    """
    m = _TIME.match(text.strip())
    if m is None:
        return None
    zone, zone2 = m["zone"], m["zone2"]
    if zone in ("UTC", "GMT"):
        return _stated_clock(m, "", zone)
    if zone2 == "ET":
        return _stated_clock(m, "2", zone2)
    if zone is not None and zone in ZONES:
        return _stated_clock(m, "", zone)
    if zone2 is not None and zone2 in ZONES:
        return _stated_clock(m, "2", zone2)
    return _stated_clock(m, "", None)


def _stated_clock(m: re.Match[str], clock: str, zone: str | None) -> datetime | None:
    """``_stated`` on one of the clocks ``_TIME`` read: the first (``clock`` "") or the
    bracketed one ("2"), its groups named with that suffix."""
    return _stated(
        m["year" + clock],
        m["month" + clock],
        m["day" + clock],
        hour=m["hour" + clock],
        minute=m["minute" + clock],
        second=m["second" + clock],
        zone=zone,
    )


def _stated(
    year: str, month: str, day: str, *, hour: str, minute: str, second: str, zone: str | None
) -> datetime | None:
    """``local`` on the numbers ``_TIME`` read: UTC in a zone we know, naive with none,
    None for a date or time that does not exist.

    Each hour's start is remembered (``_HOURS``): the hands of a session fall in the same
    hours, and a moment is its hour's start, its minutes and its seconds where the offset
    does not change within the hour (``_hour_offset``), so the six numbers and the moment
    are made once an hour, not once a hand.
    """
    key = (zone, year, month, day, hour)
    start = _HOURS.get(key)
    into = _MINUTES.get(minute)
    late = _SECONDS.get(second)
    if start is not None and into is not None and late is not None:
        return start + into + late
    try:
        y, mo, d, h = int(year), int(month), int(day), int(hour)
        if zone is None:
            moment = datetime(y, mo, d, h, int(minute), int(second))
        else:
            found = _utc(y, mo, d, hour=h, minute=int(minute), second=int(second), zone=zone)
            if found is None or not isinstance(_OFFSETS.get((zone, y, mo, d, h)), timedelta):
                return found
            moment = found
    except ValueError:
        return None
    if into is not None and late is not None:
        if len(_HOURS) >= _OFFSETS_KEPT:
            _HOURS.clear()  # the hours of the file being read come back at once
        _HOURS[key] = moment - into - late
    return moment


_HOURS: dict[tuple[str | None, str, str, str, str], datetime] = {}
_MINUTES: Final = {f"{m:02d}": timedelta(minutes=m) for m in range(60)}
_SECONDS: Final = {f"{s:02d}": timedelta(seconds=s) for s in range(60)}
