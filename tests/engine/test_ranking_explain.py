"""explain: the reason in words, for the "which hand wins" drill."""

from __future__ import annotations

import random

import pytest

from engine.cards import parse_cards
from engine.explain import explain
from engine.ranking import FIVE_CARD_RANKINGS, Ranking

D27, A5, HIGH = Ranking.DEUCE_SEVEN, Ranking.ACE_FIVE, Ranking.HIGH


@pytest.mark.parametrize(
    ("a", "b", "ranking", "reason"),
    [
        ("8s6d4h3c2s", "8h7c4d3s2h", D27, "both 8-low; 8-6 beats 8-7 on the second card"),
        ("6s5d4h3c2s", "KsQdJh9c8s", D27,
         "6-5-4-3-2 is a straight: in 2-7 it loses to any no-pair hand"),
        ("As5d4h3c2s", "KsQdJh9c8d", D27,
         "K-Q-J-9-8 beats A-5-4-3-2: the lower top card wins "
         "(A-5-4-3-2 is ace high in 2-7, not a straight)"),
        ("3s3d7h5c4s", "2s2d7c5d4h", D27, "both one pair; deuces beat threes: the lower pair wins"),
        ("2s2d7h5c4s", "2h2c8h5d4c", D27,
         "both pair of deuces; kickers 7-5-4 beat 8-5-4 on the first kicker"),
        ("8s6d4h3c2s", "8h6c4d3s2h", D27, "both 8-6-4-3-2: a tie, suits never break ties"),
        ("7s5s4s3s2s", "KsKdKhQcQh", D27,
         "7-5-4-3-2 flush beats kings full of queens: in 2-7 any flush beats any full house"),
        ("7h5h4h3h2h", "6s5d4c3c2s", D27,
         "7-5-4-3-2 is a flush: in 2-7 it loses to any straight or better"),
        ("9s8d7h6c5s", "6h5c4d3s2h", D27,
         "both straights; 6-high beats 9-high: the lower one wins"),
        ("KsKd2h2c3s", "KhKc3h3d2s", D27,
         "both two pair; deuces beat threes: the lower second pair wins"),
        ("Ad2d3h4c5s", "As2s3s4s6s", A5, "5-4-3-2-A beats 6-4-3-2-A: the lower top card wins"),
        ("AsAd3h4c5s", "Ks9d7h6c5c", A5,
         "K-9-7-6-5 beats pair of aces: in A-5 any no-pair hand beats any pair"),
        ("AsAdAhKdKs", "QcQhQdKcKh", HIGH,
         "both full houses; aces beat queens: the higher trips wins"),
        ("AsKd9h7c3s", "AhQc9d7h3d", HIGH, "both ace high; A-K beats A-Q on the second card"),
        ("As2d3h4c5s", "2s3d4h5c6h", HIGH,
         "both straights; 6-high beats 5-high: the higher one wins"),
    ],
)  # fmt: skip
def test_reasons(a: str, b: str, ranking: Ranking, reason: str) -> None:
    assert explain(parse_cards(a), parse_cards(b), ranking) == reason
    assert explain(parse_cards(b), parse_cards(a), ranking) == reason  # order does not matter


@pytest.mark.parametrize("ranking", list(FIVE_CARD_RANKINGS))
def test_every_pair_of_random_hands_gets_a_reason(ranking: Ranking) -> None:
    rng = random.Random(3)
    for _ in range(3000):
        cards = rng.sample(range(52), 10)
        text = explain(tuple(cards[:5]), tuple(cards[5:]), ranking)
        assert text and "{" not in text
