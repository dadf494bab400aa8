"""What a player looks at while playing: the current session and a HUD of each table.

Both read the tables a watcher (``drawlab import --watch``) fills as hands are played.
Hand times are the site's clock, which is not this machine's (another zone, or a file
from years ago), so "recent" for hands is measured back from the latest hand stored,
and "live" (hands arriving now) from the import batches' finishing times, which are
this machine's clock.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

import pandas as pd

from analysis.statistics.definitions import STAT_BY_KEY, StatDef, all_stats, stat_by_key
from analysis.statistics.figures import (
    SESSION_GAP,
    hero_name,
    player_stats,
    results,
    sessions_of,
    summary,
)
from analysis.storage import memory, settings
from analysis.storage.db import Connection, one
from analysis.storage.filters import NO_FILTERS, Filters
from engine.record import Game

LIVE_WINDOW = timedelta(minutes=10)  # a hand imported this recently: the session is live
HUD_WINDOW = timedelta(minutes=15)  # a table with a hand this close to the latest one
SESSION_LOOKBACK = timedelta(hours=24)  # how far back the current session is looked for
HUD_KEYS = ("vpip", "pfr", "three_bet", "steal", "fold_to_steal", "drawn_1", "drawn_2",
            "drawn_3", "pat_1", "snow", "break", "wtsd")
HUD_STATS: tuple[StatDef, ...] = tuple(STAT_BY_KEY[k] for k in HUD_KEYS)
# the settings (``analysis.storage.settings``) the live pages keep
SESSION_GAP_SETTING = "session_gap_minutes"
HUD_WINDOW_SETTING = "hud_window_minutes"
HUD_COLUMNS_SETTING = "hud_columns:{game}"

Band = Literal["low", "mid", "high"]


@dataclass(frozen=True)
class HudColumn:
    """One statistic the HUD shows and its colour range: a figure under ``low`` is low
    (tight, passive), over ``high`` high (loose, aggressive), between them middling.  The
    bounds are in the figure's shown unit: percent for a rate, cards or a ratio else."""

    key: str
    low: float | None = None
    high: float | None = None

    @property
    def stat(self) -> StatDef:
        return stat_by_key(self.key)

    def band(self, value: float | None) -> Band | None:
        """Where ``value`` (a ratio as stored: 0.25 for a rate of 25 %) falls; None
        without a value or without a range."""
        if value is None or math.isnan(value) or (self.low is None and self.high is None):
            return None
        shown = 100 * value if self.stat.kind == "rate" else value
        if self.low is not None and shown < self.low:
            return "low"
        if self.high is not None and shown > self.high:
            return "high"
        return "mid"


def _bound(value: object) -> float | None:
    return None if value is None else float(value)  # type: ignore[arg-type]


def _columns(*spec: tuple[str, float | None, float | None]) -> tuple[HudColumn, ...]:
    return tuple(HudColumn(k, _bound(low), _bound(high)) for k, low, high in spec)


# What a draw player reads first, with the ranges regulars use: in triple draw (and
# Badugi) a player sees many more pots than in a single draw, where one draw decides.
_TRIPLE = _columns(
    ("vpip", 25, 45), ("pfr", 15, 30), ("three_bet", 5, 12), ("steal", 30, 50),
    ("fold_to_steal", 50, 75), ("drawn_1", 1.2, 2.2), ("drawn_2", 0.8, 1.5),
    ("drawn_3", 0.5, 1.2), ("pat_1", 5, 15), ("snow", None, 10), ("break", None, 30),
    ("wtsd", 25, 40),
)
_SINGLE = _columns(
    ("vpip", 18, 35), ("pfr", 12, 25), ("three_bet", 4, 10), ("steal", 30, 50),
    ("fold_to_steal", 50, 75), ("drawn_1", 1.0, 2.0), ("pat_1", 10, 25),
    ("snow", None, 10), ("break", None, 30), ("wtsd", 20, 35),
)
HUD_DEFAULTS: dict[str, tuple[HudColumn, ...]] = {
    Game.TRIPLE_DRAW_27: _TRIPLE, Game.TRIPLE_DRAW_A5: _TRIPLE, Game.BADUGI: _TRIPLE,
    Game.SINGLE_DRAW_27: _SINGLE, Game.SINGLE_DRAW_A5: _SINGLE, Game.FIVE_CARD_DRAW: _SINGLE,
}


