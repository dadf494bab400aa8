"""Three money defects, each pinned by exact values.

1. Pots split to the table's smallest chip: a cent in cash, a whole chip in tournaments and
   in PHH files (chips); the odd chips go to the first winners clockwise from the button.
2. A PHH file that states no payout (pokerkit's default dump) is a ``PAYOUT_UNSTATED``
   warning naming the replay's winners, not a ``COLLECT_MISMATCH``.
3. Hands of an unnamed table (a pokerkit ``.phhs``) are not chained for stack carry-over;
   a hand whose payouts are unstated carries nothing to the next.
"""

from __future__ import annotations

import warnings
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import Automation, FixedLimitDeuceToSevenLowballTripleDraw, HandHistory, Mode

from engine.continuity import ContinuityTracker, check_continuity
from engine.pots import Pot, award, split
from engine.problems import COLLECT_MISMATCH, PAYOUT_UNSTATED, STACK_CHANGE, STACK_MISMATCH
from engine.profiles import CENT, CHIP, PROFILES, OddChips, chip_unit, profile_for
from engine.record import Action, Collect, Game, Hand, Post, Seat, Structure, Tournament, Uncalled
from engine.replay import replay, run_with_stacks
from engine.settle import Table, expected_shares
from engine.sim.dealer import deal_hands
from engine.verdict import Severity
from engine.verify import verify
from parser.phh import read_phh
from parser.reader import read_text
from tests.paths import REPOSITORY
from tests.verify_hands import base_hand

# ---------------------------------------------------------------- 1. the chip unit


def test_a_three_way_tie_for_1000_tournament_chips_pays_334_333_333() -> None:
    assert split(100000, ["A", "B", "C"], CHIP) == {"A": 33400, "B": 33300, "C": 33300}
    assert split(100000, ["A", "B", "C"]) == {"A": 33334, "B": 33333, "C": 33333}  # cents
    pot = (Pot(100000, ("A", "B", "C")),)
    paid = award(pot, {"A": 7, "B": 7, "C": 7}, ["B", "C", "A"], CHIP)
    assert paid == ((0, "B", 33400), (0, "C", 33300), (0, "A", 33300))


def test_the_replay_splits_a_tournament_pot_to_the_chip_clockwise_from_the_button() -> None:
    table = Table(
        total={"A": 33000, "B": 33000, "C": 33000, "D": 1000},  # D folded: 1,000 chips
        returned={},
        live=["A", "B", "C"],
        seat_of={"A": 1, "B": 2, "C": 3, "D": 4},
        button=2,  # C is first left of the button, then A, B last
        strengths={0: {"A": 5, "B": 5, "C": 5}},
        unit=CHIP,
    )
    shares = expected_shares(table, profile_for("pokerstars")).shares
    assert shares == {"C": 33400, "A": 33300, "B": 33300}


def test_odd_units_go_one_each_and_money_below_a_unit_stays_with_the_first() -> None:
    assert split(500, ["A", "B", "C"], CHIP) == {"A": 200, "B": 200, "C": 100}
    assert split(550, ["A", "B"], CHIP) == {"A": 350, "B": 200}
    with pytest.raises(ValueError, match="positive"):
        split(100, ["A"], 0)


@settings(deadline=None, max_examples=200)
@given(
    chips=st.integers(0, 10**6),
    n=st.integers(1, 9),
    unit=st.sampled_from([CENT, CHIP]),
    all_to_first=st.booleans(),
)
def test_split_shares_are_whole_units_summing_to_the_pot(
    chips: int, n: int, unit: int, all_to_first: bool
) -> None:
    winners = [f"p{i}" for i in range(n)]
    shares = split(chips * unit, winners, unit, all_to_first)
    assert sum(shares.values()) == chips * unit
    assert all(v % unit == 0 for v in shares.values())
    base = chips // n * unit
    assert all(shares[w] == base for w in winners[1:] if all_to_first)
    assert all(base <= v <= base + unit for v in shares.values() if not all_to_first)
    assert shares[winners[0]] == max(shares.values())


def _cash(**changes: object) -> Hand:
    """A hand of whole-chip stacks (1,000 hundredths each) and no steps."""
    return replace(base_hand(), steps=(), **changes)  # type: ignore[arg-type]


