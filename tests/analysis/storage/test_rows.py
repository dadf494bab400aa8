"""One hand's rows, value by value: what the statistics and the dashboard will read."""

from __future__ import annotations

from datetime import datetime

import duckdb
import pytest

from analysis.pipeline.importer import import_paths
from analysis.pipeline.verify_files import verify_paths
from analysis.storage import db as dbmod
from analysis.storage.rows import Rows, add_result, hand_key
from tests.store_data import STARS, STARS_TRIPLE


@pytest.fixture(scope="module")
def con() -> duckdb.DuckDBPyConnection:
    c = dbmod.connect(":memory:")
    import_paths(c, [STARS_TRIPLE], workers=0)
    return c


def test_hand_row(con: duckdb.DuckDBPyConnection) -> None:
    row = con.execute(
        "SELECT key, site, hand_id, table_name, game, structure, small_blind, big_blind, "
        "small_bet, big_bet, currency, time, button, max_seats, players, hero, hero_cards, "
        "total_pot, rake, status, errors, warnings, line FROM hands"
    ).fetchall()
    assert row == [
        (
            "pokerstars:63845186378", "pokerstars", "63845186378", "SeinV", "27_triple_draw",
            "fixed", 5, 10, 10, 20, "USD", datetime(2011, 6, 26, 17, 34, 2), 1, 6, 5, "Hero",
            "8sTdKdQsQc", 135, 6, "ok", 0, 0, 1,
        )
    ]  # fmt: skip
    text = con.execute("SELECT text FROM hands").fetchall()[0][0]
    assert text == STARS_TRIPLE.read_text("utf-8-sig").strip("\n")


def test_seats(con: duckdb.DuckDBPyConnection) -> None:
    assert con.execute("SELECT seat, player, stack, cards FROM seats ORDER BY seat").fetchall() == [
        (1, "Player1", 436, None),
        (2, "Hero", 340, "8sTdKdQsQc"),
        (3, "Player2", 300, None),
        (4, "Player3", 398, None),
        (5, "Player4", 446, None),
    ]


def test_actions_posts_included_in_order(con: duckdb.DuckDBPyConnection) -> None:
    rows = con.execute("SELECT street, player, kind, amount FROM actions ORDER BY idx").fetchall()
    assert rows == [
        (0, "Hero", "post_small_blind", 5), (0, "Player2", "post_big_blind", 10),
        (0, "Player3", "call", 10), (0, "Player4", "fold", 0), (0, "Player1", "call", 10),
        (0, "Hero", "fold", 0), (0, "Player2", "check", 0),
        (1, "Player2", "check", 0), (1, "Player3", "check", 0), (1, "Player1", "bet", 10),
        (1, "Player2", "fold", 0), (1, "Player3", "call", 10),
        (2, "Player3", "check", 0), (2, "Player1", "bet", 20), (2, "Player3", "call", 20),
        (3, "Player3", "bet", 20), (3, "Player1", "call", 20),
    ]  # fmt: skip


def test_draws_shows_payouts(con: duckdb.DuckDBPyConnection) -> None:
    draws = con.execute("SELECT draw, player, count FROM draws ORDER BY idx").fetchall()
    assert draws == [
        (1, "Player2", 3), (1, "Player3", 2), (1, "Player1", 2),
        (2, "Player3", 2), (2, "Player1", 0), (3, "Player3", 1), (3, "Player1", 0),
    ]  # fmt: skip
    shows = con.execute("SELECT player, cards, mucked FROM shows ORDER BY idx").fetchall()
    assert shows == [("Player3", "7d2s8d5h5c", False), ("Player1", "3c6s7h8c9d", False)]
    payouts = con.execute("SELECT player, kind, amount, pot FROM payouts").fetchall()
    assert payouts == [("Player1", "collect", 129, 0)]
    # the steps' positions interleave the tables in the hand's order
    idx = con.execute(
        "SELECT idx FROM (SELECT idx FROM actions UNION ALL SELECT idx FROM draws "
        "UNION ALL SELECT idx FROM shows UNION ALL SELECT idx FROM payouts) ORDER BY idx"
    ).fetchall()
    assert len(idx) == len(set(idx)) == 17 + 7 + 2 + 1


def test_final_stacks_carried_to_the_next_hand_follow_the_chips() -> None:
    rows = Rows()
    [result] = verify_paths([STARS_TRIPLE])
    add_result(rows, result)
    [(local, _, final)] = rows.carry
    assert local == 0
    assert final == {
        "Player1": 436 - 60 + 129,
        "Hero": 340 - 5,
        "Player2": 300 - 10,
        "Player3": 398 - 60,
        "Player4": 446,
    }


def test_hand_keys() -> None:
    when = datetime(2020, 1, 2, 3, 4, 5)
    assert hand_key("pokerstars", "123", "T", when, "x") == "pokerstars:123"
    assert hand_key("boss", "", "T", when, "x") == "boss:T@2020-01-02T03:04:05"
    assert hand_key("boss", "", "", None, "x") == hand_key("boss", "", "T", None, "x")
    assert hand_key("boss", "", "", None, "x").startswith("boss#")
    assert hand_key("boss", "", "", None, "x") != hand_key("boss", "", "", None, "y")


def test_pots_main_and_side_with_their_winners() -> None:
    """The corpus's side pot: the site says "Main pot $0.43. Side pot $0.10. | Rake
    $0.02"; stored before rake, as the replay builds them."""
    con = dbmod.connect(":memory:")
    import_paths(con, [STARS / "5-Carddraw-FL-USD-0.10-0.20-201106.sidepot.txt"], workers=0)
    assert con.execute(
        "SELECT idx, amount, eligible, winners FROM pots ORDER BY idx"
    ).fetchall() == [
        (0, 45, ["Player3", "Player4", "Hero"], ["Player3"]),
        (1, 10, ["Player3", "Hero"], ["Player3"]),
    ]


def test_a_pot_whose_cards_were_never_shown_has_no_winners() -> None:
    from engine.pots import SettledPot
    from engine.profiles import profile_for
    from engine.record import Collect
    from engine.settle import Reported, Table, settle

    table = Table(
        total={"Ann": 200, "Bob": 200}, returned={}, live=["Ann", "Bob"],
        seat_of={"Ann": 1, "Bob": 2}, button=2, strengths={0: {"Ann": 7}},
    )  # fmt: skip
    reported = Reported((), (Collect("Ann", 400, 9),), 0, None, (), False, 10)
    codes = [p.code for p in settle(table, reported, profile_for("pokerstars"))]
    assert codes == ["UNDECIDED"]
    assert table.pots == (SettledPot(400, ("Ann", "Bob"), None),)