def hud_columns(con: Connection, game: str | None) -> tuple[HudColumn, ...]:
    """The statistics the HUD shows for ``game``, in order, with their colour ranges: the
    user's choice (``set_hud_columns``) or the game's default.  A choice that no longer
    reads (a statistic since removed, a player's own whose file went) falls back to what
    is left of it, or the default."""
    default = HUD_DEFAULTS.get(game or "", _TRIPLE)
    text = settings.get(con, HUD_COLUMNS_SETTING.format(game=game or ""), "")
    if not text:
        return default
    try:
        stored = json.loads(text)
        known = {stat.key for stat in all_stats()}  # a player's own too: summed cells as well
        chosen = tuple(HudColumn(str(c["key"]), _bound(c.get("low")), _bound(c.get("high")))
                       for c in stored if str(c["key"]) in known)
    except (ValueError, TypeError, KeyError, AttributeError):
        return default
    return chosen or default


def set_hud_columns(con: Connection, game: str | None,
                    columns: Sequence[HudColumn] | None) -> None:
    """Keep the HUD's statistics and ranges for ``game``; None: back to the default."""
    text = "" if columns is None else json.dumps(
        [{"key": c.key, "low": c.low, "high": c.high} for c in columns])
    settings.put(con, HUD_COLUMNS_SETTING.format(game=game or ""), text)


def minutes_setting(con: Connection, name: str, default: timedelta) -> timedelta:
    """A kept number of minutes (the session gap, the HUD's window); the default when it
    is unset or does not read as a positive number."""
    text = settings.get(con, name, "")
    try:
        minutes = float(text)
    except ValueError:
        return default
    return timedelta(minutes=minutes) if 0 < minutes < 1e7 else default


def set_minutes(con: Connection, name: str, value: timedelta) -> None:
    settings.put(con, name, f"{value.total_seconds() / 60:g}")


@dataclass(frozen=True)
class LiveSession:
    """A session of the player (hands no more than the chosen gap apart)."""

    player: str
    start: datetime
    end: datetime
    hands: int
    net: int  # hundredths, summed over ``currencies``
    bb_per_100: float
    currencies: tuple[str, ...]  # more than one: ``net`` adds unlike money
    live: bool  # the latest session, and a hand was imported in the last ``LIVE_WINDOW``
    last_import: datetime | None
    # a person's names, each "site:name" (``Filters.names``): the session counts them all
    names: tuple[str, ...] | None = None
    site: str | None = None  # the player's site (``Filters.site``); None: every site


def last_import(con: Connection) -> datetime | None:
    """When the latest import that added hands finished (this machine's clock)."""
    row = one(con, "SELECT max(finished) FROM import_batches WHERE added > 0")
    return row[0] if row and row[0] is not None else None


def _session_rows(con: Connection, where: str, params: list[Any],
                  since: datetime | None = None) -> pd.DataFrame:
    """The timed rows ``sessions_of`` splits, oldest first (from ``since`` on)."""
    after = "" if since is None else " AND time >= ?"
    return con.execute(
        f"""
        SELECT hand, time, net, net_showdown, net_nonshowdown,
               coalesce(net::DOUBLE / nullif(big_bet, 0), 0) AS net_bb, big_bet
        FROM player_hands WHERE {where} AND time IS NOT NULL{after} ORDER BY time, hand
        """,
        [*params, *([] if since is None else [since])],
    ).df()


def player_sessions(
    con: Connection, player: str | None = None, filters: Filters = NO_FILTERS,
    gap: timedelta = SESSION_GAP, now: datetime | None = None,
) -> list[LiveSession]:
    """Every session of ``player`` (default the hero) among the hands the filters keep,
    newest first: hands no more than ``gap`` apart.  With ``filters.names``
    (``memory.person_filters``) ``player`` is a person; ``filters.site`` keeps one site."""
    who = player or hero_name(con, filters)
    if who is None:
        return []
    where, params = filters.where(who)
    rows = _session_rows(con, where, params)
    return _sessions(con, who, filters, sessions_of(rows, gap), now)[::-1]


