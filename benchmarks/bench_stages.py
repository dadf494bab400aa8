"""Where an import's time goes, stage by stage, in one process.

    python -m benchmarks.bench_stages [--hands 20000] [--files 10] [--repeat 1]
        [--folder DIR [--moved K]] [--into DATABASE]

The real importer (``analysis.pipeline.importer.import_paths``, no worker processes) runs on
dealt PokerStars histories with each stage's function wrapped in a timer of processor
time (``time.process_time``: the figure does not depend on what else the machine runs):

- read: what the main process does to read the files: the checksum of each file and
  finding where its parts start (``hand_parts``), with the rest of the main loop
- cut: a worker decoding its part of a file and cutting it into hand texts (the site's
  ``split``; ``importer.read_part`` less the stages below)
- parse: the site's reader, text to hand record
- verify: the replay under the rules (``analysis.pipeline.verification.check``)
- facts: the per-player facts of the statistics
- rows: the hand's rows as tuples (``add_result`` less its facts)
- arrow: a batch's tuples turned into typed Arrow tables (``Rows.to_arrow``)
- transfer: what worker processes add, done here in turn: a part (its file name and
  byte range) pickled and unpickled on its way to a worker, its rows on their way back
- continuity: the stack carry-over check across hands (within a part in the worker,
  across parts in the main process)
- write: numbering the new hands, the key check and appending the rows to DuckDB, each
  transaction's commit (``Store.write``)
- cells: the dashboard's summary tables extended with the new hands and compacted
  (``analysis.storage.summaries``, called every ``CELLS_HANDS`` and at the end)
- checkpoint: DuckDB writing its write-ahead log into the file, once at the end (the
  import's ``CHECKPOINT``: compressing every column written)

Each figure is microseconds of CPU per hand, and its share of the whole.  A few hands
are imported first, untimed, into a throwaway database: what a process pays once (pyarrow
imports pandas on its first conversion, 0.3 s; the grammars are built; DuckDB plans its
first statements) is not a cost per hand, and at 20,000 hands it was a sixth of "arrow".

``--into`` imports into a copy of a database (made beside it) instead of an empty one:
the main process's stages (write, cells, checkpoint) at that database's size.  Its hands
must be new to it, or the key check finds them all and nothing is written: ``--folder
DIR --moved K`` takes the first ``--hands / --files`` hands of each file of ``DIR`` (say
``bench_scale``'s) and moves them on as ``bench_scale``'s copy ``K`` would be (new hand
ids, table names and dates).

The stages are timed in the Python sources even where modules are compiled
(``compiled.py``): a compiled module's functions call each other directly and its
classes take no wrapper, so its stages could not be told apart.  The run then happens in
a copy of the sources, without the compiled files.  ``--compiled`` adds the whole
import's CPU a hand as it runs here, compiled modules and all, beside the same import in
that copy, each in a fresh process.
"""

from __future__ import annotations

import argparse
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.reduction import ForkingPickler
from pathlib import Path
from typing import Any

STAGES = (
    "read", "cut", "parse", "verify", "facts", "rows", "arrow", "transfer", "continuity",
    "write", "cells", "checkpoint",
)  # fmt: skip


