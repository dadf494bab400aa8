"""Which hands count: the one filter of the statistics, the hand lists, the export, the
command line and the dashboard.

A filter says which hands a user means - a site, a game, stakes, days, a player at the
table - whatever is then asked of them, so one type serves both tables it is read over:
``player_hands`` (one row per player dealt in: the statistics) through ``where`` and
``hands`` (one row per hand: lists, the replayer, the export) through ``where_hands``.  A
field a table has no column for is asked of the other one, so every field means the same
on both.  ``None`` (and ``False`` for ``valid_only``) means no restriction; the days are
inclusive, and they are the days of ``zone`` (the display zone, as the user reads the
times): a stored UTC moment counts on the day it fell on there, and a hand whose clock was
written without a zone (``hands.time_utc`` false) on the day written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo


@dataclass(frozen=True, slots=True)
class Filters:
    site: str | None = None
    game: str | None = None
    stakes: str | None = None  # the stakes label, "0.10/0.20" (``analysis.statistics.facts``)
    currency: str | None = None
    date_from: date | None = None
    date_to: date | None = None
    position: str | None = None  # of ``player`` where one is named, else of the row's player
    players_min: int | None = None  # players dealt in (``player_hands.players``)
    players_max: int | None = None
    tournament: bool | None = None  # True: tournament hands only; False: cash only
    valid_only: bool = False  # only hands the replay found without error (status "ok")
    player: str | None = None  # hands this player sat in
    status: str | None = None  # one verdict: "ok", "invalid", ...
    with_problems: bool | None = None  # True: hands with an error or warning; False: none
    tag: str | None = None  # hands the user tagged so (``analysis.storage.memory``)
    # a person's names, each "site:name" (``memory.names_of``): their rows stand for the
    # one ``player`` a figure is asked of, and their hands for ``player``'s
    names: tuple[str, ...] | None = None
    samples: bool | None = None  # True: the bundled sample hands only; False: none of them
    # the IANA zone whose days ``date_from`` and ``date_to`` are; None: UTC's (the stored
    # days).  The display zone's, set by the pages (``ui.scope``), never a saved set's
    zone: str | None = None

    def where(self, player: str | None = None) -> tuple[str, list[Any]]:
        """A SQL condition over ``player_hands`` and its parameters; ``player`` keeps only
        that player's rows (the statistics of one player)."""
        named = self.player is not None
        return _joined(
            ("site = ?", self.site),
            ("game = ?", self.game),
            ("stakes = ?", self.stakes),
            ("currency = ?", self.currency),
            ("position = ?", None if named else self.position),
            ("player = ?", player if self.names is None else None),
            (NAMED.format(s="site", p="player"), _names(self.names)),
            self._days("time", WRITTEN_ROWS),
            ("players >= ?", self.players_min),
            ("players <= ?", self.players_max),
            (_tournament(self.tournament), self.tournament),
            ("hand IN (SELECT id FROM hands WHERE status = 'ok')", self.valid_only or None),
            (
                "hand IN (SELECT hand FROM player_hands WHERE player = ? AND position = ?)",
                (self.player, self.position) if named and self.position is not None else None,
            ),
            (
                "hand IN (SELECT hand FROM seats WHERE player = ?)",
                self.player if self.position is None else None,
            ),
            ("hand IN (SELECT id FROM hands WHERE status = ?)", self.status),
            (f"hand IN (SELECT id FROM hands WHERE {_problems(self.with_problems)})",
             self.with_problems),
            (f"hand IN (SELECT id FROM hands WHERE {_TAGGED.format(a='hands')})", self.tag),
            (f"hand {_samples(self.samples)} (SELECT id FROM hands WHERE {SAMPLE_HANDS})",
             self.samples),
        )

    def where_cells(
        self, player: str | None = None, days: bool = True
    ) -> tuple[str, list[Any]] | None:
        """``where`` over ``stat_cells`` (``analysis.storage.stat_cells``; ``days=False``:
        ``draw_cells``, which keep no day), or ``None`` when a field asks what the cells do
        not keep: the hands' verdicts (``valid_only``, ``status``, ``with_problems``),
        whether they are samples, another player's presence or position, the user's tags,
        a person's several names, and days where the cells keep none or that are not
        UTC's (``utc_days``: the cells keep UTC days)."""
        if self.valid_only or self.status is not None or self.with_problems is not None:
            return None
        if self.tag is not None or self.names is not None:
            return None
        if self.samples is not None:
            return None
        dated = self.date_from is not None or self.date_to is not None
        if dated and (not days or not self.utc_days):
            return None
        if self.player is not None:
            return None
        return _joined(
            ("site = ?", self.site),
            ("game = ?", self.game),
            ("stakes = ?", self.stakes),
            ("currency = ?", self.currency),
            ("position = ?", self.position),
            ("player = ?", player),
            ("day >= ?", self.date_from),
            ("day < ?", _day_after(self.date_to)),
            ("players >= ?", self.players_min),
            ("players <= ?", self.players_max),
            ("tournament" if self.tournament else "NOT tournament", self.tournament),
        )

    def where_hands(
        self, alias: str = "h", span: tuple[int, int] | None = None,
        among: Sequence[int] | None = None,
    ) -> tuple[str, list[Any]]:
        """A SQL condition over ``hands AS alias`` and its parameters.  The stakes label,
        the positions and the players dealt in are the statistics' rows' (``player_hands``).
        ``span``: the least and greatest ``hands.id`` asked about, which the lookups in
        ``seats`` and ``player_hands`` are pruned to (their zone maps on ``hand``);
        ``among``: the only ids asked about (with ``span``), which the lookups are
        restricted to as well, so they compare names in those hands' rows only (a fifth
        of the time of a semi-join over the span's rows, measured at a million hands)."""
        a = alias
        within, within_params = "", list[Any]()
        if span is not None:
            within, within_params = " AND {t}.hand BETWEEN ? AND ?", [span[0], span[1]]
        if span is not None and among is not None:
            within += " AND {t}.hand IN (SELECT unnest(?::BIGINT[]))"
            within_params.append(list(among))
        ph, ph_params = _joined(
            ("ph.stakes = ?", self.stakes),
            ("ph.position = ?", self.position),
            ("ph.player = ?", self.player if self.position is not None else None),
            ("ph.players >= ?", self.players_min),
            ("ph.players <= ?", self.players_max),
        )
        return _joined(
            (f"EXISTS (SELECT 1 FROM seats s WHERE s.hand = {a}.id AND s.player = ?"
             f"{within.format(t='s')})",
             None if self.player is None else (self.player, *within_params)),
            (f"{a}.site = ?", self.site),
            (f"{a}.game = ?", self.game),
            (f"{a}.status = ?", self.status),
            (f"{a}.currency = ?", self.currency),
            self._days(f"{a}.time", f"{a}.{WRITTEN}"),
            (f"{a}.{_tournament(self.tournament)}", self.tournament),
            (f"{a}.status = 'ok'", self.valid_only or None),
            (_problems(self.with_problems, f"{a}."), self.with_problems),
            (_TAGGED.format(a=a), self.tag),
            (f"EXISTS (SELECT 1 FROM seats n WHERE n.hand = {a}.id AND "
             f"{NAMED.format(s=f'{a}.site', p='n.player')})", _names(self.names)),
            (f"{'' if self.samples else 'NOT '}({a}.{SAMPLE_HANDS})", self.samples),
            (
                f"EXISTS (SELECT 1 FROM player_hands ph WHERE ph.hand = {a}.id AND {ph}"
                f"{within.format(t='ph')})",
                (*ph_params, *within_params) if ph_params else None,
            ),
        )

    @property
    def utc_days(self) -> bool:
        """Whether the days asked start and end at UTC midnights (no days, UTC, or a zone
        at offset zero then): what the summary cells, keyed by UTC day, can answer."""
        clock, moments = self._bounds()
        return moments == clock

    def _bounds(self) -> tuple[Bounds, Bounds]:
        """The days' bounds as clocks (midnights as written) and as the stored UTC
        moments of the zone's midnights: one computation for ``utc_days`` and ``_days``."""
        return (day_bounds(self.date_from, self.date_to, None),
                day_bounds(self.date_from, self.date_to, self.zone))

    def _days(self, column: str, written: str) -> tuple[str, object]:
        """The days' condition on the stored time ``column`` and its parameters (a
        ``_joined`` pair; none without days): from the zone's midnight of the first day to
        before the one after the last, as UTC moments; a hand ``written`` (SQL) without a
        zone compared with its clock as written.  Where ``written`` asks ``hands`` (over
        ``player_hands``), its ``{band}`` narrows the hands asked to those between a
        midnight as written and the zone's, the only times whose day the flag decides;
        the times between the outer bounds are a plain range DuckDB prunes by, before the
        CASE (``docs/statistics.md`` has the figures)."""
        if self.date_from is None and self.date_to is None:
            return "", None
        clock, moments = self._bounds()
        by_clock = between(column, clock)
        if moments == clock:
            return by_clock
        by_moment = between(column, moments)
        outer = between(column, (_least(clock[0], moments[0]), _most(clock[1], moments[1])))
        edges = [tuple(sorted((c, m))) for c, m in zip(clock, moments, strict=True)
                 if c is not None and m is not None]
        band = [b for edge in edges for b in edge] if "{band}" in written else []
        asked = written.format(band=" OR ".join("(time >= ? AND time < ?)" for _ in edges))
        return (f"{outer[0]} AND CASE WHEN {asked} THEN {by_clock[0]} ELSE {by_moment[0]} END",
                (*outer[1], *band, *by_clock[1], *by_moment[1]))


