"""``drawlab import --watch`` as a real process: hands arrive once, other programs read
the database meanwhile, and a watcher killed mid-batch leaves it consistent."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import duckdb
import pytest

from analysis.pipeline.importer import import_paths
from analysis.storage import db as dbmod
from tests.store_data import stars_history

BIN = Path(sys.executable).parent
DRAWLAB = str(BIN / "drawlab")
CHILDREN = ("seats", "actions", "draws", "shows", "payouts", "problems", "pots", "player_hands")


class WatcherProcess:
    """``drawlab import --watch`` in its own process group, its output read on a thread."""

    def __init__(self, db: Path, folder: Path, *extra: str) -> None:
        self.proc = subprocess.Popen(
            [DRAWLAB, "import", "--watch", "--db", str(db), "--poll", "0.3", *extra,
             str(folder)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def next_line(self, timeout: float = 120) -> str:
        line = self.lines.get(timeout=timeout)
        self.seen.append(line)
        return line

    def next_batch(self, timeout: float = 120) -> str:
        while True:
            line = self.next_line(timeout)
            if "hands added" in line:
                return line

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(timeout=180)  # a busy machine: the batch in hand commits first
        while not self.lines.empty():
            self.seen.append(self.lines.get())
        return code

    def kill(self) -> None:
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=60)


def _hands(con: duckdb.DuckDBPyConnection) -> list[tuple[str, str]]:
    return [(str(k), str(s)) for k, s in
            con.execute("SELECT key, status FROM hands ORDER BY key").fetchall()]


def _reference(tmp_path: Path, text: str) -> list[tuple[str, str]]:
    path = tmp_path / "ref" / "live.txt"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    con = dbmod.connect(tmp_path / "ref.duckdb")
    try:
        import_paths(con, [path], workers=0)
        return _hands(con)
    finally:
        con.close()


def _stats_json(db: Path) -> dict[str, object]:
    out = subprocess.run([DRAWLAB, "stats", "--db", str(db), "--json", "--all-players"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    data: dict[str, object] = json.loads(out.stdout)
    return data


class Reader:
    """Another program reading the database over and over while the watcher runs:
    ``drawlab stats --json`` and a read-only look at every stored hand's key and status."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.seen: list[list[tuple[str, str]]] = []
        self.stats_runs = 0
        self.failures: list[str] = []
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.done.is_set():
            if self.db.exists():
                try:
                    con = dbmod.connect(self.db, read_only=True, wait=dbmod.LOCK_WAIT)
                    try:
                        self.seen.append(_hands(con))
                    finally:
                        con.close()
                    _stats_json(self.db)
                    self.stats_runs += 1
                except (dbmod.DatabaseUnavailable, dbmod.SchemaOutdated, AssertionError) as e:
                    self.failures.append(str(e))
            time.sleep(0.05)

    def look_again(self, timeout: float = 120) -> list[tuple[str, str]]:
        """What the reader sees on a look that starts after this call."""
        n = len(self.seen)
        deadline = time.monotonic() + timeout
        while len(self.seen) < n + 2:  # the look under way may have started before
            assert time.monotonic() < deadline and self.thread.is_alive()
            time.sleep(0.05)
        return self.seen[-1]

    def stop(self) -> None:
        self.done.set()
        self.thread.join(timeout=180)


