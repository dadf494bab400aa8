"""The Badugi ranking: RULES.md's examples, every four-card hand, pokerkit as the oracle."""

from __future__ import annotations

import io
import random
import sys
from itertools import combinations

import numpy as np
import pytest
from pokerkit import BadugiHand

import cli
from engine import badugi
from engine.cards import CardError, format_cards, parse_cards
from engine.compare import compare_line
from engine.ranking import CLASS_COUNT, Ranking, describe, rank, ranking_for, winners
from engine.record import Game, Structure
from engine.rules import rules_for
from engine.sim.batch import combinations_array, rank_batch

B = Ranking.BADUGI


def r(text: str) -> int:
    return rank(parse_cards(text), B)


def test_game_and_rules() -> None:
    assert ranking_for(Game.BADUGI) is B
    rules = rules_for(Game.BADUGI, Structure.FIXED)
    assert (rules.draws, rules.rounds, rules.hand_size, rules.max_discard, rules.cap) == (
        3,
        4,
        4,
        4,
        4,
    )
    assert [rules.big_bet_round(street) for street in range(4)] == [False, False, True, True]


def test_rules_md_examples() -> None:
    assert r("Ac 2d 3h 4s") == 0  # the best hand
    assert r("4c 3d 2h As") < r("5c 3d 2h As")
    assert r("Kc Qd Jh Ts") < r("2c 3c 4d 5h")  # a king-high badugi beats a three-card hand
    assert describe(parse_cards("2c 3c 4d 5h"), B) == "three-card 5-4-2"
    assert r("4c 3d 2h As") == r("4d 3h 2s Ac")  # suits never break ties
    assert winners([parse_cards("4c3d2hAs"), parse_cards("4d3h2sAc")], B) == [0, 1]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Ac 2d 3h 4s", "4-card 4-high badugi: the nuts"),
        ("6c 4d 3h As", "4-card 6-high badugi"),
        ("Kc Qd Jh Ts", "4-card K-high badugi"),
        ("2c 3c 4d 5h", "three-card 5-4-2"),
        ("2s 3s 4d 7h", "three-card 7-4-2"),  # the deuce, not the trey, plays with the spade
        ("As Ad 5c 5h", "two-card 5-A"),
        ("Kc Kd Kh Ks", "one-card K"),
        ("Ac 2c 3c 4c", "one-card A"),
    ],
)
def test_describe(text: str, words: str) -> None:
    assert describe(parse_cards(text), B) == words


def test_wrong_hands_are_card_errors() -> None:
    for bad in [(1, 2, 3), (1, 2, 3, 4, 5), (1, 1, 2, 3), (-1, 2, 3, 4), (1, 2, 3, 52)]:
        with pytest.raises(CardError):
            rank(bad, B)


def test_every_four_card_hand() -> None:
    # All 270,725 hands: 1,092 values (715 badugis, 286 three-card, 78 two-card and 13
    # one-card hands), and how many hands of each size (a one-card hand is four of one suit
    # or four of a kind: 4 * C(13, 4) + 13 = 2,873).
    values = rank_batch(combinations_array(52, 4), B)
    assert values.shape == (270725,)
    assert np.unique(values).size == CLASS_COUNT[B] == 1092
    sizes = np.array([badugi.size_of(v) for v in range(1092)])
    assert np.bincount(sizes).tolist() == [0, 13, 78, 286, 715]
    assert np.bincount(sizes[values]).tolist() == [0, 2873, 96252, 154440, 17160]
    assert np.bincount(values)[:2].tolist() == [24, 24]  # A-2-3-4 and 5-3-2-A: 4! suitings


def test_batch_equals_scalar_in_any_card_order() -> None:
    hands = combinations_array(52, 4)[::97]
    shuffled = np.random.default_rng(3).permuted(hands, axis=1)
    scalar = [rank(tuple(int(c) for c in h), B) for h in hands]
    assert rank_batch(shuffled, B).tolist() == scalar
    with pytest.raises(ValueError, match="shape"):
        rank_batch(np.zeros((3, 5), dtype=np.uint8), B)


