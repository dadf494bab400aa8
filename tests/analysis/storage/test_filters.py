"""One filter for both tables: a ``Filters`` keeps the same hands over ``hands`` (the hand
lists, the replayer, the export) as over ``player_hands`` (the statistics)."""

from __future__ import annotations

from datetime import date

import duckdb
import pytest

from analysis.pipeline.importer import import_paths
from analysis.storage import db as dbmod
from analysis.storage.filters import Filters
from tests.store_data import CORPUS


@pytest.fixture(scope="module")
def con(tmp_path_factory: pytest.TempPathFactory) -> duckdb.DuckDBPyConnection:
    c = dbmod.connect(tmp_path_factory.mktemp("f") / "f.duckdb")
    import_paths(c, [CORPUS / "cash", CORPUS / "tour"], workers=0)
    return c


def _by_hands(con: duckdb.DuckDBPyConnection, f: Filters) -> set[int]:
    where, params = f.where_hands()
    rows = con.execute(
        f"SELECT h.id FROM hands h WHERE {where} AND h.id IN (SELECT hand FROM player_hands)",
        params,
    ).fetchall()
    return {int(r[0]) for r in rows}


def _by_rows(con: duckdb.DuckDBPyConnection, f: Filters) -> set[int]:
    where, params = f.where()
    rows = con.execute(f"SELECT DISTINCT hand FROM player_hands WHERE {where}", params)
    return {int(r[0]) for r in rows.fetchall()}


FILTERS = [
    Filters(),
    Filters(site="pokerstars"),
    Filters(game="27_triple_draw"),
    Filters(currency="USD"),
    Filters(stakes="0.10/0.20"),
    Filters(date_from=date(2011, 6, 26), date_to=date(2011, 6, 26)),
    Filters(players_min=3, players_max=5),
    Filters(tournament=True),
    Filters(tournament=False, valid_only=True),
    Filters(status="invalid"),
    Filters(with_problems=True),
    Filters(with_problems=False),
    Filters(player="Player3"),
    Filters(player="Hero", position="BTN"),
    Filters(position="BB", stakes="0.10/0.20"),
]


@pytest.mark.parametrize("f", FILTERS, ids=repr)
def test_a_filter_keeps_the_same_hands_over_both_tables(
    con: duckdb.DuckDBPyConnection, f: Filters
) -> None:
    assert _by_hands(con, f) == _by_rows(con, f)


def test_the_filters_checked_here_each_keep_some_hands_and_not_all(
    con: duckdb.DuckDBPyConnection,
) -> None:
    everything = _by_rows(con, Filters())
    for f in FILTERS[1:]:
        kept = _by_rows(con, f)
        assert kept and kept != everything, f


def test_a_position_is_the_named_players(con: duckdb.DuckDBPyConnection) -> None:
    rows = con.execute(
        "SELECT DISTINCT hand FROM player_hands WHERE player = 'Hero' AND position = 'BTN'"
    ).fetchall()
    assert _by_hands(con, Filters(player="Hero", position="BTN")) == {int(r[0]) for r in rows}
