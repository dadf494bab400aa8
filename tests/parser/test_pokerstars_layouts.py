"""PokerStars layouts over the years, each on a hand written the site's way.

Cash, tournaments (sit-and-go and multi-table, ``Hand #`` and ``Game #`` headers, levels,
bounties, rebuys and add-ons), home games, fast-fold tables, mixed games, the reshuffle
of the stub in a draw, and every kind of line that carries no play.  Reading is
tolerant: a line the reader cannot place is an ``UNKNOWN_LINE`` warning and the replay
decides; a line about chips or cards that does not read stays a parse error.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from analysis.pipeline.verify_files import verify_paths
from engine.cards import parse_cards
from engine.problems import UNKNOWN_LINE
from engine.record import (
    Action,
    ActionKind,
    Collect,
    Draw,
    Game,
    Hand,
    Note,
    Post,
    PostKind,
    Seat,
    Stakes,
    Structure,
    Tournament,
    Uncalled,
)
from engine.verdict import Problem, Severity
from engine.verify import verify
from parser import pokerstars
from parser.outcome import ParseError, Skipped
from parser.pokerstars_writer import write_pokerstars
from parser.reader import read_path, read_text
from tests.corpus import CORPUS
from tests.parser_corpus import without_position

SESSION = CORPUS / "cash/Stars/Draw/3-Draw-Limit-USD-0.10-0.20-200911.txt"


def c(text: str) -> tuple[int, ...]:
    return parse_cards(text, distinct=False)


def outcomes(text: str) -> list[Hand | Skipped | ParseError]:
    return [o for _, o in read_text(text, "t.txt")]


def hand_of(text: str) -> Hand:
    (outcome,) = outcomes(text)
    assert isinstance(outcome, Hand), outcome
    return outcome


def notes(hand: Hand) -> list[tuple[str, str | None, int]]:
    return [(n.kind, n.player, n.line) for n in hand.steps if isinstance(n, Note)]


# ---- the reshuffle: a real six-handed session (MANIFEST.tsv)


def test_the_session_with_two_reshuffles_reads_completely() -> None:
    hands = [o for _, o in read_path(SESSION)]
    assert len(hands) == 17
    assert all(isinstance(h, Hand) and h.warnings == () for h in hands)
    reshuffles = [
        (h.hand_id, s, h.steps[i - 1], h.steps[i + 1])
        for h in hands
        if isinstance(h, Hand)
        for i, s in enumerate(h.steps)
        if isinstance(s, Note) and s.kind == "reshuffle"
    ]
    # PokerStars writes the line before the discards of the player whose draw needed it.
    assert reshuffles == [
        (
            "35839176665",
            Note("reshuffle", "The deck is reshuffled", 283),
            Draw("rumble1111", 3, 1, 282),
            Draw("Eisenherz73", 3, 1, 284),
        ),
        (
            "35839412131",
            Note("reshuffle", "The deck is reshuffled", 460),
            Draw("TheLabman", 2, 2, 459),
            Draw("rumble1111", 2, 1, 461),
        ),
    ]


def test_every_hand_of_the_session_is_ok() -> None:
    results = list(verify_paths([SESSION]))
    assert [(r.hand_id, r.status) for r in results if r.status != "ok"] == []
    assert len(results) == 17


def test_the_writer_puts_the_reshuffle_back_where_it_stood() -> None:
    hand = next(
        o for _, o in read_path(SESSION) if isinstance(o, Hand) and o.hand_id == "35839176665"
    )
    text = write_pokerstars(hand)
    lines = text.split("\n")
    at = lines.index("The deck is reshuffled")
    assert lines[at - 1 : at + 2] == [
        "rumble1111: discards 1 card",
        "The deck is reshuffled",
        "Eisenherz73: discards 1 card",
    ]
    assert without_position(hand_of(text)) == without_position(hand)


def test_a_reshuffle_note_of_another_site_is_written_in_stars_words() -> None:
    hand = hand_of(HEADS_UP)
    steps = list(hand.steps)
    at = next(i for i, s in enumerate(steps) if isinstance(s, Draw) and s.player == "Ann")
    steps.insert(at, Note("reshuffle", "** deck reshuffled **", 0))
    text = write_pokerstars(Hand(**{**_fields(hand), "steps": tuple(steps)}))
    assert "Bob: discards 2 cards\nThe deck is reshuffled\nAnn: discards 1 card [Kd]" in text
    back = hand_of(text)
    assert next(s for s in back.steps if isinstance(s, Note)).kind == "reshuffle"


def _fields(hand: Hand) -> dict[str, object]:
    return {name: getattr(hand, name) for name in Hand.__dataclass_fields__}


# ---- tolerant reading, end to end

HEADS_UP = """\
PokerStars Hand #1001:  Triple Draw 2-7 Lowball Limit ($0.10/$0.20 USD) - 2013/07/01 12:00:00 ET
Table 'Tbl' 6-max Seat #1 is the button
Seat 1: Ann ($10 in chips)
Seat 2: Bob ($10 in chips)
Ann: posts small blind $0.05
Bob: posts big blind $0.10
*** DEALING HANDS ***
Dealt to Ann [7s 5d 4h 3c Kd]
Ann: calls $0.05
Bob: checks
*** FIRST DRAW ***
Bob: discards 2 cards
Ann: discards 1 card [Kd]
Dealt to Ann [7s 5d 4h 3c] [2s]
Bob: checks
Ann: bets $0.10
Bob: folds
Uncalled bet ($0.10) returned to Ann
Ann collected $0.20 from pot
*** SUMMARY ***
Total pot $0.20 | Rake $0
Seat 1: Ann (button) (small blind) collected ($0.20)
Seat 2: Bob (big blind) folded after the 1st Draw
"""
CHATTER = "Ann waves at the rail"


def with_chatter(text: str) -> str:
    return text.replace("Bob: checks\nAnn: bets", f"{CHATTER}\nBob: checks\nAnn: bets")


def test_an_unknown_chatter_line_is_one_warning_at_its_line_and_the_hand_is_ok() -> None:
    hand = hand_of(with_chatter(HEADS_UP))
    warning = Problem(
        UNKNOWN_LINE, Severity.WARNING, 15, f"a line this reader does not know: {CHATTER}"
    )
    assert hand.warnings == (warning,)
    verdict = verify(hand)
    assert verdict.ok
    assert [p for p in verdict.problems if p.code == UNKNOWN_LINE] == [warning]
    assert without_position(hand_of(HEADS_UP).steps) == without_position(hand.steps)


def test_a_remembered_unknown_line_warns_in_every_hand_it_appears_in() -> None:
    one = with_chatter(HEADS_UP)
    two = one.replace("#1001", "#1002")
    hands = outcomes(one + "\n\n" + two)
    assert [(h.hand_id, [(w.code, w.line) for w in h.warnings]) for h in hands] == [  # type: ignore[union-attr]
        ("1001", [(UNKNOWN_LINE, 15)]),
        ("1002", [(UNKNOWN_LINE, 41)]),
    ]
    assert CHATTER in pokerstars._BODY_SEEN
    again = hand_of(one)  # read once more, from the memo
    assert [w.line for w in again.warnings] == [15]


def test_a_bet_whose_amount_does_not_read_is_a_positioned_parse_error() -> None:
    (error,) = outcomes(HEADS_UP.replace("Ann: bets $0.10", "Ann: bets $abc"))
    assert isinstance(error, ParseError)
    assert (error.line, error.column, error.line_text) == (16, 11, "Ann: bets $abc")
    assert error.message == "unknown line"  # a line no kind reads, about chips: an error


def test_unreadable_lines_about_chips_and_cards_stay_errors() -> None:
    cases = {
        "Bob: discards x cards": ("Bob: discards 2 cards", 12, 15),
        "Uncalled bet ($0.1x) returned to Ann": ("Uncalled bet ($0.10) returned to Ann", 18, 14),
        "Ann collected lots from pot": ("Ann collected $0.20 from pot", 19, 15),
        "Seat 2: Bob ($1O in chips)": ("Seat 2: Bob ($10 in chips)", 4, 1),
        "Bob: checkz $0.10": ("Bob: checks", 10, 6),
        "Total pot $0.2O | Rake $0": ("Total pot $0.20 | Rake $0", 21, 11),
    }
    for bad, (good, line, column) in cases.items():
        (error,) = outcomes(HEADS_UP.replace(good, bad))
        assert isinstance(error, ParseError), bad
        assert (error.line, error.column, error.line_text) == (line, column, bad)


def test_a_line_that_only_starts_like_a_player_is_chatter() -> None:
    # "Bobby" is nobody at the table: his "bets" is not a line of play of this hand.
    hand = hand_of(
        HEADS_UP.replace("Bob: checks\nAnn: bets", "Bobby: bets lots\nBob: checks\nAnn: bets")
    )
    assert [w.line for w in hand.warnings] == [15]


def test_a_hand_without_seats_is_a_parse_error() -> None:
    text = HEADS_UP.replace("Seat 1: Ann ($10 in chips)\nSeat 2: Bob ($10 in chips)\n", "")
    (error,) = outcomes(text)
    assert isinstance(error, ParseError)
    assert (error.line, error.column, error.message) == (2, 1, "a hand without seats")


# ---- tournaments

SNG_OLD = (
    (
        "PokerStars Game #27853322538: Tournament #160417133, $1+$0.10 Triple Draw 2-7 Lowball"
        " Limit - Level I (10/20) - 2009/05/12 18:20:03 ET\n"
    )
    + """\
