"""What ``drawlab stats`` prints, from a database path: open, choose the player, report.

The command line only parses arguments and prints; choosing whose statistics to show and
turning them into text or JSON happens here so it can be tested without a shell.
"""

from __future__ import annotations

import contextlib
import sys
from dataclasses import asdict, replace
from typing import Any

import duckdb

from analysis import times
from analysis.faults import FAULTS
from analysis.sites import resolve_site, site_name
from analysis.statistics.figures import (
    hero_name,
    money_kinds,
    player_list,
    player_report,
    summary,
)
from analysis.statistics.text import render_players, render_report
from analysis.storage import db, memory
from analysis.storage.filters import Filters


class StatsError(Exception):
    """Why there is nothing to show: no database, no hands, no such player."""


def _say(text: str) -> None:
    """A word on standard error beside what a command prints (an older file's refill)."""
    print(text, file=sys.stderr, flush=True)


def open_database(path: str | None) -> duckdb.DuckDBPyConnection:
    """Open read-only: statistics only read, so they run beside a dashboard or an import.

    A database an older DrawLab laid out is first opened once for writing, which migrates
    it (as any writing open would), then read.  Another program writing the file (the
    watcher's short transactions, the dashboard) is waited for, up to ``db.LOCK_WAIT``.
    """
    target = db.resolve_path(path)
    try:
        try:
            return db.connect(target, read_only=True, wait=db.LOCK_WAIT)
        except db.SchemaOutdated as outdated:
            if outdated.newer:
                raise
            from analysis.pipeline.importer import open_database  # parses: only for an old file

            open_database(target, wait=db.LOCK_WAIT, told=_say).close()
            return db.connect(target, read_only=True, wait=db.LOCK_WAIT)
    except db.DatabaseMissing as e:  # nothing imported yet: nothing to show
        raise StatsError(str(e)) from e
    except (RuntimeError, duckdb.Error) as e:
        if isinstance(e, FAULTS):  # the file's fault: one sentence, as every command says it
            raise
        raise StatsError(str(e)) from e


def _choose(
    con: duckdb.DuckDBPyConnection, player: str | None, filters: Filters
) -> tuple[str, Filters]:
    """Whose statistics, and the filters that count them: a person (``drawlab alias``)
    counts every name of theirs, and is taken before a player of the same name."""
    if not db.has_player_hands(con):
        raise StatsError("the database has no statistics table yet; import hands first")
    person = None if player is None else memory.person_filters(con, player, filters)
    if player is not None and person is not None:
        return player, person
    return _player(con, player, filters), filters


def _player(con: duckdb.DuckDBPyConnection, player: str | None, filters: Filters) -> str:
    if player is not None:
        found = con.execute(
            "SELECT count(*) FROM player_hands WHERE player = ?", [player]
        ).fetchone()
        if not found or not found[0]:
            raise StatsError(f"no hands for player {player!r}")
        return player
    hero = hero_name(con, filters)
    if hero is None:
        players = player_list(con, filters)
        if players.empty:
            raise StatsError("no hands match; import hands first or loosen the filters")
        raise StatsError(
            "no hero found (no 'Dealt to' lines); choose one with --player, e.g. "
            + ", ".join(players["player"].head(5))
        )
    return hero


def _site(con: duckdb.DuckDBPyConnection, filters: Filters) -> Filters:
    """``--site`` as a person writes it ("PokerStars", "full tilt"): the stored site it
    names, or an error listing the sites the database holds."""
    if filters.site is None or not db.has_player_hands(con):
        return filters
    stored = [str(r[0]) for r in con.execute(
        "SELECT DISTINCT site FROM player_hands ORDER BY site").fetchall()]
    site = resolve_site(filters.site, stored)
    if site is None:
        known = ", ".join(f"{site_name(s)} ({s})" for s in stored) or "none"
        raise StatsError(f"unknown site {filters.site!r}; this database holds: {known}")
    return replace(filters, site=site)


def _one_money(con: duckdb.DuckDBPyConnection, player: str,
               filters: Filters) -> tuple[Filters, list[str]]:
    """Money adds up within one currency or within tournament chips only: without
    ``--currency`` or ``--kind``, the player's most played kind, said in a note."""
    if filters.currency is not None or filters.tournament is not None:
        return filters, []
    kinds = money_kinds(con, filters, player)
    if len(kinds) < 2:
        return filters, []
    first = kinds.iloc[0]
    tournament, currency = bool(first["tournament"]), str(first["currency"])
    others = ", ".join(
        f"{'tournament' if t else 'cash'} {c} ({int(n):,} hands)"
        for t, c, n in zip(kinds["tournament"], kinds["currency"], kinds["hands"], strict=True)
    )
    note = (f"{'tournament' if tournament else 'cash'} {currency} only, {player}'s most "
            f"played money of {others}; --currency and --kind pick another")
    return replace(filters, tournament=tournament, currency=currency), [note]


