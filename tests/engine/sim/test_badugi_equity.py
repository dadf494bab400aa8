"""Badugi equity: the default strategy, exact enumeration against the simulator, the CLI."""

from __future__ import annotations

import numpy as np
import pytest

import cli
from engine.cards import CardError, parse_cards
from engine.ranking import Ranking
from engine.sim.draw_choice import draw_equity, sensible_keeps
from engine.sim.equity import Player, equity, exact_equity, game_setup, players_from_text
from engine.sim.strategy import STAND_PAT, default_strategy

B = Ranking.BADUGI


@pytest.mark.parametrize(
    ("text", "kept_3", "kept_1"),
    [
        ("Kc Qd Jh Ts", "Kc Qd Jh Ts", "Kc Qd Jh Ts"),  # any badugi stands pat
        ("2c 3c 4d 9h", "2c 4d", "2c 4d 9h"),  # the 9 is kept on the last draw only
        ("As Ad 5c 5h", "As 5c", "As 5c"),
        ("2s 3s 4d 7h", "2s 4d 7h", "2s 4d 7h"),  # the deuce plays, not the trey
        ("Tc Jc Qc Kc", "", "Tc"),  # one card: draw four, keep the ten on the last draw
    ],
)
def test_default_strategy_keeps_the_best_subset(text: str, kept_3: str, kept_1: str) -> None:
    hand = parse_cards(text)
    strategy = default_strategy(B)
    for draws_left, want in ((3, kept_3), (1, kept_1)):
        mask = strategy.keep(np.array([hand], dtype=np.uint8), draws_left)[0]
        kept = tuple(c for c, k in zip(hand, mask, strict=True) if k)
        assert kept == parse_cards(want), (text, draws_left)


def test_one_card_to_a_badugi_against_a_king_high_badugi_exactly() -> None:
    # 2c 3d 4h draws one: any of nine spades (A, 5-9, J, Q, K) of the 45 unseen cards
    # makes a badugi better than K-Q-J-T.
    players = players_from_text(["Kc Qd Jh Ts", "2c3d4h"], 4)
    exact = exact_equity(players, B, 1)
    assert exact.trials == 45
    assert exact.equity == pytest.approx((0.8, 0.2), abs=1e-12)
    sim = equity(players, B, 1, trials=20_000, seed=3, exact_limit=0)  # sampled
    assert equity(players, B, 1) == exact  # counted by default
    assert abs(sim.equity[1] - 0.2) < 4 * sim.stderr[1]


def test_badugi_hands_are_four_cards_at_most() -> None:
    with pytest.raises(CardError):
        players_from_text(["Ac2d3h4s5c", "Kc"], 4)
    with pytest.raises(CardError):
        equity([Player(parse_cards("Ac2d3h4s5c")), Player(())], B, 1, trials=10)
    with pytest.raises(ValueError, match=r"a 5-card game, this one deals 4: .*size=4"):
        equity([Player(parse_cards("Ac2d3h4s")), Player.drawing(2)], B, 1, trials=10)
    with pytest.raises(ValueError, match="draws 0 to 4 cards, not 5"):
        Player.drawing(5, size=4)
    assert game_setup("badugi") == (B, 3)


def test_cli_equity_badugi(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["equity", "--game", "badugi", "--draws", "0", "Ac2d3h4s", "5c6d7h8s"]
    assert cli.main([*argv, "--trials", "100", "--seed", "1"]) == 0
    assert capsys.readouterr().out == (
        "Ac2d3h4s 1.0000 0.0000\n5c6d7h8s 0.0000 0.0000\nexact: every deal counted (1)\n"
    )
    assert cli.main(["equity", "--game", "badugi", "Ac2d3h4s5c", "Kc"]) == 1
    assert capsys.readouterr().out == "error: a hand is at most 4 cards, got 5 in 'Ac2d3h4s5c'\n"


def test_what_to_draw_in_badugi_is_scored_exactly_on_the_last_draw() -> None:
    # 2c 3d 4h 4s against a pat K-Q-J-T: keep a 4-3-2 and draw one, 9 winning spades of the
    # 44 unseen cards (the Ts is the opponent's, the 4s our discard, 2s and 3s pair us).
    hand = parse_cards("2c 3d 4h 4s")
    keeps = sensible_keeps(hand, B)
    assert len(keeps) == 12  # no two of a rank or a suit: 2 threes, 5 pairs, 4 singles, none
    choices = draw_equity(hand, 1, B, [Player(parse_cards("Kc Qd Jh Ts"), STAND_PAT)], keeps=keeps)
    assert [c.label for c in choices[:2]] == ["keep 2c 3d 4h, draw 1", "keep 2c 3d 4s, draw 1"]
    assert choices[0].exact and choices[0].equity == pytest.approx(9 / 44, abs=1e-12)
    assert len(choices) == 12 and all(c.exact for c in choices)
    with pytest.raises(CardError, match="four cards"):
        draw_equity(parse_cards("2c 3d 4h 4s 5s"), 1, B, [Player(parse_cards("Kc Qd Jh Ts"))])