@pytest.mark.slow
def test_hands_written_in_three_pieces_arrive_exactly_once(tmp_path: Path) -> None:
    whole = stars_history(12)
    starts = [i for i in range(len(whole)) if whole.startswith("PokerStars ", i)]
    first_cut = starts[4]  # four whole hands
    second_cut = whole.index("*** SUMMARY ***", starts[8])  # in the middle of the 9th
    reference = _reference(tmp_path, whole)
    assert len(reference) == 12
    first_eight = [h for h in reference if h[0] < "pokerstars:900000000008"]
    assert len(first_eight) == 8

    folder = tmp_path / "histories"
    folder.mkdir()
    db = tmp_path / "live.duckdb"
    watcher = WatcherProcess(db, folder, "--tail-wait", "600")
    reader: Reader | None = None
    try:
        assert watcher.next_line().endswith("Ctrl-C stops")
        live = folder / "live.txt"
        live.write_text(whole[:first_cut], encoding="utf-8")
        assert ": 4 hands added, 0 already present, 0 problems" in watcher.next_batch()
        reader = Reader(db)  # reads all along from here on
        first = _stats_json(db)
        players = first["players"]
        assert isinstance(players, list) and max(p["hands"] for p in players) == 4

        with live.open("a", encoding="utf-8") as f:
            f.write(whole[first_cut:second_cut])
        line = watcher.next_batch()  # the 4th read again, 5-8 new, the 9th held back
        assert ": 4 hands added, 1 already present, 0 problems, 1 unfinished" in line
        second = _stats_json(db)
        assert isinstance(second["players"], list)
        assert max(p["hands"] for p in second["players"]) == 8
        con = dbmod.connect(db, read_only=True, wait=dbmod.LOCK_WAIT)
        try:
            assert _hands(con) == first_eight  # the 9th not even as incomplete
        finally:
            con.close()
        assert reader.look_again() == first_eight  # another program, while the 9th is held

        with live.open("a", encoding="utf-8") as f:
            f.write(whole[second_cut:])
        assert ": 4 hands added, 0 already present, 0 problems" in watcher.next_batch()
        con = dbmod.connect(db, read_only=True, wait=dbmod.LOCK_WAIT)
        try:
            assert _hands(con) == reference  # each of the 12 once, with a fresh import's verdict
            assert con.execute("SELECT count(*) FROM quarantine").fetchall() == [(0,)]
        finally:
            con.close()
        third = _stats_json(db)
        assert isinstance(third["players"], list)
        assert max(p["hands"] for p in third["players"]) == 12
        assert reader.look_again() == reference
    finally:
        if reader is not None:
            reader.stop()
        code = watcher.stop()
    assert code == 0
    assert watcher.seen[-1] == "stopped"
    assert reader is not None and reader.failures == []
    assert reader.stats_runs >= 1 and len(reader.seen) >= 2
    for seen in reader.seen:  # never the cut hand as incomplete, nor any hand twice
        assert all(status != "incomplete" for _, status in seen)
        assert len(seen) == len({k for k, _ in seen})
        assert set(seen) <= set(reference)


@pytest.mark.slow
def test_a_clean_stop_stores_a_held_tail_as_it_stands(tmp_path: Path) -> None:
    whole = stars_history(3)
    cut = whole.rindex("*** SUMMARY ***")
    folder = tmp_path / "histories"
    folder.mkdir()
    live = folder / "live.txt"
    live.write_text(whole[:cut], encoding="utf-8")
    db = tmp_path / "live.duckdb"
    watcher = WatcherProcess(db, folder, "--tail-wait", "600")
    try:
        assert ": 2 hands added, 0 already present, 0 problems, 1 unfinished" in (
            watcher.next_batch()
        )
    finally:
        assert watcher.stop() == 0
    assert any(": 1 hands added, 0 already present" in line for line in watcher.seen)
    con = dbmod.connect(db, read_only=True)
    try:
        assert con.execute("SELECT hand_id, status FROM hands ORDER BY id").fetchall()[-1] == (
            "900000000002", "incomplete",
        )  # fmt: skip
    finally:
        con.close()
    live.write_text(whole, encoding="utf-8")  # the file grows later: replaced, once
    con = dbmod.connect(db)
    try:
        s = import_paths(con, [live], workers=0)
        assert (s.added, s.already_present) == (0, 1)
        assert _hands(con) == _reference(tmp_path, whole)
    finally:
        con.close()


