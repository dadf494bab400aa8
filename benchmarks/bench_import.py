"""End-to-end import speed: parse, verify, compute facts and store, with worker processes.

    python -m benchmarks.bench_import [--hands 100000] [--files 20] [--workers N] [--reimport]
        [--reverify]

Simulated histories come from ``engine.sim.dealer`` written as PokerStars text (one table
session per file, cached under ``$TMPDIR/drawlab_bench``).  The import runs in a child
process, through ``drawlab import``'s own entry (``import_files``, which lets a waiting
reader in); a sampler reads ``/proc`` for that process and all its descendants (the worker
processes) to find the peak memory (sum of PSS, so pages shared after a fork count once;
RSS is printed too) and the CPU seconds spent.  Figures printed: hands/s by the wall
clock, CPU seconds per 1,000 hands (the machine may be shared: that figure does not
depend on other load), peak memory, and database size per 100,000 hands.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

GOAL_RATE = 4000
CHILD = """
import json, sys, time
from analysis.pipeline.importer import import_files
start = time.monotonic()
workers = None if sys.argv[3] == "auto" else int(sys.argv[3])
s = import_files(sys.argv[1], [sys.argv[2]], workers=workers)
seconds = time.monotonic() - start
print(json.dumps({"seconds": seconds, "added": s.added, "hands": s.hands,
                  "already_present": s.already_present, "statuses": s.statuses,
                  "rejected": len(s.rejected), "releases": s.releases,
                  "longest_between_looks": s.longest_between_looks}))
