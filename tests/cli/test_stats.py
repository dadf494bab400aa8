"""``drawlab stats`` on a database file holding the hand-built hands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analysis import times
from analysis.statistics.definitions import use_own
from analysis.statistics.facts import hand_facts
from analysis.storage.db import connect
from cli import main
from tests.analysis.statistics.test_figures import small_set
from tests.analysis.storage.test_filter_days import timed_database
from tests.paths import REPOSITORY
from tests.statsdb import load_rows


@pytest.fixture(scope="module")
def db_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("stats") / "hands.duckdb")
    con = connect(path)
    load_rows(con, [(i, r) for i, h in enumerate(small_set(), 1) for r in hand_facts(h)])
    con.close()
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["stats", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_text_report_for_the_hero(db_file: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--db", db_file)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Player H: 3 hands"
    assert lines[1] == "  net won -22.00 = -20.00 big bets, -666.67 BB/100, rake paid 0.00"
    assert lines[2] == "  showdown -18.00, non-showdown -4.00"
    assert "  VPIP" + " " * 41 + "100.0% (3/3)" in lines
    assert "  Snow" + " " * 41 + "100.0% (2/2)" in lines
    assert "  Cap" + " " * 42 + "- (0/0)" in lines


def test_json_report_for_a_player(db_file: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--db", db_file, "--player", "V", "--json")
    assert code == 0
    data = strict(out)
    assert (data["player"], data["hero"]) == ("V", "H")
    assert data["report"]["results"]["net"] == 1764
    assert data["report"]["results"]["rake"] == 36
    stats = {s["key"]: s for s in data["report"]["stats"]}
    assert (stats["fold_to_pat"]["numerator"], stats["fold_to_pat"]["denominator"]) == (0, 2)
    assert "VPIP" in data["report"]["definitions"]["vpip"]


def test_filters_reach_the_statistics(db_file: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--db", db_file, "--json", "--position", "SB")
    assert code == 0
    assert json.loads(out)["report"]["results"]["hands"] == 1
    code, out, _ = run(capsys, "--db", db_file, "--json", "--to", "2024-02-29",
                       "--player", "P1")
    assert json.loads(out)["report"]["results"]["net"] == 69


def strict(text: str) -> dict[str, object]:
    """JSON as other tools read it: NaN and Infinity are not JSON."""
    def refuse(name: str) -> None:
        raise ValueError(f"not JSON: {name}")
    data: dict[str, object] = json.loads(text, parse_constant=refuse)
    return data


def test_all_players(db_file: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--db", db_file, "--all-players", "--json")
    assert code == 0
    players = strict(out)["players"]
    assert isinstance(players, list)
    assert [p["player"] for p in players[:2]] == ["H", "V"]
    assert len(players) == 11
    code, out, _ = run(capsys, "--db", db_file, "--all-players")
    assert out.splitlines()[1].split() == [
        "H", "3", "-22.00", "-666.67", "100.0%", "100.0%", "100.0%", "66.7%", "66.7%", "0.33",
    ]


def test_errors_are_messages_not_tracebacks(
    db_file: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "--db", db_file, "--player", "nobody")
    assert (code, err) == (1, "error: no hands for player 'nobody'\n")
    code, _, err = run(capsys, "--db", str(tmp_path / "none.duckdb"))
    assert code == 1 and err.startswith("error: no database at ")
    code, _, err = run(capsys, "--db", db_file, "--from", "yesterday")
    assert code == 2 and err.startswith("error: ")
    empty = str(tmp_path / "empty.duckdb")
    connect(empty).close()
    code, _, err = run(capsys, "--db", empty)
    assert (code, err) == (1, "error: no hands match; import hands first or loosen the filters\n")


def test_kind_filter(db_file: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--db", db_file, "--json", "--kind", "cash", "--player", "H")
    assert json.loads(out)["report"]["results"]["hands"] == 3
    code, _, err = run(capsys, "--db", db_file, "--kind", "tournament")
    assert (code, err) == (1, "error: no hands match; import hands first or loosen the filters\n")


def test_valid_only_needs_the_hands_table(db_file: str, capsys: pytest.CaptureFixture[str]) -> None:
    # The fixture database holds facts but no hands rows: nothing is valid.
    code, _, err = run(capsys, "--db", db_file, "--valid-only")
    assert (code, err) == (1, "error: no hands match; import hands first or loosen the filters\n")


def test_all_players_with_a_minimum_of_hands(
    db_file: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "--db", db_file, "--all-players", "--json", "--min-hands", "2")
    assert [p["player"] for p in json.loads(out)["players"]] == ["H", "V"]
    code, out, _ = run(capsys, "--db", db_file, "--all-players", "--min-hands", "3")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == ["player", "H"]


def test_stats_read_the_file_without_writing_it(
    db_file: str, capsys: pytest.CaptureFixture[str]
) -> None:
    before = Path(db_file).read_bytes()
    code, out, _ = run(capsys, "--db", db_file, "--all-players", "--json", "--min-hands", "2")
    assert code == 0 and [p["player"] for p in json.loads(out)["players"]] == ["H", "V"]
    assert Path(db_file).read_bytes() == before


def test_stats_beside_another_reader(db_file: str, capsys: pytest.CaptureFixture[str]) -> None:
    import subprocess
    import sys

    holder = subprocess.Popen(
        [sys.executable, "-c", "import duckdb, sys; c = duckdb.connect(sys.argv[1], "
         "read_only=True); print('held', flush=True); sys.stdin.read()", db_file],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        code, out, err = run(capsys, "--db", db_file, "--all-players", "--json", "--min-hands", "2")
        assert (code, err) == (0, "")
        assert [p["player"] for p in json.loads(out)["players"]] == ["H", "V"]
    finally:
        holder.kill()
        holder.wait()


def test_stats_migrate_an_older_database_then_read_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import duckdb

    from analysis.storage.schema import CURRENT_VERSION, MIGRATIONS

    path = tmp_path / "old.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied TIMESTAMP)")
    for statement in MIGRATIONS[0]:
        con.execute(statement)
    con.execute("INSERT INTO schema_version VALUES (1, current_timestamp)")
    con.close()
    code, _, err = run(capsys, "--db", str(path))
    assert (code, err) == (1, "error: no hands match; import hands first or loosen the filters\n")
    con = duckdb.connect(str(path), read_only=True)
    assert con.execute("SELECT max(version) FROM schema_version").fetchall() == [
        (CURRENT_VERSION,)
    ]
    con.close()


@pytest.fixture(name="two_kinds", scope="module")
def two_kinds_fixture(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Hero's 900 USD cash hands and 300 sit-and-go hands in chips, at PokerStars."""
    from analysis.pipeline.importer import import_paths

    folder = REPOSITORY / "sample_histories" / "pokerstars"
    path = tmp_path_factory.mktemp("kinds") / "d.duckdb"
    con = connect(path)
    import_paths(con, [folder / "27_triple_draw_fl_0.10-0.20_6max.txt",
                       folder / "27_triple_draw_fl_sit_and_go_6max.txt"], workers=0)
    con.close()
    return str(path)


