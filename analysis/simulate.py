"""Dealt hands as text a user could have saved: what ``drawlab simulate`` and
``sample_histories/regenerate.py`` write.

The dealer (``engine.dealer``) knows nothing of text and the writers (``parser``) nothing of
dealing; this joins the two.  Output is deterministic: the same arguments give the same
bytes, which is what lets the committed sample histories be regenerated and compared.

PokerStars text: hands one after another with a blank line between them, as the client
saves them.  PHH: one hand is a plain PHH file; several hands are written in PHH's
multi-hand form (``.phhs``: each hand a TOML table ``[1]``, ``[2]``...), which pokerkit's
``HandHistory.loads_all`` reads.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final, TextIO

from engine.dealer import deal_hands
from engine.pots import RakeRule
from engine.record import Game, Hand, Stakes, Structure
from parser.phh import write_phh
from parser.pokerstars_writer import write_pokerstars

FORMATS: Final = ("pokerstars", "phh")


def texts(hands: Iterable[Hand], fmt: str) -> Iterator[str]:
    """Each hand's text in ``fmt``, the separators included, ready to be written in order."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: one of {', '.join(FORMATS)}")
    items = iter(hands)
    first = next(items, None)
    if first is None:
        return
    second = next(items, None)
    if fmt == "pokerstars":
        yield write_pokerstars(first)
        for hand in _chain(second, items):
            yield "\n" + write_pokerstars(hand)
        return
    if second is None:
        yield write_phh(first)
        return
    for number, hand in enumerate(_chain(first, _chain(second, items)), start=1):
        yield ("" if number == 1 else "\n") + f"[{number}]\n" + write_phh(hand)


def _chain(head: Hand | None, rest: Iterator[Hand]) -> Iterator[Hand]:
    if head is not None:
        yield head
    yield from rest


def simulate(
    out: TextIO,
    hands: int,
    game: Game,
    players: int,
    seed: int,
    fmt: str = "pokerstars",
    *,
    structure: Structure | None = None,
    stakes: Stakes | None = None,
    rake: RakeRule | None = None,
    hero: str | None = "Hero",
    first_hand_id: int | None = None,
) -> int:
    """Deal ``hands`` hands at one table and write them to ``out``; returns how many."""
    dealt = deal_hands(
        hands,
        game,
        players,
        seed,
        structure=structure,
        stakes=stakes,
        rake=rake,
        hero=hero,
        first_hand_id=first_hand_id,
    )
    count = 0

    def counted() -> Iterator[Hand]:
        nonlocal count
        for hand in dealt:
            count += 1
            yield hand

    for text in texts(counted(), fmt):
        out.write(text)
    return count
