"""``drawlab delete``: says how many hands would go and deletes nothing without ``--yes``
(nor without a person at a terminal), deletes an import, a file or a site with it."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import cli
from analysis.pipeline import watched
from analysis.storage import db as dbmod
from tests.app_support import KINGS_RIT, STARS_TRIPLE, copy_db, imported_one_by_one
from tests.paths import REPOSITORY

CASH = REPOSITORY / "sample_histories" / "pokerstars" / "27_triple_draw_fl_0.50-1_headsup.txt"


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three files imported once per module; each test deletes from a copy of its own."""
    files = (CASH, STARS_TRIPLE, KINGS_RIT)
    return imported_one_by_one(tmp_path_factory.mktemp("delete") / "d.duckdb", files)


@pytest.fixture(name="path")
def path_fixture(imported: Path, tmp_path: Path) -> str:
    return str(copy_db(imported, tmp_path))


def _hands(path: str) -> list[tuple[str, int]]:
    con = dbmod.connect(path)
    try:
        rows = con.execute("SELECT site, count(*) FROM hands GROUP BY 1 ORDER BY 1").fetchall()
    finally:
        con.close()
    return [(str(site), int(n)) for site, n in rows]


def test_without_yes_it_only_says_how_many_would_go(
    path: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))  # not a terminal: never asked
    assert cli.main(["delete", "--db", path, "--file", str(CASH)]) == 0
    assert capsys.readouterr().out == (
        f"would delete 300 hands of the file {CASH}; nothing deleted (--yes deletes them)\n"
    )
    assert _hands(path) == [("kingsclub", 1), ("pokerstars", 301)]


def test_with_yes_a_file_goes(path: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["delete", "--db", path, "--file", str(CASH), "--yes"]) == 0
    assert capsys.readouterr().out == f"deleted 300 hands of the file {CASH}\n"
    assert _hands(path) == [("kingsclub", 1), ("pokerstars", 1)]


def test_a_site_by_the_name_people_use(path: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["delete", "--db", path, "--site", "PokerStars", "--yes"]) == 0
    assert capsys.readouterr().out == "deleted 301 hands of the site PokerStars\n"
    assert _hands(path) == [("kingsclub", 1)]


def test_an_import_by_its_id_and_the_list(path: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["delete", "--db", path, "--list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "imports:"
    assert out[1].startswith("  #3 · ") and out[1].endswith(f"{KINGS_RIT}: 1 hand")
    assert out[-3:] == ["sites:", "  KingsClub: 1 hand", "  PokerStars: 301 hands"]
    assert cli.main(["delete", "--db", path, "--batch", "3", "--yes"]) == 0
    assert capsys.readouterr().out == f"deleted 1 hand of import 3 ({KINGS_RIT})\n"
    assert _hands(path) == [("pokerstars", 301)]


def test_a_terminal_is_asked_and_a_no_deletes_nothing(
    path: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = io.StringIO("n\n")
    answers.isatty = lambda: True  # type: ignore[method-assign]
    monkeypatch.setattr("sys.stdin", answers)
    assert cli.main(["delete", "--db", path, "--site", "kingsclub"]) == 0
    assert capsys.readouterr().out == (
        "delete 1 hand of the site KingsClub? [y/N] "
        "would delete 1 hand of the site KingsClub; nothing deleted (--yes deletes them)\n"
    )
    answers = io.StringIO("y\n")
    answers.isatty = lambda: True  # type: ignore[method-assign]
    monkeypatch.setattr("sys.stdin", answers)
    assert cli.main(["delete", "--db", path, "--site", "kingsclub"]) == 0
    assert capsys.readouterr().out.endswith("deleted 1 hand of the site KingsClub\n")
    assert _hands(path) == [("pokerstars", 301)]


def test_what_names_nothing_is_an_error_and_deletes_nothing(
    path: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["delete", "--db", path, "--site", "nowhere", "--yes"]) == 1
    assert capsys.readouterr().err == "no stored hands of a site named nowhere\n"
    assert cli.main(["delete", "--db", path, "--file", "/no/such.txt", "--yes"]) == 1
    assert capsys.readouterr().err == "nothing stored of the file /no/such.txt\n"
    assert cli.main(["delete", "--db", path, "--batch", "99", "--yes"]) == 1
    assert capsys.readouterr().err == "nothing stored of import 99\n"
    with pytest.raises(SystemExit):
        cli.main(["delete", "--db", path, "--site", "x", "--file", "y"])
    assert _hands(path) == [("kingsclub", 1), ("pokerstars", 301)]


def test_hands_of_a_watched_folder_are_named_before_anything_goes(
    path: str, capsys: pytest.CaptureFixture[str]
) -> None:
    con = dbmod.connect(path)
    watched.add(con, CASH.parent)
    con.close()
    assert cli.main(["delete", "--db", path, "--file", str(CASH)]) == 0
    captured = capsys.readouterr()
    assert captured.err == (
        "note: 300 of these hands are in a watched folder: the watcher imports them again "
        "unless the folder is no longer watched.\n"
    )
    assert captured.out.startswith("would delete 300 hands")
