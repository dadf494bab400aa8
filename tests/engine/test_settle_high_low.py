"""California high-low settled to the chip: each pot (side pots each on their own) halved,
the odd chip to the high half, ties splitting each half, one hand able to take both."""

from __future__ import annotations

from engine.cards import parse_cards
from engine.pots import Pot, award_high_low, pot_halves
from engine.profiles import PROFILES
from engine.ranking import Ranking, rank
from engine.settle import Table, expected_shares

HOME = PROFILES["home"]


def _values(hands: dict[str, str], ranking: Ranking) -> dict[str, int]:
    return {p: rank(parse_cards(c), ranking) for p, c in hands.items()}


def _shares(
    total: dict[str, int],
    hands: dict[str, str],
    live: list[str] | None = None,
    unit: int = 1,
    carried: int = 0,
) -> dict[str, int]:
    players = list(total)
    table = Table(
        total=total,
        returned=dict.fromkeys(players, 0),
        live=live or players,
        seat_of={p: i + 1 for i, p in enumerate(players)},
        button=len(players),  # the last seat: the odd chips go from the first seat on
        strengths={0: _values(hands, Ranking.HIGH)},
        low_strengths={0: _values(hands, Ranking.ACE_FIVE)},
        unit=unit,
        carried=carried,
    )
    return expected_shares(table, HOME).shares


# A: a pair of kings (high, no low to speak of); B: 7-5-4-3-2 (the low); C: a nine-low
HIGH = "KsKh9c8d2h"
LOW = "7d5c4s3h2c"
NINE = "9h6d5h4c3s"


def test_the_odd_chip_goes_to_the_high_half() -> None:
    assert pot_halves(25) == (13, 12)
    assert pot_halves(24) == (12, 12)
    assert pot_halves(300, unit=100) == (200, 100)
    assert pot_halves(1) == (1, 0)


def test_best_high_and_best_low_each_take_half_of_an_odd_pot() -> None:
    # 3 x 9 = 27: high half 14, low half 13
    assert _shares({"A": 9, "B": 9, "C": 9}, {"A": HIGH, "B": LOW, "C": NINE}) == {
        "A": 14,
        "B": 13,
    }


def test_one_hand_best_both_ways_scoops_the_pot() -> None:
    wheel = "5s4d3c2hAs"  # a straight for high beats a pair of kings, and the best low
    assert _shares({"A": 11, "B": 11, "C": 11}, {"A": HIGH, "B": wheel, "C": NINE}) == {"B": 33}


def test_a_tied_low_splits_the_low_half_and_its_odd_chip_goes_clockwise() -> None:
    # 3 x 7 + 10 carried = 31: high 16 to A; low 15 split by B and C (the same
    # 7-5-4-3-2): 8 to B (left of the button first), 7 to C
    same_low = "7h5d4c3s2d"
    shares = _shares({"A": 7, "B": 7, "C": 7}, {"A": HIGH, "B": LOW, "C": same_low}, carried=10)
    assert shares == {"A": 16, "B": 8, "C": 7}


def test_a_tied_high_splits_the_high_half() -> None:
    other_kings = "KdKc9s8h2s"
    shares = _shares({"A": 10, "B": 10, "C": 10}, {"A": HIGH, "B": other_kings, "C": LOW})
    assert shares == {"A": 8, "B": 7, "C": 15}


def test_each_side_pot_is_split_high_low_on_its_own() -> None:
    # A all-in for 10 with the best low; B the best high; C a nine-low.  Main pot 30
    # (A, B, C): high 15 to B, low 15 to A.  Side pot 2 x 7 = 14 (B, C): high 7 to B, low
    # 7 to C, who has the best low of the two left in it.
    shares = _shares({"A": 10, "B": 17, "C": 17}, {"A": LOW, "B": HIGH, "C": NINE})
    assert shares == {"A": 15, "B": 22, "C": 7}


def test_chips_split_in_whole_chips_with_the_odd_chip_high() -> None:
    # a tournament table: 3 x 100 chips (hundredths 300): high 200, low 100
    shares = _shares({"A": 100, "B": 100, "C": 100}, {"A": HIGH, "B": LOW, "C": NINE}, unit=100)
    assert shares == {"A": 200, "B": 100}


def test_a_carried_pot_is_split_with_the_main_pot() -> None:
    # 15 carried from a hand nobody opened + 3 x 5 antes = 30: 15 and 15
    shares = _shares({"A": 5, "B": 5, "C": 5}, {"A": HIGH, "B": LOW, "C": NINE}, carried=15)
    assert shares == {"A": 15, "B": 15}


def test_a_folded_players_chips_are_split_but_they_win_nothing() -> None:
    shares = _shares({"A": 10, "B": 10, "C": 5}, {"A": HIGH, "B": LOW}, live=["A", "B"])
    assert shares == {"A": 13, "B": 12}


def test_the_dealer_awards_each_half_the_same_way() -> None:
    high = _values({"A": HIGH, "B": LOW, "C": NINE}, Ranking.HIGH)
    low = _values({"A": HIGH, "B": LOW, "C": NINE}, Ranking.ACE_FIVE)
    pots = (Pot(30, ("A", "B", "C")), Pot(15, ("A", "C")))
    awarded = award_high_low(pots, high, low, ["A", "B", "C"])
    assert sorted(awarded) == [(0, "A", 15), (0, "B", 15), (1, "A", 8), (1, "C", 7)]
