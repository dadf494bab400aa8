"""Which stored hands a page's figures are over: with or without the hands with errors,
the user's own or the bundled samples, and how many of them have errors.

The dashboard leaves hands with errors out of its figures by default
(``Filters.valid_only``) and keeps the samples apart (``Filters.samples``).  The summed
cells know neither, so a filter that asks either is answered from the rows; ``plain``
drops the one that changes nothing in this database (no hand with errors, no samples),
so a user without either keeps the cells' speed.
"""

from __future__ import annotations

from dataclasses import replace

from analysis.storage.db import Connection, one
from analysis.storage.filters import SAMPLE_HANDS, Filters

ERRORS = "status <> 'ok'"  # a hand with errors: any verdict but "ok" (``valid_only``'s)


def _any(con: Connection, condition: str) -> bool:
    return one(con, f"SELECT 1 FROM hands WHERE {condition} LIMIT 1") is not None


def has_samples(con: Connection) -> bool:
    return one(con, "SELECT 1 FROM meta WHERE name = 'samples'") is not None and _any(
        con, SAMPLE_HANDS)


def plain(con: Connection, filters: Filters) -> Filters:
    """The same hands asked without what means nothing here: ``valid_only`` where hands
    are stored and none has errors, ``samples=False`` where there are no samples."""
    if filters.valid_only and _any(con, "TRUE") and not _any(con, ERRORS):
        filters = replace(filters, valid_only=False)
    if filters.samples is False and not has_samples(con):
        filters = replace(filters, samples=None)
    return filters


def with_errors(con: Connection, filters: Filters, player: str | None = None) -> int:
    """How many hands the filters keep, ``player``'s where one is named, have errors,
    whether or not the filters leave them out (``valid_only`` is ignored): what a page
    says it left out, or included."""
    if not _any(con, ERRORS):
        return 0
    where, params = replace(filters, valid_only=False).where(player)
    row = one(
        con,
        f"SELECT count(DISTINCT hand) FROM player_hands WHERE {where} "
        f"AND hand IN (SELECT id FROM hands WHERE {ERRORS})",
        params,
    )
    return int(row[0]) if row else 0
