"""Reverify's workers follow each page's stacks (``Rows.follow``), as an import's do: the
same problems as the main process following every hand, with the failed hands it knows."""

from __future__ import annotations

import shutil
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from analysis.pipeline import reverify as reverify_mod
from analysis.pipeline.importer import import_paths
from analysis.pipeline.reverify import _Chains, _Pool, replay_page, reverify
from analysis.storage import db as dbmod
from tests.stack_breaks import stacks_changed

QUERY = "SELECT hand, code, line, message FROM problems ORDER BY hand, code, line, message"


def _database(tmp_path: Path) -> Path:
    """Two files whose stacks change at, after and inside pages of 7 hands, one hand of
    the first now unreadable (a failed hand of its page) and one quarantined text between
    two hands of a table of the second."""
    first = stacks_changed(40, (13, 14, 27), seed=5)
    second = stacks_changed(30, (3, 9, 22), seed=9)
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("\n\n\n".join(first) + "\n", encoding="utf-8")
    b.write_text("\n\n\n".join(second) + "\n", encoding="utf-8")
    path = tmp_path / "c.duckdb"
    con = dbmod.connect(str(path))
    import_paths(con, [a, b], workers=0)
    lines = [
        r[0]
        for r in con.execute(
            "SELECT line FROM hands WHERE file = ? ORDER BY line", [str(b)]
        ).fetchall()
    ]
    # what an older reader could not read, between hands 9 and 10 of the second file
    con.execute(
        "INSERT INTO quarantine VALUES (100, 'pokerstars#old', 'pokerstars', ?, ?, "
        "'older reader', 'PokerStars Hand #2: ???', 1)",
        [str(b), lines[9] + 1],
    )
    con.execute("UPDATE hands SET text = 'PokerStars Hand #1: garbage' WHERE id = 27")
    con.execute("DELETE FROM problems")
    con.close()
    return path


def _reverified(path: Path, workers: int) -> list[tuple[Any, ...]]:
    con = dbmod.connect(str(path))
    try:
        reverify(con, workers=workers)
        return con.execute(QUERY).fetchall()
    finally:
        con.close()


@pytest.mark.slow
def test_workers_following_pages_find_what_the_main_process_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _database(tmp_path)
    copy = tmp_path / "copy.duckdb"
    shutil.copy(path, copy)
    monkeypatch.setattr(reverify_mod, "PAGE", 7)
    here = _reverified(path, workers=0)
    there = _reverified(copy, workers=2)
    assert there == here
    codes = [(hand, code) for hand, code, _, _ in here if code.startswith("STACK_")]
    # each changed stack (first file: hands 14, 28; second: 44, 50, 63) and the hand
    # after it, but hand 28's change (after hand 27, which no longer reads) and hand 51's
    # mismatch (after the quarantined text, inside hand 50's lines)
    assert codes == [
        (14, "STACK_CHANGE"), (16, "STACK_MISMATCH"), (29, "STACK_MISMATCH"),
        (44, "STACK_CHANGE"), (45, "STACK_MISMATCH"), (50, "STACK_CHANGE"),
        (63, "STACK_CHANGE"), (64, "STACK_MISMATCH"),
    ]  # fmt: skip


def test_a_failed_hand_learnt_among_a_pages_hands_since_it_was_sent() -> None:
    chains = _Chains()
    chains.break_chains("a.txt", 50)
    page = [(1, "pokerstars", "a.txt", 10, ""), (2, "pokerstars", "a.txt", 90, ""),
            (3, "pokerstars", "b.txt", 5, "")]  # fmt: skip
    known, mark = chains.known(page)
    assert (known, mark) == ({"a.txt": [50]}, 1)
    assert not chains.learnt_among(page, mark)
    chains.break_chains("a.txt", 95)  # after the page's last hand of a.txt
    chains.break_chains("c.txt", 20)  # another file
    assert not chains.learnt_among(page, mark)
    chains.break_chains("b.txt", 5)
    assert chains.learnt_among(page, mark)
    assert chains.known(page) == ({"a.txt": [50, 95], "b.txt": [5]}, 4)


def test_a_page_followed_too_early_is_replayed_and_followed_here(tmp_path: Path) -> None:
    path = _database(tmp_path)
    con = dbmod.connect(str(path))
    page = next(reverify_mod._pages(con, "hands"))
    con.close()
    pool = _Pool(0)
    pool.chains = _Chains()
    sent: Future[reverify_mod._Page] = Future()
    sent.set_result(replay_page(page, {}))
    assert sent.result().rows.ends and not sent.result().rows.carry
    kept = pool._finish(page, sent, 0)
    assert kept is sent.result()  # nothing learnt since: the worker's rows
    pool.chains.break_chains(page[3][2], page[3][3])  # learnt from a page in flight
    again = pool._finish(page, sent, 0)
    assert again is not sent.result() and again.rows.carry  # replayed, to follow here
    assert again.ids == sent.result().ids
