"""One database, several programs: every open waits briefly for another program's hold,
and the dashboard holds the file only while a run reads it."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from analysis.pipeline.importer import import_paths
from analysis.storage import db
from tests.app_support import STARS_TRIPLE, app_for

HOLD = (
    "import sys, time, duckdb; c = duckdb.connect(sys.argv[1]); print('held', flush=True);"
    " time.sleep(float(sys.argv[2])); c.close(); print('free', flush=True); time.sleep(60)"
)


def _holder(path: Path, seconds: float) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(path), str(seconds)],
                            stdout=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline().strip() == b"held"
    return proc


def _one_hand_db(path: Path) -> None:
    con = db.connect(path)
    try:
        import_paths(con, [STARS_TRIPLE], workers=0)
    finally:
        con.close()


def test_an_open_waits_for_another_programs_short_write(tmp_path: Path) -> None:
    path = tmp_path / "d.duckdb"
    _one_hand_db(path)
    holder = _holder(path, 0.6)
    try:
        held = "is held by another program: nothing was changed"
        with pytest.raises(db.DatabaseUnavailable, match=held):
            db.connect(path, read_only=True)  # no wait: the lock is reported at once
        start = time.monotonic()
        con = db.connect(path, read_only=True, wait=10)
        waited = time.monotonic() - start
        assert db.one(con, "SELECT count(*) FROM hands") == (1,)
        con.close()
        assert 0.2 < waited < 5
    finally:
        holder.kill()
        holder.wait()


def test_a_wait_that_runs_out_says_how_long_it_waited(tmp_path: Path) -> None:
    path = tmp_path / "d.duckdb"
    _one_hand_db(path)
    holder = _holder(path, 30)
    try:
        with pytest.raises(db.DatabaseUnavailable) as info:
            db.connect(path, read_only=True, wait=0.3)
        assert str(info.value) == (
            f"{path} is held by another program (waited 0.3 s): nothing was changed; DuckDB "
            "lets one program write a database at a time, so close the other one (a DrawLab "
            "import lets go within seconds when asked) and try again, or use --db"
        )
    finally:
        holder.kill()
        holder.wait()


def test_the_dashboard_lets_go_of_the_file_after_each_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "d.duckdb"
    _one_hand_db(path)
    at = app_for(path, monkeypatch).run()
    assert not at.exception
    assert at.metric[0].value == "1"
    from ui import state

    assert not state._shared(str(path)).held
    # another process can open it, even for writing, while the dashboard is up
    out = subprocess.run(
        [sys.executable, "-c",
         "import sys, duckdb; c = duckdb.connect(sys.argv[1]);"
         " print(c.execute('SELECT count(*) FROM hands').fetchone()[0])", str(path)],
        capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "1"
