"""Small hands written by hand for the statistics tests: a compact way to build records.

Steps are given as tuples so a test reads like a history:
``("post", "A", "sb", 50)``, ``("raise", "A", 0, 200, 300)`` (street, amount, to),
``("call", "B", 0, 150)``, ``("check", "B", 1)``, ``("fold", "C", 0)``,
``("draw", "A", 1, 2)``, ``("draw", "A", 1, 1, "8s", "6d4c3h2s", "Kd")``
(discarded, kept, received), ``("show", "A", "7s5d4h3c2s")``, ``("uncalled", "A", 100)``,
``("collect", "A", 900)``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from engine.cards import parse_cards
from engine.record import (
    Action,
    ActionKind,
    Collect,
    Draw,
    Game,
    Hand,
    Post,
    PostKind,
    Seat,
    Show,
    Stakes,
    Step,
    Structure,
    Uncalled,
)

_POSTS = {"sb": PostKind.SMALL_BLIND, "bb": PostKind.BIG_BLIND, "ante": PostKind.ANTE,
          "extra": PostKind.EXTRA, "both": PostKind.BOTH_BLINDS}


DEFAULT_STAKES = Stakes(50, 100, 100, 200)


def step(spec: tuple[Any, ...], line: int) -> Step:
    kind, player, *rest = spec
    if kind == "post":
        return Post(player, _POSTS[rest[0]], rest[1], line)
    if kind in ("fold", "check", "call", "bet", "raise"):
        street = rest[0]
        amount = rest[1] if len(rest) > 1 else 0
        to = rest[2] if len(rest) > 2 else None
        all_in = bool(rest[3]) if len(rest) > 3 else False
        return Action(player, street, ActionKind(kind), line, amount, to, all_in)
    if kind == "draw":
        draw, count = rest[0], rest[1]
        cards = [parse_cards(c) if c is not None else None for c in rest[2:5]]
        cards += [None] * (3 - len(cards))
        return Draw(player, draw, count, line, cards[0], cards[1], cards[2])
    if kind == "show":
        return Show(player, parse_cards(rest[0]), line, mucked=len(rest) > 1 and rest[1])
    if kind == "uncalled":
        return Uncalled(player, rest[0], line)
    if kind == "collect":
        return Collect(player, rest[0], line)
    raise ValueError(kind)


def make_hand(
    seats: list[tuple[int, str, int]],
    steps: list[tuple[Any, ...]],
    *,
    button: int | None,
    hand_id: str = "1",
    game: Game = Game.TRIPLE_DRAW_27,
    structure: Structure = Structure.FIXED,
    stakes: Stakes = DEFAULT_STAKES,
    hero: str | None = None,
    dealt: str | None = None,
    others: tuple[tuple[str, str], ...] = (),
    rake: int | None = None,
    net: tuple[tuple[str, int], ...] = (),
    time: datetime | None = datetime(2024, 1, 1, 12, 0),
    site: str = "pokerstars",
    currency: str = "USD",
) -> Hand:
    return Hand(
        site=site,
        hand_id=hand_id,
        table="T",
        game=game,
        structure=structure,
        stakes=stakes,
        currency=currency,
        time=time,
        button=button,
        seats=tuple(Seat(s, p, st, 2 + i) for i, (s, p, st) in enumerate(seats)),
        steps=tuple(step(spec, 20 + i) for i, spec in enumerate(steps)),
        file="hand.txt",
        line=1,
        hero=hero,
        dealt=parse_cards(dealt) if dealt else None,
        dealt_others=tuple((p, parse_cards(c)) for p, c in others),
        rake=rake,
        net=net,
    )
