"""Words and numbers as the pages show them: site names, money, counts, times (the game
names are the engine's, ``engine.rules.game_name``)."""

from __future__ import annotations

from engine.money import format_money
from engine.profiles import SITE_NAMES

CURRENCY_NAMES = {"play": "play money", "chips": "chips"}


def site_name(site: object) -> str:
    return SITE_NAMES.get(str(site), str(site))


def money(amount: int, chips: bool = False) -> str:
    """Hundredths as units with two decimals: ``-1234`` is ``-12.34``; tournament chips
    are whole chips (``526000`` is ``5,260``), never shown as money."""
    return format_money(amount, whole=chips, cents=not chips)


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