Table '160417133 1' 6-max Seat #1 is the button
Seat 1: Ann (1500 in chips)
Seat 2: Bob (1480 in chips) is sitting out
Ann: posts small blind 5
Bob: posts big blind 10
*** DEALING HANDS ***
Ann: folds
Uncalled bet (5) returned to Bob
Bob collected 10 from pot
Bob: doesn't show hand
*** SUMMARY ***
Total pot 10 | Rake 0
Seat 1: Ann (button) (small blind) folded before the Draw
Seat 2: Bob (big blind) collected (10)
"""
)


def test_an_old_sit_and_go_hand_with_a_game_header() -> None:
    hand = hand_of(SNG_OLD)
    assert hand.hand_id == "27853322538"
    assert hand.tournament == Tournament("160417133", 100, 10, "I", None, "USD")
    assert (hand.currency, hand.table, hand.stakes) == (
        "chips",
        "160417133 1",
        Stakes(500, 1000, 1000, 2000),
    )
    assert hand.seats == (
        Seat(1, "Ann", 150000, 3),
        Seat(2, "Bob", 148000, 4, sitting_out=True),
    )
    assert hand.time == datetime(2009, 5, 12, 22, 20, 3, tzinfo=UTC)
    assert Uncalled("Bob", 500, 9) in hand.steps
    assert notes(hand) == [("no_show", "Bob", 11)]


MTT = (
    (
        "PokerStars Hand #98765432101: Tournament #712345678, $10+$5+$1 USD Triple Draw 2-7"
        " Lowball Limit - Level XII (300/600) - 2013/01/10 20:00:00 CET [2013/01/10 14:00:00 ET]\n"
    )
    + """\
