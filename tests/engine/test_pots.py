from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.pots import (
    NO_RAKE,
    Pot,
    RakeRule,
    UncalledBet,
    award,
    clockwise_from_button,
    side_pots,
    split,
    take_rake,
    uncalled,
)


def test_pokerstars_side_pot_hand_gives_main_then_side_pot_and_rake_from_main() -> None:
    # corpus: cash/Stars/Draw/5-Carddraw-FL-USD-0.10-0.20-201106.sidepot.txt
    contributions = {"Player1": 0, "Hero": 20, "Player3": 20, "Player4": 15, "Player5": 0}
    pots = side_pots(contributions, live={"Hero", "Player3", "Player4"})
    assert pots == (Pot(45, ("Hero", "Player3", "Player4")), Pot(10, ("Hero", "Player3")))
    assert take_rake(pots, 2) == (
        Pot(43, ("Hero", "Player3", "Player4")),
        Pot(10, ("Hero", "Player3")),
    )


def test_folded_players_chips_stay_in_the_pots_they_reached() -> None:
    # A all-in for 30, B folds after putting in 50, C and D put in 100 each.
    contributions = {"A": 30, "B": 50, "C": 100, "D": 100}
    pots = side_pots(contributions, live={"A", "C", "D"})
    assert pots == (Pot(120, ("A", "C", "D")), Pot(160, ("C", "D")))


def test_three_all_in_levels_make_three_side_pots() -> None:
    contributions = {"A": 10, "B": 25, "C": 60, "D": 100, "E": 100}
    pots = side_pots(contributions, live=set(contributions))
    assert pots == (
        Pot(50, ("A", "B", "C", "D", "E")),
        Pot(60, ("B", "C", "D", "E")),
        Pot(105, ("C", "D", "E")),
        Pot(80, ("D", "E")),
    )


def test_one_live_player_takes_a_single_pot_with_folded_chips() -> None:
    assert side_pots({"A": 10, "B": 20, "C": 20}, live={"C"}) == (Pot(50, ("C",)),)


def test_folded_chips_above_every_live_level_go_to_the_top_pot() -> None:
    # uncalled bet not returned first: B folded having put in more than anyone live
    assert side_pots({"A": 10, "B": 40, "C": 10}, live={"A", "C"}) == (Pot(60, ("A", "C")),)


def test_nobody_live_is_one_pot_nobody_can_win_and_nothing_is_no_pot() -> None:
    assert side_pots({"A": 10, "B": 5}, live=()) == (Pot(15, ()),)
    assert side_pots({"A": 0, "B": 0}, live={"A"}) == ()


def test_split_gives_odd_chips_in_the_given_order() -> None:
    assert split(101, ["B", "A"]) == {"B": 51, "A": 50}
    assert split(11, ["C", "A", "B"]) == {"C": 4, "A": 4, "B": 3}
    assert split(9, ["X"]) == {"X": 9}


def test_split_refuses_no_winner_and_a_repeated_winner() -> None:
    with pytest.raises(ValueError):
        split(10, [])
    with pytest.raises(ValueError):
        split(10, ["A", "A"])


def test_uncalled_is_the_unmatched_part_of_the_top_contribution() -> None:
    assert uncalled({"A": 20, "B": 60, "C": 40}) == UncalledBet(player="B", amount=20)
    assert uncalled({"A": 60, "B": 60}) is None
    assert uncalled({"SB": 5, "BB": 10}) == UncalledBet(player="BB", amount=5)
    assert uncalled({"A": 10}) == UncalledBet(player="A", amount=10)
    assert uncalled({}) is None


def test_uncalled_reads_the_top_two_contributions_in_any_order() -> None:
    back = uncalled({"A": 40, "B": 90, "C": 90, "D": 10})
    assert back is None  # B and C share the top: nothing unmatched
    back = uncalled({"A": 40, "B": 25, "C": 95, "D": 60})
    assert back is not None and (back.player, back.amount) == ("C", 35)
    back = uncalled({"A": 95, "B": 40, "C": 60})
    assert back is not None and (back.player, back.amount) == ("A", 35)
    back = uncalled({"A": -5, "B": -10})  # only a second's value is subtracted, never 0
    assert back is not None and (back.player, back.amount) == ("A", 5)


def test_side_pots_put_a_folded_player_s_chips_above_the_top_level_in_the_top_pot() -> None:
    pots = side_pots({"A": 30, "B": 50, "C": 80}, ["A", "B"])
    assert pots == (Pot(90, ("A", "B")), Pot(70, ("B",)))
    zeros = {"A": 0, "B": 0, "C": 0}  # no dead chips: the pots of no dead map at all
    assert side_pots({"A": 30, "B": 50, "C": 80}, ["A", "B"], zeros) == pots


def test_rake_rule_rounds_down_and_caps() -> None:
    rule = RakeRule(per_mille=50, cap=300)
    assert rule.amount(135) == 6  # Stars: Total pot $1.35 | Rake $0.06
    assert rule.amount(55) == 2  # Stars: Total pot $0.55 | Rake $0.02
    assert rule.amount(19) == 0
    assert rule.amount(100_000) == 300
    assert NO_RAKE.amount(5000) == 0
    assert rule.amount(0) == 0


def test_rake_larger_than_the_main_pot_spills_into_the_side_pot() -> None:
    pots = (Pot(3, ("A", "B", "C")), Pot(10, ("B", "C")))
    assert take_rake(pots, 5) == (Pot(0, ("A", "B", "C")), Pot(8, ("B", "C")))
    with pytest.raises(ValueError):
        take_rake(pots, 14)
    with pytest.raises(ValueError):
        take_rake(pots, -1)


