"""Reading hands back out of the database, for the dashboard, the exporter and the stats.

Lists come back as pandas frames (what the dashboard shows); one hand comes back as a
``StoredHand`` whose record is rebuilt by parsing its stored text again with its site's
reader: the text is what the user gave us, so the rebuilt record is exactly the one the
import made, and no record has to be reassembled from rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta
from typing import Any

import pandas as pd

from analysis.storage import hand_cells, stat_cells
from analysis.storage.db import Connection
from analysis.storage.filters import NO_FILTERS, Filters
from engine.record import Hand
from engine.verdict import Problem, Severity
from parser.outcome import HandText, ParseError, Skipped
from parser.reader import INTERNAL, parse
from parser.site import SiteReader

SNIFF_CHARS = 2048  # of a stored hand's text: its first lines are the format's own (header)
LIST_COLUMNS = (
    "id, key, site, hand_id, table_name, game, structure, small_bet, big_bet, currency, "
    "time, time_utc, players, hero, hero_cards, total_pot, rake, status, reason, errors, warnings, "
    "file, line, tournament_id, level"
)


def list_hands(
    db: Connection,
    filters: Filters | None = None,
    *,
    limit: int = 100,
    offset: int = 0,
    newest_first: bool = True,
) -> pd.DataFrame:
    """One row per hand (no text), ordered by time then import order.

    The newest (or oldest) hands are first looked for among those of the last (first)
    days that hold enough of them by the summed cells (``_days_enough``): a condition on
    ``time`` the column's zone maps answer, so only those days' row groups are read
    instead of ordering every hand.  When at least ``limit + offset`` hands pass there,
    the list is exactly the whole table's (every other hand comes later in the order:
    an earlier (later) time, or none); else the whole table is ordered, as before."""
    filters = filters or NO_FILTERS
    order = "DESC" if newest_first else "ASC"
    by = f"h.time {order} NULLS LAST, h.id {order}"
    if limit > 0:
        day = _days_enough(db, filters, limit + offset, newest_first)
        if day is not None:
            edge = datetime.combine(day if newest_first else day + timedelta(days=1), time())
            within = "h.time >= ?" if newest_first else "h.time < ?"
            found = _top(db, filters, by, within, [edge], limit, offset)
            if len(found) == limit:
                return found
    return _top(db, filters, by, "TRUE", [], limit, offset)


def _days_enough(db: Connection, filters: Filters, wanted: int, newest_first: bool) -> date | None:
    """The day by which, going from the newest day back (or the oldest on), the summed
    cells count at least ``wanted`` hands the filters keep; ``None`` when they cannot say
    or count fewer.  A guess only (``list_hands`` checks what it finds): the hands' own
    fields from ``hand_cells``, a player's hands from his ``stat_cells`` rows (one a hand
    he was dealt in)."""
    if filters.player is None:
        days = hand_cells.days(db, filters, newest_first)
    else:
        days = _player_days(db, filters, newest_first)
    return None if days is None else hand_cells.reach(days, wanted)


def _player_days(db: Connection, filters: Filters,
                 newest_first: bool) -> list[tuple[date, int]] | None:
    """The hands ``filters.player`` was dealt in per day under the filters, from
    ``stat_cells``, or ``None`` when they cannot say."""
    cond = replace(filters, player=None).where_cells(player=filters.player)
    if cond is None or not stat_cells.current(db):
        return None
    rows = db.execute(
        f"SELECT day, sum(hands)::BIGINT FROM {stat_cells.TABLE} "
        f"WHERE day IS NOT NULL AND {cond[0]} GROUP BY day "
        f"ORDER BY day {'DESC' if newest_first else 'ASC'}",
        cond[1],
    ).fetchall()
    return [(d, int(n)) for d, n in rows]


CANDIDATES = 4  # a first look at this many times the wanted hands, before the others


def _top(
    db: Connection,
    filters: Filters,
    order: str,
    extra: str,
    extra_params: list[Any],
    limit: int,
    offset: int,
) -> pd.DataFrame:
    """The listed columns of the hands ``filters`` and ``extra`` keep, the ``offset``-th
    to the ``offset + limit``-th by ``order`` (over ``hands AS h``, ending with the id).

    Sorting reads only the columns of ``order`` (then the listed columns of the hands
    kept: a sort of every listed column of ten million hands took seconds).  A filter on
    a player or on the statistics' rows (stakes, position, table size) is a semi-join
    with forty million rows: the hands the hands' own columns keep are taken in order, a
    few times as many as wanted, and only those are joined; when fewer than wanted pass,
    more are taken (and at last every hand), so the list is always the exact one."""
    want = limit + offset
    own = replace(filters, player=None, stakes=None, position=None, players_min=None,
                  players_max=None)
    base, base_params = own.where_hands()
    base, base_params = f"({base}) AND {extra}", [*base_params, *extra_params]
    ids: list[int] | None = None
    if own != filters and want > 0 and _common(db, filters):
        take = CANDIDATES * want
        for _ in range(ROUNDS):
            first = [int(r[0]) for r in db.execute(
                f"SELECT h.id FROM hands h WHERE {base} ORDER BY {order} LIMIT ?",
                [*base_params, take],
            ).fetchall()]
            if not first:
                ids = []
                break
            span = (min(first), max(first))
            where, params = filters.where_hands(span=span, among=first)
            found = db.execute(
                f"SELECT h.id FROM hands h WHERE h.id BETWEEN ? AND ? "
                f"AND h.id IN (SELECT unnest(?::BIGINT[])) AND {where} "
                f"ORDER BY {order} LIMIT ? OFFSET ?",
                [*span, first, *params, limit, offset],
            ).fetchall()
            if len(found) + offset >= want or len(first) < take:
                ids = [int(r[0]) for r in found]
                break
            take *= 8
    if ids is None:
        where, params = filters.where_hands()
        where, params = f"({where}) AND {extra}", [*params, *extra_params]
        ids = [int(r[0]) for r in db.execute(
            f"SELECT h.id FROM hands h WHERE {where} ORDER BY {order} LIMIT ? OFFSET ?",
            [*params, limit, offset],
        ).fetchall()]
    return _listed(db, ids, order)


ROUNDS = 2  # looks at candidates before the whole join
COMMON = 0.2  # a player in this share of the hands is looked for among candidates


def _common(db: Connection, filters: Filters) -> bool:
    """Whether the hands a filter's joins keep are likely many, so that candidates taken
    in order will hold the wanted ones: any filter on the statistics' rows, and a player
    seated in a fifth of the hands or more (a rare one is found faster by the join)."""
    if filters.player is None:
        return True
    # how many hands the player was dealt in: from the summed cells when they are current
    # (a guess of which way is faster needs no exact count of seats, forty million rows)
    seated = (f"SELECT coalesce(sum(hands), 0) FROM {stat_cells.TABLE} WHERE player = ?"
              if stat_cells.current(db) else "SELECT count(*) FROM seats WHERE player = ?")
    row = db.execute(
        f"SELECT ({seated}), (SELECT count(*) FROM hands)", [filters.player]
    ).fetchone()
    return row is not None and int(row[0]) >= COMMON * max(int(row[1]), 1)


def _listed(db: Connection, ids: list[int], order: str) -> pd.DataFrame:
    """The listed columns of these hands, in ``order``."""
    if not ids:
        return db.execute(f"SELECT {LIST_COLUMNS} FROM hands h WHERE FALSE").df()
    return db.execute(
        f"SELECT {LIST_COLUMNS} FROM hands h WHERE h.id BETWEEN ? AND ? "
        f"AND h.id IN (SELECT unnest(?::BIGINT[])) ORDER BY {order}",
        [min(ids), max(ids), ids],
    ).df()


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


def count_hands(db: Connection, filters: Filters | None = None) -> int:
    where, params = (filters or NO_FILTERS).where_hands()
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
    filters: Filters | None = None,
    *,
    severity: str | None = "error",
    limit: int = 100,
) -> pd.DataFrame:
    """One row per problem found (code, severity, line, message) with its hand."""
    where, params = (filters or NO_FILTERS).where_hands()
    sev = ""
    if severity is not None:
        sev = "AND p.severity = ?"
        params.append(severity)
    sql = (
        "SELECT h.id, h.key, h.site, h.hand_id, h.game, h.time, h.time_utc, h.status, h.file, "
        "p.code, p.severity, p.line, p.message "
        f"FROM problems p JOIN hands h ON h.id = p.hand WHERE {where} {sev} "
        "ORDER BY h.id, p.line LIMIT ?"
    )
    return db.execute(sql, [*params, limit]).df()


def biggest_pots(
    db: Connection, filters: Filters | None = None, *, limit: int = 20
) -> pd.DataFrame:
    """Hands by total pot, largest first (amounts in hundredths, per currency)."""
    return _top(db, filters or NO_FILTERS, "h.total_pot DESC, h.id",
                "h.total_pot IS NOT NULL", [], limit, 0)


def quarantined(db: Connection, *, limit: int = 100, offset: int = 0) -> pd.DataFrame:
    """Texts that could not be read, with where they came from and why."""
    sql = (
        "SELECT id, key, site, file, line, error, text FROM quarantine ORDER BY id LIMIT ? OFFSET ?"
    )
    return db.execute(sql, [limit, offset]).df()


def stored_from(db: Connection, name: str, separator: str = "/") -> tuple[int, int]:
    """How many hands of the file (or archive) ``name`` the database holds, whichever
    import stored them, and how many of those have errors (any verdict but "ok"): what a
    re-import of that file finds, as it reads nothing new."""
    row = db.execute(
        "SELECT count(*), coalesce(count_if(status <> 'ok'), 0) FROM hands "
        "WHERE file = ? OR starts_with(file, ?)",
        [name, name + separator],
    ).fetchone()
    return (int(row[0]), int(row[1])) if row else (0, 0)


def failed_hand_text(db: Connection, file: str, line: int) -> str | None:
    """The stored text of the hand an import logged as failed at ``file:line``: a text
    that could not be read (quarantined), else the hand with a problem on that line."""
    row = db.execute(
        "SELECT text FROM quarantine WHERE file = ? AND line = ? ORDER BY id LIMIT 1",
        [file, line],
    ).fetchone()
    if row is not None:
        return str(row[0])
    row = db.execute(
        "SELECT h.text FROM problems p JOIN hands h ON h.id = p.hand "
        "WHERE h.file = ? AND p.line = ? ORDER BY h.id LIMIT 1",
        [file, line],
    ).fetchone()
    return None if row is None else str(row[0])


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
        if hand is not None or not note.startswith(("parse error", INTERNAL)):
            return hand, note
    other = reader_of(site, text)
    if other is None:
        return None, f"no reader for site {site!r}, and none recognises the text"
    if other is named:
        return hand, note
    return _parse_with(other, file, line, text)


def _parse_with(reader: SiteReader, file: str, line: int, text: str) -> tuple[Hand | None, str]:
    """A reader's bug (``parser.reader.parse``) leaves the stored text there, with why."""
    outcome = parse(reader, HandText(file, line, text, reader.site))
    if isinstance(outcome, ParseError):
        internal = outcome.message.startswith(INTERNAL)
        return None, outcome.message if internal else f"parse error: {outcome.message}"
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


def pot_units(db: Connection, filters: Filters | None = None) -> list[tuple[PotUnit, int]]:
    """The units the filtered hands' pots are in, with their hand counts, most hands first:
    from ``hand_cells`` where they can say, else counted over every hand."""
    counted = hand_cells.pot_units(db, filters or NO_FILTERS)
    if counted is not None:
        return [(PotUnit(t, c), n) for t, c, n in counted]
    where, params = (filters or NO_FILTERS).where_hands()
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
    db: Connection, unit: PotUnit, filters: Filters | None = None, *, limit: int = 20
) -> pd.DataFrame:
    """Hands of one unit (``pot_units``) by total pot, largest first."""
    unit_where, unit_params = unit.where()
    return _top(db, filters or NO_FILTERS, "h.total_pot DESC, h.id",
                f"{unit_where} AND h.total_pot IS NOT NULL", unit_params, limit, 0)


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
