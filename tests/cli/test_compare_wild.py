"""``drawlab compare`` with wild cards (--wild) and the high-low split (--game high-low)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.compare import GAMES, WILD_GAMES, Contest
from engine.wild import Wild
from tests.cli.test_compare import run


@pytest.mark.parametrize(
    ("wild", "hands", "answer"),
    [
        # five of a kind beats a royal flush
        ("joker", ["Kc Kd Kh Ks Jk", "As Ks Qs Js Ts"], "error: card Ks is in hand 0 and hand 1"),
        ("joker", ["Kc Kd Kh Ks Jk", "Ah Qh Jh Th 9h"], "0"),
        # the joker makes the flush A-A-K-9-4, which beats the natural A-K-Q-9-4
        ("joker", ["As Ks 9s 4s Jk", "Ah Kh Qh 9h 4h"], "0"),
        # a wild royal flush ties a natural one (cards speak)
        ("joker", ["Ah Kh Qh Jh Jk", "As Ks Qs Js Ts"], "0 1"),
        ("two-jokers", ["Jk Jk 7c 7d 7s", "Ac Ad Ah As 3c"], "0"),  # five sevens over four aces
        ("two-jokers", ["Jk 7h 7c 2s 3d", "Jk Ac Ad Kh Qs"], "1"),  # trips 7s against trips aces
        ("deuces", ["2c 2d 9h 9s 9c", "Ah Kh Qh Jh Th"], "0"),  # five nines
        ("deuces", ["2c 5d 6h 7s 8c", "9c 9d 4h 4s Kc"], "0"),  # a straight beats two pair
        ("one-eyed-jacks", ["Js Jh 3c 4d 5h", "Jc Jd Kc Kd Ks"], "1"),  # straight < full house
        ("one-eyed-jacks", ["Jc Jd 3c 4d 5h", "Ac Ad 9h 8s 7c"], "1"),  # two-eyed jacks are not
    ],
)
def test_high_with_wild_cards(
    wild: str, hands: list[str], answer: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status = 1 if answer.startswith("error") else 0
    assert run(["compare", "--game", "high", "--wild", wild, *hands], capsys) == (
        status,
        answer + "\n",
    )


def test_unquoted_cards_with_jokers(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["compare", "--game", "high", "--wild", "two-jokers"]
    cards = ["Kc", "Kd", "Kh", "Jk", "Ks", "Ah", "Qh", "Jk", "Th", "9h"]
    assert run([*argv, *cards], capsys) == (0, "0\n")


@pytest.mark.parametrize(
    ("argv", "answer"),
    [
        (["Kc Kd Kh Ks 2c", "Ah 2h 3h 4c 5d"], "high: 0; low: 1"),
        # one hand wins both halves: the wheel is the best low and here the best high too
        (["Ah 2h 3c 4c 5d", "Kc Qd 9h 8s 7c", "Ks Qs 9d 8d 6c"], "high: 0; low: 0"),
        # ties split each half on its own
        (["As 2c 3d 4h 6s", "Ah 2d 3c 4s 6c", "Kc Kd 9h 9s 7d"], "high: 2; low: 0 1"),
        # straights and flushes do not count against a low: 6-4-3-2-A suited is the best low
        (["6h 4h 3h 2h Ah", "7c 5d 4c 3d 2s", "Qc Qd Qs 8c 7d"], "high: 0; low: 0"),
        (["--wild", "joker", "Jk 2c 3d 4h 5s", "Ac 2d 3h 4s 5c"], "high: 0; low: 0 1"),
        (["--wild", "deuces", "2c 2d Kh Ks 9c", "Ah 3d 4h 6s 8c"], "high: 0; low: 1"),
    ],
)
def test_high_low_prints_each_half(
    argv: list[str], answer: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["compare", "--game", "high-low", *argv], capsys) == (0, answer + "\n")


def test_high_low_stdin_answers_every_line(capsys: pytest.CaptureFixture[str]) -> None:
    lines = (
        b"Kc Kd Kh Ks 2c | Ah 2h 3h 4c 5d\n"
        b"Jk 2c 3d 4h 5s | Ac 2d 3h 4s 5c\n"
        b"\n"
        b"Jk Jk 2c 3d 4h | Ac 2d 3h 4s 5c\n"
        b"Ah 2h 3c 4c 5d | Kc Qd 9h 8s 7c | Ks Qs 9d 8d 6c\n"
    )
    argv = ["compare", "--game", "high-low", "--wild", "joker", "--stdin"]
    status, out = run(argv, capsys, lines)
    assert status == 1
    assert out.splitlines() == [
        "high: 0; low: 1",
        "high: 0; low: 0 1",
        "error: empty line",
        "error: hand 0: the deck of --wild joker has one joker",
        "high: 0; low: 0",
    ]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "27", "--wild", "deuces"],
         "error: wild cards play in a5, high, high-low, not 27"),
        (["--game", "high"], "error: hand 0: Jk is a joker, in the deck only with --wild joker or "
         "two-jokers"),
        (["--game", "high", "--wild", "deuces"], "error: hand 0: Jk is a joker, in the deck only "
         "with --wild joker or two-jokers"),
        (["--game", "high", "--wild", "two-jokers", "Jk 2c 3d 4h 5h"],
         "error: more than two jokers (Jk) in the hands"),
    ],
)  # fmt: skip
def test_wild_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    hands = ["Jk 7s 5d 4h 3c", "Jk 8s 6d 4c 3h"]
    assert run(["compare", *argv, *hands], capsys) == (1, message + "\n")


def test_a5_with_the_bug_like_joker(capsys: pytest.CaptureFixture[str]) -> None:
    # In a low the joker is the lowest rank not held: here the ace, for a wheel.
    argv = ["compare", "--game", "a5", "--wild", "joker", "Jk 2c 3d 4h 5s", "6c 4d 3h 2s Ac"]
    assert run(argv, capsys) == (0, "0\n")


def test_equity_command_with_wild_cards_and_high_low(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["equity", "--game", "high-low", "--trials", "2000", "--seed", "1"]
    assert run([*argv, "Ah 2h 3c 4d 9s", "Kc Kd Ks 7h 2c"], capsys) == (
        0,
        "Ah 2h 3c 4d 9s 0.5000 0.0000\nKc Kd Ks 7h 2c 0.5000 0.0000\n"
        "exact: every deal counted (1)\n",
    )
    argv = ["equity", "--game", "high", "--wild", "two-jokers", "--trials", "2000", "--seed", "1"]
    status, out = run([*argv, "Jk Jk 9h 9c 9d", "Ah Ad Ac As Kd"], capsys)
    assert (status, out) == (0, "Jk Jk 9h 9c 9d 1.0000 0.0000\nAh Ad Ac As Kd 0.0000 0.0000\n"
                             "exact: every deal counted (1)\n")
    status, out = run(["equity", "--game", "27", "--wild", "deuces", "7s5d4h", "8s6d"], capsys)
    assert (status, out) == (1, "error: wild cards play in high and ace-to-five, not 27\n")


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(GAMES),
    st.sampled_from([None, *Wild]),
    st.lists(st.sampled_from(["Jk", "jk", "As", "2c", "Js", "Jh", "7d", "|", " ", "x", "Jk2",
                              "Kh Qh Jh Th 9h", "2d 3d 4d 5d 6d"]), max_size=14),
)  # fmt: skip
def test_any_line_gets_an_answer_or_a_reason(
    game: str, wild: Wild | None, parts: list[str]
) -> None:
    try:
        contest = Contest(game, wild)
    except ValueError as e:
        assert wild is not None and game not in WILD_GAMES and str(e)
        return
    try:
        answer = contest.answer_line("".join(parts))
    except ValueError as e:
        assert str(e)
    else:
        assert answer
