"""How long every statistic takes on a database of a million hands (goal: under 2 s).

Importing a million hands through the parser would measure the importer, not the
statistics, so the database is made directly: the dealer (``engine.sim.dealer``) deals a base
of real, legal hands (6-max 2-7 triple draw, plus 3-handed triple draw, single draw,
A-5 and five-card draw), ``analysis.statistics.facts.hand_facts`` turns them into rows, and DuckDB
copies that base until it holds ``--hands`` hands, each copy with new hand ids, times
shifted by 30 days and opponents renamed (``name#copy``, 40 name sets) while the hero keeps
its name, so the hero has a million hands and there are thousands of opponents.

Run: ``python -m benchmarks.bench_stats [--hands 1000000] [--base 10000] [--db FILE]``.
Prints the build time, the table size, then the best of ``--repeat`` runs for all
statistics of all players (one grouped pass) and for everything the report shows for one
player (the hero), each against the 2 s goal.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from itertools import chain
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.statistics.fact_row import FACT_COLUMNS
from analysis.statistics.facts import hand_facts
from analysis.statistics.figures import hero_name, player_report, summary
from analysis.storage.db import connect
from engine.record import Game, Hand
from engine.sim.dealer import deal_hands

GOAL = 2.0


def base_hands(n: int) -> Iterator[Hand]:
    start = datetime(2024, 1, 1, 18, 0)
    parts = [
        (Game.TRIPLE_DRAW_27, 6, 0.6), (Game.TRIPLE_DRAW_27, 3, 0.1),
        (Game.SINGLE_DRAW_27, 4, 0.1), (Game.TRIPLE_DRAW_A5, 5, 0.1),
        (Game.FIVE_CARD_DRAW, 6, 0.1),
    ]
    return chain.from_iterable(
        deal_hands(max(1, int(n * share)), game, players, seed=i, start=start)
        for i, (game, players, share) in enumerate(parts)
    )


def build(path: str, hands: int, base: int) -> tuple[int, int]:
    con = connect(path)
    rows: list[tuple[Any, ...]] = []
    dealt = list(base_hands(base))
    t = time.perf_counter()
    for count, hand in enumerate(dealt, 1):
        rows.extend((count, *r.as_tuple()) for r in hand_facts(hand))
    spent = time.perf_counter() - t
    count = len(dealt)
    print(f"hand_facts: {count:,} hands in {spent:.2f} s, "
          f"{1e6 * spent / count:.0f} us a hand ({count / spent:,.0f} hands/s, one core)")
    df = pd.DataFrame(rows, columns=["hand", *FACT_COLUMNS])
    con.register("base_df", df)
    con.execute("CREATE TEMP TABLE base AS SELECT * FROM base_df")
    copies = -(-hands // count)
    cols = [c for c in ["hand", *FACT_COLUMNS] if c not in ("hand", "player", "hand_id", "time")]
    con.execute(
        f"""
        INSERT INTO player_hands BY NAME
        SELECT hand + k * {count} AS hand,
               CASE WHEN is_hero THEN player ELSE player || '#' || (k % 40) END AS player,
               hand_id || '-' || k AS hand_id,
               time + k * INTERVAL 30 DAY AS time,
               {", ".join(cols)}
        FROM base, range({copies}) AS r(k)
        WHERE hand + k * {count} <= {hands}
        """
    )
    got = con.execute("SELECT count(DISTINCT hand), count(*) FROM player_hands").fetchone()
    con.execute("CHECKPOINT")
    con.close()
    assert got is not None
    return int(got[0]), int(got[1])


def best_of(repeat: int, fn: Callable[[], Any]) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--base", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--db", help="keep the database in this file, or reuse it if it exists "
                    "(default: a temp file)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.db or str(Path(tmp) / "bench.duckdb")
        t = time.perf_counter()
        if args.db and Path(args.db).exists():  # a database kept from an earlier run
            con = connect(path)
            got = con.execute("SELECT count(DISTINCT hand), count(*) FROM player_hands").fetchone()
            con.close()
            hands, rows = (int(got[0]), int(got[1])) if got else (0, 0)
            print(f"reusing {path}: {hands:,} hands, {rows:,} player_hands rows")
        else:
            hands, rows = build(path, args.hands, args.base)
            print(f"built {hands:,} hands, {rows:,} player_hands rows in "
                  f"{time.perf_counter() - t:.1f} s")
        con = connect(path, read_only=False)
        hero = hero_name(con)
        assert hero is not None
        players = con.execute("SELECT count(DISTINCT player) FROM player_hands").fetchone()
        print(f"players: {players[0] if players else 0:,}; hero {hero!r}; "
              f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

        def everyone() -> None:
            summary(con)

        def one() -> None:
            player_report(con, hero)  # with the curves by hand and by date

        def one_other() -> None:
            player_report(con, "LowballLarry#7")

        for name, fn in (
            ("all statistics, all players (one grouped pass)", everyone),
            ("full report with curves, the hero", one),
            ("full report, one opponent", one_other),
            ("hero lookup", lambda: hero_name(con)),
        ):
            s = best_of(args.repeat, fn)
            verdict = "ok" if s < GOAL else "OVER GOAL"
            print(f"{name:<50} {s:7.3f} s  [{verdict}, goal {GOAL:.0f} s]")
        con.close()


if __name__ == "__main__":
    main()
