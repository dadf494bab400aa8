"""Short all-ins in fixed limit, as PokerStars writes them in its limit draw tournaments
(RULES.md, "All-in, side pots, odd chips, rake"; issue 32).

Each case is a hand written the site's way and read by the PokerStars reader: an all-in
raise of half a bet or more counts as a full raise (it reopens the betting, and the next
raise goes to the level it would have made); an all-in bet of less than half a bet is
completed by a player who has not acted; the site folds a sitting-out player who is all-in
for the small blind.  Their mutants (a completion to the wrong amount, a re-raise after an
all-in of less than half a bet by a player who already acted, the fold of an all-in player
who is not sitting out) are flagged with the code and the line.
"""

from __future__ import annotations

from engine import problems as P
from engine.record import Action, ActionKind, Hand
from engine.replay import replay
from engine.verdict import Verdict
from parser.reader import read_text


def _header(level: str, seats: str, number: int = 1) -> str:
    return (
        f"PokerStars Hand #20000000000{number}: Tournament #910000001, $3+$0.30 USD Badugi"
        f" Limit - Level IV ({level}) - 2014/03/02 20:00:00 ET\n"
        "Table '910000001 1' 6-max Seat #1 is the button\n" + seats
    )


_THREE_DRAWS_PAT = (
    "*** FIRST DRAW ***\n{a}: stands pat\n{b}: stands pat\n{c}: stands pat\n{a}: checks\n"
    "{b}: checks\n*** SECOND DRAW ***\n{a}: stands pat\n{b}: stands pat\n{c}: stands pat\n"
    "{a}: checks\n{b}: checks\n*** THIRD DRAW ***\n{a}: stands pat\n{b}: stands pat\n"
    "{c}: stands pat\n{a}: checks\n{b}: checks\n"
)

# Cat, Dan and Ann show down; Dan has the best badugi
_SHOWDOWN = (
    "*** SHOW DOWN ***\n"
    "Cat: shows [9c 8d 7h 6s] (Badugi: 9,8,7,6)\n"
    "Dan: shows [As 2d 3c 4h] (Badugi: 4,3,2,A)\n"
    "Ann: shows [Kc Qd Jh Ts] (Badugi: K,Q,J,T)\n"
    "Dan collected {side} from side pot\n"
    "Dan collected {main} from main pot\n"
    "*** SUMMARY ***\n"
    "Total pot {total} Main pot {main}. Side pot {side}. | Rake 0\n"
)

HALF_BET_RAISE = (
    _header(
        "60/120",
        "Seat 1: Ann (150 in chips)\nSeat 2: Bob (1500 in chips)\n"
        "Seat 3: Cat (1500 in chips)\nSeat 4: Dan (1500 in chips)\n",
    )
    + "Bob: posts small blind 30\nCat: posts big blind 60\n*** DEALING HANDS ***\n"
    "Dealt to Dan [As 2d 3c 4h]\n"
    "Dan: raises 60 to 120\n"
    "Ann: raises 30 to 150 and is all-in\n"
    "Bob: folds\n"
    "Cat: calls 90\n"
    "Dan: raises 30 to 180\n"
    "Cat: calls 30\n"
    + _THREE_DRAWS_PAT.format(a="Cat", b="Dan", c="Ann").replace(
        "Dan: stands pat\n", "Dan: stands pat on [As 2d 3c 4h]\n"
    )
    + _SHOWDOWN.format(side=60, main=480, total=540)
)

HALF_BET_OVER_A_LIMP = (
    _header(
        "300/600",
        "Seat 1: Ann (550 in chips)\nSeat 2: Bob (3000 in chips)\n"
        "Seat 3: Cat (3000 in chips)\nSeat 4: Dan (3000 in chips)\n",
        2,
    )
    + "Bob: posts small blind 150\nCat: posts big blind 300\n*** DEALING HANDS ***\n"
    "Dealt to Dan [As 2d 3c 4h]\n"
    "Dan: calls 300\n"
    "Ann: raises 250 to 550 and is all-in\n"
    "Bob: folds\n"
    "Cat: raises 50 to 600\n"
    "Dan: calls 300\n"
    + _THREE_DRAWS_PAT.format(a="Cat", b="Dan", c="Ann").replace(
        "Dan: stands pat\n", "Dan: stands pat on [As 2d 3c 4h]\n"
    )
    + _SHOWDOWN.format(side=100, main=1800, total=1900)
)

COMPLETION = (
    _header(
        "150/300",
        "Seat 1: Dan (3000 in chips)\nSeat 2: Ann (200 in chips)\n"
        "Seat 3: Bob (3000 in chips)\nSeat 4: Cat (3000 in chips)\n",
        3,
    )
    + "Ann: posts small blind 75\nBob: posts big blind 150\n*** DEALING HANDS ***\n"
    "Dealt to Dan [As 2d 3c 4h]\n"
    "Cat: calls 150\n"
    "Dan: folds\n"
    "Ann: calls 75\n"
    "Bob: checks\n"
    "*** FIRST DRAW ***\n"
    "Ann: stands pat\nBob: stands pat\nCat: stands pat\n"
    "Ann: checks\nBob: checks\nCat: checks\n"
    "*** SECOND DRAW ***\n"
    "Ann: stands pat\nBob: stands pat\nCat: stands pat\n"
    "Ann: bets 50 and is all-in\n"
    "Bob: raises 250 to 300\n"
    "Cat: raises 300 to 600\n"
    "Bob: calls 300\n"
    "*** THIRD DRAW ***\n"
    "Ann: stands pat\nBob: stands pat\nCat: stands pat\n"
    "Bob: checks\nCat: checks\n"
    "*** SHOW DOWN ***\n"
    "Ann: shows [Kc Qd Jh Ts] (Badugi: K,Q,J,T)\n"
    "Bob: shows [9c 8d 7h 6s] (Badugi: 9,8,7,6)\n"
    "Cat: shows [As 2d 3c 4h] (Badugi: 4,3,2,A)\n"
    "Cat collected 1100 from side pot\n"
    "Cat collected 600 from main pot\n"
    "*** SUMMARY ***\n"
    "Total pot 1700 Main pot 600. Side pot 1100. | Rake 0\n"
).replace("Dealt to Dan [As 2d 3c 4h]\n", "")

