"""A worker's rows on their way back to the importer: every table, type and value kept."""

from __future__ import annotations

import pickle

import pyarrow as pa

from analysis.pipeline.importer import parse_task
from analysis.storage.rows import CHILD_COLUMNS, ArrowRows, Rows, with_continuity
from engine.continuity import ContinuityTracker
from parser.outcome import HandText
from tests.store_data import stars_history


def _texts(n: int) -> list[HandText]:
    parts = stars_history(n).split("\n\n\n")
    return [HandText("t.txt", 1 + 100 * i, p, "pokerstars") for i, p in enumerate(parts) if p]


def _tables(rows: ArrowRows) -> list[tuple[str, pa.Table]]:
    return [
        ("hands", rows.hands),
        ("quarantine", rows.quarantine),
        *rows.children.items(),
        ("player_hands", rows.player_hands),
    ]


def _same(got: ArrowRows, sent: ArrowRows) -> None:
    assert [name for name, _ in _tables(got)] == [name for name, _ in _tables(sent)]
    for (name, a), (_, b) in zip(_tables(got), _tables(sent), strict=True):
        assert a.schema == b.schema, name
        assert a.to_pylist() == b.to_pylist(), name
    assert got.carry == sent.carry
    assert got.breaks == sent.breaks


def test_rows_cross_a_pickle_as_they_were() -> None:
    chunks = _texts(12)
    chunks.insert(3, HandText("t.txt", 350, "PokerStars Hand #1: garbage", "pokerstars"))
    sent = parse_task("pokerstars", chunks)
    assert sent.hands.num_rows == 12 and sent.quarantine.num_rows == 1
    assert sent.player_hands.num_rows > 12 and sent.children["actions"].num_rows > 12
    assert len(sent.carry) == 12 and sent.breaks == [("t.txt", 350)]
    got = pickle.loads(pickle.dumps(sent, pickle.HIGHEST_PROTOCOL))
    _same(got, sent)
    assert list(got.children) == list(CHILD_COLUMNS)


def test_an_empty_batch_keeps_its_columns() -> None:
    sent = Rows().to_arrow()
    got = pickle.loads(pickle.dumps(sent))
    _same(got, sent)
    assert got.hands.num_rows == 0 and got.hands.column_names == sent.hands.column_names


def test_rows_after_the_carry_over_check_cross_too() -> None:
    sent = with_continuity(parse_task("pokerstars", _texts(6)), ContinuityTracker())
    assert sent.carry == [] and sent.breaks == []
    _same(pickle.loads(pickle.dumps(sent)), sent)
