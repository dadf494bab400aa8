"""The Parquet dataset (``analysis.storage.dataset``): written from a database, read back by DuckDB
and Polars with the same statistics, loaded into a database as a plain import fills it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest

import cli
from analysis.pipeline.importer import import_paths
from analysis.statistics.figures import hero_name, player_list, player_report, summary
from analysis.storage import dataset
from analysis.storage import db as dbmod
from analysis.storage.memory import TABLES as MEMORY_TABLES
from tests.store_data import CORPUS, stars_files, write_history

TABLE_ORDER = {
    "hands": "id",
    "seats": "hand, seat",
    "actions": "hand, idx",
    "draws": "hand, idx",
    "shows": "hand, idx",
    "payouts": "hand, idx",
    "problems": "hand, code, line, message",
    "pots": "hand, idx",
    "player_hands": "hand, seat",
    "quarantine": "id",
    "files": "path",
}


def snapshot(con: duckdb.DuckDBPyConnection) -> dict[str, list[tuple[Any, ...]]]:
    """Every table a dataset holds, row for row; ``batch`` names this database's import
    runs and ``files.updated`` when it ran, so neither is compared."""
    out = {}
    for table, order in TABLE_ORDER.items():
        exclude = {"hands": " EXCLUDE (batch)", "quarantine": " EXCLUDE (batch)",
                   "files": " EXCLUDE (updated)"}.get(table, "")
        out[table] = con.execute(f"SELECT *{exclude} FROM {table} ORDER BY {order}").fetchall()
    return out


def same(a: Any, b: Any) -> bool:
    """Equal, floats to twelve significant digits (see the statistics test)."""
    if isinstance(a, float) and isinstance(b, float):
        return a == pytest.approx(b, rel=1e-12, nan_ok=True)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def histories(tmp_path: Path) -> list[Path]:
    """PokerStars and KingsClub files (invalid hands, problems, several months), a dealt
    session and a file with a text no reader reads (a quarantined parse error)."""
    kings = sorted((CORPUS / "cash" / "KingsClub").rglob("*.txt"))
    broken = tmp_path / "broken.txt"
    broken.write_text(
        (write_history(tmp_path / "b0.txt", 2, first_id=910_000_000_000).read_text())
        + "\n\n\nPokerStars Hand #77: Triple Draw 2-7 Lowball ($0.10/$0.20) - ???\n"
        "Seat 1: who ($x in chips)\n",
        encoding="utf-8",
    )
    (tmp_path / "b0.txt").unlink()
    return [*stars_files(), *kings, write_history(tmp_path / "s.txt", 40), broken]


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("dataset")
    con = dbmod.connect(str(tmp / "a.duckdb"))
    import_paths(con, histories(tmp), workers=0)
    con.close()
    return tmp / "a.duckdb"


@pytest.fixture(scope="module")
def exported(stored: Path) -> Path:
    out = stored.parent / "ds"
    assert cli.main(["export", "--db", str(stored), "--format", "parquet", "--out", str(out)]) == 0
    return out


def test_every_table_is_partitioned_by_its_hands_site_game_and_month(
    stored: Path, exported: Path
) -> None:
    con = dbmod.connect(str(stored))
    null = dataset.NULL_PARTITION  # a hand without a game or time: Hive's null
    want = {
        (site, game or null, month or null)
        for site, game, month in con.execute(
            "SELECT DISTINCT site, game, strftime(time, '%Y-%m') FROM hands"
        ).fetchall()
    }
    counts = {
        t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]  # type: ignore[index]
        for t in TABLE_ORDER
    }
    con.close()
    assert ("pokerstars", null, null) in want and len(want) >= 4
    got = {
        tuple(part.split("=", 1)[1] for part in p.relative_to(exported / "hands").parts[:3])
        for p in (exported / "hands").rglob("*.parquet")
    }
    assert got == want
    raw = duckdb.connect()
    scan = "read_parquet('{}/**/*.parquet', hive_partitioning = true)"
    for table in ("seats", "actions", "player_hands"):  # a hand's rows sit in its partition
        strays = raw.execute(
            f"SELECT count(*), count(*) FILTER (h.site IS DISTINCT FROM t.site OR h.game "
            f"IS DISTINCT FROM t.game OR h.month IS DISTINCT FROM t.month) "
            f"FROM {scan.format(exported / table)} t JOIN {scan.format(exported / 'hands')} h "
            "ON h.id = t.hand"
        ).fetchone()
        assert strays == (counts[table], 0), table
    manifest = json.loads((exported / "drawlab.json").read_text())
    assert manifest["tables"] == {**counts, **dict.fromkeys(MEMORY_TABLES, 0)}  # none written
    assert counts["quarantine"] == 1 and counts["problems"] > 0
    assert list((exported / "quarantine").iterdir()) == [exported / "quarantine" / "data_0.parquet"]


@pytest.mark.slow
def test_duckdb_reads_the_dataset_with_the_statistics_of_the_database(
    stored: Path, exported: Path
) -> None:
    con = dbmod.connect(str(stored), read_only=True)
    views = dataset.attach(exported)
    assert snapshot(views) == snapshot(con)
    # sums of integers are exact; ratios summed as doubles (``net_bb``) differ in the last
    # bit with the order rows are added in, which DuckDB does not fix (threads), hence rtol
    pd.testing.assert_frame_equal(summary(views), summary(con), check_exact=False, rtol=1e-12)
    hero = hero_name(con)
    others = list(player_list(con)["player"].head(3))
    assert hero is not None and hero_name(views) == hero and len(others) == 3
    for player in (hero, *others):
        assert same(player_report(views, player).to_json(), player_report(con, player).to_json())
    con.close()


def test_a_plain_duckdb_query_reads_it_as_it_is(stored: Path, exported: Path) -> None:
    con = dbmod.connect(str(stored), read_only=True)
    want = con.execute(
        "SELECT site, game, count(*), sum(net) FROM player_hands GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    con.close()
    other = duckdb.connect()
    got = other.execute(
        "SELECT site, game, count(*), sum(net) FROM read_parquet("
        f"'{exported}/player_hands/**/*.parquet', hive_partitioning = true) "
        "GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    assert got == want and len(want) >= 2


def test_polars_reads_it_as_it_is(stored: Path, exported: Path) -> None:
    import polars as pl  # in the dev extra
    con = dbmod.connect(str(stored), read_only=True)
    want = con.execute(
        "SELECT h.site, count(*), sum(s.stack), count(s.cards) FROM seats s "
        "JOIN hands h ON h.id = s.hand GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    con.close()
    seats = pl.scan_parquet(str(exported / "seats" / "**" / "*.parquet"), hive_partitioning=True)
    got = (
        seats.group_by("site")
        .agg(pl.len(), pl.col("stack").sum(), pl.col("cards").count())
        .sort("site")
        .collect()
    )
    assert [tuple(r) for r in got.iter_rows()] == want


def test_import_parquet_builds_what_a_plain_import_builds(
    stored: Path, exported: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "b.duckdb"
    args = ["import", "--db", str(target), "--parquet", str(exported), "--json"]
    assert cli.main(args) == 0
    first = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["summary"]
    a = dbmod.connect(str(stored), read_only=True)
    hands = a.execute("SELECT count(*) FROM hands").fetchone()[0]  # type: ignore[index]
    want = snapshot(a)
    a.close()
    assert (first["added"], first["already_present"], first["quarantined"]) == (hands, 0, 1)
    b = dbmod.connect(str(target))
    assert snapshot(b) == want
    assert b.execute("SELECT hands, added, parse_error FROM import_batches").fetchall() == [
        (hands + 1, hands, 1 + sum(1 for r in want["hands"] if r[26] == "parse_error"))
    ]
    b.close()
    assert cli.main(args) == 0  # again: every hand is there already
    again = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["summary"]
    assert (again["added"], again["already_present"], again["quarantined"]) == (0, hands, 0)
    b = dbmod.connect(str(target))
    assert snapshot(b) == want
    b.close()


def test_hands_already_stored_are_skipped_and_the_rest_numbered_after(
    stored: Path, exported: Path, tmp_path: Path
) -> None:
    con = dbmod.connect(str(tmp_path / "c.duckdb"))
    import_paths(con, stars_files()[:1], workers=0)
    before = con.execute("SELECT count(*), max(id) FROM hands").fetchone()
    assert before is not None and before[0] > 0
    result = dataset.load(con, exported)
    total = con.execute("SELECT count(*), max(id), count(DISTINCT key) FROM hands").fetchone()
    assert result.already_present == before[0]
    assert total == (before[0] + result.added, before[1] + result.added, before[0] + result.added)
    orphans = con.execute(
        "SELECT count(*) FROM seats WHERE hand NOT IN (SELECT id FROM hands)"
    ).fetchone()
    assert orphans == (0,)
    con.close()


def test_a_filtered_export_holds_those_hands_and_their_rows_only(
    stored: Path, tmp_path: Path
) -> None:
    out = tmp_path / "kings"
    args = ["export", "--db", str(stored), "--format", "parquet", "--out", str(out),
            "--site", "kingsclub"]
    assert cli.main(args) == 0
    views = dataset.attach(out)
    con = dbmod.connect(str(stored), read_only=True)
    kings = "SELECT id FROM hands WHERE site = 'kingsclub'"
    assert views.execute("SELECT DISTINCT site FROM hands").fetchall() == [("kingsclub",)]
    for table in ("seats", "actions", "player_hands"):
        sql = f"SELECT count(*) FROM {table} WHERE hand IN ({kings})"
        assert views.execute(f"SELECT count(*) FROM {table}").fetchone() == con.execute(
            sql
        ).fetchone()
    assert views.execute("SELECT count(*) FROM quarantine").fetchone() == (0,)
    con.close()


def test_a_folder_of_other_files_is_refused_and_a_cut_short_dataset_is_not_read(
    stored: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine", encoding="utf-8")
    args = ["export", "--db", str(stored), "--format", "parquet", "--out", str(busy)]
    assert cli.main(args) == 1
    assert "holds other files (notes.txt)" in capsys.readouterr().err
    assert (busy / "notes.txt").read_text(encoding="utf-8") == "mine"
    out = tmp_path / "ds"
    assert cli.main(["export", "--db", str(stored), "--format", "parquet", "--out", str(out)]) == 0
    (out / "drawlab.json").unlink()  # as a write killed before its last step leaves it
    assert cli.main(["import", "--db", str(tmp_path / "x.duckdb"), "--parquet", str(out)]) == 1
    assert "not a whole DrawLab dataset" in capsys.readouterr().err
    with pytest.raises(dataset.DatasetError):
        dataset.attach(out)
    # written again over the cut-short one, it is whole
    assert cli.main(["export", "--db", str(stored), "--format", "parquet", "--out", str(out)]) == 0
    assert dataset.manifest(out)["tables"]["hands"] > 0
