"""``drawlab tag``, ``note``, ``alias`` and ``filters``, and ``--tag`` / ``--filters`` on
the commands that pick hands: the contract of issue 37, output as tools read it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analysis.pipeline.importer import import_paths
from analysis.storage import db as dbmod
from cli import main
from tests.app_support import (  # noqa: F401  (fixture)
    copy_db,
    imported_one_by_one,
    summaries_db_file_fixture,
)
from tests.paths import REPOSITORY

SAMPLE = REPOSITORY / "sample_histories" / "pokerstars" / "27_triple_draw_fl_0.10-0.20_6max.txt"


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample imported once per module; each test writes to a copy of its own."""
    return imported_one_by_one(tmp_path_factory.mktemp("cli") / "cli.duckdb", (SAMPLE,))


@pytest.fixture
def db_file(imported: Path, tmp_path: Path) -> tuple[str, list[str]]:
    path = str(copy_db(imported, tmp_path))
    con = dbmod.connect(path)
    ids = [str(r[0]) for r in con.execute("SELECT hand_id FROM hands ORDER BY id").fetchall()]
    con.close()
    return path, ids


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_tag_add_remove_and_list(
    db_file: tuple[str, list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    db, ids = db_file
    assert run(capsys, "tag", "add", "--db", db, ids[0], "review", "Bad Beat") == (
        0, f"pokerstars:{ids[0]}: bad beat, review\n", "")
    assert run(capsys, "tag", "add", "--db", db, "--site", "PokerStars", ids[1], "mistake")[0] == 0
    assert run(capsys, "tag", "remove", "--db", db, ids[0], "bad beat") == (
        0, f"pokerstars:{ids[0]}: review\n", "")
    assert run(capsys, "note", "hand", "--db", db, ids[0], "<b>not bold</b>")[0] == 0
    code, out, _ = run(capsys, "tag", "list", "--db", db, "--json")
    assert code == 0
    assert sorted(json.loads(line)["hand_id"] for line in out.splitlines()) == sorted(ids[:2])
    code, out, _ = run(capsys, "tag", "list", "--db", db, "--json", "--tag", "REVIEW")
    assert [json.loads(line) for line in out.splitlines()] == [
        {"site": "pokerstars", "hand_id": ids[0], "tags": ["review"], "note": "<b>not bold</b>"}
    ]
    assert run(capsys, "tag", "list", "--db", db, "--tag", "review") == (
        0, f"pokerstars {ids[0]}: review | <b>not bold</b>\n", "")


def test_unknown_hands_and_sites_are_one_sentence(
    db_file: tuple[str, list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    db, ids = db_file
    assert run(capsys, "tag", "add", "--db", db, "42", "review") == (
        1, "", "error: 42: no such hand stored\n")
    code, _, err = run(capsys, "tag", "add", "--db", db, "--site", "stars", ids[0], "x")
    assert (code, err) == (1, "error: unknown site 'stars'; the sites are: boss, fulltilt, "
                              "home, kingsclub, merge, ongame, opoker, phh, pokerstars, winamax\n")
    code, _, err = run(capsys, "note", "player", "--db", db, "Nowhere", "V", "x")
    assert code == 1 and err.startswith("error: unknown site 'Nowhere'; the sites are: boss")
    assert run(capsys, "alias", "remove", "--db", db, "me", "pokerstars", "Hero") == (
        1, "", "error: Hero at pokerstars is not one of me's names\n")


def test_player_notes_and_the_note_list(
    db_file: tuple[str, list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    db, ids = db_file
    assert run(capsys, "note", "player", "--db", db, "--colour", "red", "PokerStars", "Villain",
               "calls down light") == (0, "pokerstars Villain: [red] calls down light\n", "")
    run(capsys, "note", "hand", "--db", db, ids[2], "folded the nut draw")
    code, out, _ = run(capsys, "note", "list", "--db", db, "--json")
    assert code == 0
    assert [json.loads(line) for line in out.splitlines()] == [
        {"kind": "hand", "site": "pokerstars", "hand_id": ids[2], "tags": [],
         "note": "folded the nut draw"},
        {"kind": "player", "site": "pokerstars", "player": "Villain",
         "note": "calls down light", "colour": "red"},
    ]
    assert run(capsys, "note", "hand", "--db", db, ids[2], "") == (
        0, f"pokerstars:{ids[2]}: note removed\n", "")
    assert run(capsys, "note", "list", "--db", db) == (
        0, "pokerstars Villain: [red] calls down light\n", "")


def test_alias_add_and_list(
    db_file: tuple[str, list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    db, _ = db_file
    assert run(capsys, "alias", "add", "--db", db, "me", "Full Tilt", "HeroFT") == (
        0, "me: fulltilt HeroFT\n", "")
    run(capsys, "alias", "add", "--db", db, "me", "pokerstars", "Hero")
    code, out, _ = run(capsys, "alias", "list", "--db", db, "--json")
    assert code == 0
    assert [json.loads(line) for line in out.splitlines()] == [
        {"person": "me", "site": "fulltilt", "player": "HeroFT"},
        {"person": "me", "site": "pokerstars", "player": "Hero"},
    ]
    assert run(capsys, "alias", "remove", "--db", db, "me", "fulltilt", "HeroFT")[0] == 0
    assert run(capsys, "alias", "list", "--db", db) == (0, "me: pokerstars Hero\n", "")


def test_stats_by_tag_and_by_saved_filters(
    db_file: tuple[str, list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    db, ids = db_file
    for hand_id in ids[:3]:
        run(capsys, "tag", "add", "--db", db, hand_id, "review")
    code, out, _ = run(capsys, "stats", "--db", db, "--json", "--tag", "review")
    assert code == 0
    data = json.loads(out)
    assert data["filters"]["tag"] == "review"
    assert data["report"]["results"]["hands"] == 3
    assert run(capsys, "filters", "save", "--db", db, "weekly", "--tag", "review") == (
        0, 'weekly: {"tag": "review"}\n', "")
    code, out, _ = run(capsys, "stats", "--db", db, "--json", "--filters", "weekly",
                       "--site", "pokerstars")
    assert json.loads(out)["filters"]["site"] == "pokerstars"
    assert json.loads(out)["report"]["results"]["hands"] == 3
    code, out, _ = run(capsys, "filters", "list", "--db", db, "--json")
    assert json.loads(out) == {"name": "weekly", "filters": {"tag": "review"}}
    assert run(capsys, "stats", "--db", db, "--filters", "monthly") == (
        2, "", "error: no saved filters named 'monthly' (weekly)\n")
    assert run(capsys, "filters", "remove", "--db", db, "weekly") == (0, "weekly: removed\n", "")


def test_export_by_tag(
    db_file: tuple[str, list[str]], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db, ids = db_file
    run(capsys, "tag", "add", "--db", db, ids[1], "good play")
    out = tmp_path / "out"
    assert run(capsys, "export", "--db", db, "--format", "original", "--out", str(out),
               "--tag", "good play", "--json")[0] == 0
    texts = "".join(p.read_text() for p in out.rglob("*.txt"))
    assert texts.count("PokerStars Hand #") == 1 and ids[1] in texts


@pytest.mark.slow  # over 1.5 s: make test runs it
def test_stats_of_a_person_count_every_name_of_theirs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(tmp_path / "two.duckdb")
    con = dbmod.connect(path)
    home = REPOSITORY / "sample_histories" / "phh" / "five_card_draw_home_fixed.phh"
    import_paths(con, [SAMPLE, home], workers=0)
    seen = dict(con.execute("SELECT site, count(*) FROM player_hands WHERE player = 'Hero' "
                            "GROUP BY site").fetchall())
    con.close()
    assert set(seen) == {"pokerstars", "home"} and seen["home"] > 0
    run(capsys, "alias", "add", "--db", path, "me", "pokerstars", "Hero")
    code, out, _ = run(capsys, "stats", "--db", path, "--json", "--player", "me")
    assert code == 0
    assert json.loads(out)["report"]["results"]["hands"] == seen["pokerstars"]
    run(capsys, "alias", "add", "--db", path, "me", "home game", "Hero")
    code, out, _ = run(capsys, "stats", "--db", path, "--json", "--player", "me")
    data = json.loads(out)
    assert (data["player"], data["names"]) == ("me", ["home:Hero", "pokerstars:Hero"])
    assert data["report"]["results"]["hands"] == seen["pokerstars"] + seen["home"]
    code, out, _ = run(capsys, "stats", "--db", path, "--player", "me", "--site", "home")
    assert out.splitlines()[:2] == ["Person me: home:Hero, pokerstars:Hero",
                                    f"Player me: {seen['home']} hands"]


def test_export_of_a_persons_hands(
    db_file: tuple[str, list[str]], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db, _ = db_file
    con = dbmod.connect(db)
    (rare,) = con.execute(
        "SELECT player FROM seats WHERE player <> 'Hero' GROUP BY player "
        "ORDER BY count(*), player LIMIT 1").fetchall()[0]
    (other,) = con.execute(  # one seen in a hand without the first: the person adds hands
        "SELECT player FROM seats WHERE player NOT IN ('Hero', ?) AND hand NOT IN "
        "(SELECT hand FROM seats WHERE player = ?) GROUP BY player "
        "ORDER BY count(*), player LIMIT 1", [rare, rare]).fetchall()[0]
    two = [str(rare), str(other)]
    either, first = con.execute(
        "SELECT count(DISTINCT hand), count(DISTINCT hand) FILTER (player = ?) FROM seats "
        "WHERE player IN (?, ?)", [two[0], *two]).fetchall()[0]
    con.close()
    assert either > first > 0
    for name in two:
        run(capsys, "alias", "add", "--db", db, "reg", "pokerstars", name)
    for who, want in (("reg", either), (two[0], first)):
        out = tmp_path / who
        assert run(capsys, "export", "--db", db, "--format", "original", "--out", str(out),
                   "--player", who)[0] == 0
        texts = "".join(p.read_text() for p in out.rglob("*.txt"))
        assert texts.count("PokerStars Hand #") == want


def test_tournaments_of_a_person_count_every_name(
    summaries_db_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(copy_db(summaries_db_file, tmp_path))
    con = dbmod.connect(path)
    per_name = con.execute(  # the files' own players, and every result under their names
        "SELECT site, player, count(*) FROM tournament_results WHERE (site, player) IN "
        "(SELECT (site, player) FROM tournament_results WHERE source IN ('summary', 'hands')) "
        "GROUP BY site, player ORDER BY site, player").fetchall()
    con.close()
    (site_a, name_a, n_a), (site_b, name_b, n_b) = per_name[0], per_name[-1]
    assert site_a != site_b
    run(capsys, "alias", "add", "--db", path, "me", site_a, name_a)
    run(capsys, "alias", "add", "--db", path, "me", site_b, name_b)
    code, out, _ = run(capsys, "tournaments", "--db", path, "--player", "me", "--json")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == n_a + n_b
    assert {(r["site"], r["player"]) for r in rows} == {(site_a, name_a), (site_b, name_b)}
