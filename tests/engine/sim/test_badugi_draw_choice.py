"""What to draw in Badugi against opponents known only by their draw counts: the ranges of
four-card hands, the exact last draw against an unknown pat badugi, the simulator."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

from engine.cards import parse_cards
from engine.ranking import Ranking
from engine.sim.batch import combinations_array, rank_batch
from engine.sim.draw_choice import draw_equity, sensible_keeps
from engine.sim.equity import Player, equity, keep_equities
from engine.sim.ranges import ANY_KEEP, base_range, unknown_range
from engine.sim.strategy import default_strategy

B = Ranking.BADUGI
BADUGIS = comb(13, 4) * 24  # four ranks, each given one of the four suits: 17,160


def test_a_pat_badugi_range_is_every_badugi() -> None:
    strategy = default_strategy(B)
    for draws_left in (1, 2, 3):
        pat = base_range(strategy, draws_left, 4, size=4)
        assert pat.hands.shape == (BADUGIS, 4)
    hand = parse_cards("2c 3d 4h 4s")
    free = unknown_range(strategy, 1, 4, hand, size=4)
    # badugis free of four known cards (ranks 2, 3, 4, 4; suits c, d, h, s)
    brute = combinations_array(52, 4)
    ranks, suits = brute >> 2, brute & 3
    is_badugi = np.array(
        [len(set(r)) == 4 == len(set(s)) for r, s in zip(ranks, suits, strict=True)]
    )
    clear = ~np.isin(brute, hand).any(axis=1)
    assert len(free.hands) == int((is_badugi & clear).sum())
    anything = base_range(strategy, 3, ANY_KEEP, size=4)
    assert anything.hands.shape == (270_725, 4)


def test_ranges_of_five_and_four_cards_are_kept_apart() -> None:
    five = base_range(default_strategy(Ranking.ACE_FIVE), 3, ANY_KEEP)
    four = base_range(default_strategy(B), 3, ANY_KEEP, size=4)
    assert five.hands.shape == (2_598_960, 5) and four.hands.shape == (270_725, 4)


def _brute_last_draw(keep: tuple[int, ...], hand: tuple[int, ...]) -> float:
    """Every pat badugi free of the hand, against every draw to ``keep`` from the cards left:
    the plain double loop the exact path must agree with."""
    strategy = default_strategy(B)
    pats = unknown_range(strategy, 1, 4, hand, size=4).hands
    need = 4 - len(keep)
    pat_ranks = rank_batch(pats, B).astype(np.int64)
    total = 0.0
    unseen = [c for c in range(52) if c not in hand]
    for pat, pat_rank in zip(pats, pat_ranks, strict=True):
        left = np.array([c for c in unseen if c not in set(pat.tolist())], dtype=np.uint8)
        draws = left[combinations_array(len(left), need)]
        hands = np.concatenate([np.tile(np.array(keep, dtype=np.uint8), (len(draws), 1)), draws], 1)
        mine = rank_batch(hands, B).astype(np.int64)
        total += float(((mine < pat_rank) + 0.5 * (mine == pat_rank)).mean())
    return total / len(pats)


@pytest.mark.slow
def test_the_last_draw_against_an_unknown_pat_badugi_is_exact() -> None:
    hand = parse_cards("2c 3d 4h 4s")
    choices = draw_equity(hand, 1, B, [Player.drawing(0, size=4)], keeps=sensible_keeps(hand, B))
    assert len(choices) == 12
    # every draw of up to three cards is counted; drawing four is simulated (too many)
    assert [c.exact for c in choices if len(c.discard) <= 3] == [True] * 11
    assert [c.exact for c in choices if len(c.discard) == 4] == [False]
    by_label = {c.label: c for c in choices}
    best = by_label["keep 2c 3d 4h, draw 1"]
    assert best.equity == pytest.approx(_brute_last_draw(parse_cards("2c 3d 4h"), hand), abs=1e-12)
    two = by_label["keep 2c 3d, draw 2"]
    assert two.equity == pytest.approx(_brute_last_draw(parse_cards("2c 3d"), hand), abs=1e-12)
    assert [c.label for c in choices[:2]] == ["keep 2c 3d 4h, draw 1", "keep 2c 3d 4s, draw 1"]
    assert choices[0].equity == choices[1].equity  # the 4h and the 4s play alike
    # the simulator, on the same situation, agrees within its noise
    ((sim, se),) = keep_equities(hand, [parse_cards("2c 3d 4h")], [Player.drawing(0, size=4)],
                                 B, 1, trials=60_000, seed=5)  # fmt: skip
    assert abs(sim - best.equity) < 4 * se


@pytest.mark.slow
def test_opponents_drawing_are_dealt_from_their_badugi_ranges() -> None:
    # An opponent seen drawing one with one draw left keeps three cards of a subset to the
    # king: after the draw they hold one of those three and a fourth card, never a pat
    # badugi dealt at the start.  Against a pat 8-high badugi, one draw: exact enumeration
    # of that range is what the simulator must meet.
    mine = parse_cards("8c 5d 3h 2s")
    strategy = default_strategy(B)
    opponent = unknown_range(strategy, 1, 3, mine, size=4)
    assert len(opponent.hands) > 0
    mask = strategy.keep(opponent.hands, 1)
    assert (mask.sum(axis=1) == 3).all()
    result = equity([Player(mine, strategy=None), Player.drawing(1, size=4)], B, 1,
                    trials=40_000, seed=11)  # fmt: skip
    # exact: for each hand of the range, the draws to its kept three that beat 8-5-3-2
    mine_rank = int(rank_batch(np.array([mine], dtype=np.uint8), B)[0])
    total = 0.0
    unseen = [c for c in range(52) if c not in mine]
    for row, keep in zip(opponent.hands, mask, strict=True):
        kept = row[keep]
        left = np.array([c for c in unseen if c not in set(row.tolist())], dtype=np.uint8)
        hands = np.concatenate([np.tile(kept, (len(left), 1)), left[:, None]], 1)
        theirs = rank_batch(hands, B).astype(np.int64)
        total += float(((theirs > mine_rank) + 0.5 * (theirs == mine_rank)).mean())
    exact = total / len(opponent.hands)
    assert abs(result.equity[0] - exact) < 4 * result.stderr[0]
    assert 0.5 < exact < 1.0


def test_a_draw_count_is_read_in_its_own_games_terms() -> None:
    hand = parse_cards("2c 3d 4h 4s")
    with pytest.raises(ValueError, match="5-card game, this one deals 4"):
        draw_equity(hand, 1, B, [Player.drawing(1)])  # five-card terms: not silently pat
    assert Player.drawing(1, size=4).keeps_unknown == 3
