"""Pot drill: side pots, splits and odd chips paid exactly, answers checked to the cent."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.drills import pots
from analysis.drills.pots import PotQuestion, PotSeat, check, explain_pots, generate, parse_money
from engine.cards import parse_cards
from engine.ranking import FIVE_CARD_RANKINGS, Ranking, rank

D27 = Ranking.DEUCE_SEVEN


def side_pot_question() -> PotQuestion:
    return PotQuestion(D27, pots.SIDE_POTS, (
        PotSeat("Seat 2", 2, 300, False, parse_cards("7s5d4h3c2s")),
        PotSeat("Seat 4", 4, 1000, False, parse_cards("8s6d4c3d2h")),
        PotSeat("Seat 5", 5, 1000, False, parse_cards("9s7d5c4d2c")),
        PotSeat("Seat 6", 6, 50, True),
    ), button=1)  # fmt: skip


def odd_chip_question() -> PotQuestion:
    return PotQuestion(D27, pots.ODD_CHIPS, (
        PotSeat("Seat 1", 1, 200, False, parse_cards("8s6d4h3c2s")),
        PotSeat("Seat 3", 3, 200, False, parse_cards("8h6c4d3s2h")),
        PotSeat("Seat 5", 5, 25, True),
        PotSeat("Seat 6", 6, 200, False, parse_cards("KsJd9c7h5h")),
    ), button=3)  # fmt: skip


def three_way_question() -> PotQuestion:
    return PotQuestion(D27, pots.ODD_CHIPS, (
        PotSeat("Seat 1", 1, 5, True),
        PotSeat("Seat 2", 2, 100, False, parse_cards("7c5d4h3s2c")),
        PotSeat("Seat 4", 4, 100, False, parse_cards("7d5h4s3c2d")),
        PotSeat("Seat 6", 6, 100, False, parse_cards("7h5s4c3d2h")),
    ), button=4)  # fmt: skip


def test_all_in_for_less_wins_the_main_pot_only() -> None:
    q = side_pot_question()
    assert [(p.amount, p.eligible) for p in q.pots] == [
        (950, ("Seat 2", "Seat 4", "Seat 5")), (1400, ("Seat 4", "Seat 5"))]  # fmt: skip
    assert q.payout() == {"Seat 2": 950, "Seat 4": 1400, "Seat 5": 0, "Seat 6": 0}
    assert explain_pots(q) == (
        "Main pot 9.50 (Seat 2, Seat 4, Seat 5): Seat 2 wins with 7-5-4-3-2: the nuts",
        "Side pot 1 14.00 (Seat 4, Seat 5): Seat 4 wins with 8-6-4-3-2",
    )


def test_the_odd_chip_goes_to_the_first_winner_left_of_the_button() -> None:
    q = odd_chip_question()
    assert q.order == ["Seat 5", "Seat 6", "Seat 1", "Seat 3"]
    assert q.payout() == {"Seat 1": 313, "Seat 3": 312, "Seat 5": 0, "Seat 6": 0}
    assert explain_pots(q) == (
        "Main pot 6.25 (Seat 1, Seat 3, Seat 6): split, 8-6-4-3-2 each: Seat 1 3.13, "
        "Seat 3 3.12 (odd chip to the first clockwise from the button)",
    )


def test_two_odd_chips_in_a_three_way_split() -> None:
    q = three_way_question()
    assert q.payout() == {"Seat 1": 0, "Seat 2": 102, "Seat 4": 101, "Seat 6": 102}
    assert explain_pots(q)[0].endswith("(odd chips to the first clockwise from the button)")


def test_check_marks_each_wrong_amount() -> None:
    q = odd_chip_question()
    right = check(q, {"Seat 1": 313, "Seat 3": 312})
    assert right.correct and right.wrong == ()
    assert right.given == {"Seat 1": 313, "Seat 3": 312, "Seat 5": 0, "Seat 6": 0}
    even = check(q, {"Seat 1": 312, "Seat 3": 313})
    assert not even.correct and even.wrong == ("Seat 1", "Seat 3")
    assert not check(q, {"Seat 1": 625}).correct


@pytest.mark.parametrize(
    ("text", "hundredths"), [("12.5", 1250), ("0.01", 1), ("1,234.56", 123456), (" 3 ", 300),
                             ("0", 0)],
)  # fmt: skip
def test_parse_money(text: str, hundredths: int) -> None:
    assert parse_money(text) == hundredths


@pytest.mark.parametrize("text", ["1.234", "-1", "abc", "", "inf", "NaN", "-0.5"])
def test_parse_money_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        parse_money(text)


@pytest.mark.parametrize("ranking", list(FIVE_CARD_RANKINGS))
@pytest.mark.parametrize("topic", pots.TOPICS)
def test_generated_pots_have_their_topic_and_pay_every_chip(ranking: Ranking, topic: str) -> None:
    rng = random.Random(7)
    for players in (2, 3, 4, 5, 6):
        for _ in range(15):
            q = generate(topic, ranking, players, rng)
            total = sum(s.put_in for s in q.seats)
            assert sum(q.payout().values()) == total
            top = max(s.put_in for s in q.seats)
            assert sum(1 for s in q.seats if s.put_in == top and not s.folded) >= 2
            shares: dict[int, list[tuple[str, int]]] = defaultdict(list)
            for won in q.awards():
                shares[won.pot].append((won.player, won.amount))
            split = [v for v in shares.values() if len(v) >= 2]
            if topic == pots.SIDE_POTS:
                assert sum(1 for p in q.pots if p.amount) >= 2
            elif topic == pots.SPLIT:
                assert split and all(len({a for _, a in v}) == 1 for v in split)
            else:
                assert any(len({a for _, a in v}) == 2 for v in split)
            for v in split:  # larger shares by one chip, to the first in clockwise order
                amounts = [a for _, a in sorted(v, key=lambda pa: q.order.index(pa[0]))]
                assert amounts == sorted(amounts, reverse=True) and amounts[0] - amounts[-1] <= 1


def test_bad_questions_are_refused() -> None:
    with pytest.raises(ValueError):
        PotQuestion(D27, pots.SPLIT, (PotSeat("A", 1, 10, True),), 1)
    with pytest.raises(ValueError):
        PotQuestion(D27, pots.SPLIT, (PotSeat("A", 1, 10), PotSeat("B", 2, 10)), 1)
    with pytest.raises(ValueError):
        generate("nope", D27, 3, random.Random(0))


@st.composite
def showdowns(draw: st.DrawFn) -> PotQuestion:
    """Any showdown that can happen: 2 to 6 seats, random chips in, some folded, distinct
    random hands; the top contribution is matched by two live players (an unmatched one
    would have gone back as an uncalled bet)."""
    n = draw(st.integers(2, 6))
    seats = draw(st.lists(st.integers(1, 9), min_size=n, max_size=n, unique=True))
    put_in = draw(st.lists(st.integers(0, 5000), min_size=n, max_size=n))
    folded = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    folded[0] = folded[1] = False
    put_in[0] = put_in[1] = max(put_in) + 1
    deck = draw(st.permutations(list(range(52))))
    ranking = draw(st.sampled_from(list(FIVE_CARD_RANKINGS)))
    players = [
        PotSeat(f"P{s}", s, c, f, None if f else tuple(deck[5 * i : 5 * i + 5]))
        for i, (s, c, f) in enumerate(zip(seats, put_in, folded, strict=True))
    ]
    return PotQuestion(ranking, pots.SIDE_POTS, tuple(players), draw(st.sampled_from(seats)))


@settings(max_examples=300, deadline=None)
@given(showdowns())
def test_any_showdown_pays_every_chip_and_nobody_more_than_they_could_win(q: PotQuestion) -> None:
    pay = q.payout()
    put = {s.name: s.put_in for s in q.seats}
    assert sum(pay.values()) == sum(put.values())
    live = [s for s in q.seats if not s.folded]
    for s in q.seats:
        if s.folded:
            assert pay[s.name] == 0
        else:  # at most what everybody put in up to this player's own level
            assert pay[s.name] <= sum(min(c, s.put_in) for c in put.values())
    values = {s.name: rank(s.cards, q.ranking) for s in live if s.cards is not None}
    best = min(values.values())
    leaders = [n for n, v in values.items() if v == best]
    if len(leaders) == 1:  # a lone best hand takes everything up to its own level
        (leader,) = leaders
        assert pay[leader] == sum(min(c, put[leader]) for c in put.values())
    else:  # tied best hands: the main pot is shared to within a chip
        main = q.pots[0]
        if set(leaders) <= set(main.eligible):
            shares = [pay[n] for n in leaders]
            assert min(shares) >= main.amount // len(leaders)
