"""Cached data of the Replayer page (as ``ui.data``: each call once per database generation).

No SQL and no logic here: calls into ``analysis.storage.queries`` and ``analysis.replayer.steps``.
"""

from __future__ import annotations

from datetime import UTC, tzinfo

import pandas as pd

from analysis.replayer.stepping import stored_view
from analysis.replayer.steps import HandView
from analysis.storage import queries
from analysis.storage.db import Connection
from analysis.storage.filters import Filters
from analysis.storage.queries import PotUnit
from ui import data
from ui.data import LIST_LIMIT, cached


@cached(32)
def pot_units(_con: Connection, path: str, gen: int,
              f: Filters) -> list[tuple[PotUnit, int]]:
    return queries.pot_units(_con, f)


@cached(32)
def biggest_pots(_con: Connection, path: str, gen: int, f: Filters,
                 unit: PotUnit) -> pd.DataFrame:
    return queries.biggest_pots_in(_con, unit, f, limit=LIST_LIMIT)


@cached(64)
def view_of(_con: Connection, path: str, gen: int, hand: int,
            zone: tzinfo = UTC) -> HandView | None:
    """The replayer's steps of a stored hand, with the problems the store keeps for it;
    its time shown in ``zone``."""
    return stored_view(data.stored_hand(_con, path, gen, hand), zone)


@cached(32)
def hands_by_id(_con: Connection, path: str, gen: int, ids: tuple[int, ...]) -> pd.DataFrame:
    return queries.hands_by_id(_con, ids)
