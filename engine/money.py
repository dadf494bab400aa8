"""Money as text: the one formatter of hundredths, for every floor.

Amounts are ``int`` hundredths everywhere (cents, or hundredths of a chip).  Players,
sites and tables want them written a few ways - ``1,500`` in a problem's message,
``$1.50`` in a PokerStars line, ``-12.34`` in a report column - so the ways are options
of one function rather than one function each, and the sign is always handled once.
"""

from __future__ import annotations


def format_money(
    amount: int,
    *,
    symbol: str = "",
    cents: bool = False,
    thousands: bool = True,
    whole: bool = False,
) -> str:
    """``amount`` hundredths as text.

    ``cents`` always writes two decimals (``2.00``); otherwise whole units have none
    (``2``, ``0.25``).  ``whole`` writes whole units only, rounded half to even as Python
    rounds (tournament chips: ``5,260``).  ``thousands`` groups the units (``1,500``).
    ``symbol`` goes after the sign: ``-$1.50``.
    """
    sign = "-" if amount < 0 else ""
    units, part = divmod(abs(amount), 100)
    if whole and part:
        units += part > 50 or (part == 50 and units % 2 == 1)
        part = 0
    text = f"{units:,}" if thousands else str(units)
    if part or (cents and not whole):
        text += f".{part:02d}"
    return f"{sign}{symbol}{text}"
