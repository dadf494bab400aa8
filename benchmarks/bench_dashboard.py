"""Time each dashboard page's data on databases of 100,000 and 1,000,000 hands.

    python -m benchmarks.bench_dashboard [--sizes 100000 1000000] [--dir DIR] [--repeat 3]

How the big databases are made: the bundled ``sample_histories`` (3,368 dealt hands of
every game) are imported once with the real importer; that database is then copied and
its rows duplicated in bulk, inside DuckDB, until it holds the wanted number of hands.
Every copy gets new hand ids and keys and is moved on by one day, so the hands, seats,
actions, draws, shows, payouts and ``player_hands`` rows stay consistent and the date
filters and time-ordered charts see a long history.  Duplicating is minutes faster than
dealing and parsing a million hands, and the page queries do not care that the
hands repeat: they scan and aggregate the same number of rows either way.

What is timed is exactly what the pages call: the functions of ``ui.data`` with their
Streamlit cache bypassed (``__wrapped__``), i.e. the cost of a first visit after an
import.  Each figure is the best of ``--repeat`` runs, the first (cold) run beside it.
Goal: each page under one second at 100,000 hands.
"""

from __future__ import annotations

import argparse
import logging
import math
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import duckdb

from analysis.pipeline.importer import import_paths
from analysis.storage import db
from analysis.storage.filters import NO_FILTERS, Filters

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_histories"
CHILD_TABLES = ("seats", "actions", "draws", "shows", "payouts", "problems")


def build_base(target: Path) -> int:
    con = db.connect(target)
    try:
        summary = import_paths(con, [SAMPLES])
    finally:
        con.close()
    return summary.added


def replicate(base: Path, target: Path, hands: int) -> int:
    """Copy ``base`` to ``target`` and duplicate its hands until at least ``hands``."""
    shutil.copyfile(base, target)
    con = duckdb.connect(str(target))
    try:
        row = con.execute("SELECT count(*), max(id) FROM hands").fetchone()
        assert row is not None
        count, top = int(row[0]), int(row[1])
        copies = max(0, math.ceil(hands / count) - 1)
        if copies == 0:
            return count
        series = f"range(1, {copies + 1}) r(c)"
        con.execute("BEGIN TRANSACTION")
        con.execute(
            f"INSERT INTO hands SELECT t.* REPLACE (id + c * {top} AS id, "
            "key || '~' || c AS key, hand_id || '~' || c AS hand_id, "
            "time + c * INTERVAL 1 DAY AS time) "
            f"FROM hands t, {series} WHERE id <= {top}"
        )
        for table in CHILD_TABLES:
            con.execute(
                f"INSERT INTO {table} SELECT t.* REPLACE (hand + c * {top} AS hand) "
                f"FROM {table} t, {series} WHERE hand <= {top}"
            )
        con.execute(
            "INSERT INTO player_hands SELECT t.* REPLACE (hand + c * "
            f"{top} AS hand, hand_id || '~' || c AS hand_id, "
            "time + c * INTERVAL 1 DAY AS time) "
            f"FROM player_hands t, {series} WHERE hand <= {top}"
        )
        con.execute("COMMIT")
        con.execute("CHECKPOINT")
        final = con.execute("SELECT count(*) FROM hands").fetchone()
        assert final is not None
        return int(final[0])
    finally:
        con.close()