def test_clockwise_from_button_starts_left_of_the_button_and_ends_on_it() -> None:
    seats = {"A": 1, "B": 3, "C": 4, "D": 6}
    assert clockwise_from_button(["A", "B", "C", "D"], seats, button=4) == ["D", "A", "B", "C"]
    assert clockwise_from_button(["C", "A"], seats, button=6) == ["A", "C"]
    assert clockwise_from_button(["A", "B"], seats, button=2) == ["B", "A"]


def test_award_splits_a_tied_main_pot_and_gives_the_side_pot_to_its_best_hand() -> None:
    pots = (Pot(45, ("A", "B", "C")), Pot(10, ("B", "C")))
    strength = {"A": 7, "B": 7, "C": 9}
    order = ["B", "C", "A"]  # B sits first left of the button
    assert award(pots, strength, order) == ((0, "B", 23), (0, "A", 22), (1, "B", 10))


def test_award_gives_a_single_eligible_pot_without_a_showdown() -> None:
    pots = (Pot(30, ("A", "B")), Pot(0, ("B",)), Pot(12, ("B",)))
    assert award(pots, {"A": 1, "B": 2}, ["A", "B"]) == ((0, "A", 30), (2, "B", 12))
    with pytest.raises(ValueError):
        award((Pot(10, ("A", "B")),), {}, ["A", "B"])


players = st.sampled_from(["A", "B", "C", "D", "E", "F"])
contribution_maps = st.dictionaries(players, st.integers(0, 10_000), min_size=1, max_size=6)


# No deadline on the properties: a loaded CI machine must not turn timing into failures.
@settings(deadline=None)
@given(contribution_maps, st.data())
def test_pots_conserve_chips_and_respect_levels(
    contributions: dict[str, int], data: st.DataObject
) -> None:
    live = data.draw(st.sets(st.sampled_from(sorted(contributions))))
    pots = side_pots(contributions, live)
    assert sum(p.amount for p in pots) == sum(contributions.values())
    levels = sorted({c for p, c in contributions.items() if p in live and c > 0})
    if levels:
        assert len(pots) == len(levels)
        for pot, level in zip(pots, levels, strict=True):
            assert pot.amount > 0
            assert set(pot.eligible) == {
                p for p, c in contributions.items() if p in live and c >= level
            }
        # each side pot's players are a strict subset of the pot below
        for lower, upper in itertools.pairwise(pots):
            assert set(upper.eligible) < set(lower.eligible)
    for pot in pots:
        assert all(p in live for p in pot.eligible)


@settings(deadline=None)
@given(st.integers(0, 1_000_000), st.lists(players, min_size=1, max_size=6, unique=True))
def test_split_shares_sum_to_the_pot_and_differ_by_at_most_one(
    amount: int, winners: list[str]
) -> None:
    shares = split(amount, winners)
    assert sum(shares.values()) == amount
    assert max(shares.values()) - min(shares.values()) <= 1
    values = [shares[w] for w in winners]
    assert values == sorted(values, reverse=True)  # odd chips go to the first in order


@settings(deadline=None)
@given(contribution_maps)
def test_returning_the_uncalled_bet_leaves_the_top_contribution_matched(
    contributions: dict[str, int],
) -> None:
    back = uncalled(contributions)
    after = dict(contributions)
    if back is not None:
        assert back.amount > 0
        after[back.player] -= back.amount
    assert uncalled(after) is None or max(after.values()) == 0 or len(after) == 1


@settings(deadline=None)
@given(contribution_maps, st.integers(0, 100), st.integers(0, 500))
def test_rake_conserves_chips_and_empties_the_main_pot_first(
    contributions: dict[str, int], per_mille: int, cap: int
) -> None:
    pots = side_pots(contributions, set(contributions))
    rake = RakeRule(per_mille, cap).amount(sum(p.amount for p in pots))
    after = take_rake(pots, rake)
    assert sum(p.amount for p in after) == sum(p.amount for p in pots) - rake
    taken = [b.amount - a.amount for b, a in zip(pots, after, strict=True)]
    for i in range(1, len(taken)):
        if taken[i]:
            assert after[i - 1].amount == 0


def test_a_dead_blind_adds_to_the_main_pot_without_making_a_level() -> None:
    # B came back and posted a dead small blind (5) with the big blind; B and C all-in
    # levels 40 and 100; A folded after putting in 10.
    contributions = {"A": 10, "B": 45, "C": 100, "D": 100}
    pots = side_pots(contributions, live={"B", "C", "D"}, dead={"B": 5})
    assert pots == (Pot(135, ("B", "C", "D")), Pot(120, ("C", "D")))
    assert side_pots({"A": 5}, live=(), dead={"A": 5}) == (Pot(5, ()),)


@settings(deadline=None)
@given(contribution_maps, st.data())
def test_dead_chips_only_ever_grow_the_main_pot(
    contributions: dict[str, int], data: st.DataObject
) -> None:
    live = data.draw(st.sets(st.sampled_from(sorted(contributions))))
    dead = {p: data.draw(st.integers(0, c)) for p, c in contributions.items()}
    with_dead = side_pots(contributions, live, dead)
    assert sum(p.amount for p in with_dead) == sum(contributions.values())
    bets = side_pots({p: c - dead[p] for p, c in contributions.items()}, live)
    if bets and with_dead:
        assert [p.eligible for p in with_dead] == [p.eligible for p in bets]
        assert with_dead[0].amount == bets[0].amount + sum(dead.values())
        assert [p.amount for p in with_dead[1:]] == [p.amount for p in bets[1:]]