Table '712345678 14' 6-max Seat #2 is the button
Seat 1: Ann (300 in chips, $5 bounty)
Seat 2: Bob (6,000 in chips, $7.50 bounty) out of hand (moved from another table into small blind)
Seat 3: Cy (12,340 in chips, $5 bounty)
Cy: posts small blind 150
Ann: posts big blind 300 and is all-in
*** DEALING HANDS ***
Cy: calls 150
*** FIRST DRAW ***
Cy: stands pat
Ann: discards 1 card
*** SECOND DRAW ***
Cy: stands pat
Ann: discards 1 card
*** THIRD DRAW ***
Cy: stands pat
Ann: stands pat
*** SHOW DOWN ***
Cy: shows [8s 6d 5h 3c 2d] (Lo: 8,6,5,3,2)
Ann: shows [9s 7d 5c 4h 2h] (Lo: 9,7,5,4,2)
Cy collected 600 from pot
Cy wins the $5 bounty for eliminating Ann
Ann finished the tournament in 45th place and received $4.24.
*** SUMMARY ***
Total pot 600 | Rake 0
Seat 1: Ann (big blind) showed [9s 7d 5c 4h 2h] and lost with Lo: 9,7,5,4,2
Seat 2: Bob (button) is sitting out
Seat 3: Cy (small blind) showed [8s 6d 5h 3c 2d] and won (600) with Lo: 8,6,5,3,2
"""
)


def test_a_multi_table_bounty_hand_with_a_table_move_and_tournament_lines() -> None:
    hand = hand_of(MTT)
    assert hand.tournament == Tournament("712345678", 1000, 100, "XII", 500, "USD")
    assert hand.stakes == Stakes(15000, 30000, 30000, 60000)
    assert hand.seats == (
        Seat(1, "Ann", 30000, 3),
        Seat(2, "Bob", 600000, 4, sitting_out=True),
        Seat(3, "Cy", 1234000, 5),
    )
    assert hand.posts == (
        Post("Cy", PostKind.SMALL_BLIND, 15000, 6),
        Post("Ann", PostKind.BIG_BLIND, 30000, 7, all_in=True),
    )
    assert hand.time == datetime(2013, 1, 10, 19, 0, tzinfo=UTC)
    assert notes(hand) == [("tournament", "Cy", 23), ("tournament", "Ann", 24)]
    assert Collect("Cy", 60000, 22, 0) in hand.steps
    assert hand.warnings == ()
    assert verify(hand).ok, verify(hand)


HEADS_UP_SNG = (
    (
        "PokerStars Hand #2002: Tournament #5550001, $3.19+$0.31 USD Single Draw 2-7 Lowball"
        " No Limit - Match Round I, Level III (25/50) - 2012/12/01 21:00:00 ET\n"
    )
    + """\
