"""The high-low pot drill: who takes each half of each pot, to the chip (California
high-low: the best high and the best ace-to-five low, the odd chip to the high half)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from analysis.drills import pots, progress
from analysis.drills.pots import PotQuestion, PotSeat, check, explain_pots, generate
from engine.cards import parse_cards
from engine.ranking import Ranking
from tests.ui.test_drills import drills, metrics, pick, stored

HIGH = Ranking.HIGH
KINGS = "KsKh9c8d2h"  # a pair of kings: the high
SEVEN = "7d5c4s3h2c"  # 7-5-4-3-2: the low
NINE = "9h6d5h4c3s"  # a nine low, nothing for high


def _q(topic: str, seats: tuple[PotSeat, ...], button: int = 6) -> PotQuestion:
    return PotQuestion(HIGH, topic, seats, button, high_low=True)


def test_each_half_to_its_hand_and_the_odd_chip_high() -> None:
    q = _q(pots.HL_ODD_CHIP, (
        PotSeat("Seat 1", 1, 100, False, parse_cards(KINGS)),
        PotSeat("Seat 2", 2, 100, False, parse_cards(SEVEN)),
        PotSeat("Seat 3", 3, 100, False, parse_cards(NINE)),
        PotSeat("Seat 4", 4, 25, True),
    ))  # fmt: skip
    assert q.payout() == {"Seat 1": 163, "Seat 2": 162, "Seat 3": 0, "Seat 4": 0}
    assert explain_pots(q) == (
        "Main pot 3.25 (Seat 1, Seat 2, Seat 3): high half 1.63 to Seat 1 (pair of kings); "
        "low half 1.62 to Seat 2 (7-5-4-3-2) (the odd chip goes to the high half)",
    )


def test_one_hand_best_both_ways_scoops() -> None:
    wheel = "5s4d3c2hAs"  # the five-high straight beats kings, and is the best low
    q = _q(pots.HL_SCOOP, (
        PotSeat("Seat 1", 1, 100, False, parse_cards(KINGS)),
        PotSeat("Seat 2", 2, 100, False, parse_cards(wheel)),
    ))  # fmt: skip
    assert q.payout() == {"Seat 1": 0, "Seat 2": 200}
    assert explain_pots(q)[0].startswith("Main pot 2.00 (Seat 1, Seat 2): Seat 2 scoops")


def test_side_pots_are_halved_each_on_their_own() -> None:
    # Seat 2 all-in for 1.00 with the best low.  Main pot 3.00 (all three): high 1.50 to
    # Seat 1, low 1.50 to Seat 2.  Side pot 2 x 0.75 = 1.50 (Seats 1 and 3): high 0.75 to
    # Seat 1, low 0.75 to Seat 3, the better low of the two in it.
    q = _q(pots.HL_SIDE_POTS, (
        PotSeat("Seat 1", 1, 175, False, parse_cards(KINGS)),
        PotSeat("Seat 2", 2, 100, False, parse_cards(SEVEN)),
        PotSeat("Seat 3", 3, 175, False, parse_cards(NINE)),
    ))  # fmt: skip
    assert q.payout() == {"Seat 1": 225, "Seat 2": 150, "Seat 3": 75}
    assert explain_pots(q)[1] == (
        "Side pot 1 1.50 (Seat 1, Seat 3): high half 0.75 to Seat 1 (pair of kings); "
        "low half 0.75 to Seat 3 (9-6-5-4-3)"
    )


def test_a_tied_low_splits_its_half_with_the_odd_chip_clockwise() -> None:
    q = _q(pots.HL_HALVES, (
        PotSeat("Seat 1", 1, 101, False, parse_cards(KINGS)),
        PotSeat("Seat 2", 2, 101, False, parse_cards(SEVEN)),
        PotSeat("Seat 3", 3, 101, False, parse_cards("7h5d4c3s2d")),
    ), button=1)  # fmt: skip
    # 3.03: high 1.52 to Seat 1; low 1.51 split 0.76 (Seat 2, first left of the button), 0.75
    assert q.payout() == {"Seat 1": 152, "Seat 2": 76, "Seat 3": 75}
    assert "low half 1.51 split, 7-5-4-3-2 each: Seat 2 0.76, Seat 3 0.75" in explain_pots(q)[0]


def test_paying_the_whole_pot_to_the_high_hand_is_wrong() -> None:
    q = _q(pots.HL_HALVES, (
        PotSeat("Seat 1", 1, 100, False, parse_cards(KINGS)),
        PotSeat("Seat 2", 2, 100, False, parse_cards(SEVEN)),
    ))  # fmt: skip
    fb = check(q, {"Seat 1": 200})
    assert not fb.correct and fb.wrong == ("Seat 1", "Seat 2")
    assert check(q, {"Seat 1": 100, "Seat 2": 100}).correct


def test_a_high_low_question_is_a_high_hand_question() -> None:
    with pytest.raises(ValueError, match="high-low"):
        PotQuestion(Ranking.DEUCE_SEVEN, pots.HL_HALVES, (
            PotSeat("Seat 1", 1, 100, False, parse_cards(KINGS)),
            PotSeat("Seat 2", 2, 100, False, parse_cards(SEVEN)),
        ), 1, high_low=True)  # fmt: skip


@pytest.mark.parametrize("topic", pots.HIGH_LOW_TOPICS)
def test_generated_high_low_pots_have_their_topic_and_pay_every_chip(topic: str) -> None:
    rng = random.Random(5)
    for players in (2, 3, 4, 6):
        q = generate(topic, Ranking.DEUCE_SEVEN, players, rng)
        assert q.high_low and q.ranking is HIGH and q.game == pots.HIGH_LOW
        assert pots.WANTS[topic](q)
        assert sum(q.payout().values()) == sum(s.put_in for s in q.seats)
        for halves in q.halves():
            amount = q.pots[halves.pot].amount
            assert sum(won.amount for won in halves.high) == amount - amount // 2
            assert sum(won.amount for won in halves.low) == amount // 2


def test_the_drills_page_asks_and_scores_a_high_low_pot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at, path = drills(tmp_path, monkeypatch)
    at.radio(key="drill_kind").set_value(progress.POTS).run()
    at.selectbox(key="drill_game_pots").select(pots.HIGH_LOW).run()
    assert not at.exception
    q: PotQuestion = at.session_state["dq_pots_high_low"]
    assert q.high_low and q.topic in pots.HIGH_LOW_TOPICS
    assert "the odd chip to the high half" in at.caption[0].value
    assert all(h.startswith("high: ") for h in at.dataframe[0].value["hand"] if h)
    pay = q.payout()
    for s in q.seats:
        at.number_input(key=pick("pots", at, s.seat)).set_value(pay[s.name] / 100)
    at.button(key="pots_answer").click().run()
    assert not at.exception
    assert at.success[0].value.startswith("Right")
    assert metrics(at)["Streak"] == "1"
    assert [t.value for t in at.text] == list(explain_pots(q))
    assert stored(path).answered == 1
