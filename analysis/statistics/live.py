"""What a player looks at while playing: the current session and a HUD of each table.

Both read the tables a watcher (``drawlab import --watch``) fills as hands are played.
Hand times are the site's clock, which is not this machine's (another zone, or a file
from years ago), so "recent" for hands is measured back from the latest hand stored,
and "live" (hands arriving now) from the import batches' finishing times, which are
this machine's clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

import pandas as pd

from analysis.statistics.definitions import STATS, StatDef
from analysis.statistics.figures import (
    SESSION_GAP,
    hero_name,
    player_stats,
    results,
    sessions_of,
    summary,
)
from analysis.storage import memory
from analysis.storage.db import Connection, one
from analysis.storage.filters import NO_FILTERS, Filters

LIVE_WINDOW = timedelta(minutes=10)  # a hand imported this recently: the session is live
HUD_WINDOW = timedelta(minutes=15)  # a table with a hand this close to the latest one
SESSION_LOOKBACK = timedelta(hours=24)  # how far back the current session is looked for
HUD_KEYS = ("vpip", "pfr", "three_bet", "steal", "fold_to_steal", "drawn_1", "drawn_2",
            "drawn_3", "pat_1", "snow", "break", "wtsd")
HUD_STATS: tuple[StatDef, ...] = tuple(s for k in HUD_KEYS for s in STATS if s.key == k)
HUD_LABELS: dict[str, str] = {s.key: s.label for s in HUD_STATS}
"""Each HUD statistic's column heading, from its declaration."""


@dataclass(frozen=True)
class LiveSession:
    """The player's latest session (hands no more than ``SESSION_GAP`` apart)."""

    player: str
    start: datetime
    end: datetime
    hands: int
    net: int  # hundredths, summed over ``currencies``
    bb_per_100: float
    currencies: tuple[str, ...]  # more than one: ``net`` adds unlike money
    live: bool  # a hand was imported in the last ``LIVE_WINDOW``
    last_import: datetime | None
    # a person's names, each "site:name" (``Filters.names``): the session counts them all
    names: tuple[str, ...] | None = None


def last_import(con: Connection) -> datetime | None:
    """When the latest import that added hands finished (this machine's clock)."""
    row = one(con, "SELECT max(finished) FROM import_batches WHERE added > 0")
    return row[0] if row and row[0] is not None else None


def current_session(
    con: Connection, player: str | None = None, now: datetime | None = None,
    filters: Filters = NO_FILTERS,
) -> LiveSession | None:
    """The latest session of ``player`` (default the hero) among the hands the filters
    keep (``valid_only``: the hands with errors left out); None without timed hands.
    With ``filters.names`` (``memory.person_filters``) ``player`` is a person, and the
    session counts the hands of every name of theirs."""
    who = player or hero_name(con, filters)
    if who is None:
        return None
    where, params = filters.where(who)
    latest = one(con, f"SELECT max(time) FROM player_hands WHERE {where}", params)
    if latest is None or latest[0] is None:
        return None
    rows = con.execute(
        f"""
        SELECT hand, time, net, net_showdown, net_nonshowdown,
               coalesce(net::DOUBLE / nullif(big_bet, 0), 0) AS net_bb, big_bet
        FROM player_hands WHERE {where} AND time >= ? ORDER BY time, hand
        """,
        [*params, latest[0] - SESSION_LOOKBACK],
    ).df()
    sessions = sessions_of(rows, SESSION_GAP)
    if sessions.empty:
        return None
    last = sessions.iloc[-1]
    start = pd.Timestamp(last["start"]).to_pydatetime()
    end = pd.Timestamp(last["end"]).to_pydatetime()
    currencies = tuple(
        str(c) for (c,) in con.execute(
            "SELECT DISTINCT coalesce(currency, '') FROM player_hands "
            f"WHERE {where} AND time BETWEEN ? AND ? ORDER BY 1",
            [*params, start, end],
        ).fetchall()
    )
    imported = last_import(con)
    clock = now or datetime.now()
    return LiveSession(
        player=who,
        start=start,
        end=end,
        hands=int(last["hands"]),
        net=int(last["net"]),
        bb_per_100=float(last["bb_per_100"]),
        currencies=currencies,
        live=imported is not None and clock - imported <= LIVE_WINDOW,
        last_import=imported,
        names=filters.names,
    )


