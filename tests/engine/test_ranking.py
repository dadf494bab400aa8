"""Scalar ranking: boundaries from RULES.md, descriptions, and pokerkit as an oracle."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import RegularLowHand, StandardHighHand, StandardLowHand

from engine.cards import CardError, format_cards, parse_cards
from engine.ranking import (
    CLASS_COUNT,
    FIVE_CARD_RANKINGS,
    Category,
    Ranking,
    category,
    describe,
    example_hand,
    random_hand,
    rank,
    ranking_for,
    winners,
)
from engine.record import Game

D27, A5, HIGH = Ranking.DEUCE_SEVEN, Ranking.ACE_FIVE, Ranking.HIGH


def r(text: str, ranking: Ranking = D27) -> int:
    return rank(parse_cards(text), ranking)


def test_ranking_for_each_game() -> None:
    assert ranking_for(Game.TRIPLE_DRAW_27) is D27
    assert ranking_for(Game.SINGLE_DRAW_27) is D27
    assert ranking_for(Game.TRIPLE_DRAW_A5) is A5
    assert ranking_for(Game.SINGLE_DRAW_A5) is A5
    assert ranking_for(Game.FIVE_CARD_DRAW) is HIGH


def test_distinct_rank_values_per_ranking() -> None:
    assert CLASS_COUNT == {D27: 7462, A5: 6175, HIGH: 7462, Ranking.BADUGI: 1092}


def test_tables_are_built_on_first_use_by_any_entry_point() -> None:
    """Importing builds nothing (``drawlab stats`` imports the engine and never ranks), and
    each entry point, called first in a fresh interpreter, builds the tables of its ranking
    only (a worker verifying 2-7 hands builds one of three) and answers as it does once they
    exist: the first call takes the building branch, the second does not."""
    script = textwrap.dedent(
        """
        import engine.ranking as r
        assert r._BUILT == {} and r._VALUE == {} and r._CATEGORY == {}, "built at import"
        call = {
            "rank": lambda: r.rank((20, 13, 10, 7, 0), r.Ranking.DEUCE_SEVEN),
            "category": lambda: r.category((48, 49, 40, 36, 28), r.Ranking.HIGH).name,
            "category_of_rank": lambda: r.category_of_rank(7461, r.Ranking.HIGH).name,
            "example_hand": lambda: r.example_hand(0, r.Ranking.ACE_FIVE),
            "describe": lambda: r.describe((20, 13, 10, 7, 0), r.Ranking.DEUCE_SEVEN),
            "table_for": lambda: len(r.table_for(r.Ranking.HIGH)),
            "categories_for": lambda: len(r.categories_for(r.Ranking.ACE_FIVE)),
        }[NAME]
        first = call()
        built = [r.Ranking[WANT]]
        assert list(r._BUILT) == built and list(r._VALUE) == built == list(r._CATEGORY)
        assert call() == first
        print(first)
        """
    )
    expected = {
        "rank": "0",  # 7-5-4-3-2 of four suits: the best 2-7 hand
        "category": "PAIR",  # A-A-Q-J-9
        "category_of_rank": "HIGH_CARD",  # the worst high hand, 7-5-4-3-2
        "example_hand": "((12, 3, 2, 1, 0), False)",  # the wheel, A-5's best
        "describe": "7-5-4-3-2: the nuts",
        "table_for": "7462",
        "categories_for": "6175",
    }
    ranking_of = {
        "rank": "DEUCE_SEVEN",
        "category": "HIGH",
        "category_of_rank": "HIGH",
        "example_hand": "ACE_FIVE",
        "describe": "DEUCE_SEVEN",
        "table_for": "HIGH",
        "categories_for": "ACE_FIVE",
    }
    for name, want in expected.items():
        out = subprocess.run(
            [sys.executable, "-c", f"NAME, WANT = {name!r}, {ranking_of[name]!r}\n" + script],
            capture_output=True,
            text=True,
            check=True,
        )
        assert out.stdout.strip() == want, name


def test_seven_five_is_the_nuts_in_deuce_to_seven() -> None:
    assert r("7s5d4h3c2s") == 0
    assert r("7s6d4h3c2s") == 1
    assert r("7s6d5h3c2s") == 2
    assert r("7s6d5h4c2s") == 3
    assert r("8s5d4h3c2s") == 4


def test_seven_five_suited_is_a_flush_in_deuce_to_seven() -> None:
    assert category(parse_cards("7s5s4s3s2s"), D27) is Category.FLUSH
    assert r("7s5s4s3s2s") > r("AsKdQhJc9s")  # loses to every straight
    assert r("7s5s4s3s2s") < r("2s2d2h3c3s")  # beats every full house


def test_ace_is_high_in_deuce_to_seven() -> None:
    wheel = r("As5d4h3c2s")
    assert category(parse_cards("As5d4h3c2s"), D27) is Category.HIGH_CARD
    assert wheel > r("Ks Qd Jh Tc 8s")  # loses to the worst king-high
    assert wheel < r("As 6d 4h 3c 2s")  # best ace-high hand
    assert wheel == min(r("As5d4h3c2s"), r("Ad5h4c3s2d"))
    assert wheel < r("2s2d3h4c5s")  # any no-pair beats a pair


def test_low_straights_are_straights_in_deuce_to_seven() -> None:
    assert category(parse_cards("6s5d4h3c2s"), D27) is Category.STRAIGHT
    assert category(parse_cards("7s6d5h4c3s"), D27) is Category.STRAIGHT
    assert r("6s5d4h3c2s") > r("AsAdAhKcQs")  # a straight loses to trips
    assert r("6s5d4h3c2s") < r("7s6d5h4c3s")  # the lowest straight is the best one
    assert r("AsKdQhJcTs") < r("2s3s4s5s7s")  # any straight beats a flush


def test_boundaries_in_deuce_to_seven() -> None:
    worst_no_pair = r("AsKdQhJc9s")
    best_pair = r("2s2d3h4c5s")
    assert best_pair == worst_no_pair + 1
    assert category(parse_cards("AsKdQhJc9s"), D27) is Category.HIGH_CARD
    assert category(parse_cards("2s2d3h4c5s"), D27) is Category.PAIR
    assert r("AsKsQsJsTs") == CLASS_COUNT[D27] - 1  # royal flush is the worst
    assert r("8s5d4h3c2s") < r("8s6d4h3c2s")
    assert r("7s6d5h4c2s") < r("8s5d4h3c2s")
    # two pair: the higher pair first, then the lower pair, then the kicker
    assert r("KsKd2h2c3s") > r("QsQdJhJc3s")
    assert r("KsKd2h2c3s") < r("KsKd3h3c2s")
    assert r("KsKd2h2c3s") < r("KsKd2h2cAs")
    # one pair: lower pair wins, then the kickers from the top
    assert r("3s3d8h7c6s") < r("4s4d5h3c2s")
    assert r("3s3d7h5c4s") < r("3s3d8h5c4s")


def test_suits_never_break_ties() -> None:
    assert r("8s6d4h3c2s") == r("8h6c4s3d2h")
    assert winners([parse_cards("8s6d4h3c2s"), parse_cards("8h6c4s3d2h")], D27) == [0, 1]


def test_ace_five_boundaries() -> None:
    assert r("As2d3h4c5s", A5) == 0
    assert r("As2s3s4s5s", A5) == 0  # straights and flushes do not count
    assert r("6s4d3h2cAs", A5) == 1
    assert r("6s5d3h2cAs", A5) == 2
    assert r("KsQdJhTc9s", A5) < r("AsAd2h3c4s", A5)  # the worst no-pair beats any pair
    assert r("AsAd2h3c4s", A5) < r("2s2dAh3c4s", A5)  # aces are the lowest pair
    assert r("KsKdKhKcQs", A5) == CLASS_COUNT[A5] - 1
    assert category(parse_cards("As2s3s4s5s"), A5) is Category.HIGH_CARD


def test_high_boundaries() -> None:
    assert r("AsKsQsJsTs", HIGH) == 0
    assert r("7s5d4h3c2d", HIGH) == CLASS_COUNT[HIGH] - 1
    wheel = r("As2d3h4c5s", HIGH)
    assert category(parse_cards("As2d3h4c5s"), HIGH) is Category.STRAIGHT
    assert wheel == r("6s2d3h4c5s", HIGH) + 1  # the wheel is the lowest straight
    assert wheel < r("AsAdAhKcQs", HIGH)
    assert r("As2s3s4s5s", HIGH) == 9  # lowest straight flush: 10th best class
    assert category(parse_cards("As2s3s4s5s"), HIGH) is Category.STRAIGHT_FLUSH


def test_rank_rejects_bad_hands() -> None:
    with pytest.raises(CardError):
        rank((1, 2, 3, 4), D27)
    with pytest.raises(CardError):
        rank((1, 2, 3, 4, 4), D27)
    with pytest.raises(CardError):
        rank((1, 2, 3, 4, 52), D27)
    with pytest.raises(CardError):
        rank((1, 2, 3, 4, -1), D27)


def test_winners_lists_every_tie() -> None:
    hands = [parse_cards(t) for t in ("8s6d4h3c2s", "7s5d4h3c2d", "7h5h4d3d2h", "7c5c4c3c2c")]
    assert winners(hands, D27) == [1, 2]
    assert winners(hands, HIGH) == [3]  # the flush
    assert winners([], D27) == []


@pytest.mark.parametrize(
    ("text", "ranking", "words"),
    [
        ("7s5d4h3c2s", D27, "7-5-4-3-2: the nuts"),
        ("8s7d5h4c3s", D27, "8-7-5-4-3"),
        ("2s2d7h5c4s", D27, "pair of deuces"),
        ("6s5d4h3c2s", D27, "straight: loses in 2-7"),
        ("Ks9s7s4s3s", D27, "flush: loses in 2-7"),
        ("As5d4h3c2s", D27, "A-5-4-3-2: ace high, not a straight in 2-7"),
        ("KsKd2h2c3s", D27, "two pair, kings and deuces"),
        ("7s7d7h2c3s", D27, "three sevens"),
        ("7s7d7h2c2s", D27, "sevens full of deuces"),
        ("QsQdQhQc3s", D27, "four queens"),
        ("As2d3h4c5s", A5, "5-4-3-2-A: the nuts"),
        ("As2d3h4c7s", A5, "7-4-3-2-A"),
        ("AsAd3h4c7s", A5, "pair of aces"),
        ("AsKsQsJsTs", HIGH, "royal flush"),
        ("As2d3h4c5s", HIGH, "straight, five high"),
        ("9s8s7s6s5s", HIGH, "straight flush, nine high"),
        ("Ks9s7s4s3s", HIGH, "flush, K-9-7-4-3"),
        ("As9d7h4c3s", HIGH, "ace high, A-9-7-4-3"),
    ],
)
def test_describe(text: str, ranking: Ranking, words: str) -> None:
    assert describe(parse_cards(text), ranking) == words


def test_example_hand_has_its_rank() -> None:
    for ranking in FIVE_CARD_RANKINGS:
        for value in (0, 1, 100, 5000, CLASS_COUNT[ranking] - 1):
            assert rank(_representative(value, ranking), ranking) == value


# --- pokerkit as an independent oracle ------------------------------------------------------

ORACLES = {D27: StandardLowHand, A5: RegularLowHand, HIGH: StandardHighHand}


def _oracle_cmp(a: tuple[int, ...], b: tuple[int, ...], ranking: Ranking) -> int:
    """-1 when a is better, 1 when b is better, 0 on a tie, by pokerkit."""
    cls = ORACLES[ranking]
    ha, hb = cls(format_cards(a, sep="")), cls(format_cards(b, sep=""))
    return -1 if ha > hb else 1 if hb > ha else 0


def _our_cmp(a: tuple[int, ...], b: tuple[int, ...], ranking: Ranking) -> int:
    ra, rb = rank(a, ranking), rank(b, ranking)
    return -1 if ra < rb else 1 if rb < ra else 0


@pytest.mark.parametrize("ranking", list(FIVE_CARD_RANKINGS))
def test_random_deals_agree_with_pokerkit(ranking: Ranking) -> None:
    rng = random.Random(20261129)
    for _ in range(2000):
        cards = rng.sample(range(52), 10)
        a, b = tuple(cards[:5]), tuple(cards[5:])
        assert _our_cmp(a, b, ranking) == _oracle_cmp(a, b, ranking), (
            format_cards(a),
            format_cards(b),
        )


@st.composite
def close_pair(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Two hands from few ranks, so ties, pairs and same-category calls are common."""
    ranks = draw(st.lists(st.integers(0, 12), min_size=5, max_size=7, unique=True))
    pool = [rk * 4 + s for rk in ranks for s in range(4)]
    cards = draw(st.permutations(pool))
    return tuple(cards[:5]), tuple(cards[5:10])


