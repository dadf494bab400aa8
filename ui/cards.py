"""Cards drawn as small coloured tiles, hidden cards as backs.

The markup is built only from card *numbers* (0..51, and 52-53 for the jokers of a home
game) through fixed tables, never from text a hand history supplied, so passing it to
``st.html`` cannot carry anything a file wrote.  A four-colour deck (clubs green, diamonds
blue) because in lowball a flush is a hand to notice at a glance; a joker is ``Jk`` in
purple, and the wild cards of a wild-card game sit on a gold tile.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import streamlit as st

from engine.cards import JOKER_TEXT, JOKERS, RANK_CHARS

SUIT_SYMBOLS = "♣♦♥♠"
SUIT_COLOURS = ("#1a7f37", "#1f5fbf", "#c62828", "#222222")
_TILE = (
    "display:inline-block;min-width:2.1em;padding:0.15em 0.25em;margin:0 0.12em;"
    "border:1px solid #9aa0a6;border-radius:0.3em;background:#ffffff;text-align:center;"
    "font-weight:700;font-family:monospace;font-size:1.05em;line-height:1.3;"
)
_BACK = (
    "display:inline-block;min-width:2.1em;padding:0.15em 0.25em;margin:0 0.12em;"
    "border:1px solid #0d3c78;border-radius:0.3em;text-align:center;color:transparent;"
    "font-family:monospace;font-size:1.05em;line-height:1.3;"
    "background:repeating-linear-gradient(45deg,#1f5fbf 0 4px,#0d3c78 4px 8px);"
)


JOKER_COLOUR = "#6a1b9a"
_WILD_TILE = "background:#ffe9a8;border-color:#b8860b;"


def _checked(card: int) -> int:
    if not 0 <= card < 54:
        raise ValueError(f"not a card number: {card}")
    return card


def card_label(card: int) -> str:
    """``7♠``: the rank letter and the suit symbol (``T`` for ten, as the sites write it);
    ``Jk`` for a joker."""
    c = _checked(card)
    if c in JOKERS:
        return JOKER_TEXT
    return RANK_CHARS[c >> 2] + SUIT_SYMBOLS[c & 3]


def cards_label(cards: Sequence[int] | None, hidden: int = 0) -> str:
    """Plain text for tables: ``7♠ 5♦ 4♥`` and ``🂠`` per hidden card."""
    parts = [card_label(c) for c in cards or ()]
    parts += ["🂠"] * hidden
    return " ".join(parts)


def card_html(card: int, wild: bool = False) -> str:
    """One tile; ``wild``: a wild card of the game (gold, and ``dl-wild`` to find it)."""
    c = _checked(card)
    colour = JOKER_COLOUR if c in JOKERS else SUIT_COLOURS[c & 3]
    kind = "dl-card dl-wild" if wild else "dl-card"
    extra = _WILD_TILE if wild else ""
    return f'<span class="{kind}" style="{_TILE}{extra}color:{colour}">{card_label(c)}</span>'



def back_html() -> str:
    return f'<span class="dl-card-back" style="{_BACK}">??</span>'


def cards_html(
    cards: Sequence[int] | None, hidden: int = 0, wild: Collection[int] = ()
) -> str:
    """Tiles for ``cards`` followed by ``hidden`` backs; ``hidden`` is clamped to 0..5;
    the cards in ``wild`` on a gold tile."""
    tiles = [card_html(c, c in wild) for c in cards or ()]
    tiles += [back_html()] * max(0, min(int(hidden), 5))
    return '<span class="dl-cards">' + "".join(tiles) + "</span>"


def show_cards(
    cards: Sequence[int] | None, hidden: int = 0, wild: Collection[int] = ()
) -> None:
    """Render tiles; the markup holds card numbers only (see module docstring)."""
    st.html(cards_html(cards, hidden, wild))
