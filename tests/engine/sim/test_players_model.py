"""The dealer's random players: what they keep in each game, and that their bets stay legal."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import format_cards, parse_cards
from engine.sim.players_model import BetOptions, Judge, Style, decide, keep_high, keep_low, strength


class _Fixed(random.Random):
    """A 'random' source that always says 0.5 and picks the first choice: no noise."""

    def random(self) -> float:
        return 0.5

    def choice(self, seq):  # type: ignore[no-untyped-def]
        return seq[0]

    def uniform(self, a: float, b: float) -> float:
        return (a + b) / 2


def _keep_low(text: str, judge: Judge, draws_left: int = 3) -> str:
    return format_cards(keep_low(parse_cards(text), judge, draws_left, _Fixed()))


def test_deuce_seven_keeps_distinct_low_cards_and_throws_aces_and_pairs() -> None:
    assert _keep_low("2c 7d 7h As 4s", Judge.LOW_27) == "2c 7d 4s"
    assert _keep_low("Kc Qd Jh Ts 9s", Judge.LOW_27) == ""
    assert _keep_low("7c 5d 4h 3s 2s", Judge.LOW_27) == "7c 5d 4h 3s 2s"  # the nuts: pat


def test_deuce_seven_breaks_a_made_straight_or_flush() -> None:
    assert _keep_low("6c 5d 4h 3s 2s", Judge.LOW_27) == "5d 4h 3s 2s"
    assert _keep_low("8h 6h 4h 3h 2h", Judge.LOW_27) == "6h 4h 3h 2h"


def test_ace_five_keeps_the_ace_and_ignores_straights() -> None:
    assert _keep_low("Ac 2d 3h 4s 5s", Judge.LOW_A5) == "Ac 2d 3h 4s 5s"
    assert _keep_low("Ac Kd 3h 3s 9s", Judge.LOW_A5) == "Ac 3h"


def test_high_hands_keep_made_hands_pairs_and_four_flushes() -> None:
    def keep(text: str, most: int = 5) -> str:
        return format_cards(keep_high(parse_cards(text), _Fixed(), most))

    assert keep("9c 9d 9h Ks Kd") == "9c 9d 9h Ks Kd"  # full house: pat
    assert keep("Jc Jd 4h 7s 2d") == "Jc Jd"
    assert keep("Ah 9h 5h 2h Kc") == "Ah 9h 5h 2h"
    assert keep("Ah Kd 9h 5c 2s") == "Ah"
    assert keep("Ah Kd 9h 5c 2s", most=3) == "Ah Kd"  # home rule: at most three drawn


def test_the_nuts_is_the_strongest_hand_and_a_pair_is_weak_after_the_last_draw() -> None:
    rng = _Fixed()
    nuts = strength(parse_cards("7c 5d 4h 3s 2s"), Judge.LOW_27, 0, rng)
    pair = strength(parse_cards("7c 7d 4h 3s 2s"), Judge.LOW_27, 0, rng)
    nine = strength(parse_cards("9c 5d 4h 3s 2s"), Judge.LOW_27, 0, rng)
    assert nuts == 1.0
    assert pair < nine < nuts


options = st.builds(
    lambda call, lo, width, stack, structured: BetOptions(
        to_call=call,
        raise_min_to=lo if lo else None,
        raise_max_to=lo + (width if structured else 0) if lo else None,
        committed=0,
        stack=stack,
        pot=100,
        draws_left=2,
        big_blind=10,
        no_limit_or_pot=structured,
    ),
    st.integers(0, 50),
    st.integers(0, 400),
    st.integers(0, 400),
    st.integers(1, 5000),
    st.booleans(),
)


# No deadline on the properties: a loaded CI machine must not turn timing into failures.
@settings(deadline=None)
@given(options, st.floats(0, 1), st.integers(0, 2**32))
def test_decisions_are_always_among_the_options(
    opts: BetOptions, s: float, seed: int
) -> None:
    rng = random.Random(seed)
    choice = decide(opts, s, Style.draw(rng), rng)
    if opts.to_call:
        assert choice.kind in ("fold", "call", "raise")
    else:
        assert choice.kind in ("check", "bet", "raise")
    if choice.kind in ("bet", "raise"):
        assert opts.raise_min_to is not None and opts.raise_max_to is not None
        assert opts.raise_min_to <= choice.to <= opts.raise_max_to
