"""Times as a user reads them: every time in one display zone, with the zone named.

Stored hand times (``hands.time``, ``player_hands.time``) carry no zone: they are the UTC
moment where the history named its zone (PokerStars' "ET", Full Tilt's, a PHH file's
``time_zone``), and the clock as written where it did not (``hands.time_utc`` false; rows
stored before that flag are NULL and read as UTC, as they always were).  A hand record
straight from a parser carries its zone (aware) or none (naive, as written).  The times
DrawLab stamps itself (an import's start and end, a watched folder's last read) are this
computer's clock.  ``shown`` turns any of them into the text every page writes: the
moment in the display zone (a setting, by default this computer's zone) followed by that
zone's abbreviation for that date ("EST", "EDT", "UTC"), or the clock as written marked
so, since no zone can honestly be named for it.
"""

from __future__ import annotations

import functools
import os
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

import pandas as pd

from analysis.storage import settings
from analysis.storage.db import Connection

DISPLAY_ZONE = "display_zone"  # the setting: an IANA zone name; "" this computer's zone
THIS_COMPUTER = ""
UNSTATED = "(zone not stated)"  # after a clock the history gave without a zone
# what a naive time is: the UTC moment, the site's clock as written, this computer's clock
Clock = Literal["utc", "as written", "this computer"]


def local_zone() -> tzinfo:
    """This computer's zone: ``TZ``, else the zone ``/etc/localtime`` links to, else the
    fixed offset the system reports now (no daylight saving known then)."""
    for name in (os.environ.get("TZ", "").lstrip(":"), _linked_zone()):
        zone = _zone(name)
        if zone is not None:
            return zone
    found = datetime.now().astimezone().tzinfo
    return UTC if found is None else found


def _linked_zone() -> str:
    try:
        target = str(Path("/etc/localtime").resolve())
    except OSError:
        return ""
    _, found, name = target.partition("zoneinfo/")
    return name if found else ""


def _zone(name: str) -> tzinfo | None:
    """The zone an IANA name names; None for no name or an unknown one."""
    if not name:
        return None
    if name == "UTC":
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


@functools.cache
def zone_names() -> tuple[str, ...]:
    """Every zone a user may pick, by IANA name, sorted; read from the disk once (the
    sidebar offers them on every page's every run)."""
    return tuple(sorted(available_timezones() - {"localtime", "Factory"}))


def display_zone(con: Connection) -> tzinfo:
    """The zone every page shows times in: the user's choice (``set_display_zone``), or
    this computer's zone when none is set or the one set is unknown here."""
    return _zone(settings.get(con, DISPLAY_ZONE, THIS_COMPUTER)) or local_zone()


def display_zone_name(con: Connection) -> str:
    """The setting as kept: an IANA name, or ``THIS_COMPUTER``."""
    name = settings.get(con, DISPLAY_ZONE, THIS_COMPUTER)
    return name if _zone(name) is not None else THIS_COMPUTER


def set_display_zone(con: Connection, name: str) -> None:
    """Keep the display zone: an IANA name (``Europe/Paris``), or ``THIS_COMPUTER``; an
    unknown name is refused with ValueError, never kept."""
    if name != THIS_COMPUTER and _zone(name) is None:
        raise ValueError(f"unknown time zone: {name}")
    settings.put(con, DISPLAY_ZONE, name)


def day_zone(con: Connection, named: str | None = None) -> str | None:
    """The zone as ``Filters.zone`` takes it, whose days the date filters cut: ``named``
    (an IANA name, as ``drawlab stats --zone`` gives it) where given, else the display
    zone; its IANA name, None for UTC and for a zone this computer gives only as an offset
    (no name to find its midnights by: the stored UTC days are cut then).  An unknown
    ``named`` is refused with ValueError."""
    zone = display_zone(con) if named is None else _zone(named)
    if zone is None:
        raise ValueError(f"unknown time zone: {named}; give an IANA name such as "
                         "America/New_York or UTC")
    return None if is_utc(zone) else getattr(zone, "key", None)


def in_zone(moment: datetime, zone: tzinfo, clock: Clock = "utc") -> datetime:
    """``moment`` as an aware time in ``zone``: an aware moment converted; a naive one read
    as ``clock`` says (a clock "as written" is kept as it is, in no zone: naive)."""
    if moment.tzinfo is not None:
        return moment.astimezone(zone)
    if clock == "as written":
        return moment
    if clock == "this computer":
        return moment.astimezone(zone)  # a naive time's astimezone reads it as local
    return moment.replace(tzinfo=UTC).astimezone(zone)


def shown(
    moment: datetime | None,
    zone: tzinfo,
    clock: Clock = "utc",
    fmt: str = "%Y-%m-%d %H:%M:%S",
) -> str:
    """The text a page shows for a time: in ``zone`` with the zone's abbreviation for
    that date, or the clock as written and ``UNSTATED``; "–" for no time.  ``clock``
    says what a naive ``moment`` is (``Clock``); ``fmt`` is ``strftime``'s."""
    if moment is None or pd.isna(moment):
        return "–"
    local = in_zone(pd.Timestamp(moment).to_pydatetime(), zone, clock)
    if local.tzinfo is None:
        return f"{local:{fmt}} {UNSTATED}"
    return f"{local:{fmt}} {local.tzname()}"


def day_span(first: datetime, last: datetime, zone: tzinfo) -> str:
    """The days two stored (UTC) times fall on in ``zone``, and the zone by name:
    "2009-11-25 to 2016-05-11 (America/New_York)"."""
    name = getattr(zone, "key", None) or in_zone(last, zone).tzname() or str(zone)
    return (f"{in_zone(first, zone):%Y-%m-%d} to {in_zone(last, zone):%Y-%m-%d} "
            f"({name})")


_UTC_NAMES = frozenset({"UTC", "Etc/UTC", "Etc/UCT", "UCT", "Etc/Universal", "Universal",
                        "Zulu", "Etc/Zulu", "GMT", "Etc/GMT", "Etc/GMT0", "GMT0"})


def is_utc(zone: tzinfo) -> bool:
    """Whether ``zone`` is UTC all year: stored times' days are its days."""
    return zone is UTC or getattr(zone, "key", None) in _UTC_NAMES


def local_clocks(values: object, zone: tzinfo) -> pd.Series:
    """Stored UTC times (naive, a column of them) as ``zone``'s clock (naive): what a day
    in the display zone is cut from (a graph by date)."""
    stamps: Any = pd.to_datetime(pd.Series(values))
    return stamps.dt.tz_localize("UTC").dt.tz_convert(zone).dt.tz_localize(None)  # type: ignore[no-any-return]


def hand_clock(time_utc: object) -> Clock:
    """What a stored hand time is, from ``hands.time_utc``: "as written" only where the
    flag says so; NULL (a hand stored before the flag) is read as UTC."""
    if time_utc is None or pd.isna(time_utc):  # type: ignore[call-overload]
        return "utc"
    return "utc" if bool(time_utc) else "as written"