def test_the_chip_unit_comes_from_the_record_and_the_sites_profile() -> None:
    stars = profile_for("pokerstars")
    phh = profile_for("phh")
    tournament = Tournament("99")
    assert chip_unit(_cash(), stars) == CENT  # USD cash
    assert chip_unit(_cash(tournament=tournament, currency="chips"), stars) == CHIP
    assert chip_unit(_cash(currency="chips"), stars) == CHIP  # play money
    assert chip_unit(_cash(site="phh", currency=""), phh) == CHIP  # pokerkit writes none
    assert chip_unit(_cash(site="phh", currency="USD"), phh) == CENT
    assert chip_unit(_cash(currency=""), stars) == CENT  # only PHH reads no currency as chips
    assert chip_unit(_cash(), replace(stars, chip_unit=25)) == 25  # a site's own setting
    # a record with half a chip in it was not played in whole chips
    half = _cash(tournament=tournament, seats=(Seat(1, "A", 150050, 3), *base_hand().seats[1:]))
    assert chip_unit(half, stars) == CENT


STARS_TIE = """\
PokerStars Hand #220009990001: Tournament #2200099901, $3+$0.30 USD Triple Draw 2-7 Lowball \
Limit - Level III (30/60) - 2026/03/02 1:11:00 UTC [2026/03/01 20:11:00 ET]
Table '2200099901 1' 6-max Seat #1 is the button
Seat 1: Hero (1500 in chips)
Seat 2: LowballLarry (1500 in chips)
Seat 3: deuce7 (1500 in chips)
LowballLarry: posts small blind 15
deuce7: posts big blind 30
*** DEALING HANDS ***
Dealt to Hero [8d 6c 4s 3h 2d]
Hero: raises 30 to 60
LowballLarry: folds
deuce7: calls 30
*** FIRST DRAW ***
deuce7: stands pat
Hero: stands pat on [8d 6c 4s 3h 2d]
deuce7: checks
Hero: checks
*** SECOND DRAW ***
deuce7: stands pat
Hero: stands pat on [8d 6c 4s 3h 2d]
deuce7: checks
Hero: checks
*** THIRD DRAW ***
deuce7: stands pat
Hero: stands pat on [8d 6c 4s 3h 2d]
deuce7: checks
Hero: checks
*** SHOW DOWN ***
deuce7: shows [8c 6d 4h 3s 2c]
Hero: shows [8d 6c 4s 3h 2d]
deuce7 collected {big} from pot
Hero collected {small} from pot
*** SUMMARY ***
Total pot 135 | Rake 0
Seat 1: Hero (button) showed [8d 6c 4s 3h 2d] and won ({small})
Seat 2: LowballLarry (small blind) folded before the Draw
Seat 3: deuce7 (big blind) showed [8c 6d 4h 3s 2c] and won ({big})
"""


def _stars(big: int, small: int) -> Hand:
    [(_, hand)] = list(read_text(STARS_TIE.format(big=big, small=small), "tie.txt"))
    assert isinstance(hand, Hand)
    return hand


def test_a_pokerstars_tournament_split_with_an_odd_chip_verifies() -> None:
    # 135 chips (15 dead from the small blind) tied: deuce7, first left of the button, gets 68
    hand = _stars(68, 67)
    assert verify(hand).problems == ()
    assert (hand.is_tournament, chip_unit(hand, profile_for(hand.site))) == (True, CHIP)
    wrong = verify(_stars(67, 68)).problems  # the odd chip to the button instead
    assert {(p.code, p.line) for p in wrong} == {(COLLECT_MISMATCH, 31), (COLLECT_MISMATCH, 32)}


_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


