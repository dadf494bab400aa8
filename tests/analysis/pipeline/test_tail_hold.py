"""The last hand of a file still being written: held back while watching, never lost.

``import_paths(..., hold_tail=True)`` is how the watcher reads; without it (a one-off
import) a cut last hand is stored as it stands.  The ``files`` row is the resume point.
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from analysis.pipeline.importer import import_paths
from analysis.storage import db as dbmod
from analysis.storage.writer import HELD
from tests.store_data import stars_history

PARTIAL = "the hand's text ends before its summary (a partial hand)"


def _db(tmp_path: Path, name: str = "d.duckdb") -> duckdb.DuckDBPyConnection:
    return dbmod.connect(tmp_path / name)


def _rows(con: duckdb.DuckDBPyConnection) -> list[tuple[str, str, int]]:
    return [(str(k), str(s), int(n)) for k, s, n in
            con.execute("SELECT key, status, line FROM hands ORDER BY key").fetchall()]


def _file_row(con: duckdb.DuckDBPyConnection) -> tuple[int, str, int, int]:
    rows = con.execute("SELECT size, checksum, resume_line, hands FROM files").fetchall()
    assert len(rows) == 1
    size, checksum, line, hands = rows[0]
    return int(size), str(checksum), int(line), int(hands)


def _line_of(text: str, hand: int) -> int:
    """The first line (1-based) of the ``hand``-th hand (0-based) of ``text``."""
    return text.count("\n", 0, _at(text, hand)) + 1


def _reference(tmp_path: Path, text: str) -> list[tuple[str, str, int]]:
    path = tmp_path / "ref" / "live.txt"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    con = _db(tmp_path, "ref.duckdb")
    import_paths(con, [path], workers=0)
    return [(k, s, n) for k, s, n in _rows(con)]


def test_a_cut_last_hand_is_held_and_the_resume_point_stays_at_it(tmp_path: Path) -> None:
    whole = stars_history(8)
    cut = whole.index("*** SUMMARY ***", whole.index("PokerStars ", _at(whole, 5) + 1))
    path = tmp_path / "live.txt"
    path.write_text(whole[:cut], encoding="utf-8")
    con = _db(tmp_path)
    first = import_paths(con, [path], workers=0, hold_tail=True)
    assert (first.added, first.hands, first.held) == (6, 6, [str(path)])
    assert first.statuses["incomplete"] == 0
    size, checksum, resume, hands = _file_row(con)
    assert (size, resume, hands) == (len(whole[:cut].encode()), _line_of(whole, 6), 6)
    assert checksum.endswith(HELD)
    assert con.execute("SELECT count(*) FROM hands WHERE line >= ?", [resume]).fetchall() == [
        (0,)
    ]  # nothing of the held hand is stored

    again = import_paths(con, [path], workers=0, hold_tail=True)  # unchanged: still held
    assert (again.added, again.hands, again.unchanged, again.held) == (0, 0, 1, [str(path)])
    assert _file_row(con)[2:] == (resume, 6)

    path.write_text(whole, encoding="utf-8")  # the client finished it, and one more
    grown = import_paths(con, [path], workers=0, hold_tail=True)
    assert (grown.added, grown.already_present, grown.hands, grown.held) == (2, 0, 2, [])
    assert _rows(con) == _reference(tmp_path, whole)
    _, checksum, resume, hands = _file_row(con)
    assert (checksum.endswith(HELD), resume, hands) == (False, _line_of(whole, 7), 8)


def _at(text: str, hand: int) -> int:
    """Where the ``hand``-th hand (0-based) of ``text`` starts."""
    at = -1
    for _ in range(hand + 1):
        at = text.index("PokerStars ", at + 1)
    return at


def test_a_hand_cut_inside_its_summary_or_its_last_line_is_held(tmp_path: Path) -> None:
    whole = stars_history(3)
    last = whole.rstrip("\n")
    for n, cut in enumerate([last.rindex("\nSeat "), len(last) - 3]):  # a seat short; mid-line
        path = tmp_path / f"live{n}.txt"
        path.write_text(whole[:cut], encoding="utf-8")
        con = _db(tmp_path, f"d{n}.duckdb")
        s = import_paths(con, [path], workers=0, hold_tail=True)
        assert (s.added, s.held) == (2, [str(path)]), n
        path.write_text(whole, encoding="utf-8")
        s = import_paths(con, [path], workers=0, hold_tail=True)
        assert (s.added, s.already_present, s.held) == (1, 0, [])
        assert [r[1] for r in _rows(con)] == ["ok"] * 3


def test_a_whole_but_broken_last_hand_is_stored_at_once(tmp_path: Path) -> None:
    """Holding back is for a cut, not for a hand that is wrong: a last hand with its whole
    summary but an unreadable table line is a parse error at once, while watching too."""
    whole = stars_history(3)
    start = _at(whole, 2)
    broken = whole[:start] + whole[start:].replace("\nTable '", "\nTabel '", 1)
    path = tmp_path / "live.txt"
    path.write_text(broken, encoding="utf-8")
    con = _db(tmp_path)
    s = import_paths(con, [path], workers=0, hold_tail=True)
    assert (s.added, s.held, s.statuses["parse_error"]) == (3, [], 1)  # 2 hands, 1 quarantined
    assert con.execute("SELECT count(*) FROM quarantine").fetchall() == [(1,)]
    assert not _file_row(con)[1].endswith(HELD)


def test_a_one_off_import_stores_a_cut_tail_as_incomplete_and_growth_replaces_it(
    tmp_path: Path,
) -> None:
    whole = stars_history(4)
    cut = whole.rindex("*** SUMMARY ***")
    path = tmp_path / "live.txt"
    path.write_text(whole[:cut], encoding="utf-8")
    con = _db(tmp_path)
    s = import_paths(con, [path], workers=0)
    assert (s.added, s.held, s.statuses["incomplete"]) == (4, [], 1)
    assert con.execute("SELECT reason FROM hands WHERE status = 'incomplete'").fetchall() == [
        (PARTIAL,)
    ]
    path.write_text(whole, encoding="utf-8")
    s = import_paths(con, [path], workers=0, hold_tail=True)
    assert (s.added, s.already_present) == (0, 1)  # the same hand, now whole
    assert _rows(con) == _reference(tmp_path, whole)


def test_a_held_tail_that_never_completes_is_stored_by_a_final_read(tmp_path: Path) -> None:
    """What the watcher does after ``tail_wait`` unchanged seconds or on a clean stop (and
    what a one-off import does with a file a watcher left held): the tail is stored as it
    stands, with its message; a later growth still replaces it, once."""
    whole = stars_history(5)
    cut = whole.rindex("*** SUMMARY ***")
    path = tmp_path / "live.txt"
    path.write_text(whole[:cut], encoding="utf-8")
    con = _db(tmp_path)
    assert import_paths(con, [path], workers=0, hold_tail=True).held == [str(path)]
    final = import_paths(con, [path], workers=0)
    assert (final.added, final.already_present, final.hands, final.held) == (1, 0, 1, [])
    assert con.execute(
        "SELECT hand_id, reason FROM hands WHERE status = 'incomplete'"
    ).fetchall() == [("900000000004", PARTIAL)]
    _, checksum, resume, hands = _file_row(con)
    assert (checksum.endswith(HELD), resume, hands) == (False, _line_of(whole, 4), 5)
    unchanged = import_paths(con, [path], workers=0, hold_tail=True)
    assert (unchanged.unchanged, unchanged.added, unchanged.held) == (1, 0, [])

    with path.open("a", encoding="utf-8") as f:
        f.write(whole[cut:] + stars_history(1, first_id=900_000_000_005))
    grown = import_paths(con, [path], workers=0, hold_tail=True)
    assert (grown.added, grown.already_present) == (1, 1)  # the tail replaced, one new
    assert _rows(con) == _reference(tmp_path, whole + stars_history(1, 900_000_000_005))
    assert con.execute("SELECT count(*), count(DISTINCT key) FROM hands").fetchall() == [(6, 6)]
