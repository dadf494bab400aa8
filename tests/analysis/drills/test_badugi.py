"""Which Badugi wins: generated questions, close calls by construction, the reasons."""

from __future__ import annotations

import random
import zlib

import pytest

from analysis.drills import showdown
from analysis.drills.showdown import ShowdownQuestion, check, generate, reasons
from engine import badugi
from engine.cards import parse_cards
from engine.explain import explain
from engine.ranking import Ranking, rank

B = Ranking.BADUGI


def size_and_top(hand: tuple[int, ...]) -> tuple[int, int]:
    value = rank(hand, B)
    return badugi.size_of(value), badugi.low_ranks_of(value)[0]


@pytest.mark.parametrize("topic", showdown.TOPICS[B])
def test_generated_badugi_questions_are_legal_and_answered_by_rank(topic: str) -> None:
    rng = random.Random(zlib.crc32(f"badugi/{topic}".encode()))
    for n in (2, 3, 4, 5, 6):
        for _ in range(15):
            q = generate(topic, B, n, rng)
            assert len(q.hands) == (min(n, 4) if topic == showdown.SAME_TOP else n)
            cards = [c for h in q.hands for c in h]
            assert len(set(cards)) == len(cards) == 4 * len(q.hands)
            values = [rank(h, B) for h in q.hands]
            assert q.winners == {i for i, v in enumerate(values) if v == min(values)}
            assert len(reasons(q)) == len(q.hands) - 1


def test_close_calls_are_what_their_topic_says() -> None:
    rng = random.Random(3)
    for _ in range(40):
        same = generate(showdown.SAME_TOP, B, 3, rng)
        assert len({size_and_top(h) for h in same.hands}) == 1
        four = generate(showdown.FOUR_VS_THREE, B, 4, rng)
        shapes = sorted(size_and_top(h) for h in four.hands)
        assert [s for s, _ in shapes] == [3, 3, 3, 4]
        assert shapes[-1][1] >= 9 and all(t <= 4 for _, t in shapes[:3])  # T+ vs 5-
        assert [len(h) for h in four.hands] == [4, 4, 4, 4]
        assert four.winners == {
            next(i for i, h in enumerate(four.hands) if size_and_top(h)[0] == 4)
        }
        tie = generate(showdown.TIE, B, 4, rng)
        assert len(tie.winners) in (2, 3)


def test_badugi_reasons_in_words() -> None:
    q = ShowdownQuestion(
        B,
        showdown.RANDOM,
        (parse_cards("Kc Qd Jh Ts"), parse_cards("2c 3c 4d 5h"), parse_cards("Kd Qh Js 9c")),
        ("Ann", "Bob", "Cy"),
    )
    assert q.winners == {2}
    assert reasons(q) == (
        "Cy over Ann: both K-high four-card; K-Q-J-9 beats K-Q-J-T on the fourth card",
        "Cy over Bob: 4-card K-high badugi beats three-card 5-4-2: in Badugi any four-card "
        "hand beats any three-card hand",
    )
    assert check(q, {2}).correct and not check(q, {0}).correct
    assert explain(parse_cards("4c3d2hAs"), parse_cards("5c3d2hAs"), B) == (
        "4-3-2-A beats 5-3-2-A: the lower top card wins"
    )
    assert explain(parse_cards("4c3d2hAs"), parse_cards("4d3h2sAc"), B) == (
        "both 4-card 4-high badugi: the nuts: a tie, suits never break ties"
    )
