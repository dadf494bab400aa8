"""The key check of a long import: bounded by its batch, and never wrong about a key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import numpy as np

from analysis.pipeline.importer import import_paths
from analysis.storage import db as dbmod
from analysis.storage.writer import KeyIndex, Store
from tests.store_data import stars_history, write_history


class CountingConnection:
    """A connection that counts the lookups of keys in a stored table and the keys
    each lookup was given (the rows of ``_import_keys``)."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con
        self.lookups: list[int] = []
        self.registered = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.con, name)

    def register(self, name: str, table: Any) -> Any:
        if name == "_import_keys":
            self.registered = table.num_rows
        return self.con.register(name, table)

    def execute(self, sql: str, *args: Any) -> Any:
        if "WHERE key IN (SELECT key FROM _import_keys)" in sql:
            self.lookups.append(self.registered)
        return self.con.execute(sql, *args)


def test_key_index_holds_what_it_was_built_and_given() -> None:
    index = KeyIndex(np.array([30, 10, 20], dtype=np.uint64))
    wanted = np.array([10, 15, 30, 40, 0], dtype=np.uint64)
    assert index.may_hold(wanted).tolist() == [True, False, True, False, False]
    index.add(np.array([40], dtype=np.uint64))
    assert index.may_hold(wanted).tolist() == [True, False, True, True, False]
    assert KeyIndex(np.zeros(0, dtype=np.uint64)).may_hold(wanted).tolist() == [False] * 5


def test_key_index_merges_what_was_added_without_losing_any() -> None:
    index = KeyIndex(np.array([5], dtype=np.uint64))
    index.MERGE = 4
    for start in range(0, 12, 3):
        index.add(np.arange(100 + start, 103 + start, dtype=np.uint64))
    assert len(index.sorted) == 1 + 12 - len(index.recent)
    assert index.may_hold(np.arange(99, 114, dtype=np.uint64)).tolist() == (
        [False] + [True] * 12 + [False, False]
    )


def test_key_index_stays_sorted_when_what_is_added_interleaves() -> None:
    rng = np.random.default_rng(3)
    first = rng.integers(0, 2**63, 50, dtype=np.uint64)
    index = KeyIndex(first)
    index.MERGE = 16
    added = [rng.integers(0, 2**63, 7, dtype=np.uint64) for _ in range(8)]  # unsorted each
    for hashes in added:
        index.add(hashes)
    held = np.concatenate([index.sorted, index.recent])
    assert (len(index.sorted), len(index.recent)) == (50 + 42, 14)  # merged at 21 and 21
    assert np.all(index.sorted[:-1] <= index.sorted[1:])
    assert np.all(index.recent[:-1] <= index.recent[1:])
    assert sorted(held.tolist()) == sorted(np.concatenate([first, *added]).tolist())
    assert index.may_hold(np.concatenate([first, *added])).all()


def test_after_the_first_check_only_keys_seen_before_are_looked_up(tmp_path: Path) -> None:
    con = dbmod.connect(tmp_path / "k.duckdb")
    counting = CountingConnection(con)
    store = Store(counting, run="test")  # type: ignore[arg-type]
    con.execute(
        "INSERT INTO hands (id, key, site, status, errors, warnings, text) "
        "SELECT i, 'pokerstars:' || i, 'pokerstars', 'ok', 0, 0, '' FROM range(1, 1001) t(i)"
    )
    first = store._new_rows("hands", ["pokerstars:5", "pokerstars:5000"])
    assert first.tolist() == [False, True]
    assert counting.lookups == [2]  # the first check: one join over the stored keys
    second = store._new_rows(
        "hands", ["pokerstars:6000", "pokerstars:7", "pokerstars:6001", "pokerstars:6000"]
    )
    assert second.tolist() == [True, False, True, False]  # stored, and repeated in the batch
    assert counting.lookups == [2, 1]  # only the stored key was looked up
    third = store._new_rows("hands", [f"pokerstars:{i}" for i in range(8000, 8500)])
    assert third.all()
    assert counting.lookups == [2, 1]  # nothing stored: the table is not read at all
    # the keys found new are in the index from then on, but the table has the last word:
    # these were never written, so they are looked up and still new
    fourth = store._new_rows("hands", ["pokerstars:6001", "pokerstars:8499", "pokerstars:9"])
    assert fourth.tolist() == [True, True, False]
    assert counting.lookups == [2, 1, 3]


def test_a_long_import_finds_stored_and_repeated_hands_as_a_short_one(tmp_path: Path) -> None:
    """Transactions of 7 hands: every check after the first goes through the index."""
    write_history(tmp_path / "a.txt", 40)
    # b holds a's hands 30..39 twice over, then new ones
    (tmp_path / "b.txt").write_text(
        stars_history(10, first_id=900_000_000_030)
        + stars_history(10, first_id=900_000_000_030)
        + stars_history(25, first_id=900_000_000_100),
        encoding="utf-8",
    )
    results = []
    for name, batch in (("short.duckdb", 10_000), ("long.duckdb", 7)):
        con = dbmod.connect(tmp_path / name)
        a = import_paths(con, [tmp_path / "a.txt"], workers=0, batch_hands=batch)
        b = import_paths(con, [tmp_path / "b.txt"], workers=0, batch_hands=batch)
        keys = con.execute("SELECT id, key FROM hands ORDER BY id").fetchall()
        results.append(((a.added, a.already_present), (b.added, b.already_present), keys))
        con.close()
    assert results[0] == results[1]
    assert results[1][:2] == ((40, 0), (25, 20))
    assert len(results[1][2]) == 65
    # no index holds keys or ids unique (schema version 7): the store's numbering and key
    # check alone do
    assert len({k for _, k in results[1][2]}) == len({i for i, _ in results[1][2]}) == 65
