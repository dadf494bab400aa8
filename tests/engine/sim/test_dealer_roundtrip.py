"""A dealt hand written through the parser's writers and read back is the same hand.

The dealer records only what a site's history shows, so nothing is lost on the way: the
comparison is exact except for where things stand in a file (``file`` and the ``line`` of
every element), which a dealt hand does not have, and the site name the reader gives.
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.record import Game, Hand, Structure
from engine.sim.dealer import deal_hands
from engine.verify import verify
from parser.phh import read_phh, write_phh
from parser.pokerstars_writer import write_pokerstars
from parser.reader import read_text

GAMES = [
    (Game.TRIPLE_DRAW_27, Structure.FIXED, 6),
    (Game.TRIPLE_DRAW_27, Structure.POT, 3),
    (Game.SINGLE_DRAW_27, Structure.NO_LIMIT, 6),
    (Game.TRIPLE_DRAW_A5, Structure.FIXED, 4),
    (Game.SINGLE_DRAW_A5, Structure.FIXED, 2),
    (Game.FIVE_CARD_DRAW, Structure.FIXED, 6),
    (Game.FIVE_CARD_DRAW, Structure.POT, 5),
    (Game.FIVE_CARD_DRAW, Structure.NO_LIMIT, 2),
]


def placeless(hand: Hand) -> Hand:
    """The hand without its place in a file, for comparing a record with its re-reading."""
    return dataclasses.replace(
        hand,
        file="",
        line=0,
        site="",
        seats=tuple(dataclasses.replace(s, line=0) for s in hand.seats),
        steps=tuple(dataclasses.replace(s, line=0) for s in hand.steps),
    )


def read_one(text: str, file: str) -> Hand:
    outcomes = list(read_text(text, file))
    assert len(outcomes) == 1
    parsed = outcomes[0][1]
    assert isinstance(parsed, Hand), parsed
    return parsed


@pytest.mark.parametrize(("game", "structure", "players"), GAMES)
def test_pokerstars_text_reads_back_into_the_dealt_hand(
    game: Game, structure: Structure, players: int
) -> None:
    for hand in deal_hands(60, game, players, seed=players + 40, structure=structure):
        parsed = read_one(write_pokerstars(hand), "dealt.txt")
        assert parsed.site == "pokerstars"
        assert placeless(parsed) == placeless(hand)
        assert verify(parsed).problems == ()  # and the text, with its lines, verifies


@pytest.mark.parametrize(("game", "structure", "players"), GAMES)
def test_phh_text_reads_back_into_the_dealt_hand(
    game: Game, structure: Structure, players: int
) -> None:
    for hand in deal_hands(40, game, players, seed=players + 50, structure=structure):
        parsed = read_phh(write_phh(hand), "dealt.phh")
        assert placeless(parsed) == placeless(hand)
        assert parsed.site == hand.site  # the record's own site travels in the PHH file
        assert verify(parsed).problems == ()
