"""When an import commits and sums the dashboard's cells: per ``batch_hands`` hands (a
sharing import also when a reader waits for the file), the cells every ``CELLS_HANDS``
hands, before a release of the file and at the end, and the same rows and cells whatever
the rhythm."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from analysis.pipeline import importer
from analysis.storage import db as dbmod
from analysis.storage import stat_cells, summaries, timeline_cells
from analysis.storage.writer import Store
from tests.store_data import write_history

TABLES = ("hands", "seats", "actions", "draws", "shows", "payouts", "problems", "pots",
          "player_hands", "import_batches")  # fmt: skip


def _calls(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[int]:
    """Count calls of ``owner.name`` (the list grows by one per call)."""
    seen: list[int] = []
    real = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        seen.append(len(seen))
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return seen


def _rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the hands' tables (the run's own columns aside), and each table of
    summed cells summed again by its keys: the pieces a cell is summed in depend on when
    ``extend`` ran, their sums do not (floats to nine places)."""
    con = dbmod.connect(path, read_only=True)
    try:
        out = {t: sorted(con.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
               for t in TABLES if t != "import_batches"}  # fmt: skip
        out["import_batches"] = con.execute(
            "SELECT id, file, hands, added, ok, invalid FROM import_batches ORDER BY id"
        ).fetchall()
        for table, dimensions, measures, _ in stat_cells.TABLES:
            keys = ", ".join(name for name, _, _ in dimensions)
            sums = ", ".join(  # a float's last digits follow the order of summing
                f"round(sum({name}), 9)" if kind == "DOUBLE" else f"sum({name})"
                for name, _, kind in measures
            )
            query = f"SELECT {keys}, {sums} FROM {table} GROUP BY ALL"
            out[table] = sorted(con.execute(query).fetchall(), key=repr)
        return out
    finally:
        con.close()


@pytest.mark.slow
def test_cells_are_summed_every_cells_hands_and_at_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    history = write_history(tmp_path / "h.txt", 600)
    monkeypatch.setattr(importer, "TASK_HANDS", 100)
    monkeypatch.setattr(importer, "CELLS_HANDS", 250)
    extends = _calls(monkeypatch, summaries, "extend")
    writes = _calls(monkeypatch, Store, "write")
    con = dbmod.connect(tmp_path / "a.duckdb")
    s = importer.import_paths(con, [history], workers=0, batch_hands=100)
    assert (s.added, len(writes), len(extends)) == (600, 7, 2)  # cells at 300, 600
    assert stat_cells.current(con) and timeline_cells.current(con)
    con.close()

    monkeypatch.setattr(importer, "CELLS_HANDS", 100_000)
    con = dbmod.connect(tmp_path / "b.duckdb")
    s = importer.import_paths(con, [history], workers=0, batch_hands=100)
    assert (s.added, len(writes), len(extends)) == (600, 14, 3)  # once, at the end
    assert stat_cells.current(con) and timeline_cells.current(con)
    con.close()
    assert _rows(tmp_path / "a.duckdb") == _rows(tmp_path / "b.duckdb")


def test_a_sharing_import_no_reader_waits_for_commits_per_batch_hands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    history = write_history(tmp_path / "h.txt", 600)
    monkeypatch.setattr(importer, "FLUSH_SECONDS", 0.0)  # look for a reader after every task
    monkeypatch.setattr(importer, "RELEASE", 0.0)
    monkeypatch.setattr(importer, "TASK_HANDS", 100)
    writes = _calls(monkeypatch, Store, "write")
    s = importer.import_files(tmp_path / "quiet.duckdb", [history], workers=0, batch_hands=300)
    assert (s.added, len(writes)) == (600, 3)  # 300, 600, the file read: none a look


@pytest.mark.slow
def test_a_waiting_reader_gets_the_commit_and_the_cells_before_the_release(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    history = write_history(tmp_path / "h.txt", 600)
    monkeypatch.setattr(importer, "FLUSH_SECONDS", 0.0)
    monkeypatch.setattr(importer, "RELEASE", 0.0)
    monkeypatch.setattr(importer, "TASK_HANDS", 100)
    db = tmp_path / "busy.duckdb"
    seen: list[tuple[int, bool]] = []
    real = importer._Import._release

    def release(self: importer._Import, looked: float) -> None:  # what a reader finds now
        count = self.db.execute("SELECT count(*) FROM hands").fetchall()[0][0]
        seen.append((int(count), stat_cells.current(self.db)))
        real(self, looked)

    monkeypatch.setattr(importer._Import, "_release", release)
    waited: list[int] = []

    def wait(p: importer.Progress) -> None:
        if p.hands == 200 and not waited:
            waited.append(p.hands)
            time.sleep(0.01)  # the reader's time after the import's last release
            Path(dbmod.waiting_reader_path(str(db))).touch()

    s = importer.import_files(db, [history], progress=wait, workers=0, batch_hands=10_000)
    assert s.added == 600
    assert seen == [(300, True)]  # at the next task: all it read committed, cells current
    assert _rows(db) == _rows_plain(tmp_path, history)
    # the release is recorded: from the look that found the reader to the close, which
    # came after that look's commit and summing of the cells, within this run
    assert len(s.releases) == 1
    assert 0.0 < s.releases[0] < s.seconds
    assert 0.0 < s.longest_between_looks < s.seconds


@pytest.mark.slow
def test_the_compaction_waits_while_a_reader_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A waiting reader does not wait for the summaries' compaction: the import extends
    them without it, before and during its release of the file, and compacts again
    after."""
    history = write_history(tmp_path / "h.txt", 600)
    monkeypatch.setattr(importer, "FLUSH_SECONDS", 0.0)
    monkeypatch.setattr(importer, "RELEASE", 0.0)
    monkeypatch.setattr(importer, "TASK_HANDS", 100)
    monkeypatch.setattr(importer, "CELLS_HANDS", 100)
    db = tmp_path / "busy.duckdb"
    calls: dict[str, list[int]] = {"extend": [], "compact": []}
    for name in calls:
        real = getattr(summaries, name)

        def counted(con: dbmod.Connection, real: Any = real, name: str = name) -> int:
            calls[name].append(int(con.execute("SELECT count(*) FROM hands").fetchall()[0][0]))
            return int(real(con))

        monkeypatch.setattr(summaries, name, counted)

    def wait(p: importer.Progress) -> None:
        if p.hands == 200:
            time.sleep(0.01)  # the reader's time after the import's last release
            Path(dbmod.waiting_reader_path(str(db))).touch()

    s = importer.import_files(db, [history], progress=wait, workers=0, batch_hands=100)
    assert s.added == 600 and len(s.releases) == 1
    # the reader came after the cells of the first 200 hands: those of 300 are summed
    # and not compacted, the release then finds them current, and after it the
    # compactions are back
    assert calls == {"extend": [100, 200, 300, 400, 500, 600],
                     "compact": [100, 200, 400, 500, 600]}  # fmt: skip
    assert _rows(db) == _rows_plain(tmp_path, history)


def test_an_import_that_holds_the_file_records_no_release(tmp_path: Path) -> None:
    history = write_history(tmp_path / "h.txt", 200)
    con = dbmod.connect(tmp_path / "held.duckdb")
    s = importer.import_paths(con, [history], workers=0)
    con.close()
    assert (s.added, s.releases, s.longest_between_looks) == (200, [], 0.0)


def _rows_plain(tmp_path: Path, history: Path) -> dict[str, list[tuple[Any, ...]]]:
    con = dbmod.connect(tmp_path / "plain.duckdb")
    importer.import_paths(con, [history], workers=0)
    con.close()
    return _rows(tmp_path / "plain.duckdb")
