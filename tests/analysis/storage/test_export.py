"""Exported hands read back through ``drawlab verify`` with the verdicts they were stored with."""

from __future__ import annotations

import json
from collections import Counter
from datetime import date
from pathlib import Path

import duckdb
import pytest

import cli
from analysis.pipeline.importer import import_paths
from analysis.pipeline.verify_files import verify_paths
from analysis.storage import db as dbmod
from analysis.storage.export import ExportError, export_hands
from analysis.storage.queries import HandFilter
from tests.store_data import CORPUS


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> duckdb.DuckDBPyConnection:
    folder = tmp_path_factory.mktemp("export")
    con = dbmod.connect(folder / "corpus.duckdb")
    import_paths(con, [CORPUS], workers=0)
    return con


def _stored_statuses(con: duckdb.DuckDBPyConnection, where: str = "TRUE") -> dict[str, str]:
    rows = con.execute(
        f"SELECT hand_id, status FROM hands WHERE status IN ('ok', 'invalid') AND {where}"
    ).fetchall()
    return {r[0]: r[1] for r in rows}


def _verify_json(capsys: pytest.CaptureFixture[str], path: Path) -> dict[str, int]:
    cli.main(["verify", "--json", str(path)])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    summary: dict[str, int] = json.loads(last)["summary"]
    return summary


def test_phh_export_round_trips_through_verify(
    stored: duckdb.DuckDBPyConnection, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = export_hands(stored, tmp_path, "phh")
    expected = _stored_statuses(stored)
    assert summary.hands == summary.files == len(expected)
    back = {r.hand_id: r.status for r in verify_paths([tmp_path])}
    assert back == expected
    counts = _verify_json(capsys, tmp_path)
    assert counts["ok"] == Counter(expected.values())["ok"]
    assert counts["invalid"] == Counter(expected.values())["invalid"]
    assert counts["parse_error"] == 0


def test_pokerstars_export_of_pokerstars_hands_round_trips(
    stored: duckdb.DuckDBPyConnection, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = export_hands(stored, tmp_path, "pokerstars", HandFilter(site="pokerstars"))
    expected = _stored_statuses(stored, "site = 'pokerstars'")
    assert summary.hands == len(expected) > 10
    back = {r.hand_id: r.status for r in verify_paths([tmp_path])}
    assert back == expected
    counts = _verify_json(capsys, tmp_path)
    assert counts["hands"] == len(expected)


def test_original_export_keeps_every_text_and_imports_to_the_same_hands(
    stored: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    summary = export_hands(stored, tmp_path / "out", "original")
    total = stored.execute("SELECT count(*) FROM hands").fetchall()[0][0]
    assert summary.hands == total and summary.not_converted == Counter()
    again = dbmod.connect(tmp_path / "again.duckdb")
    import_paths(again, [tmp_path / "out"], workers=0)
    q = "SELECT key, status FROM hands ORDER BY key"
    assert again.execute(q).fetchall() == stored.execute(q).fetchall()


def test_hands_without_a_record_are_counted_not_converted(
    stored: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    summary = export_hands(stored, tmp_path, "phh")
    skipped = stored.execute(
        "SELECT status, count(*) FROM hands WHERE status NOT IN ('ok', 'invalid') GROUP BY 1"
    ).fetchall()
    assert dict(summary.not_converted) == {s: n for s, n in skipped}
    assert summary.not_converted["incomplete"] > 0
    assert "--format original" in summary.text()


def test_filters_choose_the_hands(stored: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    by_game = export_hands(stored, tmp_path / "g", "phh", HandFilter(game="27_triple_draw"))
    n_game = stored.execute(
        "SELECT count(*) FROM hands WHERE game = '27_triple_draw' AND status IN ('ok','invalid')"
    ).fetchall()[0][0]
    assert by_game.hands == n_game > 0
    by_player = export_hands(stored, tmp_path / "p", "phh", HandFilter(player="Player1"))
    n_player = stored.execute(
        "SELECT count(DISTINCT h.id) FROM hands h JOIN seats s ON s.hand = h.id "
        "WHERE s.player = 'Player1' AND h.status IN ('ok', 'invalid')"
    ).fetchall()[0][0]
    assert by_player.hands == n_player > 0
    window = HandFilter(since=date(2011, 6, 26), until=date(2011, 6, 26))
    day = export_hands(stored, tmp_path / "d", "phh", window)
    ids = {r.hand_id for r in verify_paths([tmp_path / "d"])}
    assert "63845186378" in ids  # 2011/06/26 18:34 WET
    assert day.hands == len(ids)
    none = export_hands(stored, tmp_path / "n", "phh", HandFilter(since=date(2030, 1, 1)))
    assert none.hands == 0


def test_unknown_format_is_an_error(stored: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="unknown format"):
        export_hands(stored, tmp_path, "csv")


def test_export_command_writes_and_reports(
    stored: duckdb.DuckDBPyConnection, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db_path = tmp_path / "cli.duckdb"
    con = dbmod.connect(db_path)
    import_paths(con, [CORPUS / "cash" / "Stars"], workers=0)
    con.close()
    out = tmp_path / "out"
    code = cli.main(
        ["export", "--db", str(db_path), "--format", "pokerstars", "--out", str(out), "--json"]
    )
    assert code == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["summary"]
    assert summary["format"] == "pokerstars" and summary["hands"] > 10
    assert len(list(out.iterdir())) == summary["files"]