def current_session(
    con: Connection, player: str | None = None, now: datetime | None = None,
    filters: Filters = NO_FILTERS, gap: timedelta = SESSION_GAP,
) -> LiveSession | None:
    """The latest session of ``player`` (default the hero) among the hands the filters
    keep (``valid_only``: the hands with errors left out); None without timed hands.
    With ``filters.names`` (``memory.person_filters``) ``player`` is a person, and the
    session counts the hands of every name of theirs.  Reads only the last
    ``SESSION_LOOKBACK`` of hands, where ``player_sessions`` reads them all."""
    who = player or hero_name(con, filters)
    if who is None:
        return None
    where, params = filters.where(who)
    latest = one(con, f"SELECT max(time) FROM player_hands WHERE {where}", params)
    if latest is None or latest[0] is None:
        return None
    rows = _session_rows(con, where, params, latest[0] - SESSION_LOOKBACK)
    found = _sessions(con, who, filters, sessions_of(rows, gap), now)
    return found[-1] if found else None


def _sessions(con: Connection, who: str, filters: Filters, sessions: pd.DataFrame,
              now: datetime | None) -> list[LiveSession]:
    """``sessions_of``'s frame as ``LiveSession`` values, oldest first, each with the
    currencies of its hands; only the last one can be live."""
    if sessions.empty:
        return []
    where, params = filters.where(who)
    spans = [(pd.Timestamp(s).to_pydatetime(), pd.Timestamp(e).to_pydatetime())
             for s, e in zip(sessions["start"], sessions["end"], strict=True)]
    kinds = con.execute(
        "SELECT DISTINCT s.i, coalesce(currency, '') FROM player_hands p, "
        "(SELECT unnest(range(?)) AS i, unnest(?::TIMESTAMP[]) AS s, "
        "unnest(?::TIMESTAMP[]) AS e) s "
        f"WHERE {where} AND p.time BETWEEN s.s AND s.e ORDER BY 1, 2",
        [len(spans), [a for a, _ in spans], [b for _, b in spans], *params],
    ).fetchall()
    currencies: dict[int, list[str]] = {}
    for i, c in kinds:
        currencies.setdefault(int(i), []).append(str(c))
    imported = last_import(con)
    clock = now or datetime.now()
    out: list[LiveSession] = []
    for i, (row, (start, end)) in enumerate(
            zip(sessions.to_dict("records"), spans, strict=True)):
        latest = i == len(spans) - 1
        out.append(LiveSession(
            player=who, start=start, end=end, hands=int(row["hands"]), net=int(row["net"]),
            bb_per_100=float(row["bb_per_100"]),
            currencies=tuple(currencies.get(i, [])),
            live=latest and imported is not None and clock - imported <= LIVE_WINDOW,
            last_import=imported, names=filters.names, site=filters.site,
        ))
    return out


def session_hands(
    con: Connection, session: LiveSession, limit: int = 10
) -> pd.DataFrame:
    """The session's latest hands, newest first: ``id`` (for the replayer), the site's
    ``hand_id``, ``time``, ``table_name``, ``position``, ``net`` (hundredths),
    ``final_cards``, ``status``, ``time_utc`` (``analysis.times.hand_clock``); a person's:
    the hands of every name of theirs."""
    where, params = Filters(names=session.names, site=session.site).where(session.player)
    return con.execute(
        f"""
        SELECT h.id, h.hand_id, p.time, h.table_name, p.position, p.net, p.final_cards,
               h.status, h.time_utc
        FROM (SELECT * FROM player_hands WHERE {where}) p JOIN hands h ON h.id = p.hand
        WHERE p.time BETWEEN ? AND ?
        ORDER BY p.time DESC, p.hand DESC LIMIT ?
        """,
        [*params, session.start, session.end, limit],
    ).df()


@dataclass(frozen=True)
class HudTable:
    """One table with a recent hand: its opponents, seat by seat, with their figures."""

    site: str
    table: str
    last_hand: str  # the site's id of the table's latest hand
    time: datetime | None
    # seat, player, hands, then per column's statistic <key>, <key>_d; person: the person
    # (``drawlab alias``) a player is, whose figures count every name of theirs, or None
    players: pd.DataFrame
    tournament: str | None = None  # the tournament's id, for a tournament table
    game: str | None = None
    columns: tuple[HudColumn, ...] = _TRIPLE  # what the HUD shows for this game, in order
    time_utc: bool | None = None  # ``hands.time_utc`` of the latest hand

    @property
    def title(self) -> str:
        """What the table is called: a tournament's table by both numbers (PokerStars
        names it "<tournament> <table>"), then the hand."""
        table = self.table
        if self.tournament and table.startswith(f"{self.tournament} "):
            table = table[len(self.tournament) + 1:]
        where = f"tournament {self.tournament}, table {table}" if self.tournament else (
            f"table {table}")
        return f"{where} · hand {self.last_hand}"


