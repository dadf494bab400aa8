"""The bundled sample hands: marked as samples, kept apart from a user's own, removable.

A first start fills an empty database with the simulated ``sample_histories`` so there
is something to look at (``ui.state.first_start``).  Those hands are nobody's results:
the import run that stored them is named in ``meta`` (row ``samples``), which is what
``Filters.samples`` reads, so a page can show them apart from the hands the user
imported and the user's "Hero" at PokerStars never adds up with the samples' one.
``remove`` deletes them, every row of every table that keeps rows per hand, and the
file records of that run, so the same files could be imported again; the run stays in
the import history, so a later start does not take the database for a new one.
"""

from __future__ import annotations

from analysis.storage import summaries
from analysis.storage.db import Connection, one
from analysis.storage.filters import SAMPLE_HANDS

MARK = "samples"  # meta row: the import run that stored the samples (``SAMPLE_HANDS``)


def mark(con: Connection) -> None:
    """Name the samples: every import run of a database that held no hands before (the
    first start's), called right after that import."""
    row = one(con, "SELECT max(run) FROM import_batches")
    if row is not None and row[0] is not None:
        con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", [MARK, str(row[0])])


def count(con: Connection) -> int:
    """How many stored hands are samples (0 once removed, or in a database that never
    had them)."""
    if one(con, "SELECT 1 FROM meta WHERE name = ?", [MARK]) is None:
        return 0
    row = one(con, f"SELECT count(*) FROM hands WHERE {SAMPLE_HANDS}")
    return int(row[0]) if row else 0


def own_hands(con: Connection) -> int:
    """How many stored hands are not samples: the user's own."""
    row = one(con, "SELECT count(*) FROM hands")
    return (int(row[0]) if row else 0) - count(con)


def _per_hand_tables(con: Connection) -> list[str]:
    """Every table that keeps rows of a hand in a column ``hand`` (seats, actions,
    ``player_hands``, reviews...), whichever this version's schema and later ones add."""
    rows = con.execute(
        "SELECT table_name FROM information_schema.columns "
        "WHERE column_name = 'hand' AND table_schema = current_schema() "
        "AND table_name NOT LIKE '%cells%' ORDER BY table_name"
    ).fetchall()
    return [str(r[0]) for r in rows]


def remove(con: Connection) -> int:
    """Delete the sample hands and every row kept of them, in one transaction; the
    summed cells are summed anew after.  Returns the hands removed."""
    removed = count(con)
    if removed == 0:
        con.execute("DELETE FROM meta WHERE name = ?", [MARK])
        return 0
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute(f"CREATE TEMP TABLE _sample_ids AS SELECT id FROM hands WHERE {SAMPLE_HANDS}")
        for table in _per_hand_tables(con):
            con.execute(f"DELETE FROM {table} WHERE hand IN (SELECT id FROM _sample_ids)")
        con.execute("DELETE FROM hands WHERE id IN (SELECT id FROM _sample_ids)")
        con.execute(
            "DELETE FROM files WHERE path IN (SELECT file FROM import_batches WHERE run = "
            f"(SELECT value FROM meta WHERE name = '{MARK}'))")
        con.execute("DELETE FROM meta WHERE name = ?", [MARK])
        summaries.invalidate(con)
        con.execute("DROP TABLE _sample_ids")
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    summaries.rebuild_all(con)
    return removed