@pytest.mark.slow
def test_a_file_replaced_or_rotated_adds_no_duplicates(tmp_path: Path) -> None:
    folder = tmp_path / "histories"
    folder.mkdir()
    db = tmp_path / "live.duckdb"
    live = folder / "live.txt"
    live.write_text(stars_history(5), encoding="utf-8")
    watcher = WatcherProcess(db, folder)
    try:
        assert ": 5 hands added, 0 already present" in watcher.next_batch()
        live.rename(folder / "live.1.txt")  # rotated: the old file under a new name...
        fresh = stars_history(2, first_id=900_000_000_005)
        live.write_text(fresh, encoding="utf-8")  # ...and a new one
        lines = [watcher.next_batch()]
        while sum(int(x.split(": ")[1].split()[0]) for x in lines) < 2:
            lines.append(watcher.next_batch())
        truncated = stars_history(1, first_id=900_000_000_005)
        live.write_text(truncated, encoding="utf-8")  # truncated to its first hand
        assert ": 0 hands added, 1 already present" in watcher.next_batch()
    finally:
        assert watcher.stop() == 0
    con = dbmod.connect(db, read_only=True)
    try:
        assert con.execute("SELECT count(*), count(DISTINCT key) FROM hands").fetchall() == [
            (7, 7)
        ]
    finally:
        con.close()


@pytest.mark.slow
def test_watcher_killed_mid_batch_leaves_a_consistent_database_the_next_run_completes(
    tmp_path: Path,
) -> None:
    hands = 6000
    whole = stars_history(hands + 1)  # the client is still writing the last one
    text = whole[: whole.rindex("*** SUMMARY ***")]
    reference = _reference(tmp_path, whole)
    folder = tmp_path / "histories"
    folder.mkdir()
    (folder / "big.txt").write_text(text, encoding="utf-8")
    db = tmp_path / "live.duckdb"
    watcher = WatcherProcess(db, folder)
    wal = Path(str(db) + ".wal")
    deadline = time.monotonic() + 120
    while not wal.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.3)
    watcher.kill()
    assert watcher.proc.returncode == -signal.SIGKILL
    while not watcher.lines.empty():
        watcher.seen.append(watcher.lines.get())
    assert not any("hands added" in line for line in watcher.seen)  # killed mid-batch

    con = dbmod.connect(db)
    try:
        stored = con.execute("SELECT count(*) FROM hands").fetchall()[0][0]
        assert 0 <= stored < hands
        for child in CHILDREN:
            orphans = con.execute(
                f"SELECT count(*) FROM {child} WHERE hand NOT IN (SELECT id FROM hands)"
            ).fetchall()
            assert orphans == [(0,)], child
        assert con.execute(
            "SELECT count(*) FROM hands h WHERE status IN ('ok', 'invalid') "
            "AND players <> (SELECT count(*) FROM seats s WHERE s.hand = h.id)"
        ).fetchall() == [(0,)]
        assert con.execute("SELECT count(*) FROM files").fetchall() == [(0,)]
    finally:
        con.close()

    again = WatcherProcess(db, folder, "--tail-wait", "600")
    try:
        line = again.next_batch(timeout=300)
        assert f": {hands - stored} hands added, {stored} already present" in line
        assert line.endswith(", 1 unfinished hand(s) waiting")
        con = dbmod.connect(db, read_only=True, wait=dbmod.LOCK_WAIT)
        try:
            assert _hands(con) == reference[:-1]  # the cut one is not stored at all
        finally:
            con.close()
        (folder / "big.txt").write_text(whole, encoding="utf-8")
        assert ": 1 hands added, 0 already present, " in again.next_batch()  # (an invalid one)
    finally:
        assert again.stop() == 0
    con = dbmod.connect(db, read_only=True)
    try:
        assert _hands(con) == reference  # every hand once, the cut one whole
    finally:
        con.close()


