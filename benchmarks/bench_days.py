"""Days in a zone other than UTC on a big database: a date filter over the statistics'
rows, over the hands, and the days the overview offers.

    python -m benchmarks.bench_days --db FILE [--written 0.1] [--repeat 5]

``FILE`` is a database that ``bench_dashboard`` or ``bench_scale`` built (a million hands:
``bench_dashboard --sizes 1000000``); it is copied, never written.  ``--written`` marks
that share of the copy's hands as written without a zone (``hands.time_utc`` false), the
case where the flag decides a hand's day: histories of a site that names no zone.  Each
figure is the best of ``--repeat`` runs, wall clock and this process's CPU time, for the
hero's money and site as the overview opens, over June to September in New York and in
UTC.  Run it under main's code and a branch's in the same session to compare them.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import date
from pathlib import Path

from analysis.statistics import figures
from analysis.statistics.offers import offers
from analysis.storage import db
from analysis.storage.filters import Filters

FIRST, LAST = date(2026, 6, 1), date(2026, 9, 30)


def _copy(source: Path, written: float) -> Path:
    """A copy of ``source`` with ``written`` of its hands (every n-th id) written
    without a zone."""
    target = Path(tempfile.mkdtemp(prefix="drawlab-days-")) / "days.duckdb"
    shutil.copyfile(source, target)
    con = db.connect(target)
    try:
        if written > 0:
            con.execute("UPDATE hands SET time_utc = (id % ? <> 0)", [round(1 / written)])
        con.execute("CHECKPOINT")
    finally:
        con.close()
    return target


def _best(fn: Callable[[], object], repeat: int) -> tuple[float, float, object]:
    """The best run's wall and CPU seconds, and what it returned."""
    runs = []
    out: object = None
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        out = fn()
        runs.append((time.perf_counter() - start, time.process_time() - cpu))
    wall, cpu_s = min(runs)
    return wall, cpu_s, out


def _calls(con: db.Connection, hero: str,
           money: Filters) -> dict[str, Callable[[], object]]:
    """What is timed: the results over the rows, a count over the hands, the days
    offered; ``money`` carries the zone."""
    dated = replace(money, date_from=FIRST, date_to=LAST)
    where, params = dated.where_hands()

    def results() -> object:
        return figures.results(con, hero, dated).hands

    def hands() -> object:
        return con.execute(f"SELECT count(*) FROM hands h WHERE {where}", params).fetchone()

    def days() -> object:
        offered = offers(con, hero, money)
        return offered.first_day, offered.last_day

    return {"results (player_hands)": results, "hands (hands)": hands, "days offered": days}


def bench(path: Path, repeat: int) -> None:
    con = db.connect(path, read_only=True)
    try:
        kinds = figures.money_kinds(con, Filters())
        hero = figures.hero_name(con, Filters()) or "Hero"
        money = Filters(tournament=bool(kinds["tournament"].iloc[0]),
                        currency=str(kinds["currency"].iloc[0]))
        for zone in (None, "America/New_York"):
            for name, fn in _calls(con, hero, replace(money, zone=zone)).items():
                wall, cpu, out = _best(fn, repeat)
                print(f"  {zone or 'UTC':17} {name:24} {wall * 1000:8.1f} ms  "
                      f"CPU {cpu * 1000:8.1f} ms  -> {out}", flush=True)
    finally:
        con.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--db", type=Path, required=True, help="the database to copy")
    parser.add_argument("--written", type=float, default=0.0,
                        help="share of hands written without a zone (0 to 1)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    copy = _copy(args.db, args.written)
    try:
        print(f"{args.db.name}, {args.written:.0%} written without a zone")
        bench(copy, args.repeat)
    finally:
        shutil.rmtree(copy.parent)


if __name__ == "__main__":
    main()
