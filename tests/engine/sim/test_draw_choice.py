"""draw_equity: every discard choice scored, best first, exact where it can be."""

from __future__ import annotations

import pytest

from engine.cards import CardError, parse_cards
from engine.ranking import Ranking
from engine.sim.draw_choice import all_keeps, draw_equity, sensible_keeps
from engine.sim.equity import Player, exact_equity
from engine.sim.strategy import STAND_PAT

D27, A5 = Ranking.DEUCE_SEVEN, Ranking.ACE_FIVE


def P(text: str) -> tuple[int, ...]:
    return parse_cards(text)


def test_all_keeps_are_the_32_subsets() -> None:
    keeps = all_keeps(P("7s5d4h3cKd"))
    assert len(keeps) == len(set(keeps)) == 32
    assert keeps[0] == P("7s5d4h3cKd") and keeps[-1] == ()


def test_sensible_keeps_never_hold_a_pair() -> None:
    keeps = sensible_keeps(P("8s8d4h3cKd"), D27)
    assert len(keeps) == 24  # 32 less the 8 subsets holding both eights
    assert all(not {P("8s")[0], P("8d")[0]} <= set(k) for k in keeps)


def test_one_draw_against_a_pat_hand_is_exact() -> None:
    hand = P("7s5d4h3cKd")
    pat = Player(P("8s6d4c3h2d"), STAND_PAT)
    choices = draw_equity(hand, 1, D27, [pat])
    assert len(choices) == 32 and all(c.exact and c.stderr == 0.0 for c in choices)
    best = choices[0]
    assert best.keep == P("7s5d4h3c") and best.discard == P("Kd")
    assert best.equity == pytest.approx(3 / 42) and best.loss == 0.0
    assert best.label == "keep 7s 5d 4h 3c, draw 1"
    assert best.as_good_as_best and not choices[1].as_good_as_best
    # 7-4-3 needs 5-2 or 6-2, 5-4-3 needs 7-2 or 8-2: 2 x 3 x 3 = 18 of 861 pairs each
    assert choices[1].equity == choices[2].equity == pytest.approx(18 / 861)
    pat_choice = next(c for c in choices if not c.discard)
    assert pat_choice.equity == 0.0 and pat_choice.label == "stand pat"
    assert pat_choice.loss == pytest.approx(3 / 42)
    assert [c.equity for c in choices] == sorted((c.equity for c in choices), reverse=True)


@pytest.mark.parametrize("keep", ["7s5d4h", "5d4h3c", "7s3c", "Kd7s5d4h3c", "4h3cKd"])
def test_exact_choices_agree_with_the_enumerator(keep: str) -> None:
    # Two independent enumerations: numpy over card combinations, and exact_equity's tree.
    hand, pat = P("7s5d4h3cKd"), Player(P("8s6d4c3h2d"), STAND_PAT)
    kept = P(keep)
    (choice,) = draw_equity(hand, 1, D27, [pat], keeps=[kept])
    thrown = tuple(c for c in hand if c not in kept)
    me = Player(kept, STAND_PAT) if not thrown else Player(kept, discards=thrown)
    assert choice.equity == pytest.approx(exact_equity([me, pat], D27, 1).equity[0])


def test_ties_with_the_pat_hand_are_shared() -> None:
    # Drawing one to 7-5-4-3 against pat 7-5-4-3-2: a deuce ties (half the pot), nothing wins.
    hand, pat = P("7h5c4d3sKd"), Player(P("7s5d4h3c2s"), STAND_PAT)
    (choice,) = draw_equity(hand, 1, D27, [pat], keeps=[P("7h5c4d3s")])
    assert choice.equity == pytest.approx(3 / 42 / 2)


def test_several_draws_are_simulated_with_errors() -> None:
    hand = P("7s5d4h3cKd")
    choices = draw_equity(
        hand, 3, D27, [Player(P("8s6d4c"))], keeps=[P("7s5d4h3c"), P("7s5d4h3cKd"), P("Kd")]
    )
    assert [c.keep for c in choices] == [P("7s5d4h3c"), P("7s5d4h3cKd"), P("Kd")]
    assert all(not c.exact and 0 < c.stderr < 0.01 for c in choices)
    assert choices[0].loss == 0.0 and choices[2].loss > 0.1


def test_a5_rough_pat_against_a_drawing_hand() -> None:
    # A-5, one draw, pat 9-8-7-6-5 against our A-2-3-4 + K: draw one.
    choices = draw_equity(P("As2d3h4cKd"), 1, A5, [Player(P("9s7d6h5c8s"), STAND_PAT)])
    assert choices[0].discard == P("Kd")
    # A 5, 6, 7, 8 or 9 makes 9-low or better with 4-3-2-A under it, which beats 9-8-7-6-5;
    # the opponent holds one of each, so 5 ranks x 3 cards = 15 of the 42 unseen win.
    # A pairing card or a ten and up loses.
    assert choices[0].equity == pytest.approx(15 / 42)


def test_bad_calls_are_refused() -> None:
    pat = Player(P("8s6d4c3h2d"), STAND_PAT)
    with pytest.raises(CardError):
        draw_equity(P("7s5d4h3c"), 1, D27, [pat])
    with pytest.raises(CardError):
        draw_equity(P("7s5d4h3c2d"), 1, D27, [pat])
    with pytest.raises(ValueError, match="opponents"):
        draw_equity(P("7s5d4h3cKd"), 1, D27, [])
    with pytest.raises(ValueError, match="no draw"):
        draw_equity(P("7s5d4h3cKd"), 0, D27, [pat])
    with pytest.raises(CardError, match="cannot keep"):
        draw_equity(P("7s5d4h3cKd"), 1, D27, [pat], keeps=[P("9s")])


def test_opponents_known_only_by_their_draw_counts() -> None:
    # Against a pat hand (unknown, from the default strategy's pat range) and a one-card
    # draw, with two draws left: breaking 7-5-4-3-K to draw one beats standing pat on
    # king-high or drawing five.
    hand = P("7s5d4h3cKd")
    keeps = [P("7s5d4h3c"), hand, ()]
    choices = draw_equity(
        hand, 2, D27, [Player.drawing(0), Player.drawing(1)], keeps=keeps, trials=20_000
    )
    assert [c.keep for c in choices] == [P("7s5d4h3c"), hand, ()]
    assert all(not c.exact for c in choices)
    assert choices[1].loss > 4 * (choices[0].stderr + choices[1].stderr)
    assert choices[0].as_good_as_best and not choices[1].as_good_as_best