NO_FILTERS = Filters()
# a hand whose time is its clock as written, in no zone (``hands``: NULL is read as UTC)
WRITTEN = "time_utc IS FALSE"
# a ``player_hands`` row of such a hand, among the hands whose time meets ``{band}``
WRITTEN_ROWS = f"hand IN (SELECT id FROM hands WHERE {WRITTEN} AND ({{band}}))"
# a hand (``hands AS a``) the user gave the tag ``?``; tags are keyed by the hand's key,
# which survives reverify and a re-import, and stored as ``memory.tag_text`` writes them
_TAGGED = "EXISTS (SELECT 1 FROM hand_tags t WHERE t.key = {a}.key AND t.tag = ?)"
# a row of one of a person's names: its site and player, "site:name", in the list ``?``
NAMED = "list_contains(?::VARCHAR[], {s} || ':' || {p})"
# the bundled sample hands, over ``hands`` (``analysis.storage.samples`` names their run)
SAMPLE_HANDS = (
    "batch IN (SELECT id FROM import_batches WHERE run = "
    "(SELECT value FROM meta WHERE name = 'samples'))"
)


def _names(names: tuple[str, ...] | None) -> tuple[list[str]] | None:
    """The names as one list parameter (a tuple of parameters to ``_joined``)."""
    return None if names is None else (list(names),)


