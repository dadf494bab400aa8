"""When everyone but one player is all-in, nobody is left to decide (RULES.md, "All-in").

The heads-up sit-and-go case of issue 12: the small blind calls all-in for less than the
big blind.  The big blind has matched more than anyone can put in and nobody is left to
answer a raise, so the betting is over: the excess comes back uncalled and the draws and
the showdown follow with no betting.  PokerStars writes no line for the big blind then.
"""

from __future__ import annotations

from engine import problems as P
from engine.record import Hand
from engine.verify import verify
from parser.reader import read_text

_HEADER = (
    "PokerStars Hand #120000000001: Tournament #900000001, $3+$0.30 USD Triple Draw 2-7"
    " Lowball Limit - Level VII (100/200) - 2013/01/10 20:00:00 CET [2013/01/10 14:00:00 ET]\n"
    "Table '900000001 1' 2-max Seat #1 is the button\n"
    "Seat 1: Hero (90 in chips)\n"
    "Seat 2: Villain (2910 in chips)\n"
    "Hero: posts small blind 50\n"
    "Villain: posts big blind 100\n"
    "*** DEALING HANDS ***\n"
    "Dealt to Hero [7s 5d 4h 3c Kd]\n"
)

_DRAWS_AND_SHOWDOWN = (
    "*** FIRST DRAW ***\n"
    "Villain: discards 2 cards\n"
    "Hero: discards 1 card [Kd]\n"
    "Dealt to Hero [7s 5d 4h 3c] [2s]\n"
    "*** SECOND DRAW ***\n"
    "Villain: discards 1 card\n"
    "Hero: stands pat on [7s 5d 4h 3c 2s]\n"
    "*** THIRD DRAW ***\n"
    "Villain: stands pat\n"
    "Hero: stands pat on [7s 5d 4h 3c 2s]\n"
    "*** SHOW DOWN ***\n"
    "Villain: shows [8h 6h 4d 3d 2c] (Lo: 8,6,4,3,2)\n"
    "Hero: shows [7s 5d 4h 3c 2s] (Lo: 7,5,4,3,2)\n"
    "Hero collected 180 from pot\n"
    "*** SUMMARY ***\n"
    "Total pot 180 | Rake 0\n"
    "Seat 1: Hero (button) (small blind) showed [7s 5d 4h 3c 2s] and won (180) with Lo: 7,5,4,3,2\n"
    "Seat 2: Villain (big blind) showed [8h 6h 4d 3d 2c] and lost with Lo: 8,6,4,3,2\n"
)


def _read(text: str) -> Hand:
    outcomes = [outcome for _, outcome in read_text(text, "hu-sng.txt")]
    assert len(outcomes) == 1
    hand = outcomes[0]
    assert isinstance(hand, Hand), hand
    assert hand.site == "pokerstars"
    return hand


def test_small_blind_all_in_for_less_leaves_the_big_blind_nothing_to_decide() -> None:
    text = (
        _HEADER
        + "Hero: calls 40 and is all-in\n"
        + "Uncalled bet (10) returned to Villain\n"
        + _DRAWS_AND_SHOWDOWN
    )
    hand = _read(text)
    assert verify(hand).problems == ()


def test_the_big_blind_facing_an_all_in_raise_must_still_act() -> None:
    # the small blind raises all-in past the big blind: the big blind has a call to make,
    # and a history that skips it is missing an action
    text = _HEADER.replace("Hero (90", "Hero (150") + (
        "Hero: raises 50 to 150 and is all-in\n"
        + _DRAWS_AND_SHOWDOWN.replace("collected 180", "collected 300")
        .replace("Total pot 180", "Total pot 300")
        .replace("won (180)", "won (300)")
    )
    verdict = verify(_read(text))
    assert not verdict.ok
    first = verdict.problems[0]
    assert (first.code, first.line) == (P.MISSING_ACTION, 11)
    assert first.message == "Villain never acts in betting round 1"


def test_the_big_blind_calling_the_all_in_raise_is_ok() -> None:
    text = _HEADER.replace("Hero (90", "Hero (150") + (
        "Hero: raises 50 to 150 and is all-in\n"
        + "Villain: calls 50\n"
        + _DRAWS_AND_SHOWDOWN.replace("collected 180", "collected 300")
        .replace("Total pot 180", "Total pot 300")
        .replace("won (180)", "won (300)")
    )
    assert verify(_read(text)).problems == ()