class Timers:
    def __init__(self) -> None:
        self.spent = dict.fromkeys(STAGES, 0.0)
        self.inner = 0.0  # time of nested stages, taken off the stage around them

    def wrap(self, stage: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            outer = self.inner
            self.inner = 0.0
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                took = time.process_time() - start
                self.spent[stage] += took - self.inner
                self.inner = outer + took

        return timed


@contextmanager
def instrumented(timers: Timers) -> Iterator[None]:
    """The importer with each stage's function timed (see the module's text)."""
    from analysis.pipeline import importer
    from analysis.storage import rows, summaries
    from analysis.storage import writer as store
    from parser.registry import READERS

    saved: list[tuple[Any, str, Any]] = []

    def patch(owner: Any, name: str, stage: str) -> None:
        original = getattr(owner, name)
        saved.append((owner, name, original))
        setattr(owner, name, timers.wrap(stage, original))

    def round_trip(value: Any) -> Any:  # as concurrent.futures sends it to and fro
        return pickle.loads(ForkingPickler.dumps(value))

    sent = timers.wrap("transfer", round_trip)
    read_part = timers.wrap("cut", importer.read_part)

    def in_a_worker(*args: Any) -> Any:  # as the pool sends and returns them
        return sent(read_part(*sent(args)))

    saved.append((importer, "read_part", importer.read_part))
    setattr(importer, "read_part", in_a_worker)  # noqa: B010 - a typed function swapped
    patch(importer, "check", "verify")
    patch(rows, "fact_rows", "facts")
    patch(importer, "add_result", "rows")
    patch(rows.Rows, "to_arrow", "arrow")
    patch(importer, "with_continuity", "continuity")
    patch(rows.Rows, "follow", "continuity")
    patch(store.Store, "write", "write")
    patch(summaries, "extend", "cells")
    patch(summaries, "compact", "cells")
    for reader in READERS:
        patch(reader, "parse", "parse")
    try:
        yield
    finally:
        for owner, name, original in reversed(saved):
            setattr(owner, name, original)


class TimedCheckpoints:
    """The database connection with its ``CHECKPOINT`` statements timed as a stage."""

    def __init__(self, con: Any, timers: Timers) -> None:
        self.con = con
        self.timers = timers

    def __getattr__(self, name: str) -> Any:
        return getattr(self.con, name)

    def execute(self, sql: str, *args: Any) -> Any:
        if sql.strip().upper() != "CHECKPOINT":
            return self.con.execute(sql, *args)
        return self.timers.wrap("checkpoint", self.con.execute)(sql, *args)


WARM_UP_HANDS = 200


def warm_up(folder: Path, tmp: Path) -> None:
    """Import the first hands of ``folder``, untimed, into a database of their own."""
    from analysis.pipeline.importer import import_paths
    from analysis.storage.db import connect

    first = sorted(folder.glob("*.txt"))[0]
    with first.open(encoding="utf-8") as f:
        head = f.read(WARM_UP_HANDS * 2000).split("\n\n\n")[:-1]
    part = tmp / "warm_up" / first.name
    part.parent.mkdir()
    part.write_text("\n\n\n".join(head) + "\n\n\n", encoding="utf-8")
    con = connect(tmp / "warm_up.duckdb")
    import_paths(con, [part], workers=0)
    con.close()


def measure(folder: Path, into: Path | None = None) -> tuple[dict[str, float], int]:
    """CPU seconds per stage of importing ``folder`` into a new database (or a copy of
    ``into``), and the hands."""
    from analysis.pipeline.importer import import_paths
    from analysis.storage.db import connect

    timers = Timers()
    with tempfile.TemporaryDirectory(dir=None if into is None else into.parent) as tmp:
        warm_up(folder, Path(tmp))
        target = Path(tmp) / "stages.duckdb"
        if into is not None:
            shutil.copyfile(into, target)
        con = connect(target)
        with instrumented(timers):
            start = time.process_time()
            timed: Any = TimedCheckpoints(con, timers)  # a stand-in for the connection
            summary = import_paths(timed, [folder], workers=0)
            total = time.process_time() - start
        con.close()
    spent = dict(timers.spent)
    spent["read"] = total - sum(v for k, v in spent.items() if k != "read")
    return spent, summary.hands


ROOT = Path(__file__).resolve().parents[1]


def whole_import(folder: Path) -> float:
    """CPU seconds a hand of importing ``folder`` in one process, without timers."""
    from analysis.pipeline.importer import import_paths
    from analysis.storage.db import connect

    with tempfile.TemporaryDirectory() as tmp:
        warm_up(folder, Path(tmp))
        con = connect(Path(tmp) / "whole.duckdb")
        start = time.process_time()
        summary = import_paths(con, [folder], workers=0)
        total = time.process_time() - start
        con.close()
    return total / summary.hands


def in_sources(args: list[str], capture: bool = False) -> str:
    """This benchmark run with ``args`` in a copy of the sources without compiled files;
    what it printed when ``capture``."""
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("engine", "parser", "analysis", "ui", "benchmarks"):
            shutil.copytree(ROOT / name, Path(tmp) / name,
                            ignore=shutil.ignore_patterns("*.so", "__pycache__"))  # fmt: skip
        for name in ("app.py", "cli.py", "compiled.py"):
            shutil.copy(ROOT / name, tmp)
        return here(args, capture, cwd=Path(tmp), env={**os.environ, "PYTHONPATH": tmp})


def here(
    args: list[str], capture: bool = True, cwd: Path = ROOT, env: dict[str, str] | None = None
) -> str:
    """This benchmark run with ``args`` in a fresh process."""
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_stages", *args],
        cwd=cwd, env=env, check=True, text=True, capture_output=capture,
    )  # fmt: skip
    return run.stdout if capture else ""


