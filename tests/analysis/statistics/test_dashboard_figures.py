"""The statistics the dashboard needs beyond ``drawlab stats``: kinds of money, players
as site + name, results by stakes, and the hands behind a figure (on the corpus)."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.statistics import figures as stats
from analysis.statistics.figures import Filters
from analysis.storage import db
from tests.app_support import corpus_db_file_fixture  # noqa: F401  (fixture)

STARS_USD = Filters(site="pokerstars", currency="USD", tournament=False)


@pytest.fixture(name="con")
def con_fixture(corpus_db_file: Path) -> db.Connection:
    return db.connect(corpus_db_file, read_only=True)


def test_money_kinds_hero_most_played_first(con: db.Connection) -> None:
    kinds = stats.money_kinds(con)
    assert list(zip(kinds["tournament"], kinds["currency"], kinds["hands"],
                    kinds["hero_hands"], strict=True)) == [
        (False, "USD", 448, 102), (False, "EUR", 42, 15), (False, "play", 6, 0)]
    # the money filters themselves do not narrow what is offered
    assert stats.money_kinds(con, Filters(currency="EUR")).equals(kinds)


def test_a_player_is_a_name_at_a_site(con: db.Connection) -> None:
    players = stats.site_players(con, Filters(currency="USD", tournament=False))
    heroes = players[players["player"] == "Hero"]
    # the cash corpus as it is now: the Full Tilt 10-game file's Hero hands (20) make Full
    # Tilt the hero's most played site, one hand ahead of PokerStars (its 17-hand session);
    # the Merge 15-game session took Merge from 6 to 19
    assert list(zip(heroes["site"], heroes["hands"], strict=True)) == [
        ("fulltilt", 40), ("pokerstars", 29), ("merge", 19), ("kingsclub", 9), ("ongame", 5)]
    assert (players["site"].iloc[0], players["player"].iloc[0]) == ("fulltilt", "Hero")


def test_the_hands_behind_a_statistic_match_its_counts(con: db.Connection) -> None:
    values = {v.key: v for v in stats.player_stats(con, "Hero", STARS_USD)}
    for key in ("vpip", "pfr", "wtsd", "pat_1"):  # counted in hands
        v = values[key]
        assert len(stats.hand_ids(con, "Hero", STARS_USD, stat=key)) == v.denominator, key
        hits = stats.hand_ids(con, "Hero", STARS_USD, stat=key, counted="hits")
        assert len(hits) == v.numerator, key
    # counted in actions: the hands with at least one
    acts = stats.hand_ids(con, "Hero", STARS_USD, stat="afq_0")
    assert 0 < len(acts) <= values["afq_0"].denominator
    assert len(stats.hand_ids(con, "Hero", STARS_USD)) == 29
    btn = stats.hand_ids(con, "Hero", STARS_USD, column="position", value="BTN")
    assert btn == stats.hand_ids(con, "Hero", Filters(
        site="pokerstars", currency="USD", tournament=False, position="BTN"))
    assert len(btn) == 5
    with pytest.raises(ValueError, match="not a player_hands column"):
        stats.hand_ids(con, "Hero", STARS_USD, column="1; DROP TABLE hands", value=1)


def test_hands_of_a_session_are_that_session(con: db.Connection) -> None:
    sessions = stats.sessions(con, "Hero", STARS_USD)
    for row in sessions.itertuples():
        ids = stats.hand_ids(con, "Hero", STARS_USD, start=row.start.to_pydatetime(),
                             end=row.end.to_pydatetime())
        assert len(ids) == row.hands


def test_results_by_stakes_add_up_to_the_results(con: db.Connection) -> None:
    table = stats.by_stakes(con, "Hero", STARS_USD)
    res = stats.results(con, "Hero", STARS_USD)
    assert int(table["hands"].sum()) == res.hands == 29
    assert int(table["net"].sum()) == res.net
    assert list(table.columns[:3]) == ["game", "stakes", "big_bet"]
