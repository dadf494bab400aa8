"""The watcher on a failing machine: a watched folder that disappears is said once and
read again when it is back; a batch that meets a full disk is said and tried again; the
watcher goes on, and every hand ends stored once."""

from __future__ import annotations

import contextlib
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from analysis.faults import folder_gone
from analysis.pipeline.watch import Batch, Watcher
from analysis.storage import db as dbmod
from tests.fault_injection import Faulty
from tests.store_data import write_history


def _watching(watcher: Watcher) -> threading.Thread:
    thread = threading.Thread(target=watcher.run, daemon=True)
    thread.start()
    return thread


def _until(batches: list[Batch], wanted: Callable[[Batch], bool], timeout: float = 60) -> Batch:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for batch in list(batches):
            if wanted(batch):
                return batch
        time.sleep(0.05)
    raise AssertionError(f"no such batch among {[b.line() for b in batches]}")


def _keys(path: Path) -> tuple[int, int]:
    con = dbmod.connect(path, read_only=True, wait=dbmod.LOCK_WAIT)
    try:
        row = dbmod.one(con, "SELECT count(*), count(DISTINCT key) FROM hands")
        assert row is not None
        return int(row[0]), int(row[1])
    finally:
        con.close()


def test_a_watched_folder_that_disappears_is_said_once_and_read_again(tmp_path: Path) -> None:
    folder = tmp_path / "HandHistory"
    folder.mkdir()
    write_history(folder / "a.txt", 30)
    db = tmp_path / "x.duckdb"
    batches: list[Batch] = []
    watcher = Watcher(str(db), [folder], on_batch=batches.append, poll=0.1, events=False,
                      settle=0.0)
    thread = _watching(watcher)
    try:
        _until(batches, lambda b: b.summary is not None and b.summary.added == 30)
        shutil.rmtree(folder)
        gone = _until(batches, lambda b: b.summary is None)
        assert gone.error == folder_gone(str(folder)) and gone.files == ()
        assert gone.line()[9:] == folder_gone(str(folder))  # after the time, "HH:MM:SS "
        time.sleep(0.5)  # rounds go on: said once
        assert [b for b in batches if b.summary is None] == [gone]
        folder.mkdir()
        write_history(folder / "a.txt", 40)  # back, and grown
        _until(batches, lambda b: b.summary is not None and b.summary.added == 10)
    finally:
        watcher.stop()
        thread.join(60)
    assert not thread.is_alive()
    assert _keys(db) == (40, 40)


def test_a_batch_that_meets_a_full_disk_is_said_and_tried_again(tmp_path: Path) -> None:
    folder = tmp_path / "HandHistory"
    folder.mkdir()
    write_history(folder / "a.txt", 30)
    db = tmp_path / "x.duckdb"
    opened = [0]

    @contextlib.contextmanager
    def opener() -> Iterator[dbmod.Connection]:
        opened[0] += 1
        con = dbmod.connect(db, wait=dbmod.LOCK_WAIT)
        try:  # the first batch's write finds the disk full
            yield Faulty(con, "COMMIT", 2, str(db)) if opened[0] == 1 else con  # type: ignore[misc]
        finally:
            con.close()

    batches: list[Batch] = []
    watcher = Watcher(str(db), [folder], on_batch=batches.append, poll=0.1, events=False,
                      settle=0.0, opener=opener)
    thread = _watching(watcher)
    try:
        failed = _until(batches, lambda b: b.summary is None)
        assert failed.error == (
            f"the disk holding {db} is full: the hands committed before it are kept and "
            "nothing half-written was stored; free some space on it, then run the same "
            "command again (it adds each missing hand once)"
        )
        _until(batches, lambda b: b.summary is not None and b.summary.added == 30)
    finally:
        watcher.stop()
        thread.join(60)
    assert not thread.is_alive()
    assert _keys(db) == (30, 30)
