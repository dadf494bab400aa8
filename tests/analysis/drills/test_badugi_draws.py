"""The "what to draw" drill in Badugi: generated and set-up questions scored by equity,
the outs in words, and the player's own Badugi draws as questions."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from analysis.drills import draws, own
from analysis.pipeline.importer import import_paths
from analysis.storage import db
from engine.cards import CardError, format_cards, parse_cards
from engine.ranking import Ranking, rank
from tests.paths import REPOSITORY

B = Ranking.BADUGI
SAMPLES = REPOSITORY / "sample_histories"


def _is_badugi(cards: tuple[int, ...]) -> bool:
    return len({c >> 2 for c in cards}) == 4 == len({c & 3 for c in cards})


@pytest.mark.parametrize("topic", draws.TOPICS)
def test_generated_badugi_questions_are_four_card_situations(topic: str) -> None:
    rng = random.Random(f"badugi-draw/{topic}")
    for level in (1, 2, 3, 4, 5):
        q = draws.generate(topic, B, level, rng)
        assert q.ranking is B and q.size == 4
        assert len(q.hand) == 4 == len(set(q.hand))
        assert 1 <= q.draws_left <= 3
        if topic == draws.PAT_TO_BEAT:
            assert q.pat is not None and _is_badugi(q.pat) and not set(q.pat) & set(q.hand)
            assert q.exact
        else:
            assert q.pat is None and 1 <= len(q.drawing) <= 3
            assert all(0 <= d <= 3 for d in q.drawing)


def test_the_best_badugi_draw_is_right_and_a_worse_one_is_wrong() -> None:
    q = draws.custom(B, "2c 3d 4h 4s", 1, "Kc Qd Jh Ts")
    assert q.exact
    best = draws.check(q, parse_cards("4s"))
    assert best.correct and best.chosen.equity == pytest.approx(9 / 44, abs=1e-12)
    worse = draws.check(q, parse_cards("3d 4s"), choices=best.choices)
    assert not worse.correct
    assert worse.chosen.loss == pytest.approx(9 / 44 - worse.chosen.equity, abs=1e-12)
    assert worse.chosen.loss > 0
    pat = draws.check(q, ())
    assert not pat.correct and pat.chosen.equity == 0.0  # a three-card hand loses to any badugi


def test_badugi_outs_in_words() -> None:
    show = format_cards
    q = draws.custom(B, "2c 3d 4h 4s", 1, "Kc Qd Jh Ts")
    fb = draws.check(q, parse_cards("4s"))
    assert draws.reasons(q, fb, show) == (
        "Keep 2c 3d 4h, draw 1: 9 of the 44 unseen cards beat the pat Kc Qd Jh Ts (4-card "
        "K-high badugi): the 5s, 6s, 7s, 8s, 9s, Js, Qs, Ks and As (20% this draw).",
    )  # the spades by name, not every five, six... (issue 34)
    q = draws.custom(B, "2c 3d 4h 4s", 2, "", "1 2")
    assert not q.exact
    choice = next(c for c in draws.evaluate(q, trials=200) if c.label == "keep 2c 3d 4h, draw 1")
    # ten spades (not the 2, 3 or 4) of the 48 cards unseen make a badugi
    assert draws.why(q, choice, show) == (
        "Keep 2c 3d 4h, draw 1: 10 of the 48 unseen cards make a badugi (four ranks, four "
        "suits): the 5s, 6s, 7s, 8s, 9s, Ts, Js, Qs, Ks and As (21% this draw)."
    )
    pat = draws.check(q, (), trials=200).chosen  # a pair kept: weighed when it is the answer
    assert draws.why(q, pat, show) == "Standing pat holds three-card 4-3-2."


def test_a_badugi_set_up_is_four_cards() -> None:
    with pytest.raises(CardError, match="four distinct cards"):
        draws.custom(B, "2c 3d 4h 4s 5s", 1, "Kc Qd Jh Ts")
    with pytest.raises(CardError, match="a pat hand is four cards, got 5"):
        draws.custom(B, "2c 3d 4h 4s", 1, "Kc Qd Jh Ts 9s")
    with pytest.raises(ValueError, match="opponents draw 0 to 4 cards"):
        draws.custom(B, "2c 3d 4h 4s", 2, "", "5")


def test_against_players_drawing_the_simulated_answer_counts_its_noise() -> None:
    q = draws.custom(B, "Ac 2d 3h Kh", 3, "", "2 3")
    fb = draws.check(q, parse_cards("Kh"), trials=1_500)
    assert fb.correct and fb.best.label in ("keep Ac 2d 3h, draw 1",)
    assert not fb.best.exact and fb.best.stderr > 0
    snow = draws.check(q, (), choices=fb.choices)  # standing pat on a K-high three-card hand
    assert not snow.correct


def test_own_badugi_draws_become_questions(tmp_path: Path) -> None:
    con = db.connect(tmp_path / "d.duckdb")
    try:
        import_paths(con, [SAMPLES / "pokerstars" / "badugi_fl_0.50-1_6max.txt"], workers=0)
        total = own.count_hero_draws(con, B)
        assert total > 0
        seen = 0
        for index in range(total):
            hd = own.hero_draw_at(con, B, index)
            if hd is None:
                continue
            q = own.question_of(hd)
            assert q.ranking is B and len(q.hand) == 4 and q.taken == hd.kept
            assert all(0 <= d <= 4 for d in q.drawing)
            seen += 1
        assert seen == total
    finally:
        con.close()
    assert rank(parse_cards("Ac 2d 3h 4s"), B) == 0
