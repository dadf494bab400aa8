"""parse(write(hand)) == hand for every corpus hand of every site, through both writers.

Records are compared without ``file`` and ``line`` (the written text has its own lines).
PHH keeps everything else.  PokerStars text cannot say a few things other sites do
(``STARS_CANNOT_SAY``): for hands from other sites, those fields are brought to what
PokerStars can say before comparing, and nothing else.  A PokerStars hand must come back
exactly.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import pytest

from engine.record import (
    Action,
    ActionKind,
    Collect,
    Draw,
    Hand,
    Note,
    Post,
    PostKind,
    Show,
    Step,
)
from parser.phh import read_phh, write_phh
from parser.pokerstars_writer import write_pokerstars
from parser.reader import read_text
from tests.parser_corpus import results, without_position


def corpus_hands() -> list[Hand]:
    return [o for _, _, o in results() if isinstance(o, Hand)]


def hand_id(hand: Hand) -> str:
    return f"{hand.site}-{hand.hand_id}"


def test_the_corpus_gives_hands_from_every_site() -> None:
    sites = {h.site for h in corpus_hands()}
    assert {"pokerstars", "fulltilt", "kingsclub", "merge", "ongame", "winamax", "boss"} <= sites


@pytest.mark.parametrize("hand", corpus_hands(), ids=hand_id)
def test_phh_round_trip_keeps_the_whole_record(hand: Hand) -> None:
    back = read_phh(write_phh(hand), "x.phh")
    assert without_position(back) == without_position(hand)


def _reread_stars(hand: Hand) -> Hand:
    outcomes = [o for _, o in read_text(write_pokerstars(hand), "x.txt")]
    assert len(outcomes) == 1
    back = outcomes[0]
    assert isinstance(back, Hand), back
    return back


def _raise_amounts(steps: Iterable[Step]) -> tuple[Step, ...]:
    """Raise amounts derived again from ``to`` and the street's contributions."""
    out: list[Step] = []
    put_in: dict[str, int] = {}
    street = 0
    for s in steps:
        if isinstance(s, Post) and s.kind is not PostKind.ANTE:
            put_in[s.player] = put_in.get(s.player, 0) + s.amount - s.dead
        if isinstance(s, Action):
            if s.street != street:
                street, put_in = s.street, {}
            before = put_in.get(s.player, 0)
            if s.kind is ActionKind.RAISE and s.to is not None:
                s = dataclasses.replace(s, amount=s.to - before)
            put_in[s.player] = before + s.amount
        out.append(s)
    return tuple(out)


def as_stars_can_say(hand: Hand) -> Hand:
    """The record reduced to what PokerStars text can carry (see ``STARS_CANNOT_SAY``)."""
    seat_order = {s.player: s.seat for s in hand.seats}
    steps: list[Step] = []
    mucked: list[Show] = []
    put_in: dict[str, int] = {}
    street = 0
    for s in hand.steps:
        if isinstance(s, Post):
            if s.kind is not PostKind.BOTH_BLINDS:
                s = dataclasses.replace(s, dead=0)
            if s.kind is not PostKind.ANTE:
                put_in[s.player] = put_in.get(s.player, 0) + s.amount - s.dead
        elif isinstance(s, Action):
            if s.street != street:
                street, put_in = s.street, {}
            before = put_in.get(s.player, 0)
            if s.kind is ActionKind.BET:
                s = dataclasses.replace(s, to=None)
            elif s.kind is ActionKind.RAISE and s.to is None:
                s = dataclasses.replace(s, to=before + s.amount)
            put_in[s.player] = before + s.amount
        elif isinstance(s, Draw | Collect):
            s = dataclasses.replace(s, run=0)
            if isinstance(s, Collect) and s.pot is None:
                s = dataclasses.replace(s, pot=0)
        elif isinstance(s, Show):
            s = dataclasses.replace(s, run=0)
            if s.mucked:
                mucked.append(s)
                continue
        elif isinstance(s, Note):
            s = Note("", "", 0, s.player or "Dealer")
        steps.append(s)
    mucked.sort(key=lambda s: seat_order.get(s.player, 0))
    return dataclasses.replace(
        hand,
        site="pokerstars",
        steps=_raise_amounts([*steps, *mucked]),
        net=(),
        dealt_others=(),
        rake=hand.rake if hand.total_pot is not None else None,
    )


def _notes_blank(hand: Hand) -> Hand:
    steps = tuple(Note("", "", 0, s.player) if isinstance(s, Note) else s for s in hand.steps)
    return dataclasses.replace(hand, steps=steps)


@pytest.mark.parametrize("hand", corpus_hands(), ids=hand_id)
def test_pokerstars_round_trip(hand: Hand) -> None:
    back = _reread_stars(hand)
    if hand.site == "pokerstars":
        assert without_position(back) == without_position(hand)
        return
    expected = as_stars_can_say(hand)
    assert without_position(_notes_blank(back)) == without_position(_notes_blank(expected))
