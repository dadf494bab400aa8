"""What letting go of the database between transactions costs a one-off import.

    python -m benchmarks.bench_import_lock [--hands 40000] [--files 4] [--rounds 2]
        [--workers N] [--reader]

``drawlab import`` (``analysis.pipeline.importer.import_files``) commits at most every
``FLUSH_SECONDS`` or ``FLUSH_HANDS`` hands, closes the file (DuckDB checkpoints its log into it),
leaves it free ``RELEASE`` seconds and opens it again, so that the dashboard and
``drawlab stats`` get in during a long import.  This runs the same import of simulated
hands (``benchmarks.bench_import.simulated``) holding the file all along
(``import_paths`` on one connection, as before) and letting it go, in alternation, each in a
child process, and prints the wall time and the CPU seconds of the import's processes
(the main one and its workers) per 1,000 hands: on a shared machine the CPU figure is the
one to compare.  With ``--reader`` another process runs ``drawlab stats --json``
meanwhile: how many runs failed, the longest one, and one run alone after the import
(what the longest would be without waiting) are printed.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.bench_import import run_child, simulated

CHILD = """
import json, sys, time
from analysis.storage.db import connect
from analysis.pipeline.importer import import_files, import_paths
workers = None if sys.argv[4] == "auto" else int(sys.argv[4])
start = time.monotonic()
if sys.argv[3] == "held":
    db = connect(sys.argv[1])
    s = import_paths(db, [sys.argv[2]], workers=workers)
    db.close()
else:
    s = import_files(sys.argv[1], [sys.argv[2]], workers=workers)
print(json.dumps({"seconds": time.monotonic() - start, "added": s.added}))
"""


def _timed_stats(db: Path) -> float:
    """Seconds one ``drawlab stats --json`` took, -1 when it failed."""
    drawlab = str(Path(sys.executable).parent / "drawlab")
    start = time.monotonic()
    out = subprocess.run([drawlab, "stats", "--db", str(db), "--json", "--all-players"],
                         capture_output=True, text=True)  # fmt: skip
    return time.monotonic() - start if out.returncode == 0 else -1.0


def _reader(db: Path, stop: threading.Event, waits: list[float]) -> None:
    while not stop.is_set():
        if db.exists():
            waits.append(_timed_stats(db))
        stop.wait(0.2)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--hands", type=int, default=40_000)
    ap.add_argument("--files", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--workers", default="auto")
    ap.add_argument("--reader", action="store_true")
    args = ap.parse_args(argv)
    folder = simulated(args.hands, args.files)
    scratch = Path(tempfile.mkdtemp(prefix="drawlab_lock_"))
    try:
        figures: dict[str, list[tuple[float, float]]] = {"held": [], "released": []}
        for r in range(args.rounds):
            for mode in ("held", "released"):
                db = scratch / f"{mode}{r}.duckdb"
                stop = threading.Event()
                waits: list[float] = []
                reader = threading.Thread(target=_reader, args=(db, stop, waits), daemon=True)
                if args.reader:
                    reader.start()
                result, sampler = run_child(CHILD, str(db), str(folder), mode, args.workers)
                stop.set()
                if args.reader:
                    reader.join()
                cpu = sum(sampler.cpu.values())
                added = int(str(result["added"]))
                seconds = float(str(result["seconds"]))
                figures[mode].append((seconds, cpu))
                extra = ""
                if args.reader:
                    failed = sum(1 for w in waits if w < 0)
                    longest = max((w for w in waits if w >= 0), default=0.0)
                    alone = _timed_stats(db)  # one run with nothing else going on
                    extra = (f"; reader: {len(waits)} runs, {failed} failed, longest "
                             f"{longest:.2f} s (alone, after the import: {alone:.2f} s)")
                print(f"{mode:8} round {r}: {added} hands, {seconds:6.1f} s wall, "
                      f"{1000 * cpu / max(added, 1):.3f} CPU s / 1,000 hands{extra}",
                      flush=True)  # fmt: skip
        for mode, rows in figures.items():
            wall = sum(w for w, _ in rows) / len(rows)
            cpu = sum(c for _, c in rows) / len(rows)
            print(f"{mode:8} mean: {wall:6.1f} s wall, {cpu:6.1f} CPU s")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
