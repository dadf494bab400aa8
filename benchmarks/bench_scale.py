"""Issue 19's figures at one size: import, memory, database size, stats, pages, reverify.

    python -m benchmarks.bench_scale [--hands 10000000] [--files 10] [--workers auto]
        [--root /tmp/drawlab-bench] [--kill-after 60] [--only import,stats,dashboard,reverify]
        [--reader-every SECONDS]

The input is ``--files`` PokerStars files holding ``--hands`` simulated hands in all (ten
files of a million hands for the issue's ten million).  Dealing is slow (a few thousand
hands a second), so ``--base`` distinct hands are dealt once (``bench_import.simulated``)
and each file is its base file written again and again, each copy with new hand ids, its
own table names and dates moved on past the copy before: every hand is a new hand at a new
table to the importer, and parsing and replaying cost what they cost for any hand.
Everything is cached under ``--root`` (outside the repository), the database too, so the
steps can be run one at a time (``--only``) on what an earlier run built.

Figures printed, each with the processor time beside the wall clock (the machine may be
shared: CPU seconds do not depend on the other load):

- import: ``drawlab import``'s work in a child process (worker processes included),
  hands/s, CPU seconds per 1,000 hands, peak memory of all its processes (PSS and RSS,
  sampled from ``/proc`` every 0.5 s), database size per 100,000 hands; with
  ``--reader-every``, ``drawlab stats`` run that often meanwhile (``Reader``): how long a
  user looking at the database during the import waits;
- stats: ``drawlab stats --json`` for the hero, the whole command as a user runs it;
- dashboard: every page's data calls (``benchmarks.bench_dashboard``), uncached (a first
  visit) and cached (Streamlit's cache hit);
- reverify: ``drawlab reverify`` killed with SIGKILL after ``--kill-after`` seconds, then
  run again: how far the first run got, that the second went on from there, both times.

``--copies K`` (with ``--only stats,dashboard,reverify``) is the quick way to a database
of ``K`` times ``--hands``: a real import of ``--hands`` hands is copied ``K - 1`` more
times inside DuckDB (``replicate``), each copy with new hand ids, keys, site hand ids,
table names, files and batches and its dates moved on past the copy before, so the copies
are distinct hands at distinct tables, later in time, in import order, and the query
planner sees the distributions of real data (a real import of ten million hands takes
over an hour of the whole machine; ten copies of a million take minutes).  A database so
made is said so in every figure printed and in the JSON (``"made": "copied"``); its
import figures are those of the one import it was copied from.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from datetime import datetime, timedelta
from pathlib import Path

from benchmarks.bench_import import REVERIFY, Sampler, run_import, simulated

ROOT = Path(__file__).resolve().parents[1]
_HEAD = re.compile(
    r"^(PokerStars Hand #)(\d+)(:.*? - )(\d{4}/\d\d/\d\d)( [^\[\n]*\[)(\d{4}/\d\d/\d\d)",
    re.MULTILINE,
)
_TABLE = re.compile(r"^(Table ')([^']*)(')", re.MULTILINE)


def histories(hands: int, files: int, root: Path, base: int = 30_000) -> Path:
    """``files`` files of ``hands // files`` hands each (see the module's text)."""
    per_file = hands // files
    folder = root / f"scale_h{hands}_f{files}_b{base}"
    done = folder.with_name(folder.name + ".complete")
    if done.exists():
        return folder
    source = simulated(min(base, hands), files, root=root)
    folder.mkdir(parents=True, exist_ok=True)
    for path in sorted(source.glob("*.txt")):
        texts = path.read_text(encoding="utf-8").split("\n\n\n")
        texts = [t for t in texts if t.strip()]
        days = _span_days(texts) + 1
        with (folder / path.name).open("w", encoding="utf-8") as out:
            written, copy = 0, 0
            while written < per_file:
                part = texts[: per_file - written]
                out.write(_copy("\n\n\n".join(part), copy, days) + "\n\n\n")
                written += len(part)
                copy += 1
        print(f"  {path.name}: {written:,} hands ({copy} copies of {len(texts):,})", flush=True)
    done.touch()
    return folder


