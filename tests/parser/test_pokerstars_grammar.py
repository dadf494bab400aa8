"""The PokerStars grammar file and its transformer agree, and real hands follow its rules.

The reader classifies lines with the grammar's terminals and checks their order itself,
for speed; here Lark's LALR parser runs the grammar's rules over the same classification,
so the rules in ``pokerstars.lark`` stay a true description of the files.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from lark import Lark, Token
from lark.exceptions import UnexpectedInput
from lark.lexer import Lexer

from engine.record import Game, Hand, Structure
from engine.sim.dealer import deal_hands
from parser.lines import GRAMMARS
from parser.pokerstars import _HANDLERS, GRAMMAR, line_kinds
from parser.pokerstars_writer import write_pokerstars
from tests.parser.test_pokerstars_layouts import HEADS_UP, REBUYS, with_chatter
from tests.parser_corpus import results

HEADER_PARTS = {"GAME", "GAME_CASH", "GAME_TOURNAMENT", "STAKES", "TIME"}
CONTROL = {"HEADER", "TABLE", "SUMMARY", "CANCELLED"}


class _Lines(Lexer):
    """Tokens are whole lines, already classified."""

    def __init__(self, conf: Any) -> None:
        pass

    def lex(self, data: Any) -> Iterator[Token]:  # type: ignore[override]
        for name, text in data:
            yield Token(name, text)


RULES = Lark.open(str(GRAMMARS / "pokerstars.lark"), parser="lalr", lexer=_Lines)


def follows_rules(text: str) -> bool:
    try:
        RULES.parse(list(line_kinds(text)))  # type: ignore[arg-type]
    except UnexpectedInput:
        return False
    return True


def test_every_line_terminal_has_a_transformer_and_every_transformer_a_terminal() -> None:
    terminals = set(GRAMMAR.kinds) - HEADER_PARTS - CONTROL
    assert terminals == set(_HANDLERS)


def stars_texts() -> list[str]:
    texts = [c.text for _, c, o in results() if isinstance(o, Hand) and o.site == "pokerstars"]
    for game, structure in (
        (Game.TRIPLE_DRAW_27, Structure.FIXED),
        (Game.SINGLE_DRAW_27, Structure.NO_LIMIT),
    ):
        texts += [write_pokerstars(h) for h in deal_hands(20, game, 6, seed=7, structure=structure)]
    return texts


@pytest.mark.parametrize("text", stars_texts())
def test_real_and_written_hands_follow_the_grammar_rules(text: str) -> None:
    assert follows_rules(text)


def test_the_rules_refuse_lines_out_of_order() -> None:
    text = stars_texts()[0]
    lines = text.split("\n")
    assert not follows_rules("\n".join([lines[1], lines[0], *lines[2:]]))
    summary = lines.index("*** SUMMARY ***")
    assert not follows_rules("\n".join([*lines[: summary + 1], lines[summary - 1]]))


def test_the_rules_take_notes_before_the_seats_and_unknown_lines_anywhere() -> None:
    assert follows_rules(REBUYS)
    assert follows_rules(with_chatter(HEADS_UP))
    assert follows_rules(HEADS_UP + "Something the summary never says\n")
    kinds = [name for name, _ in line_kinds(with_chatter(HEADS_UP))]
    assert kinds.count("UNKNOWN") == 1 and kinds[kinds.index("UNKNOWN") - 1] == "DEALT"
    # a line of play after the seats, then a seat line: out of order
    lines = HEADS_UP.split("\n")
    assert not follows_rules(
        "\n".join([*lines[:5], lines[3].replace("Seat 2", "Seat 3"), *lines[5:]])
    )
