"""What to draw: every choice scored by engine.sim.draw_choice, the best and the losses."""

from __future__ import annotations

import random

import numpy as np
import pytest

from analysis.drills import draws
from analysis.drills.draws import DrawQuestion, check, evaluate, generate, keep_of
from engine.cards import CardError, parse_cards
from engine.ranking import Ranking
from engine.sim.draw_choice import draw_equity, sensible_keeps
from engine.sim.equity import Player
from engine.sim.strategy import STAND_PAT, default_strategy

D27, A5 = Ranking.DEUCE_SEVEN, Ranking.ACE_FIVE
HAND = parse_cards("8s 6d 4h 3c Kd")
PAT = parse_cards("9h 7c 5d 4s 2h")


def pat_question() -> DrawQuestion:
    return DrawQuestion(D27, draws.PAT_TO_BEAT, HAND, 1, pat=PAT)


def test_one_draw_against_a_pat_nine_is_exact_nine_outs_in_42() -> None:
    fb = check(pat_question(), parse_cards("Kd"))
    # 8-6-4-3 beats 9-7-5-4-2 with any deuce, five or seven left: 3 + 3 + 3 of 42 unseen
    assert fb.correct and fb.chosen is fb.best
    assert fb.chosen.equity == pytest.approx(9 / 42, abs=1e-12)
    assert fb.chosen.loss == 0.0 and fb.chosen.exact
    assert fb.notes == ()


def test_the_ranked_list_is_draw_choice_s() -> None:
    q = pat_question()
    fb = check(q, parse_cards("8s Kd"))
    direct = draw_equity(HAND, 1, D27, [Player(PAT, STAND_PAT)], keeps=sensible_keeps(HAND, D27))
    assert [(c.keep, c.equity, c.loss) for c in fb.choices] == [
        (c.keep, c.equity, c.loss) for c in direct
    ]
    assert not fb.correct
    assert fb.chosen.keep == parse_cards("6d 4h 3c")
    assert fb.chosen.loss == pytest.approx(fb.best.equity - fb.chosen.equity, abs=1e-12)
    assert [c.equity for c in fb.choices] == sorted((c.equity for c in fb.choices), reverse=True)


def test_a_keep_outside_the_sensible_ones_is_scored_too() -> None:
    hand = parse_cards("7s 7d 4h 3c 2d")
    q = DrawQuestion(D27, draws.PAT_TO_BEAT, hand, 1, pat=PAT)
    fb = check(q, parse_cards("4h 3c 2d"))  # keeps the pair of sevens
    assert fb.chosen.keep == parse_cards("7s 7d")
    assert not fb.correct and fb.chosen.equity == 0.0  # a pair of sevens never beats a 9-low
    assert fb.best.keep in (parse_cards("7s 4h 3c 2d"), parse_cards("7d 4h 3c 2d"))


def test_simulated_choices_are_draw_choice_s_with_the_same_seed() -> None:
    q = DrawQuestion(D27, draws.DRAW_COUNTS, HAND, 2, drawing=(1,), seed=7)
    keeps = [parse_cards("8s 6d 4h 3c"), parse_cards("6d 4h 3c"), HAND]
    fb = check(q, parse_cards("Kd"), trials=2000, choices=None)
    direct = draw_equity(HAND, 2, D27, [Player.drawing(1)], keeps=sensible_keeps(HAND, D27),
                         trials=2000, seed=7)  # fmt: skip
    assert [(c.keep, c.equity) for c in fb.choices] == [(c.keep, c.equity) for c in direct]
    for keep in keeps:
        ours = next(c for c in fb.choices if c.keep == keep)
        assert ours.stderr > 0 and not ours.exact
    assert fb.correct == fb.chosen.as_good_as_best
    assert fb.notes and "2,000 deals" in fb.notes[0]


def test_standing_pat_is_an_empty_discard() -> None:
    q = DrawQuestion(D27, draws.PAT_TO_BEAT, parse_cards("8s 6d 4h 3c 2d"), 1,
                     pat=parse_cards("9h 7c 5d 4s 2h"))  # fmt: skip
    fb = check(q, ())
    assert fb.chosen.label == "stand pat" and fb.chosen.equity == 1.0 and fb.correct


