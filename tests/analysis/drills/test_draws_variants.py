"""The "what to draw" drill for the home variants: wild cards and high-low."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from analysis.drills import draws, progress, session
from analysis.storage import db
from engine.cards import format_cards, parse_cards
from engine.ranking import Ranking
from engine.sim.scoring import Scoring
from engine.wild import Wild
from tests.ui.test_drills import drills, pick
from ui.cards import cards_label


def test_a_joker_draw_to_a_royal_flush_is_exact() -> None:
    q = draws.custom(Ranking.HIGH, "Jk Ah Kh Qh 2c", 1, "Tc Td Ts 4c 4d", wild=Wild.JOKER)
    assert q.scoring == Scoring(Ranking.HIGH, Wild.JOKER) and q.game == draws.WILD_DRAW
    choices = draws.evaluate(q)
    assert all(c.exact for c in choices)
    four = draws.find(choices, parse_cards("Jk Ah Kh Qh"))
    assert four.equity == pytest.approx(2 / 43)  # Jh or Th: a royal flush; 43 cards unseen
    assert draws.why(q, four, format_cards) == (
        "Keep Jk Ah Kh Qh, draw 1: of the 43 unseen cards, 2 beat its high (5%) this draw."
    )
    pat = draws.find(choices, q.hand)
    assert pat.equity == 0.0
    assert draws.why(q, pat, format_cards) == (
        "Standing pat holds pair of aces; the pat Tc Td Ts 4c 4d holds tens full of fours."
    )
    assert draws.game_label(q) == "Five-card draw, a joker wild"


def test_high_low_shares_are_half_a_pot_per_half() -> None:
    # A-2-3-4 against a pair of kings: a five or an ace scoops (3 + 3 cards), every other
    # of the 42 unseen cards wins the low half only.
    q = draws.custom(Ranking.HIGH, "Ah 2h 3c 4d Kc", 1, "Kd Ks 5s 8h 6c", high_low=True)
    assert q.game == draws.HIGH_LOW_DRAW
    choices = draws.evaluate(q)
    best = draws.find(choices, parse_cards("Ah 2h 3c 4d"))
    assert best.equity == pytest.approx((6 + 36 / 2) / 42) and best.exact
    # keeping the ace alone does better still: the pair of kings is a poor low to beat
    assert choices[0].keep == parse_cards("Ah") and choices[0].equity > best.equity
    assert draws.why(q, best, format_cards) == (
        "Keep Ah 2h 3c 4d, draw 1: of the 42 unseen cards, 6 beat its high (14%); 42 beat its "
        "low (100%) this draw."
    )
    assert draws.hand_words(q, q.pat or ()) == "pair of kings for the high, pair of kings low"
    assert draws.game_label(q) == "Five-card draw, high-low split"


@pytest.mark.slow
@pytest.mark.parametrize("variant", [draws.WILD_DRAW, draws.HIGH_LOW_DRAW])
@pytest.mark.parametrize("topic", draws.TOPICS)
def test_generated_variant_questions_score_their_best_choice_right(
    variant: str, topic: str
) -> None:
    q = draws.generate_variant(variant, topic, 2, random.Random(f"{variant}{topic}"))
    assert q.ranking is Ranking.HIGH and q.draws_left == 1 and q.game == variant
    assert (q.wild is not None) == (variant == draws.WILD_DRAW)
    assert q.high_low == (variant == draws.HIGH_LOW_DRAW)
    if topic == draws.PAT_TO_BEAT:
        assert q.pat is not None and not set(q.pat) & set(q.hand)
    choices = draws.evaluate(q, trials=400)
    best = choices[0]
    fb = draws.check(q, best.discard, trials=400, choices=choices)
    assert fb.correct and fb.best is best


def test_a_joker_in_a_game_without_one_is_refused() -> None:
    with pytest.raises(ValueError, match="joker"):
        draws.custom(Ranking.HIGH, "Jk Ah Kh Qh 2c", 1, "Tc Td Ts 4c 4d")
    with pytest.raises(ValueError, match="wild cards play in high and ace-to-five"):
        draws.custom(Ranking.DEUCE_SEVEN, "7s 5d 4h 3c Kd", 1, wild=Wild.DEUCES)


def test_variant_answers_are_recorded_under_their_game(tmp_path: Path) -> None:
    con = db.connect(tmp_path / "d.duckdb", read_only=False)
    try:
        q = session.next_variant_draw(con, draws.HIGH_LOW_DRAW, random.Random(2))
        fb, _ = session.answer_draw(con, q, (), 1.0, trials=300)
        topics = progress.by_topic(con, progress.DRAW)
        assert list(topics["game"]) == ["high-low"] and fb.chosen.discard == ()
    finally:
        con.close()


@pytest.mark.slow
def test_the_page_drills_a_high_low_draw(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at, _ = drills(tmp_path, monkeypatch)
    at.radio(key="drill_kind").set_value(progress.DRAW).run()
    at.selectbox(key="drill_game_draw").set_value(draws.HIGH_LOW_DRAW).run()
    assert not at.exception
    q: draws.DrawQuestion = at.session_state["dq_draw_high-low"]
    assert at.caption[0].value.startswith("Five-card draw, high-low split · 1 draw left")
    at.checkbox(key=pick("draw", at, 0)).check()
    at.button(key="draw_answer").click().run()
    assert not at.exception
    fb, _ = at.session_state["df_draw"]
    assert fb.chosen.discard == (q.hand[0],)
    table = at.dataframe[0].value
    assert table["choice"].iloc[0] == draws.choice_label(fb.best, cards_label)


def test_the_reason_keeps_the_cards_as_written() -> None:
    # str.capitalize wrote "Keep ks kd": only the first letter goes up
    q = draws.custom(Ranking.HIGH, "Ks Kd 7h 4c 2s", 1, "Qc Qd Qh 5c 5d")
    keep = draws.find(draws.evaluate(q), parse_cards("Ks Kd"))
    assert draws.why(q, keep, format_cards) == (
        "Keep Ks Kd, draw 3: 3 new cards rarely all fit; its share comes from the deals."
    )


@pytest.mark.parametrize(
    ("ranking", "hand", "pat", "label"),
    [
        (Ranking.DEUCE_SEVEN, "8s 6d 4h 3c Kd", "9h 7c 5d 4s 2h", "2-7"),
        (Ranking.ACE_FIVE, "8s 6d 4h 3c Kd", "9h 7c 5d 4s 2h", "A-5"),
        (Ranking.HIGH, "Qs Qd 9h 8h 2c", "Ts Td 7h 7c 2h", "High"),
        (Ranking.BADUGI, "2c 3d 4h 4s", "Kc Qd Jh Ts", "Badugi"),
    ],
)
def test_the_plain_games_keep_their_names(
    ranking: Ranking, hand: str, pat: str, label: str
) -> None:
    """The page's caption starts with the game: a Badugi question once read "High"."""
    assert draws.game_label(draws.custom(ranking, hand, 1, pat)) == label
