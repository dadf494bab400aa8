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
from parser.pokerstars import (
    _BODY_LINES,
    _HANDLERS,
    GRAMMAR,
    header_parts,
    line_kinds,
)
from parser.pokerstars_writer import write_pokerstars
from tests.parser.test_pokerstars_layouts import HEADS_UP, REBUYS, with_chatter
from tests.parser_corpus import results

HEADER_PARTS = {"HEADER_START", "GAME", "GAME_CASH", "GAME_TOURNAMENT", "STAKES", "TIME"}
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


ODD_HEADERS = (
    "PokerStars Hand #1: Triple Draw 2-7 Lowball Limit ($1/$2 USD)",
    "PokerStars Hand #1:  Badugi Limit - 2010/01/01 - 2011/02/03 10:00:00 ET",
    "PokerStars Hand #1: x - 2010/1/1",
    "PokerStars Hand #1:  - 2010/01/01 10:00:00 ET",
    "PokerStars Hand #1: Mix - 2-7 - 201/01/01 - 2010/1/1 5:00:00 ET",
    "PokerStars Game #7: {Club 'A - B'} Tournament #9, $1+$0.10 USD Badugi Limit - Level I "
    "(10/20) - 2010/01/01 10:00:00 ET",
    "PokerStars Hand #7: Tournament #9, Freeroll  5 Card Draw No Limit - 2010/01/01",
    "PokerStars Home Game Hand #7: {x} ",
    "PokerStars Hand #7:    ",
    "PokerStars Hand #1: Tournament #9,  - 2010/01/01 10:00:00 ET",
    "PokerStars Hand #7: a ",
    "PokerStars Hand #7:",
    "PokerStars Zoom Hand #7: Triple Draw 2-7 Lowball Pot Limit ($0.25/$0.50) - 2010/13/45 9:00:00",
)


@pytest.mark.parametrize(
    "head",
    sorted(
        {t.split("\n", 1)[0].rstrip() for t in stars_texts()}
        | set(ODD_HEADERS)
        | {h.rstrip() for h in ODD_HEADERS}
    ),
)
def test_the_header_read_in_parts_is_the_header_terminal(head: str) -> None:
    """``header_parts`` (the start, then a search for the time) reads what ``HEADER`` reads."""
    full = GRAMMAR.regex("HEADER").match(head)
    parts = header_parts(head)
    if full is None:
        assert parts is None
        return
    assert parts is not None
    m, game, time = parts
    assert (game, time) == (full["game"], full["time"])
    for group in ("kind", "hand_id", "club", "tournament", "buyin"):
        assert m[group] == full[group]


def test_the_body_classifier_reads_the_common_seat_card_and_collected_lines() -> None:
    """The kinds and fields the body's classifier gives the lines every hand has afresh."""
    seat = _BODY_LINES("Seat 10: a b ($1,000.50 in chips)")
    assert seat is not None and seat[0] == "SEAT"
    assert seat[1].group("seat", "player", "stack") == ("10", "a b", "$1,000.50")
    dealt = _BODY_LINES("Dealt to Hero [5h 2s] [2h Ts 4c]")
    assert dealt is not None and dealt[0] == "DEALT"
    assert dealt[1].group("player", "cards", "cards2") == ("Hero", "5h 2s", "2h Ts 4c")
    thrown = _BODY_LINES("Hero: discards 3 cards [Ah Ac Ks]")
    assert thrown is not None and thrown[0] == "DISCARDS"
    assert thrown[1].group("player", "count", "cards") == ("Hero", "3", "Ah Ac Ks")
    shown = _BODY_LINES("Hero: shows [2c 5s 3s 7s 4d] (Lo: 7,5,4,3,2)")
    assert shown is not None and shown[0] == "SHOWS"
    assert shown[1].group("player", "cards") == ("Hero", "2c 5s 3s 7s 4d")
    won = _BODY_LINES("a b collected 1,500 from side pot-2")
    assert won is not None and won[0] == "COLLECTED"
    assert won[1].group("player", "amount", "pot", "side") == ("a b", "1,500", "side pot-2", "2")
    checks = _BODY_LINES("Hero: checks: discards 1 card [Ah]")
    assert checks is not None and checks[0] == "DISCARDS"  # a player may hold ": "
    assert checks[1]["player"] == "Hero: checks"
