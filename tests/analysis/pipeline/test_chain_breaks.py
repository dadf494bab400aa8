"""A hand that failed ends its table's stack chain: verify, import and reverify agree.

After a hand that could not be read, the stacks at its table are unknown; the table's next
hand starts a new chain instead of being compared with the hand before the failed one
(which flagged every player with STACK_MISMATCH).
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from analysis.pipeline.importer import import_paths
from analysis.pipeline.reverify import reverify
from analysis.pipeline.verification import HandResult
from analysis.pipeline.verify_files import verify_paths
from analysis.storage import db as dbmod

STAKES = "($0.10/$0.20 USD)"


def _hand(n: int, a: str = "$4", b: str = "$4", stakes: str = STAKES) -> str:
    """A hand at table 'T': A folds the small blind, so A ends $0.05 down, B $0.05 up."""
    return (
        f"PokerStars Hand #{n}:  Triple Draw 2-7 Lowball Limit {stakes}"
        f" - 2011/06/26 13:34:0{n} ET\n"
        "Table 'T' 6-max Seat #1 is the button\n"
        f"Seat 1: A ({a} in chips)\nSeat 2: B ({b} in chips)\n"
        "A: posts small blind $0.05\nB: posts big blind $0.10\n"
        "*** DEALING HANDS ***\nA: folds\n"
        "Uncalled bet ($0.05) returned to B\nB collected $0.10 from pot\n"
        "*** SUMMARY ***\nTotal pot $0.10 | Rake $0\n"
    )


def _session(tmp_path: Path, *hands: str) -> Path:
    path = tmp_path / "session.txt"
    path.write_text("\n\n".join(hands), encoding="utf-8")
    return path


BROKEN = _hand(2, stakes="($x/$y USD)")  # its header cannot be read: its table is unknown
AFTER = _hand(3)  # starts with $4 each, as hand 1 did: B lost $0.05 since hand 1


def _codes(result: HandResult) -> list[str]:
    return [p.code for p in result.problems]


def test_verify_flags_a_hand_that_does_not_follow_the_one_before(tmp_path: Path) -> None:
    results = list(verify_paths([_session(tmp_path, _hand(1), AFTER)]))
    assert [r.status for r in results] == ["ok", "invalid"]
    assert _codes(results[1]) == ["STACK_CHANGE", "STACK_MISMATCH"]


def test_verify_starts_a_new_chain_after_a_hand_that_failed(tmp_path: Path) -> None:
    results = list(verify_paths([_session(tmp_path, _hand(1), BROKEN, AFTER)]))
    assert [(r.hand_id, r.status) for r in results] == [
        ("1", "ok"),
        ("2", "parse_error"),
        ("3", "ok"),
    ]
    assert _codes(results[2]) == []


def test_a_failed_hand_ends_only_the_chains_it_lies_across(tmp_path: Path) -> None:
    """Hands after the new chain starts are compared again."""
    later = _hand(4, a="$4", b="$3")  # B had $4.05 after hand 3
    results = list(verify_paths([_session(tmp_path, _hand(1), BROKEN, AFTER, later)]))
    assert [r.status for r in results] == ["ok", "parse_error", "ok", "invalid"]
    assert _codes(results[3]) == ["STACK_CHANGE", "STACK_MISMATCH"]


def _stored(con: duckdb.DuckDBPyConnection) -> list[tuple[str, str, list[str]]]:
    rows = con.execute(
        "SELECT h.hand_id, h.status, list(p.code ORDER BY p.code) FILTER (p.code IS NOT NULL) "
        "FROM hands h LEFT JOIN problems p ON p.hand = h.id GROUP BY h.id, h.hand_id, h.status "
        "ORDER BY h.id"
    ).fetchall()
    return [(str(i), str(s), list(c or [])) for i, s, c in rows]


@pytest.mark.slow
@pytest.mark.parametrize("workers", [0, 2])
def test_import_starts_a_new_chain_after_a_hand_that_failed(tmp_path: Path, workers: int) -> None:
    con = dbmod.connect(tmp_path / "c.duckdb")
    summary = import_paths(con, [_session(tmp_path, _hand(1), BROKEN, AFTER)], workers=workers)
    assert (summary.statuses["ok"], summary.statuses["parse_error"]) == (2, 1)
    assert summary.statuses["invalid"] == 0
    assert _stored(con) == [("1", "ok", []), ("3", "ok", [])]
    assert con.execute("SELECT count(*) FROM quarantine").fetchall() == [(1,)]


def test_import_still_flags_a_hand_that_does_not_follow_the_one_before(tmp_path: Path) -> None:
    con = dbmod.connect(tmp_path / "c.duckdb")
    import_paths(con, [_session(tmp_path, _hand(1), AFTER)], workers=0)
    assert _stored(con) == [("1", "ok", []), ("3", "invalid", ["STACK_CHANGE", "STACK_MISMATCH"])]


def test_reverify_keeps_the_chain_broken_at_a_quarantined_hand(tmp_path: Path) -> None:
    con = dbmod.connect(tmp_path / "c.duckdb")
    import_paths(con, [_session(tmp_path, _hand(1), BROKEN, AFTER)], workers=0)
    reverify(con, workers=0)
    assert _stored(con) == [("1", "ok", []), ("3", "ok", [])]


# A mixed table: a Razz hand (a game DrawLab does not replay) moves chips between the two
# triple-draw hands, so the stacks after it are unknown as after a hand that failed.
RAZZ = (
    "PokerStars Hand #2:  Razz Limit ($0.10/$0.20 USD) - 2011/06/26 13:34:02 ET\n"
    "Table 'T' 6-max\nSeat 1: A ($3.95 in chips)\nSeat 2: B ($4.05 in chips)\n"
    "A: posts the ante $0.02\nB: posts the ante $0.02\n*** 3rd STREET ***\n"
    "A: brings in for $0.05\nB: folds\nA collected $0.09 from pot\n"
    "*** SUMMARY ***\nTotal pot $0.09 | Rake $0\n"
)


def test_a_hand_of_a_game_not_replayed_starts_a_new_chain(tmp_path: Path) -> None:
    results = list(verify_paths([_session(tmp_path, _hand(1), RAZZ, AFTER)]))
    assert [(r.hand_id, r.status) for r in results] == [
        ("1", "ok"),
        ("2", "unsupported"),
        ("3", "ok"),
    ]
    assert _codes(results[2]) == []


@pytest.mark.slow
@pytest.mark.parametrize("workers", [0, 2])
def test_import_starts_a_new_chain_after_a_game_not_replayed(tmp_path: Path, workers: int) -> None:
    con = dbmod.connect(tmp_path / "c.duckdb")
    import_paths(con, [_session(tmp_path, _hand(1), RAZZ, AFTER)], workers=workers)
    assert _stored(con) == [("1", "ok", []), ("2", "unsupported", []), ("3", "ok", [])]
    reverify(con, workers=0)
    assert _stored(con) == [("1", "ok", []), ("2", "unsupported", []), ("3", "ok", [])]