@settings(max_examples=400, deadline=None)
@given(close_pair(), st.sampled_from(list(FIVE_CARD_RANKINGS)))
def test_close_calls_agree_with_pokerkit(
    pair: tuple[tuple[int, ...], tuple[int, ...]], ranking: Ranking
) -> None:
    a, b = pair
    assert _our_cmp(a, b, ranking) == _oracle_cmp(a, b, ranking)


def _representative(value: int, ranking: Ranking) -> tuple[int, ...]:
    ranks, flush = example_hand(value, ranking)
    if flush:
        suits = [0] * 5
    elif len(set(ranks)) == 5:
        suits = [0, 1, 2, 3, 0]
    else:
        suits = [ranks[:i].count(rk) for i, rk in enumerate(ranks)]
    return tuple(rk * 4 + s for rk, s in zip(ranks, suits, strict=True))


@pytest.mark.parametrize("ranking", list(FIVE_CARD_RANKINGS))
def test_whole_order_of_classes_agrees_with_pokerkit(ranking: Ranking) -> None:
    # One hand per rank value, each strictly better than the next by pokerkit too: the
    # complete order of 7,462 (or 6,175) classes, checked pair by pair.
    oracle = ORACLES[ranking]
    hands = [_representative(v, ranking) for v in range(CLASS_COUNT[ranking])]
    assert [rank(h, ranking) for h in hands] == list(range(CLASS_COUNT[ranking]))
    theirs = [oracle(format_cards(h, sep="")) for h in hands]
    for v in range(len(theirs) - 1):
        assert theirs[v] > theirs[v + 1], (format_cards(hands[v]), format_cards(hands[v + 1]))


@pytest.mark.parametrize("ranking", list(FIVE_CARD_RANKINGS))
def test_random_hand_has_the_asked_rank(ranking: Ranking) -> None:
    rng = random.Random(4)
    for value in [*range(0, CLASS_COUNT[ranking], 37), CLASS_COUNT[ranking] - 1]:
        hand = random_hand(value, ranking, rng)
        assert rank(hand, ranking) == value


def test_random_hand_avoids_cards() -> None:
    rng = random.Random(5)
    avoid = parse_cards("7s 7d 7h 5c 5d 4s")
    for _ in range(200):
        hand = random_hand(0, D27, rng, avoid)
        assert not set(hand) & set(avoid)
        assert describe(hand, D27) == "7-5-4-3-2: the nuts"
    with pytest.raises(CardError):
        random_hand(0, D27, rng, parse_cards("7s 7d 7h 7c"))
