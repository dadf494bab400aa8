"""A big-blind ante is dead money in the main pot, never a side pot of its own (RULES.md).

Issue 12, case 8: PHH hands from televised final tables, where the big blind posts the
ante for the whole table (``antes = [0, 225000, 0, 0, 0]``), and a short stack goes all-in.
The replay made the big blind's ante a side pot only he could win.  The hand below is in
pokerkit's style, in no-limit 2-7 single draw (our games have no hold'em): the big blind
posts a 2,000 ante and a 2,000 blind, the short stack moves in for 9,000 and the big blind
calls.  Every chip, 21,000, is one pot the short stack can win; pokerkit agrees.
"""

from __future__ import annotations

import warnings

from pokerkit import HandHistory

from engine.pots import Pot, SettledPot
from engine.record import Collect, Game, Hand, Post, PostKind, Stakes, Structure
from engine.replay import replay, run_settled
from engine.verify import verify
from parser.phh import read_phh
from tests.verify_hands import C, F, act, draw, make_hand, show

_PHH = """\
variant = "N2L1D"
ante_trimming_status = false
antes = [0, 2000, 0, 0, 0]
blinds_or_straddles = [1000, 2000, 0, 0, 0]
min_bet = 2000
starting_stacks = [50000, 60000, 9000, 40000, 30000]
actions = [
  "d dh p1 ??????????",
  "d dh p2 ??????????",
  "d dh p3 7s5d4h3cKd",
  "d dh p4 ??????????",
  "d dh p5 ??????????",
  "p3 cbr 9000",
  "p4 f",
  "p5 f",
  "p1 f",
  "p2 cc",
  "p2 sd ??",
  "p3 sd Kd",
  "d dh p2 ??",
  "d dh p3 2s",
  "p2 sm 8h6h4d3d2c",
  "p3 sm 7s5d4h3c2s",
]
players = ["Sb", "Bb", "Shorty", "Mid", "Btn"]
finishing_stacks = [49000, 49000, 21000, 40000, 30000]
"""


def _hand(text: str = _PHH) -> Hand:
    return read_phh(text, "final-table.phh")


def test_the_big_blind_ante_is_in_the_main_pot_the_short_stack_can_win() -> None:
    verdict, final, pots = run_settled(_hand())
    assert verdict.problems == ()
    assert pots == (SettledPot(2_100_000, ("Bb", "Shorty"), ("Shorty",)),)
    assert final == {
        "Sb": 4_900_000,
        "Bb": 4_900_000,
        "Shorty": 2_100_000,
        "Mid": 4_000_000,
        "Btn": 3_000_000,
    }


def test_pokerkit_ends_the_same_hand_with_the_same_stacks() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        states = list(HandHistory.loads(_PHH))
    assert list(states[-1].stacks) == [49000, 49000, 21000, 40000, 30000]


def test_the_table_views_show_one_pot_with_the_ante_in_it() -> None:
    states = replay(_hand()).states
    after_call = next(s for s in states if s.text == "Bb calls 7,000")
    assert after_call.pots == (Pot(2_100_000, ("Bb", "Shorty")),)


def test_paying_the_big_blind_his_own_ante_back_is_flagged() -> None:
    wrong = _PHH.replace("[49000, 49000, 21000,", "[49000, 51000, 19000,")
    found = [(p.code, p.message) for p in verify(_hand(wrong)).problems]
    assert found == [
        ("WRONG_WINNER", "Bb collects 2,000 but wins no pot"),
        ("COLLECT_MISMATCH", "Shorty collects 19,000; their share is 21,000"),
        ("NET_MISMATCH", "Bb's result is given as -9,000; the replay gives -11,000"),
    ]


def _one_ante_hand(short_stack: int) -> Hand:
    """A pot-limit single draw where the big blind posts the ante for the table as an ante
    post (the way PokerStars writes a big-blind ante), and a short stack calls all-in."""
    stakes = Stakes(5, 10, 10, 10, ante=30)
    steps = [
        Post("C", PostKind.ANTE, 30, 0),
        Post("B", PostKind.SMALL_BLIND, 5, 0),
        Post("C", PostKind.BIG_BLIND, 10, 0),
        act("A", 0, C, short_stack),  # all-in
        act("B", 0, F),  # C has matched the call and nobody is left to decide
        draw("C", 1, 0),
        draw("A", 1, 1, "Kd", "7s 5d 4h 3c", "2s"),
        show("C", "8h 6h 4d 3d 2c"),
        show("A", "7s 5d 4h 3c 2s"),
    ]
    pot = 30 + 5 + 10 + short_stack
    steps.append(Collect("A", pot, 0))
    return make_hand(
        steps,
        game=Game.SINGLE_DRAW_27,
        stacks=(short_stack, 1000, 1000),
        stakes=stakes,
        structure=Structure.POT,
        rake=0,
        total_pot=pot,
    )


def test_an_ante_posted_by_one_player_comes_back_to_nobody_as_uncalled() -> None:
    hand = _one_ante_hand(short_stack=10)
    verdict, final, pots = run_settled(hand)
    assert verdict.problems == ()
    assert pots == (SettledPot(55, ("C", "A"), ("A",)),)
    assert final == {"A": 55, "B": 995, "C": 960}