Table '5550001 1' 2-max Seat #1 is the button
Seat 1: Ann (2,900 in chips)
Seat 2: Bob (100 in chips)
Ann: posts small blind 25
Bob: posts big blind 50
*** DEALING HANDS ***
Dealt to Ann [2c 3d 4h 7s 9c]
Ann: calls 25
Bob: raises 50 to 100 and is all-in
Ann: calls 50
*** DRAW ***
Bob: discards 1 card
Ann: stands pat on [2c 3d 4h 7s 9c]
*** SHOW DOWN ***
Bob: shows [2s 3s 4d 8h Kc] (Lo: K,8,4,3,2)
Ann: shows [2c 3d 4h 7s 9c] (Lo: 9,7,4,3,2)
Ann collected 200 from pot
Bob finished the tournament in 2nd place and received $5.60.
Ann wins the tournament and receives $6.40 - congratulations!
*** SUMMARY ***
Total pot 200 | Rake 0
Seat 1: Ann (button) (small blind) showed [2c 3d 4h 7s 9c] and won (200) with Lo: 9,7,4,3,2
Seat 2: Bob (big blind) showed [2s 3s 4d 8h Kc] and lost with Lo: K,8,4,3,2
"""
)


def test_a_heads_up_sit_and_go_is_won() -> None:
    hand = hand_of(HEADS_UP_SNG)
    assert (hand.game, hand.structure, hand.max_seats) == (
        Game.SINGLE_DRAW_27,
        Structure.NO_LIMIT,
        2,
    )
    assert hand.tournament == Tournament(
        "5550001", 319, 31, "Match Round I, Level III", None, "USD"
    )
    assert hand.stakes == Stakes(2500, 5000, 5000, 5000)
    assert hand.actions == (
        Action("Ann", 0, ActionKind.CALL, 9, 2500),
        Action("Bob", 0, ActionKind.RAISE, 10, 5000, 10000, True),
        Action("Ann", 0, ActionKind.CALL, 11, 5000),
    )
    assert hand.draws == (
        Draw("Bob", 1, 1, 13),
        Draw("Ann", 1, 0, 14, (), c("2c 3d 4h 7s 9c"), ()),
    )
    assert notes(hand) == [("tournament", "Bob", 19), ("tournament", "Ann", 20)]
    assert verify(hand).ok


REBUYS = (
    (
        "PokerStars Hand #6006: Tournament #8008, $1+$0.10 USD Triple Draw 2-7 Lowball Limit"
        " - Level II (15/30) - 2010/03/04 19:00:00 ET\n"
    )
    + """\
