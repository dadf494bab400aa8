"""``drawlab tournaments``: the list newest first, totals by currency, the JSON contract."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cli
from analysis import times
from analysis.storage import db as dbmod
from tests.analysis.storage.test_filter_days import timed_database
from tests.analysis.test_tournament_days import timed_tournaments
from tests.app_support import copy_db, summaries_db_file_fixture  # noqa: F401  (fixture)
from tests.corpus import CORPUS

SUMMARIES = CORPUS.parent / "summaries"
KEYS = ["site", "tournament_id", "name", "game", "buy_in", "fee", "bounty", "currency",
        "entrants", "prize_pool", "started", "finished", "player", "place", "prize", "entries",
        "rebuys", "addons", "bounties_won", "cost", "net"]


@pytest.fixture(scope="module")
def db(summaries_db_file: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The session's summaries, copied once for this module's commands."""
    return str(copy_db(summaries_db_file, tmp_path_factory.mktemp("t")))


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, object]]:
    assert cli.main(["tournaments", *argv, "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_json_keys_and_the_knockout_still_running(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = _json(capsys, "--db", db, "--site", "fulltilt", "--from", "2014-08-01")
    assert rows == [{
        "site": "fulltilt", "tournament_id": "271310526", "name": "The Sunday Brawl",
        "game": "Hold'em No Limit", "buy_in": 24000, "fee": 1500, "bounty": 4000,
        "currency": "USD", "entrants": 706, "prize_pool": 14120000,
        "started": "2014-08-03 15:03:00Z", "finished": None, "player": "Hero", "place": 38,
        "prize": 49420, "entries": 1, "rebuys": 0, "addons": 0, "bounties_won": 16000,
        "cost": 29500, "net": 35920,
    }]
    assert list(rows[0]) == KEYS


def test_newest_first_the_files_own_players(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    rows = _json(capsys, "--db", db)
    assert len(rows) == 21
    started = [r["started"] for r in rows]
    assert started == sorted(started, key=str, reverse=True)
    assert rows[0]["tournament_id"] == "2874010306"
    assert (rows[0]["cost"], rows[0]["rebuys"], rows[0]["addons"]) == (371000, 5, 1)


def test_play_money_in_whole_chips(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    [row] = _json(capsys, "--db", db, "--from", "2013-06-05", "--to", "2013-06-06")
    assert {k: row[k] for k in ("currency", "buy_in", "fee", "prize", "cost", "net")} == {
        "currency": "PLAY", "buy_in": 100, "fee": 9, "prize": 200, "cost": 109, "net": 91}


def test_a_listed_player_by_name_and_game(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    rows = _json(capsys, "--db", db, "--player", "blanconegro", "--game", "27_single_draw")
    assert [(r["place"], r["entries"], r["prize"], r["cost"], r["net"]) for r in rows] == [
        (5, 2, 1126710, 210000, 916710)]


def test_text_ends_with_totals_by_currency(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["tournaments", "--db", db, "--site", "winamax"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].startswith("2017-04-12 00:44  winamax     Expresso #193493816")
    assert out.split("totals in EUR:\n", 1)[1].splitlines() == [
        "  tournaments     4",
        "  cost            €55.50",
        "  prizes          €50.92",
        "  bounties        €0.00",
        "  net             -€4.58",
        "  ROI             -8.3%",
        "  in the money    50.0%",
        "  average finish  212.5",
    ]


def test_a_bad_day_is_an_error(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["tournaments", "--db", db, "--from", "yesterday"]) == 2
    assert "error:" in capsys.readouterr().err


def test_import_counts_summaries_apart_from_hands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = SUMMARIES / "Winamax" / "NLHE-EUR-SNG-25-201704.new.format.txt"
    db = str(tmp_path / "i.duckdb")
    assert cli.main(["import", "--db", db, "--json", str(path)]) == 0
    body = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["summary"]
    assert (body["hands"], body["parse_error"], body["summaries"], body["summaries_added"],
            body["summary_errors"]) == (0, 0, 1, 1, [])
    assert cli.main(["import", "--db", db, str(path)]) == 0
    table = [" ".join(line.split()) for line in capsys.readouterr().out.splitlines()]
    assert "tournament summaries read 1" in table
    assert "stored (new or newer) 0" in table


@pytest.mark.parametrize(("zone", "started"), [
    ("America/New_York", 2), ("Europe/Paris", 2), ("UTC", 3), (None, 2),
])
def test_from_and_to_are_days_of_the_zone_given_else_the_display_zone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], zone: str | None, started: int
) -> None:
    path = tmp_path / "t.duckdb"
    timed_tournaments(path)
    con = dbmod.connect(path)
    times.set_display_zone(con, "Europe/Paris")
    con.close()
    given = () if zone is None else ("--zone", zone)
    rows = _json(capsys, "--db", str(path), "--from", "2026-12-05", "--to", "2026-12-05",
                 *given)
    assert len(rows) == started


def test_export_days_are_the_zones(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "d.duckdb"
    timed_database(path)
    for zone, hands in (("America/New_York", 3), ("UTC", 4)):
        assert cli.main(["export", "--db", str(path), "--format", "original", "--out",
                         str(tmp_path / zone), "--from", "2026-12-05", "--to", "2026-12-05",
                         "--zone", zone, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["summary"]["hands"] == hands
    assert cli.main(["export", "--db", str(path), "--format", "original", "--out",
                     str(tmp_path / "x"), "--zone", "Nowhere/Else"]) == 2
    assert capsys.readouterr().err == ("error: unknown time zone: Nowhere/Else; give an IANA "
                                       "name such as America/New_York or UTC\n")
