"""Kills at random points of an import and of a reverify (SIGKILL: nothing runs after
it), one seeded point each, each followed by the same work run again and a check that
the database equals a clean import: every hand once, every committed page kept.

The kill comes a random time after the process opened the database, up to a little
more than the work takes on its own, so it lands in a transaction, between two, in the
summed cells, at the checkpoint, or after the end (a run that finished is checked the
same way).  Six seeds for each: 12 runs.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from analysis.pipeline.importer import import_paths
from analysis.pipeline.reverify import reverify
from analysis.storage import db as dbmod
from tests.fault_injection import snapshot, whole
from tests.paths import REPOSITORY
from tests.store_data import write_history

HANDS = 1200
PAGE = 200  # hands a reverify replays in one transaction (5,000 by default)
SEEDS = range(6)
DRIVER = """
import sys
from analysis.storage.db import connect
from analysis.pipeline import reverify as pages
from analysis.pipeline.importer import import_paths
from analysis.pipeline.reverify import reverify

pages.PAGE = int(sys.argv[-1])  # several pages, each its own transaction

db = connect(sys.argv[1])
print("open", flush=True)
if sys.argv[2] == "import":
    import_paths(db, [sys.argv[3]], workers=0, batch_hands=200)
else:
    reverify(db, workers=0)
db.close()
print("done", flush=True)
"""


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_history(tmp_path_factory.mktemp("kills") / "h.txt", HANDS)


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory, history: Path) -> tuple[Path, float, float]:
    """A clean import, and how long it and a reverify of it took (the spans the kills are
    spread over)."""
    folder = tmp_path_factory.mktemp("kills-clean")
    path = folder / "clean.duckdb"
    con = dbmod.connect(path)
    start = time.monotonic()
    import_paths(con, [history], workers=0, batch_hands=200)
    imported = time.monotonic() - start
    con.close()
    (folder / "copy.duckdb").write_bytes(path.read_bytes())
    con = dbmod.connect(folder / "copy.duckdb")
    with pytest.MonkeyPatch.context() as m:
        m.setattr("analysis.pipeline.reverify.PAGE", PAGE)
        start = time.monotonic()
        reverify(con, workers=0)
        replayed = time.monotonic() - start
    con.close()
    return path, imported, replayed


@pytest.fixture(scope="module")
def reference(clean: tuple[Path, float, float]) -> dict[str, Any]:
    con = dbmod.connect(clean[0], read_only=True)
    try:
        return snapshot(con)
    finally:
        con.close()


def _kill_at_random(db: Path, seed: int, span: float, *work: str) -> bool:
    """Run ``work`` on ``db`` in its own process, SIGKILL it a seeded random time after it
    opened the database; whether the kill came before the end."""
    proc = subprocess.Popen(
        [sys.executable, "-c", DRIVER, str(db), *work, str(PAGE)], stdout=subprocess.PIPE,
        text=True,
        cwd=REPOSITORY, env={**os.environ, "PYTHONPATH": str(REPOSITORY)},
        start_new_session=True,
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "open"
    time.sleep(random.Random(seed).uniform(0.0, span * 1.2))
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)
    return proc.returncode == -signal.SIGKILL


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_an_import_killed_anywhere_completes_on_a_rerun(
    tmp_path: Path, history: Path, clean: tuple[Path, float, float], reference: dict[str, Any],
    seed: int,
) -> None:
    path = tmp_path / "x.duckdb"
    dbmod.connect(path).close()  # the schema laid out first: the kill falls in the import
    _kill_at_random(path, seed, clean[1], "import", str(history))
    con = dbmod.connect(path)
    try:
        whole(con)
        stored = len(snapshot(con)["hands"])
        again = import_paths(con, [history], workers=0, batch_hands=200)
        assert (again.added, again.already_present) == (HANDS - stored, stored)
        assert snapshot(con) == reference
    finally:
        con.close()


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_a_reverify_killed_anywhere_completes_on_a_rerun(
    tmp_path: Path, clean: tuple[Path, float, float], reference: dict[str, Any], seed: int
) -> None:
    path = tmp_path / "x.duckdb"
    path.write_bytes(clean[0].read_bytes())
    _kill_at_random(path, seed, clean[2], "reverify")
    con = dbmod.connect(path)
    try:
        whole(con)
        assert snapshot(con) == reference  # each page rewritten whole or not at all
        again = reverify(con, workers=0)
        assert again.hands <= HANDS  # goes on after the last page done
        assert snapshot(con) == reference
    finally:
        con.close()