def _representative(value: int) -> tuple[int, ...]:
    """The played cards of one hand of this value, with distinct suits."""
    low = badugi.low_ranks_of(value)
    return tuple(((rk - 1) % 13) * 4 + suit for suit, rk in enumerate(low))


def test_whole_order_of_classes_agrees_with_pokerkit() -> None:
    # One hand per value, each strictly better than the next by pokerkit too: the complete
    # order of the 1,092 classes, pair by pair.
    hands = [_representative(v) for v in range(1092)]
    padded = []
    for v, hand in enumerate(hands):
        # Fill to four cards with other suits of the played ranks: no more distinct ranks,
        # so neither a bigger subset nor other ranks.
        extra = [c for c in range(52) if c >> 2 == hand[0] >> 2 and c not in hand]
        full = hand + tuple(extra[: 4 - len(hand)])
        assert rank(full, B) == v, format_cards(full)
        padded.append(full)
    theirs = [BadugiHand(format_cards(h, sep="")) for h in hands]
    for v in range(len(theirs) - 1):
        assert theirs[v] > theirs[v + 1], (format_cards(hands[v]), format_cards(hands[v + 1]))
    assert len(padded) == 1092


def test_random_hands_play_what_pokerkit_plays() -> None:
    rng = random.Random(20261201)
    for _ in range(1500):
        cards = tuple(rng.sample(range(52), 4))
        ours = badugi.playing_cards(cards)
        assert BadugiHand.from_game(format_cards(cards, sep="")) == BadugiHand(
            format_cards(ours, sep="")
        ), format_cards(cards)


@pytest.mark.slow
def test_close_calls_agree_with_pokerkit() -> None:
    # Few ranks and suits, so ties, blocked suits and same-size calls are common.
    rng = random.Random(8)
    pool = [rk * 4 + s for rk in (12, 0, 1, 2, 3) for s in range(4)]
    for a, b in combinations(combinations(pool, 4), 2):
        if rng.random() > 0.002 or set(a) & set(b):
            continue
        ours = (rank(a, B) > rank(b, B)) - (rank(a, B) < rank(b, B))
        ha = BadugiHand.from_game(format_cards(a, sep=""))
        hb = BadugiHand.from_game(format_cards(b, sep=""))
        assert ours == (ha < hb) - (ha > hb), (format_cards(a), format_cards(b))


def _run(
    argv: list[str], capsys: pytest.CaptureFixture[str], stdin: bytes = b""
) -> tuple[int, str]:
    old = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        status = cli.main(argv)
    finally:
        sys.stdin = old
    return status, capsys.readouterr().out


def test_cli_compare_badugi(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["compare", "--game", "badugi", "Kc Qd Jh Ts", "2c3c4d5h"], capsys) == (0, "0\n")
    cards = ["4c", "3d", "2h", "As", "4d", "3h", "2s", "Ac"]
    assert _run(["compare", "--game", "badugi", *cards], capsys) == (0, "0 1\n")
    assert _run(["compare", "--game", "badugi", "Ac2d3h4s", "Kc Qd Jh Ts 9s"], capsys) == (
        1,
        "error: a hand is four cards, got 5 in 'Kc Qd Jh Ts 9s'\n",
    )
    lines = b"5c3d2hAs | 4c3h2dAh\nKcKdKhKs | QcJcTc9c\n4c3d | 2s5s\n"
    assert _run(["compare", "--game", "badugi", "--stdin"], capsys, lines) == (
        1,
        "0\n1\nerror: a hand is four cards, got 2 in '4c3d'\n",
    )
    assert compare_line("2s3s4d7h | 2c3c4h7s", B) == [0, 1]  # both play 7-4-2