def compare(folder: Path, repeat: int) -> None:
    """The whole import as it runs and in the sources (``--compiled``), the lowest of
    ``repeat`` runs each, alternated."""
    got: dict[str, list[float]] = {"sources": [], "compiled": []}
    for _ in range(max(repeat, 1)):
        got["sources"].append(float(in_sources(["--whole", str(folder)], capture=True)))
        got["compiled"].append(float(here(["--whole", str(folder)])))
    sources, compiled = min(got["sources"]), min(got["compiled"])
    print(f"  whole import, one process: {1e6 * sources:.1f} us/hand in the sources, "
          f"{1e6 * compiled:.1f} as built here ({compiled / sources - 1:+.1%})")


def main(argv: list[str] | None = None) -> int:
    import engine.continuity
    from benchmarks.bench_import import simulated
    from compiled import runs_compiled

    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--files", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=1, help="runs; the lowest total is shown")
    ap.add_argument("--root", type=Path, default=None, help="where dealt histories are cached")
    ap.add_argument("--folder", type=Path, default=None,
                    help="import these histories instead of dealt ones")
    ap.add_argument("--moved", type=int, default=None,
                    help="with --folder: its hands moved on as bench_scale's copy MOVED")
    ap.add_argument("--compiled", action="store_true",
                    help="also the whole import's CPU a hand, as built and in the sources")
    ap.add_argument("--whole", type=Path, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--into", type=Path, default=None,
                    help="import into a copy of this database (the costs at its size)")
    args = ap.parse_args(argv)
    if args.whole is not None:
        print(whole_import(args.whole))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        if args.folder is None:
            folder = simulated(args.hands, args.files, root=args.root)
        elif args.moved is None:
            folder = args.folder
        else:
            folder = moved_on(args.folder, args.hands // args.files, args.moved, Path(tmp))
        if runs_compiled(engine.continuity):  # the stages timed in a copy of the sources
            given = sys.argv[1:] if argv is None else argv
            in_sources([a for a in given if a != "--compiled"])
            code = 0
        else:
            code = report(args, folder)
        if args.compiled:
            compare(folder, args.repeat)
        return code


def moved_on(source: Path, per_file: int, copy: int, out: Path) -> Path:
    """The first ``per_file`` hands of each file of ``source`` as ``bench_scale``'s copy
    ``copy``: hands no database made from ``source`` holds."""
    from benchmarks.bench_scale import _copy, _span_days

    for path in sorted(source.glob("*.txt")):
        with path.open(encoding="utf-8") as f:
            pieces = f.read(per_file * 4000).split("\n\n\n")
        texts = pieces[: min(per_file, len(pieces) - 1)]  # the last piece may be cut
        days = _span_days(texts) + 1
        (out / path.name).write_text(_copy("\n\n\n".join(texts), copy, days) + "\n\n\n",
                                     encoding="utf-8")
    return out


def report(args: argparse.Namespace, folder: Path) -> int:
    best: tuple[dict[str, float], int] | None = None
    for _ in range(args.repeat):
        got = measure(folder, args.into)
        if best is None or sum(got[0].values()) < sum(best[0].values()):
            best = got
    assert best is not None
    spent, hands = best
    total = sum(spent.values())
    into = "" if args.into is None else f", into a copy of {args.into}"
    print(f"{hands:,} hands, one process, CPU time (time.process_time){into}")
    for stage in STAGES:
        us = 1e6 * spent[stage] / hands
        print(f"  {stage:<11} {us:8.1f} us/hand  {100 * spent[stage] / total:5.1f}%")
    print(
        f"  {'total':<11} {1e6 * total / hands:8.1f} us/hand  = "
        f"{hands / total:,.0f} hands/s per core"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