SITTING_OUT_BLIND_FOLDED = (
    _header(
        "50/100",
        "Seat 1: Ann (2000 in chips)\nSeat 2: Bob (25 in chips) is sitting out\n"
        "Seat 3: Cat (2000 in chips)\nSeat 4: Dan (2000 in chips)\n",
        4,
    )
    + "Bob: posts small blind 25 and is all-in\nCat: posts big blind 50\n"
    "*** DEALING HANDS ***\n"
    "Dealt to Dan [As 2d 3c 4h]\n"
    "Dan: raises 50 to 100\n"
    "Ann: folds\n"
    "Bob: folds\n"
    "Cat: folds\n"
    "Uncalled bet (50) returned to Dan\n"
    "Dan collected 125 from pot\n"
    "Dan: doesn't show hand\n"
    "*** SUMMARY ***\n"
    "Total pot 125 | Rake 0\n"
)


def read_hand(text: str) -> Hand:
    outcomes = [outcome for _, outcome in read_text(text, "badugi-mtt.txt")]
    assert len(outcomes) == 1
    hand = outcomes[0]
    assert isinstance(hand, Hand), hand
    return hand


def _verdict(text: str) -> Verdict:
    return replay(read_hand(text)).verdict


def _flagged(text: str) -> list[tuple[str, int]]:
    return [(p.code, p.line) for p in _verdict(text).problems]


def _line_of(text: str, line: str) -> int:
    return text.splitlines().index(line) + 1


def test_an_all_in_raise_of_half_a_bet_reopens_the_betting_for_the_raiser() -> None:
    assert _verdict(HALF_BET_RAISE).problems == ()


def test_a_raise_after_an_all_in_of_half_a_bet_goes_to_the_level_it_would_have_made() -> None:
    assert _verdict(HALF_BET_OVER_A_LIMP).problems == ()
    # one bet above the all-in's 550 is no raise at this site: the level is 600
    wrong = HALF_BET_OVER_A_LIMP.replace("Cat: raises 50 to 600\nDan: calls 300\n",
                                          "Cat: raises 300 to 850\nDan: calls 550\n")
    wrong = wrong.replace("side pot 100", "side pot 600").replace("Side pot 100", "Side pot 600")
    wrong = wrong.replace("Total pot 1900", "Total pot 2400")
    line = _line_of(wrong, "Cat: raises 300 to 850")
    assert (P.BAD_AMOUNT, line) in _flagged(wrong)


def test_an_all_in_bet_of_less_than_half_a_bet_is_completed_by_the_next_player() -> None:
    hand = read_hand(COMPLETION)
    completion = next(s for s in hand.steps if isinstance(s, Action) and s.player == "Bob"
                      and s.kind is ActionKind.RAISE)
    assert (completion.amount, completion.to) == (30000, 30000)  # hundredths of a chip
    assert replay(hand).verdict.problems == ()


def test_a_completion_to_the_wrong_amount_is_flagged_on_its_line() -> None:
    wrong = COMPLETION.replace("Bob: raises 250 to 300", "Bob: raises 300 to 350").replace(
        "Cat: raises 300 to 600", "Cat: raises 300 to 650"
    )
    line = _line_of(wrong, "Bob: raises 300 to 350")
    flagged = _flagged(wrong)
    assert (P.BAD_AMOUNT, line) in flagged
    assert flagged[0] == (P.BAD_AMOUNT, line)


def test_a_re_raise_after_an_all_in_of_less_than_half_a_bet_is_flagged_on_its_line() -> None:
    # Ann's all-in is 20 over Dan's raise to 120 (less than half of 60): Dan, who has acted,
    # may only call
    short = (
        HALF_BET_RAISE.replace("Ann (150 in chips)", "Ann (140 in chips)")
        .replace("Ann: raises 30 to 150 and is all-in", "Ann: raises 20 to 140 and is all-in")
        .replace("Cat: calls 90\nDan: raises 30 to 180\nCat: calls 30\n",
                 "Cat: calls 80\nDan: raises 40 to 180\nCat: calls 40\n")
        .replace("60 from side", "80 from side")
        .replace("480 from main", "450 from main")
        .replace("Main pot 480. Side pot 60.", "Main pot 450. Side pot 80.")
        .replace("Total pot 540", "Total pot 530")
    )
    assert _flagged(short) == [(P.ILLEGAL_ACTION, _line_of(short, "Dan: raises 40 to 180"))]
    called = short.replace("Dan: raises 40 to 180\nCat: calls 40\n", "Dan: calls 20\n")
    called = called.replace("80 from side pot", "0 from side pot")
    called = called.replace("Dan collected 0 from side pot\n", "").replace(
        "Total pot 530 Main pot 450. Side pot 80.", "Total pot 450"
    )
    assert _verdict(called).problems == ()


def test_the_site_folds_a_sitting_out_player_all_in_for_the_small_blind() -> None:
    assert _verdict(SITTING_OUT_BLIND_FOLDED).problems == ()
    # the same fold of a player who is not sitting out is a fold no site makes
    present = SITTING_OUT_BLIND_FOLDED.replace(" is sitting out\n", "\n")
    assert (P.ILLEGAL_ACTION, _line_of(present, "Bob: folds")) in _flagged(present)
