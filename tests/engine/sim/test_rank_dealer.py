"""The dealer by ranks (engine.sim.rank_dealer): ranges read as rank multisets, and deals
exactly uniform over the deals that fit, checked against every deal counted and against
the whole-deal dealer it stands in for."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from engine.cards import parse_cards
from engine.ranking import Ranking
from engine.sim.ranges import Range, RangeDealer, base_range, card_masks, mask_of
from engine.sim.rank_dealer import RankDealer, exact_dealer, rank_order, rank_range
from engine.sim.strategy import default_strategy

D27, A5, HIGH = Ranking.DEUCE_SEVEN, Ranking.ACE_FIVE, Ranking.HIGH
# The cards left free: ten ranks in two suits, so every range holds a few thousand hands
# and every pair of hands can be counted.
FREE = parse_cards("2c2d3c3d4c4d5c5d6c6d7c7d8c8d9c9dTcTdKcKd")
KNOWN = mask_of(set(range(52)) - set(FREE))


@pytest.mark.slow
def test_the_low_games_ranges_are_rank_multisets_and_five_card_draw_is_not() -> None:
    pat = rank_range(base_range(default_strategy(D27), 1, 5), rank_order(D27))
    assert pat is not None
    assert len(pat.counts) == 121 and pat.nonflush.all() and not len(pat.flushes)
    one = rank_range(base_range(default_strategy(D27), 1, 4), rank_order(D27))
    assert one is not None
    assert len(one.counts) == 565 and not one.nonflush.any()
    assert len(one.flushes) == 121 * 4  # the ten-low flushes: broken to four, not pat
    # Four distinct cards among the eight ranks to the 9: one of them among the five lowest.
    assert list(one.least[:8]) == [0, 0, 0, 0, 1, 2, 3, 4]
    a5 = rank_range(base_range(default_strategy(A5), 1, 5), rank_order(A5))
    assert a5 is not None and len(a5.counts) == 126 and not a5.nonflush.any()
    assert rank_range(base_range(default_strategy(HIGH), 1, 4), rank_order(HIGH)) is None


def _free(r: Range) -> npt.NDArray[np.int64]:
    return np.flatnonzero((r.masks & np.uint64(KNOWN)) == 0)


def _cell(hands: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """A deal's cell: each hand's highest rank and whether it is a flush."""
    top = (hands >> 2).max(axis=2).astype(np.int64)
    suits = hands & 3
    flush = (suits == suits[:, :, :1]).all(axis=2).astype(np.int64)
    return (top[:, 0] * 2 + flush[:, 0]) * 26 + top[:, 1] * 2 + flush[:, 1]


def _exact_shares(first: Range, second: Range) -> npt.NDArray[np.float64]:
    """The share of each cell among all the pairs of free hands that share no card."""
    a, b = _free(first), _free(second)
    tally = np.zeros(26 * 26)
    for i in range(0, len(a), 512):
        rows = a[i : i + 512]
        fits = (first.masks[rows][:, None] & second.masks[b][None, :]) == 0
        r, c = np.nonzero(fits)
        pair = np.stack([first.hands[rows[r]], second.hands[b[c]]], axis=1)
        tally += np.bincount(_cell(pair), minlength=26 * 26)
    return tally / tally.sum()


def _chi_square(cells: npt.NDArray[np.int64], shares: npt.NDArray[np.float64]) -> tuple[float, int]:
    seen = np.bincount(cells, minlength=len(shares))
    expected = shares * len(cells)
    assert not seen[expected == 0].any()  # nothing dealt that cannot be
    used = expected > 0
    return float((((seen - expected) ** 2)[used] / expected[used]).sum()), int(used.sum())


@pytest.mark.slow
@pytest.mark.parametrize("keeps", [(4, 4), (4, 5), (3, 4)])
def test_the_deals_are_uniform_over_every_pair_that_fits(keeps: tuple[int, int]) -> None:
    """Drawing one beside drawing one (flushes of the range on both sides, so two of them
    can meet), beside a pat hand (no flushes), and drawing two: the share of each cell (both
    hands' top ranks and flushes) over 120,000 deals against the share counted over every
    pair of free hands that fits, for the dealer by ranks and for the whole-deal dealer."""
    strategy = default_strategy(D27)
    ranges = [base_range(strategy, 1, k) for k in keeps]
    shares = _exact_shares(*ranges)
    ranked = [rank_range(r, rank_order(D27)) for r in ranges]
    assert all(r is not None for r in ranked)
    new = RankDealer([r for r in ranked if r is not None], KNOWN, rank_order(D27))
    old = RangeDealer(ranges, KNOWN)
    for dealer, seed in ((new, 1), (old, 2)):
        rng = np.random.default_rng(seed)
        hands = np.concatenate([dealer.deal(20_000, rng)[0] for _ in range(6)])
        flat = np.sort(hands.reshape(len(hands), 10), axis=1)
        assert not (flat[:, 1:] == flat[:, :-1]).any()
        assert not (card_masks(hands.reshape(len(hands), 10)) & np.uint64(KNOWN)).any()
        for seat, k in enumerate(keeps):
            assert (strategy.keep(hands[:, seat], 1).sum(axis=1) == k).all()
        statistic, cells = _chi_square(_cell(hands), shares)
        # chi-square with cells - 1 degrees of freedom: mean cells - 1, sd sqrt(2 (cells - 1))
        assert statistic < cells - 1 + 5 * np.sqrt(2 * (cells - 1)), (dealer, statistic, cells)


def test_crowded_ranges_are_dealt_exactly_where_the_whole_deal_dealer_gave_up() -> None:
    """Five opponents drawing one around a hero holding low cards: almost no whole deal
    fits, and the dealer by ranks deals them all (no Gibbs sweeps), each hand in its range
    and no card twice."""
    strategy = default_strategy(D27)
    hero = parse_cards("8s 7d 4h 3c 2s")
    known = mask_of(hero)
    ranges = [base_range(strategy, 2, 4)] * 5
    exact = exact_dealer(ranges, known, D27)
    assert exact is not None
    dealer = RangeDealer(ranges, known, exact)
    hands, used = dealer.deal(2_000, np.random.default_rng(5))
    assert dealer.fitted < 0.01 * dealer.tried  # the whole-deal dealer stepped aside
    flat = np.sort(hands.reshape(len(hands), 25), axis=1)
    assert not (flat[:, 1:] == flat[:, :-1]).any()
    assert not (used & np.uint64(known)).any()
    assert (strategy.keep(hands.reshape(-1, 5), 2).sum(axis=1) == 4).all()
