"""Unknown hands: an opponent's range from their draw count, dealt without shared cards."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

import engine.sim.ranges as ranges_module
from engine.cards import parse_cards
from engine.ranking import Ranking
from engine.sim.ranges import card_masks, deal_ranges, mask_of, unknown_range
from engine.sim.strategy import default_strategy

D27, A5 = Ranking.DEUCE_SEVEN, Ranking.ACE_FIVE


def test_pat_range_with_one_draw_left_is_every_ten_low() -> None:
    # 2-7, default strategy, one draw left: stands pat on T-low or better: 126 rank sets of
    # five among 2..T, less 5 straights, times 1,020 non-flush suitings.
    r = unknown_range(default_strategy(D27), 1, 5, ())
    assert len(r.hands) == 121 * 1020
    hero = parse_cards("7s5d4h3c2d")
    r2 = unknown_range(default_strategy(D27), 1, 5, hero)
    assert not (r2.masks & np.uint64(mask_of(hero))).any()
    assert len(r2.hands) < len(r.hands)


def test_a5_pat_range_with_three_draws_is_every_eight_low() -> None:
    # A-5 stands pat on 8-low (ace low): 5 of the 8 ranks A..8, any suits.
    r = unknown_range(default_strategy(A5), 3, 5, ())
    assert len(r.hands) == 56 * 4**5


def test_drawing_one_range_keeps_four_low_cards() -> None:
    r = unknown_range(default_strategy(D27), 3, 4, ())
    kept = default_strategy(D27).keep(r.hands, 3)
    assert (kept.sum(axis=1) == 4).all()
    assert len(r.hands) > 0


def test_card_masks() -> None:
    hands = np.array([parse_cards("2c3c4c5c6c"), parse_cards("AsKsQsJsTs")], dtype=np.uint8)
    assert card_masks(hands).tolist() == [
        sum(1 << c for c in (0, 4, 8, 12, 16)),
        sum(1 << c for c in (51, 47, 43, 39, 35)),
    ]
    assert mask_of(parse_cards("2c2d")) == 0b11


def _deuce_share(hands: npt.NDArray[np.uint8]) -> float:
    return float(((hands >> 2) == 0).any(axis=1).mean())


@pytest.mark.parametrize("joint_rounds", [60, 0])
def test_dealt_ranges_share_no_card_and_are_uniform_over_disjoint_pairs(
    joint_rounds: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 0 joint rounds: every trial goes through the Gibbs fallback.
    monkeypatch.setattr(ranges_module, "JOINT_ROUNDS", joint_rounds)
    hero = parse_cards("7s5d4h3c2d")
    r = unknown_range(default_strategy(D27), 1, 5, hero)
    rng = np.random.default_rng(1)
    hands, used = deal_ranges([r, r], 100_000, rng)
    flat = np.sort(hands.reshape(len(hands), 10), axis=1)
    assert not (flat[:, 1:] == flat[:, :-1]).any()
    assert (used == card_masks(hands[:, 0]) | card_masks(hands[:, 1])).all()
    # Reference: independent pairs, the sharing ones thrown away (exactly uniform).
    a = r.hands[rng.integers(len(r.hands), size=600_000)]
    b = r.hands[rng.integers(len(r.hands), size=600_000)]
    ok = (card_masks(a) & card_masks(b)) == 0
    expected = _deuce_share(a[ok])
    se = np.sqrt(0.25 / 100_000) + np.sqrt(0.25 / ok.sum())
    assert abs(_deuce_share(hands[:, 0]) - expected) < 4 * se
    assert abs(_deuce_share(hands[:, 1]) - expected) < 4 * se