def _time(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    return _time_cpu(fn, repeat)[:2]


def _time_cpu(fn: Callable[[], Any], repeat: int) -> tuple[float, float, float]:
    """(first run, best run) by the wall clock, and the processor time of the best run:
    all of this process's threads (DuckDB's too), which other load does not inflate much
    when the wall clock is shared."""
    runs = []
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        fn()
        runs.append((time.perf_counter() - start, time.process_time() - cpu))
    best = min(runs)
    return runs[0][0], best[0], best[1]


def page_calls(
    con: db.Connection, path: str, cached: bool = False
) -> dict[str, list[tuple[str, Callable[[], Any]]]]:
    """Each page's data calls, in the order the page makes them: uncached (the function
    under Streamlit's cache), or ``cached`` (through the cache, which a first call fills)."""
    from ui import data  # streamlit's caches, bypassed through __wrapped__

    raw: Any = data
    gen = 0
    hero = raw.hero_name.__wrapped__(con, path, gen, NO_FILTERS) or "Hero"
    latest = raw.latest_hands.__wrapped__(con, path, gen, Filters())
    hand_id = int(latest["id"].iloc[0])

    def call(name: str, *args: Any, module: Any = raw) -> tuple[str, Callable[[], Any]]:
        fn = getattr(module, name)
        fn = fn if cached else fn.__wrapped__
        return name, lambda: fn(con, path, gen, *args)

    kinds = raw.money_kinds.__wrapped__(con, path, gen, NO_FILTERS)
    money = replace(NO_FILTERS, tournament=bool(kinds["tournament"].iloc[0]),
                    currency=str(kinds["currency"].iloc[0]))  # the page's default
    players = raw.site_players.__wrapped__(con, path, gen, money)
    site, hero = str(players["site"].iloc[0]), str(players["player"].iloc[0])
    mine = replace(money, site=site)
    span = raw.filter_options.__wrapped__(con, path, gen)
    first, last = span.first_day, span.last_day
    narrowed = replace(mine, position="BTN", players_min=3)  # the overview with filters
    if first is not None and last is not None:
        narrowed = replace(narrowed, date_from=first + (last - first) / 4,
                           date_to=last - (last - first) / 4)


    from analysis.storage.queries import pot_units
    from ui import replayer_data

    unit = pot_units(con)[0][0]

    overview = [
        call("filter_options"),
        call("money_kinds", NO_FILTERS),
        call("site_players", money),
        call("results", hero, mine),
        call("curves", hero, mine),  # the curves, the days and the sessions: one fetch
        call("cube", hero, mine),  # shared by the draw tables and the showdown hands
        call("draw_counts", hero, mine),
        call("by_position", hero, mine),
        call("showdown_hands", hero, mine),
        call("player_stats", hero, mine),
        call("by_stakes", hero, mine),
        call("draw_summary", hero, mine),
        call("site_summary", money),
    ]
    filtered = [
        call("results", hero, narrowed),
        call("curves", hero, narrowed),
        call("cube", hero, narrowed),
        call("by_position", hero, narrowed),
        call("player_stats", hero, narrowed),
        call("site_summary", narrowed),
    ]
    opponents = [call("site_summary", money)]
    sessions = [call("curves", hero, mine)]
    imports = [call("replay_suggested")]
    replayer = [
        call("filter_options"),
        call("player_list", NO_FILTERS),
        call("latest_hands", Filters()),
        call("pot_units", Filters(), module=replayer_data),
        call("biggest_pots", Filters(), unit, module=replayer_data),
        call("problem_hands", Filters()),
        call("latest_hands", Filters(player=hero, game="27_triple_draw")),
        call("stored_hand", hand_id),
        call("view_of", hand_id, module=replayer_data),
    ]
    return {"overview": overview, "filtered": filtered, "opponents": opponents,
            "sessions": sessions, "replayer": replayer, "import": imports}


def bench(path: Path, repeat: int, cached: bool = False) -> dict[str, dict[str, float]]:
    """Print and return each page's time: uncached (best of ``repeat``, the first run
    beside it) and, with ``cached``, through Streamlit's cache once it is filled."""
    con = db.connect(path)
    out: dict[str, dict[str, float]] = {}
    try:
        row = con.execute("SELECT count(*) FROM hands").fetchone()
        rows = con.execute("SELECT count(*) FROM player_hands").fetchone()
        assert row is not None and rows is not None
        print(f"\n{int(row[0]):,} hands, {int(rows[0]):,} player rows ({path.name})")
        hits = page_calls(con, str(path), cached=True) if cached else {}
        for page, calls in page_calls(con, str(path)).items():
            total_cold = total_best = total_cpu = 0.0
            for name, fn in calls:
                cold, best, cpu = _time_cpu(fn, repeat)
                total_cold += cold
                total_best += best
                total_cpu += cpu
                print(f"  {page:9} {name:15} {best * 1000:9.1f} ms  (cold {cold * 1000:.1f} ms, "
                      f"CPU {cpu * 1000:.1f} ms)")
            out[page] = {"uncached_ms": round(total_best * 1000, 1),
                         "cold_ms": round(total_cold * 1000, 1),
                         "cpu_ms": round(total_cpu * 1000, 1)}
            line = (f"  {page:9} {'PAGE TOTAL':15} {total_best * 1000:9.1f} ms  "
                    f"(cold {total_cold * 1000:.1f} ms, CPU {total_cpu * 1000:.1f} ms)")
            if cached:
                for _, fn in hits[page]:
                    fn()  # fills the cache
                hit = sum(_time(fn, repeat)[1] for _, fn in hits[page])
                out[page]["cached_ms"] = round(hit * 1000, 2)
                line += f"; cached {hit * 1000:.2f} ms"
            print(line, flush=True)
    finally:
        con.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--dir", type=Path, default=None, help="where the databases go")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--db", type=Path, help="time the pages on this database instead")
    parser.add_argument("--cached", action="store_true", help="also time cached pages")
    args = parser.parse_args()
    if args.db is not None:
        logging.getLogger("streamlit").setLevel(logging.ERROR)
        bench(args.db, args.repeat, args.cached)
        return
    logging.getLogger("streamlit").setLevel(logging.ERROR)
    work = args.dir or Path(tempfile.mkdtemp(prefix="drawlab-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    base = work / "base.duckdb"
    if not base.exists():
        start = time.perf_counter()
        added = build_base(base)
        print(f"base: {added:,} sample hands imported in {time.perf_counter() - start:.1f} s")
    for size in args.sizes:
        target = work / f"hands_{size}.duckdb"
        if not target.exists():
            start = time.perf_counter()
            partial = target.with_suffix(".partial")
            got = replicate(base, partial, size)
            partial.rename(target)
            print(f"built {got:,} hands in {time.perf_counter() - start:.1f} s")
        bench(target, args.repeat, args.cached)


if __name__ == "__main__":
    main()
