"""How many batches the importer keeps at its own workers: enough to outlast a commit."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest

from analysis.pipeline import importer
from analysis.storage import db as dbmod
from tests.store_data import stars_history

TABLES = ("hands", "seats", "actions", "draws", "payouts", "problems", "player_hands")


class CountingPool:
    """A stand-in for this machine's worker processes: runs each batch at once, sends it
    through a pickle as a worker's would be, and counts the batches not yet collected."""

    instances: ClassVar[list[CountingPool]] = []

    def __init__(self, workers: int) -> None:
        self.slots = max(2, 3 * workers)
        self.out = 0
        self.most = 0
        CountingPool.instances.append(self)

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Any:
        self.out += 1
        self.most = max(self.most, self.out)
        return pickle.loads(pickle.dumps(fn(*args)))

    def result(self, handle: Any) -> Any:
        self.out -= 1
        return handle

    def close(self, broken: bool) -> None:
        pass


def _rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    con = dbmod.connect(path)
    try:
        return {t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in TABLES}
    finally:
        con.close()


@pytest.mark.slow
def test_own_workers_get_in_flight_hands_not_three_batches_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    history = tmp_path / "in" / "h.txt"
    history.parent.mkdir()
    history.write_text(stars_history(60), encoding="utf-8")
    monkeypatch.setattr(importer, "TASK_HANDS", 2)
    monkeypatch.setattr(importer, "IN_FLIGHT_HANDS", 20)
    monkeypatch.setattr(importer, "ProcessTaskPool", CountingPool)
    CountingPool.instances.clear()
    con = dbmod.connect(tmp_path / "pool.duckdb")
    summary = importer.import_paths(con, [history.parent], workers=2)
    con.close()
    assert summary.added == 60
    (pool,) = CountingPool.instances
    # IN_FLIGHT_HANDS // TASK_HANDS waiting, and the one just sent (3 x 2 workers: 6 + 1)
    assert pool.most == 10 + 1
    plain = dbmod.connect(tmp_path / "plain.duckdb")
    importer.import_paths(plain, [history.parent], workers=0)
    plain.close()
    assert _rows(tmp_path / "pool.duckdb") == _rows(tmp_path / "plain.duckdb")


def test_a_pool_given_by_the_caller_keeps_its_own_slots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    history = tmp_path / "in" / "h.txt"
    history.parent.mkdir()
    history.write_text(stars_history(30), encoding="utf-8")
    monkeypatch.setattr(importer, "TASK_HANDS", 2)
    pool = CountingPool(1)  # a Dask cluster's, say: its slots are what it can hold
    con = dbmod.connect(tmp_path / "given.duckdb")
    summary = importer.import_paths(con, [history.parent], workers=1, pool=pool)
    con.close()
    assert summary.added == 30
    assert pool.most == pool.slots + 1 == 4
