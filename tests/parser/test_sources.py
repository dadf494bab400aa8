"""Imported sources to numbered lines: resuming a grown file and refusing enormous lines."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parser import sources
from parser.outcome import HandText
from parser.pokerstars import PokerStarsReader
from parser.sources import Source, open_lines

HAND = "PokerStars Hand #{n}: Triple Draw 2-7 Lowball Limit ($1/$2 USD)\nTable 'T'\nHero: folds"


def _source(data: bytes) -> Source:
    return Source("f.txt", len(data), lambda: io.BytesIO(data))


def _chunks(data: bytes, start_line: int = 1) -> tuple[list[HandText], str | None]:
    src = _source(data)
    with src.open() as stream:
        opened = open_lines(src, stream, start_line=start_line)
        chunks = list(opened.reader.split(opened.lines, src.name))
    return chunks, opened.rejected


def _text(hands: int) -> str:
    return "\n\n".join(HAND.format(n=n) for n in range(hands)) + "\n"


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=1, max_value=30), st.sampled_from(["\n", "\r\n"]))
def test_a_resumed_file_gives_the_hands_from_its_start_line(start: int, end: str) -> None:
    text = _text(6)
    data = text.replace("\n", end).encode()
    chunks, rejected = _chunks(data, start_line=start)
    lines = [(no, line) for no, line in enumerate(text.split("\n")[:-1], 1) if no >= start]
    assert chunks == list(PokerStarsReader().split(lines, "f.txt"))
    assert rejected is None


def test_an_enormous_line_ends_the_lines_and_names_its_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sources, "MAX_LINE_CHARS", 100)
    text = _text(2) + "x" * 100 + "\n" + _text(1)
    chunks, rejected = _chunks(text.encode())
    assert [c.line for c in chunks] == [1, 5]
    assert chunks[-1].text == HAND.format(n=1)
    assert rejected is not None and rejected.startswith("f.txt:8: a line of 100 characters")
    resumed, rejected = _chunks(text.encode(), start_line=5)
    assert [c.line for c in resumed] == [5]
    assert rejected is not None and rejected.startswith("f.txt:8:")


def test_a_rejection_crosses_to_another_process_whole() -> None:
    import pickle

    from parser.sources import Rejected

    back = pickle.loads(pickle.dumps(Rejected("a.txt", "why", expected="what", text="head")))
    assert (str(back), back.reason, back.expected, back.text) == (
        "a.txt: why",
        "why",
        "what",
        "head",
    )
