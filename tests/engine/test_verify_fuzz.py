"""Whatever a record holds, the replay reports; it never raises.

Valid hands (dealt ones of every game, and the corpus's) are cut, spliced and corrupted at
random; ``replay`` must come back with a verdict and one view per step every time, and an
untouched hand must stay clean.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.problems import REPLAY_FAILED
from engine.record import Action, ActionKind, Draw, Game, Hand, Post, PostKind, Stakes
from engine.replay import replay
from engine.sim.dealer import deal_hands
from engine.verify import verify
from parser.reader import read_path
from tests.corpus import CORPUS

CASH = CORPUS / "cash"


def _pool() -> list[Hand]:
    hands: list[Hand] = []
    for game in Game:
        hands.extend(deal_hands(4, game, 3, seed=99))
        hands.extend(deal_hands(2, game, 6, seed=98))
    for path in sorted(CASH.rglob("*.txt"))[:60]:
        hands.extend(h for _, h in read_path(path) if isinstance(h, Hand))
    return hands


POOL = _pool()


@st.composite
def corrupted(draw: st.DrawFn) -> Hand:
    hand = draw(st.sampled_from(POOL))
    steps = list(hand.steps)
    players = [s.player for s in hand.seats] + ["Ghost"]
    for _ in range(draw(st.integers(1, 4))):
        if not steps:
            break
        i = draw(st.integers(0, len(steps) - 1))
        what = draw(st.integers(0, 6))
        step = steps[i]
        if what == 0:
            del steps[i]
        elif what == 1:
            steps.insert(i, step)
        elif what == 2:
            j = draw(st.integers(0, len(steps) - 1))
            steps[i], steps[j] = steps[j], steps[i]
        elif what == 3 and isinstance(step, Action | Post):
            steps[i] = replace(step, amount=draw(st.integers(-5, 10**7)))
        elif what == 4 and isinstance(step, Action):
            kind = draw(st.sampled_from(list(ActionKind)))
            steps[i] = replace(step, kind=kind, street=draw(st.integers(-1, 5)))
        elif what == 5 and isinstance(step, Draw):
            cards = draw(st.lists(st.integers(0, 51), max_size=7))
            steps[i] = replace(
                step,
                count=draw(st.integers(-1, 7)),
                draw=draw(st.integers(0, 4)),
                received=tuple(cards) if cards else None,
                run=draw(st.integers(0, 2)),
            )
        elif what == 6 and not isinstance(step, Post):
            steps[i] = replace(step, player=draw(st.sampled_from(players)))
    changed = replace(hand, steps=tuple(steps))
    if draw(st.booleans()):
        changed = replace(
            changed,
            button=draw(st.none() | st.integers(0, 10)),
            stakes=draw(st.sampled_from([hand.stakes, Stakes(0, 0, 0, 0), Stakes(1, 1, 1, 1, 1)])),
            seats=hand.seats[: draw(st.integers(0, len(hand.seats)))],
        )
    if draw(st.booleans()):
        changed = replace(
            changed, steps=(Post("Ghost", PostKind.BOTH_BLINDS, 3, 0, dead=9), *changed.steps)
        )
    return changed


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corrupted())
def test_a_corrupted_record_gets_a_verdict_and_its_views(hand: Hand) -> None:
    r = replay(hand)
    assert not [p for p in r.verdict.problems if p.code == REPLAY_FAILED]
    assert len(r.states) in (len(hand.steps) + 1, len(hand.steps) + 2)
    assert r.verdict == verify(hand)


def test_the_untouched_pool_is_clean() -> None:
    dealt = [h for h in POOL if h.file == ""]
    assert len(dealt) == 6 * len(Game) == 36  # four hands of three and two of six per game
    assert all(verify(h).problems == () for h in dealt)
