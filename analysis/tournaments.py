"""Tournament results: what each tournament cost a player and paid them, and the totals.

Read from ``tournaments`` and ``tournament_results`` (``analysis.storage.tournaments``),
filled from the sites' summaries and, where there is none, from the hands.  The default
player is the one each file is about (the summary's own player, the hero of the hands),
so a player known by two names at two sites sees both.  Totals are kept by currency:
dollars, euros, play money and player points are never added together.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from analysis.storage.db import Connection
from analysis.storage.filters import between, day_bounds, zone_day
from engine.tournament import PLAY_MONEY, entry_cost


@dataclass(frozen=True, slots=True)
class TournamentFilters:
    """Which tournaments: the player's (None: each file's own player), a site, a game
    key or name, a day range (by start, days of ``zone``), a kind and a buy-in per entry
    in hundredths."""

    player: str | None = None
    site: str | None = None
    game: str | None = None
    date_from: date | None = None
    date_to: date | None = None
    kind: str | None = None
    buy_in: int | None = None
    currency: str | None = None
    # a person's names, each "site:name" (``memory.names_of``): their results, for
    # ``player``, which then only names them
    names: tuple[str, ...] | None = None
    # the IANA zone whose days ``date_from`` and ``date_to`` are (the display zone, as
    # ``Filters.zone``); None: UTC's.  Starts are stored as UTC moments
    zone: str | None = None


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """One player's tournament; its fields are ``drawlab tournaments --json``'s keys
    (``JSON_KEYS``) and a few more for the page (``kinds``, ``ticket``, ``running``)."""

    site: str
    tournament_id: str
    name: str
    game: str
    buy_in: int
    fee: int
    bounty: int
    currency: str
    entrants: int | None
    prize_pool: int | None
    started: datetime | None
    finished: datetime | None
    player: str
    place: int | None
    prize: int
    entries: int
    rebuys: int
    addons: int
    bounties_won: int
    cost: int
    net: int
    kinds: tuple[str, ...] = ()
    ticket: str = ""
    running: bool = False

    @property
    def in_the_money(self) -> bool:
        return self.place is not None and (self.prize > 0 or bool(self.ticket))

    def as_json(self) -> dict[str, Any]:
        """The ``--json`` object: amounts in cents, whole chips for play money."""
        scale = 100 if self.currency == PLAY_MONEY else 1
        out: dict[str, Any] = {}
        for key in JSON_KEYS:
            value = getattr(self, key)
            if key in _AMOUNTS and value is not None:
                value //= scale
            elif isinstance(value, datetime):
                value = value.isoformat(sep=" ") + "Z"
            out[key] = value
        return out


JSON_KEYS = (
    "site", "tournament_id", "name", "game", "buy_in", "fee", "bounty", "currency",
    "entrants", "prize_pool", "started", "finished", "player", "place", "prize", "entries",
    "rebuys", "addons", "bounties_won", "cost", "net",
)
_AMOUNTS = frozenset(("buy_in", "fee", "bounty", "prize_pool", "prize", "bounties_won",
                      "cost", "net"))


@dataclass(frozen=True, slots=True)
class Totals:
    """One currency's totals; ``roi`` is net over cost, ``itm`` the share of finished
    tournaments with a prize, ``average_finish`` the mean place (None without any)."""

    currency: str
    tournaments: int
    cost: int
    prizes: int
    bounties: int
    net: int
    roi: float | None
    itm: float | None
    average_finish: float | None


_SELECT = """
SELECT t.site, t.tournament_id, t.name, coalesce(t.game, t.game_text) AS game, t.buy_in,
       t.fee, t.bounty, t.currency, t.entrants, t.prize_pool, t.started, t.finished,
       r.player, r.place, r.prize, r.entries, r.rebuys, r.addons, r.bounties_won,
       r.paid_extra, t.rebuy_cost, t.addon_cost, t.kinds, r.ticket, t.running
