"""Words and numbers as the pages show them: game and site names, money, counts, times."""

from __future__ import annotations

GAME_NAMES = {
    "27_triple_draw": "2-7 Triple Draw",
    "27_single_draw": "2-7 Single Draw",
    "a5_triple_draw": "A-5 Triple Draw",
    "a5_single_draw": "A-5 Single Draw",
    "five_card_draw": "Five-Card Draw",
}

SITE_NAMES = {
    "pokerstars": "PokerStars",
    "fulltilt": "Full Tilt",
    "winamax": "Winamax",
    "merge": "Merge",
    "kingsclub": "KingsClub",
    "ongame": "OnGame",
    "boss": "Boss",
    "opoker": "Opoker",
    "phh": "PHH",
    "home": "home game",
}

CURRENCY_NAMES = {"play": "play money", "chips": "chips"}


def game_name(game: object) -> str:
    return GAME_NAMES.get(str(game), str(game))


def site_name(site: object) -> str:
    return SITE_NAMES.get(str(site), str(site))


def money(amount: int | float, chips: bool = False) -> str:
    """Hundredths as units with two decimals: ``-1234`` is ``-12.34``; tournament chips
    are whole chips (``526000`` is ``5,260``), never shown as money."""
    sign = "-" if amount < 0 else ""
    if chips:
        return f"{sign}{abs(amount) / 100:,.0f}"
    return f"{sign}{abs(amount) / 100:,.2f}"


def money_kind(tournament: bool, currency: str) -> str:
    """One kind of money, as the money picker offers it: ``Cash games in USD``."""
    if tournament:
        return "Tournaments (chips)" if currency == "chips" else f"Tournaments ({currency})"
    return f"Cash games in {CURRENCY_NAMES.get(currency, currency)}"


def count(n: int, noun: str) -> str:
    """``1 hand``, ``2 hands``, ``1,234 hands``: never "1 hands"."""
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def seconds(value: float | None) -> str:
    """A duration as people read it: ``1.5 s``, ``42 s``, ``2 min 5 s``; ``–`` for none."""
    if value is None or value != value:  # NaN
        return "–"
    if value < 10:
        return f"{value:.1f} s"
    if value < 60:
        return f"{value:.0f} s"
    minutes, rest = divmod(round(value), 60)
    return f"{minutes} min {rest} s" if rest else f"{minutes} min"
