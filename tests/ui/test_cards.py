"""Card tiles: the one place the dashboard builds markup itself, from card numbers only."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import parse_cards
from ui.cards import back_html, card_label, cards_html, cards_label


def test_card_label_uses_suit_symbols() -> None:
    assert [card_label(c) for c in parse_cards("7s 5d 4h 3c Ts")] == ["7♠", "5♦", "4♥", "3♣", "T♠"]


def test_cards_label_adds_backs_for_hidden_cards() -> None:
    assert cards_label(parse_cards("2c 3d"), hidden=3) == "2♣ 3♦ 🂠 🂠 🂠"
    assert cards_label(None) == ""


def test_suits_have_four_colours() -> None:
    html = cards_html(parse_cards("2c 2d 2h 2s"))
    assert re.findall(r"color:(#[0-9a-f]{6})\">", html) == [
        "#1a7f37", "#1f5fbf", "#c62828", "#222222",
    ]


def test_hidden_cards_are_backs_and_clamped_to_five() -> None:
    assert cards_html((), hidden=2).count(back_html()) == 2
    assert cards_html((), hidden=9).count(back_html()) == 5
    assert cards_html((), hidden=-1).count("dl-card-back") == 0


@pytest.mark.parametrize("bad", [-1, 52, 1000])
def test_card_numbers_outside_the_deck_are_refused(bad: int) -> None:
    with pytest.raises(ValueError):
        cards_html((bad,))


@given(st.lists(st.integers(0, 51), max_size=5), st.integers(0, 5))
def test_tile_markup_holds_only_rank_and_suit_text(cards: list[int], hidden: int) -> None:
    html = cards_html(cards, hidden)
    text = re.sub(r"<[^>]*>", "", html)
    assert text == "".join(card_label(c) for c in cards) + "??" * hidden
