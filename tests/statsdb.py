"""Load hand records' facts into a fresh in-memory database, as the importer does."""

from __future__ import annotations

from collections.abc import Iterable

import duckdb
import pandas as pd

from analysis.statistics.fact_row import FACT_COLUMNS, PlayerHandFacts
from analysis.statistics.facts import hand_facts
from analysis.storage.db import connect
from engine.record import Hand


def facts_frame(rows: Iterable[tuple[int, PlayerHandFacts]]) -> pd.DataFrame:
    data = [(hand, *row.as_tuple()) for hand, row in rows]
    return pd.DataFrame(data, columns=["hand", *FACT_COLUMNS])


def load_rows(con: duckdb.DuckDBPyConnection, rows: Iterable[tuple[int, PlayerHandFacts]]) -> None:
    df = facts_frame(rows)
    if len(df):
        con.register("facts_df", df)
        con.execute("INSERT INTO player_hands BY NAME SELECT * FROM facts_df")
        con.unregister("facts_df")


def database(hands: Iterable[Hand]) -> tuple[duckdb.DuckDBPyConnection, list[PlayerHandFacts]]:
    """A new in-memory database holding the facts of ``hands`` (ids 1, 2, ...)."""
    con = connect(":memory:")
    rows = [(i, r) for i, h in enumerate(hands, 1) for r in hand_facts(h)]
    load_rows(con, rows)
    return con, [r for _, r in rows]
