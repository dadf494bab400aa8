"""Wild cards (engine/wild.py): jokers as cards, the decks, high and low with wild cards."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import DECK, CardError, format_card, format_cards, parse_cards
from engine.ranking import Ranking, rank
from engine.wild import (
    HighCategory,
    Wild,
    category_high,
    deck_for,
    describe_high,
    describe_low,
    rank_high,
    rank_low,
    wild_cards,
    winners_high,
    winners_low,
)
from tests.engine.wild_brute import best_high, best_low, high_key, low_key


def cards(text: str) -> tuple[int, ...]:
    return parse_cards(text)


def test_jokers_are_52_and_53_written_jk() -> None:
    assert parse_cards("Jk") == (52,)
    assert parse_cards("As Jk 7d jk") == (51, 52, 21, 53)
    assert parse_cards("JkJK") == (52, 53)
    assert format_card(52) == format_card(53) == "Jk"
    assert format_cards((52, 0, 53)) == "Jk 2c Jk"
    with pytest.raises(CardError, match="more than two jokers"):
        parse_cards("Jk Jk Jk")
    with pytest.raises(CardError, match="more than two jokers"):
        parse_cards("Jk Jk Jk", distinct=False)
    with pytest.raises(CardError):
        format_card(54)
    assert len(DECK) == 52 and max(DECK) == 51  # the default deck has no joker


def test_decks_and_wild_cards() -> None:
    assert deck_for(None) == DECK == deck_for(Wild.DEUCES) == deck_for(Wild.ONE_EYED_JACKS)
    assert deck_for(Wild.JOKER) == (*range(52), 52)
    assert deck_for(Wild.TWO_JOKERS) == tuple(range(54))
    assert wild_cards(None) == frozenset()
    assert wild_cards(Wild.JOKER) == {52}
    assert wild_cards(Wild.TWO_JOKERS) == {52, 53}
    assert {format_card(c) for c in wild_cards(Wild.DEUCES)} == {"2c", "2d", "2h", "2s"}
    assert {format_card(c) for c in wild_cards(Wild.ONE_EYED_JACKS)} == {"Js", "Jh"}
    assert [w.value for w in Wild] == ["joker", "two-jokers", "deuces", "one-eyed-jacks"]


@pytest.mark.parametrize(
    ("hand", "wild", "words", "category"),
    [
        ("Kc Kd Kh Ks Jk", Wild.JOKER, "five kings", HighCategory.FIVE_OF_A_KIND),
        ("Jk Jk Ah Kh Qh", Wild.TWO_JOKERS, "ace-high straight flush", HighCategory.STRAIGHT_FLUSH),
        ("As Ks 9s 4s Jk", Wild.JOKER, "ace-high flush, A-A-K-9-4", HighCategory.FLUSH),
        ("Qs 9s 6s 4s Jk", Wild.JOKER, "ace-high flush, A-Q-9-6-4", HighCategory.FLUSH),
        ("2c 2d 9h 9s 9c", Wild.DEUCES, "five nines", HighCategory.FIVE_OF_A_KIND),
        ("Js Jh 3c 4d 5h", Wild.ONE_EYED_JACKS, "seven-high straight", HighCategory.STRAIGHT),
        ("Jd Jh 3c 3d Jc", Wild.ONE_EYED_JACKS, "jacks full of threes", HighCategory.FULL_HOUSE),
        ("Jk 7c 7d 3h 3s", Wild.JOKER, "sevens full of threes", HighCategory.FULL_HOUSE),
        ("Jk Ac 2d 3h 4s", Wild.JOKER, "five-high straight", HighCategory.STRAIGHT),
        ("Jk Ac 8d 5h 4s", Wild.JOKER, "pair of aces", HighCategory.PAIR),
        ("As Ks Qs Js Ts", None, "ace-high straight flush", HighCategory.STRAIGHT_FLUSH),
        ("Ac Kd 9h 4s 3c", None, "ace high, A-K-9-4-3", HighCategory.HIGH_CARD),
    ],
)
def test_describe_high_names_the_made_hand(
    hand: str, wild: Wild | None, words: str, category: HighCategory
) -> None:
    assert describe_high(cards(hand), wild) == words
    assert category_high(rank_high(cards(hand), wild)) is category


def test_five_of_a_kind_beats_a_straight_flush_and_wild_ties_natural() -> None:
    five = cards("Kc Kd Kh Ks Jk")
    royal = cards("As Ks Qs Js Ts")
    assert winners_high([royal, five], Wild.JOKER) == [1]
    # Cards speak: a wild royal flush ties a natural one.
    wild_royal = cards("Ah Kh Qh Jh Jk")
    assert winners_high([cards("As Ks Qs Js Ts"), wild_royal], Wild.JOKER) == [0, 1]
    # The one-eyed jacks are wild, the other two jacks are not.
    assert describe_high(cards("Jc Jd Ah Kh Qh"), Wild.ONE_EYED_JACKS) == "pair of jacks"


def test_a_wild_card_in_a_low_is_the_lowest_rank_not_held() -> None:
    assert describe_low(cards("Jk 2c 3d 4h 5s"), Wild.JOKER) == "5-4-3-2-A"
    assert describe_low(cards("Jk Ac 3d 4h 5s"), Wild.JOKER) == "5-4-3-2-A"
    assert describe_low(cards("Jk Ac 2d 4h 6s"), Wild.JOKER) == "6-4-3-2-A"
    assert describe_low(cards("2c 2d Kh Ks 9c"), Wild.DEUCES) == "pair of kings"
    assert describe_low(cards("2c 2d 2h 2s 8c"), Wild.DEUCES) == "8-4-3-2-A"
    assert rank_low(cards("Jk Ac 3d 4h 5s"), Wild.JOKER) == 0  # the best low
    assert winners_low([cards("Jk 7c 6d 4h 2s"), cards("7s 6c 4d 2h Ah")], Wild.JOKER) == [0, 1]
    assert winners_low([cards("Jk 8c 6d 4h 2s"), cards("7s 6c 4d 3h Ah")], Wild.JOKER) == [1]


def test_bad_hands_are_card_errors() -> None:
    with pytest.raises(CardError):
        rank_high(cards("Jk As Ks Qs Js"), None)  # no joker in a game without wild cards
    with pytest.raises(CardError):
        rank_high((52, 53, 0, 1, 2), Wild.JOKER)  # one joker in that deck
    with pytest.raises(CardError):
        rank_low(cards("As Ks Qs Js"), Wild.DEUCES)
    with pytest.raises(CardError):
        rank_high((0, 0, 1, 2, 3), Wild.DEUCES)


HANDS52 = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True)


@given(HANDS52, HANDS52)
def test_without_wild_cards_the_order_is_ranking_py_order(a: list[int], b: list[int]) -> None:
    for wild_rank, ranking in ((rank_high, Ranking.HIGH), (rank_low, Ranking.ACE_FIVE)):
        ours = (wild_rank(a, None) > wild_rank(b, None)) - (wild_rank(a, None) < wild_rank(b, None))
        theirs = (rank(a, ranking) > rank(b, ranking)) - (rank(a, ranking) < rank(b, ranking))
        assert ours == theirs


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _hands_with_wild(wild: Wild, draw: st.DrawFn) -> list[int]:
    deck = list(deck_for(wild))
    wilds = sorted(wild_cards(wild))
    held = draw(st.lists(st.sampled_from(wilds), max_size=len(wilds), unique=True))
    rest = draw(
        st.lists(
            st.sampled_from([c for c in deck if c not in wilds]),
            min_size=5 - len(held),
            max_size=5 - len(held),
            unique=True,
        )
    )
    return held + rest


@st.composite
def wild_pairs(draw: st.DrawFn, wild: Wild) -> tuple[list[int], list[int]]:
    return _hands_with_wild(wild, draw), _hands_with_wild(wild, draw)


@pytest.mark.slow
@pytest.mark.parametrize("wild", [Wild.ONE_EYED_JACKS, Wild.TWO_JOKERS])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_brute_force_agrees_on_random_hands(wild: Wild, data: st.DataObject) -> None:
    a, b = data.draw(wild_pairs(wild))
    wilds = wild_cards(wild)
    assert _sign(rank_high(b, wild) - rank_high(a, wild)) == _sign(
        (best_high(a, wilds) > best_high(b, wilds)) - (best_high(a, wilds) < best_high(b, wilds))
    )
    assert _sign(rank_low(a, wild) - rank_low(b, wild)) == _sign(
        (best_low(a, wilds) > best_low(b, wilds)) - (best_low(a, wilds) < best_low(b, wilds))
    )
    assert category_high(rank_high(a, wild)) is list(HighCategory)[best_high(a, wilds)[0]]


def test_the_brute_force_evaluator_itself() -> None:
    assert high_key((44, 45, 46, 47, 44)) == (9, 11)
    assert high_key(cards("As Ks Qs Js Ts")) == (8, 12)
    assert high_key(cards("5c 4d 3h 2s Ac")) == (4, 3)
    assert low_key(cards("5c 4d 3h 2s Ac")) < low_key(cards("6c 4d 3h 2s Ac"))
    rng = random.Random(16)
    for _ in range(20):
        hand = rng.sample(range(52), 5)
        assert best_high(hand, ()) == high_key(hand)