def hud(
    con: Connection, hero: str | None = None, window: timedelta = HUD_WINDOW,
    filters: Filters = NO_FILTERS,
) -> list[HudTable]:
    """Each table with a hand within ``window`` of the latest hand stored, its players
    at that latest hand but the hero: the player the hand was dealt to ("Dealt to"),
    ``hero`` (default the detected one) and their other names (``drawlab alias``); each
    with the statistics of ``hud_columns`` for the table's game over all their hands and
    the sample (``<key>_d``) behind each.  Latest table first.  ``filters.valid_only``:
    hands with errors are neither a table's latest hand nor in any figure."""
    statuses = "('ok')" if filters.valid_only else "('ok', 'invalid')"
    latest = one(con, f"SELECT max(time) FROM hands WHERE status IN {statuses}")
    if latest is None or latest[0] is None:
        return []
    me = hero or hero_name(con, filters)
    tables = con.execute(
        f"""
        SELECT t.site, t.table_name, t.hand, t.t, h.game, h.hand_id, h.tournament_id,
               h.time_utc
        FROM (SELECT site, table_name, arg_max(id, time) AS hand, max(time) AS t
              FROM hands
              WHERE status IN {statuses} AND table_name IS NOT NULL AND time >= ?
              GROUP BY site, table_name) t JOIN hands h ON h.id = t.hand
        ORDER BY t.t DESC, t.site, t.table_name
        """,
        [latest[0] - window],
    ).fetchall()
    owners = {(a.site, a.player): a.person for a in memory.aliases(con)}
    heroes = {person for (_, name), person in owners.items() if name == me}  # his other names
    out: list[HudTable] = []
    for site, table, hand, when, game, hand_id, tournament, time_utc in tables:
        seated = [(seat, player) for seat, player in con.execute(
            "SELECT seat, player FROM seats WHERE hand = ? AND player IS DISTINCT FROM ? "
            "AND player NOT IN (SELECT player FROM player_hands WHERE hand = ? AND is_hero) "
            "ORDER BY seat",
            [hand, me, hand],
        ).fetchall() if owners.get((str(site), str(player))) not in heroes]
        columns = hud_columns(con, None if game is None else str(game))
        stats = tuple(c.stat for c in columns)
        figures = player_figures(con, [str(p) for _, p in seated], filters, stats)
        seats = pd.DataFrame(seated, columns=["seat", "player"])
        merged = _as_people(con, owners, str(site),
                            seats.merge(figures, on="player", how="left"), filters, stats)
        merged["hands"] = merged["hands"].fillna(0).astype("int64")
        out.append(HudTable(str(site), str(table), "" if hand_id is None else str(hand_id),
                            when, merged, None if tournament is None else str(tournament),
                            None if game is None else str(game), columns, time_utc))
    return out


def _as_people(con: Connection, owners: dict[tuple[str, str], str], site: str,
               seated: pd.DataFrame, filters: Filters = NO_FILTERS,
               stats: tuple[StatDef, ...] = HUD_STATS) -> pd.DataFrame:
    """The HUD rows with a ``person`` column: for a player whom ``drawlab alias`` made
    one person with other names (``owners``: (site, name) to person), the person, and the
    figures over every name of theirs (under ``filters``) in place of this name's alone."""
    seated = seated.assign(person=pd.Series(
        [owners.get((site, str(p))) for p in seated["player"]], index=seated.index, dtype=object))
    for at, person in seated["person"].items():
        counted = None if person is None else memory.person_filters(con, person, filters)
        if counted is None:
            continue
        values = {v.key: v for v in player_stats(con, str(person), counted)}
        seated.loc[at, "hands"] = results(con, str(person), counted).hands
        for stat in stats:
            value = values[stat.key]
            seated.loc[at, stat.key] = float("nan") if value.value is None else value.value
            seated.loc[at, f"{stat.key}_d"] = value.denominator
    return seated


def player_figures(con: Connection, players: Sequence[str],
                   filters: Filters = NO_FILTERS,
                   stats: tuple[StatDef, ...] = HUD_STATS) -> pd.DataFrame:
    """``player``, ``hands`` and each of ``stats`` with its sample, for ``players``."""
    columns = ["player", "hands", *(c for s in stats for c in (s.key, f"{s.key}_d"))]
    if not players:
        return pd.DataFrame(columns=columns)
    df = summary(con, filters, players=tuple(players), stats=stats)
    return df.loc[:, columns].reset_index(drop=True)