def _joined(*conditions: tuple[str, object]) -> tuple[str, list[Any]]:
    """The conditions whose value is not ``None``, joined with AND, and their parameters:
    the value itself for one ``?``, each item of a tuple for several, none for no ``?``."""
    parts: list[str] = []
    params: list[Any] = []
    for sql, value in conditions:
        if value is None:
            continue
        parts.append(sql)
        if isinstance(value, tuple):
            params.extend(value)
        elif "?" in sql:
            params.append(value)
    return (" AND ".join(parts) or "TRUE"), params


def _day_after(day: date | None) -> date | None:
    return None if day is None else day + timedelta(days=1)


# the first and the end (exclusive) of a span of days, as stored times; None: open there
Bounds = tuple[datetime | None, datetime | None]


def day_bounds(first: date | None, last: date | None, zone: str | None) -> Bounds:
    """The stored UTC moments (naive) at which ``zone`` (an IANA name; None: UTC, or a
    clock in no zone) starts the day ``first`` and the day after ``last``: the inclusive
    days ``first`` to ``last`` of a person in that zone, as the stored times count them."""
    return _moment(_midnight(first), zone), _moment(_midnight(_day_after(last)), zone)


def _least(a: datetime | None, b: datetime | None) -> datetime | None:
    return None if a is None or b is None else min(a, b)


def _most(a: datetime | None, b: datetime | None) -> datetime | None:
    return None if a is None or b is None else max(a, b)


def _midnight(day: date | None) -> datetime | None:
    return None if day is None else datetime.combine(day, time())


def _moment(clock: datetime | None, zone: str | None) -> datetime | None:
    """The UTC moment (naive, as stored) at which ``zone``'s clock reads ``clock``."""
    if clock is None or zone is None:
        return clock
    return clock.replace(tzinfo=ZoneInfo(zone)).astimezone(UTC).replace(tzinfo=None)


def zone_day(moment: datetime | None, zone: str | None) -> date | None:
    """The day of ``zone`` (None: UTC) on which a stored UTC moment (naive) falls: the
    day ``day_bounds`` counts it in."""
    if moment is None:
        return None
    if zone is None:
        return moment.date()
    return moment.replace(tzinfo=UTC).astimezone(ZoneInfo(zone)).date()


def between(column: str, bounds: Bounds) -> tuple[str, tuple[datetime, ...]]:
    """``low <= column < high``, either side open where its bound is ``None`` ("TRUE"
    when both are): the condition of a span of days (``day_bounds``) on a stored time."""
    parts = [(f"{column} >= ?", bounds[0]), (f"{column} < ?", bounds[1])]
    kept = [(sql, value) for sql, value in parts if value is not None]
    return (" AND ".join(sql for sql, _ in kept) or "TRUE",
            tuple(value for _, value in kept))


def _tournament(wanted: bool | None) -> str:
    return f"tournament_id IS {'NOT ' if wanted else ''}NULL"


def _problems(wanted: bool | None, prefix: str = "") -> str:
    return f"({prefix}errors + {prefix}warnings) {'>' if wanted else '='} 0"


def _samples(wanted: bool | None) -> str:
    return "IN" if wanted else "NOT IN"