Table '8008 3' 6-max Seat #2 is the button
Bob re-buys and receives 1500 chips for $1.00
Seat 1: Ann (3,000 in chips)
Seat 2: Bob (1,500 in chips)
Bob: posts small blind 10
Ann: posts big blind 15
*** DEALING HANDS ***
Bob: folds
Uncalled bet (5) returned to Ann
Ann collected 20 from pot
Ann: doesn't show hand
Bob takes the add-on and receives 3000 chips for $1.00
Ann re-buys and receives 1500 chips for 100 StarsCoin
Ann adds 1500 chips (1 stack(s) of 1500 chips). Ann has 2 stack(s) remaining.
Ann wins an entry to tournament #9009
All players have agreed to skip the break. Game resuming.
*** SUMMARY ***
Total pot 20 | Rake 0
Seat 1: Ann (big blind) collected (20)
Seat 2: Bob (button) (small blind) folded before the Draw
"""
)


def test_rebuys_and_add_ons_are_notes_of_their_own_even_before_the_seats() -> None:
    hand = hand_of(REBUYS)
    assert hand.seats == (Seat(1, "Ann", 300000, 4), Seat(2, "Bob", 150000, 5))
    assert notes(hand) == [
        ("rebuy", "Bob", 3),
        ("no_show", "Ann", 12),
        ("add_on", "Bob", 13),
        ("rebuy", "Ann", 14),
        ("add_on", "Ann", 15),
        ("tournament", "Ann", 16),
        ("tournament", None, 17),
    ]
    assert hand.warnings == ()
    assert hand.stakes == Stakes(1000, 1500, 1500, 3000)
    assert verify(hand).ok


def test_a_seat_line_after_play_is_still_an_error() -> None:
    text = REBUYS.replace("Bob re-buys and receives 1500 chips for $1.00\n", "").replace(
        "Bob: posts small blind 10\n", ""
    )
    text = text.replace(
        "Ann: posts big blind 15\n", "Ann: posts big blind 15\nSeat 3: Cy (10 in chips)\n"
    )
    (error,) = outcomes(text)
    assert isinstance(error, ParseError)
    assert (error.line, error.message) == (6, "a seat line after the hand has started")


@pytest.mark.parametrize(
    ("header", "table", "game", "structure", "currency", "tournament"),
    [
        (  # a home game at a club's cash table
            "PokerStars Home Game Hand #4004: {Kitchen Club} Triple Draw 2-7 Lowball Limit"
            " ($0.10/$0.20 USD) - 2015/05/06 21:00:00 ET",
            "Table 'Kitchen Table' 6-max Seat #1 is the button",
            Game.TRIPLE_DRAW_27,
            Structure.FIXED,
            "USD",
            None,
        ),
        (  # a home game's tournament
            "PokerStars Home Game Hand #4005: {Kitchen Club} Tournament #6006, $5+$0.50 USD"
            " Triple Draw A-5 Lowball Limit - Level I (10/20) - 2015/05/06 21:00:00 ET",
            "Table '6006 1' 6-max Seat #1 is the button",
            Game.TRIPLE_DRAW_A5,
            Structure.FIXED,
            "chips",
            Tournament("6006", 500, 50, "I", None, "USD"),
        ),
        (  # a fast-fold table
            "PokerStars Zoom Hand #3003:  5 Card Draw Pot Limit ($0.05/$0.10)"
            " - 2014/02/03 10:00:00 ET",
            "Table 'Aludra' 6-max Seat #1 is the button",
            Game.FIVE_CARD_DRAW,
            Structure.POT,
            "USD",
            None,
        ),
        (  # the draw game of a mixed-game tournament
            "PokerStars Hand #5006: Tournament #7, $10+$1 USD 8-Game (Triple Draw 2-7 Lowball"
            " Limit) - Level I (10/20) - 2013/07/01 12:00:00 ET",
            "Table '7 2' 8-max Seat #1 is the button",
            Game.TRIPLE_DRAW_27,
            Structure.FIXED,
            "chips",
            Tournament("7", 1000, 100, "I", None, "USD"),
        ),
        (  # a play-money table
            "PokerStars Game #5007:  Triple Draw 2-7 Lowball Limit (10/20)"
            " - 2008/08/17 - 01:14:43 (ET)",
            "Table 'Gaia II' 6-max (Play Money) Seat #1 is the button",
            Game.TRIPLE_DRAW_27,
            Structure.FIXED,
            "play",
            None,
        ),
    ],
)
def test_home_game_fast_fold_mixed_and_play_money_layouts(
    header: str,
    table: str,
    game: Game,
    structure: Structure,
    currency: str,
    tournament: Tournament | None,
) -> None:
    chips = currency in ("chips", "play")
    money = (lambda a: a.replace("$0.05", "5").replace("$0.10", "10")) if chips else (lambda a: a)
    body = money(
        "Seat 1: Ann ($10 in chips)\nSeat 2: Bob ($10 in chips)\n"
        "Ann: posts small blind $0.05\nBob: posts big blind $0.10\n*** DEALING HANDS ***\n"
        "Ann: folds\nUncalled bet ($0.05) returned to Bob\nBob collected $0.10 from pot\n"
        "*** SUMMARY ***\nTotal pot $0.10 | Rake $0\n"
    ).replace("$10 in", "1,000 in" if chips else "$10 in")
    hand = hand_of(f"{header}\n{table}\n{body}")
    assert (hand.game, hand.structure, hand.currency, hand.tournament) == (
        game,
        structure,
        currency,
        tournament,
    )
    assert [s.stack for s in hand.seats] == [100000 if chips else 1000] * 2
    assert hand.warnings == ()
    assert verify(hand).ok, verify(hand)


def test_a_mixed_game_file_reads_its_draw_games_and_keeps_the_others_unsupported() -> None:
    walk = (
        "Table 'Aaltje III' 6-max Seat #1 is the button\n"
        "Seat 1: Ann ($10 in chips)\nSeat 2: Bob ($10 in chips)\n"
        "Ann: posts small blind $0.05\nBob: posts big blind $0.10\n*** DEALING HANDS ***\n"
        "Ann: folds\nUncalled bet ($0.05) returned to Bob\nBob collected $0.10 from pot\n"
        "*** SUMMARY ***\nTotal pot $0.10 | Rake $0\n"
    )
    games = (
        "8-Game (Triple Draw 2-7 Lowball Limit, $0.10/$0.20 USD)",
        "8-Game (Razz Limit, $0.10/$0.20 USD)",
        "HORSE (Hold'em Limit, $0.10/$0.20 USD)",
        "8-Game (5 Card Draw Limit, $0.10/$0.20 USD)",  # not a game of the mix: still read
    )
    text = "\n\n".join(
        f"PokerStars Hand #{i}:  {g} - 2013/07/01 12:00:00 ET\n{walk}" for i, g in enumerate(games)
    )
    found = outcomes(text)
    assert [(type(o).__name__, getattr(o, "game", None)) for o in found] == [
        ("Hand", Game.TRIPLE_DRAW_27),
        ("Skipped", "Razz Limit"),
        ("Skipped", "Hold'em Limit"),
        ("Hand", Game.FIVE_CARD_DRAW),
    ]
    assert all(o.kind == "unsupported" for o in found if isinstance(o, Skipped))


CHATTY = """\
PokerStars Hand #7007:  Triple Draw 2-7 Lowball Limit ($0.10/$0.20 USD) - 2013/07/01 12:00:00 ET
Table 'Tbl' 6-max Seat #1 is the button
Seat 1: Ann ($10 in chips)
Seat 2: Bob ($10 in chips)
Seat 4: Fay ($10 in chips) is sitting out
Ann: posts small blind $0.05
Bob: posts big blind $0.10
Eve joins the table at seat #3
Fay was removed from the table for failing to post
*** DEALING HANDS ***
Dealt to Ann [7s 5d 4h 3c Kd]
Ann said, "gl all"
Dee [observer] said, "nh"
Ann is disconnected
Ann has timed out while disconnected
Ann is connected
Ann has returned
Ann has 15 seconds left to act
Ann is using the time bank
Ann: calls $0.05
Bob has timed out
Bob: checks
Eve will be allowed to play after the button
*** FIRST DRAW ***
Bob: discards 2 cards
Ann: discards 1 card [Kd]
Dealt to Ann [7s 5d 4h 3c] [2s]
Bob: checks
Eve leaves the table
Ann: bets $0.10
Bob: calls $0.10
*** SECOND DRAW ***
Bob: stands pat
Ann: stands pat on [7s 5d 4h 3c 2s]
Bob: checks
Ann: checks
*** THIRD DRAW ***
Bob: stands pat
Ann: stands pat on [7s 5d 4h 3c 2s]
Bob: is sitting out
Bob: checks
Ann: checks
*** SHOW DOWN ***
Bob: shows [8s 6d 5h 3d 2d] (Lo: 8,6,5,3,2)
Ann: shows [7s 5d 4h 3c 2s] (Lo: 7,5,4,3,2)
Ann collected $0.38 from pot
Bob said, "nh"
*** SUMMARY ***
Total pot $0.40 | Rake $0.02
Seat 1: Ann (button) (small blind) showed [7s 5d 4h 3c 2s] and won ($0.38) with Lo: 7,5,4,3,2
Seat 2: Bob (big blind) showed [8s 6d 5h 3d 2d] and lost with Lo: 8,6,5,3,2
Seat 4: Fay is sitting out
"""


def test_every_line_that_carries_no_play_is_a_note_and_the_hand_is_ok() -> None:
    hand = hand_of(CHATTY)
    assert notes(hand) == [
        ("join", "Eve", 8),
        ("removed", "Fay", 9),
        ("chat", "Ann", 12),
        ("chat", "Dee [observer]", 13),
        ("disconnected", "Ann", 14),
        ("timed_out", "Ann", 15),
        ("connected", "Ann", 16),
        ("returned", "Ann", 17),
        ("time_bank", "Ann", 18),
        ("time_bank", "Ann", 19),
        ("timed_out", "Bob", 21),
        ("wait_for_button", "Eve", 23),
        ("leave", "Eve", 29),
        ("sitting_out", "Bob", 40),
        ("chat", "Bob", 47),
    ]
    assert hand.warnings == ()
    assert (hand.total_pot, hand.rake) == (40, 2)
    assert verify(hand).ok, verify(hand)
    assert without_position(hand_of(write_pokerstars(hand))) == without_position(hand)


def test_a_cancelled_hand_written_the_sites_way_is_incomplete() -> None:
    text = HEADS_UP.split("*** DEALING HANDS ***")[0] + "*** DEALING HANDS ***\nHand cancelled\n"
    text += "*** SUMMARY ***\nSeat 1: Ann (button) (small blind)\nSeat 2: Bob (big blind)\n"
    (outcome,) = outcomes(text)
    assert isinstance(outcome, Skipped)
    assert (outcome.kind, outcome.reason, outcome.hand_id) == (
        "incomplete",
        "the hand was cancelled",
        "1001",
    )
