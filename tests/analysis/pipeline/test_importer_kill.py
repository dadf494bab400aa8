"""An import killed with SIGKILL mid-way leaves a consistent database, and a re-run completes it.

The import runs in a real subprocess with worker processes; the test kills the whole
process group (importer, forkserver and workers) once the importer reports a given number
of hands, then checks the database and imports again.  Past that number the importer's
progress callback dawdles a little, so a test process slow to be scheduled on a busy
machine still kills the import before it ends (the workers and the writes go on meanwhile:
the kill still lands wherever it lands).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from analysis.pipeline.importer import Progress, import_paths
from analysis.storage import db as dbmod
from tests.paths import REPOSITORY
from tests.store_data import write_history

HANDS = 3000
CHILDREN = ("seats", "actions", "draws", "shows", "payouts", "problems", "pots", "player_hands")
DRIVER = """
import sys, time
from analysis.storage.db import connect
from analysis.pipeline.importer import Progress, import_paths

def show(p):
    print(p.hands, flush=True)
    if p.hands >= int(sys.argv[3]):
        time.sleep(0.25)

db = connect(sys.argv[1])
import_paths(db, [sys.argv[2]], progress=show, workers=2, batch_hands=500)
print("done", flush=True)
"""


def _counts(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    return {
        t: int(con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0])
        for t in ("hands", "quarantine", *CHILDREN)
    }


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    folder = tmp_path_factory.mktemp("kill")
    path = write_history(folder / "big.txt", HANDS)
    con = dbmod.connect(folder / "reference.duckdb")
    import_paths(con, [path], workers=0)
    counts = _counts(con)
    con.close()
    return path, counts


def _kill_after(db: Path, history: Path, hands: int) -> None:
    root = REPOSITORY
    proc = subprocess.Popen(
        [sys.executable, "-c", DRIVER, str(db), str(history), str(hands)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        start_new_session=True,
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.strip() == "done" or int(line) >= hands:
            break
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL


@pytest.mark.slow
@pytest.mark.parametrize("kill_at", [600, 2000])
def test_killed_import_is_consistent_and_completes_on_rerun(
    tmp_path: Path, history: tuple[Path, dict[str, int]], kill_at: int
) -> None:
    path, reference = history
    db_path = tmp_path / "killed.duckdb"
    _kill_after(db_path, path, kill_at)

    con = dbmod.connect(db_path)
    stored = _counts(con)
    assert 0 <= stored["hands"] < HANDS  # killed before the end
    for child in CHILDREN:  # no row of a hand that is not there
        orphans = con.execute(
            f"SELECT count(*) FROM {child} WHERE hand NOT IN (SELECT id FROM hands)"
        ).fetchall()
        assert orphans == [(0,)], child
    # every stored hand with a record has all its seats: whole batches only
    assert con.execute(
        "SELECT count(*) FROM hands h WHERE status IN ('ok', 'invalid') "
        "AND players <> (SELECT count(*) FROM seats s WHERE s.hand = h.id)"
    ).fetchall() == [(0,)]
    assert con.execute("SELECT count(*) FROM import_batches WHERE finished IS NULL").fetchall() == [
        (1,)
    ]
    assert con.execute("SELECT count(*) FROM files").fetchall() == [(0,)]

    again = import_paths(con, [path], workers=0)
    assert again.added == HANDS - stored["hands"]
    assert again.already_present == stored["hands"]
    assert _counts(con) == reference
    keys = con.execute("SELECT count(DISTINCT key), count(*) FROM hands").fetchall()
    assert keys == [(HANDS, HANDS)]


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(c) for c in text.split()]


@pytest.mark.slow
def test_worker_killed_mid_import_is_replaced_by_the_main_process(
    tmp_path: Path, history: tuple[Path, dict[str, int]]
) -> None:
    path, reference = history
    killed: list[int] = []

    def kill_workers(p: Progress) -> None:
        if killed or p.hands == 0:
            return
        for helper in _children(os.getpid()):  # the forkserver; the workers are its children
            for worker in _children(helper):
                os.kill(worker, signal.SIGKILL)
                killed.append(worker)

    con = dbmod.connect(tmp_path / "x.duckdb")
    s = import_paths(con, [path], progress=kill_workers, workers=2, batch_hands=500)
    assert killed
    assert s.added == HANDS and s.rejected == []
    assert _counts(con) == reference
