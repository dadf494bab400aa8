"""Live import: how soon a hand written to a watched file is visible to another program,
and what the watcher costs while nothing happens (goal: under 1% of a core).

A real ``drawlab import --watch`` process watches a fresh folder; the benchmark (another
process, as ``drawlab stats`` or the dashboard would be) appends dealt PokerStars hands
(``analysis.simulate``) to one file, one at a time, and after each write opens the
database read-only (waiting on the watcher's lock as every DrawLab reader does) until the
hand's id is there.  Latency is from the end of the write to the read that sees it.
Then the watcher is left idle and its CPU time read from ``/proc``.

Run: ``python -m benchmarks.bench_live [--hands 100] [--idle 20] [--no-events]``.
"""

from __future__ import annotations

import argparse
import io
import itertools
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from analysis.simulate import simulate
from analysis.storage import db
from engine.record import Game

GOAL_CPU = 0.01
_HEAD = re.compile(r"^PokerStars Hand #", re.MULTILINE)


def dealt_hands(n: int) -> list[tuple[str, str]]:
    """``n`` hand texts and their ids, as a client would write them one by one."""
    out = io.StringIO()
    simulate(out, n, Game.TRIPLE_DRAW_27, 6, seed=7)
    text = out.getvalue()
    starts = [m.start() for m in _HEAD.finditer(text)] + [len(text)]
    hands = [text[a:b] for a, b in itertools.pairwise(starts)]
    ids = [h.split("#", 1)[1].split(":", 1)[0] for h in hands]
    return list(zip(hands, ids, strict=True))


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def visible(path: Path, hand_id: str) -> bool:
    try:
        con = db.connect(path, read_only=True, wait=db.LOCK_WAIT)
    except db.DatabaseMissing:
        return False
    try:
        return db.one(con, "SELECT count(*) FROM hands WHERE hand_id = ?", [hand_id]) == (1,)
    finally:
        con.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--idle", type=float, default=20.0, help="seconds of idle to measure")
    ap.add_argument("--no-events", action="store_true", help="the watcher polls only")
    args = ap.parse_args()
    hands = dealt_hands(args.hands)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "histories"
        folder.mkdir()
        path = Path(tmp) / "live.duckdb"
        db.connect(path).close()
        live = folder / "live.txt"
        live.write_text("", encoding="utf-8")
        cmd = [str(Path(sys.executable).parent / "drawlab"), "import", "--watch", "--quiet",
               "--db", str(path), str(folder)]
        if args.no_events:
            cmd.append("--no-events")
        watcher = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, start_new_session=True)
        try:
            time.sleep(2.0)  # started and watching
            latencies = []
            for text, hand_id in hands:
                with live.open("a", encoding="utf-8") as f:
                    f.write(text)
                written = time.monotonic()
                while not visible(path, hand_id):
                    time.sleep(0.01)
                latencies.append(time.monotonic() - written)
            time.sleep(2.0)  # the last batch's tail settles
            cpu0, wall0 = cpu_seconds(watcher.pid), time.monotonic()
            time.sleep(args.idle)
            share = (cpu_seconds(watcher.pid) - cpu0) / (time.monotonic() - wall0)
        finally:
            watcher.send_signal(signal.SIGTERM)
            watcher.wait(timeout=60)
    mode = "polling only" if args.no_events else "events + polling"
    print(f"watcher ({mode}), {len(latencies)} hands written one at a time")
    print(f"latency written -> visible to a reader: median {statistics.median(latencies):.3f} s,"
          f" worst {max(latencies):.3f} s")
    verdict = "ok" if share < GOAL_CPU else "over the goal"
    print(f"idle CPU over {args.idle:g} s: {100 * share:.2f}% of a core "
          f"(goal under {100 * GOAL_CPU:g}%: {verdict})")


if __name__ == "__main__":
    main()
