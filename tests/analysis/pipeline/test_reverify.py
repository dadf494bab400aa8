"""``drawlab reverify``: stored hands replayed again give what a new import gives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest

import cli
from analysis.pipeline import reverify as reverify_mod
from analysis.pipeline.importer import import_paths
from analysis.pipeline.reverify import reverify
from analysis.storage import db as dbmod
from tests.paths import REPOSITORY
from tests.stack_breaks import stacks_changed
from tests.store_data import CORPUS, stars_files, write_history

DERIVED = {
    "hands": "SELECT * EXCLUDE (batch) FROM hands ORDER BY id",
    "seats": "SELECT * FROM seats ORDER BY hand, seat",
    "actions": "SELECT * FROM actions ORDER BY hand, idx",
    "draws": "SELECT * FROM draws ORDER BY hand, idx",
    "shows": "SELECT * FROM shows ORDER BY hand, idx",
    "payouts": "SELECT * FROM payouts ORDER BY hand, idx",
    "problems": "SELECT * FROM problems ORDER BY hand, code, line, message",
    "pots": "SELECT * FROM pots ORDER BY hand, idx",
    "player_hands": "SELECT * FROM player_hands ORDER BY hand, seat",
}


def _snapshot(con: duckdb.DuckDBPyConnection) -> dict[str, list[tuple[Any, ...]]]:
    return {name: con.execute(sql).fetchall() for name, sql in DERIVED.items()}


def _imported(tmp_path: Path) -> duckdb.DuckDBPyConnection:
    con = dbmod.connect(str(tmp_path / "r.duckdb"))
    kings = sorted((CORPUS / "cash" / "KingsClub").rglob("*.txt"))
    import_paths(con, [*stars_files(), *kings, write_history(tmp_path / "s.txt", 60)], workers=0)
    return con


@pytest.mark.slow
@pytest.mark.parametrize("workers", [0, 2])
def test_reverify_rebuilds_every_derived_row_as_the_import_made_it(
    tmp_path: Path, workers: int
) -> None:
    con = _imported(tmp_path)
    want = _snapshot(con)
    assert len(want["hands"]) > 60 and want["pots"] and want["problems"]
    statuses = dict(con.execute("SELECT status, count(*) FROM hands GROUP BY status").fetchall())
    assert statuses["invalid"] >= 1  # the KingsClub corpus holds broken hands
    not_plain = con.execute(
        "SELECT count(*) FROM hands h WHERE status <> 'ok' OR reason IS NOT NULL "
        "OR EXISTS (SELECT 1 FROM problems p WHERE p.hand = h.id)"
    ).fetchone()
    # what an older DrawLab might have said: everything wrong, nothing derived
    con.execute("UPDATE hands SET status = 'ok', reason = NULL, errors = 0, warnings = 0")
    for table in ("seats", "actions", "draws", "shows", "payouts", "problems", "pots"):
        con.execute(f"DELETE FROM {table}")
    con.execute("DELETE FROM player_hands WHERE seat > 2")
    summary = reverify(con, workers=workers)
    assert _snapshot(con) == want
    assert summary.hands == len(want["hands"])
    assert (summary.changed,) == not_plain
    assert summary.before["ok"] == len(want["hands"])
    assert {s: summary.after[s] for s in statuses} == statuses


@pytest.mark.slow
def test_a_text_that_no_longer_parses_becomes_a_parse_error_of_its_own(tmp_path: Path) -> None:
    con = _imported(tmp_path)
    ids = [r[0] for r in con.execute("SELECT id FROM hands ORDER BY id").fetchall()]
    broken = ids[3]
    con.execute("UPDATE hands SET text = 'PokerStars Hand #1: garbage' WHERE id = ?", [broken])
    others = {name: [r for r in rows if r[0] != broken] for name, rows in _snapshot(con).items()}
    summary = reverify(con, workers=0)
    after = _snapshot(con)
    assert {name: [r for r in rows if r[0] != broken] for name, rows in after.items()} == others
    status, errors, reason = con.execute(
        "SELECT status, errors, reason FROM hands WHERE id = ?", [broken]
    ).fetchone() or ("", 0, "")
    assert (status, errors) == ("parse_error", 1) and reason
    assert con.execute("SELECT code FROM problems WHERE hand = ?", [broken]).fetchall() == [
        ("PARSE_ERROR",)
    ]
    for table in ("seats", "actions", "pots", "player_hands"):
        assert con.execute(f"SELECT count(*) FROM {table} WHERE hand = ?", [broken]).fetchone() == (
            0,
        )
    assert summary.changed == 1 and summary.after["parse_error"] == 1


def test_stack_carry_over_is_checked_across_pages_as_on_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    texts = stacks_changed(40, (13, 14, 27), 5)  # at, after and inside pages of 7 hands
    path = tmp_path / "t.txt"
    path.write_text("\n\n\n".join(texts) + "\n", encoding="utf-8")
    con = dbmod.connect(str(tmp_path / "c.duckdb"))
    import_paths(con, [path], workers=0)
    query = "SELECT hand, code FROM problems WHERE code LIKE 'STACK_%' ORDER BY hand, code"
    want = con.execute(query).fetchall()
    assert {hand for hand, _ in want} == {14, 16, 28, 29}  # breaks on both sides of pages
    con.execute("DELETE FROM problems")
    monkeypatch.setattr(reverify_mod, "PAGE", 7)
    reverify(con, workers=0)
    assert con.execute(query).fetchall() == want


def test_cli_reverify_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "cli.duckdb"
    con = dbmod.connect(str(db))
    import_paths(con, [write_history(tmp_path / "a.txt", 12)], workers=0)
    statuses = dict(con.execute("SELECT status, count(*) FROM hands GROUP BY status").fetchall())
    con.execute(
        "UPDATE hands SET status = 'invalid' WHERE id IN (SELECT id FROM hands h "
        "WHERE status = 'ok' AND reason IS NULL AND errors + warnings = 0 ORDER BY id LIMIT 3)"
    )
    con.close()
    assert cli.main(["reverify", "--db", str(db), "--json", "--workers", "0"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["summary"]
    assert summary["hands"] == 12 and summary["changed"] == 3
    assert summary["before"]["invalid"] == statuses.get("invalid", 0) + 3
    assert summary["after"] == {s: statuses.get(s, 0) for s in summary["after"]}
    assert sum(summary["after"].values()) == 12


def test_an_upgraded_database_asks_for_a_replay_until_one_has_run(tmp_path: Path) -> None:
    """Migrating to version 4 (the pots) a database that holds hands sets the flag; a new
    database has nothing to replay; ``reverify`` clears it."""
    from analysis.storage.schema import MIGRATIONS

    path = tmp_path / "old.duckdb"
    con = duckdb.connect(str(path))  # a database DrawLab's schema version 3 made
    con.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied TIMESTAMP)")
    for version in (1, 2, 3):
        for statement in MIGRATIONS[version - 1]:
            con.execute(statement)
        con.execute("INSERT INTO schema_version VALUES (?, current_timestamp)", [version])
    con.close()
    fresh = dbmod.connect(str(tmp_path / "new.duckdb"))
    import_paths(fresh, [write_history(tmp_path / "a.txt", 5)], workers=0)
    assert not dbmod.replay_suggested(fresh)
    pots = fresh.execute("SELECT count(*) FROM pots").fetchone()
    fresh.execute(f"ATTACH '{path}' AS old")
    for table in ("hands", "seats", "actions", "draws", "shows", "payouts", "problems"):
        later = " EXCLUDE (time_utc)" if table == "hands" else ""  # a column of a later version
        fresh.execute(f"INSERT INTO old.{table} SELECT *{later} FROM {table}")
    fresh.execute("DETACH old")
    fresh.close()
    old = dbmod.connect(str(path))
    assert dbmod.replay_suggested(old)
    assert old.execute("SELECT count(*) FROM pots").fetchone() == (0,)
    summary = reverify(old, workers=0)
    assert summary.hands == 5
    assert not dbmod.replay_suggested(old)
    assert old.execute("SELECT count(*) FROM pots").fetchone() == pots != (0,)


@pytest.mark.slow
def test_workers_killed_mid_replay_are_replaced_by_this_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    import signal

    from analysis.pipeline.importer import Progress

    con = _imported(tmp_path)
    want = _snapshot(con)
    con.execute("DELETE FROM pots")
    monkeypatch.setattr(reverify_mod, "PAGE", 1)  # pages still to replay after the kill
    killed: list[int] = []

    def children(pid: int) -> list[int]:
        try:
            return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        except OSError:
            return []

    def kill_workers(p: Progress) -> None:
        if killed:
            return
        for helper in children(os.getpid()):  # the forkserver; the workers are its children
            for worker in children(helper):
                os.kill(worker, signal.SIGKILL)
                killed.append(worker)

    summary = reverify(con, progress=kill_workers, workers=2)
    assert killed
    assert summary.hands == len(want["hands"])
    assert _snapshot(con) == want


def test_a_page_whose_worker_died_is_replayed_here(tmp_path: Path) -> None:
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    con = _imported(tmp_path)
    page = next(reverify_mod._pages(con, "hands"))
    lost: Future[reverify_mod._Page] = Future()
    lost.set_exception(BrokenProcessPool("a worker process died"))
    pool = reverify_mod._Pool(0)
    replayed = pool._finish(page, lost)
    assert pool.broken
    assert replayed.ids == reverify_mod.replay_page(page).ids == [r[0] for r in page]


def test_quarantined_texts_this_drawlab_reads_become_hands(tmp_path: Path) -> None:
    from tests.store_data import stars_history

    texts = stars_history(7).strip("\n").split("\n\n\n")
    con = dbmod.connect(str(tmp_path / "q.duckdb"))
    import_paths(con, [write_history(tmp_path / "a.txt", 5)], workers=0)
    # what an older reader could not read: a hand it missed, garbage, a hand stored since
    rows = [
        (1, "pokerstars#old1", "pokerstars", "b.txt", 1, texts[6], 1),
        (2, "pokerstars#old2", "pokerstars", "b.txt", 40, "PokerStars Hand #77: ???", 1),
        (3, "pokerstars#old3", "pokerstars", "b.txt", 80, texts[0], 1),
    ]
    for row in rows:
        con.execute("INSERT INTO quarantine VALUES (?, ?, ?, ?, ?, 'older reader', ?, ?)", row)
    reference = dbmod.connect(str(tmp_path / "r.duckdb"))
    (tmp_path / "b.txt").write_text(texts[6] + "\n", encoding="utf-8")
    import_paths(reference, [tmp_path / "b.txt"], workers=0)

    summary = reverify(con, workers=0)
    assert (summary.quarantined, summary.recovered) == (3, 1)
    assert summary.headlines()[1] == "3 unreadable texts read again, 1 now hands."
    assert con.execute("SELECT id FROM quarantine").fetchall() == [(2,)]
    [(new_id, key, batch)] = con.execute(
        "SELECT id, key, batch FROM hands WHERE file = 'b.txt'"
    ).fetchall()
    assert (new_id, batch) == (6, 1)
    assert key == reference.execute("SELECT key FROM hands").fetchone()[0]  # type: ignore[index]
    for table in ("seats", "actions", "draws", "shows", "payouts", "pots", "player_hands"):
        sql = f"SELECT * EXCLUDE (hand) FROM {table} WHERE hand = ? ORDER BY ALL"
        want = reference.execute(sql, [1]).fetchall()
        assert con.execute(sql, [6]).fetchall() == want and want, table


def test_phh_hands_stored_under_their_venue_are_read_by_the_phh_reader() -> None:
    phh = REPOSITORY / "sample_histories" / "phh"
    con = dbmod.connect(dbmod.MEMORY)
    import_paths(con, [phh], workers=0)
    query = "SELECT site, status, count(*) FROM hands GROUP BY ALL ORDER BY ALL"
    # one hand per PHH sample file: two home games, nine dealt as PokerStars (Badugi's too)
    assert con.execute(query).fetchall() == [("home", "ok", 2), ("pokerstars", "ok", 9)]
    before = _snapshot(con)
    summary = reverify(con, workers=0)
    assert (summary.hands, summary.changed, summary.after["ok"]) == (11, 0, 11)
    assert con.execute(query).fetchall() == [("home", "ok", 2), ("pokerstars", "ok", 9)]
    assert _snapshot(con) == before