def session_hands(
    con: Connection, session: LiveSession, limit: int = 10
) -> pd.DataFrame:
    """The session's latest hands, newest first: ``id`` (for the replayer), the site's
    ``hand_id``, ``time``, ``table_name``, ``position``, ``net`` (hundredths),
    ``final_cards``, ``status``; a person's: the hands of every name of theirs."""
    where, params = Filters(names=session.names).where(session.player)
    return con.execute(
        f"""
        SELECT h.id, h.hand_id, p.time, h.table_name, p.position, p.net, p.final_cards,
               h.status
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
    # seat, player, hands, then per HUD statistic <key>, <key>_d; person: the person
    # (``drawlab alias``) a player is, whose figures count every name of theirs, or None
    players: pd.DataFrame
    tournament: str | None = None  # the tournament's id, for a tournament table

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
    at that latest hand but the hero (and the hero's other names: ``drawlab alias``), each
    with ``HUD_STATS`` over all their hands and the sample (``<key>_d``) behind each.
    Latest table first.  ``filters.valid_only``: hands with errors are neither a table's
    latest hand nor in any figure."""
    statuses = "('ok')" if filters.valid_only else "('ok', 'invalid')"
    latest = one(con, f"SELECT max(time) FROM hands WHERE status IN {statuses}")
    if latest is None or latest[0] is None:
        return []
    me = hero or hero_name(con, filters)
    tables = con.execute(
        f"""
        SELECT site, table_name, arg_max(id, time) AS hand, max(time) AS t
        FROM hands
        WHERE status IN {statuses} AND table_name IS NOT NULL AND time >= ?
        GROUP BY site, table_name ORDER BY t DESC, site, table_name
        """,
        [latest[0] - window],
    ).fetchall()
    owners = {(a.site, a.player): a.person for a in memory.aliases(con)}
    heroes = {person for (_, name), person in owners.items() if name == me}  # his other names
    out: list[HudTable] = []
    for site, table, hand, when in tables:
        seated = [(seat, player) for seat, player in con.execute(
            "SELECT seat, player FROM seats WHERE hand = ? AND player IS DISTINCT FROM ? "
            "ORDER BY seat",
            [hand, me],
        ).fetchall() if owners.get((str(site), str(player))) not in heroes]
        hand_id = one(con, "SELECT hand_id, tournament_id FROM hands WHERE id = ?", [hand])
        figures = player_figures(con, [str(p) for _, p in seated], filters)
        seats = pd.DataFrame(seated, columns=["seat", "player"])
        merged = _as_people(con, owners, str(site),
                            seats.merge(figures, on="player", how="left"), filters)
        merged["hands"] = merged["hands"].fillna(0).astype("int64")
        out.append(HudTable(str(site), str(table), str(hand_id[0] if hand_id else ""),
                            when, merged,
                            None if not hand_id or hand_id[1] is None else str(hand_id[1])))
    return out


def _as_people(con: Connection, owners: dict[tuple[str, str], str], site: str,
               seated: pd.DataFrame, filters: Filters = NO_FILTERS) -> pd.DataFrame:
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
        for stat in HUD_STATS:
            value = values[stat.key]
            seated.loc[at, stat.key] = float("nan") if value.value is None else value.value
            seated.loc[at, f"{stat.key}_d"] = value.denominator
    return seated


def player_figures(con: Connection, players: Sequence[str],
                   filters: Filters = NO_FILTERS) -> pd.DataFrame:
    """``player``, ``hands`` and each HUD statistic with its sample, for ``players``."""
    columns = ["player", "hands", *(c for s in HUD_STATS for c in (s.key, f"{s.key}_d"))]
    if not players:
        return pd.DataFrame(columns=columns)
    df = summary(con, filters, players=tuple(players), stats=HUD_STATS)
    return df.loc[:, columns].reset_index(drop=True)
