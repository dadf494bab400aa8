"""Cut, spliced and corrupted real hands from every site: only outcomes come out, never exceptions.

The reader turns a site reader's bug into a ``ParseError`` whose message starts with
``reader.INTERNAL``, so that one bug cannot stop an import; these tests treat such an
error as the failure it is.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.record import Hand
from parser.outcome import HandText, Outcome, ParseError, Skipped
from parser.reader import INTERNAL, read_bytes, read_text
from tests.parser_corpus import hand_files, results


def _texts() -> list[str]:
    """Each corpus hand's text, and each whole corpus file (several sites' headers)."""
    chunks = [chunk.text for _, chunk, _ in results() if chunk.text]
    return sorted(set(chunks))


TEXTS = _texts()
FILES = [p.read_bytes() for p in hand_files()]
SETTINGS = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check(outcomes: list[tuple[HandText, Outcome]]) -> None:
    for chunk, outcome in outcomes:
        assert isinstance(chunk, HandText)
        assert isinstance(outcome, Hand | Skipped | ParseError)
        if isinstance(outcome, ParseError):
            assert not outcome.message.startswith(INTERNAL), str(outcome)
            assert outcome.line >= 1 and outcome.column >= 1


def _lines(text: str) -> list[str]:
    return text.split("\n")


@SETTINGS
@given(st.sampled_from(TEXTS), st.integers(min_value=0), st.integers(min_value=0))
def test_a_hand_cut_anywhere(text: str, start: int, length: int) -> None:
    start %= len(text) + 1
    check(list(read_text(text[:start] + text[start + length % (len(text) + 1) :], "cut")))
    check(list(read_text(text[:start], "head")))


@SETTINGS
@given(
    st.sampled_from(TEXTS),
    st.sampled_from(TEXTS),
    st.integers(min_value=0),
    st.integers(min_value=0),
)
def test_two_hands_spliced_line_wise(a: str, b: str, i: int, j: int) -> None:
    la, lb = _lines(a), _lines(b)
    i %= len(la) + 1
    j %= len(lb) + 1
    check(list(read_text("\n".join(la[:i] + lb[j:]), "splice")))


@SETTINGS
@given(
    st.sampled_from(TEXTS),
    st.lists(
        st.tuples(
            st.sampled_from(["delete", "duplicate", "swap", "replace", "insert"]),
            st.integers(min_value=0),
            st.text(max_size=12),
        ),
        min_size=1,
        max_size=6,
    ),
)
def test_lines_deleted_duplicated_swapped_or_corrupted(
    text: str, edits: list[tuple[str, int, str]]
) -> None:
    lines = _lines(text)
    for op, where, junk in edits:
        if not lines:
            break
        k = where % len(lines)
        if op == "delete":
            del lines[k]
        elif op == "duplicate":
            lines.insert(k, lines[k])
        elif op == "swap" and k + 1 < len(lines):
            lines[k], lines[k + 1] = lines[k + 1], lines[k]
        elif op == "replace":
            line = lines[k]
            pos = (where // 7) % (len(line) + 1)
            lines[k] = line[:pos] + junk + line[pos + len(junk) :]
        elif op == "insert":
            lines.insert(k, junk)
    check(list(read_text("\n".join(lines), "edit")))


@SETTINGS
@given(
    st.sampled_from(FILES),
    st.lists(st.tuples(st.integers(min_value=0), st.integers(0, 255)), max_size=8),
    st.integers(min_value=0),
)
def test_file_bytes_corrupted_or_truncated(
    data: bytes, flips: list[tuple[int, int]], cut: int
) -> None:
    raw = bytearray(data)
    for where, value in flips:
        if raw:
            raw[where % len(raw)] = value
    check(list(read_bytes(bytes(raw), "bytes.txt")))
    check(list(read_bytes(bytes(raw[: cut % (len(raw) + 1)]), "short.txt")))


@SETTINGS
@given(st.text(max_size=400))
def test_arbitrary_text_after_a_real_header(junk: str) -> None:
    for text in TEXTS[:: max(len(TEXTS) // 8, 1)]:
        head = _lines(text)[0]
        check(list(read_text(head + "\n" + junk, "junk")))


@pytest.mark.slow
def test_every_number_of_the_pokerstars_corpus_corrupted_in_turn() -> None:
    """Deterministic sweep: dates, amounts, seats and cards of every PokerStars file, one
    character at a time, replaced by an impossible digit, deleted or doubled."""
    stars = [p.read_bytes() for p in hand_files() if "/Stars/" in str(p)]
    for data in stars:
        spots = [i for i, b in enumerate(data) if b in b"0123456789$.,:/[]()#"]
        for i in spots[::2]:
            for new in (b"9", b"0", b"", data[i : i + 1] * 2):
                check(list(read_bytes(data[:i] + new + data[i + 1 :], "stars.txt")))
