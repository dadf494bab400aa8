"""``drawlab reverify`` killed mid-run goes on where it stopped, with the same result as one
whole run: the pages done stay done, the stack carry-over is checked across the point it
stopped at, and only the same DrawLab continues a run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from analysis.pipeline import reverify as reverify_mod
from analysis.pipeline.importer import import_paths
from analysis.pipeline.reverify import PROGRESS, code_digest, reverify
from analysis.storage import db as dbmod
from tests.analysis.pipeline.test_reverify import _snapshot
from tests.paths import REPOSITORY
from tests.stack_breaks import stacks_changed
from tests.store_data import CORPUS

KILLED = """
import os, signal, sys
from analysis.storage import db
from analysis.pipeline import reverify
reverify.PAGE = 7
con = db.connect(sys.argv[1])
pages = 0
def progress(p):
    global pages
    pages += 1
    if pages == int(sys.argv[2]):
        os.kill(os.getpid(), signal.SIGKILL)  # as a user's kill -9, right after a commit
reverify.reverify(con, progress=progress, workers=0)
"""


def _session(tmp_path: Path) -> Path:
    """40 dealt hands at one table, three of them with a stack that grew from the hand
    before (carry-over warnings on both sides of page boundaries)."""

    texts = stacks_changed(40, (13, 14, 15, 27), 5)
    path = tmp_path / "t.txt"
    path.write_text("\n\n\n".join(texts) + "\n", encoding="utf-8")
    return path


def _stale(con: duckdb.DuckDBPyConnection) -> None:
    """What an older DrawLab might have left: every verdict ok, nothing derived."""
    con.execute("UPDATE hands SET status = 'ok', reason = NULL, errors = 0, warnings = 0")
    for table in ("seats", "actions", "draws", "shows", "payouts", "problems", "pots"):
        con.execute(f"DELETE FROM {table}")
    con.execute("DELETE FROM player_hands")


def _stored(tmp_path: Path) -> tuple[Path, dict[str, list[tuple[object, ...]]]]:
    path = tmp_path / "r.duckdb"
    con = dbmod.connect(str(path))
    kings = sorted((CORPUS / "cash" / "KingsClub").rglob("*.txt"))[:2]
    import_paths(con, [_session(tmp_path), *kings], workers=0)
    want = _snapshot(con)
    stack = [r for r in want["problems"] if str(r[1]).startswith("STACK_")]
    assert {r[0] for r in stack} == {14, 17, 28, 29}  # 15 and 16 match the grown 14
    _stale(con)
    con.close()
    return path, want


@pytest.mark.slow
@pytest.mark.parametrize("killed_after", [2, 4])  # after 14 or 28 (29 vs 28 is wrong)
def test_a_killed_reverify_goes_on_after_the_last_page_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, killed_after: int
) -> None:
    path, want = _stored(tmp_path)
    run = subprocess.run(
        [sys.executable, "-c", KILLED, str(path), str(killed_after)],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == -9, run.stderr
    con = dbmod.connect(str(path))
    done = 7 * killed_after
    mark = con.execute("SELECT value FROM meta WHERE name = ?", [PROGRESS]).fetchone()
    assert mark is not None and json.loads(mark[0]) == {"code": code_digest(), "after": done}
    # the pages done are done, the rest untouched
    assert con.execute("SELECT count(*) FROM seats WHERE hand <= ?", [done]).fetchone()[0] > 0  # type: ignore[index]
    assert con.execute("SELECT count(*) FROM seats WHERE hand > ?", [done]).fetchone() == (0,)
    total = con.execute("SELECT count(*) FROM hands").fetchone()[0]  # type: ignore[index]

    monkeypatch.setattr(reverify_mod, "PAGE", 7)
    summary = reverify(con, workers=0)
    assert (summary.resumed, summary.hands) == (done, total - done)
    assert summary.headlines()[1] == f"(went on from a stopped run, which had replayed {done:,})"
    assert _snapshot(con) == want
    assert con.execute("SELECT count(*) FROM meta WHERE name = ?", [PROGRESS]).fetchone() == (0,)
    con.close()


def test_a_run_stopped_by_another_drawlab_starts_again_from_the_first_hand(
    tmp_path: Path,
) -> None:
    path, want = _stored(tmp_path)
    con = dbmod.connect(str(path))
    mark = json.dumps({"code": "an older DrawLab", "after": 21})
    con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", [PROGRESS, mark])
    summary = reverify(con, workers=0)
    total = con.execute("SELECT count(*) FROM hands").fetchone()[0]  # type: ignore[index]
    assert (summary.resumed, summary.hands) == (0, total)
    assert _snapshot(con) == want
    con.close()


@pytest.mark.slow
def test_a_whole_run_leaves_nothing_to_go_on_with(tmp_path: Path) -> None:
    path, want = _stored(tmp_path)
    con = dbmod.connect(str(path))
    first = reverify(con, workers=0)
    again = reverify(con, workers=0)
    assert first.resumed == again.resumed == 0
    assert again.hands == first.hands and again.changed == 0
    assert _snapshot(con) == want
    con.close()
