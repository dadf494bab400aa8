"""The statistics computed a second way: plain Python over ``hand_facts`` rows, no SQL.

Written from the definitions' words, apart from ``analysis.statistics.definitions``' SQL, so
that the tests can show the database path and a direct pass over the hands agree.  The
betting statistics are not written again here: each is its declaration's two columns,
whose rules ``test_betting_statistics`` checks on hands written for each.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from datetime import timedelta
from typing import Any

from analysis.statistics.definitions import BETTING, StatDef
from analysis.statistics.fact_row import PlayerHandFacts as R

Pair = Callable[[R], tuple[float, float]]


def _rate(num: Callable[[R], Any], den: Callable[[R], Any]) -> Pair:
    return lambda r: (1 if den(r) and num(r) else 0, 1 if den(r) else 0)


def _round(r: R, k: int) -> tuple[int, int, int, int]:
    return (getattr(r, f"bets_{k}"), getattr(r, f"raises_{k}"), getattr(r, f"calls_{k}"),
            getattr(r, f"checks_{k}"))


def _af(k: int) -> Pair:
    def f(r: R) -> tuple[float, float]:
        b, ra, c, _ = _round(r, k)
        return b + ra, c
    return f


def _afq(k: int) -> Pair:
    def f(r: R) -> tuple[float, float]:
        b, ra, c, ch = _round(r, k)
        return b + ra, b + ra + c + ch + (1 if r.folded_round == k else 0)
    return f


def _drawn(k: int) -> Pair:
    def f(r: R) -> tuple[float, float]:
        d = getattr(r, f"drawn_{k}")
        return (0, 0) if d is None else (d, 1)
    return f


def _pat(k: int) -> Pair:
    def f(r: R) -> tuple[float, float]:
        d = getattr(r, f"drawn_{k}")
        return (0, 0) if d is None else (1 if d == 0 else 0, 1)
    return f


def _betting(stat: StatDef) -> Pair:
    """A betting statistic: the hands its event column marks, out of those its spot's
    column marks (the columns' rules are tested hand by hand, test_betting_statistics)."""
    spot = stat.spot
    assert spot is not None
    return _rate(lambda r: getattr(r, stat.key), lambda r: getattr(r, spot.column))


REFERENCE: dict[str, Pair] = {
    **{s.key: _betting(s) for s in BETTING},
    "wtsd": _rate(lambda r: r.went_to_showdown, lambda r: r.saw_draw_1),
    "wsd": _rate(lambda r: r.won_at_showdown, lambda r: r.went_to_showdown),
    "wwsf": _rate(lambda r: r.won, lambda r: r.saw_draw_1),
    **{f"af_{k}": _af(k) for k in range(4)},
    **{f"afq_{k}": _afq(k) for k in range(4)},
    **{f"drawn_{k}": _drawn(k) for k in (1, 2, 3)},
    **{f"pat_{k}": _pat(k) for k in (1, 2, 3)},
    "snow": _rate(lambda r: r.snowed, lambda r: r.snow_opp),
    "break": _rate(lambda r: r.broke, lambda r: r.break_opp),
}


def summarize(
    rows: Iterable[R], key: Callable[[R], Any] = lambda r: r.player
) -> dict[Any, dict[str, Any]]:
    """Per group: hands, money results and each statistic's numerator and denominator."""
    out: dict[Any, dict[str, Any]] = defaultdict(lambda: defaultdict(float))
    for r in rows:
        g = out[key(r)]
        g["hands"] += 1
        g["net"] += r.net
        g["net_bb"] += r.net / r.big_bet
        g["rake"] += r.rake_share
        g["net_showdown"] += r.net if r.went_to_showdown else 0
        g["net_nonshowdown"] += 0 if r.went_to_showdown else r.net
        for k, f in REFERENCE.items():
            n, d = f(r)
            g[f"{k}_n"] += n
            g[f"{k}_d"] += d
    return {k: dict(v) for k, v in out.items()}


def draw_counts(rows: Iterable[R]) -> dict[tuple[int, str, int], int]:
    """(draw, position or ALL, cards) -> hands."""
    out: dict[tuple[int, str, int], int] = defaultdict(int)
    for r in rows:
        for k in (1, 2, 3):
            d = getattr(r, f"drawn_{k}")
            if d is not None:
                out[(k, r.position, d)] += 1
                out[(k, "ALL", d)] += 1
    return dict(out)


def first_draw(rows: Iterable[R]) -> dict[int, tuple[int, int, int]]:
    """cards drawn on the first draw -> (hands, net, hands won)."""
    out: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    for r in rows:
        if r.drawn_1 is not None:
            v = out[r.drawn_1]
            v[0] += 1
            v[1] += r.net
            v[2] += 1 if r.collected > 0 else 0
    return {k: (a, b, c) for k, (a, b, c) in out.items()}


def showdown(rows: Iterable[R]) -> dict[tuple[str, str], int]:
    out: dict[tuple[str, str], int] = defaultdict(int)
    for r in rows:
        if r.went_to_showdown and r.final_class is not None:
            out[(r.game, r.final_class)] += 1
    return dict(out)


def sessions(rows: Iterable[R], gap: timedelta) -> list[tuple[int, int]]:
    """(hands, net) per session, in time order."""
    timed = sorted((r for r in rows if r.time is not None), key=lambda r: r.time or 0)
    out: list[list[int]] = []
    last = None
    for r in timed:
        if last is None or r.time - last > gap:  # type: ignore[operator]
            out.append([0, 0])
        out[-1][0] += 1
        out[-1][1] += r.net
        last = r.time
    return [(a, b) for a, b in out]


def by_day(rows: Iterable[R]) -> dict[Any, tuple[int, int]]:
    """date -> (hands, net), hands with a time only."""
    out: dict[Any, list[int]] = defaultdict(lambda: [0, 0])
    for r in rows:
        if r.time is not None:
            v = out[r.time.date()]
            v[0] += 1
            v[1] += r.net
    return {k: (a, b) for k, (a, b) in out.items()}