def _same_money(filters: Filters, counted: Filters) -> Filters:
    """``filters`` with the money ``_one_money`` chose for ``counted`` (the filters that
    count a person's names), as the JSON states them."""
    return replace(filters, tournament=counted.tournament, currency=counted.currency)


def _zoned(con: duckdb.DuckDBPyConnection, filters: Filters,
           zone: str | None) -> tuple[Filters, list[str]]:
    """The filters with the zone whose days ``--from`` and ``--to`` are: ``zone``
    (``--zone``) where given, else the dashboard's display zone (a setting in the
    database; this computer's zone until the user picks one), so the command counts the
    days the dashboard shows.  Said in a note where days are asked."""
    try:
        filters = replace(filters, zone=times.day_zone(con, zone))
    except ValueError as e:
        raise StatsError(str(e)) from e
    if filters.date_from is None and filters.date_to is None:
        return filters, []
    source = "--zone" if zone is not None else "the display zone; --zone picks another"
    return filters, [f"days are {filters.zone or 'UTC'}'s ({source})"]


def _notes(con: duckdb.DuckDBPyConnection) -> list[str]:
    with contextlib.suppress(duckdb.Error):
        if db.facts_stale(con):
            return ["the statistics table is out of date with the stored hands; "
                    "re-import to refresh it"]
    return []


# said only where set: no ``drawlab stats`` option sets the first three, a person's names
# are said beside the report, and samples and tags, new since, leave the JSON of an
# unfiltered report as it was
_UNLESS_SET = ("player", "status", "with_problems", "samples", "tag", "names")


def _shown(filters: Filters) -> dict[str, Any]:
    """The filters as the JSON states them: every option of ``drawlab stats``, and the
    other fields where a caller set them (so an applied filter is never left unsaid)."""
    return {k: v for k, v in asdict(filters).items() if k not in _UNLESS_SET or v is not None}


def stats_json(
    path: str | None,
    player: str | None,
    filters: Filters,
    all_players: bool = False,
    min_hands: int = 0,
    zone: str | None = None,
) -> dict[str, Any]:
    """The report as JSON; ``zone`` is ``--zone`` (``_zoned``)."""
    con = open_database(path)
    try:
        filters, days = _zoned(con, _site(con, filters), zone)
        out: dict[str, Any] = {
            "database": db.resolve_path(path),
            "filters": _shown(filters),
            "notes": _notes(con) + days,
        }
        if all_players:
            if not db.has_player_hands(con):
                raise StatsError("the database has no statistics table yet; import hands first")
            df = summary(con, filters, cells=False)  # net_bb to the digit
            df = df[df["hands"] >= min_hands]
            clean = df.astype(object).where(df.notna(), None)
            out["players"] = [{str(k): v for k, v in r.items()}
                              for r in clean.to_dict(orient="records")]
            return out
        chosen, counted = _choose(con, player, filters)
        counted, money = _one_money(con, chosen, counted)
        filters = _same_money(filters, counted)
        out["filters"] = _shown(filters)
        out["notes"] += money
        out["player"] = chosen
        out["hero"] = hero_name(con, filters)
        if counted.names is not None:
            out["names"] = list(counted.names)
        out["report"] = player_report(con, chosen, counted).to_json()
        return out
    finally:
        con.close()


def stats_text(
    path: str | None,
    player: str | None,
    filters: Filters,
    all_players: bool = False,
    min_hands: int = 0,
    zone: str | None = None,
) -> str:
    """The report as text; ``zone`` is ``--zone`` (``_zoned``)."""
    con = open_database(path)
    try:
        filters, days = _zoned(con, _site(con, filters), zone)
        notes = [f"note: {n}" for n in _notes(con) + days]
        if all_players:
            if not db.has_player_hands(con):
                raise StatsError("the database has no statistics table yet; import hands first")
            df = summary(con, filters, cells=False)  # net_bb to the digit
            body = render_players(df[df["hands"] >= min_hands], limit=len(df))
        else:
            chosen, counted = _choose(con, player, filters)
            counted, money = _one_money(con, chosen, counted)
            notes += [f"note: {n}" for n in money]
            body = render_report(player_report(con, chosen, counted))
            if counted.names is not None:
                body = f"Person {chosen}: {', '.join(counted.names)}\n{body}"
        return "\n".join([*notes, body])
    finally:
        con.close()
