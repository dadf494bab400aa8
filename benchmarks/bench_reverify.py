"""``drawlab reverify``'s cost on a copy of a database, one code tree after another.

    python -m benchmarks.bench_reverify DB [--trees /tmp/old,.] [--alter 1000]
        [--workers auto] [--rounds 1] [--root /tmp/drawlab-reverify-bench]

``DB`` is copied afresh for every run (``bench_scale --only import`` makes one), so each
tree replays the same hands; ``--trees`` runs other checkouts of DrawLab (each its own
``cwd`` and ``PYTHONPATH``) back to back, interleaved over ``--rounds``, so an old and a
new reverify are compared under the same load.  ``--alter N`` first changes a seat's
stack in every ``count / N``-th hand (the rows a replay puts back: the rewrite path);
``--alter -1`` wipes every hand's derived rows (the worst case, everything rewritten).

Printed per run: hands, verdicts changed, wall seconds, CPU seconds of all processes
(sampled from ``/proc``, workers and forkserver included) per 1,000 hands, the main
process's CPU per hand (its own ``time.process_time``), peak PSS and the file's size.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from benchmarks.bench_import import REVERIFY, run_child

_CHILD = REVERIFY.replace(
    "print(json.dumps({", 'print(json.dumps({"main_cpu": time.process_time(), '
)


def alter(db: Path, every: int) -> None:
    """Rows a replay will put back: a stack in every ``every``-th hand, or (-1) all."""
    import duckdb

    con = duckdb.connect(str(db))
    if every < 0:
        for table in ("seats", "actions", "draws", "shows", "payouts", "problems", "pots"):
            con.execute(f"DELETE FROM {table}")
    else:
        con.execute("UPDATE seats SET stack = stack + 1 WHERE hand % ? = 0 AND seat = 1", [every])
    con.close()


def run(tree: Path, source: Path, scratch: Path, workers: str, every: int) -> str:
    db = scratch / f"reverify-{tree.name or 'tree'}.duckdb"
    shutil.copy(source, db)
    if every:
        alter(db, every)
    load = os.getloadavg()[0]
    result, sampler = run_child(_CHILD, str(db), workers, tree=tree)
    got: dict[str, Any] = result
    n = max(int(got["hands"]), 1)
    cpu = sum(sampler.cpu.values())
    size = db.stat().st_size / 2**20
    db.unlink()
    return (
        f"{tree!s:28s} load {load:4.1f}: {n:,} hands, {got['changed']:,} verdicts changed, "
        f"{got['seconds']:,.1f} s; CPU {cpu:,.1f} s = {1000 * cpu / n:.3f} s per 1,000 hands; "
        f"main {1e6 * got['main_cpu'] / n:,.0f} us a hand; peak PSS "
        f"{sampler.peak_pss / 2**20:,.0f} MiB; file {size:,.0f} MiB"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("db", type=Path)
    ap.add_argument("--trees", default=".")
    ap.add_argument("--alter", type=int, default=0, help="hands to alter first (-1: all)")
    ap.add_argument("--workers", default="auto")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--root", type=Path, default=Path("/tmp/drawlab-reverify-bench"))
    args = ap.parse_args(argv)
    args.root.mkdir(parents=True, exist_ok=True)
    every = 0
    if args.alter:
        import duckdb

        con = duckdb.connect(str(args.db), read_only=True)
        found = con.execute("SELECT count(*) FROM hands").fetchone()
        con.close()
        every = -1 if args.alter < 0 else max(1, int(found[0] if found else 0) // args.alter)
    trees = [Path(t).resolve() for t in args.trees.split(",")]
    for _ in range(args.rounds):
        for tree in trees:
            print(run(tree, args.db, args.root, args.workers, every), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
