"""What the filters offer: one player's values under the other picks, dead picks dropped."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from analysis.pipeline.importer import import_paths
from analysis.statistics.offers import offers
from analysis.storage import db
from analysis.storage.db import Connection
from analysis.storage.filters import Filters
from tests.paths import REPOSITORY

FOLDER = REPOSITORY / "sample_histories" / "pokerstars"
CASH = Filters(site="pokerstars", currency="USD", tournament=False)


@pytest.fixture(name="con", scope="module")
def con_fixture(tmp_path_factory: pytest.TempPathFactory) -> Connection:
    path: Path = tmp_path_factory.mktemp("offers") / "d.duckdb"
    con = db.connect(path)
    import_paths(con, [FOLDER / "27_triple_draw_fl_0.10-0.20_6max.txt",
                       FOLDER / "five_card_draw_nl_0.25-0.50_6max.txt"], workers=0)
    return con


def test_each_option_is_the_players_under_the_other_picks(con: Connection) -> None:
    everything = offers(con, "Hero", CASH)
    assert everything.games == ("27_triple_draw", "five_card_draw")
    assert everything.stakes == ("0.10/0.20", "0.50/0.50")  # the no-limit game's bet sizes
    assert everything.positions == ("UTG", "MP", "CO", "BTN", "SB", "BB")
    assert (everything.first_day, everything.last_day) == (date(2026, 3, 1), date(2026, 3, 2))
    draw = offers(con, "Hero", replace(CASH, game="five_card_draw"))
    assert draw.stakes == ("0.50/0.50",)  # the stakes of the game picked only
    assert draw.games == everything.games  # each game is offered under the other picks
    assert (draw.first_day, draw.last_day) == (date(2026, 3, 2), date(2026, 3, 2))


def test_a_pick_nothing_allows_is_dropped_never_the_player(con: Connection) -> None:
    got = offers(con, "Hero", replace(CASH, game="five_card_draw", stakes="0.10/0.20"))
    assert got.kept == replace(CASH, stakes="0.10/0.20")  # the game goes, first in order
    assert got.games == ("27_triple_draw",)
