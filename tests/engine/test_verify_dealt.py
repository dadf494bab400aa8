"""Dealt hands (random but legal, every game) verify clean, and so do their written forms.

The dealer shares the state machine with the replay, but the cards, pots, collected
amounts and rake it writes are checked here by the tracker and the settlement, which the
dealer does not use; and the PokerStars text and PHH the writers make are read back by the
parsers before they are verified.
"""

from __future__ import annotations

import pytest

from engine.record import Game
from engine.sim.dealer import deal_hands
from engine.verify import verify
from parser.phh import read_phh, write_phh
from parser.pokerstars_writer import write_pokerstars
from parser.reader import read_text


@pytest.mark.parametrize("game", list(Game))
@pytest.mark.parametrize("players", [2, 3, 6])
def test_dealt_hands_verify_without_a_remark(game: Game, players: int) -> None:
    for hand in deal_hands(40, game, players, seed=11 + players):
        assert verify(hand).problems == (), hand.hand_id


@pytest.mark.parametrize("game", [Game.TRIPLE_DRAW_27, Game.SINGLE_DRAW_27, Game.FIVE_CARD_DRAW])
def test_written_and_read_back_dealt_hands_verify_without_a_remark(game: Game) -> None:
    for hand in deal_hands(25, game, 4, seed=5):
        phh = read_phh(write_phh(hand), "dealt.phh")
        assert verify(phh).problems == (), ("phh", hand.hand_id)
        [(_, stars)] = list(read_text(write_pokerstars(hand), "dealt.txt"))
        assert not isinstance(stars, Exception)
        assert verify(stars).problems == (), ("pokerstars", hand.hand_id)  # type: ignore[arg-type]
