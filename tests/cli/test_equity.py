"""``drawlab equity``: one line per hand, the hand as given, its equity and standard error."""

from __future__ import annotations

import pytest

import cli
from engine.cards import parse_cards
from engine.ranking import Ranking
from engine.sim.equity import Player, exact_equity
from engine.sim.strategy import STAND_PAT


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    status = cli.main(argv)
    return status, capsys.readouterr().out.splitlines()


def test_one_line_per_hand_close_to_the_exact_answer(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["equity", "--draws", "1", "--trials", "100000", "--seed", "1", "--sample"]
    status, lines = run([*argv, "7s 5d 4h 3c", "8s6d4c3h2d"], capsys)
    assert status == 0 and len(lines) == 3
    hand0, eq0, se0 = lines[0].rsplit(" ", 2)
    hand1, eq1, se1 = lines[1].rsplit(" ", 2)
    assert (hand0, hand1) == ("7s 5d 4h 3c", "8s6d4c3h2d")
    assert lines[2] == "sampled: 100,000 deals"
    # The drawing hand's discard is unknown here: 3 deuces among 43 unseen cards.
    exact = exact_equity(
        [Player(parse_cards("7s5d4h3c")), Player(parse_cards("8s6d4c3h2d"), STAND_PAT)],
        Ranking.DEUCE_SEVEN,
        1,
    )
    assert exact.equity[0] == pytest.approx(3 / 43)
    assert abs(float(eq0) - 3 / 43) <= 4 * float(se0)
    assert float(eq0) + float(eq1) == pytest.approx(1.0, abs=2e-4)
    assert se0 == se1 and 0 < float(se0) < 0.002


def test_a_one_card_draw_against_a_pat_hand_is_counted_exactly(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, lines = run(["equity", "--draws", "1", "7s 5d 4h 3c", "8s6d4c3h2d"], capsys)
    assert (status, lines) == (
        0,
        [
            f"7s 5d 4h 3c {3 / 43:.4f} 0.0000",
            f"8s6d4c3h2d {40 / 43:.4f} 0.0000",
            "exact: every deal counted (43)",
        ],
    )


def test_five_cards_stand_pat(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines = run(["equity", "--trials", "500", "7s5d4h3c2s", "8s6d4c3h2d"], capsys)
    assert (status, lines) == (
        0,
        [
            "7s5d4h3c2s 1.0000 0.0000",
            "8s6d4c3h2d 0.0000 0.0000",
            "exact: every deal counted (1)",
        ],
    )


def test_a5_and_seeded_repeats(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "equity",
        "--game",
        "a5",
        "--trials",
        "4000",
        "--seed",
        "5",
        "Ah2d 3c 4s",
        "5c6c7c",
        "-",
    ]
    status, first = run(argv, capsys)
    assert status == 0 and [line.rsplit(" ", 2)[0] for line in first[:3]] == [
        "Ah2d 3c 4s",
        "5c6c7c",
        "-",
    ]
    assert first[3] == "sampled: 4,000 deals"
    assert run(argv, capsys) == (0, first)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["equity", "7s5d4h"], "error: expected 2 to 6 hands, got 1"),
        (["equity", "7s5d4h", "7s6d"], "error: card 7s appears twice"),
        (
            ["equity", "--draws", "0", "7s5d4h", "8s6d"],
            "error: player 0 holds 3 cards and no draw is left",
        ),
        (["equity", "--draws", "4", "7s5d4h", "8s6d"], "error: 0 to 3 draws left, got 4"),
        (
            ["equity", "7s5d4h3c2sKd", "8s6d"],
            "error: a hand is at most five cards, got 6 in '7s5d4h3c2sKd'",
        ),
        (["equity", "Xx", "8s6d"], "error: not a card: 'Xx' in 'Xx'"),
        (
            ["equity", "--game", "razz", "7s5d4h", "8s6d"],
            "error: unknown game 'razz': one of 27, a5, 27_triple_draw, 27_single_draw, "
            "a5_triple_draw, a5_single_draw, badugi, high, five_card_draw, high-low",
        ),
        (["equity", "--dead", "8s", "7s5d4h", "8s6d"], "error: card 8s appears twice"),
    ],
)
def test_errors_print_a_reason_and_exit_1(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(argv, capsys) == (1, [message])


def test_single_draw_games_default_to_one_draw(capsys: pytest.CaptureFixture[str]) -> None:
    # 7-5-4-3 drawing one against pat 8-6-4-3-2: 3 deuces in 43 unseen with one draw; more
    # with three.  The game name sets the draws; --draws overrides it.
    base = ["equity", "--trials", "100000", "--seed", "2", "--sample"]
    hands = ["7s5d4h3c", "8s6d4c3h2d"]
    _, single = run([*base, "--game", "27_single_draw", *hands], capsys)
    _, told = run([*base, "--game", "27", "--draws", "1", *hands], capsys)
    _, triple = run([*base, "--game", "27_triple_draw", *hands], capsys)
    assert single == told
    eq_single, se = (float(x) for x in single[0].rsplit(" ", 2)[1:])
    assert abs(eq_single - 3 / 43) <= 4 * se
    assert float(triple[0].rsplit(" ", 2)[1]) > 0.15
