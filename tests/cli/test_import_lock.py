"""``drawlab import`` of a big file lets other programs read the database meanwhile.

The import commits in bounded transactions and releases the file between them
(``analysis.pipeline.importer.import_files``): ``drawlab stats --json`` run over and over
by another process while the import runs must never fail, must get in before the import
ends, and must see the hands committed so far; the import's result is a plain import's.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from analysis.pipeline.importer import import_paths
from analysis.storage import db as dbmod

DRAWLAB = str(Path(sys.executable).parent / "drawlab")
TABLES = ("hands", "quarantine", "seats", "actions", "draws", "shows", "payouts", "problems",
          "pots", "player_hands")  # fmt: skip
HANDS = 4000


def _counts(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    return {t: int(con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0]) for t in TABLES}


def _stats(db: Path) -> tuple[int, int]:
    """(exit code, the most hands of one player) of ``drawlab stats --json``."""
    out = subprocess.run([DRAWLAB, "stats", "--db", str(db), "--json", "--all-players"],
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    if out.returncode != 0:
        return out.returncode, -1
    players = json.loads(out.stdout)["players"]
    return 0, max((int(p["hands"]) for p in players), default=0)


@pytest.mark.slow
def test_stats_read_the_database_all_through_a_big_import(tmp_path: Path) -> None:
    history = tmp_path / "big.txt"
    subprocess.run([DRAWLAB, "simulate", "--hands", str(HANDS), "--seed", "14", "--out",
                    str(history)], check=True, capture_output=True, timeout=300)  # fmt: skip
    plain = dbmod.connect(tmp_path / "plain.duckdb")
    try:
        reference = import_paths(plain, [history], workers=0)
        expected = _counts(plain)
    finally:
        plain.close()
    assert reference.added == HANDS
    assert expected["hands"] == HANDS

    db = tmp_path / "live.duckdb"
    importer = subprocess.Popen(
        [DRAWLAB, "import", "--db", str(db), "--json", "--workers", "1", "--batch", "250",
         str(history)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    runs: list[tuple[int, int, bool]] = []  # exit code, hands seen, import still running
    deadline = time.monotonic() + 60
    while not db.exists():  # the import creates the file (and holds it while it does)
        assert importer.poll() is None and time.monotonic() < deadline
        time.sleep(0.01)
    while importer.poll() is None:
        code, seen = _stats(db)
        runs.append((code, seen, importer.poll() is None))
    out, err = importer.communicate(timeout=300)
    runs.append((*_stats(db), False))
    assert importer.returncode == 0, err
    summary = json.loads(out.strip().splitlines()[-1])["summary"]
    assert (summary["added"], summary["hands"]) == (HANDS, HANDS)

    assert [r for r in runs if r[0] != 0] == []  # no reader ever failed on the lock
    during = [seen for code, seen, running in runs if running]
    assert during, runs  # readers got in while the import was running...
    assert any(0 < seen < max(r[1] for r in runs) for seen in during), runs  # ...mid-way
    assert [r[1] for r in runs] == sorted(r[1] for r in runs)  # commits only ever add
    con = dbmod.connect(db, read_only=True)
    try:
        assert _counts(con) == expected
        q = "SELECT key, status, total_pot, errors, warnings FROM hands ORDER BY key"
        assert con.execute(q).fetchall() == dbmod.connect(
            tmp_path / "plain.duckdb", read_only=True
        ).execute(q).fetchall()
    finally:
        con.close()


@pytest.mark.slow
def test_the_import_releases_the_file_only_when_a_reader_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from analysis.pipeline import importer
    from tests.store_data import write_history

    history = write_history(tmp_path / "h.txt", 600)
    monkeypatch.setattr(importer, "FLUSH_SECONDS", 0.0)  # a commit after every task
    monkeypatch.setattr(importer, "RELEASE", 0.0)
    monkeypatch.setattr(importer, "TASK_HANDS", 100)
    releases: list[float] = []
    real = importer._Import._release

    def counting(self: importer._Import, looked: float) -> None:
        releases.append(time.time())
        real(self, looked)

    monkeypatch.setattr(importer._Import, "_release", counting)
    db = tmp_path / "quiet.duckdb"
    s = importer.import_files(db, [history], workers=0, batch_hands=100)
    assert (s.added, releases) == (600, [])  # nobody waited: the file was kept all along

    waits: list[int] = []

    def wait(p: importer.Progress) -> None:  # another program finds the file locked
        if p.hands in (200, 400) and p.hands not in waits:
            waits.append(p.hands)
            Path(dbmod.waiting_reader_path(str(tmp_path / "busy.duckdb"))).touch()

    s = importer.import_files(tmp_path / "busy.duckdb", [history], progress=wait, workers=0,
                              batch_hands=100)  # fmt: skip
    assert s.added == 600 and waits == [200, 400]
    assert len(releases) == 2  # once after each reader came, at the next commit
    assert len(s.releases) == 2  # and the summary says how long each took
    con = dbmod.connect(tmp_path / "busy.duckdb", read_only=True)
    try:
        assert _counts(con) == _counts(dbmod.connect(db, read_only=True))
    finally:
        con.close()
