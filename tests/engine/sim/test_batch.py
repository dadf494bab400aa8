"""Exhaustive checks over all 2,598,960 five-card hands, with the numpy batch evaluator."""

from __future__ import annotations

from math import comb

import numpy as np
import numpy.typing as npt
import pytest

from engine.cards import parse_cards
from engine.ranking import CLASS_COUNT, FIVE_CARD_RANKINGS, Category, Ranking, rank
from engine.sim.batch import all_hands, category_batch, combinations_array, rank_batch

D27, A5, HIGH = Ranking.DEUCE_SEVEN, Ranking.ACE_FIVE, Ranking.HIGH
C = Category

# (hands, distinct rank values) per category; high poker's are the textbook figures.
EXPECTED = {
    HIGH: {
        C.STRAIGHT_FLUSH: (40, 10),
        C.QUADS: (624, 156),
        C.FULL_HOUSE: (3744, 156),
        C.FLUSH: (5108, 1277),
        C.STRAIGHT: (10200, 10),
        C.TRIPS: (54912, 858),
        C.TWO_PAIR: (123552, 858),
        C.PAIR: (1098240, 2860),
        C.HIGH_CARD: (1302540, 1277),
    },
    # 2-7: A-2-3-4-5 is no straight, so 4 wheel straight flushes become flushes and
    # 1,020 wheels become ace-high hands.
    D27: {
        C.STRAIGHT_FLUSH: (36, 9),
        C.QUADS: (624, 156),
        C.FULL_HOUSE: (3744, 156),
        C.FLUSH: (5112, 1278),
        C.STRAIGHT: (9180, 9),
        C.TRIPS: (54912, 858),
        C.TWO_PAIR: (123552, 858),
        C.PAIR: (1098240, 2860),
        C.HIGH_CARD: (1303560, 1278),
    },
    # no straights or flushes; every five distinct ranks is a no-pair hand.
    A5: {
        C.QUADS: (624, 156),
        C.FULL_HOUSE: (3744, 156),
        C.TRIPS: (54912, 858),
        C.TWO_PAIR: (123552, 858),
        C.PAIR: (1098240, 2860),
        C.HIGH_CARD: (comb(13, 5) * 4**5, comb(13, 5)),
    },
}

# Category order from best to worst in each ranking.
ORDER = {
    HIGH: [
        C.STRAIGHT_FLUSH,
        C.QUADS,
        C.FULL_HOUSE,
        C.FLUSH,
        C.STRAIGHT,
        C.TRIPS,
        C.TWO_PAIR,
        C.PAIR,
        C.HIGH_CARD,
    ],
    D27: [
        C.HIGH_CARD,
        C.PAIR,
        C.TWO_PAIR,
        C.TRIPS,
        C.STRAIGHT,
        C.FLUSH,
        C.FULL_HOUSE,
        C.QUADS,
        C.STRAIGHT_FLUSH,
    ],
    A5: [C.HIGH_CARD, C.PAIR, C.TWO_PAIR, C.TRIPS, C.FULL_HOUSE, C.QUADS],
}


@pytest.fixture(scope="module")
def ranks() -> dict[Ranking, npt.NDArray[np.int16]]:
    hands = all_hands()
    return {r: rank_batch(hands, r) for r in FIVE_CARD_RANKINGS}


@pytest.mark.slow
def test_all_hands_are_every_combination_once() -> None:
    hands = all_hands()
    assert hands.shape == (2598960, 5)
    assert (np.diff(hands.astype(np.int16), axis=1) > 0).all()
    codes = (hands.astype(np.int64) * np.array([52**4, 52**3, 52**2, 52, 1])).sum(axis=1)
    assert (np.diff(codes) > 0).all()  # strictly increasing: no repeats, and 2,598,960 of them


@pytest.mark.parametrize("ranking", list(FIVE_CARD_RANKINGS))
def test_class_counts(ranks: dict[Ranking, npt.NDArray[np.int16]], ranking: Ranking) -> None:
    values = ranks[ranking]
    assert values.min() == 0
    assert np.unique(values).size == CLASS_COUNT[ranking]
    assert values.max() == CLASS_COUNT[ranking] - 1
    cats = category_batch(values, ranking)
    found = {}
    for cat in Category:
        mask = cats == cat
        if mask.any():
            found[cat] = (int(mask.sum()), int(np.unique(values[mask]).size))
    assert found == EXPECTED[ranking]


