"""The replay's shortcuts for the common step agree with the general way, hand for hand.

``HandState.act_if_legal`` and ``draw_if_legal`` apply a clean action or draw in one
pass.  Each must leave exactly what the
general path leaves: the same table after every step, the same verdict, final stacks and
pots, on every corpus hand, dealt hands of every game and form, and the same hands
corrupted at random (where the shortcuts must step aside).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pytest

import engine.replay as replay_module
from engine.record import (
    Action,
    ActionKind,
    Collect,
    Draw,
    Game,
    Hand,
    HouseRules,
    Post,
    Show,
    Structure,
    Uncalled,
)
from engine.replay import replay
from engine.sim.dealer import deal_hands
from engine.state import HandState
from engine.verdict import Verdict
from parser.reader import read_path
from tests.corpus import CORPUS


def _dealt() -> list[Hand]:
    hands: list[Hand] = []
    for game in Game:
        for players in (2, 3, 6):
            for structure in (None, Structure.POT, Structure.NO_LIMIT):
                hands.extend(deal_hands(12, game, players, seed=40 + players, structure=structure))
            hands.extend(deal_hands(10, game, players, seed=50 + players, tournament=True))
            hands.extend(deal_hands(6, game, players, seed=60 + players, site="phh"))
    for house in (HouseRules(), HouseRules(wild="joker", high_low=True), HouseRules(shotgun=True)):
        hands.extend(deal_hands(20, Game.FIVE_CARD_DRAW, 4, seed=7, house=house))
    return hands


@contextmanager
def _general_path() -> Iterator[None]:
    """``replay`` with the one-pass way (``engine.fast_replay``) switched off: the shortcuts
    tested here are the general path's, which the one-pass way would skip for most hands."""
    original = replay_module.replay_clean  # type: ignore[attr-defined]
    replay_module.replay_clean = lambda hand: None  # type: ignore[attr-defined]
    try:
        yield
    finally:
        replay_module.replay_clean = original  # type: ignore[attr-defined]


def _corpus() -> list[Hand]:
    return [h for _, h in read_path(CORPUS) if isinstance(h, Hand)]


def _corrupted(hands: list[Hand], count: int, seed: int) -> list[Hand]:
    """Small slips a site or a reader could make: a step lost, doubled or moved, an amount,
    kind, count or card changed, a step given to another player."""
    rng = random.Random(seed)
    out: list[Hand] = []
    for _ in range(count):
        hand = rng.choice(hands)
        steps = list(hand.steps)
        players = [s.player for s in hand.seats]
        for _ in range(rng.randint(1, 2)):
            i = rng.randrange(len(steps))
            step = steps[i]
            what = rng.randrange(7)
            if what == 0:
                del steps[i]
            elif what == 1:
                steps.insert(i, step)
            elif what == 2:
                j = rng.randrange(len(steps))
                steps[i], steps[j] = steps[j], steps[i]
            elif what == 3 and isinstance(step, Action | Post | Collect | Uncalled):
                steps[i] = replace(step, amount=max(0, step.amount + rng.choice([-5, 5, 10])))
            elif what == 4 and isinstance(step, Action):
                steps[i] = replace(step, kind=rng.choice(list(ActionKind)))
            elif what == 5 and isinstance(step, Draw):
                steps[i] = replace(step, count=rng.randint(0, 6))
            elif what == 6 and isinstance(step, Show | Draw | Action) and players:
                steps[i] = replace(step, player=rng.choice(players))
            if not steps:
                break
        out.append(replace(hand, steps=tuple(steps)))
    return out


DEALT = _dealt()
CORPUS_HANDS = _corpus()
POOL = CORPUS_HANDS + DEALT
CORRUPTED = _corrupted(POOL, 3000, seed=12)


def _outcome(hand: Hand, views: bool) -> tuple[Verdict, object]:
    r = replay(hand, views=views)
    return r.verdict, (r.final, r.pots, r.states)


@pytest.mark.slow
@pytest.mark.parametrize("views", [False, True])
def test_every_hand_replays_the_same_with_and_without_the_shortcuts(
    views: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    hands = POOL + CORRUPTED
    fast = [_outcome(h, views) for h in hands]
    monkeypatch.setattr(HandState, "act_if_legal", lambda self, *a, **k: False)
    monkeypatch.setattr(HandState, "draw_if_legal", lambda self, *a, **k: False)
    general = [_outcome(h, views) for h in hands]
    differ = [h.hand_id for h, a, b in zip(hands, fast, general, strict=True) if a != b]
    assert differ == []
    # the corruptions really reach the general path: many corrupted hands have problems
    assert sum(1 for v, _ in general[len(POOL) :] if not v.ok) > len(CORRUPTED) // 3


def _slots(state: HandState) -> dict[str, object]:
    return {name: getattr(state, name) for name in HandState.__slots__}


def _action_states(hands: list[Hand]) -> Iterator[tuple[HandState, Action]]:
    """The table before each action of each hand, as the replay drives it."""
    seen: list[tuple[HandState, Action]] = []
    original = HandState.act_if_legal

    def spy(
        self: HandState,
        player: str,
        kind: ActionKind,
        amount: int,
        to: int | None = None,
        all_in: bool = False,
    ) -> bool:
        seen.append((copy.deepcopy(self), Action(player, self.street, kind, 0, amount, to, all_in)))
        return original(self, player, kind, amount, to, all_in)

    HandState.act_if_legal = spy  # type: ignore[method-assign]
    try:
        with _general_path():
            for hand in hands:
                replay(hand)
    finally:
        HandState.act_if_legal = original  # type: ignore[method-assign]
    yield from seen


@pytest.mark.slow
def test_an_action_taken_in_one_pass_is_one_the_check_finds_nothing_in() -> None:
    taken = stepped_aside = 0
    for state, action in _action_states(CORPUS_HANDS[:400] + DEALT[:600] + CORRUPTED[:600]):
        one, two = copy.deepcopy(state), copy.deepcopy(state)
        args = (action.player, action.kind, action.amount, action.to, action.all_in)
        if one.act_if_legal(*args):
            taken += 1
            assert two.check_action(*args) == []
            two.apply_action(action.player, action.kind, action.amount)
            assert _slots(one) == _slots(two)
        else:
            stepped_aside += 1
            assert _slots(one) == _slots(state)  # nothing changed: the general way follows
    assert taken > 5000 and stepped_aside > 100


@pytest.mark.slow
def test_a_draw_dealt_in_one_pass_is_one_the_check_finds_nothing_in() -> None:
    seen: list[tuple[HandState, str, int]] = []
    original = HandState.draw_if_legal

    def spy(self: HandState, player: str, count: int) -> bool:
        seen.append((copy.deepcopy(self), player, count))
        return original(self, player, count)

    HandState.draw_if_legal = spy  # type: ignore[method-assign]
    try:
        with _general_path():
            for hand in CORPUS_HANDS[:400] + DEALT[:600] + CORRUPTED[:600]:
                replay(hand)
    finally:
        HandState.draw_if_legal = original  # type: ignore[method-assign]
    taken = stepped_aside = 0
    for state, player, count in seen:
        one, two = copy.deepcopy(state), copy.deepcopy(state)
        if one.draw_if_legal(player, count):
            taken += 1
            assert two.check_draw(player, count) == []
            two.apply_draw(player, count)
            assert _slots(one) == _slots(two)
        else:
            stepped_aside += 1
            assert _slots(one) == _slots(state)
    assert taken > 1000 and stepped_aside > 20
