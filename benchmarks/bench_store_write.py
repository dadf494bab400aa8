"""How to put rows into DuckDB: Arrow tables vs pandas frames vs executemany.

    python -m benchmarks.bench_store_write [--rows 200000]

Appends the same ``actions``-shaped rows (ten columns, the widest of the child tables by
row count) to a fresh table three ways and prints rows per second and CPU seconds; the
importer uses the first.
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--rows", type=int, default=200_000)
    args = ap.parse_args(argv)
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
