"""Shared pieces of the site readers (parser/lines.py): money, cards, numbered chunks, the
hand builder, and the tolerant line reader."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import parse_cards
from engine.problems import UNKNOWN_LINE
from engine.record import Action, ActionKind, Draw, PostKind
from engine.verdict import Problem, Severity
from parser.builder import HandBuilder, draw_with, hand_change
from parser.lines import (
    Classifier,
    FieldError,
    LineHandler,
    MoneyError,
    about_chips_or_cards,
    cards,
    join_numbered,
    literal_lead,
    money,
    numbered_hands,
    read_lines,
    site_grammar,
)
from parser.outcome import HandText, ParseError
from tests.parser_corpus import results


@pytest.mark.parametrize(
    ("text", "hundredths"),
    [
        ("$1,500", 150000), ("1,200", 120000), ("0.50", 50), ("$0.05", 5), ("12.15", 1215),
        ("$6,795.50", 679550), ("2047.50€", 204750), ("25€", 2500), ("0.5", 50), ("$0", 0),
    ],
)  # fmt: skip
def test_money_is_exact_hundredths(text: str, hundredths: int) -> None:
    assert money(text) == hundredths


@pytest.mark.parametrize("text", ["", "1,2,3", "$1.234", "12,34", "abc", "1.2.3", None])
def test_money_refuses_what_is_no_amount(text: str | None) -> None:
    with pytest.raises(FieldError):
        money(text)


@given(st.integers(0, 10**12))
def test_money_reads_every_written_amount(cents: int) -> None:
    whole, part = divmod(cents, 100)
    assert money(f"${whole:,}.{part:02d}") == cents
    assert money(f"{whole}.{part:02d}€") == cents


def _money_by_expression(text: str) -> int | None:
    """``money`` as the expression alone reads it (None for a FieldError): the reference
    its quick path for the common forms must agree with."""
    from parser.lines import _MONEY

    m = _MONEY.fullmatch(text.strip())
    if m is None:
        return None
    return int(m.group(1).replace(",", "")) * 100 + int((m.group(2) or "0").ljust(2, "0"))


def _money_or_none(text: str) -> int | None:
    try:
        return money.__wrapped__(text)
    except FieldError:
        return None


@given(st.text(alphabet="0123456789.,$€£₹ E٣²-", max_size=9))
def test_money_quick_forms_read_as_the_expression_reads_them(text: str) -> None:
    assert _money_or_none(text) == _money_by_expression(text), text


@pytest.mark.parametrize(
    "text",
    ["$7.30", "7.3", "7.", ".5", "$", "$$1", "0007", "1.005", "٣", "²", "$ 5", "5 ", " 5",
     "€0.05", "1,500.5", "$1.2€", "-5", "1e3", "12.٣"],
)  # fmt: skip
def test_money_quick_path_edges(text: str) -> None:
    assert _money_or_none(text) == _money_by_expression(text), text


def test_cards_keep_repeats_for_the_replay_to_judge() -> None:
    assert cards("6h Ks Ks") == parse_cards("6h Ks", distinct=False) + parse_cards("Ks")
    assert cards("7s, 5d") == parse_cards("7s 5d")
    with pytest.raises(FieldError):
        cards("X X")


def test_join_numbered_puts_back_the_dropped_blank_lines() -> None:
    assert join_numbered([(3, "a"), (5, "b"), (6, "c")], 3) == "a\n\nb\nc"


@given(st.lists(st.sampled_from(["H 1", "x", "", "y"]), max_size=30))
def test_numbered_hands_loses_no_line_and_keeps_numbers(lines: list[str]) -> None:
    numbered = list(enumerate(lines, 1))
    chunks = list(numbered_hands(numbered, lambda s: s.startswith("H"), "f", "site"))
    for chunk in chunks:
        for i, text in enumerate(chunk.text.split("\n")):
            assert text in ("", lines[chunk.line + i - 1])
    kept = [t for c in chunks for t in c.text.split("\n") if t]
    assert kept == [t for t in lines if t]


def test_hand_change_tells_thrown_kept_and_new_cards() -> None:
    before, after = parse_cards("Tc 9h 7c Ah Jh"), parse_cards("8h 9h 6s Ah Jh")
    assert hand_change(before, after) == (
        parse_cards("Tc 7c"), parse_cards("9h Ah Jh"), parse_cards("8h 6s"),
    )  # fmt: skip


def test_draw_with_fills_the_cards_a_later_line_states_and_keeps_the_rest() -> None:
    # the one way every reader fills a draw in place (PokerStars' "Dealt to", its ace shown
    # to draw, PHH's "d dh"): the run and discards stay, the three given replace theirs
    first = Draw("Bob", 2, 2, 41, discarded=(4, 9), kept=None, received=None, run=1, shown=None)
    filled = draw_with(first, kept=(1, 2, 3), received=(50, 51), shown=(48,), discarded=(4, 9))
    assert filled == Draw(
        "Bob", 2, 2, 41, discarded=(4, 9), kept=(1, 2, 3), received=(50, 51), run=1, shown=(48,)
    )
    assert draw_with(filled, kept=None, received=None, shown=None, discarded=(4, 9)) == first
    # the other readers' way in, through the builder: the discards only where a line says
    builder = HandBuilder()
    builder.steps.append(first)
    builder.fill_draw(0, kept=(1, 2, 3), received=(50, 51))
    assert builder.steps[0] == replace(first, kept=(1, 2, 3), received=(50, 51))
    builder.fill_draw(0, kept=(7,), received=(8,), discarded=(5,))
    assert builder.steps[0] == replace(first, discarded=(5,), kept=(7,), received=(8,))


def test_builder_counts_live_posts_and_classifies_an_all_in_by_the_totals() -> None:
    b = HandBuilder()
    b.post("A", PostKind.ANTE, 10, 1)
    b.post("A", PostKind.SMALL_BLIND, 50, 2)
    b.post("B", PostKind.BIG_BLIND, 100, 3)
    b.post("C", PostKind.BOTH_BLINDS, 150, 4, dead=50)
    b.call_to("C", 5, 100)  # C's live 100 already matches: adds nothing
    b.push("A", 6, 30)  # 50 + 30 < 100: an all-in call for less
    b.push("B", 7, 200)  # to 300: an all-in raise
    assert b.steps[4:] == [
        Action("C", 0, ActionKind.CALL, 5, 0),
        Action("A", 0, ActionKind.CALL, 6, 30, None, True),
        Action("B", 0, ActionKind.RAISE, 7, 200, 300, True),
    ]
    b.draw("A", 2, 8)  # a draw line opens the draw round when no marker did
    b.bet_to("B", 9, 200)
    assert b.steps[-2:] == [Draw("A", 1, 2, 8), Action("B", 1, ActionKind.BET, 9, 200, 200)]


def test_one_error_type_for_every_field_that_does_not_read() -> None:
    assert MoneyError is FieldError
    with pytest.raises(FieldError):
        money("ten")
    assert money("₹1,000") == 100000


def _grammar_sections() -> tuple[Classifier, ...]:
    g = site_grammar("fulltilt.lark")
    return (
        g.classifier(("SEAT", "CHAT")),
        g.classifier(("FOLDS", "CALLS", "CHAT")),
        g.classifier(("SUMMARY", "TOTAL_POT")),
    )


def _read(text: str) -> tuple[HandBuilder, list[tuple[str, int, re.Match[str]]]]:
    b = HandBuilder()
    seen: list[tuple[str, int, re.Match[str]]] = []

    def handler(kind: str) -> LineHandler:
        def handle(m: re.Match[str], line: int, _text: str) -> None:
            seen.append((kind, line, m))
            if kind == "SEAT":
                b.seat(int(m["seat"]), m["player"], money(m["stack"]), line)

        return handle

    handlers = {k: handler(k) for k in ("SEAT", "FOLDS", "CALLS", "CHAT", "SUMMARY")}
    read_lines(HandText("f.txt", 10, text), _grammar_sections(), handlers, b)
    return b, seen


def test_read_lines_moves_forward_through_sections_and_warns_on_the_rest() -> None:
    b, seen = _read(
        "HEADER\nSeat 1: Ann ($5)\nAnn folds\n\nAnn does a dance\nSeat 2: Bo ($5)\n"
        "*** SUMMARY ***\nAnn calls $1"
    )
    assert [(k, line) for k, line, _ in seen] == [("SEAT", 11), ("FOLDS", 12), ("SUMMARY", 16)]
    assert b.warnings == [
        Problem(UNKNOWN_LINE, Severity.WARNING, 14,
                "a line this reader does not know: Ann does a dance"),
        Problem(UNKNOWN_LINE, Severity.WARNING, 15, "a line out of place: Seat 2: Bo ($5)"),
        Problem(UNKNOWN_LINE, Severity.WARNING, 17, "a line out of place: Ann calls $1"),
    ]  # fmt: skip


def test_read_lines_refuses_a_seated_players_chips_that_do_not_read() -> None:
    with pytest.raises(ParseError) as info:
        _read("HEADER\nSeat 1: Ann ($5)\nAnn calls a lot")
    e = info.value
    assert (e.file, e.line, e.column, e.line_text) == ("f.txt", 12, 1, "Ann calls a lot")
    with pytest.raises(ParseError) as bad_seat:
        _read("HEADER\nSeat 1: Ann ($1,2,3)")
    assert (bad_seat.value.line, bad_seat.value.message) == (11, "not an amount: '$1,2,3'")


@pytest.mark.parametrize(
    ("text", "about"),
    [
        ("Ann calls $1", True), ("Ann: bets ten", True), ("Ann stands pat on []", True),
        ("Ann fumbles", False), ("Anna calls $1", False), ("Bob calls $1", False),
        ("Ann callsx", False),
    ],
)  # fmt: skip
def test_a_line_about_chips_or_cards_starts_with_a_seated_name_and_a_verb(
    text: str, about: bool
) -> None:
    assert about_chips_or_cards(text, ["Ann"]) is about


def test_spaced_cards_reads_the_second_joker_of_two() -> None:
    """The joker test runs only on texts naming a joker; both jokers come out apart."""
    from engine.cards import JOKER, SECOND_JOKER, parse_cards
    from parser.lines import spaced_cards

    assert spaced_cards("7s 5d 4h") == parse_cards("7s 5d 4h", distinct=False)
    assert spaced_cards("Jk 5d") == (JOKER, parse_cards("5d")[0])
    assert spaced_cards("Jk Jk 5d") == (JOKER, SECOND_JOKER, parse_cards("5d")[0])
    assert spaced_cards("Jk Jk2") == (JOKER, SECOND_JOKER)
    assert spaced_cards("kh Kh") == spaced_cards("Kh Kh")  # a lower-case rank, no joker


@pytest.mark.parametrize(
    ("regexp", "lead"),
    [
        (r"Seat (\d+): (.+)", "Seat "), (r"\*\*\* SUMMARY \*\*\*", "*** SUMMARY ***"),
        (r"Dealt\ to\ (?P<player>.+?)", "Dealt to "), (r"(.+) folds", ""), (r"ab?c", "a"),
        (r"abc*", "ab"), (r"ab+c", "ab"), (r"a\*?b", "a"), (r"\d+ x", ""), (r"ab|cd", ""),
        (r"(?!Seat \d+: )([^:]+): (.*)", ""), (r"Total pot[.]", "Total pot"),
    ],
)  # fmt: skip
def test_literal_lead_is_the_text_every_match_starts_with(regexp: str, lead: str) -> None:
    assert literal_lead(regexp) == lead


def _site_lines(site: str) -> list[str]:
    """Every line of the corpus's hands of one site, and each with a character cut out at
    its start, middle and end (lines no kind may read, or another kind reads)."""
    lines = {
        line
        for _, chunk, _ in results()
        if chunk.site == site
        for line in chunk.text.split("\n")
        if line.strip()
    }
    cut = {line[:i] + line[i + 1 :] for line in lines for i in (0, len(line) // 2, -1)}
    return sorted(lines | cut)


@pytest.mark.parametrize(
    ("grammar", "site"),
    [
        ("fulltilt.lark", "fulltilt"), ("winamax.lark", "winamax"),
        ("kingsclub.lark", "kingsclub"), ("ongame.lark", "ongame"),
    ],
)  # fmt: skip
def test_every_sites_classifier_answers_the_first_kind_whose_pattern_matches(
    grammar: str, site: str
) -> None:
    """The leads and needles only skip kinds that cannot match: the answer is the first
    kind, in the order given, whose pattern matches the whole line."""
    g = site_grammar(grammar)
    classifier = g.classifier(g.kinds)
    lines = _site_lines(site)
    assert len(lines) > 100
    for line in lines:
        first = next((k for k in g.kinds.values() if k.regex.match(line)), None)
        found = classifier(line)
        expected = None if first is None else (first.name, first.regex.match(line))
        assert (found and (found[0], found[1].groups())) == (
            expected and (expected[0], expected[1] and expected[1].groups())
        ), line