def test_stats_show_the_heros_most_played_money_never_a_sum_of_kinds(
    two_kinds: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "--db", two_kinds, "--json")
    got = json.loads(out)
    assert code == 0
    assert (got["filters"]["currency"], got["filters"]["tournament"]) == ("USD", False)
    assert got["report"]["results"]["hands"] == 900
    assert got["notes"] == ["cash USD only, Hero's most played money of cash USD (900 hands), "
                            "tournament chips (300 hands); --currency and --kind pick another"]
    code, out, _ = run(capsys, "--db", two_kinds, "--json", "--kind", "tournament")
    assert json.loads(out)["report"]["results"]["hands"] == 300
    code, out, _ = run(capsys, "--db", two_kinds)
    assert out.startswith("note: cash USD only, Hero's most played money")


def test_a_site_is_asked_for_by_its_name_in_any_case(
    two_kinds: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for asked in ("PokerStars", "pokerstars", "POKER STARS"):
        code, out, _ = run(capsys, "--db", two_kinds, "--json", "--site", asked)
        assert code == 0
        assert json.loads(out)["filters"]["site"] == "pokerstars"
        assert json.loads(out)["report"]["results"]["hands"] == 900
    code, out, err = run(capsys, "--db", two_kinds, "--site", "Full Tilt")
    assert (code, out) == (1, "")
    assert err == ("error: unknown site 'Full Tilt'; this database holds: "
                   "PokerStars (pokerstars)\n")


def test_own_statistics_beside_the_database_are_shown_and_broken_ones_refused(
    db_file: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "hands.duckdb"
    copy.write_bytes(Path(db_file).read_bytes())
    (tmp_path / "statistics").mkdir()
    (tmp_path / "statistics" / "vpip_twice.toml").write_text(
        'name = "VPIP twice"\ndefinition = "Twice the VPIP."\nvalue = "2 * vpip / hands"\n'
        'format = "number"\n', encoding="utf-8")
    (tmp_path / "statistics" / "broken.toml").write_text(
        'name = "Broken"\ndefinition = "A fact that is not."\nvalue = "vpip / nothing"\n',
        encoding="utf-8")
    try:
        code, out, err = run(capsys, "--db", str(copy))
        assert code == 0
        assert "Your own\n  VPIP twice" + " " * 35 + "2.00 (6/3)" in out
        assert err.startswith(f"statistic not loaded: {tmp_path / 'statistics' / 'broken.toml'}, "
                              "line 3: no fact named 'nothing'; the facts are ")
        code, out, _ = run(capsys, "--db", str(copy), "--json")
        stats = {s["key"]: s for s in strict(out)["report"]["stats"]}
        assert (stats["vpip_twice"]["numerator"], stats["vpip_twice"]["kind"]) == (6, "ratio")
    finally:
        use_own(())


@pytest.fixture(scope="module")
def timed_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The hands at midnight's edges (``test_filter_days``), the display zone Paris."""
    path = tmp_path_factory.mktemp("days") / "d.duckdb"
    timed_database(path)
    con = connect(path)
    times.set_display_zone(con, "Europe/Paris")
    con.close()
    return str(path)


def _hands(capsys: pytest.CaptureFixture[str], db: str, *argv: str) -> tuple[int, list[str]]:
    code, out, _ = run(capsys, "--db", db, "--json", *argv)
    assert code == 0
    data = strict(out)
    return data["report"]["results"]["hands"], data["notes"]


@pytest.mark.parametrize(("zone", "fifth", "to_fourth"), [
    ("America/New_York", 3, 9), ("Europe/Paris", 3, 8), ("UTC", 4, 8), (None, 3, 8),
])
def test_from_and_to_are_days_of_the_zone_given_else_the_display_zone(
    timed_file: str, capsys: pytest.CaptureFixture[str], zone: str | None, fifth: int,
    to_fourth: int,
) -> None:
    given = () if zone is None else ("--zone", zone)
    hands, notes = _hands(capsys, timed_file, "--from", "2026-12-05", "--to", "2026-12-05",
                          *given)
    assert hands == fifth
    said = "the display zone; --zone picks another" if zone is None else "--zone"
    assert notes == [f"days are {zone or 'Europe/Paris'}'s ({said})"]
    assert _hands(capsys, timed_file, "--to", "2026-12-04", *given)[0] == to_fourth
    assert _hands(capsys, timed_file, *given) == (12, [])


def test_an_unknown_zone_is_refused(timed_file: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--db", timed_file, "--zone", "Mars/Olympus", "--from",
                         "2026-12-05")
    assert (code, out) == (1, "")
    assert err == ("error: unknown time zone: Mars/Olympus; give an IANA name such as "
                   "America/New_York or UTC\n")
