"""``drawlab import``: JSON summary line, table, problems log, quiet mode, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cli
from analysis.pipeline.import_report import progress_line
from analysis.pipeline.importer import Progress
from analysis.storage import db as dbmod
from tests.store_data import STARS, stars_history, write_history


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_ends_with_one_summary_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_history(tmp_path / "h.txt", 12)
    db = str(tmp_path / "x.duckdb")
    code, out, _ = _run(capsys, "import", "--db", db, "--json", str(path))
    assert code == 0
    summary = json.loads(out.strip().splitlines()[-1])["summary"]
    statuses = {
        k: summary[k] for k in ("ok", "invalid", "parse_error", "unsupported", "incomplete")
    }
    assert sum(statuses.values()) == summary["hands"] == 12
    assert (summary["added"], summary["already_present"]) == (12, 0)

    code, out, _ = _run(capsys, "import", "--db", db, "--json", str(path))
    again = json.loads(out.strip().splitlines()[-1])["summary"]
    assert (again["added"], again["already_present"], again["unchanged_files"]) == (0, 12, 1)


def test_table_and_problem_log_name_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dup = STARS / "Triple Draw 2-7 Lowball-FL-USD-1.00-2.00-201206.duplicate.holecards.txt"
    db = str(tmp_path / "x.duckdb")
    code, out, _ = _run(capsys, "import", "--db", db, str(dup))
    assert code == 0
    assert f"{dup}:" in out and ": invalid: " in out
    assert "added" in out and "already present" in out
    lines = {line.split("  ")[0]: line.split()[-1] for line in out.splitlines() if "  " in line}
    assert lines["added"] == "1"

    code, out, _ = _run(capsys, "import", "--db", db, str(dup))
    assert "nothing new: every hand was already in the database" in out


def test_quiet_prints_only_problems(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write_history(tmp_path / "h.txt", 3)
    bad = tmp_path / "blob.bin"
    bad.write_bytes(b"\0\1\2" * 1000)
    code, out, err = _run(
        capsys, "import", "--db", str(tmp_path / "x.duckdb"), "--quiet", str(good), str(bad)
    )
    assert code == 0
    assert out.strip() == f"rejected: {bad}: binary data, not a text hand history"
    assert err == ""


def test_nothing_importable_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys,
        "import",
        "--db",
        str(tmp_path / "x.duckdb"),
        "--quiet",
        str(tmp_path / "missing.txt"),
    )
    assert code == 1
    assert "no such file or folder" in out


def test_database_from_environment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "h.txt"
    path.write_text(stars_history(2), encoding="utf-8")
    monkeypatch.setenv("DRAWLAB_DB", str(tmp_path / "env.duckdb"))
    code, _, _ = _run(capsys, "import", "--quiet", str(path))
    assert code == 0
    con = dbmod.connect(tmp_path / "env.duckdb")
    assert con.execute("SELECT count(*) FROM hands").fetchall() == [(2,)]


def test_progress_line_shows_hands_rate_files_and_problems() -> None:
    p = Progress(hands=12_345, files_done=1, files_total=4, problems=7, seconds=2.0, file="x")
    assert progress_line(p) == (
        "[######------------------] 1/4 files  12,345 hands  6,172 hands/s  7 problems"
    )
    by_bytes = Progress(12_345, 1, 4, 7, 2.0, "x", bytes_done=500, bytes_total=1000)
    assert progress_line(by_bytes).startswith("[############------------] 1/4 files")


def _corrupt_history(n: int, first_id: int) -> str:
    """``n`` hands, the first of which a reader cannot parse (an unknown seat line, line 5)."""
    text = stars_history(n, first_id)
    seat = "Seat 3: Player3 ($5.65 in chips)"
    assert seat in text
    return text.replace(seat, seat.replace("chips", "chipz"), 1)


def _verify_json(capsys: pytest.CaptureFixture[str], *paths: str) -> list[dict[str, object]]:
    cli.main(["verify", "--json", *paths])
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_a_zipped_hand_has_one_file_name_in_verify_and_the_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import zipfile

    archive = tmp_path / "hands.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("a.txt", _corrupt_history(3, 900_000_000_000))
        zf.writestr("sub/b.txt", stars_history(2, 900_000_000_100))
    a, b = f"{archive}/a.txt", f"{archive}/sub/b.txt"
    verified = _verify_json(capsys, str(archive))[:-1]
    shown = sorted((str(r["file"]), str(r["status"])) for r in verified)
    assert shown == [(a, "ok"), (a, "ok"), (a, "parse_error"), (b, "ok"), (b, "ok")]

    db = str(tmp_path / "x.duckdb")
    code, out, err = _run(capsys, "import", "--db", db, "--json", str(archive))
    assert (code, json.loads(out.strip().splitlines()[-1])["summary"]["added"]) == (0, 5)
    assert err.splitlines() == [f"{a}:5: parse_error: PARSE_ERROR: {a}:5:1: unknown line"]
    con = dbmod.connect(db, read_only=True)
    try:
        stored = con.execute(
            "SELECT file, status FROM hands UNION ALL "
            "SELECT file, 'parse_error' FROM quarantine ORDER BY ALL"
        ).fetchall()
        batches = con.execute("SELECT file FROM import_batches ORDER BY file").fetchall()
        known = con.execute("SELECT path FROM files ORDER BY path").fetchall()
    finally:
        con.close()
    assert stored == shown
    assert batches == known == [(a,), (b,)]


def test_import_counts_rejected_files_as_verify_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text(_corrupt_history(3, 900_000_000_000), encoding="utf-8")
    (folder / "b.txt").write_text(stars_history(2, 900_000_000_100), encoding="utf-8")
    (folder / "blob.bin").write_bytes(b"\0\1\2" * 1000)
    (folder / "notes.txt").write_text("shopping list\neggs\n", encoding="utf-8")
    verified = _verify_json(capsys, str(folder))[-1]["summary"]
    assert isinstance(verified, dict)

    code, out, err = _run(capsys, "import", "--db", str(tmp_path / "x.duckdb"), "--json",
                          str(folder))  # fmt: skip
    imported = json.loads(out.strip().splitlines()[-1])["summary"]
    keys = ("files", "hands", "ok", "invalid", "parse_error", "unsupported", "incomplete")
    expected = {"files": 4, "hands": 7, "ok": 4, "invalid": 0, "parse_error": 3,
                "unsupported": 0, "incomplete": 0}  # fmt: skip
    assert {k: verified[k] for k in keys} == expected
    assert {k: imported[k] for k in keys} == expected
    assert (code, imported["rejected_files"], imported["added"]) == (0, 2, 5)
    assert imported["rejected"] == [
        f"{folder / 'blob.bin'}: binary data, not a text hand history",
        f"{folder / 'notes.txt'}: not a hand history this program reads "
        "(sites read: " + imported["rejected"][1].split("(sites read: ")[1],
    ]
    assert f"rejected: {folder / 'blob.bin'}: binary data, not a text hand history" in err
    con = dbmod.connect(str(tmp_path / "x.duckdb"), read_only=True)
    try:
        batch = con.execute(
            "SELECT hands, ok, parse_error, rejected FROM import_batches WHERE file = ?",
            [str(folder / "blob.bin")],
        ).fetchall()
    finally:
        con.close()
    assert batch == [(1, 0, 1, f"{folder / 'blob.bin'}: binary data, not a text hand history")]
