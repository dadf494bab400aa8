"""Which hand wins: generated questions, their answers, close calls, checking, own showdowns."""

from __future__ import annotations

import random
import zlib
from collections import Counter

import pytest

from analysis.drills import showdown
from analysis.drills.showdown import ShowdownQuestion, check, generate, reasons
from engine.cards import CardError, parse_cards
from engine.ranking import FIVE_CARD_RANKINGS, Category, Ranking, category, rank

D27, A5, HIGH = Ranking.DEUCE_SEVEN, Ranking.ACE_FIVE, Ranking.HIGH
CASES = [(r, t) for r in FIVE_CARD_RANKINGS for t in showdown.TOPICS[r]]


def low_key(r: int, ranking: Ranking) -> int:
    return (r + 1) % 13 if ranking is Ranking.ACE_FIVE else r


def top(cards: tuple[int, ...], ranking: Ranking) -> int:
    return max(low_key(c >> 2, ranking) for c in cards)


@pytest.mark.parametrize(("ranking", "topic"), CASES)
def test_generated_questions_are_legal_and_answered_by_rank(ranking: Ranking, topic: str) -> None:
    rng = random.Random(zlib.crc32(f"{ranking.value}/{topic}".encode()))
    for n in (2, 3, 4, 5, 6):
        for _ in range(20):
            q = generate(topic, ranking, n, rng)
            assert len(q.hands) == (min(n, 4) if topic == showdown.SAME_TOP else n)
            cards = [c for h in q.hands for c in h]
            assert len(set(cards)) == len(cards) == 5 * len(q.hands)
            values = [rank(h, ranking) for h in q.hands]
            assert q.winners == {i for i, v in enumerate(values) if v == min(values)}
            assert q.names == tuple(f"Hand {i + 1}" for i in range(len(q.hands)))


def test_same_category_hands_share_a_category() -> None:
    rng = random.Random(1)
    for ranking in FIVE_CARD_RANKINGS:
        for n in (2, 3, 6):
            for _ in range(30):
                q = generate(showdown.SAME_CATEGORY, ranking, n, rng)
                assert len({category(h, ranking) for h in q.hands}) == 1


def test_same_top_hands_are_no_pair_hands_with_one_top_card() -> None:
    rng = random.Random(2)
    for ranking in FIVE_CARD_RANKINGS:
        for n in (2, 3, 4):
            for _ in range(30):
                q = generate(showdown.SAME_TOP, ranking, n, rng)
                assert {category(h, ranking) for h in q.hands} == {Category.HIGH_CARD}
                assert len({top(h, ranking) for h in q.hands}) == 1


def test_wheel_traps_hold_an_unsuited_wheel() -> None:
    rng = random.Random(3)
    for ranking in (D27, HIGH):
        for _ in range(40):
            q = generate(showdown.WHEEL, ranking, rng.randint(2, 6), rng)
            wheels = [h for h in q.hands if sorted(c >> 2 for c in h) == [0, 1, 2, 3, 12]]
            assert len(wheels) == 1
            expected = Category.HIGH_CARD if ranking is D27 else Category.STRAIGHT
            assert category(wheels[0], ranking) is expected
            if ranking is D27:  # the wheel is ace high: any other no-pair hand beats it
                wheel_rank = rank(wheels[0], ranking)
                for h in q.hands:
                    if category(h, ranking) is Category.HIGH_CARD and h is not wheels[0]:
                        assert rank(h, ranking) < wheel_rank


def test_looks_good_in_deuce_seven_is_a_smooth_straight_or_flush_that_loses() -> None:
    rng = random.Random(4)
    kinds: Counter[Category] = Counter()
    for _ in range(60):
        q = generate(showdown.LOOKS_GOOD, D27, rng.randint(2, 6), rng)
        traps = [h for h in q.hands
                 if category(h, D27) in (Category.STRAIGHT, Category.FLUSH)]  # fmt: skip
        assert len(traps) == 1
        trap = traps[0]
        kinds[category(trap, D27)] += 1
        assert max(c >> 2 for c in trap) <= 8  # ten or lower: it looks like a good low
        others = [h for h in q.hands if h is not trap]
        assert all(category(h, D27) in (Category.HIGH_CARD, Category.PAIR) for h in others)
        assert q.winners.isdisjoint({q.hands.index(trap)})
    assert set(kinds) == {Category.STRAIGHT, Category.FLUSH}


def test_looks_good_in_ace_five_is_a_suited_or_straight_low_that_counts() -> None:
    rng = random.Random(5)
    for _ in range(60):
        q = generate(showdown.LOOKS_GOOD, A5, rng.randint(2, 6), rng)
        smooth = [h for h in q.hands if len({c & 3 for c in h}) == 1
                  or sorted(low_key(c >> 2, A5) for c in h) in ([0, 1, 2, 3, 4], [1, 2, 3, 4, 5])]
        assert smooth  # fmt: skip
        assert any(category(h, A5) is Category.HIGH_CARD and top(h, A5) <= 7 for h in smooth)


def test_tie_questions_have_two_or_three_winners_of_one_value() -> None:
    rng = random.Random(6)
    sizes: Counter[int] = Counter()
    for ranking in FIVE_CARD_RANKINGS:
        for _ in range(40):
            q = generate(showdown.TIE, ranking, rng.randint(2, 6), rng)
            assert len(q.winners) in (2, 3)
            assert len({rank(q.hands[i], ranking) for i in q.winners}) == 1
            sizes[len(q.winners)] += 1
    assert set(sizes) == {2, 3}


def test_check_wants_exactly_the_winners() -> None:
    q = ShowdownQuestion(
        D27, showdown.TIE,
        (parse_cards("8s6d4h3c2s"), parse_cards("8h6c4d3s2h"), parse_cards("9s7d5c4c3d")),
        ("Hand 1", "Hand 2", "Hand 3"),
    )  # fmt: skip
    assert q.winners == {0, 1}
    assert check(q, {0, 1}).correct
    assert not check(q, {0}).correct
    assert not check(q, {0, 1, 2}).correct
    assert reasons(q) == (
        "Hand 1 and Hand 2: both 8-6-4-3-2: a tie, suits never break ties",
        "Hand 1 over Hand 3: 8-6-4-3-2 beats 9-7-5-4-3: the lower top card wins",
    )


def test_reason_for_a_wheel_trap() -> None:
    q = ShowdownQuestion(D27, showdown.WHEEL, (parse_cards("As5d4h3c2s"),
                         parse_cards("KsQdJh9c8d")), ("Hand 1", "Hand 2"))  # fmt: skip
    fb = check(q, {0})
    assert not fb.correct and fb.winners == {1}
    assert fb.reasons == (
        "Hand 2 over Hand 1: K-Q-J-9-8 beats A-5-4-3-2: the lower top card wins "
        "(A-5-4-3-2 is ace high in 2-7, not a straight)",
    )


def test_bad_questions_are_refused() -> None:
    h = parse_cards("8s6d4h3c2s")
    with pytest.raises(CardError):
        ShowdownQuestion(D27, "x", (h, h), ("a", "b"))
    with pytest.raises(ValueError):
        ShowdownQuestion(D27, "x", (h,), ("a",))
    with pytest.raises(ValueError):
        generate(showdown.WHEEL, A5, 2, random.Random(0))  # no wheel trap in A-5
    with pytest.raises(ValueError):
        generate(showdown.RANDOM, D27, 7, random.Random(0))