def _span_days(texts: list[str]) -> int:
    dates = [m.group(4) for t in (texts[0], texts[-1]) if (m := _HEAD.search(t))]
    first, last = (datetime.strptime(d, "%Y/%m/%d") for d in (dates[0], dates[-1]))
    return (last - first).days + 1


def _copy(text: str, copy: int, days: int) -> str:
    """A copy of a session: ids shifted, tables renamed, every date moved on."""
    if copy == 0:
        return text
    shift = timedelta(days=copy * days)
    moved: dict[str, str] = {}  # a session has few distinct days

    def day(d: str) -> str:
        out = moved.get(d)
        if out is None:
            out = moved[d] = (datetime.strptime(d, "%Y/%m/%d") + shift).strftime("%Y/%m/%d")
        return out

    def head(m: re.Match[str]) -> str:
        hand_id = int(m.group(2)) + copy * 10**13
        return f"{m.group(1)}{hand_id}{m.group(3)}{day(m.group(4))}{m.group(5)}{day(m.group(6))}"

    text = _HEAD.sub(head, text)
    return _TABLE.sub(lambda m: f"{m.group(1)}{m.group(2)} {copy}{m.group(3)}", text)


COPIED_TABLES = ("seats", "actions", "draws", "shows", "payouts", "problems", "pots",
                 "decisions", "reviewed_hands")


def replicate(source: Path, target: Path, copies: int, memory: str = "4GB") -> int:
    """``target``: the database ``source`` with its hands ``copies`` times (the original
    and ``copies - 1`` copies), each copy a transaction; returns the number of hands.

    Copy ``c`` (1, 2, ...) shifts every id by ``c`` times the largest (``hands.id``,
    ``import_batches.id``), adds ``c * 10**16`` to numeric site hand ids (``~c`` to the
    others) and rebuilds the key from it, renames each table ``"<name> ~c"`` and each file
    ``"<path>~c"``, and moves every time on by ``c`` times the source's span of days.
    The stored values of each row are otherwise the source's, so each copy's statistics
    are the source's statistics exactly.
    """
    import duckdb

    partial = target.with_name(target.name + ".partial")
    for p in (partial, partial.with_name(partial.name + ".wal")):
        p.unlink(missing_ok=True)
    con = duckdb.connect(str(source), read_only=True)
    try:
        row = con.execute(
            "SELECT max(id), date_diff('day', min(time), max(time)) + 1 FROM hands"
        ).fetchone()
        batch_row = con.execute("SELECT coalesce(max(id), 0) FROM import_batches").fetchone()
    finally:
        con.close()
    assert row is not None and batch_row is not None
    top, days, batches = int(row[0]), int(row[1] or 1), int(batch_row[0])
    import shutil

    shutil.copyfile(source, partial)
    con = duckdb.connect(str(partial))
    try:
        con.execute(f"SET memory_limit = '{memory}'")
        con.execute("SET preserve_insertion_order = true")
        con.execute("SET enable_progress_bar = false")
        for c in range(1, copies):
            started = time.monotonic()
            shift = f"{c} * {top}"
            moved = f"time + INTERVAL {c * days} DAY"
            new_id = (f"CASE WHEN regexp_full_match(hand_id, '[0-9]{{1,17}}') "
                      f"THEN (hand_id::HUGEINT + {c * 10**16})::VARCHAR "
                      f"ELSE hand_id || '~{c}' END")
            con.execute("BEGIN TRANSACTION")
            con.execute(
                f"INSERT INTO import_batches SELECT * REPLACE (id + {c * batches} AS id, "
                f"file || '~{c}' AS file) FROM import_batches WHERE id <= {batches} ORDER BY id"
            )
            con.execute(
                f"INSERT INTO files SELECT * REPLACE (path || '~{c}' AS path) FROM files "
                "WHERE NOT contains(path, '~')"
            )
            con.execute(
                f"INSERT INTO hands SELECT * REPLACE (id + {shift} AS id, "
                f"CASE WHEN key = site || ':' || hand_id THEN site || ':' || ({new_id}) "
                f"ELSE key || '~{c}' END AS key, ({new_id}) AS hand_id, "
                f"table_name || ' ~{c}' AS table_name, {moved} AS time, "
                f"file || '~{c}' AS file, batch + {c * batches} AS batch) "
                f"FROM hands WHERE id <= {top}"
            )
            for table in COPIED_TABLES:
                con.execute(
                    f"INSERT INTO {table} SELECT * REPLACE (hand + {shift} AS hand) "
                    f"FROM {table} WHERE hand <= {top}"
                )
            con.execute(
                f"INSERT INTO player_hands SELECT * REPLACE (hand + {shift} AS hand, "
                f"({new_id}) AS hand_id, {moved} AS time) FROM player_hands WHERE hand <= {top}"
            )
            con.execute("COMMIT")
            con.execute("CHECKPOINT")
            print(f"  copy {c}: {time.monotonic() - started:,.0f} s", flush=True)
        final = con.execute("SELECT count(*) FROM hands").fetchone()
        assert final is not None
    finally:
        con.close()
    partial.rename(target)
    return int(final[0])


