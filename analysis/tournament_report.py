"""``drawlab tournaments`` as text and JSON lines: the list, newest first, then totals.

Kept apart from ``cli.py`` so that the command line only parses its options, and from
``analysis.tournaments`` so that the figures stay free of presentation.  Amounts are
written with their currency's sign; play money as whole chips.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from analysis.tournaments import Totals, TournamentResult, totals
from engine.money import format_money
from engine.tournament import PLAY_MONEY

_SIGNS = {"USD": "$", "EUR": "€", "GBP": "£"}


def amount_text(amount: int, currency: str) -> str:
    """``$1,050.00``, ``€0.90``, ``9,200 FTP``, ``10,900`` (play money, whole chips)."""
    if currency == PLAY_MONEY:
        return format_money(amount, whole=True)
    sign = _SIGNS.get(currency)
    if sign is not None:
        return format_money(amount, symbol=sign, cents=True)
    return f"{format_money(amount)} {currency}".rstrip()


def json_lines(results: list[TournamentResult]) -> Iterator[str]:
    """One JSON object per tournament, exactly ``JSON_KEYS``."""
    for r in results:
        yield json.dumps(r.as_json(), ensure_ascii=False)


def text(results: list[TournamentResult]) -> str:
    """The table of tournaments, then one totals block per currency."""
    if not results:
        return "no tournaments"
    lines = [f"{'started':<16}  {'site':<10}  {'tournament':<32}  {'game':<18}  "
             f"{'buy-in':>10}  {'place':>9}  {'prize':>11}  {'net':>11}"]
    for r in results:
        started = r.started.strftime("%Y-%m-%d %H:%M") if r.started else "-"
        place = "running" if r.place is None else f"{r.place}/{r.entrants or '?'}"
        name = f"{r.name} #{r.tournament_id}" if r.name else f"#{r.tournament_id}"
        lines.append(
            f"{started:<16}  {r.site:<10}  {name[:32]:<32}  {r.game[:18]:<18}  "
            f"{amount_text(r.buy_in + r.fee + r.bounty, r.currency):>10}  {place:>9}  "
            f"{amount_text(r.prize + r.bounties_won, r.currency):>11}  "
            f"{amount_text(r.net, r.currency):>11}"
        )
    for t in totals(results):
        lines += ["", *totals_lines(t)]
    return "\n".join(lines)


def totals_lines(t: Totals) -> list[str]:
    """One currency's totals, a figure a line."""
    def money(value: int) -> str:
        return amount_text(value, t.currency)

    return [
        f"totals in {t.currency or 'no currency'}:",
        f"  tournaments     {t.tournaments:,}",
        f"  cost            {money(t.cost)}",
        f"  prizes          {money(t.prizes)}",
        f"  bounties        {money(t.bounties)}",
        f"  net             {money(t.net)}",
        f"  ROI             {'-' if t.roi is None else f'{t.roi:+.1%}'}",
        f"  in the money    {'-' if t.itm is None else f'{t.itm:.1%}'}",
        f"  average finish  {'-' if t.average_finish is None else f'{t.average_finish:.1f}'}",
    ]
