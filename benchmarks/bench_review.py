"""Draw review speed: hero hands reviewed per second, and the time for 100,000 of them.

Run: ``python -m benchmarks.bench_review [HANDS] [WORKERS]``.  Deals ``HANDS`` (default
2,000) six-handed 2-7 triple draw hands with a hero, imports them into a new database and
times ``analysis.review.run_review`` on them in ``WORKERS`` processes (default 2).  Goal
(issue 17): 100,000 hero hands in under 10 minutes on 2 cores; measured on fewer hands and
extrapolated linearly (the cache by situation only helps more on more hands, so the
extrapolation is pessimistic).  On a shared machine the wall time says little, so the
processor time of an in-process review of a quarter of the hands is measured too (after
the ranges are built, as a worker builds them once), and projected for 2 cores; the cache's
hits on those hands are printed beside it.

``BEFORE_*`` are this benchmark's figures with the code before this session's pass at the
speed (commit ba890ed: a statement a hand to store a page, the replays of run-out stubs
from the first draw, player after player, the exact last draw's table of sets of three),
measured back to back with the code after it on the same hands, on this machine shared by
five engineers (load average 12 to 17 on 2 cores: both runs are inflated alike, the wall
time most); ``FIRST_*`` the figures before the sequential stop (commit 88a6bad), measured
the same way two sessions earlier (load 12).  The main process's processor time (reading
the pages and storing them) is printed too: it ran beside the two workers on the same two
cores, 13.4 s of it for these 2,000 hands before (a DELETE a hand), 0.7 s after.
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
FIRST_MS = 34.5  # processor time a draw, in-process, before the sequential stop (88a6bad)
FIRST_MINUTES = 59.3  # 100,000 hands on 2 cores, projected from it
BEFORE_MS = 14.6  # processor time a draw, in-process, with commit ba890ed, same hands
BEFORE_MINUTES = 25.1  # 100,000 hands on 2 cores, projected from it
BEFORE_WALL = 103.8  # 100,000 hands projected from the run with 2 workers (wall time)
BEFORE_MISTAKES = 356  # and what that run found: mistakes, big bets lost per 100 hands
BEFORE_LOSS = 8.59


def main(hands: int = 2_000, workers: int = 2) -> None:
    out = io.StringIO()
    simulate(out, hands, Game.TRIPLE_DRAW_27, 6, 17)
    with tempfile.TemporaryDirectory() as folder:
        con = db.connect(Path(folder) / "bench.duckdb")
        try:
            import_bytes(con, "bench.txt", out.getvalue().encode(), workers=0)
            some = review.pending_hands(con, "Hero")[: max(1, hands // 4)]
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
            minutes = GOAL_HANDS * cpu / len(some) / 2 / 60
            print(f"in-process: {len(some)} hands, {len(decisions)} draws in {cpu:.1f} s of "
                  f"processor time: {1000 * cpu / len(decisions):.1f} ms a draw; 100,000 "
                  f"hands on 2 cores: {minutes:.1f} minutes (before, commit ba890ed: "
                  f"{BEFORE_MS:.1f} ms a draw, {BEFORE_MINUTES:.1f} minutes; before the "
                  f"sequential stop: {FIRST_MS:.1f} ms, {FIRST_MINUTES:.1f} minutes)")  # fmt: skip
            print(f"cache: {cache.hits} hits, {cache.misses} misses ({len(cache.entries)} "
                  f"situations); ranges built once a process in {build:.1f} s")  # fmt: skip
            start = time.perf_counter()
            main_cpu = time.process_time()
            draws = review.run_review(con, "Hero", workers=workers)
            seconds = time.perf_counter() - start
            main_cpu = time.process_time() - main_cpu
            s = review.summary(con, "Hero")
        finally:
            con.close()
    rate = s.hands / seconds
    projected = GOAL_HANDS / rate
    print(f"{s.hands:,} hero hands, {draws:,} draws reviewed in {seconds:.1f} s with {workers} "
          f"workers: {rate:,.1f} hands/s, {draws / seconds:,.1f} draws/s; the main process "
          f"(reading and storing the pages) {main_cpu:.1f} s of processor time")  # fmt: skip
    print(f"100,000 hands: {projected / 60:.1f} minutes projected (goal under "
          f"{GOAL_SECONDS / 60:.0f}); {s.mistakes} mistakes, "
          f"{s.loss_per_100:.2f} big bets lost per 100 hands (before, commit ba890ed: "
          f"{BEFORE_WALL:.1f} minutes, {BEFORE_MISTAKES} mistakes, "
          f"{BEFORE_LOSS:.2f} big bets)")  # fmt: skip


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
