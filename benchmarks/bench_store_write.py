"""How to put rows into DuckDB: Arrow tables vs pandas frames vs executemany, and how
to store the hand texts.

    python -m benchmarks.bench_store_write [--rows 200000] [--texts 100000] [--root DIR]

Appends the same ``actions``-shaped rows (ten columns, the widest of the child tables by
row count) to a fresh table three ways and prints rows per second and CPU seconds; the
importer uses the first.

With ``--texts N``: the texts of N dealt PokerStars hands (``bench_import.simulated``)
appended in transactions of 10,000 to a table laid out as ``hands`` is in schema
version 6 (an index on the key, the text compressed as DuckDB chooses) and as in
version 7 (no index, the text in zstd), then checkpointed: CPU of the appends and of
the checkpoint, and MiB a 100,000 hands.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import duckdb
import pandas as pd
import pyarrow as pa

from analysis.storage.rows import CHILD_COLUMNS, CHILD_TYPES

COLUMNS = CHILD_COLUMNS["actions"]
TYPES = CHILD_TYPES["actions"]
DDL = (
    "CREATE TABLE actions (hand BIGINT, idx INTEGER, street INTEGER, player VARCHAR, "
    "kind VARCHAR, amount BIGINT, to_amount BIGINT, all_in BOOLEAN, dead BIGINT, line INTEGER)"
)


def _rows(n: int) -> list[tuple[object, ...]]:
    rnd = random.Random(1)
    kinds = ["fold", "check", "call", "bet", "raise", "post_small_blind"]
    return [
        (i // 15, i % 15, i % 4, f"player{rnd.randrange(50)}", rnd.choice(kinds),
         rnd.randrange(1000), None, False, 0, i % 40)
        for i in range(n)
    ]  # fmt: skip


def _arrow(con: duckdb.DuckDBPyConnection, rows: list[tuple[object, ...]]) -> None:
    cols = list(zip(*rows, strict=True))
    table = pa.Table.from_arrays(
        [pa.array(c, type=t) for c, t in zip(cols, TYPES, strict=True)], names=list(COLUMNS)
    )
    con.register("_rows", table)
    con.execute("INSERT INTO actions SELECT * FROM _rows")
    con.unregister("_rows")


def _pandas(con: duckdb.DuckDBPyConnection, rows: list[tuple[object, ...]]) -> None:
    frame = pd.DataFrame.from_records(rows, columns=list(COLUMNS))
    con.register("_rows", frame)
    con.execute("INSERT INTO actions SELECT * FROM _rows")
    con.unregister("_rows")


def _executemany(con: duckdb.DuckDBPyConnection, rows: list[tuple[object, ...]]) -> None:
    con.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)


TEXT_LAYOUTS = (
    ("v6: key index, text auto",
     "id BIGINT PRIMARY KEY, key VARCHAR NOT NULL UNIQUE, text VARCHAR NOT NULL"),
    ("v7: no index, text zstd",
     "id BIGINT NOT NULL, key VARCHAR NOT NULL, "
     "text VARCHAR NOT NULL USING COMPRESSION zstd"),
)  # fmt: skip


def _texts(hands: int, root: Path | None) -> pa.Table:
    from benchmarks.bench_import import simulated

    folder = simulated(hands, 10, root=root)
    texts = [
        t for f in sorted(folder.glob("*.txt"))
        for t in f.read_text(encoding="utf-8").split("\n\n\n") if t.strip()
    ][:hands]  # fmt: skip
    keys = [f"pokerstars:{t.split('#', 1)[1].split(':', 1)[0]}" for t in texts]
    return pa.table({"id": pa.array(range(1, len(texts) + 1), pa.int64()),
                     "key": pa.array(keys), "text": pa.array(texts)})  # fmt: skip


def compare_texts(hands: int, root: Path | None) -> None:
    table = _texts(hands, root)
    n = table.num_rows
    with tempfile.TemporaryDirectory() as tmp:
        for name, columns in TEXT_LAYOUTS:
            path = Path(tmp) / "texts.duckdb"
            con = duckdb.connect(str(path))
            con.execute("SET threads = 1")
            con.execute("SET checkpoint_threshold = '10GB'")  # one checkpoint, timed
            con.execute(f"CREATE TABLE hands ({columns})")
            cpu = time.process_time()
            for start in range(0, n, 10_000):
                con.execute("BEGIN TRANSACTION")
                con.register("_rows", table.slice(start, 10_000))
                con.execute("INSERT INTO hands SELECT * FROM _rows")
                con.unregister("_rows")
                con.execute("COMMIT")
            appended = time.process_time() - cpu
            cpu = time.process_time()
            con.execute("CHECKPOINT")
            checkpoint = time.process_time() - cpu
            con.close()
            mib = path.stat().st_size / 2**20 * 100_000 / n
            print(
                f"{name:26s} {n:>7,} texts  append {1e6 * appended / n:6.2f} cpu-us/hand  "
                f"checkpoint {1e6 * checkpoint / n:6.2f} cpu-us/hand  {mib:6.1f} MiB/100k"
            )
            path.unlink()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--texts", type=int, default=0, help="hand texts to store both ways")
    ap.add_argument("--root", type=Path, default=None, help="where dealt histories are cached")
    args = ap.parse_args(argv)
    if args.texts:
        compare_texts(args.texts, args.root)
        return 0
    ways: list[
        tuple[str, Callable[[duckdb.DuckDBPyConnection, list[tuple[object, ...]]], None], int]
    ]
    ways = [("arrow", _arrow, args.rows), ("pandas", _pandas, args.rows),
            ("executemany", _executemany, min(args.rows, 5_000))]  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        for name, insert, n in ways:
            rows = _rows(n)
            con = duckdb.connect(str(Path(tmp) / f"{name}.duckdb"))
            con.execute(DDL)
            wall, cpu = time.perf_counter(), time.process_time()
            con.execute("BEGIN TRANSACTION")
            for start in range(0, n, 20_000):
                insert(con, rows[start : start + 20_000])
            con.execute("COMMIT")
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            count = con.execute("SELECT count(*) FROM actions").fetchall()[0][0]
            assert count == n
            con.close()
            print(
                f"{name:12s} {n:>9,} rows  {n / wall:>12,.0f} rows/s  "
                f"{1e6 * cpu / n:8.2f} cpu-us/row"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
