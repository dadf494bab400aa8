"""The bundled sample hands: marked as samples, kept apart from a user's own, removable.

A first start fills an empty database with the simulated ``sample_histories`` so there
is something to look at (``ui.state.first_start``).  Those hands are nobody's results:
the import run that stored them is named in ``meta`` (row ``samples``), which is what
``Filters.samples`` reads, so a page can show them apart from the hands the user
imported and the user's "Hero" at PokerStars never adds up with the samples' one.
``remove`` deletes them, every row kept of them (``analysis.storage.deletion``), and
the file records of that run, so the same files could be imported again; the run stays in
the import history, so a later start does not take the database for a new one.
"""

from __future__ import annotations

from analysis.storage import deletion
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


def selection() -> deletion.Selection:
    """The sample hands, their unreadable texts, summaries and file records: what
    ``remove`` deletes."""
    run_files = ("SELECT file FROM import_batches WHERE run = "
                 f"(SELECT value FROM meta WHERE name = '{MARK}')")
    return deletion.Selection(
        label="the bundled samples",
        rows=deletion.Where(SAMPLE_HANDS),
        summaries=deletion.Where(f"file IN ({run_files})"),
        paths=deletion.Where(f"path IN ({run_files})"),
    )


def remove(con: Connection) -> int:
    """Delete the sample hands and every row kept of them (``deletion.delete``: one
    transaction, the summaries built anew after).  Returns the hands removed."""
    removed = count(con)
    if removed:
        removed = deletion.delete(con, selection()).hands
    con.execute("DELETE FROM meta WHERE name = ?", [MARK])
    return removed
