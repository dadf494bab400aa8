"""The registry of derived tables: every one is listed, and its loops (extend, compact,
invalidate, rebuild_all) keep them all current, a delete of hands included."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.storage import db, summaries
from analysis.storage.player_facts import FACTS
from tests.app_support import copy_db, corpus_db_file_fixture  # noqa: F401  (fixture)
from tests.summary_support import spy_rebuilds


@pytest.fixture(name="con")
def con_fixture(corpus_db_file: Path, tmp_path: Path) -> db.Connection:
    con = db.connect(copy_db(corpus_db_file, tmp_path))
    assert summaries.current(con)  # the import left every derived table current
    return con


def _sum(con: db.Connection, sql: str) -> int:
    row = db.one(con, sql)
    assert row is not None
    return int(row[0])


def test_the_registry_lists_every_derived_table_once() -> None:
    tables = [t for derived in summaries.REGISTRY for t in derived.tables]
    assert tables == [
        "player_hands",
        "stat_cells",
        "draw_cells",
        "draw_month_cells",
        "session_cells",
        "curve_cells",
        "hand_cells",
    ]
    assert summaries.REGISTRY[0] is FACTS  # the facts first: the summaries sum them
    assert [s.name for s in summaries.SUMMARIES] == ["stat_cells", "timeline_cells", "hand_cells"]


def test_invalidated_summaries_are_not_current_until_extended(con: db.Connection) -> None:
    summaries.invalidate(con)
    assert [s.current(con) for s in summaries.SUMMARIES] == [False, False, False]
    assert FACTS.current(con)  # the facts are the rows: a writer invalidates the sums only
    assert not summaries.current(con)
    rows = _sum(con, "SELECT count(*) FROM player_hands")
    assert summaries.extend(con) == rows  # no mark: every row summed anew
    assert summaries.current(con)
    assert summaries.extend(con) == 0 and summaries.compact(con) == 0


def test_rebuild_all_after_a_delete_sums_only_the_hands_left(
    con: db.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a delete of hands does: the hands and their facts go in one transaction that
    invalidates the summaries, then ``rebuild_all`` sums the rest (the facts, current,
    are not parsed again)."""
    gone = "SELECT id FROM hands ORDER BY id LIMIT 25"
    con.execute("BEGIN TRANSACTION")
    con.execute(f"DELETE FROM player_hands WHERE hand IN ({gone})")
    con.execute(f"DELETE FROM hands WHERE id IN ({gone})")
    summaries.invalidate(con)
    con.execute("COMMIT")
    rebuilt = spy_rebuilds(monkeypatch)
    refilled: list[int] = []
    monkeypatch.setattr(type(FACTS), "rebuild", lambda self, c: refilled.append(1))
    summaries.rebuild_all(con)
    assert rebuilt == ["stat_cells", "timeline_cells", "hand_cells"] and refilled == []
    assert summaries.current(con)
    rows = _sum(con, "SELECT count(*) FROM player_hands")
    assert _sum(con, "SELECT sum(hands) FROM stat_cells") == rows
    assert _sum(con, "SELECT sum(hands) FROM curve_cells") == rows
    assert _sum(con, "SELECT sum(hands) FROM hand_cells") == _sum(con, "SELECT count(*) FROM hands")


def test_stale_facts_are_refilled_first_by_rebuild_all(con: db.Connection) -> None:
    rows = _sum(con, "SELECT count(*) FROM player_hands")
    db.set_facts_stale(con, True)
    con.execute("DELETE FROM player_hands")
    assert not FACTS.current(con) and not summaries.current(con)
    summaries.rebuild_all(con)
    assert FACTS.current(con) and summaries.current(con)
    assert _sum(con, "SELECT count(*) FROM player_hands") == rows
    assert _sum(con, "SELECT sum(hands) FROM stat_cells") == rows
