"""The review's sequential stop (engine.sim.stopping): an easy draw is settled in one block,
the verdict on the choice made is the one the full trials give, the noise a verdict is
judged by is that of the full trials, and the ranges dealt block after block around the
known cards stay uniform whether a range is filtered or dealt by rejection."""

from __future__ import annotations

import numpy as np
import pytest

import engine.sim.ranges as ranges_module
from engine.cards import parse_cards as P
from engine.ranking import Ranking
from engine.sim import review as review_module
from engine.sim.choice_sim import simulate_choices
from engine.sim.equity import Player
from engine.sim.ranges import RangeDealer, mask_of, unknown_range
from engine.sim.review import Spot, canonical, review
from engine.sim.stopping import NOISE_SE, Simulated
from engine.sim.strategy import HighDrawStrategy, default_strategy, keep_bits

D27 = Ranking.DEUCE_SEVEN


def test_an_easy_draw_is_settled_in_one_block() -> None:
    hand = P("7s 5d 4h 3c 2s")  # a pat 7-5 against one drawing one: snowing is plainly worse
    pat, snow = simulate_choices(
        hand, [hand, ()], [Player.drawing(1)], D27, 1, trials=3_000, block=250, focus=[1]
    )
    assert (pat.trials, snow.trials) == (250, 250)
    assert pat.equity > 0.99 and snow.equity < 0.3


def test_equal_choices_are_settled_as_equal_in_one_block() -> None:
    hand = P("9s 8d 6h 3c 2s")
    a, b = simulate_choices(
        hand, [hand[1:], hand[1:]], [Player.drawing(2)], D27, 2, trials=3_000, block=250
    )
    assert (a.trials, b.trials) == (250, 250)
    assert a.equity == b.equity


def test_without_anything_to_judge_against_one_choice_gets_the_full_trials() -> None:
    hand = P("9s 8d 6h 3c 2s")
    (alone,) = simulate_choices(hand, [hand], [Player.drawing(2)], D27, 2, trials=900, block=250)
    assert alone.trials == 900


def test_a_choice_far_below_an_exact_reference_stops_at_the_first_look() -> None:
    hand = P("Ks Qd Jh 3c 2s")
    (snow,) = simulate_choices(
        hand, [()], [Player.drawing(0)], D27, 1, trials=3_000, block=250, reference=0.9
    )
    assert snow.trials == 250


def test_the_noise_is_that_of_the_full_trials() -> None:
    assert Simulated(0.4, 0.03, 250).noise(3_000) == pytest.approx(0.03 * np.sqrt(250 / 3_000))
    assert Simulated(0.4, 0.03, 3_000).noise(3_000) == pytest.approx(0.03)


@pytest.mark.parametrize(
    ("spot", "kept"),
    [
        (Spot(D27, P("9s 8d 6h 3c 2s"), 3, (1, 2, None)), P("8d 6h 3c 2s")),
        (Spot(D27, P("9s 8d 6h 3c 2s"), 2, (1, 1), P("Kd Qc")), P("9s 8d 6h 3c 2s")),
        (Spot(D27, P("Ks 8d 6h 3c 2s"), 3, (None, None)), P("Ks 8d")),
        (Spot(D27, P("7s 5d 4h 3c 2s"), 1, (1,)), P("3c 2s")),
        (Spot(Ranking.ACE_FIVE, P("Ks 8d 6h 3c 2s"), 2, (1, 2)), P("8d 6h 3c 2s")),
    ],
)
def test_the_sequential_stop_gives_the_full_trials_verdict(
    spot: Spot, kept: tuple[int, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    early = review(spot, kept)
    monkeypatch.setattr(review_module, "BLOCK", review_module.TRIALS)  # one look, at the end
    full = review(spot, kept)
    assert early.mistake == full.mistake
    # The best may be another of the choices close to it, never one the full trials rule out.
    full_best = next(c for c in full.choices if sorted(c.keep) == sorted(early.best_kept))
    assert full_best.as_good_as_best
    chosen = next(c for c in early.choices if sorted(c.keep) == sorted(kept))
    best = early.choices[0]
    if full.mistake:  # the loss, from fewer deals, within its noise of the full trials' one
        assert abs(early.loss - full.loss) < 4 * np.hypot(best.stderr, chosen.stderr)
    if not early.mistake and not chosen.exact:  # within the full trials' noise of the best
        assert best.equity - chosen.equity <= NOISE_SE * np.hypot(best.stderr, chosen.stderr)


@pytest.mark.parametrize("filter_share", [0.0, 1e9])
def test_ranges_dealt_block_after_block_are_uniform_filtered_or_not(
    filter_share: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """0: every range is filtered by the known cards at once; a billion: never, every hand
    is dealt by rejection."""
    monkeypatch.setattr(ranges_module, "FILTER_SHARE", filter_share)
    hero = P("7s 5d 4h 3c 2d")
    strategy = default_strategy(D27)
    base = [unknown_range(strategy, 2, 4, ()), unknown_range(strategy, 2, 3, ())]
    dealer = RangeDealer(base, mask_of(hero))
    rng = np.random.default_rng(5)
    blocks = [dealer.deal(250, rng) for _ in range(120)]
    hands = np.concatenate([h for h, _ in blocks])
    flat = np.sort(hands.reshape(len(hands), 10), axis=1)
    assert not (flat[:, 1:] == flat[:, :-1]).any()
    assert not np.isin(flat, hero).any()
    # Reference: the ranges filtered first, independent pairs, the sharing ones thrown away.
    free = [unknown_range(strategy, 2, 4, hero), unknown_range(strategy, 2, 3, hero)]
    ref_rng = np.random.default_rng(6)
    a = free[0].hands[ref_rng.integers(len(free[0].hands), size=400_000)]
    b = free[1].hands[ref_rng.integers(len(free[1].hands), size=400_000)]
    fit = (free[0].masks[0] * 0 == 0) & (
        (ranges_module.card_masks(a) & ranges_module.card_masks(b)) == 0
    )
    for seat, ref in ((0, a[fit]), (1, b[fit])):
        got = ((hands[:, seat] >> 2) == 5).any(axis=1).mean()  # holds a seven
        want = ((ref >> 2) == 5).any(axis=1).mean()
        assert abs(got - want) < 4 * (np.sqrt(0.25 / len(hands)) + np.sqrt(0.25 / len(ref)))


def test_keep_bits_are_the_keep_masks() -> None:
    rng = np.random.default_rng(9)
    hands = np.array([rng.permutation(52)[:5] for _ in range(4_000)], dtype=np.uint8)
    slots = np.arange(5, dtype=np.uint8)
    for strategy in (default_strategy(D27), default_strategy(Ranking.ACE_FIVE), HighDrawStrategy()):
        for draws in (1, 2, 3):
            bits = keep_bits(strategy, hands, draws)
            assert ((bits[:, None] >> slots & 1) == 1).tolist() == strategy.keep(
                hands, draws
            ).tolist()


def test_keeps_of_symmetric_suits_are_one_keep() -> None:
    # Hearts and diamonds hold the same (an eight each, nothing dead): either eight kept
    # alone is the same choice.
    form = canonical(Spot(D27, P("8h 8d 5c 3s 2c"), 2, (1,)))
    assert form.keep(P("8h")) == form.keep(P("8d"))
    assert form.keep(P("8h 5c")) != form.keep(P("5c 3s"))
    assert len(form.renamings) == 2
