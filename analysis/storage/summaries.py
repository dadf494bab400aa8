"""The registry of every table derived from the stored hands, and the one loop over it.

``FACTS`` (``player_hands``, the facts of each player in each hand, computed from the
hands' texts) first, then ``SUMMARIES``, the tables summed from those rows and from the
hands for the dashboard's speed (``stat_cells``, ``timeline_cells``, ``hand_cells``).
Each declares its layout, whether it is current, and how it is rebuilt; a summary also
how it is extended after an import and compacted (``marks.Summary``).  The importer,
``drawlab reverify``, the samples' removal and a delete call these loops, never a table's
own functions, so a new summary is one more declaration here.
"""

from __future__ import annotations

from analysis.storage import hand_cells, stat_cells, timeline_cells
from analysis.storage.db import Connection
from analysis.storage.marks import Summary
from analysis.storage.player_facts import FACTS, PlayerFacts

SUMMARIES: tuple[Summary, ...] = (stat_cells.SUMMARY, timeline_cells.SUMMARY, hand_cells.SUMMARY)
REGISTRY: tuple[PlayerFacts | Summary, ...] = (FACTS, *SUMMARIES)


def current(con: Connection) -> bool:
    """Whether every derived table holds exactly what this DrawLab derives from the hands
    stored now (each asks a few milliseconds at any size)."""
    return all(table.current(con) for table in REGISTRY)


def extend(con: Connection) -> int:
    """Every summary brought up to date after hands were added (each in its own
    transactions, under its own mark: a database summed before a summary existed gets it
    here, once).  Returns the ``player_hands`` rows the first summary took in."""
    taken = [summary.extend(con) for summary in SUMMARIES]
    return taken[0]


def compact(con: Connection) -> int:
    """Every summary whose repeated cells doubled since the last compaction compacted;
    returns how many were.  Left out (an import while a reader waits), the figures are the
    same: readers sum a cell's rows."""
    return sum(summary.compact(con) for summary in SUMMARIES)


def invalidate(con: Connection) -> None:
    """Every summary said out of date (inside the caller's transaction, if any): a writer
    about to rewrite or delete rows, which may leave their number and largest id as they
    were, calls this first; ``rebuild_all`` after."""
    for summary in SUMMARIES:
        summary.invalidate(con)


def rebuild_all(con: Connection) -> None:
    """Every derived table made anew from what is stored: after hands were deleted or
    rewritten in place.  The facts are refilled from the texts only when they are not
    current (a delete removes a hand's facts with it); the summaries are summed anew."""
    if not FACTS.current(con):
        FACTS.rebuild(con)
    for summary in SUMMARIES:
        summary.rebuild(con)