def test_a_backlog_is_imported_in_batches_letting_go_of_the_file_between(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from analysis.pipeline import watch

    folder = tmp_path / "histories"
    folder.mkdir()
    for i in range(3):
        (folder / f"t{i}.txt").write_text(stars_history(4, first_id=900_000_000_000 + 10 * i),
                                          encoding="utf-8")
    size = (folder / "t0.txt").stat().st_size
    batches: list[watch.Batch] = []
    w = watch.Watcher(str(tmp_path / "d.duckdb"), [folder], on_batch=batches.append,
                      events=False, settle=0)
    monkeypatch.setattr(watch, "BATCH_BYTES", 2 * size)  # two files a batch
    w._round(first=True)
    assert [len(b.files) for b in batches] == [2, 1]
    assert [b.summary.added for b in batches if b.summary] == [8, 4]
    w._round()
    assert len(batches) == 2  # nothing changed: no batch


@pytest.mark.slow
def test_a_utf16_full_tilt_file_grown_in_three_pieces_arrives_once(tmp_path: Path) -> None:
    """Any site and encoding: Full Tilt's UTF-16 (with its BOM), cut once between hands and
    once inside one, read by the watcher as it grows."""
    from analysis.pipeline import watch
    from tests.corpus import CORPUS

    mix = CORPUS / "cash" / "FTP" / "Mix" / "10Game-6max-USD-2.50-5.201104.Sample.txt"
    raw = mix.read_bytes()
    assert raw[:2] == b"\xff\xfe"
    marker = "Full Tilt Poker Game #".encode("utf-16-le")
    starts = [i for i in range(0, len(raw), 2) if raw.startswith(marker, i)]
    assert len(starts) == 84
    reference_file = tmp_path / "ref" / "mix.txt"
    reference_file.parent.mkdir()
    reference_file.write_bytes(raw)
    con = dbmod.connect(tmp_path / "ref.duckdb")
    try:
        import_paths(con, [reference_file], workers=0)
        reference = _hands(con)
    finally:
        con.close()
    folder = tmp_path / "histories"
    folder.mkdir()
    live = folder / "mix.txt"
    cuts = [0, starts[42], starts[43] + 400, len(raw)]  # the second cut inside hand 44
    batches: list[watch.Batch] = []
    w = watch.Watcher(str(tmp_path / "d.duckdb"), [folder], on_batch=batches.append,
                      events=False, settle=0, first_workers=0)  # fmt: skip
    for i in range(3):
        live.write_bytes(raw[: cuts[i + 1]])
        w._round(first=i == 0)
    # the second piece ends inside hand 44: it is held back (not stored), so the second
    # read adds only hand 43 (42 read again) and the third reads from hand 44 on, whole
    assert [(b.summary.added, b.summary.already_present) for b in batches if b.summary] == [
        (42, 0), (1, 1), (41, 0),
    ]  # fmt: skip
    assert [b.summary.held for b in batches if b.summary] == [[], [str(live)], []]
    con = dbmod.connect(tmp_path / "d.duckdb", read_only=True)
    try:
        assert _hands(con) == reference and len(reference) == 84
    finally:
        con.close()


@pytest.mark.slow
def test_a_tail_unchanged_for_tail_wait_seconds_is_stored_as_it_stands(tmp_path: Path) -> None:
    from analysis.pipeline import watch

    whole = stars_history(4)
    cut = whole.rindex("*** SUMMARY ***")
    folder = tmp_path / "histories"
    folder.mkdir()
    live = folder / "live.txt"
    live.write_text(whole[:cut], encoding="utf-8")
    batches: list[watch.Batch] = []
    w = watch.Watcher(str(tmp_path / "d.duckdb"), [folder], on_batch=batches.append,
                      events=False, settle=0, first_workers=0, tail_wait=0.5)  # fmt: skip
    w._round(first=True)
    assert [(b.summary.added, b.summary.held) for b in batches if b.summary] == [
        (3, [str(live)])
    ]
    assert w.held == [live]
    w._round()  # unchanged, not long enough yet: nothing
    assert len(batches) == 1
    time.sleep(0.6)
    w._round()  # unchanged for tail_wait: stored as it stands
    assert [(b.summary.added, b.summary.held) for b in batches if b.summary][1:] == [(1, [])]
    assert w.held == []
    con = dbmod.connect(tmp_path / "d.duckdb", read_only=True)
    try:
        assert con.execute("SELECT status, count(*) FROM hands GROUP BY 1 ORDER BY 1").fetchall(
        ) == [("incomplete", 1), ("ok", 3)]
    finally:
        con.close()
    w._round()
    assert len(batches) == 2  # stored once, not again
    live.write_text(whole, encoding="utf-8")  # the client comes back and finishes it
    w._round()
    assert [(b.summary.added, b.summary.already_present) for b in batches if b.summary][2:] == [
        (0, 1)
    ]
    con = dbmod.connect(tmp_path / "d.duckdb", read_only=True)
    try:
        assert _hands(con) == _reference(tmp_path, whole)
    finally:
        con.close()
