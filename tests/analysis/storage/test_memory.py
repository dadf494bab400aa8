"""What the player writes down (``analysis.storage.memory``): tags, notes, aliases and
saved filters, and that they are kept through reverify, a re-import, an export and a
migration."""

from __future__ import annotations

import shutil
from dataclasses import replace
from datetime import date
from pathlib import Path

import duckdb
import pytest

from analysis.pipeline.importer import import_paths
from analysis.pipeline.reverify import reverify
from analysis.statistics.figures import player_report
from analysis.storage import dataset, memory
from analysis.storage import db as dbmod
from analysis.storage.filters import Filters
from analysis.storage.queries import count_hands, list_hands
from analysis.storage.schema import MIGRATIONS
from tests.paths import REPOSITORY

SAMPLE = REPOSITORY / "sample_histories" / "pokerstars" / "27_triple_draw_fl_0.10-0.20_6max.txt"


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample imported once per module; each test writes to a copy of its own."""
    path = tmp_path_factory.mktemp("memory") / "m.duckdb"
    con = dbmod.connect(str(path))
    import_paths(con, [SAMPLE], workers=0)
    con.close()
    return path


@pytest.fixture
def con(tmp_path: Path, imported: Path) -> duckdb.DuckDBPyConnection:
    shutil.copyfile(imported, tmp_path / "m.duckdb")
    return dbmod.connect(str(tmp_path / "m.duckdb"))


def _ids(con: duckdb.DuckDBPyConnection) -> list[str]:
    return [str(r[0]) for r in con.execute("SELECT hand_id FROM hands ORDER BY id").fetchall()]


def test_tags_are_one_word_form_and_kept_once(con: duckdb.DuckDBPyConnection) -> None:
    first = _ids(con)[0]
    key = memory.hand_key(con, first)
    assert key == f"pokerstars:{first}"
    assert memory.add_tags(con, key, ["Bad  Beat", "review", "bad beat"]) == ("bad beat", "review")
    assert memory.add_tags(con, key, ["review"]) == ("bad beat", "review")
    assert memory.remove_tags(con, key, ["REVIEW", "never there"]) == ("bad beat",)
    with pytest.raises(memory.MemoryInputError, match="a tag cannot be empty"):
        memory.add_tags(con, key, ["  "])
    assert memory.all_tags(con) == ["bad beat", "good play", "mistake", "review"]


def test_a_hand_is_named_by_its_number_and_site(con: duckdb.DuckDBPyConnection) -> None:
    first = _ids(con)[0]
    assert memory.hand_key(con, f"#{first}", "PokerStars") == f"pokerstars:{first}"
    with pytest.raises(memory.MemoryInputError, match=f"^{first}: no such hand stored$"):
        memory.hand_key(con, first, "fulltilt")
    with pytest.raises(memory.MemoryInputError, match="no such hand stored"):
        memory.hand_key(con, "123")
    with pytest.raises(memory.MemoryInputError) as found:
        memory.hand_key(con, first, "Stars")
    assert str(found.value) == (
        "unknown site 'Stars'; the sites are: boss, fulltilt, home, kingsclub, merge, "
        "ongame, opoker, phh, pokerstars, winamax"
    )


def test_site_names_are_read_in_any_case() -> None:
    assert memory.site_id("Full Tilt") == "fulltilt"
    assert memory.site_id("FULLTILT") == "fulltilt"
    assert memory.site_id(" pokerstars ") == "pokerstars"


def test_the_tag_filter_keeps_the_tagged_hands_everywhere(con: duckdb.DuckDBPyConnection) -> None:
    ids = _ids(con)
    for hand_id in ids[:2]:
        memory.add_tags(con, memory.hand_key(con, hand_id), ["review"])
    tagged = Filters(tag="review")
    assert count_hands(con, tagged) == 2
    assert sorted(list_hands(con, tagged)["hand_id"]) == sorted(ids[:2])
    assert tagged.where_cells() is None  # the summed cells know no tags
    hero = str(con.execute("SELECT hero FROM hands LIMIT 1").fetchall()[0][0])
    seated = con.execute(
        "SELECT count(DISTINCT hand) FROM player_hands WHERE player = ? AND hand IN "
        "(SELECT id FROM hands WHERE hand_id IN (?, ?))", [hero, *ids[:2]]
    ).fetchall()[0][0]
    assert player_report(con, hero, tagged).results.hands == seated
    assert count_hands(con, Filters(tag="mistake")) == 0


def test_hand_notes_and_the_remembered_hands(con: duckdb.DuckDBPyConnection) -> None:
    ids = _ids(con)
    a, b = memory.hand_key(con, ids[0]), memory.hand_key(con, ids[1])
    memory.add_tags(con, a, ["mistake"])
    memory.set_hand_note(con, b, "  *not* markdown  ")
    assert memory.note_of(con, b) == "*not* markdown"
    assert [h.as_dict() for h in memory.remembered_hands(con)] == [
        {"site": "pokerstars", "hand_id": ids[0], "tags": ["mistake"], "note": ""}
    ]
    assert {h.key for h in memory.remembered_hands(con, noted=True)} == {a, b}
    assert memory.remembered_hands(con, "review") == []
    found = memory.hand_memory(con, [1, 2, 3])
    assert {i: (m.tags, m.note) for i, m in found.items()} == {
        1: (("mistake",), ""), 2: ((), "*not* markdown")
    }
    memory.set_hand_note(con, b, "")
    assert memory.note_of(con, b) == ""


def test_player_notes_with_a_colour(con: duckdb.DuckDBPyConnection) -> None:
    note = memory.set_player_note(con, "PokerStars", "Villain", "calls down", "Red")
    assert note == memory.PlayerNote("pokerstars", "Villain", "calls down", "red")
    memory.set_player_note(con, "fulltilt", "Other", "", "blue")
    assert memory.notes_by_player(con, "pokerstars") == {("pokerstars", "Villain"): note}
    assert memory.player_notes(con)[0].as_dict() == {
        "site": "fulltilt", "player": "Other", "note": "", "colour": "blue"}
    with pytest.raises(memory.MemoryInputError, match="unknown colour 'pink'"):
        memory.set_player_note(con, "pokerstars", "Villain", "x", "pink")
    assert memory.set_player_note(con, "pokerstars", "Villain", " ") is None
    assert memory.notes_by_player(con, "pokerstars") == {}


def test_a_name_belongs_to_one_person(con: duckdb.DuckDBPyConnection) -> None:
    memory.add_alias(con, "me", "PokerStars", "Hero")
    memory.add_alias(con, "me", "fulltilt", "HeroFT")
    memory.add_alias(con, "reg", "fulltilt", "Fish")
    assert memory.names_of(con, "me") == [("fulltilt", "HeroFT"), ("pokerstars", "Hero")]
    memory.add_alias(con, "reg", "pokerstars", "Hero")  # moved, not shared
    assert memory.names_of(con, "me") == [("fulltilt", "HeroFT")]
    assert memory.people(con) == ["me", "reg"]
    assert memory.remove_alias(con, "me", "Full Tilt", "HeroFT") is True
    assert memory.remove_alias(con, "me", "fulltilt", "HeroFT") is False
    assert memory.people(con) == ["reg"]


def test_saved_filters_come_back_as_saved(con: duckdb.DuckDBPyConnection) -> None:
    weekly = Filters(site="pokerstars", date_from=date(2024, 1, 1), tag="review",
                     valid_only=True, players_max=6, tournament=False,
                     names=("home:Hero", "pokerstars:Hero"))
    memory.save_filters(con, "weekly", weekly)
    assert memory.saved_filters(con, "weekly") == weekly
    assert memory.saved_filter_names(con) == ["weekly"]
    assert memory.overlay(weekly, Filters(game="badugi", tournament=True)) == replace(
        weekly, game="badugi", tournament=True)
    assert memory.filters_from_json('{"site": "x", "from_a_newer_drawlab": 1}') == Filters(
        site="x")
    memory.delete_filters(con, "weekly")
    with pytest.raises(memory.MemoryInputError,
                       match=r"^no saved filters named 'weekly' \(none saved yet\)$"):
        memory.saved_filters(con, "weekly")


def _remember(con: duckdb.DuckDBPyConnection) -> dict[str, object]:
    first = _ids(con)[0]
    key = memory.hand_key(con, first)
    memory.add_tags(con, key, ["review"])
    memory.set_hand_note(con, key, "check the second draw")
    memory.set_player_note(con, "pokerstars", "Villain", "bluffs", "red")
    memory.add_alias(con, "me", "pokerstars", "Hero")
    memory.save_filters(con, "mine", Filters(tag="review"))
    return _written(con)


STAMPED = {"hand_tags": "added", "hand_notes": "updated", "player_notes": "updated",
           "saved_filters": "saved"}


def _written(con: duckdb.DuckDBPyConnection) -> dict[str, object]:
    """Every memory table's rows, without the times they were written."""
    return {t: sorted(con.execute(
        f"SELECT * {f'EXCLUDE ({STAMPED[t]})' if t in STAMPED else ''} FROM {t}").fetchall())
        for t in memory.TABLES}


