"""The quick readings of PokerStars lines are the grammar's readings, or no reading at all.

``parser.pokerstars_quick`` splits the commonest fresh lines by string operations; the
grammar's classifier is the reference.  Every line it answers must get the kind and the
fields the classifier gives; on the lines it leaves alone the classifier reads as ever.
Lines come from the corpus, from dealt hands, from a list of odd names and forms, and
from random lines built of the pieces the proofs turn on (colons, brackets, needles).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.record import Game, Hand, Structure
from engine.sim.dealer import deal_hands
from parser.pokerstars import _BODY_LINES, _SUMMARY_LINES
from parser.pokerstars_quick import card_parts, plain_seat_summary
from parser.pokerstars_writer import write_pokerstars
from tests.parser_corpus import results

_FIELDS = {
    "DEALT": ("cards", "cards2"),
    "DISCARDS": ("count", "cards"),
    "STANDS_PAT": ("cards", None),
    "SHOWS": ("cards", "description"),
}


def stars_lines() -> set[str]:
    texts = [c.text for _, c, o in results() if isinstance(o, Hand) and o.site == "pokerstars"]
    for game, structure, players in (
        (Game.TRIPLE_DRAW_27, Structure.FIXED, 6),
        (Game.TRIPLE_DRAW_27, Structure.FIXED, 2),
        (Game.SINGLE_DRAW_27, Structure.NO_LIMIT, 6),
        (Game.BADUGI, Structure.FIXED, 4),
    ):
        texts += [
            write_pokerstars(h) for h in deal_hands(30, game, players, seed=11, structure=structure)
        ]
    return {line.rstrip() for t in texts for line in t.split("\n") if line.strip()}


ODD_CARD_LINES = (
    "Dealt to Hero [5h Ah 2s Ac Ks]",
    "Dealt to Hero [5h 2s] [2h Ts 4c]",
    "Dealt to Hero [] []",
    "Dealt to Hero [5h 2s] [2h Ts 4c] [3c]",
    "Dealt to Hero [5h 2s] x [2h]",
    "Dealt to Hero [5h 2s]x",
    "Dealt to Hero [5h [2s] [2h]",
    "Dealt to a [b] [Ah Kd]",
    "Dealt to a [b] c [Ah Kd]",
    "Dealt to [x] [5h]",
    "Dealt to  [5h]",
    "Dealt to [5h]",
    "Dealt to a: folds [5h]",
    "Dealt to Seat 1 [5h]",
    "Dealt to x (5 in chips) [5h]",
    "Dealt to x [5h] [",
    "Dealt to Jörg Ünal [5h 2s]",
    "Dealt to 名前 [5h 2s]",
    "Hero: discards 3 cards [Ah Ac Ks]",
    "Hero: discards 1 card [Ah]",
    "Hero: discards 1 card",
    "Hero: discards 2 cards",
    "Hero: discards 1 cards [Ah]",
    "Hero: discards 2 card [Ah Kd]",
    "Hero: discards ٣ cards [Ah Kd 2c]",
    "Hero: discards 10 cards [Ah]",
    "Hero: discards 1 card [Ah] [Kd]",
    "Hero: discards 1 card[Ah]",
    "Hero: discards 1 cardsx [Ah]",
    "Hero: checks: discards 1 card [Ah]",
    "a [b]: discards 1 card [Ah]",
    ": discards 1 card [Ah]",
    "Hero (5 in chips): discards 1 card [Ah]",
    "x: calls 5: shows [Ah]",
    "Hero: shows [2c 5s 3s 7s 4d] (Lo: 7,5,4,3,2)",
    "Hero: shows [2c 5s 3s 7s 4d] (a (b) c)",
    "Hero: shows [2c 5s 3s 7s 4d] ()",
    "Hero: shows [Ah] (x: folds (disconnect)",
    "Hero: shows [Ah] (x: checks (timed out)",
    "Hero: shows [Ah] (Lo: 8,7,6,4,2)",
    "Hero: shows [2c 5s 3s 7s 4d] (",
    "Hero: shows [2c 5s 3s 7s 4d] x)",
    "Hero: shows [2c 5s 3s 7s 4d]",
    "Hero: shows [2c 5s 3s 7s 4d] to draw",
    "Hero: shows [Ah] to draw",
    "Hero: shows [2c] [5s]",
    "*** x: shows [Ah]",
    "Dealt to x: shows [Ah]",
    ": shows [Ah]",
    "Hero: stands pat on [2c 5s 3s 7s 4d]",
    "Hero: stands pat on [2c] [5s]",
    "Hero: stands pat on []",
    "Hero: stands pat on [2c",
    "Hero: stands pat",
    "Hero: stands patty on [2c]",
    "Dealt face up to Hero [Ah]",
    "Hero: folds [Ah Kd]",
    "Board [Ah Kd Qc]",
)


def assert_card_parts_are_the_grammars(line: str) -> None:
    quick = card_parts(line)
    if quick is None:
        return
    found = _BODY_LINES(line)
    assert found is not None, line
    kind, m = found
    assert kind == quick[0], line
    first, second = _FIELDS[kind]
    expected = (kind, m["player"], m[first], None if second is None else m[second])
    assert quick == expected, line


@pytest.mark.parametrize(
    "line", sorted({line for line in stars_lines() if "[" in line} | set(ODD_CARD_LINES))
)
def test_the_quick_card_reading_is_the_grammars(line: str) -> None:
    assert_card_parts_are_the_grammars(line)


def test_the_quick_card_reading_answers_the_common_forms() -> None:
    assert card_parts("Dealt to Hero [5h Ah 2s Ac Ks]") == (
        "DEALT", "Hero", "5h Ah 2s Ac Ks", None,
    )  # fmt: skip
    assert card_parts("Dealt to Hero [5h 2s] [2h Ts 4c]") == ("DEALT", "Hero", "5h 2s", "2h Ts 4c")
    assert card_parts("Dealt to a b [5h]") == ("DEALT", "a b", "5h", None)
    assert card_parts("a b: discards 3 cards [Ah Ac Ks]") == (
        "DISCARDS", "a b", "3", "Ah Ac Ks",
    )  # fmt: skip
    assert card_parts("Hero: discards 1 card [Ah]") == ("DISCARDS", "Hero", "1", "Ah")
    assert card_parts("Hero: stands pat on [2c 5s 3s 7s 4d]") == (
        "STANDS_PAT", "Hero", "2c 5s 3s 7s 4d", None,
    )  # fmt: skip
    assert card_parts("Hero: shows [2c 5s] (Lo: 7,5)") == ("SHOWS", "Hero", "2c 5s", "Lo: 7,5")
    assert card_parts("Hero: shows [2c 5s]") == ("SHOWS", "Hero", "2c 5s", None)
    # the kind's own terminal reads the line, so its odd forms are the grammar's too
    assert card_parts("Hero: discards ٣ cards [Ah Kd 2c]") == (
        "DISCARDS", "Hero", "٣", "Ah Kd 2c",
    )  # fmt: skip
    assert card_parts("Dealt to a [b] c [Ah Kd]") == ("DEALT", "a [b] c", "Ah Kd", None)
    assert card_parts("Dealt to my [name] [5h 2s] [2h Ts 4c]") == (
        "DEALT", "my [name]", "5h 2s", "2h Ts 4c",
    )  # fmt: skip
    for left in (
        "Hero: checks: discards 1 card [Ah]",  # a needle of a kind tried before
        "Dealt to a: folds [5h]",
        "Hero (5 in chips): discards 1 card [Ah]",  # SEAT's needle
        "*** x: shows [Ah]",  # DRAW_STREET's
        "Hero: shows [Ah] (x: folds (disconnect)",  # FOLDS' in the description
        "Hero: shows [Ah] to draw",  # SHOWS_TO_DRAW, tried after SHOWS
    ):
        assert card_parts(left) is None, left


ODD_SUMMARY_LINES = (
    "Seat 1: Hero (button) folded before the Draw",
    "Seat 1: Hero (small blind) folded after the 3rd Draw (didn't bet)",
    "Seat 1: Hero folded on the 2nd Draw",
    "Seat 1: Hero folded before Flop",
    "Seat 1: folded before the Draw",
    "Seat 1:  folded before the Draw",
    "Seat 1: a folded before the Drawx",
    "Seat 1: a folded x folded before the Draw",
    "Seat 1: a folded before the Draw folded",
    "Seat 1: Hero collected ($0.45)",
    "Seat 1: Hero (big blind) collected ($0.45), mucked",
    "Seat 1: Hero collected ($0.45) and more",
    "Seat 1: Hero collected ($0.45",
    "Seat 1: Hero collected (a) collected (b)",
    "Seat 1: Hero collected (a collected (b)",
    "Seat 1: collected ($1)",
    "Seat 1: x collected ($1), mucked",
    "Seat 1: Hero mucked",
    "Seat 1: mucked",
    "Seat 1: Hero is sitting out",
    "Seat 1: Hero sat out",
    "Seat 1: Hero mucked [Ah Kd]",
    "Seat 1: Hero showed [Ah Kd] and won ($1)",
    "Seat 1: Hero didn't show and won ($1)",
    "Seat 1: Hero cashed out the hand",
    "Seat 12: Hero folded before the Draw",
    "Seat ١: Hero folded before the Draw",
    "Seat x: Hero folded before the Draw",
    "Seat : Hero folded before the Draw",
    "Seat 1 Hero folded before the Draw",
    "Seat 1: Hero: folded before the Draw",
    "Total pot $0.45 | Rake $0",
    "Seat 1: Hero (button) showed [Ah Kd] and lost",
    "Seat 1: Hero showed [Ah Kd] and collected ($1) with a 7-5 low",
    "Seat 1: Hero showed [Ah Kd] and won ($1) with [Ah]",
    "Seat 1: Hero showed [Ah Kd] and won ($1",
    "Seat 1: Hero showed [Ah Kd] and won ($1) x",
    "Seat 1: Hero showed [Ah Kd] and wonx",
    "Seat 1: Hero showed [Ah Kd and won ($1)",
    "Seat 1: Hero showed [] and lost",
    "Seat 1: showed [Ah] and lost",
    "Seat 1:  showed [Ah] and lost",
    "Seat 1: a showed [b] c showed [Ah] and lost",
    "Seat 1: a showed [b] and lost mucked [Ah]",
    "Seat 1: Hero mucked [Ah] showed [Kd] and lost",
    "Seat 1: Jörg [x] showed [Ah Kd] and won (€1,00)",
)


def assert_plain_summary_is_the_grammars(line: str) -> None:
    if not plain_seat_summary(line):
        return
    found = _SUMMARY_LINES(line)
    assert found is not None and found[0] == "SEAT_SUMMARY", line
    assert found[1]["mucked"] is None, line


@pytest.mark.parametrize(
    "line",
    sorted({line for line in stars_lines() if line.startswith("Seat ")} | set(ODD_SUMMARY_LINES)),
)
def test_the_quick_summary_reading_is_the_grammars(line: str) -> None:
    assert_plain_summary_is_the_grammars(line)


def test_the_quick_summary_reading_answers_the_common_forms() -> None:
    for line in ODD_SUMMARY_LINES[:4] + ODD_SUMMARY_LINES[9:11] + ODD_SUMMARY_LINES[19:21]:
        assert plain_seat_summary(line), line
    for line in (
        "Seat 1: Hero showed [Ah Kd] and won ($1)",
        "Seat 1: Hero (button) showed [Ah Kd] and lost",
        "Seat 1: Hero showed [Ah Kd] and collected ($1) with a 7-5 low",
        "Seat 1: Jörg [x] showed [Ah Kd] and won (€1,00)",
    ):
        assert plain_seat_summary(line), line
    for line in (
        "Seat 1: folded before the Draw",
        "Seat 1: mucked",
        "Seat 1: Hero mucked [Ah]",
        "Seat 1: a showed [b] and lost mucked [Ah]",  # ends with a bracket: the grammar's
        "Seat 1: Hero showed [Ah Kd] and won ($1) x",
        "Seat 1: showed [Ah] and lost",
    ):
        assert not plain_seat_summary(line), line


_PIECES = (
    "Dealt to ", "Seat ", "1", "٣", "x", " ", ": ", ":", "[", "]", " [", "] [", "(", ")",
    " (", "Ah Kd", "discards ", " card", " cards", "s", "stands pat", " on ", "shows ",
    "folds", "checks", " in chips", "*** ", "folded before the Draw", " folded ", "collected",
    " (didn't bet)", "mucked", ", mucked", " is sitting out", "sat out", "ü", " showed [",
    " and won", " and lost", " with ", "($1)",
)  # fmt: skip


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(
    st.sampled_from(("", "Dealt to ", "Seat 1: ", "Hero", "Hero: ")),
    st.lists(st.sampled_from(_PIECES), min_size=1, max_size=12),
)
def test_random_lines_read_quickly_are_read_as_the_grammar_reads_them(
    start: str, pieces: list[str]
) -> None:
    line = start + "".join(pieces)
    assert_card_parts_are_the_grammars(line)
    assert_plain_summary_is_the_grammars(line)
