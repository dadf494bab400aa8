"""Every five-card hand of the 53-card deck with one joker and of the 52-card deck with deuces
wild: engine/wild.py's values against the brute force of tests/engine/wild_brute.py (every wild
card tried as every card), class counts and the number of distinct values to the digit."""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt
import pytest

from engine.sim.batch import combinations_array
from engine.sim.wild_batch import category_high_batch, rank_high_batch, rank_low_batch
from engine.wild import HIGH_CATEGORIES, HighCategory, Wild, rank_high, rank_low, wild_cards
from tests.engine.wild_brute import CLASS_UNIT, brute_codes

# Counted by hand, the way the deuces-wild video poker tables count them (natural royal 4 +
# wild royal 480 + other straight flushes 2,068; five of a kind 624 + four deuces 48).
DEUCES_CLASSES = {
    HighCategory.FIVE_OF_A_KIND: 672,
    HighCategory.STRAIGHT_FLUSH: 2_552,
    HighCategory.QUADS: 31_552,
    HighCategory.FULL_HOUSE: 12_672,
    HighCategory.FLUSH: 14_472,
    HighCategory.STRAIGHT: 62_232,
    HighCategory.TRIPS: 355_080,
    HighCategory.TWO_PAIR: 95_040,
    HighCategory.PAIR: 1_225_008,
    HighCategory.HIGH_CARD: 799_680,  # 784 rank sets without a deuce or a straight, 1,020 suits
}
# The distinct values: natural hands and five of a kind, plus the flushes a wild duplicate
# pairs (A-A-K-9-4 suited); the low has every value of the 52-card A-5 table (the joker), or
# only those a deuce-wild hand can play.
DEUCES_DISTINCT = (5_368, 4_720)

# Wikipedia, "Poker probability", five-card hands with a joker fully wild (53 cards).
JOKER_CLASSES = {
    HighCategory.FIVE_OF_A_KIND: 13,
    HighCategory.STRAIGHT_FLUSH: 204,
    HighCategory.QUADS: 3_120,
    HighCategory.FULL_HOUSE: 6_552,
    HighCategory.FLUSH: 7_804,
    HighCategory.STRAIGHT: 20_532,
    HighCategory.TRIPS: 137_280,
    HighCategory.TWO_PAIR: 123_552,
    HighCategory.PAIR: 1_268_088,
    HighCategory.HIGH_CARD: 1_302_540,
}


@cache
def _everything(wild: Wild) -> dict[str, npt.NDArray[np.int64]]:
    deck = 53 if wild is Wild.JOKER else 52
    hands = combinations_array(deck, 5)
    high, low = brute_codes(hands, wild_cards(wild))
    return {
        "hands": hands.astype(np.int64),
        "high": rank_high_batch(hands, wild).astype(np.int64),
        "low": rank_low_batch(hands, wild).astype(np.int64),
        "brute_high": high,
        "brute_low": low,
    }


def _same_order(ours: npt.NDArray[np.int64], theirs: npt.NDArray[np.int64]) -> int:
    """Our values and the brute force's codes order every hand alike (ours smaller-better,
    ``theirs`` as given): one-to-one and monotone.  Returns the number of distinct values."""
    our_values, our_index = np.unique(ours, return_inverse=True)
    their_values, their_index = np.unique(theirs, return_inverse=True)
    pairs = np.unique(our_index * len(their_values) + their_index)
    assert len(pairs) == len(our_values) == len(their_values)
    assert (np.diff(pairs % len(their_values)) > 0).all()
    return len(pairs)


@pytest.mark.slow
@pytest.mark.parametrize("wild", [Wild.JOKER, Wild.DEUCES])
def test_every_hand_ranks_as_the_brute_force(wild: Wild) -> None:
    data = _everything(wild)
    assert len(data["hands"]) == (2_869_685 if wild is Wild.JOKER else 2_598_960)
    assert (data["high"] >= 0).all() and (data["low"] >= 0).all()
    distinct_high = _same_order(data["high"], -data["brute_high"])
    distinct_low = _same_order(data["low"], data["brute_low"])
    classes = category_high_batch(data["high"])
    assert (classes == data["brute_high"] // CLASS_UNIT).all()
    counts = {HIGH_CATEGORIES[c]: int(n) for c, n in enumerate(np.bincount(classes, minlength=10))}
    if wild is Wild.JOKER:
        assert counts == JOKER_CLASSES
        assert (distinct_high, distinct_low) == (7_687, 6_175)
    else:
        assert counts == DEUCES_CLASSES
        assert (distinct_high, distinct_low) == DEUCES_DISTINCT


@pytest.mark.slow
@pytest.mark.parametrize("wild", [Wild.JOKER, Wild.DEUCES])
def test_the_one_hand_ranking_agrees_with_the_batch(wild: Wild) -> None:
    """30,000 hands holding a wild card and 10,000 without, one at a time."""
    data = _everything(wild)
    hands = data["hands"]
    with_wild = np.isin(hands, list(wild_cards(wild))).any(axis=1)
    rng = np.random.default_rng(16)
    rows = np.concatenate(
        [
            rng.choice(np.flatnonzero(with_wild), 30_000, replace=False),
            rng.choice(np.flatnonzero(~with_wild), 10_000, replace=False),
        ]
    )
    high = [rank_high(tuple(int(c) for c in hands[i]), wild) for i in rows]
    low = [rank_low(tuple(int(c) for c in hands[i]), wild) for i in rows]
    assert high == data["high"][rows].tolist()
    assert low == data["low"][rows].tolist()
