"""The watched folders kept in the database: schema version 6 (and the upgrade of a
version-5 file), add and remove, and each folder's last read as the watcher writes it."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import duckdb
import pytest

from analysis.pipeline import watched
from analysis.pipeline.importer import ImportSummary
from analysis.pipeline.watch import Batch, Watcher, root_of
from analysis.storage import db as dbmod
from analysis.storage.schema import CURRENT_VERSION, MIGRATIONS
from tests.store_data import stars_history


def test_a_version_5_database_is_upgraded_with_its_hands_kept(tmp_path: Path) -> None:
    path = tmp_path / "v5.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied TIMESTAMP)")
    for version in range(1, 6):
        for statement in MIGRATIONS[version - 1]:
            con.execute(statement)
        con.execute("INSERT INTO schema_version VALUES (?, current_timestamp)", [version])
    con.execute(
        "INSERT INTO hands (id, key, site, status, errors, warnings, text) "
        "VALUES (1, 'pokerstars:1', 'pokerstars', 'ok', 0, 0, 't')"
    )
    con.close()
    assert CURRENT_VERSION >= 6
    con = dbmod.connect(path)
    try:
        assert con.execute("SELECT max(version) FROM schema_version").fetchall() == [
            (CURRENT_VERSION,)
        ]
        assert con.execute("SELECT key FROM hands").fetchall() == [("pokerstars:1",)]
        assert watched.folders(con) == []
        folder = tmp_path / "histories"
        folder.mkdir()
        assert watched.add(con, folder) == str(folder)
        assert [f.path for f in watched.folders(con)] == [str(folder)]
    finally:
        con.close()


def test_add_and_remove(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "Stars").mkdir()
    one_file = tmp_path / "table.txt"
    one_file.write_text("", encoding="utf-8")
    con = dbmod.connect(tmp_path / "d.duckdb")
    try:
        before = datetime.now()
        assert watched.add(con, "~/Stars/") == str(tmp_path / "Stars")
        assert watched.add(con, f"  {tmp_path / 'Stars'}  ") == str(tmp_path / "Stars")  # again
        assert watched.add(con, one_file) == str(one_file)
        with pytest.raises(ValueError, match="does not exist"):
            watched.add(con, tmp_path / "nowhere")
        with pytest.raises(ValueError, match="name a folder"):
            watched.add(con, "   ")
        found = watched.folders(con)
        assert [f.path for f in found] == [str(tmp_path / "Stars"), str(one_file)]
        first = found[0]
        assert before <= first.added <= datetime.now()
        assert (first.last_read, first.last_files, first.last_added, first.hands) == (
            None, None, None, 0,
        )  # fmt: skip
        assert watched.remove(con, tmp_path / "Stars") is True
        assert watched.remove(con, tmp_path / "Stars") is False
        assert watched.paths(con) == [one_file]
    finally:
        con.close()


def test_the_watcher_writes_each_folders_last_read_in_its_own_batch(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "one.txt").write_text(stars_history(3), encoding="utf-8")
    (b / "two.txt").write_text(stars_history(2, first_id=900_000_000_100), encoding="utf-8")
    path = tmp_path / "d.duckdb"
    con = dbmod.connect(path)
    watched.add(con, a)
    watched.add(con, b)
    con.close()
    batches: list[Batch] = []
    w = Watcher(str(path), [a, b], on_batch=batches.append, events=False, settle=0,
                on_import=watched.record, first_workers=0)  # fmt: skip
    w._round(first=True)
    assert [(bt.root, bt.summary.added if bt.summary else None) for bt in batches] == [
        (a, 3), (b, 2),
    ]  # fmt: skip
    with (a / "one.txt").open("a", encoding="utf-8") as f:
        f.write(stars_history(4)[len(stars_history(3)):])
    w._round()
    assert [(bt.root, bt.summary.added if bt.summary else None) for bt in batches[2:]] == [(a, 1)]
    con = dbmod.connect(path, read_only=True)
    try:
        by_path = {f.path: f for f in watched.folders(con)}
    finally:
        con.close()
    fa, fb = by_path[str(a)], by_path[str(b)]
    assert (fa.last_files, fa.last_added, fa.last_problems, fa.hands) == (1, 1, 0, 4)
    assert (fb.last_files, fb.last_added, fb.last_problems, fb.hands) == (1, 2, 0, 2)
    assert fa.last_read is not None and fb.last_read is not None
    assert fb.last_read <= fa.last_read <= datetime.now() + timedelta(seconds=1)
    assert w.checked is not None


def test_a_batch_outside_the_watched_folders_is_not_recorded(tmp_path: Path) -> None:
    con = dbmod.connect(tmp_path / "d.duckdb")
    try:
        (tmp_path / "a").mkdir()
        watched.add(con, tmp_path / "a")
        summary = ImportSummary(added=5)
        watched.record(con, Batch(("x.txt",), summary, root=None))
        watched.record(con, Batch(("x.txt",), None, "busy", root=tmp_path / "a"))
        assert [(f.last_read, f.hands) for f in watched.folders(con)] == [(None, 0)]
    finally:
        con.close()
    assert root_of(tmp_path / "a" / "s" / "x.txt", [tmp_path / "b", tmp_path / "a"]) == (
        tmp_path / "a"
    )
    assert root_of(tmp_path / "ab.txt", [tmp_path / "a"]) is None
