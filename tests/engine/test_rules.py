"""The game descriptions: draws, structures, caps, forced bets, rankings, home five-card draw."""

from __future__ import annotations

import pytest

from engine.cards import parse_cards
from engine.ranking import Ranking
from engine.record import Game, Structure
from engine.rules import Forced, Opener, can_open, game_name, home_five_card_draw, rules_for


@pytest.mark.parametrize(
    ("game", "draws", "ranking"),
    [
        (Game.TRIPLE_DRAW_27, 3, Ranking.DEUCE_SEVEN),
        (Game.SINGLE_DRAW_27, 1, Ranking.DEUCE_SEVEN),
        (Game.TRIPLE_DRAW_A5, 3, Ranking.ACE_FIVE),
        (Game.SINGLE_DRAW_A5, 1, Ranking.ACE_FIVE),
        (Game.FIVE_CARD_DRAW, 1, Ranking.HIGH),
    ],
)
def test_each_game_has_its_draws_rounds_and_ranking(
    game: Game, draws: int, ranking: Ranking
) -> None:
    rules = rules_for(game, Structure.FIXED)
    assert rules.draws == draws
    assert rules.rounds == draws + 1
    assert rules.ranking is ranking
    assert rules.max_discard == 5
    assert rules.forced is Forced.BLINDS
    assert rules.opener is Opener.ANY


def test_fixed_limit_caps_at_a_bet_and_three_raises_and_big_bets_come_in_the_second_half() -> None:
    triple = rules_for(Game.TRIPLE_DRAW_27, Structure.FIXED)
    assert triple.cap == 4
    assert [triple.big_bet_round(s) for s in range(4)] == [False, False, True, True]
    single = rules_for(Game.SINGLE_DRAW_A5, Structure.FIXED)
    assert [single.big_bet_round(s) for s in range(2)] == [False, True]


@pytest.mark.parametrize("structure", [Structure.POT, Structure.NO_LIMIT])
def test_pot_and_no_limit_have_no_cap(structure: Structure) -> None:
    assert rules_for(Game.SINGLE_DRAW_27, structure).cap is None


def test_home_five_card_draw_uses_antes_jacks_to_open_and_three_cards_four_with_an_ace() -> None:
    home = home_five_card_draw()
    assert home.game is Game.FIVE_CARD_DRAW
    assert home.forced is Forced.ANTES
    assert home.opener is Opener.JACKS
    assert home.discard_limit(shows_ace=False) == 3
    assert home.discard_limit(shows_ace=True) == 4
    assert rules_for(Game.FIVE_CARD_DRAW, Structure.FIXED).discard_limit(shows_ace=True) == 5


@pytest.mark.parametrize(
    ("cards", "opens"),
    [
        ("Jc Jd 7s 4h 2c", True),
        ("Tc Td As Kh Qc", False),
        ("2c 2d 3s 3h 9c", True),  # two pair opens even when small
        ("Ac Kd Qs Jh 9c", False),
        ("9c Td Js Qh Kc", True),  # a straight
        ("Ac Ad 7s 4h 2c", True),
    ],
)
def test_jacks_or_better_opener(cards: str, opens: bool) -> None:
    assert can_open(parse_cards(cards)) is opens


def test_game_names_for_messages() -> None:
    assert game_name(Game.TRIPLE_DRAW_27) == "2-7 Triple Draw"
    assert game_name(Game.FIVE_CARD_DRAW) == "Five-Card Draw"