def _kit(
    holes: tuple[str, ...], moves: str, stacks: tuple[int, ...]
) -> tuple[HandHistory, list[int]]:
    """pokerkit plays fixed-limit triple draw (blinds 1 and 2): ``holes`` dealt from the
    small blind on, ``moves`` before the first draw (``r4`` raise to 4, ``c``, ``f``), then
    everyone stands pat and checks to the showdown; pokerkit pays."""
    game = FixedLimitDeuceToSevenLowballTripleDraw(
        _AUTOMATIONS, True, 0, (1, 2), 2, 4, mode=Mode.CASH_GAME
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        state = game(stacks, len(stacks))
        for cards in holes:
            state.deal_hole(cards)
        for move in moves.split():
            if move.startswith("r"):
                state.complete_bet_or_raise_to(int(move[1:]))
            elif move == "c":
                state.check_or_call()
            else:
                state.fold()
        while state.status:
            if state.can_stand_pat_or_discard():
                state.stand_pat_or_discard()
            else:
                state.check_or_call()
    names = ["Ann", "Bob", "Cy", "Di"][: len(stacks)]
    history = HandHistory.from_game_state(game, state, players=names)
    return history, [int(s) for s in state.stacks]


def _kit_tie(stacks: tuple[int, int, int] = (100, 100, 100)) -> tuple[HandHistory, list[int]]:
    """Cy (button) raises to 4, Ann folds her small blind of 1, Bob calls; Bob and Cy tie
    with 8-6-4-3-2 for a pot of 9 chips.  pokerkit gives the odd chip to Bob."""
    return _kit(("KsQsJsTs9h", "8c6d4h3s2c", "8d6c4s3h2d"), "r4 f c", stacks)


def _kit_three_way(winnings: list[int]) -> Hand:
    """Cy raises to 4, Di and Ann call, Bob folds his big blind: Ann, Cy and Di tie for
    14 chips.  pokerkit gives both odd chips to Ann (6, 4, 4); the rulebook one each."""
    history, finishing = _kit(
        ("8c6d4h3s2c", "KsQsJsTs9h", "8d6c4s3h2d", "8h6s4d3c2h"), "r4 c c f", (100,) * 4
    )
    assert finishing == [102, 98, 100, 100]
    history.winnings = winnings
    return read_phh(history.dumps(), "three.phh")


@pytest.mark.parametrize("fields", ["w", "f", "wf"])
def test_a_pokerkit_phh_split_with_an_odd_chip_verifies_and_pays_what_pokerkit_paid(
    fields: str,
) -> None:
    history, finishing = _kit_tie()
    assert finishing == [99, 101, 100]
    history.winnings = [0, 5, 4] if "w" in fields else None
    history.finishing_stacks = finishing if "f" in fields else None
    hand = read_phh(history.dumps(), "tie.phh")
    verdict, final = run_with_stacks(hand)
    assert verdict.problems == ()
    assert final == {"Ann": 9900, "Bob": 10100, "Cy": 10000}
    assert chip_unit(hand, profile_for(hand.site)) == CHIP


def test_pokerkits_odd_chips_all_to_the_first_winner_are_a_phh_setting() -> None:
    assert split(1400, ["Ann", "Cy", "Di"], CHIP, all_to_first=True) == {
        "Ann": 600,
        "Cy": 400,
        "Di": 400,
    }
    assert profile_for("phh").odd_chips is OddChips.EITHER
    assert profile_for("pokerstars").odd_chips is OddChips.ONE_EACH
    assert verify(_kit_three_way([6, 0, 4, 4])).problems == ()  # pokerkit's payout
    assert verify(_kit_three_way([5, 0, 5, 4])).problems == ()  # the rulebook's
    wrong = verify(_kit_three_way([4, 0, 6, 4])).problems  # odd chips to Cy: neither way
    assert {p.code for p in wrong} == {COLLECT_MISMATCH}
    for paid, codes in (([6, 0, 4, 4], {COLLECT_MISMATCH}), ([5, 0, 5, 4], set())):
        stars = replace(_kit_three_way(paid), site="pokerstars", currency="chips")
        assert {p.code for p in verify(stars).errors} == codes


def test_dealt_tournament_hands_are_whole_chips_and_verify() -> None:
    checked = 0
    for structure in (Structure.FIXED, Structure.NO_LIMIT, Structure.POT):
        dealt = deal_hands(150, Game.SINGLE_DRAW_27, 6, 11, structure=structure, tournament=True)
        for hand in dealt:
            amounts = [s.amount for s in hand.steps if isinstance(s, Post | Action | Collect)]
            amounts += [s.amount for s in hand.steps if isinstance(s, Uncalled)]
            assert [a for a in amounts if a % CHIP] == [], hand.hand_id
            assert verify(hand).errors == ()
            assert chip_unit(hand, profile_for(hand.site)) == CHIP
            checked += 1
    assert checked == 450


# ---------------------------------------------------------------- 2. unstated payouts


def test_a_phh_without_payouts_is_a_warning_naming_the_replays_winners() -> None:
    history, _ = _kit_tie()
    hand = read_phh(history.dumps(), "bare.phh")
    assert (hand.collects, hand.net) == ((), ())
    verdict = verify(hand)
    assert verdict.ok
    [problem] = verdict.problems
    assert (problem.code, problem.severity) == (PAYOUT_UNSTATED, Severity.WARNING)
    assert problem.message == (
        "the history states no payouts, so the collections cannot be checked; "
        "by the replay the pots go: Bob 5, Cy 4 (before any rake)"
    )
    states = replay(hand).states  # the dashboard's replayer shows it at the end
    assert (states[-1].text, states[-1].problems) == ("the pots are settled", (problem,))


def test_an_uncontested_phh_pot_without_payouts_names_its_only_winner() -> None:
    text = "\n".join(
        [
            "variant = 'F2L3D'",
            "antes = [0, 0, 0]",
            "blinds_or_straddles = [1, 2, 0]",
            "small_bet = 2",
            "big_bet = 4",
            "starting_stacks = [100, 100, 100]",
            "actions = ['p3 f', 'p1 f']",
            "players = ['Ann', 'Bob', 'Cy']",
        ]
    )
    [problem] = verify(read_phh(text, "walk.phh")).problems
    assert (problem.code, problem.severity, problem.line) == (
        PAYOUT_UNSTATED,
        Severity.WARNING,
        7,
    )
    # Bob's uncalled chip goes back to him: the pot is Ann's blind and his matching one
    assert problem.message.endswith("by the replay the pots go: Bob 2 (before any rake)")


def test_unstated_payouts_are_a_phh_setting_and_elsewhere_still_an_error() -> None:
    assert [s for s, p in PROFILES.items() if p.payouts_may_be_unstated] == ["phh"]
    no_collect = base_hand(rake=None, total_pot=None)
    no_collect = replace(no_collect, steps=no_collect.steps[:-1])
    codes = {(p.code, p.severity) for p in verify(no_collect).problems}
    assert (COLLECT_MISMATCH, Severity.ERROR) in codes
    assert PAYOUT_UNSTATED not in {c for c, _ in codes}
    as_phh = verify(replace(no_collect, site="phh")).problems
    assert [(p.code, p.severity) for p in as_phh] == [(PAYOUT_UNSTATED, Severity.WARNING)]


# ---------------------------------------------------------------- 3. continuity


def _phhs(histories: list[HandHistory]) -> list[Hand]:
    hands = [o for _, o in read_text(HandHistory.dumps_all(histories), "kit.phhs")]
    assert all(isinstance(h, Hand) for h in hands)
    return hands  # type: ignore[return-value]


def test_hands_of_a_pokerkit_phhs_without_tables_are_not_chained() -> None:
    first, finishing = _kit_tie()
    first.finishing_stacks = finishing  # ends 99, 101, 100
    second, after = _kit_tie()  # starts 100, 100, 100 again: another table's hand
    second.finishing_stacks = after
    hands = _phhs([first, second])
    assert [h.table for h in hands] == ["", ""]
    assert check_continuity(hands) == {}
    assert [verify(h).problems for h in hands] == [(), ()]
    tracker = ContinuityTracker()
    assert [tracker.feed(h, run_with_stacks(h)[1]) for h in hands] == [(), ()]
    # at a named table the same pair breaks the carry-over: Ann ended with 99, Bob with 101
    named = [replace(h, table="T") for h in hands]
    [(key, found)] = check_continuity(named).items()
    assert key == ("phh", named[1].hand_id)
    ann, bob = named[1].seats[0].line, named[1].seats[1].line
    assert [(p.code, p.line) for p in found] == [(STACK_CHANGE, ann), (STACK_MISMATCH, bob)]


def test_a_hand_with_unstated_payouts_carries_nothing_to_the_next() -> None:
    first, _ = _kit_tie()  # no payouts: Bob and Cy really end with 101 and 100
    second, after = _kit_tie((99, 101, 100))
    second.finishing_stacks = after
    hands = [replace(h, table="T") for h in _phhs([first, second])]
    assert [p.code for p in verify(hands[0]).problems] == [PAYOUT_UNSTATED]
    assert verify(hands[1]).problems == ()
    assert check_continuity(hands) == {}
    tracker = ContinuityTracker()
    assert [tracker.feed(h, run_with_stacks(h)[1]) for h in hands] == [(), ()]


# ---------------------------------------------------------------- 4. stable verdicts

_SPLIT_TAKEN_BY_A_THIRD = """
from engine.profiles import profile_for
from engine.record import Collect
from engine.settle import Reported, Table, settle

table = Table(
    total={"Ann": 300, "Bob": 300, "Cy": 300}, returned={}, live=["Ann", "Bob", "Cy"],
    seat_of={"Ann": 1, "Bob": 2, "Cy": 3}, button=3,
    strengths={0: {"Ann": 5, "Bob": 5, "Cy": 9}},
)
reported = Reported(
    uncalled=(), collects=(Collect("Cy", 900, 20),), rake=0, total_pot=None, net=(),
    tournament=False, end_line=21,
)
for p in settle(table, reported, profile_for("pokerstars")):
    print(p.code, p.line, p.message)
"""


def test_which_of_two_unpaid_winners_is_named_does_not_depend_on_the_hash_seed() -> None:
    """Ann and Bob split the pot, Cy collects it all: both unpaid winners fall at the line
    of the first collect, where one problem of a code is kept.  Which one used to follow
    the order of a set of names, that is the process's hash seed."""
    import os
    import subprocess
    import sys

    root = REPOSITORY
    outputs = {
        subprocess.run(
            [sys.executable, "-c", _SPLIT_TAKEN_BY_A_THIRD],
            capture_output=True,
            text=True,
            check=True,
            cwd=root,
            env={**os.environ, "PYTHONHASHSEED": str(seed), "PYTHONPATH": str(root)},
        ).stdout
        for seed in range(6)
    }
    assert outputs == {"WRONG_WINNER 20 Ann should win 4.50 but collects nothing\n"}
