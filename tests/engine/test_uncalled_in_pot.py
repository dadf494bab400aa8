"""A site that returns no uncalled bet: the unmatched chips stay in "collected" and the total.

Issue 12, case 7: Winamax writes no line for a bet nobody called; the bettor "collected"
the pot with the bet in it and the summary's "Total pot" counts it too.  That is the site's
profile (``UncalledReport.IN_COLLECT``), not a special case: such a hand is ok, and a hand
whose figures do not add up that way is still flagged.
"""

from __future__ import annotations

from engine.profiles import UncalledReport, profile_for
from engine.record import Hand
from engine.verdict import Problem, Severity
from engine.verify import verify
from parser.reader import read_text

# a Winamax play-money hand written the site's way (the corpus file's table, a later hand):
# Player4 bets 0.50 after the draw, Player2 folds, and the 0.50 is collected with the pot
_HEADER = (
    "Winamax Poker - CashGame - HandId: #9160772-3-1476189800 - Lowball27 fixed limit"
    " (0.50/1) - 2016/10/11 12:43:36 UTC\n"
)
_TEXT = _HEADER + """\
Table: 'Suceava 02' 6-max (play money) Seat #1 is the button
Seat 1: Player4 (20)
Seat 2: Player3 (13.05)
Seat 3: Player2 (20)
*** ANTE/BLINDS ***
Player3 posts small blind 0.25
Player2 posts big blind 0.50
*** FIRST-BET ***
Player4 raises 0.50 to 1
Player3 folds
Player2 calls 0.50
*** FIRST-DRAW ***
Player2 discard 2 cards
Player4 discard 1 card
*** SECOND-BET ***
Player2 checks
Player4 bets 0.50
Player2 folds
Player4 collected 2.75 from pot
*** SUMMARY ***
Total pot 2.75 | No rake
Seat 1: Player4 won 2.75
Seat 2: Player3 folded before Draw
Seat 3: Player2 folded on the Draw
"""


def _read(text: str) -> Hand:
    outcomes = [outcome for _, outcome in read_text(text, "winamax.txt")]
    assert len(outcomes) == 1
    hand = outcomes[0]
    assert isinstance(hand, Hand), hand
    assert hand.site == "winamax"
    return hand


def test_winamax_keeps_the_uncalled_bet_in_the_pot_it_states() -> None:
    assert profile_for("winamax").uncalled is UncalledReport.IN_COLLECT
    hand = _read(_TEXT)
    assert (hand.total_pot, hand.rake) == (275, 0)
    assert [(c.player, c.amount) for c in hand.collects] == [("Player4", 275)]
    assert verify(hand).problems == ()


def test_a_total_pot_that_is_neither_figure_is_still_flagged() -> None:
    hand = _read(_TEXT.replace("Total pot 2.75", "Total pot 3"))
    assert verify(hand).problems == (
        Problem(
            "POT_MISMATCH",
            Severity.ERROR,
            20,
            "the total pot is given as 3; the chips put in make 2.75",
        ),
    )


def test_leaving_the_unmatched_bet_out_is_not_winamax_s_way() -> None:
    hand = _read(_TEXT.replace("2.75", "2.25"))
    assert [(p.code, p.line) for p in verify(hand).problems] == [
        ("COLLECT_MISMATCH", 20),
        ("POT_MISMATCH", 20),
    ]
