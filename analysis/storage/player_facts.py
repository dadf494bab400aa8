"""``player_hands``, the player facts: one row per player and hand, the rows every
statistic and summary table is computed from.

They are derived as well, from the hands' texts, but not summed: an import and ``drawlab
reverify`` write a hand's rows with the hand, and a delete removes them with it.  Their
layout is the statistics' facts' columns (``analysis.storage.db`` re-creates the table,
empty and marked stale, when those change); ``FACTS`` declares them to
``analysis.storage.summaries``, whose ``rebuild`` refills them from the stored texts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from analysis.statistics.fact_row import FACT_FIELDS
from analysis.statistics.facts import hand_facts
from analysis.storage import transactions
from analysis.storage.db import (
    Connection,
    append_arrow,
    fact_columns,
    facts_stale,
    has_player_hands,
    one,
    player_hands_layout,
    set_facts_stale,
)
from analysis.storage.queries import rebuild as read_stored
from analysis.storage.rows import FactsFn, Rows

FACT_TYPES = tuple((n, t) for n, t in fact_columns().items() if n != "hand")
_FACT_NAMES = tuple(n for n, _ in FACT_TYPES)
if _FACT_NAMES == FACT_FIELDS:  # the very tuple: ``add_result`` knows it by identity
    _FACT_NAMES = FACT_FIELDS
PAGE_HANDS = 2000  # stored hands read again per transaction of a refill
# stored hands a refill reads again a second, at the least (docs/statistics.md): what the
# notice before a refill estimates its time by
REFILL_RATE = 1_500


def facts_fn() -> tuple[FactsFn, tuple[str, ...], tuple[tuple[str, str], ...]]:
    """``hand_facts`` with the names and types of ``player_hands``' columns after ``hand``."""
    return hand_facts, _FACT_NAMES, FACT_TYPES


def rebuild_player_hands(db: Connection) -> int:
    """Refill ``player_hands`` from the stored texts; returns the rows written.

    Needed when the statistics' facts change their columns (``analysis.storage.db`` then
    creates the table anew, empty): each stored hand with a record is parsed again and its
    facts computed, a page of hands per transaction.
    """
    if not has_player_hands(db):
        return 0
    facts, columns, types = facts_fn()
    written = 0
    last = 0
    db.execute("BEGIN TRANSACTION")
    try:
        db.execute("DELETE FROM player_hands")
        db.execute("COMMIT")
    except BaseException:
        transactions.rollback(db)
        raise
    while True:
        page = db.execute(
            "SELECT id, site, file, line, text FROM hands WHERE id > ? "
            f"AND status IN ('ok', 'invalid') ORDER BY id LIMIT {PAGE_HANDS}",
            [last],
        ).fetchall()
        if not page:
            break
        rows = Rows()
        for hand_id, site, file, line, text in page:
            last = hand_id
            hand, _ = read_stored(site, file or "", line or 1, text)
            if hand is None:
                continue
            try:
                for fact in facts(hand):
                    rows.player_hands.append((hand_id, *(getattr(fact, c) for c in columns)))
            except Exception:  # as on import: a facts bug costs the rows, not the hand
                continue
        table = rows.to_arrow(types).player_hands
        db.execute("BEGIN TRANSACTION")
        try:
            if table.num_rows:
                append_arrow(db, "player_hands", table)
            db.execute("COMMIT")
        except BaseException:
            transactions.rollback(db)
            raise
        written += table.num_rows
    set_facts_stale(db, False)
    return written


def refill_notice(db: Connection) -> str:
    """Why the first open of an older database is busy, said once before its facts are
    refilled (minutes at a million hands): a progress line alone does not say why."""
    row = one(db, "SELECT count(*) FROM hands WHERE status IN ('ok', 'invalid')")
    return refill_words(int(row[0]) if row else 0)


def refill_words(hands: int) -> str:
    """``refill_notice``'s sentence for a refill of ``hands`` stored hands."""
    minutes = math.ceil(hands / REFILL_RATE / 60)
    took = "under a minute" if minutes <= 1 else f"about {minutes} minutes"
    return (f"Updating this database's statistics to this version of DrawLab: once, "
            f"{took} for {hands:,} hands.")


@dataclass(frozen=True)
class PlayerFacts:
    """``player_hands`` as the registry sees it: a layout, whether it is current, a
    rebuild.  Nothing to extend or compact: an import writes the rows with its hands."""

    tables: tuple[str, ...] = ("player_hands",)

    def layout(self, con: Connection) -> str:
        return player_hands_layout()

    def current(self, con: Connection) -> bool:
        """The table has this DrawLab's columns and holds every stored hand's facts."""
        row = one(con, "SELECT value FROM meta WHERE name = 'player_hands_layout'")
        return row is not None and row[0] == player_hands_layout() and not facts_stale(con)

    def rebuild(self, con: Connection) -> None:
        rebuild_player_hands(con)


FACTS = PlayerFacts()
