"""The "which hand wins" drill with wild cards (analysis/drills/wild_showdown.py) and its page."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from analysis.drills import progress, session
from analysis.drills.wild_showdown import (
    CLOSE,
    FIVE_VS_STRAIGHT_FLUSH,
    RANDOM,
    TOPICS,
    WILD_FLUSH,
    WildQuestion,
    caption,
    check,
    describe,
    generate,
    reasons,
)
from analysis.storage import db
from engine.cards import CardError, parse_cards
from engine.wild import HIGH_CATEGORIES, HighCategory, Wild, category_high, rank_high, wild_cards
from tests.app_support import app_for, texts
from tests.ui.test_drills import metrics, pick

PAGE = "ui/drills_page.py"


def classes(q: WildQuestion) -> list[HighCategory]:
    return [category_high(rank_high(h, q.wild)) for h in q.hands]


def uses_wild(q: WildQuestion, hand: tuple[int, ...]) -> bool:
    return any(c in wild_cards(q.wild) for c in hand)


@pytest.mark.parametrize("wild", list(Wild))
@pytest.mark.parametrize("n", [2, 3, 6])
def test_each_topic_builds_what_it_says(wild: Wild, n: int) -> None:
    rng = random.Random(f"{wild}{n}")
    for _ in range(8):
        q = generate(FIVE_VS_STRAIGHT_FLUSH, n, rng, wild)
        assert q.wild is wild and len(q.hands) == n
        assert sorted(classes(q), key=HIGH_CATEGORIES.index, reverse=True)[:2] == [
            HighCategory.FIVE_OF_A_KIND, HighCategory.STRAIGHT_FLUSH]  # fmt: skip
        five = classes(q).index(HighCategory.FIVE_OF_A_KIND)
        assert q.winners == {five}  # five of a kind beats every straight flush
        q = generate(WILD_FLUSH, n, rng, wild)
        assert any(
            c is HighCategory.FLUSH and uses_wild(q, h)
            for c, h in zip(classes(q), q.hands, strict=True)
        )
        q = generate(CLOSE, n, rng, wild)
        assert len(set(classes(q))) == 1
        q = generate(RANDOM, n, rng, wild)
        assert any(uses_wild(q, h) for h in q.hands)
        used = [c for h in q.hands for c in h]
        assert len(set(used)) == len(used) == 5 * n


def test_check_and_reasons_of_a_fixed_question() -> None:
    hands = (parse_cards("Kc Kd Kh Ks Jk"), parse_cards("Ah Qd Jh Th 9h"))
    q = WildQuestion(Wild.JOKER, FIVE_VS_STRAIGHT_FLUSH, hands, ("Hand 1", "Hand 2"))
    assert caption(q) == "High, a joker wild: one joker (Jk) in a 53-card deck"
    assert describe(q, hands[0]) == "five kings (Jk wild)"
    assert describe(q, hands[1]) == "ace high, A-Q-J-T-9 (natural)"
    assert reasons(q) == (
        "Hand 1 over Hand 2: five kings beats ace high, A-Q-J-T-9: five of a kind is above "
        "high card",
    )
    right, wrong = check(q, {0}), check(q, {0, 1})
    assert (right.correct, right.winners, wrong.correct) == (True, frozenset({0}), False)
    tie = WildQuestion(
        Wild.DEUCES, CLOSE, (parse_cards("2c Kh Qh Jh Th"), parse_cards("As Ks Qs Js Ts")),
        ("Hand 1", "Hand 2"),
    )  # fmt: skip
    assert tie.winners == {0, 1}
    assert reasons(tie) == (
        "Hand 1 and Hand 2: both make ace-high straight flush: cards speak, a wild hand ties "
        "a natural one",
    )
    flushes = WildQuestion(
        Wild.ONE_EYED_JACKS, WILD_FLUSH,
        (parse_cards("As Ks 9s 4s Jh"), parse_cards("Ad Kd Qd 9d 4d")), ("Hand 1", "Hand 2"),
    )  # fmt: skip
    assert reasons(flushes) == (
        "Hand 1 over Hand 2: ace-high flush, A-A-K-9-4 beats ace-high flush, A-K-Q-9-4: "
        "flushes compare card by card from the top",
    )
    with pytest.raises(CardError):  # no joker in a deuces-wild deck
        WildQuestion(Wild.DEUCES, CLOSE, (parse_cards("Jk Kh Qh Jh Th"), hands[1]), ("a", "b"))


def test_answers_are_recorded_under_the_wild_game(tmp_path: Path) -> None:
    con = db.connect(tmp_path / "d.duckdb", read_only=False)
    try:
        q = session.next_wild_showdown(con, random.Random(3))
        assert q.topic in TOPICS and len(q.hands) == 2
        fb, rec = session.answer_wild_showdown(con, q, q.winners, 3.0)
        assert fb.correct and rec.points == 15
        topics = progress.by_topic(con, progress.SHOWDOWN)
        assert list(topics["game"]) == ["wild"] and list(topics["topic"]) == [q.topic]
    finally:
        con.close()


def test_the_page_drills_wild_cards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DRAWLAB_SAMPLES", "")
    at: AppTest = app_for(tmp_path / "drills.duckdb", monkeypatch).run()
    at.switch_page(PAGE).run()
    at.selectbox(key="drill_game_showdown").set_value("wild").run()
    assert not at.exception
    q: WildQuestion = at.session_state["dq_showdown_wild"]
    assert at.caption[0].value.startswith(caption(q))
    assert [c.label for c in at.checkbox] == ["Wins"] * len(q.hands)
    for i in q.winners:
        at.checkbox(key=pick("showdown", at, i)).check()
    at.button(key="showdown_answer").click().run()
    assert not at.exception
    assert at.success[0].value == "Right · +15 points · streak 1"
    assert metrics(at)["Score"] == "15"
    shown = texts(at)
    assert all(f"{q.names[i]}: {describe(q, h)}" in shown for i, h in enumerate(q.hands))
    assert reasons(q)[0] in shown
    assert list(at.dataframe[1].value["game"]) == ["wild-card high hands"]


def test_close_calls_include_a_natural_and_a_wild_straight_that_tie() -> None:
    rng = random.Random(7)
    tied = 0
    for _ in range(40):
        q = generate(CLOSE, 3, rng, Wild.DEUCES)
        values = [rank_high(h, q.wild) for h in q.hands]
        if len(q.winners) > 1 and classes(q)[0] is HighCategory.STRAIGHT:
            naturals = [uses_wild(q, q.hands[i]) for i in q.winners]
            tied += naturals.count(False) >= 1 and naturals.count(True) >= 1
        assert len(set(classes(q))) == 1 and min(values) == rank_high(q.hands[min(q.winners)],
                                                                      q.wild)  # fmt: skip
    assert tied >= 3
