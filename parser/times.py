"""Times as sites state them, to timezone-aware UTC where the site names its zone.

Sites write local times with an abbreviation ("ET", "CET", "WET") and PokerStars adds the
same moment in Eastern time in brackets.  An abbreviation is read as the region it names
(``ET`` is America/New_York, daylight saving included), so a summer "ET" is EDT.  A time
whose zone we cannot name stays as written, without a zone.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone, tzinfo
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
    r"(?P<date>\d{4}/\d\d?/\d\d?)(?: -)? (?P<clock>\d\d?:\d\d:\d\d)"
    r"(?: \(?(?P<zone>[A-Z]{1,5})\)?)?"
    r"(?: \[(?P<date2>\d{4}/\d\d?/\d\d?) (?P<clock2>\d\d?:\d\d:\d\d) (?P<zone2>[A-Z]{1,5})\])?"
)


_OFFSET = re.compile(r"(?:GMT|UTC)([+-])(\d\d):?(\d\d)")


def zone_of(name: str) -> tzinfo | None:
    """The zone an abbreviation (``CET``) or an offset (``GMT+0100``) names, else None."""
    m = _OFFSET.fullmatch(name)
    if m is not None:
        minutes = int(m.group(2)) * 60 + int(m.group(3))
        return timezone(timedelta(minutes=minutes if m.group(1) == "+" else -minutes))
    region = ZONES.get(name)
    if region is None:
        return None
    return UTC if region == "UTC" else ZoneInfo(region)


def in_utc(naive: datetime, zone: str) -> datetime | None:
    """A time as written in ``zone``, as the UTC moment; None when the zone is unknown."""
    found = zone_of(zone)
    if found is None:
        return None
    return naive.replace(tzinfo=found).astimezone(UTC)


def local(date: str, clock: str, zone: str | None) -> datetime | None:
    """One stated time; UTC if ``zone`` is one we know, naive if none, None if invalid."""
    try:
        year, month, day = map(int, date.split("/"))
        hour, minute, second = map(int, clock.split(":"))
        naive = datetime(year, month, day, hour, minute, second)
    except ValueError:
        return None
    if zone is None:
        return naive
    return in_utc(naive, zone)


def stated_time(text: str) -> datetime | None:
    """The moment a PokerStars-style time text states.

    A UTC or GMT time is taken as is; otherwise Eastern time wins where it is given (the
    site's own reference clock), then any other zone we know; else the time as written.
    """
    m = _TIME.match(text.strip())
    if m is None:
        return None
    zone, zone2 = m["zone"], m["zone2"]
    if zone in ("UTC", "GMT"):
        return local(m["date"], m["clock"], zone)
    if zone2 == "ET":
        return local(m["date2"], m["clock2"], zone2)
    if zone is not None and zone in ZONES:
        return local(m["date"], m["clock"], zone)
    if zone2 is not None and zone2 in ZONES:
        return local(m["date2"], m["clock2"], zone2)
    return local(m["date"], m["clock"], None)
