"""Money as text: the one formatter of hundredths, for every floor.

Amounts are ``int`` hundredths everywhere (cents, or hundredths of a chip).  Players,
sites and tables want them written a few ways - ``1,500`` in a problem's message,
``$1.50`` in a PokerStars line, ``-12.34`` in a report column - so the ways are options
of one function rather than one function each, and the sign is always handled once.
"""

from __future__ import annotations


def format_money(
    amount: int, *, symbol: str = "", cents: bool = False, thousands: bool = True
) -> str:
    """``amount`` hundredths as text.

    ``cents`` always writes two decimals (``2.00``); otherwise whole units have none
    (``2``, ``0.25``).  ``thousands`` groups the units (``1,500``).  ``symbol`` goes after
    the sign: ``-$1.50``.
    """
    sign = "-" if amount < 0 else ""
    whole, part = divmod(abs(amount), 100)
    text = f"{whole:,}" if thousands else str(whole)
    if part or cents:
        text += f".{part:02d}"
    return f"{sign}{symbol}{text}"
