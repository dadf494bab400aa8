"""The review's last draw heads-up against one pat hand, checked against an independent exact
engine (poker-equity, enumerating every draw against every hand of the range), at showdown
and with the pat hand folding to the hero's bet; and the classic spots a 2-7 player knows."""

from __future__ import annotations

import numpy as np
import poker_equity as pe
import pytest

from engine.cards import Cards, format_cards
from engine.cards import parse_cards as P
from engine.ranking import Ranking
from engine.sim.batch import rank_batch
from engine.sim.ranges import unknown_range
from engine.sim.reads import Read, read_strategy
from engine.sim.review import Spot, review
from engine.sim.strategy import default_strategy

D27 = Ranking.DEUCE_SEVEN


def _oracle(hand: Cards, kept: Cards, pats: np.ndarray) -> float:
    """The mean over the pat hands of poker-equity's exact share of drawing to ``kept``."""
    dead = format_cards([c for c in hand if c not in kept], "")
    mine = format_cards(kept, "")
    shares = [
        pe.exact_from_text("deuce_seven", [mine, format_cards(h, "")], "", dead)["players"][0][
            "equity"
        ]
        for h in pats
    ]
    return float(np.mean(shares))


def _spot(bet: float = 0.0) -> Spot:
    # a tight player pat since the first draw: eight-low or better, 8,152 hands here
    hand = P("Kc 7d 5h 3s 2c")
    return Spot(D27, hand, 1, (0,), reads=(Read(0, 3),), profile="tight", bet=bet)


def _pats(spot: Spot) -> np.ndarray:
    strategy = read_strategy(D27, spot.profile, draws_left=1, since=3, aggressor=False)
    return unknown_range(strategy, 1, 5, set(spot.hand)).hands


@pytest.mark.slow
def test_the_last_draw_against_a_pat_range_agrees_with_poker_equity() -> None:
    spot = _spot()
    pats = _pats(spot)
    assert len(pats) == 8_152
    found = review(spot, P("7d 5h 3s 2c"))
    by_keep = {tuple(sorted(c.keep)): c for c in found.choices}
    for kept in (P("7d 5h 3s 2c"), P("5h 3s 2c")):
        choice = by_keep[tuple(sorted(kept))]
        assert choice.exact
        assert choice.equity == pytest.approx(_oracle(spot.hand, kept, pats), abs=1e-12)
    assert sorted(found.best_kept) == sorted(P("7d 5h 3s 2c")) and found.loss == 0


@pytest.mark.slow
def test_folds_to_the_bet_agree_with_poker_equity_against_the_hands_that_call() -> None:
    spot = _spot(bet=0.5)  # a big bet into two: a limit bet after the last draw
    pats = _pats(spot)
    kept = P("7d 5h 3s 2c")
    share = spot.defend(kept)
    assert share == pytest.approx(1 / 1.5 * 0.8 * 0.85)
    ranks = rank_batch(pats, D27)
    cut = np.sort(ranks)[int(np.ceil(share * len(ranks))) - 1]
    callers = pats[ranks <= cut]
    part = len(callers) / len(pats)
    want = (1 - part) + part * _oracle(spot.hand, kept, callers)
    found = review(spot, kept)
    mine = next(c for c in found.choices if sorted(c.keep) == sorted(kept))
    assert mine.exact
    assert mine.equity == pytest.approx(want, abs=1e-12)


# The classic spots, each with the answer every 2-7 player gives.
CLASSICS = [
    # a pat 7-5 on the last draw against a one-card drawer: stand pat
    (Spot(D27, P("7s 5d 4h 3c 2s"), 1, (1,)), P("7s 5d 4h 3c 2s")),
    # a rough pat pair of sevens with two draws left: break the pair, draw one to 7-5-3-2
    (Spot(D27, P("7s 7d 5h 3c 2s"), 2, (2,)), P("7s 5h 3c 2s")),
    # a king on a 7-5-3-2 with three draws left against a two-card drawer: draw one
    (Spot(D27, P("Kd 7s 5h 3c 2s"), 3, (2,)), P("7s 5h 3c 2s")),
    # the last draw against a pat hand, 8-6-4-2 and a king: draw one, never snow the king
    (Spot(D27, P("Kd 8s 6h 4c 2s"), 1, (0,)), P("8s 6h 4c 2s")),
    # a smooth eight pat with three draws left against two three-card drawers: stand pat
    (Spot(D27, P("8s 6d 4h 3c 2s"), 3, (3, 3)), P("8s 6d 4h 3c 2s")),
]


@pytest.mark.parametrize("index", range(len(CLASSICS)))
def test_the_classic_spots_stay_right(index: int) -> None:
    spot, answer = CLASSICS[index]
    found = review(spot, answer)
    assert found.loss == 0, (format_cards(found.best_kept), found.equity_best)


@pytest.mark.slow
def test_badugi_last_draw_against_a_pat_badugi_agrees_with_poker_equity() -> None:
    hand = P("Ac 3d 5h Kh")
    spot = Spot(Ranking.BADUGI, hand, 1, (0,))
    found = review(spot, P("Ac 3d 5h"))
    pats = unknown_range(default_strategy(Ranking.BADUGI), 1, 4, set(hand), size=4).hands
    assert len(pats) == 12_410  # every badugi free of the hero's cards
    kept = P("Ac 3d 5h")
    mine = next(c for c in found.choices if sorted(c.keep) == sorted(kept))
    shares = [
        pe.exact_from_text("badugi", [format_cards(kept, ""), format_cards(h, "")], "", "Kh")[
            "players"
        ][0]["equity"]
        for h in pats
    ]
    assert mine.exact and mine.equity == pytest.approx(float(np.mean(shares)), abs=1e-12)
    assert sorted(found.best_kept) == sorted(kept) and found.loss == 0