def _cpu_children() -> float:
    usage = os.times()
    return usage.children_user + usage.children_system


def bench_import(
    db: Path, folder: Path, workers: str, reader_every: float | None = None
) -> dict[str, object]:
    for p in (db, db.with_name(db.name + ".wal")):
        p.unlink(missing_ok=True)
    reader = None if reader_every is None else Reader(db, reader_every)
    if reader is not None:
        reader.start()
    try:
        result, s = run_import(db, folder, workers)
    finally:
        if reader is not None:
            reader.stop.set()
            reader.join()
    seconds = float(result["seconds"])  # type: ignore[arg-type]
    hands = int(result["hands"])  # type: ignore[call-overload]
    cpu = sum(s.cpu.values())
    size = db.stat().st_size
    out = {
        "hands": hands,
        "statuses": result["statuses"],
        "seconds": round(seconds, 1),
        "hands_per_s": round(hands / seconds),
        "cpu_s": round(cpu, 1),
        "cpu_s_per_1000": round(1000 * cpu / hands, 3),
        "main_cpu_s": round(s.cpu.get(s.root, 0.0), 1),
        "peak_pss_mib": round(s.peak_pss / 2**20),
        "peak_rss_mib": round(s.peak_rss / 2**20),
        "main_peak_pss_mib": round(s.peak_main_pss / 2**20),
        "db_mib": round(size / 2**20, 1),
        "db_mib_per_100k": round(size / 2**20 * 100_000 / max(hands, 1), 1),
    }
    if reader is not None:
        out["reader"] = reader.figures()
        releases = sorted(float(x) for x in result.get("releases", []))  # type: ignore[attr-defined]
        between = float(result.get("longest_between_looks", 0.0))  # type: ignore[arg-type]
        mid, top = (releases[len(releases) // 2], releases[-1]) if releases else (0.0, 0.0)
        out["releases"] = {"times": len(releases), "median_s": round(mid, 2),
                           "longest_s": round(top, 2),
                           "longest_between_looks_s": round(between, 2)}
        print(f"the import released the file {len(releases)} times for the reader: from the "
              f"waiting reader found to the file free, median {mid:.2f} s, longest {top:.2f} s; "
              f"longest stretch between two looks for a waiting reader {between:.2f} s",
              flush=True)
    print(
        f"import: {hands:,} hands in {seconds:,.0f} s = {hands / seconds:,.0f} hands/s; "
        f"CPU {cpu:,.0f} s ({1000 * cpu / hands:.2f} s per 1,000 hands; main process "
        f"{out['main_cpu_s']} s); peak memory of all processes PSS {out['peak_pss_mib']} MiB "
        f"(RSS {out['peak_rss_mib']} MiB); database {out['db_mib']} MiB = "
        f"{out['db_mib_per_100k']} MiB per 100,000 hands",
        flush=True,
    )
    return out


class Reader(threading.Thread):
    """``drawlab stats --json`` every ``every`` seconds while the import runs, as a user
    looking at the database meanwhile would: how long each run took (the wait for the
    import to release the file included) and whether it failed.  The dashboard's pages open the
    file the same way (``analysis.storage.db.connect`` with a wait)."""

    def __init__(self, db: Path, every: float) -> None:
        super().__init__(daemon=True)
        self.db, self.every = db, every
        self.stop = threading.Event()
        self.runs: list[tuple[float, float, bool]] = []  # (since start, seconds, ok)

    def run(self) -> None:
        start = time.monotonic()
        while not self.stop.wait(self.every):
            if not self.db.exists():
                continue
            began = time.monotonic()
            done = drawlab_stats(self.db)
            took = time.monotonic() - began
            self.runs.append((began - start, took, done.returncode == 0))
            print(f"  reader at {began - start:,.0f} s: drawlab stats {took:.2f} s"
                  f"{'' if done.returncode == 0 else ' FAILED: ' + done.stderr[-200:]}",
                  flush=True)

    def figures(self) -> dict[str, object]:
        took = sorted(t for _, t, _ in self.runs)
        failed = sum(1 for _, _, ok in self.runs if not ok)
        figures: dict[str, object] = {"runs": len(took), "failed": failed}
        if took:
            figures |= {"median_s": round(took[len(took) // 2], 2), "max_s": round(took[-1], 2)}
        print(f"reader during the import: {len(took)} runs of drawlab stats, {failed} failed"
              + (f", median {took[len(took) // 2]:.2f} s, longest {took[-1]:.2f} s"
                 if took else ""), flush=True)
        return figures


def drawlab_stats(db: Path) -> subprocess.CompletedProcess[str]:
    """``drawlab stats --json`` for the hero, the whole command as a user runs it."""
    drawlab = Path(sys.executable).with_name("drawlab")
    return subprocess.run(
        [str(drawlab), "stats", "--db", str(db), "--json"],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )


def bench_stats(db: Path) -> dict[str, object]:
    runs = []
    for _ in range(3):
        before = _cpu_children()
        start = time.perf_counter()
        done = drawlab_stats(db)
        runs.append((time.perf_counter() - start, _cpu_children() - before))
        if done.returncode != 0:
            raise SystemExit(f"drawlab stats failed: {done.stderr}")
    best = min(runs)
    print(f"drawlab stats: {best[0]:.2f} s wall ({best[1]:.2f} s CPU), first run "
          f"{runs[0][0]:.2f} s", flush=True)
    return {"seconds": round(best[0], 2), "cpu_s": round(best[1], 2),
            "first_seconds": round(runs[0][0], 2)}


def bench_pages(db: Path) -> dict[str, dict[str, float]]:
    from benchmarks.bench_dashboard import bench

    return bench(db, 3, cached=True)


def _killed_run(
    db: Path, workers: str, seconds: float
) -> tuple[float, float, bool, int, float]:
    """``drawlab reverify``'s work in a child, killed with SIGKILL (it and its workers)
    after ``seconds``: (wall seconds, CPU seconds of all its processes, killed, the last
    hand id its committed pages reached, CPU seconds of its main process)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", REVERIFY, str(db), workers],
        stdout=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    sampler = Sampler(proc.pid)
    sampler.start()
    start = time.monotonic()
    try:
        proc.wait(timeout=seconds)
        killed = False
    except subprocess.TimeoutExpired:
        for pid in reversed(_tree_now(proc.pid)):  # the run and its workers, as kill -9 would
            os.kill(pid, signal.SIGKILL)
        proc.wait()
        killed = True
    took = time.monotonic() - start
    sampler.stop.set()
    sampler.join()
    main = sampler.cpu.get(sampler.root, 0.0)
    return took, sum(sampler.cpu.values()), killed, _progress(db), main


def _progress(db: Path) -> int:
    """The last hand id reverify's committed pages reached (0: none, or it finished)."""
    from analysis.storage import db as dbmod

    con = dbmod.connect(db)
    row = con.execute("SELECT value FROM meta WHERE name = 'reverify_progress'").fetchone()
    con.close()
    return int(json.loads(row[0])["after"]) if row else 0


def bench_reverify(
    db: Path, workers: str, kill_after: float, again_for: float | None = None
) -> dict[str, object]:
    """Reverify killed after ``kill_after`` seconds, then run again: to the end, or
    (``again_for``) killed again after that long, to show it went on where it stopped
    at a size whose whole run takes hours."""
    from analysis.storage import db as dbmod

    con = dbmod.connect(db)
    total_row = con.execute("SELECT count(*), max(id) FROM hands").fetchone()
    con.close()
    assert total_row is not None
    total = int(total_row[0])
    start_mark = _progress(db)  # a run of this code stopped earlier goes on from here
    first, first_cpu, killed, after, _ = _killed_run(db, workers, kill_after)
    print(f"reverify: killed after {first:,.0f} s ({first_cpu:,.0f} s CPU) with hands up to "
          f"id {after:,} of {total:,} replayed and committed (from id {start_mark:,})"
          if killed else
          f"reverify: finished in {first:,.0f} s before the kill", flush=True)
    out: dict[str, object] = {"killed_after_s": round(first, 1),
                              "first_cpu_s": round(first_cpu, 1), "started_after": start_mark,
                              "done_before_kill": after, "total_hands": total}
    if again_for is not None:
        took, cpu, killed2, after2, main = _killed_run(db, workers, again_for)
        went = after2 - after
        print(f"reverify again: killed after {took:,.0f} s ({cpu:,.0f} s CPU); it went on from "
              f"id {after:,} to id {after2:,} ({went:,} hands: {went / took:,.0f} hands/s, "
              f"{1000 * cpu / max(went, 1):.2f} CPU s per 1,000 hands; main process "
              f"{1e6 * main / max(went, 1):,.0f} us a hand); the first run "
              f"{(after - start_mark) / first:,.0f} hands/s", flush=True)
        out.update({"again_s": round(took, 1), "again_cpu_s": round(cpu, 1),
                    "again_reached": after2, "again_killed": killed2,
                    "hands_per_s_first": round((after - start_mark) / first),
                    "hands_per_s_again": round(went / took),
                    "cpu_s_per_1000_again": round(1000 * cpu / max(went, 1), 3),
                    "main_us_per_hand_again": round(1e6 * main / max(went, 1))})
        return out
    result, s = run_child_reverify(db, workers)
    took = float(result["seconds"])  # type: ignore[arg-type]
    n = int(result["hands"])  # type: ignore[call-overload]
    resumed = int(result.get("resumed", 0))  # type: ignore[call-overload]
    cpu = sum(s.cpu.values())
    main = s.cpu.get(s.root, 0.0)
    changed = int(result.get("changed", 0))  # type: ignore[call-overload]
    print(f"reverify again: went on after {resumed:,} hands, replayed {n:,} in {took:,.0f} s "
          f"({changed:,} verdicts changed) "
          f"({cpu:,.0f} s CPU, main process {1e6 * main / max(n, 1):,.0f} us a hand; "
          f"peak PSS {s.peak_pss / 2**20:,.0f} MiB); whole run "
          f"{first + took:,.0f} s, CPU {first_cpu + cpu:,.0f} s = "
          f"{1000 * (first_cpu + cpu) / total:.2f} s per 1,000 hands", flush=True)
    out.update({"resumed": resumed, "hands_again": n, "changed_again": changed,
                "again_s": round(took, 1),
                "again_cpu_s": round(cpu, 1), "peak_pss_mib": round(s.peak_pss / 2**20),
                "main_us_per_hand_again": round(1e6 * main / max(n, 1))})
    return out


def run_child_reverify(db: Path, workers: str) -> tuple[dict[str, object], Sampler]:
    from benchmarks.bench_import import run_child

    code = REVERIFY.replace('"changed": s.changed', '"changed": s.changed, "resumed": s.resumed')
    return run_child(code, str(db), workers)


def _tree_now(root: int) -> list[int]:
    from benchmarks.bench_import import _tree

    return _tree(root)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--hands", type=int, default=10_000_000)
    ap.add_argument("--files", type=int, default=10)
    ap.add_argument("--base", type=int, default=30_000, help="distinct hands dealt")
    ap.add_argument("--workers", default="auto")
    ap.add_argument("--root", type=Path, default=Path("/tmp/drawlab-bench"))
    ap.add_argument("--kill-after", type=float, default=60.0)
    ap.add_argument("--again-for", type=float, default=None,
                    help="kill the resumed reverify too, after this many seconds")
    ap.add_argument("--only", default="import,stats,dashboard,reverify")
    ap.add_argument("--reader-every", type=float, default=None,
                    help="run drawlab stats every so many seconds during the import")
    ap.add_argument("--copies", type=int, default=1,
                    help="time a database of COPIES x HANDS made by copying the import")
    args = ap.parse_args(argv)
    steps = set(args.only.split(","))
    args.root.mkdir(parents=True, exist_ok=True)
    if args.copies > 1:
        return _copied(args, steps)
    start = time.monotonic()
    folder = histories(args.hands, args.files, args.root, args.base)
    size = sum(f.stat().st_size for f in folder.glob("*.txt"))
    print(f"input: {args.hands:,} hands in {args.files} files, {size / 2**20:,.0f} MiB "
          f"({time.monotonic() - start:,.0f} s to make, cached in {folder})", flush=True)
    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, load average {load[0]:.1f} at the start", flush=True)
    db = args.root / f"scale_h{args.hands}.duckdb"
    if "import" not in steps and db.exists():
        cells_current(db)  # a database an older DrawLab imported
    report: dict[str, object] = {"hands": args.hands, "files": args.files,
                                 "load_at_start": round(load[0], 1),
                                 "when": datetime.now().isoformat(timespec="seconds")}
    if "import" in steps:
        report["import"] = bench_import(db, folder, args.workers, args.reader_every)
    return _measure(report, db, steps, args, args.root / f"scale_h{args.hands}.json")


def _measure(report: dict[str, object], db: Path, steps: set[str], args: argparse.Namespace,
             out: Path, label: str = "") -> int:
    """The steps after the import, the same on an imported or a copied database, and the
    figures written beside it."""
    if "stats" in steps:
        report["stats"] = bench_stats(db)
    if "dashboard" in steps:
        report["dashboard"] = bench_pages(db)
    if "reverify" in steps:
        report["reverify"] = bench_reverify(db, args.workers, args.kill_after, args.again_for)
    report["load_at_end"] = round(os.getloadavg()[0], 1)
    out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"figures written to {out}{label}")
    return 0


def cells_current(path: Path) -> None:
    """The summed cells brought up to date, as an import leaves them (the copies are made
    behind their back; another DrawLab may sum them otherwise): timed, as the one-off
    cost of a database an older DrawLab filled."""
    from analysis.storage import db as dbmod
    from analysis.storage import summaries

    con = dbmod.connect(path)
    try:
        for summary in summaries.SUMMARIES:
            if summary.current(con):
                continue
            start, cpu = time.monotonic(), time.process_time()
            summary.extend(con)
            summary.compact(con)
            print(f"{' and '.join(summary.tables)} brought up to date: "
                  f"{time.monotonic() - start:,.1f} s "
                  f"({time.process_time() - cpu:,.1f} s CPU)", flush=True)
    finally:
        con.close()


def _copied(args: argparse.Namespace, steps: set[str]) -> int:
    """The steps on a database of ``copies`` x ``hands`` made by ``replicate``."""
    if "import" in steps:
        raise SystemExit("--copies times a copied database: leave 'import' out of --only")
    source = args.root / f"scale_h{args.hands}.duckdb"
    if not source.exists():
        raise SystemExit(f"no {source}: run --hands {args.hands} --only import first")
    total = args.hands * args.copies
    db = args.root / f"scale_h{total}_copied.duckdb"
    label = (f"COPIED: {args.copies} copies of a real import of {args.hands:,} hands "
             f"({source.name}), not an import of {total:,} hands")
    if not db.exists():
        start, cpu = time.monotonic(), time.process_time()
        got = replicate(source, db, args.copies)
        print(f"built {db.name}: {got:,} hands in {time.monotonic() - start:,.0f} s "
              f"({time.process_time() - cpu:,.0f} s CPU); {label}", flush=True)
    cells_current(db)
    load = os.getloadavg()
    print(f"database: {db} ({db.stat().st_size / 2**30:,.2f} GiB); {label}", flush=True)
    print(f"machine: {os.cpu_count()} cores, load average {load[0]:.1f} at the start", flush=True)
    report: dict[str, object] = {"hands": total, "made": "copied", "copies": args.copies,
                                 "copied_from": source.name, "label": label,
                                 "db_mib": round(db.stat().st_size / 2**20, 1),
                                 "load_at_start": round(load[0], 1),
                                 "when": datetime.now().isoformat(timespec="seconds")}
    return _measure(report, db, steps, args, args.root / f"scale_h{total}_copied.json",
                    f" ({label})")


if __name__ == "__main__":
    raise SystemExit(main())