FROM tournament_results r
JOIN tournaments t USING (site, tournament_id)
"""


def tournament_results(db: Connection, f: TournamentFilters) -> list[TournamentResult]:
    """The filtered results, newest first (a tournament without a start time last)."""
    where, params = _where(f)
    rows = db.execute(
        f"{_SELECT} WHERE {where} ORDER BY t.started DESC NULLS LAST, t.site, t.tournament_id",
        params,
    ).fetchall()
    return [_result(row) for row in rows]


def _where(f: TournamentFilters) -> tuple[str, list[object]]:
    clauses: list[str] = ["true"]
    params: list[object] = []
    if f.names is not None:
        clauses.append("list_contains(?::VARCHAR[], r.site || ':' || r.player)")
        params.append(list(f.names))
    elif f.player is None:
        clauses.append("r.source IN ('summary', 'hands')")
    else:
        clauses.append("r.player = ?")
        params.append(f.player)
    for column, value in (("t.site", f.site), ("t.currency", f.currency)):
        if value is not None:
            clauses.append(f"{column} = ?")
            params.append(value)
    if f.game is not None:
        clauses.append("(t.game = ? OR t.game_text = ?)")
        params += [f.game, f.game]
    days, bounds = between("t.started", day_bounds(f.date_from, f.date_to, f.zone))
    if bounds:
        clauses.append(days)
        params += bounds
    if f.kind is not None:
        clauses.append("list_contains(string_split(t.kinds, ','), ?)")
        params.append(f.kind)
    if f.buy_in is not None:
        clauses.append("t.buy_in + t.fee + t.bounty = ?")
        params.append(f.buy_in)
    return " AND ".join(clauses), params


def _result(row: tuple[Any, ...]) -> TournamentResult:
    (site, tid, name, game, buy_in, fee, bounty, currency, entrants, pool, started,
     finished, player, place, prize, entries, rebuys, addons, bounties_won, paid_extra,
     rebuy_cost, addon_cost, kinds, ticket, running) = row
    cost = entry_cost(entries, buy_in + fee + bounty,
                      rebuys * rebuy_cost + addons * addon_cost, paid_extra)
    return TournamentResult(
        site=site, tournament_id=tid, name=name, game=game or "", buy_in=buy_in, fee=fee,
        bounty=bounty, currency=currency, entrants=entrants, prize_pool=pool,
        started=started, finished=finished, player=player, place=place, prize=prize,
        entries=entries, rebuys=rebuys, addons=addons, bounties_won=bounties_won,
        cost=cost, net=prize + bounties_won - cost,
        kinds=tuple(k for k in kinds.split(",") if k), ticket=ticket, running=running,
    )


def start_days(results: list[TournamentResult],
               zone: str | None = None) -> tuple[date, date] | None:
    """The first and last day the results started on in ``zone`` (None: UTC), as
    ``TournamentFilters`` cuts days: what a date picker offers; None without a start."""
    days = [d for d in (zone_day(r.started, zone) for r in results) if d is not None]
    return (min(days), max(days)) if days else None


def totals(results: list[TournamentResult]) -> list[Totals]:
    """The totals of each currency, the most played first."""
    by: dict[str, list[TournamentResult]] = {}
    for r in results:
        by.setdefault(r.currency, []).append(r)
    out = []
    for currency, group in sorted(by.items(), key=lambda item: (-len(item[1]), item[0])):
        cost = sum(r.cost for r in group)
        net = sum(r.net for r in group)
        placed = [r.place for r in group if r.place is not None]
        out.append(Totals(
            currency=currency, tournaments=len(group), cost=cost,
            prizes=sum(r.prize for r in group), bounties=sum(r.bounties_won for r in group),
            net=net, roi=net / cost if cost else None,
            itm=sum(r.in_the_money for r in group) / len(placed) if placed else None,
            average_finish=sum(placed) / len(placed) if placed else None,
        ))
    return out


@dataclass(frozen=True, slots=True)
class Group:
    """The results of one game or one buy-in: how many, what they cost and left."""

    label: str
    tournaments: int
    cost: int
    net: int
    roi: float | None
    itm: float | None


def by(results: list[TournamentResult], key: str) -> list[Group]:
    """Results grouped by ``"game"`` or ``"buy_in"`` (buy-in, fee and bounty per entry,
    in hundredths); one currency's results at a time."""
    groups: dict[str, list[TournamentResult]] = {}
    for r in results:
        label = r.game if key == "game" else str(r.buy_in + r.fee + r.bounty)
        groups.setdefault(label, []).append(r)
    out = []
    if key == "game":  # the most played first; buy-ins from the smallest up
        ordered = sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))
    else:
        ordered = sorted(groups.items(), key=lambda item: int(item[0]))
    for label, group in ordered:
        cost = sum(r.cost for r in group)
        net = sum(r.net for r in group)
        placed = [r for r in group if r.place is not None]
        out.append(Group(label, len(group), cost, net, net / cost if cost else None,
                         sum(r.in_the_money for r in placed) / len(placed) if placed else None))
    return out


def profit_curve(results: list[TournamentResult]) -> list[tuple[int, datetime | None, int]]:
    """The running net after each tournament, oldest first: (number, start, net so far)."""
    ordered = sorted(results, key=lambda r: (r.started is None, r.started or datetime.min))
    out, total = [], 0
    for i, r in enumerate(ordered, 1):
        total += r.net
        out.append((i, r.started, total))
    return out


def tournament_hand_ids(db: Connection, site: str, tournament_id: str) -> list[int]:
    """The stored hands of a tournament, in the order they were played."""
    rows = db.execute(
        "SELECT id FROM hands WHERE site = ? AND tournament_id = ? ORDER BY time, id",
        [site, tournament_id],
    ).fetchall()
    return [int(row[0]) for row in rows]
