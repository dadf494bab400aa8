"""Deleting an import, a file's hands or a site's hands: everything kept of them goes, the
rest stays exactly, and the figures are those of a database that never had them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest

from analysis.pipeline import watched
from analysis.pipeline.importer import import_paths
from analysis.statistics import figures as stats
from analysis.storage import db, deletion, memory, stat_cells
from analysis.storage.filters import Filters
from tests.app_support import KINGS_RIT, STARS_TRIPLE, imported_one_by_one
from tests.corpus import CORPUS
from tests.paths import REPOSITORY

SAMPLES = REPOSITORY / "sample_histories" / "pokerstars"
CASH = SAMPLES / "27_triple_draw_fl_0.50-1_headsup.txt"  # 300 hands
SNG = SAMPLES / "27_single_draw_nl_sit_and_go_headsup.txt"  # 120 hands, 2 tournaments
FILES = (CASH, SNG, STARS_TRIPLE, KINGS_RIT)
SUMMED = ("stat_cells", "draw_cells", "draw_month_cells", "hand_cells")


def _database(path: Path, files: tuple[Path, ...]) -> db.Connection:
    return db.connect(imported_one_by_one(path, files))


def _counts(con: db.Connection) -> dict[str, int]:
    tables = [
        "hands",
        "quarantine",
        "files",
        "tournaments",
        "tournament_results",
        *deletion.per_hand_tables(con),
    ]
    return {t: int(con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0]) for t in tables}


def _orphans(con: db.Connection) -> dict[str, int]:
    return {
        t: int(
            con.execute(
                f"SELECT count(*) FROM {t} WHERE hand NOT IN (SELECT id FROM hands)"
            ).fetchall()[0][0]
        )
        for t in deletion.per_hand_tables(con)
    }


def _summed(con: db.Connection) -> dict[str, list[tuple[object, ...]]]:
    return {t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in SUMMED}


def _figures(con: db.Connection, player: str) -> tuple[object, ...]:
    report = stats.player_report(con, player, Filters())
    parts = (
        report.results,
        report.stats,
        report.by_position,
        report.draws,
        report.draw_counts,
        report.showdown,
        report.sessions,
        report.by_date,
    )
    return tuple(p.to_json(date_format="iso") if isinstance(p, pd.DataFrame) else p for p in parts)


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """FILES imported once per module; each test deletes from a copy of its own."""
    return imported_one_by_one(tmp_path_factory.mktemp("deletion") / "all.duckdb", FILES)


@pytest.fixture(name="con")
def con_fixture(tmp_path: Path, imported: Path) -> db.Connection:
    return db.connect(shutil.copyfile(imported, tmp_path / "all.duckdb"))


def _never_had(tmp_path: Path, files: tuple[Path, ...]) -> db.Connection:
    return _database(tmp_path / "never.duckdb", files)


def test_a_files_hands_go_and_the_figures_are_a_database_without_them(
    con: db.Connection, tmp_path: Path
) -> None:
    before = _counts(con)
    assert (before["hands"], before["tournaments"]) == (300 + 120 + 1 + 1, 2)
    selection = deletion.of_file(str(CASH))
    assert deletion.count(con, selection) == deletion.Doomed(hands=300, texts=0)
    deleted = deletion.delete(con, selection)
    assert (deleted.hands, deleted.texts, deleted.files, deleted.tournaments) == (300, 0, 1, 0)
    assert _counts(con)["hands"] == before["hands"] - 300
    assert set(_orphans(con).values()) == {0}
    never = _never_had(tmp_path, (SNG, STARS_TRIPLE, KINGS_RIT))
    assert _summed(con) == _summed(never)
    assert _figures(con, "Hero") == _figures(never, "Hero")
    assert stats.results(con, "Hero", Filters(site="pokerstars")).hands == 120 + 1


def test_a_deleted_file_can_be_imported_again_and_adds_exactly_its_hands(
    con: db.Connection,
) -> None:
    before = _counts(con)
    deletion.delete(con, deletion.of_file(str(CASH)))
    assert import_paths(con, [CASH], workers=0).added == 300
    after = _counts(con)
    assert {t: n for t, n in after.items() if t != "files"} == {
        t: n for t, n in before.items() if t != "files"
    }


def test_an_import_goes_with_its_tournaments_and_summaries_follow(
    con: db.Connection, tmp_path: Path
) -> None:
    batch = int(
        con.execute("SELECT id FROM import_batches WHERE file = ?", [str(SNG)]).fetchall()[0][0]
    )
    selection = deletion.of_batch(con, batch)
    assert selection.label == f"import {batch} ({SNG})"
    assert deletion.count(con, selection) == deletion.Doomed(hands=120, texts=0)
    deleted = deletion.delete(con, selection)
    assert (deleted.hands, deleted.tournaments) == (120, 2)
    assert _counts(con)["tournaments"] == _counts(con)["tournament_results"] == 0
    assert set(_orphans(con).values()) == {0}
    never = _never_had(tmp_path, (CASH, STARS_TRIPLE, KINGS_RIT))
    assert _summed(con) == _summed(never)
    assert _figures(con, "Hero") == _figures(never, "Hero")
    # the import stays in the history, with nothing left to delete
    assert con.execute("SELECT count(*) FROM import_batches").fetchall() == [(4,)]
    assert deletion.count(con, selection) == deletion.Doomed(hands=0, texts=0)


def test_a_sites_hands_go_with_their_tags_and_notes_and_others_keep_theirs(
    con: db.Connection, tmp_path: Path
) -> None:
    kings = str(
        con.execute("SELECT key FROM hands WHERE site = 'kingsclub' LIMIT 1").fetchall()[0][0]
    )
    stars = str(
        con.execute("SELECT key FROM hands WHERE site = 'pokerstars' LIMIT 1").fetchall()[0][0]
    )
    for key in (kings, stars):
        memory.add_tags(con, key, ["review"])
        memory.set_hand_note(con, key, "a note")
    selection = deletion.of_site("kingsclub")
    assert deletion.count(con, selection) == deletion.Doomed(hands=1, texts=0)
    deleted = deletion.delete(con, selection)
    assert (deleted.hands, deleted.tags, deleted.notes, deleted.files) == (1, 1, 1, 1)
    assert memory.tags_of(con, stars) == ("review",)
    assert memory.note_of(con, stars) == "a note"
    assert memory.tags_of(con, kings) == ()
    assert con.execute("SELECT DISTINCT site FROM hands").fetchall() == [("pokerstars",)]
    never = _never_had(tmp_path, (CASH, SNG, STARS_TRIPLE))
    assert _summed(con) == _summed(never)


def test_an_unreadable_text_goes_with_its_file(tmp_path: Path) -> None:
    broken = tmp_path / "broken.txt"
    broken.write_text("PokerStars Hand #1: garbage\nnothing\n", encoding="utf-8")
    con = _database(tmp_path / "q.duckdb", (broken, CASH))
    assert deletion.count(con, deletion.of_file(str(broken))) == deletion.Doomed(0, 1)
    deleted = deletion.delete(con, deletion.of_file(str(broken)))
    assert (deleted.hands, deleted.texts, deleted.files) == (0, 1, 1)
    assert con.execute("SELECT count(*) FROM quarantine").fetchall() == [(0,)]
    assert con.execute("SELECT path FROM files").fetchall() == [(str(CASH),)]


def test_a_delete_that_fails_half_way_deletes_nothing(
    con: db.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _counts(con)
    real = deletion.per_hand_tables
    monkeypatch.setattr(deletion, "per_hand_tables", lambda c: [*real(c), "no_such_table"])
    with pytest.raises(db.duckdb.CatalogException):
        deletion.delete(con, deletion.of_site("pokerstars"))
    monkeypatch.undo()
    assert _counts(con) == before
    assert stat_cells.current(con)  # the summaries' mark went back with the rest
    assert deletion.delete(con, deletion.of_site("pokerstars")).hands == 421  # and again


def test_nothing_matches_a_file_or_site_never_stored(con: db.Connection) -> None:
    before = _counts(con)
    for selection in (
        deletion.of_file("/no/such/file.txt"),
        deletion.of_site("nowhere"),
        deletion.of_batch(con, 999),
    ):
        assert deletion.count(con, selection).empty
        assert deletion.delete(con, selection).hands == 0
    assert _counts(con) == before


def test_the_count_says_how_many_hands_a_watcher_would_import_again(
    con: db.Connection,
) -> None:
    watched.add(con, CASH.parent)
    doomed = deletion.count(con, deletion.of_site("pokerstars"))
    assert doomed == deletion.Doomed(hands=421, texts=0, watched=420)
    assert deletion.watched_warning(doomed) == (
        "420 of these hands are in a watched folder: the watcher imports them again unless "
        "the folder is no longer watched."
    )
    assert deletion.watched_warning(deletion.count(con, deletion.of_file(str(KINGS_RIT)))) == ""


def test_a_summary_file_goes_with_its_tournament_and_a_site_with_all_of_its(
    tmp_path: Path,
) -> None:
    summaries = CORPUS / "summaries" / "FTP"
    sng = summaries / "27TD-USD-HUSnG-201101.Hero.wins.txt"
    con = _database(tmp_path / "t.duckdb", (summaries, CORPUS / "tour" / "Stars" / "Draw"))
    listed = {s.value: s.held for s in deletion.files(con)}
    assert listed[str(sng)] == deletion.Doomed(hands=0, texts=0, summaries=1)
    assert deletion.count(con, deletion.of_file(str(sng))).text() == (
        "0 hands and 1 tournament summary"
    )
    deleted = deletion.delete(con, deletion.of_file(str(sng)))
    assert (deleted.hands, deleted.tournaments) == (0, 1)
    left = "SELECT count(*) FROM tournament_results WHERE tournament_id = '211366000'"
    assert con.execute(left).fetchall() == [(0,)]
    assert con.execute("SELECT count(*) FROM tournaments").fetchall() == [(3,)]
    fulltilt = deletion.of_site("fulltilt")
    assert deletion.count(con, fulltilt) == deletion.Doomed(hands=0, texts=0, summaries=2)
    deletion.delete(con, fulltilt)
    assert con.execute("SELECT site, source FROM tournaments").fetchall() == [
        ("pokerstars", "hands")
    ]
    assert [s.label for s in deletion.sites(con)] == ["PokerStars"]
