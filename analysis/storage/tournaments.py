"""Tournament summaries into the database: once, and the latest word on a running one.

A tournament is one row of ``tournaments`` keyed by site and id; each player with a
result one row of ``tournament_results``.  A summary read again (the same figures, say
from a copy of the file) changes nothing; a summary of a tournament stored as still
running replaces it, and one stored as finished is not replaced by a running one.  The
player a summary is about keeps their own figures (re-entries, rebuys, bounties) over
what another summary lists of them; results told only by hands give way to a summary.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from typing import Literal

import pyarrow as pa

from analysis.storage.db import Connection, append_arrow, one
from analysis.storage.transactions import rollback
from engine.tournament import Finish, TournamentSummary

Stored = Literal["added", "replaced", "present", "kept"]
"""What storing a summary did: a new tournament, a newer summary of a stored one, the
same summary again, or an older (still running) summary left out."""

_TOURNAMENT_COLUMNS = (
    "site", "tournament_id", "name", "game_text", "game", "kinds", "currency", "buy_in",
    "fee", "bounty", "ticket_entry", "entrants", "prize_pool", "started", "finished",
    "running", "target", "rebuy_cost", "addon_cost", "total_rebuys", "total_addons",
    "source", "file", "line", "fingerprint",
)
_RESULT_COLUMNS = (
    "site", "tournament_id", "player", "place", "prize", "ticket", "entries", "rebuys",
    "addons", "paid_extra", "bounties_won", "knockouts", "source", "file", "line",
)


@dataclass(frozen=True, slots=True)
class Result:
    """One player's result row, as ``tournament_results`` holds it."""

    player: str
    place: int | None
    prize: int
    ticket: str
    entries: int
    rebuys: int
    addons: int
    paid_extra: int | None
    bounties_won: int
    knockouts: int
    source: str  # "summary": the file's own player; "listed"; "hands", "hands_listed"
    line: int


def tournament_row(s: TournamentSummary, source: str = "summary") -> dict[str, object]:
    """The ``tournaments`` row of a summary, its fingerprint over every figure it states."""
    row: dict[str, object] = {
        "site": s.site, "tournament_id": s.tournament_id, "name": s.name,
        "game_text": s.game_text, "game": s.game.value if s.game else None,
        "kinds": ",".join(sorted(s.kinds)), "currency": s.currency, "buy_in": s.buy_in,
        "fee": s.fee, "bounty": s.bounty, "ticket_entry": s.ticket_entry,
        "entrants": s.entrants, "prize_pool": s.prize_pool,
        "started": _naive(s.started), "finished": _naive(s.finished), "running": s.running,
        "target": s.target, "rebuy_cost": s.rebuy_cost, "addon_cost": s.addon_cost,
        "total_rebuys": s.total_rebuys, "total_addons": s.total_addons, "source": source,
        "file": s.file, "line": s.line,
    }
    figures = {k: v for k, v in row.items() if k not in ("file", "line")}
    figures["results"] = [_finish_figures(f) for f in s.finishes]
    figures["own"] = [s.player, s.place, s.prize, s.ticket, s.reentries, s.rebuys, s.addons,
                      s.paid_extra, s.bounties_won, s.knockouts]
    text = json.dumps(figures, default=str, sort_keys=True)
    row["fingerprint"] = hashlib.sha256(text.encode()).hexdigest()
    return row


def results_of(s: TournamentSummary, source: str = "summary") -> list[Result]:
    """Every listed player's result, and the file's own player's with their own figures
    (a player listed once per entry, ``name [2]``, is one result of several entries)."""
    listed: dict[str, Result] = {}
    for f in s.finishes:
        earlier = listed.get(f.player)
        if earlier is None or (f.place is not None and (earlier.place or 0) > f.place):
            entries = max(f.entry, earlier.entries if earlier else 1)
            kind = "listed" if source == "summary" else "hands_listed"
            listed[f.player] = Result(f.player, f.place, f.prize, f.ticket, entries, 0, 0,
                                      None, 0, 0, kind, f.line)
        else:
            listed[f.player] = replace(earlier, entries=max(earlier.entries, f.entry))
    if s.player:
        listed[s.player] = Result(s.player, s.place, s.prize, s.ticket, s.entries, s.rebuys,
                                  s.addons, s.paid_extra, s.bounties_won, s.knockouts,
                                  source, s.line)
    return list(listed.values())


def store_summary(db: Connection, s: TournamentSummary, source: str = "summary") -> Stored:
    """Store one summary in its own transaction; what it did (``Stored``).  ``source``
    "hands" is a tournament told by its hands, which a site's summary always replaces."""
    row = tournament_row(s, source)
    known = one(db, "SELECT fingerprint, running, source FROM tournaments "
                    "WHERE site = ? AND tournament_id = ?", [s.site, s.tournament_id])
    if known is not None and known[0] == row["fingerprint"]:
        return "present"
    if known is not None and known[2] == "summary" and (
        source != "summary" or (s.running and not known[1])
    ):
        return "kept"  # a finished tournament is not taken back to running
    db.execute("BEGIN TRANSACTION")
    try:
        db.execute("DELETE FROM tournaments WHERE site = ? AND tournament_id = ?",
                   [s.site, s.tournament_id])
        _insert(db, "tournaments", _TOURNAMENT_COLUMNS, [row])
        write_results(db, s.site, s.tournament_id, s.file, results_of(s, source))
        db.execute("COMMIT")
    except BaseException:
        rollback(db)
        raise
    return "added" if known is None else "replaced"


def write_results(
    db: Connection, site: str, tournament_id: str, file: str, results: list[Result]
) -> None:
    """Put ``results`` in, each over a result of lower standing for the same player
    (hands < listed < summary); call inside a transaction."""
    rank = {"hands_listed": 0, "hands": 0, "listed": 1, "summary": 2}
    stored = {
        player: source for player, source in db.execute(
            "SELECT player, source FROM tournament_results "
            "WHERE site = ? AND tournament_id = ?", [site, tournament_id]).fetchall()
    }
    rows = []
    for r in results:
        if r.player in stored and rank[stored[r.player]] > rank[r.source]:
            continue
        rows.append({"site": site, "tournament_id": tournament_id, "file": file, **_fields(r)})
    if rows:
        db.execute(
            "DELETE FROM tournament_results WHERE site = ? AND tournament_id = ? "
            "AND player IN (SELECT UNNEST(?::VARCHAR[]))",
            [site, tournament_id, [r["player"] for r in rows]],
        )
        _insert(db, "tournament_results", _RESULT_COLUMNS, rows)


def _insert(
    db: Connection, table: str, columns: tuple[str, ...], rows: list[dict[str, object]]
) -> None:
    """One bulk insert, as the hands' writer appends: DuckDB's ``executemany`` runs a
    statement a row, which made a summary of a few thousand finishers slow to store."""
    append_arrow(db, table, pa.Table.from_pylist([{c: r[c] for c in columns} for r in rows]))


def _fields(r: Result) -> dict[str, object]:
    return asdict(r)


def _finish_figures(f: Finish) -> list[object]:
    return [f.place, f.player, f.prize, f.ticket, f.entry]


def _naive(moment: datetime | None) -> datetime | None:
    """A UTC moment as DuckDB's TIMESTAMP holds it (no zone); a time whose zone the
    summary did not name stays as written."""
    if moment is not None and moment.tzinfo is not None:
        return moment.astimezone(UTC).replace(tzinfo=None)
    return moment