@pytest.mark.parametrize("ranking", list(FIVE_CARD_RANKINGS))
def test_categories_are_contiguous_in_rank_order(
    ranks: dict[Ranking, npt.NDArray[np.int16]], ranking: Ranking
) -> None:
    values = np.unique(ranks[ranking])
    cats = category_batch(values, ranking)
    order = [int(c) for c in ORDER[ranking]]
    position = np.array([order.index(int(c)) for c in cats])
    assert (np.diff(position) >= 0).all()
    assert sorted(set(position.tolist())) == list(range(len(order)))


def _descending_ranks(hands: npt.NDArray[np.uint8], ace_low: bool) -> npt.NDArray[np.int64]:
    rk = (hands >> 2).astype(np.int64)
    if ace_low:
        rk = (rk + 1) % 13
    rk = -np.sort(-rk, axis=1)
    code: npt.NDArray[np.int64] = (rk * np.array([13**4, 13**3, 13**2, 13, 1])).sum(axis=1)
    return code


@pytest.mark.parametrize(("ranking", "ace_low"), [(D27, False), (A5, True)])
def test_no_pair_lows_compare_card_by_card_from_the_top(
    ranks: dict[Ranking, npt.NDArray[np.int16]], ranking: Ranking, ace_low: bool
) -> None:
    hands = all_hands()
    values = ranks[ranking]
    mask = category_batch(values, ranking) == Category.HIGH_CARD
    code = _descending_ranks(hands[mask], ace_low)
    v = values[mask]
    # Same top-down ranks <=> same rank value, and the order of values follows the codes.
    pairs = np.unique(code * 10_000 + v)  # sorted by code, then value
    assert pairs.size == np.unique(code).size == np.unique(v).size
    assert (np.diff(pairs % 10_000) > 0).all()


def test_named_hands_in_the_exhaustive_order(ranks: dict[Ranking, npt.NDArray[np.int16]]) -> None:
    values = ranks[D27]
    best = all_hands()[values == 0]
    assert best.shape[0] == 4**5 - 4  # 7-5-4-3-2 in any suits but one
    assert sorted({int(c) >> 2 for c in best.ravel()}) == [0, 1, 2, 3, 5]
    assert int(values.max()) == rank(parse_cards("AsKsQsJsTs"), D27)
    assert int(ranks[A5].max()) == rank(parse_cards("KsKdKhKcQs"), A5)
    assert (all_hands()[ranks[HIGH] == 0] >> 2).tolist() == [[8, 9, 10, 11, 12]] * 4


@pytest.mark.slow
def test_scalar_rank_matches_batch_on_a_large_sample(
    ranks: dict[Ranking, npt.NDArray[np.int16]],
) -> None:
    hands = all_hands()
    rng = np.random.default_rng(7)
    picks = rng.choice(hands.shape[0], size=60000, replace=False)
    for ranking in FIVE_CARD_RANKINGS:
        scalar = [rank(tuple(int(c) for c in hands[i]), ranking) for i in picks]
        assert scalar == ranks[ranking][picks].tolist()


def test_batch_takes_any_card_order() -> None:
    hands = all_hands()[::9973]
    shuffled = np.random.default_rng(3).permuted(hands, axis=1)
    for ranking in FIVE_CARD_RANKINGS:
        assert (rank_batch(shuffled, ranking) == rank_batch(hands, ranking)).all()


def test_batch_rejects_wrong_shape() -> None:
    with pytest.raises(ValueError, match="shape"):
        rank_batch(np.zeros((3, 4), dtype=np.uint8), D27)


def test_combinations_array_is_itertools_combinations() -> None:
    from itertools import combinations

    for n in range(0, 11):
        for k in range(0, n + 1):
            expected = list(combinations(range(n), k))
            got = combinations_array(n, k)
            assert got.shape == (len(expected), k)
            assert [tuple(int(c) for c in row) for row in got] == expected
    assert combinations_array(42, 5).shape == (850_668, 5)
