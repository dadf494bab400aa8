"""Draw review speed: hero hands reviewed per second, and the time for 100,000 of them.

Run: ``python -m benchmarks.bench_review [HANDS] [WORKERS]``.  Deals ``HANDS`` (default
2,000; 10,000 shows the projection holds) six-handed 2-7 triple draw hands with a hero,
imports them into a new database and times ``analysis.review.run_review`` on them in
``WORKERS`` processes (default 2).  Goal (issue 17): 100,000 hero hands in under 10
minutes on 2 cores.

What is projected, and how the fixed costs are kept out of the multiplication:

- In process: the processor time of reviewing the first quarter of the hands (500 at
  most), after the ranges are built (as a worker builds them once) and the cache emptied:
  milliseconds a draw, and 100,000 hands on 2 cores at that rate.  The range building is
  printed beside it, once.
- With workers: each task reports its worker's processor and wall clocks
  (``analysis.review.WorkerTimes``).  A worker's time before its first task (the process's
  start, its imports, the ranges built) is a fixed cost of the run; the processor time
  from its first task's start to its last task's end, summed over the workers and divided
  by the draws, is the processor time a draw all in (the pages' decisions unpickled, the
  review, the answers pickled).  The wall projection is ``fixed + (wall - fixed) *
  100,000 / HANDS``, ``fixed`` the wall time from the run's start until the last worker
  began its first task; the processor projection is the workers' and the main process's
  processor time a hand (reading and storing the pages) times 100,000, over the cores, plus
  the same ``fixed``.  The import of the benchmark's hands is outside every figure.

``BEFORE_*`` are this benchmark's figures with the code before this session's pass at the
speed (commit 71a94e5), measured back to back with the code after it on the same hands, on
this machine shared by five engineers at load average 18 to 20 on 2 cores (which inflates
every figure, the wall time most: only the processor times compare).
"""

from __future__ import annotations

import io
import sys
import tempfile
import time
from pathlib import Path

from analysis import review
from analysis.pipeline.importer import import_bytes
from analysis.simulate import simulate
from analysis.storage import db
from engine.ranking import Ranking
from engine.record import Game
from engine.sim.review import prepare

GOAL_SECONDS = 600.0
GOAL_HANDS = 100_000
IN_PROCESS_MAX = 500  # hands reviewed in process, at most
CORES = 2
BEFORE_MS = 13.46  # processor time a draw, in process, with commit 71a94e5, same hands
BEFORE_WORKER_MS = 11.46  # processor time a draw in the workers' run, all in
BEFORE_MINUTES = 12.2  # 100,000 hands projected from that run's processor time
BEFORE_MISTAKES = 356  # and what that run found: mistakes, big bets lost per 100 hands
BEFORE_LOSS = 8.60


def main(hands: int = 2_000, workers: int = 2) -> None:
    out = io.StringIO()
    simulate(out, hands, Game.TRIPLE_DRAW_27, 6, 17)
    with tempfile.TemporaryDirectory() as folder:
        con = db.connect(Path(folder) / "bench.duckdb")
        try:
            import_bytes(con, "bench.txt", out.getvalue().encode(), workers=0)
            some = review.pending_hands(con, "Hero")[: min(max(1, hands // 4), IN_PROCESS_MAX)]
            decisions = review.read_decisions(con, some)
            build = time.process_time()
            prepare(Ranking.DEUCE_SEVEN)
            build = time.process_time() - build
            review.compute(decisions[:5])
            cache = review.worker_cache()
            cache.entries.clear()
            cache.hits = cache.misses = 0
            cpu = time.process_time()
            review.compute(decisions)
            cpu = time.process_time() - cpu
            minutes = GOAL_HANDS * cpu / len(some) / CORES / 60
            print(f"in process: {len(some)} hands, {len(decisions)} draws in {cpu:.1f} s of "
                  f"processor time: {1000 * cpu / len(decisions):.2f} ms a draw (before, "
                  f"commit 71a94e5: {BEFORE_MS:.2f}); 100,000 hands on {CORES} cores: "
                  f"{minutes:.1f} minutes; ranges built once a process in {build:.1f} s; "
                  f"cache {cache.hits} hits, {cache.misses} misses")  # fmt: skip
            times = review.WorkerTimes()
            wall_start = time.time()
            start = time.perf_counter()
            main_cpu = time.process_time()
            draws = review.run_review(con, "Hero", workers=workers, times=times)
            seconds = time.perf_counter() - start
            main_cpu = time.process_time() - main_cpu
            s = review.summary(con, "Hero")
        finally:
            con.close()
    scale = GOAL_HANDS / s.hands
    if times.first:
        fixed = max(0.0, times.last_start - wall_start)
        work = times.working_cpu
        per_draw = f"{1000 * work / draws:.2f} ms"
        cpu_minutes = (fixed + (work + main_cpu) * scale / min(workers, CORES)) / 60
    else:  # in one process (too few hands for workers): everything is the main's
        fixed, work, per_draw = 0.0, main_cpu, f"{1000 * main_cpu / draws:.2f} ms"
        cpu_minutes = main_cpu * scale / 60
    projected = (fixed + (seconds - fixed) * scale) / 60
    print(f"{s.hands:,} hero hands, {draws:,} draws reviewed in {seconds:.1f} s with {workers} "
          f"workers ({draws / s.hands:.2f} draws a hand), of which {fixed:.1f} s before the "
          f"last worker's first task (its start and ranges: {times.fixed_cpu:.1f} s of "
          f"processor time over the workers); the workers' processor time {work:.1f} s: "
          f"{per_draw} a draw all in (before: {BEFORE_WORKER_MS:.2f} ms); the main process "
          f"(reading and storing the pages) {main_cpu:.1f} s")  # fmt: skip
    print(f"100,000 hands: {projected:.1f} minutes projected from the wall time, "
          f"{cpu_minutes:.1f} from the processor time on {min(workers, CORES)} cores (goal "
          f"under {GOAL_SECONDS / 60:.0f}; before: {BEFORE_MINUTES:.1f} from the processor "
          f"time); {s.mistakes} "
          f"mistakes, {s.loss_per_100:.2f} big bets lost per 100 hands (before: "
          f"{BEFORE_MISTAKES}, {BEFORE_LOSS:.2f})")  # fmt: skip


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
