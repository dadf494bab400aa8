"""Plain-text rendering of statistics for the terminal (``drawlab stats``).

Kept apart from the SQL so the command line stays a shell: it picks a report and
prints what this module writes.  Every ratio is shown with its counts, so the sample
size is never hidden.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd

from analysis.statistics.definitions import all_stats
from analysis.statistics.figures import PlayerReport, StatValue
from engine.money import format_money

_PERCENTS = frozenset({"pat_rate", "won_rate", "share"})


def _percent(column: str) -> bool:
    """Whether a column is a rate, shown in % (the player's own statistics included)."""
    return column in _PERCENTS or any(s.key == column and s.kind == "rate" for s in all_stats())



def count(n: int, noun: str) -> str:
    """``1 hand``, ``2 hands``, ``1,234 hands``: never "1 hands"."""
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def money(amount: float | int) -> str:
    """Hundredths as units with two decimals, sign kept: -1234 -> "-12.34"."""
    return format_money(int(amount), cents=True, thousands=False)


def number(value: float | None, digits: int = 2) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value:.{digits}f}"


def stat_value(s: StatValue) -> str:
    if s.value is None:
        shown = "-"
    elif s.kind == "rate":
        shown = f"{100.0 * s.value:.1f}%"
    else:
        shown = f"{s.value:.2f}"
    return f"{shown} ({s.numerator}/{s.denominator})"


def table(df: pd.DataFrame, columns: Sequence[str], money_columns: Sequence[str] = ()) -> str:
    """A fixed-width table of ``columns``: money in units, rates in %, floats to 2 places."""
    if df.empty:
        return "  (none)"
    cells: list[list[str]] = [list(columns)]
    values = {c: df[c].tolist() for c in columns}  # per column, so ints stay ints
    percent = {c for c in columns if _percent(c)}
    for i in range(len(df)):
        line = []
        for c in columns:
            v = values[c][i]
            if c in money_columns:
                line.append(money(v))
            elif c in percent:
                line.append("-" if pd.isna(v) else f"{100.0 * v:.1f}%")
            elif isinstance(v, float):
                line.append(number(v))
            else:
                line.append(str(v))
        cells.append(line)
    widths = [max(len(r[i]) for r in cells) for i in range(len(columns))]
    return "\n".join(
        "  " + "  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in cells
    )


_MONEY = ("net", "rake", "net_showdown", "net_nonshowdown")


def render_report(report: PlayerReport) -> str:
    r = report.results
    lines = [
        f"Player {r.player}: {r.hands} hands",
        f"  net won {money(r.net)} = {r.net_bb:.2f} big bets, "
        f"{number(r.bb_per_100)} BB/100, rake paid {money(r.rake)}",
        f"  showdown {money(r.net_showdown)}, non-showdown {money(r.net_nonshowdown)}",
    ]
    if len(report.by_currency) > 1:
        lines.append("  the sums above mix currencies; by currency:")
        lines.append(table(report.by_currency, ("currency", "hands", "net", "bb_per_100",
                                                "rake"), _MONEY))
    group = ""
    for s in report.stats:
        if s.group != group:
            group = s.group
            lines.append(f"\n{group.capitalize()}")
        lines.append(f"  {s.name:<44} {stat_value(s)}")
    sections: tuple[tuple[str, pd.DataFrame, Sequence[str]], ...] = (
        ("By position", report.by_position,
         ("position", "hands", "net", "bb_per_100", "vpip", "pfr", "wtsd")),
        ("Sessions", report.sessions,
         ("session", "start", "hands", "minutes", "net", "bb_per_100")),
        ("Draws: mean cards and pat rate", report.draws,
         ("draw", "position", "hands", "mean_cards", "pat_rate")),
        ("Win rate by cards drawn on the first draw", report.first_draw,
         ("cards", "hands", "net", "bb_per_100", "won_rate")),
        ("Showdown hands", report.showdown, ("game", "final_class", "hands", "share")),
    )
    for title, df, cols in sections:
        lines.append(f"\n{title}")
        lines.append(table(df, cols, _MONEY))
    return "\n".join(lines)


def render_players(df: pd.DataFrame, limit: int = 50) -> str:
    """The all-players overview: one line per player, most hands first."""
    cols = ("player", "hands", "net", "bb_per_100", "vpip", "pfr", "three_bet", "wtsd",
            "pat_1", "drawn_1")
    return table(df.head(limit), cols, _MONEY)