def test_reverify_and_a_reimport_keep_what_was_written(con: duckdb.DuckDBPyConnection) -> None:
    kept = _remember(con)
    reverify(con, workers=0)
    import_paths(con, [SAMPLE], workers=0)
    assert _written(con) == kept
    assert count_hands(con, Filters(tag="review")) == 1


def test_an_export_carries_it_to_another_database(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    kept = _remember(con)
    first = _ids(con)[0]
    dataset.write(con, tmp_path / "all")
    other = dbmod.connect(str(tmp_path / "other.duckdb"))
    summary = dataset.load(other, tmp_path / "all")
    assert summary.rows["hand_tags"] == 1 and summary.rows["saved_filters"] == 1
    assert _written(other) == kept
    assert [h.hand_id for h in memory.remembered_hands(other, "review")] == [first]
    dataset.load(other, tmp_path / "all")  # loaded twice: nothing doubled
    assert _written(other) == kept
    # a filtered export takes the tags of the hands it writes only
    dataset.write(con, tmp_path / "none", Filters(tag="mistake"))
    assert dataset.manifest(tmp_path / "none")["tables"]["hand_tags"] == 0
    assert dataset.manifest(tmp_path / "none")["tables"]["aliases"] == 1


def test_a_database_of_the_version_before_is_migrated_to_hold_it(tmp_path: Path) -> None:
    path = str(tmp_path / "old.duckdb")
    old = duckdb.connect(path)
    old.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied TIMESTAMP)")
    mine = next(i for i, m in enumerate(MIGRATIONS) if any("hand_tags" in s for s in m))
    for version in range(1, mine + 1):
        for statement in MIGRATIONS[version - 1]:
            old.execute(statement)
        old.execute("INSERT INTO schema_version VALUES (?, current_timestamp)", [version])
    old.close()
    con = dbmod.connect(path)
    import_paths(con, [SAMPLE], workers=0)
    assert _remember(con)["aliases"] == [("me", "pokerstars", "Hero")]


def test_a_persons_filters_keep_the_hands_and_rows_of_each_name(
    con: duckdb.DuckDBPyConnection,
) -> None:
    assert memory.person_filters(con, "me", Filters()) is None
    memory.add_alias(con, "me", "pokerstars", "Hero")
    memory.add_alias(con, "me", "fulltilt", "Hero")  # no hands there: counts nothing
    mine = memory.person_filters(con, "me", Filters(valid_only=True))
    assert mine == Filters(valid_only=True, names=("fulltilt:Hero", "pokerstars:Hero"))
    seated = con.execute("SELECT count(DISTINCT hand) FROM seats WHERE player = 'Hero' AND "
                         "hand IN (SELECT id FROM hands WHERE status = 'ok')").fetchall()[0][0]
    assert count_hands(con, mine) == seated > 0
    assert player_report(con, "me", mine).results.hands == seated
    assert mine.where_cells() is None
