"""Leitner boxes over topics, levels that follow accuracy and speed, points."""

from __future__ import annotations

import itertools
import random

import pytest

from analysis.drills.schedule import (
    Answer,
    TopicState,
    next_level,
    pick_topic,
    points,
    review,
)


def test_right_answers_climb_one_box_at_a_time_and_stop_at_five() -> None:
    s = TopicState("27/wheel")
    seen = []
    for clock in range(1, 8):
        s = review(s, True, clock)
        seen.append((s.box, s.due, s.seen))
    assert seen == [(2, 3, 1), (3, 6, 2), (4, 11, 3), (5, 20, 4), (5, 21, 5), (5, 22, 6),
                    (5, 23, 7)]  # fmt: skip


def test_a_wrong_answer_sends_the_topic_back_to_box_one_due_after_one_other_question() -> None:
    s = TopicState("27/tie", box=4, due=30, seen=9)
    assert review(s, False, 12) == TopicState("27/tie", 1, 13, 10)


def test_missed_topics_first_then_new_ones_then_due_ones_by_box() -> None:
    states = {
        "a": TopicState("a", box=3, due=5),
        "b": TopicState("b", box=1, due=9),
        "c": TopicState("c", box=1, due=7),
        "d": TopicState("d", box=1, due=11),  # not due yet at clock 10
    }
    rng = random.Random(0)
    assert pick_topic(["a", "b", "c", "d"], states, 10, rng) == "c"
    del states["c"]
    assert pick_topic(["a", "b", "c", "d"], states, 10, rng) == "b"
    del states["b"]
    assert pick_topic(["a", "b", "d"], states, 10, rng) == "b"  # new before a due review
    assert pick_topic(["a", "d"], states, 10, rng) == "a"
    states["e"] = TopicState("e", box=2, due=8)
    assert pick_topic(["a", "d", "e"], states, 10, rng) == "e"  # lower box first


def test_new_topics_before_early_reviews_then_the_one_due_soonest() -> None:
    states = {"a": TopicState("a", box=2, due=14), "b": TopicState("b", box=5, due=12)}
    rng = random.Random(0)
    picks = {pick_topic(["a", "b", "n1", "n2"], states, 10, rng) for _ in range(40)}
    assert picks == {"n1", "n2"}
    assert pick_topic(["a", "b"], states, 10, rng) == "b"


def test_a_missed_topic_comes_back_after_at_most_one_other_question() -> None:
    topics = ["x", "y", "z"]
    states: dict[str, TopicState] = {}
    rng = random.Random(1)
    asked = []
    for clock in range(12):
        topic = pick_topic(topics, states, clock, rng)
        asked.append(topic)
        states[topic] = review(states.get(topic, TopicState(topic)), topic != "y", clock + 1)
    firsts = [i for i, t in enumerate(asked) if t == "y"]
    # once missed, y is due again after one other question (sooner when nothing else is due)
    gaps = [b - a for a, b in itertools.pairwise(firsts)]
    assert gaps == [2, 2, 2, 1, 2]
    assert asked == ["x", "y", "z", "y", "x", "y", "z", "y", "y", "x", "y", "z"]


def _answers(right: int, wrong: int, seconds: float) -> list[Answer]:
    return [Answer(True, seconds)] * right + [Answer(False, seconds)] * wrong


def test_levels_need_a_full_window() -> None:
    assert next_level(2, _answers(5, 0, 1.0)) == 2


@pytest.mark.parametrize(
    ("level", "answers", "expected"),
    [
        (1, _answers(5, 1, 20.0), 2),  # right enough, median at the target
        (1, _answers(5, 1, 20.5), 1),  # right enough but slow
        (3, _answers(6, 0, 12.0), 4),
        (5, _answers(6, 0, 1.0), 5),  # top level
        (3, _answers(4, 2, 1.0), 3),
        (3, _answers(2, 4, 1.0), 2),
        (1, _answers(0, 6, 1.0), 1),  # bottom level
        (2, _answers(0, 3, 1.0) + _answers(6, 0, 1.0), 3),  # only the last six count
    ],
)
def test_level_moves(level: int, answers: list[Answer], expected: int) -> None:
    assert next_level(level, answers) == expected


def test_points_reward_level_and_speed() -> None:
    assert points(1, True, 3.0) == 15
    assert points(1, True, 25.0) == 10
    assert points(4, True, 10.0) == 45
    assert points(5, False, 1.0) == 0
