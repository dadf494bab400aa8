"""Words and numbers as the pages show them: site names, money, counts, times (the game
names are the engine's, ``engine.rules.game_name``)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from analysis.sites import SITE_NAMES as SITE_NAMES
from analysis.sites import site_name as site_name
from analysis.statistics.text import count as count
from engine.money import format_money

CURRENCY_NAMES = {"play": "play money", "chips": "chips"}
_MARKDOWN = str.maketrans({c: f"\\{c}" for c in "\\`*_{}[]()<>#+-.!|~$:"})


def plain(text: str) -> str:
    """A player's own text (a statistic's name or definition) for a place Streamlit
    reads as Markdown (a label, a tooltip): every sign Markdown acts on escaped."""
    return text.translate(_MARKDOWN)


# the signs people read without doubt; any other currency is written with its code
CURRENCY_SIGNS = {"USD": "$", "EUR": "€", "GBP": "£"}


def money(amount: int, chips: bool = False, currency: str | None = None) -> str:
    """Hundredths as units with two decimals: ``-1234`` is ``-12.34``, ``-$12.34`` in
    USD, ``-12.34 CAD`` in a currency without a sign of its own; tournament chips are
    whole chips (``526000`` is ``5,260``), never shown as money."""
    if chips:
        return format_money(amount, whole=True)
    sign = CURRENCY_SIGNS.get(currency or "", "")
    text = format_money(amount, cents=True, symbol=sign)
    if currency and not sign and currency not in CURRENCY_NAMES:
        return f"{text} {currency}"
    return text


# the grid's own formats for the signs it knows: a minus before the sign (``-$12.34``)
_GRID_PRESETS = {"USD": "dollar", "EUR": "euro"}


def money_format(chips: bool, currency: str) -> str:
    """``money``'s text as a table column's format (``st.column_config.NumberColumn``),
    for a column of units (hundredths / 100): the browser formats each cell, so the
    numbers stay numbers to sort by and no cell's text is sent."""
    if chips:
        return "%,d"
    if currency in _GRID_PRESETS:
        return _GRID_PRESETS[currency]
    sign = CURRENCY_SIGNS.get(currency, "")
    if currency and not sign and currency not in CURRENCY_NAMES:
        return f"%,.2f {currency}"
    return f"{sign}%,.2f"


def stakes_label(stakes: object, tournament: bool, currency: str) -> str:
    """Stakes as the filters offer them, with their money: ``$0.10/$0.20``,
    ``0.50/1 CAD``, ``250,000/500,000 chips``."""
    parts = str(stakes).split("/")
    try:
        amounts = [round(Decimal(p) * 100) for p in parts]
    except (InvalidOperation, ValueError):
        return str(stakes)
    if tournament or currency == "chips":
        return "/".join(format_money(a, whole=True) for a in amounts) + " chips"
    sign = CURRENCY_SIGNS.get(currency, "")
    text = "/".join(format_money(a, symbol=sign) for a in amounts)
    if sign or currency in CURRENCY_NAMES or not currency:
        return text
    return f"{text} {currency}"


def money_kind(tournament: bool, currency: str) -> str:
    """One kind of money, as the money picker offers it: ``Cash games in USD``."""
    if tournament:
        return "Tournaments (chips)" if currency == "chips" else f"Tournaments ({currency})"
    return f"Cash games in {CURRENCY_NAMES.get(currency, currency)}"


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