def test_keep_of_and_refusals() -> None:
    assert keep_of(HAND, parse_cards("Kd 8s")) == parse_cards("6d 4h 3c")
    with pytest.raises(CardError):
        keep_of(HAND, parse_cards("As"))
    with pytest.raises(ValueError, match="one draw"):
        DrawQuestion(Ranking.HIGH, draws.PAT_TO_BEAT, HAND, 2, pat=PAT)
    with pytest.raises(CardError):
        DrawQuestion(D27, draws.PAT_TO_BEAT, HAND, 1, pat=parse_cards("Kd 7c 5d 4s 2h"))
    with pytest.raises(ValueError):
        DrawQuestion(D27, draws.DRAW_COUNTS, HAND, 4, drawing=(1,))
    with pytest.raises(ValueError):
        DrawQuestion(D27, draws.DRAW_COUNTS, HAND, 2)


@pytest.mark.parametrize("ranking", [D27, A5])
def test_generated_questions(ranking: Ranking) -> None:
    rng = random.Random(11)
    strategy = default_strategy(ranking)
    for level in range(1, 6):
        for _ in range(20):
            q = generate(draws.PAT_TO_BEAT, ranking, level, rng)
            assert q.draws_left == 1 and q.pat is not None and q.drawing == ()
            assert not set(q.pat) & set(q.hand)
            assert strategy.keep(np.array([q.pat], dtype=np.uint8), 1).all()
            q = generate(draws.DRAW_COUNTS, ranking, level, rng)
            assert 1 <= q.draws_left <= min(3, level)
            assert 1 <= len(q.drawing) <= max(1, min(3, level - 1))
            assert all(0 <= d <= 3 for d in q.drawing) and q.pat is None
            lows = {c >> 2 for c in q.hand} & set(draws._low_ranks(ranking))
            assert len(lows) >= 2


def test_evaluate_includes_the_keep_taken_at_the_table() -> None:
    q = DrawQuestion(D27, draws.OWN, HAND, 1, pat=PAT, taken=parse_cards("Kd 8s"))
    fb = check(q, parse_cards("Kd"), choices=evaluate(q))
    assert fb.taken is not None and fb.taken.keep == parse_cards("8s Kd")
    assert fb.taken.equity == 0.0  # keeping the king: a king-high hand never beats a 9-low


def test_a_hand_set_up_by_the_player() -> None:
    q = draws.custom(D27, "8s6d4h3cKd", 1, pat="9h 7c 5d 4s 2h")
    assert (q.hand, q.pat, q.drawing, q.topic) == (HAND, PAT, (), draws.CUSTOM)
    assert check(q, parse_cards("Kd")).chosen.equity == pytest.approx(9 / 42, abs=1e-12)
    q = draws.custom(A5, "As 2d 3h 9c Kd", 3, drawing="1, 2")
    assert (q.drawing, q.pat, q.draws_left) == ((1, 2), None, 3)


@pytest.mark.parametrize(
    ("hand", "left", "pat", "drawing"),
    [("8s6d4h3c", 1, "9h7c5d4s2h", ""), ("8s6d4h3cKd", 1, "9h7c5d4s", ""),
     ("8s6d4h3cKd", 1, "", "x"), ("8s6d4h3cKd", 1, "", ""), ("8s6d4h3cKd", 1, "", "1 1 1 1 1 1"),
     ("8s6d4h3cKd", 1, "Kd7c5d4s2h", ""), ("8s8s4h3cKd", 1, "", "1"), ("zz", 1, "", "1")],
)  # fmt: skip
def test_a_set_up_that_is_no_situation_is_refused(
    hand: str, left: int, pat: str, drawing: str
) -> None:
    with pytest.raises(ValueError):
        draws.custom(D27, hand, left, pat, drawing)


def test_fewer_deals_per_choice_with_many_unknown_hands() -> None:
    def q(drawing: tuple[int, ...]) -> DrawQuestion:
        return DrawQuestion(D27, draws.DRAW_COUNTS, HAND, 2, drawing=drawing)

    assert [draws.trials_for(q(d)) for d in ((1,), (1, 2), (1, 2, 3), (1, 1, 1, 1, 1))] == [
        3000, 3000, 2000, 1200]  # fmt: skip
