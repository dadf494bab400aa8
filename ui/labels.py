"""Words and numbers as the pages show them: game names, money in units."""

from __future__ import annotations

GAME_NAMES = {
    "27_triple_draw": "2-7 Triple Draw",
    "27_single_draw": "2-7 Single Draw",
    "a5_triple_draw": "A-5 Triple Draw",
    "a5_single_draw": "A-5 Single Draw",
    "five_card_draw": "Five-Card Draw",
}


def game_name(game: object) -> str:
    return GAME_NAMES.get(str(game), str(game))


def money(amount: int | float) -> str:
    """Hundredths as units with two decimals: ``-1234`` is ``-12.34``."""
    sign = "-" if amount < 0 else ""
    return f"{sign}{abs(amount) / 100:,.2f}"
