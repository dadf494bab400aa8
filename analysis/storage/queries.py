"""Reading hands back out of the database, for the dashboard, the exporter and the stats.

Lists come back as pandas frames (what the dashboard shows); one hand comes back as a
``StoredHand`` whose record is rebuilt by parsing its stored text again with its site's
reader: the text is what the user gave us, so the rebuilt record is exactly the one the
import made, and no record has to be reassembled from rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

import pandas as pd

from analysis.storage.db import Connection
from engine.record import Hand
from engine.verdict import Problem, Severity
from parser.outcome import HandText, ParseError, Skipped
from parser.site import SiteReader

SNIFF_CHARS = 2048  # of a stored hand's text: its first lines are the format's own (header)
LIST_COLUMNS = (
    "id, key, site, hand_id, table_name, game, structure, small_bet, big_bet, currency, "
    "time, players, hero, hero_cards, total_pot, rake, status, reason, errors, warnings, "
    "file, line, tournament_id, level"
)


@dataclass(frozen=True)
class HandFilter:
    """Which hands: every field left ``None`` does not filter."""

    player: str | None = None
    site: str | None = None
    game: str | None = None
    status: str | None = None
    since: date | None = None  # hands on or after this day
    until: date | None = None  # hands on or before this day
    with_problems: bool | None = None  # True: hands with an error or warning

    def where(self, alias: str = "h") -> tuple[str, list[Any]]:
        """A SQL condition over ``hands AS alias`` and its parameters."""
        clauses: list[str] = []
        params: list[Any] = []
        if self.player is not None:
            clauses.append(
                f"EXISTS (SELECT 1 FROM seats s WHERE s.hand = {alias}.id AND s.player = ?)"
            )
            params.append(self.player)
        for column, value in (("site", self.site), ("game", self.game), ("status", self.status)):
            if value is not None:
                clauses.append(f"{alias}.{column} = ?")
                params.append(value)
        if self.since is not None:
            clauses.append(f"{alias}.time >= ?")
            params.append(datetime.combine(self.since, time()))
        if self.until is not None:
            clauses.append(f"{alias}.time < ?")
            params.append(datetime.combine(self.until + timedelta(days=1), time()))
        if self.with_problems is True:
            clauses.append(f"({alias}.errors + {alias}.warnings) > 0")
        elif self.with_problems is False:
            clauses.append(f"({alias}.errors + {alias}.warnings) = 0")
        return (" AND ".join(clauses) or "TRUE"), params


def list_hands(
    db: Connection,
    filters: HandFilter | None = None,
    *,
    limit: int = 100,
    offset: int = 0,
    newest_first: bool = True,
) -> pd.DataFrame:
    """One row per hand (no text), ordered by time then import order."""
    where, params = (filters or HandFilter()).where()
    order = "DESC" if newest_first else "ASC"
    sql = (
        f"SELECT {LIST_COLUMNS} FROM hands h WHERE {where} "
        f"ORDER BY h.time {order} NULLS LAST, h.id {order} LIMIT ? OFFSET ?"
    )
    return db.execute(sql, [*params, limit, offset]).df()


def hands_by_id(db: Connection, ids: Sequence[int]) -> pd.DataFrame:
    """The listed rows of these stored hands (``hands.id``), in the order given: the hands
    another page sends to the replayer (the hands behind a statistic, a reviewed draw)."""
    wanted = [int(i) for i in ids]
    if not wanted:
        return db.execute(f"SELECT {LIST_COLUMNS} FROM hands h WHERE FALSE").df()
    found = db.execute(
        f"SELECT {LIST_COLUMNS} FROM hands h WHERE h.id IN (SELECT unnest(?))", [wanted]
    ).df()
    order = {hand: at for at, hand in enumerate(wanted)}
    return found.sort_values("id", key=lambda c: c.map(order)).reset_index(drop=True)


def count_hands(db: Connection, filters: HandFilter | None = None) -> int:
    where, params = (filters or HandFilter()).where()
    rows = db.execute(f"SELECT count(*) FROM hands h WHERE {where}", params).fetchall()
    return int(rows[0][0])


def status_counts(db: Connection) -> dict[str, int]:
    """Hands per status, parse errors (the quarantine) included, as ``drawlab verify`` counts."""
    counts = dict.fromkeys(("ok", "invalid", "parse_error", "unsupported", "incomplete"), 0)
    for status, n in db.execute("SELECT status, count(*) FROM hands GROUP BY status").fetchall():
        counts[str(status)] = counts.get(str(status), 0) + int(n)
    rows = db.execute("SELECT count(*) FROM quarantine").fetchall()
    counts["parse_error"] += int(rows[0][0])
    return counts


def hands_with_problems(
    db: Connection,
    filters: HandFilter | None = None,
    *,
    severity: str | None = "error",
    limit: int = 100,
) -> pd.DataFrame:
    """One row per problem found (code, severity, line, message) with its hand."""
    where, params = (filters or HandFilter()).where()
    sev = ""
    if severity is not None:
        sev = "AND p.severity = ?"
        params.append(severity)
    sql = (
        "SELECT h.id, h.key, h.site, h.hand_id, h.game, h.time, h.status, h.file, "
        "p.code, p.severity, p.line, p.message "
        f"FROM problems p JOIN hands h ON h.id = p.hand WHERE {where} {sev} "
        "ORDER BY h.id, p.line LIMIT ?"
    )
    return db.execute(sql, [*params, limit]).df()


def biggest_pots(
    db: Connection, filters: HandFilter | None = None, *, limit: int = 20
) -> pd.DataFrame:
    """Hands by total pot, largest first (amounts in hundredths, per currency)."""
    where, params = (filters or HandFilter()).where()
    sql = (
        f"SELECT {LIST_COLUMNS} FROM hands h WHERE {where} AND h.total_pot IS NOT NULL "
        "ORDER BY h.total_pot DESC, h.id LIMIT ?"
    )
    return db.execute(sql, [*params, limit]).df()


def quarantined(db: Connection, *, limit: int = 100, offset: int = 0) -> pd.DataFrame:
    """Texts that could not be read, with where they came from and why."""
    sql = (
        "SELECT id, key, site, file, line, error, text FROM quarantine ORDER BY id LIMIT ? OFFSET ?"
    )
    return db.execute(sql, [limit, offset]).df()


def import_history(db: Connection, *, limit: int = 100) -> pd.DataFrame:
    sql = "SELECT * FROM import_batches ORDER BY id DESC LIMIT ?"
    return db.execute(sql, [limit]).df()


@dataclass(frozen=True)
class StoredHand:
    """A stored hand: its row, its original text, its problems and its rebuilt record."""

    id: int
    row: dict[str, Any]
    text: str
    problems: tuple[Problem, ...]
    hand: Hand | None  # None for hands stored without a record (skipped, or now unreadable)
    note: str = ""  # why ``hand`` is None, when it is
    seats: list[dict[str, Any]] = field(default_factory=list)


def get_hand(db: Connection, hand: int | str) -> StoredHand | None:
    """One hand by ``hands.id`` or by key (``site:hand_id``)."""
    column = "id" if isinstance(hand, int) else "key"
    cur = db.execute(f"SELECT * FROM hands WHERE {column} = ?", [hand])
    names = [d[0] for d in cur.description or []]
    rows = cur.fetchall()
    if not rows:
        return None
    row = dict(zip(names, rows[0], strict=True))
    problems = tuple(
        Problem(code, Severity(sev), line if line is not None else 0, message)
        for code, sev, line, message in db.execute(
            "SELECT code, severity, line, message FROM problems WHERE hand = ? "
            "ORDER BY line NULLS FIRST, code",
            [row["id"]],
        ).fetchall()
    )
    seat_cur = db.execute("SELECT * FROM seats WHERE hand = ? ORDER BY seat", [row["id"]])
    seat_names = [d[0] for d in seat_cur.description or []]
    seats = [dict(zip(seat_names, r, strict=True)) for r in seat_cur.fetchall()]
    record, note = rebuild(row["site"], row["file"] or "", row["line"] or 1, row["text"])
    return StoredHand(int(row["id"]), row, row["text"], problems, record, note, seats)


def reader_of(site: str, text: str) -> SiteReader | None:
    """The reader for a stored hand: its site's, or else the first that recognises the text.

    A hand is stored under the site its record names, which is not always its format's: a
    PHH hand is stored under its venue (``home``, ``pokerstars``), yet the PHH reader is
    the one that reads it.  So the text decides, as for an imported file: the site's own
    reader when it recognises the text, else the first registered reader that does, else
    the site's reader anyway (its parse error then says what is wrong).
    """
    named = _named_reader(site)
    head = text[:SNIFF_CHARS].lstrip("\ufeff")
    if named is not None and _sniffs(named, head):
        return named
    return _sniffed(head) or named


def _named_reader(site: str) -> SiteReader | None:
    from parser.registry import READERS

    return next((r for r in READERS if r.site == site), None)


def _sniffed(head: str) -> SiteReader | None:
    from parser.sources import site_reader

    return site_reader(head)


def _sniffs(reader: SiteReader, head: str) -> bool:
    try:
        return reader.sniff(head)
    except Exception:  # a broken sniff is that reader declining, not a crash
        return False


def rebuild(site: str, file: str, line: int, text: str) -> tuple[Hand | None, str]:
    """The record of a stored text, parsed again as it was on import; or why there is none.

    The site's own reader reads it first (no sniffing: nearly every hand is its site's);
    only when it cannot does the reader that recognises the text (``reader_of``) try."""
    named = _named_reader(site)
    if named is not None:
        hand, note = _parse_with(named, file, line, text)
        if hand is not None or not note.startswith(("parse error", "reader failed")):
            return hand, note
    other = reader_of(site, text)
    if other is None:
        return None, f"no reader for site {site!r}, and none recognises the text"
    if other is named:
        return hand, note
    return _parse_with(other, file, line, text)


def _parse_with(reader: SiteReader, file: str, line: int, text: str) -> tuple[Hand | None, str]:
    try:
        outcome = reader.parse(HandText(file, line, text, reader.site))
    except ParseError as exc:
        return None, f"parse error: {exc.message}"
    except Exception as exc:  # a reader's bug: the stored text is still there
        return None, f"reader failed: {type(exc).__name__}: {exc}"
    if isinstance(outcome, Skipped):
        return None, f"{outcome.kind}: {outcome.reason}"
    return outcome, ""


# --- the replayer's lists ----------------------------------------------------------------


@dataclass(frozen=True)
class PotUnit:
    """What pots are counted in: tournament chips, or money of one currency.

    Pots of different units are never ranked together: 5,260 chips are not more than
    $52.60, they are not comparable at all."""

    tournament: bool
    currency: str | None  # the table's currency; ``None`` for chips of any tournament

    @property
    def label(self) -> str:
        return "tournament chips" if self.tournament else f"{self.currency or '?'} (cash)"

    def where(self, alias: str = "h") -> tuple[str, list[Any]]:
        if self.tournament:
            return f"{alias}.tournament_id IS NOT NULL", []
        if self.currency is None:
            return f"{alias}.tournament_id IS NULL AND {alias}.currency IS NULL", []
        return f"{alias}.tournament_id IS NULL AND {alias}.currency = ?", [self.currency]


def pot_units(db: Connection, filters: HandFilter | None = None) -> list[tuple[PotUnit, int]]:
    """The units the filtered hands' pots are in, with their hand counts, most hands first."""
    where, params = (filters or HandFilter()).where()
    sql = (
        "SELECT h.tournament_id IS NOT NULL AS t, "
        "CASE WHEN h.tournament_id IS NULL THEN h.currency END AS c, count(*) AS n "
        f"FROM hands h WHERE {where} AND h.total_pot IS NOT NULL "
        "GROUP BY t, c ORDER BY n DESC, t, c"
    )
    return [
        (PotUnit(bool(t), None if c is None else str(c)), int(n))
        for t, c, n in db.execute(sql, params).fetchall()
    ]


def biggest_pots_in(
    db: Connection, unit: PotUnit, filters: HandFilter | None = None, *, limit: int = 20
) -> pd.DataFrame:
    """Hands of one unit (``pot_units``) by total pot, largest first."""
    where, params = (filters or HandFilter()).where()
    unit_where, unit_params = unit.where()
    sql = (
        f"SELECT {LIST_COLUMNS} FROM hands h WHERE {where} AND {unit_where} "
        "AND h.total_pot IS NOT NULL ORDER BY h.total_pot DESC, h.id LIMIT ?"
    )
    return db.execute(sql, [*params, *unit_params, limit]).df()


def find_hands(db: Connection, wanted: str) -> list[tuple[int, str]]:
    """Stored hands (id, key) a user's hand id names: a key (``site:hand_id``) or the
    site's own id, as written (a leading ``#`` ignored), on any site."""
    wanted = wanted.strip().lstrip("#").strip()
    if not wanted:
        return []
    rows = db.execute(
        "SELECT id, key FROM hands WHERE key = ? OR hand_id = ? ORDER BY id", [wanted, wanted]
    ).fetchall()
    return [(int(i), str(k)) for i, k in rows]
