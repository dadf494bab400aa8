"""Tournaments without a summary get their results from the hands; a summary wins later."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cli
from analysis.pipeline.importer import import_bytes, import_paths
from analysis.storage import db as dbmod
from tests.corpus import CORPUS

SNG = CORPUS / "tour" / "Stars" / "Draw" / (
    "2-7 Single Draw-NL-USD-2max-STT-1.40-201212.ante.all.in.txt"
)
SUMMARY = """PokerStars Tournament #476454368, No Limit Single Draw 2-7 Lowball
Buy-In: $1.40/$0.10 USD
2 players
Total Prize Pool: $2.80 USD
Tournament started 2011/11/29 22:30:00 CET [2011/11/29 16:30:00 ET]
Tournament finished 2011/11/29 22:52:08 CET [2011/11/29 16:52:08 ET]
  1: Player0 (Peru), $2.80 (100%)
  2: Hero (Peru),

You finished in 2nd place.
"""


def _json(db: str, capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, object]]:
    assert cli.main(["tournaments", "--db", db, "--json", *argv]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_results_from_the_hands_then_the_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "t.duckdb")
    con = dbmod.connect(db)
    imported = import_paths(con, [SNG], workers=0)
    assert (imported.hands, imported.tournaments_from_hands) == (1, 1)
    con.close()
    [hero] = _json(db, capsys)
    assert hero == {
        "site": "pokerstars", "tournament_id": "476454368", "name": "",
        "game": "27_single_draw", "buy_in": 140, "fee": 10, "bounty": 0, "currency": "USD",
        "entrants": None, "prize_pool": None, "started": "2011-11-29 21:52:08Z",
        "finished": "2011-11-29 21:52:08Z", "player": "Hero", "place": 2, "prize": 0,
        "entries": 1, "rebuys": 0, "addons": 0, "bounties_won": 0, "cost": 150, "net": -150,
    }
    [winner] = _json(db, capsys, "--player", "Player0")
    assert (winner["place"], winner["prize"], winner["net"]) == (1, 280, 130)

    con = dbmod.connect(db)
    later = import_bytes(con, "summary.txt", SUMMARY.encode())
    assert (later.summaries_added, later.tournaments_from_hands) == (1, 0)
    assert con.execute("SELECT source, entrants, started FROM tournaments").fetchall()[0][:2] == (
        "summary", 2)
    again = import_paths(con, [SNG], workers=0)  # the hands again: the summary stays
    assert again.tournaments_from_hands == 0
    con.close()
    [hero] = _json(db, capsys)
    assert (hero["entrants"], hero["prize_pool"], hero["started"], hero["net"]) == (
        2, 280, "2011-11-29 21:30:00Z", -150)


def test_rebuys_the_hands_state_count_in_the_cost(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = SNG.read_text(encoding="utf-8").replace(
        "Seat 2: Player0 (2999 in chips)\n",
        "Seat 2: Player0 (2999 in chips)\nHero re-buys and receives 1500 chips for $1.40\n",
    )
    db = str(tmp_path / "t.duckdb")
    con = dbmod.connect(db)
    import_bytes(con, "rebuy.txt", text.encode())
    con.close()
    [hero] = _json(db, capsys)
    assert (hero["rebuys"], hero["cost"], hero["net"], hero["place"]) == (1, 290, -290, 2)
