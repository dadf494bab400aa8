"""The ``drawlab compare`` contract of issue 2, exactly."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cli
from engine.cards import CardError, format_card, parse_cards
from engine.compare import parse_hand
from tests.paths import REPOSITORY

ROOT = REPOSITORY


def run(argv: list[str], capsys: pytest.CaptureFixture[str], stdin: bytes = b"") -> tuple[int, str]:
    old = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        status = cli.main(argv)
    finally:
        sys.stdin = old
    return status, capsys.readouterr().out


def test_default_game_is_deuce_to_seven(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["compare", "As5d4h3c2s", "Kh6d4c3h2d"], capsys) == (0, "1\n")


def test_hands_with_spaces_and_ties(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(["compare", "8s 6d 4h 3c 2s", "7s 5d 4h 3c 2d", "7h 5h 4d 3d 2h"], capsys)
    assert (status, out) == (1, out)  # 4h is in two hands: an error, not an answer
    assert out == "error: card 4h is in hand 0 and hand 1\n"
    status, out = run(["compare", "8s 6d 4h 3c 2s", "7s 5d 4c 3d 2d", "7h 5h 4d 3h 2h"], capsys)
    assert (status, out) == (0, "1 2\n")


def test_unquoted_cards_are_taken_five_at_a_time(capsys: pytest.CaptureFixture[str]) -> None:
    cards = ["7s", "5d", "4h", "3c", "2s", "8s", "6d", "4c", "3h", "2d"]
    argv = ["compare", "--game", "high", *cards]
    assert run(argv, capsys) == (0, "1\n")


@pytest.mark.parametrize(
    ("game", "answer"),
    [("27", "1\n"), ("a5", "0\n"), ("high", "0\n")],
)
def test_each_game(game: str, answer: str, capsys: pytest.CaptureFixture[str]) -> None:
    # A-2-3-4-5: ace high in 2-7 (loses to K-high), the nuts in A-5, a straight in high.
    assert run(["compare", "--game", game, "As2d3h4c5s", "KhQd9c8h7d"], capsys) == (0, answer)


def test_stdin_answers_every_line_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    lines = (
        b"7s5d4h3c2s | 8s6d4c3h2d\n"
        b"\n"
        b"7s5d4h3c | 8s6d4c3h2d\n"
        b"6s5d4h3c2s | Kh Qh Jc 9d 8s\r\n"
        b"Xx9d8c7h6s | 7s5d4h3c2s\n"
        b"7s5d4h3c2s | 7s6d4c3h2d\n"
        b"\xff\xfe | 7s5d4h3c2s\n"
        b"7s5d4h3c2s|7h5h4d3d2h|7d5s4s3h2d|8c6c4c3s2c|9h8h7c6h5c|ThJhQhKhAh\n"
        b"7s5d4h3c2s|7h5h4d3d2h|7c5c4c3c2c|8c6c4s3s2d|9h8h7h6h5d|ThJhQhKhAh|2c3c4c5c6c\n"
        b"8s6d4c3h2d | 7s5d4h3c2s"
    )
    status, out = run(["compare", "--stdin"], capsys, lines)
    assert status == 1
    assert out.splitlines() == [
        "0",
        "error: empty line",
        "error: a hand is five cards, got 4 in '7s5d4h3c'",
        "1",
        "error: not a card: 'Xx9' in 'Xx9d8c7h6s'",
        "error: card 7s is in hand 0 and hand 1",
        "error: not a card: '\ufffd\ufffd' in '\ufffd\ufffd'",
        "0 1 2",
        "error: expected 2 to 6 hands, got 7",
        "1",
    ]


def test_stdin_all_good_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(["compare", "--game", "a5", "--stdin"], capsys, b"As2d3h4c5s|6s4d3c2hAc\n")
    assert (status, out) == (0, "0\n")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["compare", "7s5d4h3c2s"], "error: expected 2 to 6 hands, got 1\n"),
        (["compare"], "error: expected 2 to 6 hands, got 0\n"),
        (["compare", "7s", "5d", "4h"], "error: 3 cards do not make whole five-card hands\n"),
        (["compare", "7s5d4h3c2s", "7s5d4h3c2d"], "error: card 7s is in hand 0 and hand 1\n"),
        (
            ["compare", "7s5d4h3c2s7h", "8s6d4c3h2d"],
            "error: a hand is five cards, got 6 in '7s5d4h3c2s7h'\n",
        ),
        (
            ["compare", "7s5d4h3c2s", "8s6d4c3h2d", "--stdin"],
            "error: give hands as arguments or with --stdin, not both\n",
        ),
    ],
)
def test_bad_arguments_answer_an_error_and_status_1(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(argv, capsys) == (1, message)


def test_console_script_end_to_end() -> None:
    drawlab = Path(sys.executable).parent / "drawlab"
    command = [str(drawlab)] if drawlab.exists() else [sys.executable, str(ROOT / "cli.py")]
    done = subprocess.run(
        [*command, "compare", "--stdin"],
        input="7s5d4h3c2s | 8s6d4c3h2d\nbad\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert (done.returncode, done.stdout) == (1, "0\nerror: expected 2 to 6 hands, got 1\n")


@given(
    st.lists(st.integers(0, 51), min_size=4, max_size=6),
    st.lists(st.sampled_from(["", " ", "  "]), min_size=6, max_size=6),
    st.booleans(),
)
def test_parse_hand_fast_path_agrees_with_the_careful_reader(
    cards: list[int], gaps: list[str], upper: bool
) -> None:
    words = [format_card(c) for c in cards]
    if upper:
        words = [w[0].lower() + w[1].upper() for w in words]
    text = "".join(g + w for g, w in zip(gaps, words, strict=False))
    try:
        expected: tuple[int, ...] | str = parse_cards(text)
        if len(expected) != 5:
            expected = "error"
    except CardError:
        expected = "error"
    try:
        got: tuple[int, ...] | str = parse_hand(text)
    except CardError:
        got = "error"
    assert got == expected
    if len(cards) == 5 and len(set(cards)) == 5:
        assert got == tuple(cards)


@pytest.mark.slow  # over 1.5 s: make test runs it
@given(st.text(max_size=80))
def test_any_line_gets_an_answer_or_a_reason(text: str) -> None:
    from engine.compare import compare_line
    from engine.ranking import Ranking

    try:
        answer = compare_line(text, Ranking.DEUCE_SEVEN)
    except ValueError as e:
        assert str(e)
    else:
        assert answer and all(0 <= i < 6 for i in answer)


@given(
    st.lists(st.sampled_from(["7s5d4h3c2s", "|", " ", "Kd", "2c", "x", "\t", "||"]), max_size=12)
)
def test_stdin_answers_one_line_per_line(parts: list[str]) -> None:
    line = "".join(parts).replace("\n", "")
    done = subprocess_free_stdin([line, line])
    assert len(done) == 2 and done[0] == done[1]


def subprocess_free_stdin(lines: list[str]) -> list[str]:
    old_in, old_out = sys.stdin, sys.stdout
    sys.stdin = io.TextIOWrapper(io.BytesIO("\n".join(lines).encode() + b"\n"))
    sys.stdout = out = io.StringIO()
    try:
        cli.main(["compare", "--stdin"])
    finally:
        sys.stdin, sys.stdout = old_in, old_out
    return out.getvalue().splitlines()
