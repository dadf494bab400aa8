"""``drawlab reverify`` rewrites only the hands whose stored rows differ from the replay's
(``analysis.pipeline.reverify_changes``), and the result is what rewriting every hand
gives: rows edited, lost or doubled behind DrawLab's back are found and restored, the
other hands are not touched."""

from __future__ import annotations

import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

from analysis.pipeline import reverify as reverify_mod
from analysis.pipeline import reverify_changes
from analysis.pipeline.reverify import reverify
from analysis.storage import db as dbmod
from tests.analysis.pipeline.test_reverify import _imported, _snapshot


def _ids(con: duckdb.DuckDBPyConnection, sql: str) -> list[int]:
    return [int(r[0]) for r in con.execute(sql).fetchall()]


def _tamper(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    """Hands whose stored rows are altered, each in another way; by what was done."""
    ids = _ids(con, "SELECT id FROM hands WHERE status = 'ok' AND errors = 0 ORDER BY id")
    with_problems = _ids(con, "SELECT DISTINCT hand FROM problems ORDER BY hand")
    with_pots = _ids(con, "SELECT hand FROM pots WHERE idx = 0 ORDER BY hand")
    done = {
        "stack": ids[2],
        "action lost": ids[5],
        "pot doubled": next(h for h in with_pots if h > ids[8]),
        "fact": ids[11],
        "hand column": ids[14],
        "problems lost": with_problems[0],
        "problem added": ids[17],
        "seats lost": ids[-1],
    }
    first_seat = "(SELECT min(seat) FROM seats WHERE hand = $1)"
    last_step = "(SELECT max(idx) FROM actions WHERE hand = $1)"
    con.execute(f"UPDATE seats SET stack = stack + 1 WHERE hand = $1 AND seat = {first_seat}",
                [done["stack"]])  # fmt: skip
    con.execute(f"DELETE FROM actions WHERE hand = $1 AND idx = {last_step}",
                [done["action lost"]])  # fmt: skip
    con.execute("INSERT INTO pots SELECT * FROM pots WHERE hand = ? AND idx = 0",
                [done["pot doubled"]])  # fmt: skip
    con.execute("UPDATE player_hands SET net = net + 100 WHERE hand = ?", [done["fact"]])
    con.execute("UPDATE hands SET total_pot = total_pot + 1 WHERE id = ?", [done["hand column"]])
    con.execute("DELETE FROM problems WHERE hand = ?", [done["problems lost"]])
    con.execute("INSERT INTO problems VALUES (?, 'MADE_UP', 'warning', 1, 'not so')",
                [done["problem added"]])  # fmt: skip
    con.execute("DELETE FROM seats WHERE hand = ?", [done["seats lost"]])
    return done


class _Spy:
    """``changed_rows`` as reverify calls it, remembering what it found; ``every``: it
    says every hand of the page changed in every table, which makes reverify rewrite
    them all (the general path: delete, append and update every hand, as before the
    comparison)."""

    def __init__(self, every: bool = False) -> None:
        self.every = every
        self.found: dict[str, set[int]] = {}

    def __call__(
        self,
        db: duckdb.DuckDBPyConnection,
        span: Sequence[int],
        hands: pa.Table,
        children: Mapping[str, pa.Table],
        ids: str = "_page_ids",
    ) -> dict[str, set[int]]:
        if self.every:
            page = {int(i) for i in hands.column("id").to_pylist()}
            got = {table: set(page) for table in ("hands", *children)}
        else:
            got = reverify_changes.changed_rows(db, span, hands, children, ids)
        for table, found in got.items():
            self.found.setdefault(table, set()).update(found)
        return got


@pytest.mark.slow
@pytest.mark.parametrize("workers", [0, 2])
def test_reverify_restores_exactly_the_altered_hands_and_touches_no_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    con = _imported(tmp_path)
    want = _snapshot(con)
    done = _tamper(con)
    assert _snapshot(con) != want
    spy = _Spy()
    monkeypatch.setattr(reverify_mod, "changed_rows", spy)
    monkeypatch.setattr(reverify_mod, "PAGE", 13)  # the altered hands on several pages
    summary = reverify(con, workers=workers)
    assert _snapshot(con) == want
    assert spy.found == {
        "seats": {done["stack"], done["seats lost"]},
        "actions": {done["action lost"]},
        "pots": {done["pot doubled"]},
        "player_hands": {done["fact"]},
        "hands": {done["hand column"]},
        "problems": {done["problems lost"], done["problem added"]},
    }
    assert summary.hands == len(want["hands"])
    assert summary.changed == 2  # the problems lost and the one made up: their verdicts
    statuses = dict(con.execute("SELECT status, count(*) FROM hands GROUP BY status").fetchall())
    assert {s: n for s, n in summary.after.items() if n} == statuses
    assert summary.before == summary.after  # counted by status: the same hands ok as before


@pytest.mark.slow
def test_rewriting_only_the_changed_hands_equals_rewriting_every_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fast path against the general one on the corpus, dealt hands and tampered rows:
    every table equal row for row, and the same summary."""
    con = _imported(tmp_path)
    _tamper(con)
    con.execute("UPDATE hands SET status = 'invalid', reason = 'older' WHERE id % 7 = 0")
    con.close()
    results = []
    for every in (False, True):
        path = tmp_path / f"{every}.duckdb"
        shutil.copy(tmp_path / "r.duckdb", path)
        con = dbmod.connect(str(path))
        monkeypatch.setattr(reverify_mod, "changed_rows", _Spy(every))
        summary = reverify(con, workers=0)
        results.append((_snapshot(con), summary.as_dict() | {"seconds": 0}))
        con.close()
    assert results[0] == results[1]
    assert results[0][1]["changed"] > 2


def test_an_unchanged_database_is_not_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    con = _imported(tmp_path)
    want = _snapshot(con)
    spy = _Spy()
    monkeypatch.setattr(reverify_mod, "changed_rows", spy)
    summary = reverify(con, workers=0)
    assert spy.found == {}
    assert (summary.hands, summary.changed) == (len(want["hands"]), 0)
    assert _snapshot(con) == want


def test_a_row_stored_twice_is_a_change_of_its_hand(tmp_path: Path) -> None:
    """Rows are compared as multisets: a duplicate differs from the single replayed row."""
    con = _imported(tmp_path)
    hand = _ids(con, "SELECT min(hand) FROM seats")[0]
    con.execute("INSERT INTO seats SELECT * FROM seats WHERE hand = ? AND seat = "
                "(SELECT min(seat) FROM seats WHERE hand = ?)", [hand, hand])  # fmt: skip
    page = next(reverify_mod._pages(con, "hands"))
    ids = [h[0] for h in page if h[0] <= hand + 2]
    seats = con.sql(
        "SELECT DISTINCT * FROM seats WHERE hand IN (SELECT unnest(?::BIGINT[]))", params=[ids]
    ).to_arrow_table()
    hands = con.sql(
        "SELECT id, * EXCLUDE (id, batch, key, file, line, text) FROM hands "
        "WHERE id IN (SELECT unnest(?::BIGINT[]))",
        params=[ids],
    ).to_arrow_table()
    con.register("_page_ids", pa.table({"id": pa.array(ids, pa.int64())}))
    found = reverify_changes.changed_rows(con, [min(ids), max(ids)], hands, {"seats": seats})
    assert found == {"seats": {hand}}