"""
REVERIFY = """
import json, sys, time
from analysis.storage.db import connect
from analysis.pipeline.reverify import reverify
db = connect(sys.argv[1])
start = time.monotonic()
workers = None if sys.argv[2] == "auto" else int(sys.argv[2])
s = reverify(db, workers=workers)
seconds = time.monotonic() - start
db.close()
print(json.dumps({"seconds": seconds, "hands": s.hands, "changed": s.changed}))
"""


def simulated(hands: int, files: int, seed: int = 7, root: Path | None = None) -> Path:
    """A folder of ``files`` PokerStars files holding ``hands`` dealt hands in all (under
    ``root``, by default ``$TMPDIR/drawlab_bench``: made once, kept outside the repo)."""
    from engine.record import Game
    from engine.sim.dealer import deal_hands
    from parser.pokerstars_writer import write_pokerstars

    base = root if root is not None else Path(tempfile.gettempdir()) / "drawlab_bench"
    folder = base / f"h{hands}_f{files}_s{seed}"
    done = folder.with_name(folder.name + ".complete")  # beside it: not an input file
    if done.exists():
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    per_file = -(-hands // files)
    games = [Game.TRIPLE_DRAW_27, Game.TRIPLE_DRAW_27, Game.SINGLE_DRAW_27, Game.TRIPLE_DRAW_A5]
    left = hands
    for i in range(files):
        n = min(per_file, left)
        left -= n
        game = games[i % len(games)]
        dealt = deal_hands(
            n, game, 2 + i % 5, seed + i, first_hand_id=300_000_000_000 + i * 10_000_000
        )
        with (folder / f"session_{i:03d}.txt").open("w", encoding="utf-8") as f:
            for hand in dealt:
                f.write(write_pokerstars(hand).rstrip("\n") + "\n\n\n")
    done.touch()
    return folder


def copied(folder: Path, copies: int) -> Path:
    """``copies`` copies of a simulated folder, hand ids shifted so every hand is new."""
    if copies <= 1:
        return folder
    out = folder.with_name(f"{folder.name}_x{copies}")
    done = out.with_name(out.name + ".complete")
    if done.exists():
        return out
    out.mkdir(parents=True, exist_ok=True)
    head = re.compile(r"^(PokerStars Hand #)(\d+)", re.MULTILINE)
    for c in range(copies):
        shift = c * 10**13

        def renumber(m: re.Match[str], shift: int = shift) -> str:
            return f"{m.group(1)}{int(m.group(2)) + shift}"

        for f in sorted(folder.glob("*.txt")):
            text = head.sub(renumber, f.read_text(encoding="utf-8"))
            (out / f"copy{c:02d}_{f.name}").write_text(text, encoding="utf-8")
    done.touch()
    return out


def _tree(root: int) -> list[int]:
    pids = [root]
    i = 0
    while i < len(pids):
        try:
            children = Path(f"/proc/{pids[i]}/task/{pids[i]}/children").read_text().split()
        except OSError:
            children = []
        pids += [int(c) for c in children]
        i += 1
    return pids


def _memory(pid: int) -> tuple[int, int]:
    """(PSS, RSS) in bytes."""
    pss = rss = 0
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                pss = int(line.split()[1]) * 1024
            elif line.startswith("Rss:"):
                rss = int(line.split()[1]) * 1024
    except OSError:
        pass
    return pss, rss


def _cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return -1.0
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime


class Sampler(threading.Thread):
    """Peak memory and CPU of a process and its descendants, read from ``/proc``.

    Every ``EVERY`` seconds: reading ``smaps_rollup`` walks the page tables of each
    process, which the kernel charges to this one; at 0.1 s it took 12 % of a core
    during a long import (58 s in 8 minutes, a sixteenth of the machine taken from what
    is measured), at 0.5 s a fifth of that.  Memory moves over seconds (a checkpoint, a
    transaction): a peak that lasts less than half a second can be missed."""

    EVERY = 0.5

    def __init__(self, root: int) -> None:
        super().__init__(daemon=True)
        self.root = root
        self.peak_pss = 0
        self.peak_rss = 0
        self.peak_main_pss = 0
        self.cpu: dict[int, float] = {}
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            pss = rss = 0
            for pid in _tree(self.root):
                p, r = _memory(pid)
                pss += p
                rss += r
                if pid == self.root:
                    self.peak_main_pss = max(self.peak_main_pss, p)
                c = _cpu(pid)
                if c >= 0:
                    self.cpu[pid] = max(self.cpu.get(pid, 0.0), c)
            self.peak_pss = max(self.peak_pss, pss)
            self.peak_rss = max(self.peak_rss, rss)
            self.stop.wait(self.EVERY)


def run_import(db: Path, folder: Path, workers: str) -> tuple[dict[str, object], Sampler]:
    return run_child(CHILD, str(db), str(folder), workers)


def run_child(code: str, *args: str, tree: Path | None = None) -> tuple[dict[str, object], Sampler]:
    """Run ``code`` in a child process, sampling its memory and CPU; its last line's JSON.
    ``tree``: the code tree the child imports (another checkout, to compare two DrawLabs
    on one input); this one by default."""
    import json

    root = tree or Path(__file__).resolve().parents[1]
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdout=subprocess.PIPE,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    sampler = Sampler(proc.pid)
    sampler.start()
    out, _ = proc.communicate()
    sampler.stop.set()
    sampler.join()
    if proc.returncode != 0:
        raise SystemExit(f"the benchmark's child failed with exit code {proc.returncode}")
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return result, sampler


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--files", type=int, default=20)
    ap.add_argument("--workers", default="auto", help="worker processes, or 'auto'")
    ap.add_argument("--copies", type=int, default=1, help="import this many copies (new ids)")
    ap.add_argument("--reimport", action="store_true", help="also time importing again")
    ap.add_argument(
        "--reverify", action="store_true", help="also time replaying every stored hand again"
    )
    args = ap.parse_args(argv)

    t = time.monotonic()
    folder = copied(simulated(args.hands, args.files), args.copies)
    size = sum(f.stat().st_size for f in folder.glob("*.txt"))
    copies = max(args.copies, 1)
    print(
        f"input: {args.hands * copies:,} hands in {args.files * copies} files, "
        f"{size / 1e6:,.1f} MB "
        f"({time.monotonic() - t:,.1f}s to deal and write, cached)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.duckdb"
        result, s = run_import(db, folder, args.workers)
        seconds = float(result["seconds"])  # type: ignore[arg-type]
        hands = int(result["hands"])  # type: ignore[call-overload]
        cpu = sum(s.cpu.values())
        db_bytes = sum(p.stat().st_size for p in Path(tmp).iterdir())
        rate = hands / seconds
        print(
            f"imported: {hands:,} hands, added {result['added']:,}, statuses {result['statuses']}"
        )
        print(f"wall: {seconds:,.1f}s = {rate:,.0f} hands/s (goal {GOAL_RATE:,})")
        print(
            f"cpu: {cpu:,.1f}s in {len(s.cpu)} processes = {1000 * cpu / hands:,.2f} "
            f"cpu-s per 1,000 hands; on 2 free cores at most {2 * hands / cpu:,.0f} hands/s"
        )
        main_cpu = s.cpu.get(s.root, 0.0)
        print(
            f"  of which the importer's main process {main_cpu:,.1f}s, "
            f"worker and helper processes {cpu - main_cpu:,.1f}s"
        )
        print(f"1M hands at this rate: {1_000_000 / rate / 60:,.1f} min")
        print(
            f"peak memory, all processes: PSS {s.peak_pss / 2**20:,.0f} MiB, "
            f"RSS {s.peak_rss / 2**20:,.0f} MiB (goal < 1,536 MiB); "
            f"main process alone at most {s.peak_main_pss / 2**20:,.0f} MiB"
        )
        print(
            f"database: {db_bytes / 2**20:,.1f} MiB = "
            f"{db_bytes / 2**20 * 100_000 / max(hands, 1):,.1f} MiB per 100,000 hands"
        )
        if args.reimport:
            again, _ = run_import(db, folder, args.workers)
            print(
                f"re-import: {float(again['seconds']):,.1f}s, added {again['added']}, "  # type: ignore[arg-type]
                f"already present {again['already_present']:,}"
            )
        if args.reverify:
            again, r = run_child(REVERIFY, str(db), args.workers)
            took = float(again["seconds"])  # type: ignore[arg-type]
            n = int(again["hands"])  # type: ignore[call-overload]
            print(
                f"reverify: {n:,} hands in {took:,.1f}s = {n / took:,.0f} hands/s, "
                f"{again['changed']:,} verdicts changed; peak PSS {r.peak_pss / 2**20:,.0f} MiB"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
