"""The database file: where it is, that it is created once, and its schema versions."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from analysis.storage import db as dbmod
from analysis.storage.schema import CURRENT_VERSION, MIGRATIONS, migrate

TABLES = {
    "hands",
    "seats",
    "actions",
    "draws",
    "shows",
    "payouts",
    "problems",
    "quarantine",
    "import_batches",
    "files",
    "meta",
    "schema_version",
}


def _tables(con: duckdb.DuckDBPyConnection) -> set[str]:
    return {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}


def test_argument_wins_over_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DRAWLAB_DB", str(tmp_path / "env.duckdb"))
    assert dbmod.resolve_path(tmp_path / "arg.duckdb") == str(tmp_path / "arg.duckdb")
    assert dbmod.resolve_path(None) == str(tmp_path / "env.duckdb")


def test_default_is_in_the_users_drawlab_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DRAWLAB_DB", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert dbmod.resolve_path() == str(tmp_path / ".drawlab" / "drawlab.duckdb")
    con = dbmod.connect()
    con.close()
    assert (tmp_path / ".drawlab" / "drawlab.duckdb").is_file()


def test_first_connect_creates_every_table_at_current_version(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "dir" / "x.duckdb"
    con = dbmod.connect(path)
    assert _tables(con) >= TABLES
    assert con.execute("SELECT max(version) FROM schema_version").fetchone() == (CURRENT_VERSION,)
    con.close()


def test_reopening_applies_no_migration_twice(tmp_path: Path) -> None:
    path = tmp_path / "x.duckdb"
    dbmod.connect(path).close()
    con = dbmod.connect(path)
    rows = con.execute("SELECT version FROM schema_version ORDER BY version").fetchall()
    assert rows == [(v,) for v in range(1, len(MIGRATIONS) + 1)]
    assert migrate(con) == CURRENT_VERSION
    con.close()


def test_newer_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.duckdb"
    con = dbmod.connect(path)
    con.execute("INSERT INTO schema_version VALUES (?, current_timestamp)", [CURRENT_VERSION + 1])
    con.close()
    with pytest.raises(dbmod.SchemaOutdated) as info:
        dbmod.connect(path)
    assert str(info.value) == (
        f"{path} was written by a newer DrawLab (database schema version "
        f"{CURRENT_VERSION + 1}, this one knows up to {CURRENT_VERSION}): nothing was changed; "
        "upgrade DrawLab to open it"
    )
    assert info.value.newer


def test_read_only_open_of_missing_schema_says_how_to_migrate(tmp_path: Path) -> None:
    path = tmp_path / "x.duckdb"
    duckdb.connect(str(path)).close()
    with pytest.raises(RuntimeError, match="schema version 0"):
        dbmod.connect(path, read_only=True)


def test_hands_and_quarantine_carry_no_index(tmp_path: Path) -> None:
    """The importer numbers rows and checks keys itself (``Store``): DuckDB's indexes on
    them only cost every write (version 7 laid the tables out without them)."""
    con = dbmod.connect(tmp_path / "x.duckdb")
    kinds = con.execute(
        "SELECT table_name, constraint_type FROM duckdb_constraints() "
        "WHERE table_name IN ('hands', 'quarantine') AND constraint_type <> 'NOT NULL' "
        "ORDER BY ALL"
    ).fetchall()
    assert kinds == []
    not_null = con.execute(
        "SELECT table_name, list_sort(list(constraint_column_names[1])) FROM "
        "duckdb_constraints() WHERE table_name IN ('hands', 'quarantine') "
        "AND constraint_type = 'NOT NULL' GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    assert not_null == [
        ("hands", ["errors", "id", "key", "site", "status", "text", "warnings"]),
        ("quarantine", ["error", "id", "key", "text"]),
    ]
    con.close()


def test_version_7_keeps_every_hand_and_its_order(tmp_path: Path) -> None:
    path = tmp_path / "v6.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied TIMESTAMP)")
    for version in range(1, 7):
        for statement in MIGRATIONS[version - 1]:
            con.execute(statement)
        con.execute("INSERT INTO schema_version VALUES (?, current_timestamp)", [version])
    for i in (3, 1, 2):  # stored out of id order: the copy keeps the stored order
        con.execute(
            "INSERT INTO hands (id, key, site, status, errors, warnings, file, line, text, "
            "batch) VALUES (?, ?, 'pokerstars', 'ok', 0, 1, 'f.txt', ?, ?, 9)",
            [i, f"pokerstars:{i}", 10 * i, f"text {i}"],
        )
    con.execute("INSERT INTO quarantine VALUES (1, 'q1', 'pokerstars', 'f.txt', 4, 'e', 't', 9)")
    con.close()
    con = dbmod.connect(path)
    try:
        version = con.execute("SELECT max(version) FROM schema_version").fetchall()
        assert version == [(CURRENT_VERSION,)]  # version 7 and every later entry applied
        assert con.execute("SELECT id, key, line, text, warnings, batch FROM hands").fetchall() == [
            (3, "pokerstars:3", 30, "text 3", 1, 9),
            (1, "pokerstars:1", 10, "text 1", 1, 9),
            (2, "pokerstars:2", 20, "text 2", 1, 9),
        ]
        assert con.execute("SELECT * FROM quarantine").fetchall() == [
            (1, "q1", "pokerstars", "f.txt", 4, "e", "t", 9)
        ]
        assert con.execute(
            "SELECT count(*) FROM duckdb_constraints() WHERE table_name = 'hands' "
            "AND constraint_type <> 'NOT NULL'"
        ).fetchall() == [(0,)]
    finally:
        con.close()


def test_a_migration_runs_under_a_memory_limit_and_gives_it_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "v6.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied TIMESTAMP)")
    for version in range(1, 7):
        for statement in MIGRATIONS[version - 1]:
            con.execute(statement)
        con.execute("INSERT INTO schema_version VALUES (?, current_timestamp)", [version])
    default = con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0]
    con.close()
    seen: list[str] = []
    real = dbmod.migrate

    def spy(c: duckdb.DuckDBPyConnection) -> int:
        seen.append(c.execute("SELECT current_setting('memory_limit')").fetchall()[0][0])
        return real(c)

    monkeypatch.setattr(dbmod, "migrate", spy)
    con = dbmod.connect(path)
    try:
        limit = con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0]
    finally:
        con.close()
    assert seen == ["476.8 MiB"]  # MIGRATE_MEMORY_MB = 500 MB, as DuckDB shows it
    assert dbmod.MIGRATE_MEMORY_MB == 500
    assert limit == default
    con = dbmod.connect(path)  # current now: nothing to migrate, no limit set
    try:
        assert seen == ["476.8 MiB"]
        assert con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0] == default
    finally:
        con.close()


def test_player_hands_follow_the_facts_columns_and_are_refilled(tmp_path: Path) -> None:
    from analysis.pipeline.importer import import_paths, open_database
    from analysis.statistics.fact_row import FACT_COLUMNS
    from tests.store_data import write_history

    path = tmp_path / "x.duckdb"
    con = dbmod.connect(path)
    import_paths(con, [write_history(tmp_path / "h.txt", 20)], workers=0)
    before = con.execute("SELECT * FROM player_hands ORDER BY hand, seat").fetchall()
    assert len(before) > 20
    cols = [r[0] for r in con.execute("DESCRIBE player_hands").fetchall()]
    assert cols == ["hand", *FACT_COLUMNS]
    # as if the statistics had changed their columns since this file was written
    con.execute("UPDATE meta SET value = 'older' WHERE name = 'player_hands_layout'")
    con.execute("DELETE FROM player_hands WHERE hand > 3")
    con.close()
    # opening alone parses nothing: the table is laid out anew and marked stale
    con = dbmod.connect(path)
    assert con.execute("SELECT count(*) FROM player_hands").fetchall() == [(0,)]
    assert dbmod.facts_stale(con)
    con.close()
    # a program that writes opens it through the importer, which refills it
    con = open_database(path)
    assert con.execute("SELECT * FROM player_hands ORDER BY hand, seat").fetchall() == before
    assert not dbmod.facts_stale(con)
    con.close()


def test_database_held_by_another_process_is_a_clear_error(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "x.duckdb"
    dbmod.connect(path).close()
    holder = subprocess.Popen(
        [sys.executable, "-c", "import duckdb, sys; c = duckdb.connect(sys.argv[1]); "
         "print('held', flush=True); sys.stdin.read()", str(path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(dbmod.DatabaseUnavailable, match="one program write a database"):
            dbmod.connect(path)
    finally:
        holder.kill()
        holder.wait()


def test_read_only_open_of_a_current_database_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "x.duckdb"
    con = dbmod.connect(path)
    con.execute("INSERT INTO meta VALUES ('probe', 'kept')")
    con.close()
    before = path.read_bytes()
    ro = dbmod.connect(path, read_only=True)
    try:
        assert dbmod.one(ro, "SELECT value FROM meta WHERE name = 'probe'") == ("kept",)
        assert dbmod.one(ro, "SELECT max(version) FROM schema_version") == (CURRENT_VERSION,)
        with pytest.raises(duckdb.Error, match="read-only"):
            ro.execute("CREATE TABLE t (x INTEGER)")
    finally:
        ro.close()
    assert path.read_bytes() == before


def test_read_only_open_of_a_missing_file_says_import_first(tmp_path: Path) -> None:
    path = tmp_path / "none.duckdb"
    with pytest.raises(dbmod.DatabaseMissing, match=r"no database at .*none\.duckdb; import"):
        dbmod.connect(path, read_only=True)
    assert not path.exists()


def test_read_only_open_of_an_older_database_says_how_to_migrate(tmp_path: Path) -> None:
    path = tmp_path / "x.duckdb"
    dbmod.connect(path).close()
    con = duckdb.connect(str(path))
    con.execute("DELETE FROM schema_version WHERE version = ?", [CURRENT_VERSION])
    con.close()
    with pytest.raises(dbmod.SchemaOutdated) as info:
        dbmod.connect(path, read_only=True)
    assert f"schema version {CURRENT_VERSION - 1}, this DrawLab needs {CURRENT_VERSION}" in str(
        info.value
    )
    assert "drawlab import" in str(info.value) and not info.value.newer


def test_read_only_open_of_a_newer_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.duckdb"
    con = dbmod.connect(path)
    con.execute("INSERT INTO schema_version VALUES (?, current_timestamp)", [CURRENT_VERSION + 1])
    con.close()
    with pytest.raises(dbmod.SchemaOutdated, match="written by a newer DrawLab") as info:
        dbmod.connect(path, read_only=True)
    assert info.value.newer


def test_read_only_open_refuses_statistics_laid_out_by_another_version(tmp_path: Path) -> None:
    path = tmp_path / "x.duckdb"
    con = dbmod.connect(path)
    con.execute("UPDATE meta SET value = 'older' WHERE name = 'player_hands_layout'")
    con.close()
    with pytest.raises(dbmod.SchemaOutdated, match="statistics table has the columns"):
        dbmod.connect(path, read_only=True)


def test_version_3_renames_archive_members_as_the_parser_names_them(tmp_path: Path) -> None:
    path = tmp_path / "x.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied TIMESTAMP)")
    for version in (1, 2):
        for statement in MIGRATIONS[version - 1]:
            con.execute(statement)
        con.execute("INSERT INTO schema_version VALUES (?, current_timestamp)", [version])
    names = ["up.ZIP!/a.txt", "/h/x.zip!/d/b.txt", "/h/odd!/c.txt"]
    for i, name in enumerate(names, 1):
        con.execute(
            "INSERT INTO hands (id, key, site, status, errors, warnings, file, text) "
            "VALUES (?, ?, 'pokerstars', 'ok', 0, 0, ?, 't')", [i, f"k{i}", name]
        )
        con.execute(
            "INSERT INTO quarantine (id, key, file, error, text) VALUES (?, ?, ?, 'e', 't')",
            [i, f"q{i}", name],
        )
        con.execute(
            "INSERT INTO import_batches (id, run, file, hands, added, already_present, ok, "
            "invalid, parse_error, unsupported, incomplete, started) "
            "VALUES (?, 'r', ?, 0, 0, 0, 0, 0, 0, 0, 0, current_timestamp)", [i, name]
        )
        con.execute("INSERT INTO files VALUES (?, 1, 'c', 1, 1, current_timestamp)", [name])
    con.close()
    dbmod.connect(path).close()
    con = dbmod.connect(path, read_only=True)
    renamed = [("up.ZIP/a.txt",), ("/h/x.zip/d/b.txt",), ("/h/odd!/c.txt",)]
    try:
        for table, column in (
            ("hands", "file"), ("quarantine", "file"), ("import_batches", "file"),
            ("files", "path"),
        ):  # fmt: skip
            rows = con.execute(f"SELECT {column} FROM {table}").fetchall()
            assert sorted(rows) == sorted(renamed), table
    finally:
        con.close()


@pytest.mark.parametrize(
    ("text", "expected"),
    [("305.1 MiB", 305.1 * 2**20), ("18.8 GiB", 18.8 * 2**30), ("97.6 KiB", 97.6 * 2**10),
     ("512 bytes", 512.0), ("16383.9 PiB", 16383.9 * 2**50), ("", None), ("lots", None),
     ("1.5 parsecs", None)],
)  # fmt: skip
def test_a_setting_is_read_in_bytes_as_duckdb_shows_it(text: str, expected: float | None) -> None:
    assert dbmod.setting_bytes(text) == expected


def test_a_memory_limit_only_ever_narrows_and_is_given_back() -> None:
    con = duckdb.connect()
    try:
        def limit() -> str:
            return str(con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0])

        def mb() -> float:  # DuckDB shows the limit rounded to a tenth of a MiB
            got = dbmod.setting_bytes(limit())
            assert got is not None
            return round(got / 10**6)

        default = limit()
        with dbmod.memory_limited(con, 512):
            assert mb() == 512
            with dbmod.memory_limited(con, 320):  # narrower: taken
                assert mb() == 320
                with dbmod.memory_limited(con, 1000):  # wider: the narrower stays
                    assert mb() == 320
                assert mb() == 320
            assert mb() == 512
        assert limit() == default
    finally:
        con.close()
