"""Hand records written out by hand for the replay and verification tests.

``base_hand()`` is a clean 3-handed fixed-limit 2-7 triple draw at PokerStars, every step on
a known line, so a test corrupts one step and asserts the exact code and line reported.
"""

from __future__ import annotations

from dataclasses import replace

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

LIMIT = Stakes(5, 10, 10, 20)
F, X, C, B, R = (
    ActionKind.FOLD,
    ActionKind.CHECK,
    ActionKind.CALL,
    ActionKind.BET,
    ActionKind.RAISE,
)


def act(player: str, street: int, kind: ActionKind, amount: int = 0, line: int = 0) -> Action:
    return Action(player, street, kind, line, amount=amount)


def draw(
    player: str,
    number: int,
    count: int,
    discarded: str | None = None,
    kept: str | None = None,
    received: str | None = None,
    line: int = 0,
    run: int = 0,
) -> Draw:
    def cards(text: str | None) -> tuple[int, ...] | None:
        return None if text is None else parse_cards(text)

    return Draw(player, number, count, line, cards(discarded), cards(kept), cards(received), run)


def show(player: str, cards: str, line: int = 0, run: int = 0) -> Show:
    return Show(player, parse_cards(cards), line, run=run)


def numbered(steps: list[Step], first: int = 6) -> tuple[Step, ...]:
    """Give the steps consecutive lines from ``first`` (the seats take lines 3-5)."""
    return tuple(replace(s, line=first + i) for i, s in enumerate(steps))


BASE_STEPS: list[Step] = [
    Post("B", PostKind.SMALL_BLIND, 5, 0),  # 6
    Post("C", PostKind.BIG_BLIND, 10, 0),  # 7
    act("A", 0, R, 20),  # 8
    act("B", 0, C, 15),  # 9
    act("C", 0, C, 10),  # 10
    draw("B", 1, 2),  # 11
    draw("C", 1, 1),  # 12
    draw("A", 1, 1, "Kd", "7s 5d 4h 3c", "2s"),  # 13
    act("B", 1, X),  # 14
    act("C", 1, B, 10),  # 15
    act("A", 1, R, 20),  # 16
    act("B", 1, F),  # 17
    act("C", 1, C, 10),  # 18
    draw("C", 2, 1),  # 19
    draw("A", 2, 0),  # 20
    act("C", 2, X),  # 21
    act("A", 2, B, 20),  # 22
    act("C", 2, C, 20),  # 23
    draw("C", 3, 0),  # 24
    draw("A", 3, 0),  # 25
    act("C", 3, X),  # 26
    act("A", 3, B, 20),  # 27
    act("C", 3, C, 20),  # 28
    show("A", "7s 5d 4h 3c 2s"),  # 29
    show("C", "8h 6h 4d 3d 2c"),  # 30
    Collect("A", 171, 0),  # 31
]


def make_hand(
    steps: list[Step],
    *,
    stacks: tuple[int, int, int] = (1000, 1000, 1000),
    site: str = "pokerstars",
    stakes: Stakes = LIMIT,
    game: Game = Game.TRIPLE_DRAW_27,
    structure: Structure = Structure.FIXED,
    button: int | None = 1,
    dealt: str | None = "7s 5d 4h 3c Kd",
    rake: int | None = 9,
    total_pot: int | None = 180,
    net: tuple[tuple[str, int], ...] = (),
    first_line: int = 6,
) -> Hand:
    seats = tuple(Seat(i + 1, p, stacks[i], 3 + i) for i, p in enumerate("ABC"))
    return Hand(
        site=site,
        hand_id="1001",
        table="T",
        game=game,
        structure=structure,
        stakes=stakes,
        currency="USD",
        time=None,
        button=button,
        seats=seats,
        steps=numbered(steps, first_line),
        file="test.txt",
        line=1,
        hero="A",
        dealt=None if dealt is None else parse_cards(dealt),
        rake=rake,
        total_pot=total_pot,
        net=net,
    )


def base_hand(**changes: object) -> Hand:
    return make_hand(list(BASE_STEPS), **changes)  # type: ignore[arg-type]


def with_step(line: int, step: Step | None) -> list[Step]:
    """The base steps with the one on ``line`` replaced (``None``: removed)."""
    steps = list(BASE_STEPS)
    if step is None:
        del steps[line - 6]
    else:
        steps[line - 6] = step
    return steps


WALK: list[Step] = [
    Post("B", PostKind.SMALL_BLIND, 5, 0),  # 6
    Post("C", PostKind.BIG_BLIND, 10, 0),  # 7
    act("A", 0, F),  # 8
    act("B", 0, F),  # 9
    Uncalled("C", 5, 0),  # 10
    Collect("C", 10, 0),  # 11
]
