"""Tournament results from the hands, for tournaments no summary was imported for.

The buy-in, fee, bounty and currency come from a hand's header (read again by its site
reader); the start and end from the first and last hand; the player is the hero of the
hands; places, prizes and bounties from the lines that end a tournament for a player
(``parser.tournament_lines``).  A result is stored as the tournament's ``hands`` row,
which a summary imported later replaces.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from analysis.storage.db import Connection
from analysis.storage.tournaments import store_summary
from engine.record import Hand
from engine.tournament import Finish, TournamentSummary
from parser.outcome import HandText
from parser.sources import site_reader
from parser.tournament_lines import TournamentLine, tournament_lines

_WORDS = ("%finished the tournament%", "%wins the tournament%", "%for eliminating%",
          "%for splitting the elimination%", "% re-buys and receives %",
          "% takes the add-on and receives %", "% wins an entry to tournament #%")


def results_from_hands(
    db: Connection, run: str | None = None, tournaments: list[str] | None = None
) -> int:
    """Store what the hands say of each tournament without a summary (those with a hand
    imported by ``run``, those named ``site:tournament_id`` in ``tournaments``, or every
    one); how many were stored new or changed."""
    where = "h.tournament_id IS NOT NULL"
    params: list[object] = []
    if tournaments is not None:
        where += " AND list_contains(?::VARCHAR[], h.site || ':' || h.tournament_id)"
        params.append(tournaments)
    if run is not None:
        where += (" AND (h.site, h.tournament_id) IN (SELECT site, tournament_id FROM hands "
                  "WHERE batch IN (SELECT id FROM import_batches WHERE run = ?))")
        params.append(run)
    rows = db.execute(
        f"""SELECT h.site, h.tournament_id, min(h.time), max(h.time), mode(h.hero),
                   arg_min(h.id, h.time), count(*)
            FROM hands h
            WHERE {where} AND NOT EXISTS (
                SELECT 1 FROM tournaments t WHERE t.site = h.site
                AND t.tournament_id = h.tournament_id AND t.source = 'summary')
            GROUP BY 1, 2""",
        params,
    ).fetchall()
    stored = 0
    for site, tid, first, last, hero, first_id, _count in rows:
        summary = _summary(db, site, tid, first, last, hero or "", first_id)
        if summary is not None and store_summary(db, summary, "hands") in ("added", "replaced"):
            stored += 1
    return stored


def _summary(
    db: Connection, site: str, tid: str, first: datetime | None, last: datetime | None,
    hero: str, first_id: int,
) -> TournamentSummary | None:
    head = db.execute("SELECT file, line, text FROM hands WHERE id = ?", [first_id]).fetchone()
    if head is None:
        return None
    file, line, text = head
    hand = _hand(file or "", line or 1, text)
    t = hand.tournament if hand is not None else None
    found = _lines(db, site, tid)
    finishes = _finishes(found)
    mine = [f for f in finishes if f.player == hero]
    own = [f for f in found if f.player == hero]
    paid = sum(f.paid for f in own)
    return TournamentSummary(
        site=site, tournament_id=tid, file=file or "", line=line or 1,
        game=hand.game if hand is not None else None,
        game_text=hand.game.value if hand is not None else "",
        currency=(t.currency or "") if t else "", buy_in=(t.buy_in or 0) if t else 0,
        fee=(t.fee or 0) if t else 0, bounty=(t.bounty or 0) if t else 0,
        started=_utc(first), finished=_utc(last) if mine else None, running=not mine,
        finishes=finishes, player=hero, place=mine[0].place if mine else None,
        prize=mine[0].prize if mine else 0,
        ticket=next((f.ticket for f in own if f.ticket), ""),
        bounties_won=sum(f.bounty for f in own), knockouts=sum(1 for f in own if f.bounty),
        rebuys=sum(f.rebuys for f in own), addons=sum(f.addons for f in own),
        paid_extra=paid or None,
    )


def _hand(file: str, line: int, text: str) -> Hand | None:
    """A hand of the tournament read again, for what its header says of the buy-in."""
    reader = site_reader(text[:8192])
    if reader is None:
        return None
    try:
        read = reader.parse(HandText(file, line, text, reader.site))
    except Exception:  # a hand that no longer reads gives no buy-in, never a crash
        return None
    return read if isinstance(read, Hand) else None


def _lines(db: Connection, site: str, tid: str) -> list[TournamentLine]:
    like = " OR ".join("text LIKE ?" for _ in _WORDS)
    rows: list[Any] = db.execute(
        f"SELECT text, line FROM hands WHERE site = ? AND tournament_id = ? AND ({like}) "
        "ORDER BY time, id",
        [site, tid, *_WORDS],
    ).fetchall()
    return [found for text, line in rows for found in tournament_lines(text, line or 1)]


def _finishes(found: list[TournamentLine]) -> tuple[Finish, ...]:
    """Each player's finishing line once (the last word on them), best place first."""
    last: dict[str, Finish] = {}
    for f in found:
        if f.place is not None:
            last[f.player] = Finish(f.place, f.player, f.prize, f.line)
    return tuple(sorted(last.values(), key=lambda f: (f.place or 0, f.player)))


def _utc(moment: datetime | None) -> datetime | None:
    return moment.replace(tzinfo=UTC) if moment is not None else None
