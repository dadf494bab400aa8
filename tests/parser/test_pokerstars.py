"""PokerStars histories to records: the corpus, and the wording real files have beyond it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import parse_cards
from engine.problems import UNKNOWN_LINE
from engine.record import (
    Action,
    ActionKind,
    Collect,
    Draw,
    Game,
    Hand,
    Muck,
    Note,
    Post,
    PostKind,
    Seat,
    Show,
    Stakes,
    Structure,
    Tournament,
    Uncalled,
)
from engine.verdict import Problem, Severity
from parser import pokerstars
from parser.encoding import NumberedLines, line_blocks, split_lines
from parser.lines import LineKind, literal_needle, money
from parser.outcome import HandText, ParseError, Skipped
from parser.pokerstars import PokerStarsReader
from parser.reader import read_path, read_text
from parser.times import stated_time
from tests.parser_corpus import CORPUS

STARS = CORPUS / "cash/Stars/Draw"
TOUR = CORPUS / "tour/Stars/Draw"
READER = PokerStarsReader()


def one(path_or_text: str, *, text: bool = False) -> Hand | Skipped | ParseError:
    results = list(read_text(path_or_text, "t.txt") if text else read_path(path_or_text))
    assert len(results) == 1
    return results[0][1]


def hand_of(text: str) -> Hand:
    outcome = one(text, text=True)
    assert isinstance(outcome, Hand), outcome
    return outcome


def c(text: str) -> tuple[int, ...]:
    return parse_cards(text, distinct=False)


# ---- the corpus, file by file (MANIFEST.tsv)

CORPUS_OUTCOMES = {
    "2-7 Single Draw-NL-USD-0.25-0.50-201106.allin.txt": ("63826125692", Game.SINGLE_DRAW_27),
    "2-7 Single Draw-NL-USD-0.25-0.50-201106.standspat.txt": ("63826525692", Game.SINGLE_DRAW_27),
    "5-Carddraw-FL-USD-0.10-0.20-201106.FoldedNodraw.txt": ("63823205441", Game.FIVE_CARD_DRAW),
    "5-Carddraw-FL-USD-0.10-0.20-201106.Walked.txt": ("64147461939", Game.FIVE_CARD_DRAW),
    "5-Carddraw-FL-USD-0.10-0.20-201106.sidepot.txt": ("64146221551", Game.FIVE_CARD_DRAW),
    "5-Carddraw-FL-USD-0.25-0.50-201209.fold.to.cb.fix.txt": ("85872891589", Game.FIVE_CARD_DRAW),
    "5-Carddraw-FL-USD-30-60-201605.check.raise.fix.txt": ("153148513639", Game.FIVE_CARD_DRAW),
    "5-Carddraw-NL-USD-0.25-0.50.Sample.txt": ("49934100000", Game.FIVE_CARD_DRAW),
    "5-Carddraw-PL-USD-0.50-1.00.201009.Sample.txt": ("49900000007", Game.FIVE_CARD_DRAW),
    "NLSDraw-USD-0.25-0.50-201009.Mucked.cards.txt": ("48974407184", Game.SINGLE_DRAW_27),
    "Triple Draw 2-7 Lowball-FL-USD-0.10-0.20-201106.sample.txt": (
        "63845186378",
        Game.TRIPLE_DRAW_27,
    ),
    "Triple Draw 2-7 Lowball-FL-USD-1.00-2.00-201206.duplicate.holecards.txt": (
        "81631597149",
        Game.TRIPLE_DRAW_27,
    ),
}


@pytest.mark.parametrize("name", sorted(CORPUS_OUTCOMES))
def test_every_corpus_pokerstars_hand_parses(name: str) -> None:
    hand = one(str(STARS / name))
    assert isinstance(hand, Hand), hand
    assert (hand.hand_id, hand.game) == CORPUS_OUTCOMES[name]
    assert hand.site == "pokerstars"
    assert hand.file == str(STARS / name)


def test_the_cancelled_hand_is_skipped_as_incomplete() -> None:
    outcome = one(str(STARS / "3-Draw-Limit-USD-1-2-200809.Hand.cancelled.txt"))
    assert outcome == Skipped(
        "incomplete",
        "the hand was cancelled",
        site="pokerstars",
        file=str(STARS / "3-Draw-Limit-USD-1-2-200809.Hand.cancelled.txt"),
        line=1,
        hand_id="20349633663",
        game=None,
    )


_CANCELLED_HAND = """PokerStars Game #20349633663: Triple Draw 2-7 Lowball Limit ($1/$2 USD) \
- 2008/09/12 14:09:41 ET
Table 'Miriam III' 6-max Seat #5 is the button
Seat 5: Hero ($32.75 in chips)
Hero: posts small blind $0.50
VillainA: is sitting out
Hand cancelled
*** SUMMARY ***
Seat 5: Hero (button) collected ($0)"""


@pytest.mark.parametrize(
    "change",
    [
        ("", ""),  # as the site writes it
        ("Hand cancelled\n*** SUMMARY ***", "*** SUMMARY ***\nHand cancelled  "),  # after
        ("\n*** SUMMARY ***\nSeat 5: Hero (button) collected ($0)", ""),  # no summary
        ("Seat 5: Hero ($32.75 in chips)", "Seat 5: Hero ($3x.75 in chips)"),  # an error
        ("Hero: posts small blind $0.50", "Hero: posts small blind $0.50\nSeat 6: x (1)"),
        ("Table 'Miriam III' 6-max Seat #5 is the button", "Hand cancelled"),  # no table
        ("($1/$2 USD)", "($1/$2x USD)"),  # stakes that do not read
    ],
)
def test_a_cancelled_hand_is_skipped_whatever_else_it_holds(change: tuple[str, str]) -> None:
    """The "Hand cancelled" line is noticed while reading, or looked for when reading
    stops at an error: either way the verdict is the skip, as when the text was searched
    for it before reading."""
    text = _CANCELLED_HAND.replace(*change)
    assert "Hand cancelled" in text
    [(_, outcome)] = list(read_text(text, "c.txt"))
    assert outcome == Skipped(
        "incomplete",
        "the hand was cancelled",
        site="pokerstars",
        file="c.txt",
        line=1,
        hand_id="20349633663",
        game=None,
    )
    assert outcome == PokerStarsReader().parse(HandText("c.txt", 1, text, "pokerstars"))


def test_a_line_only_like_the_cancel_line_does_not_skip_the_hand() -> None:
    text = _CANCELLED_HAND.replace("Hand cancelled", "Hand cancelled later")
    [(_, outcome)] = list(read_text(text, "c.txt"))
    assert isinstance(outcome, Hand)
    assert outcome.warnings[0].message == "a line this reader does not know: Hand cancelled later"


def test_side_pot_hand_in_full() -> None:
    hand = one(str(STARS / "5-Carddraw-FL-USD-0.10-0.20-201106.sidepot.txt"))
    assert isinstance(hand, Hand)
    assert hand.stakes == Stakes(5, 10, 10, 20, 0)
    assert (hand.structure, hand.currency, hand.button, hand.max_seats) == (
        Structure.FIXED,
        "USD",
        3,
        6,
    )
    assert hand.time == datetime(2011, 7, 4, 20, 56, 59, tzinfo=UTC)
    assert hand.seats[3] == Seat(5, "Player4", 15, 6)
    assert (hand.hero, hand.dealt) == ("Hero", c("Qd 7h 6c 6h Th"))
    assert hand.steps == (
        Post("Player3", PostKind.SMALL_BLIND, 5, 8),
        Post("Player4", PostKind.BIG_BLIND, 10, 9),
        Note("sit_out", "Player6: sits out", 10, "Player6"),
        Action("Player5", 0, ActionKind.FOLD, 13),
        Action("Player1", 0, ActionKind.FOLD, 14),
        Action("Hero", 0, ActionKind.RAISE, 15, 20, 20),
        Action("Player3", 0, ActionKind.CALL, 16, 15),
        Action("Player4", 0, ActionKind.CALL, 17, 5, None, True),
        Draw("Player3", 1, 2, 18),
        Draw("Player4", 1, 2, 19),
        Draw("Hero", 1, 2, 20, c("7h Th"), c("Qd 6c 6h"), c("4h Td")),
        Action("Player3", 1, ActionKind.CHECK, 22),
        Action("Hero", 1, ActionKind.CHECK, 23),
        Show("Player3", c("2h Kh Qs Ad Ks"), 25),
        Muck("Hero", 26),
        Collect("Player3", 10, 27, 1),
        Muck("Player4", 28),
        Collect("Player3", 43, 29, 0),
        Show("Hero", c("Qd 4h 6c 6h Td"), 33, mucked=True),
        Show("Player4", c("Kc 9c 9s Qc 4c"), 35, mucked=True),
    )
    assert (hand.total_pot, hand.rake) == (55, 2)


def test_triple_draw_streets_and_draws_follow_the_markers() -> None:
    hand = one(str(STARS / "Triple Draw 2-7 Lowball-FL-USD-0.10-0.20-201106.sample.txt"))
    assert isinstance(hand, Hand)
    assert [(a.player, a.street, a.kind, a.amount) for a in hand.actions][-2:] == [
        ("Player3", 3, ActionKind.BET, 20),
        ("Player1", 3, ActionKind.CALL, 20),
    ]
    streets = [a.street for a in hand.actions]
    assert streets == [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3]
    assert [(d.player, d.draw, d.count) for d in hand.draws] == [
        ("Player2", 1, 3), ("Player3", 1, 2), ("Player1", 1, 2),
        ("Player3", 2, 2), ("Player1", 2, 0),
        ("Player3", 3, 1), ("Player1", 3, 0),
    ]  # fmt: skip
    join = next(s for s in hand.steps if isinstance(s, Note))
    assert join == Note("join", "lippo81 joins the table at seat #6", 24, "lippo81")


def test_single_draw_without_marker_numbers_the_draw_from_the_order() -> None:
    hand = one(str(STARS / "NLSDraw-USD-0.25-0.50-201009.Mucked.cards.txt"))
    assert isinstance(hand, Hand)
    assert hand.draws == (
        Draw("Hero", 1, 0, 21, (), c("2s 7d 4d 6d 8s"), ()),
        Draw("@sker86", 1, 1, 22),
    )
    assert [(a.player, a.street) for a in hand.actions][-2:] == [("Hero", 1), ("@sker86", 1)]
    assert hand.seats[3].player == "nl pokerr"
    assert hand.stakes == Stakes(25, 50, 50, 50, 0)


def test_corrupt_duplicate_hole_cards_parse_so_the_replay_can_flag_them() -> None:
    hand = one(
        str(STARS / "Triple Draw 2-7 Lowball-FL-USD-1.00-2.00-201206.duplicate.holecards.txt")
    )
    assert isinstance(hand, Hand)
    first = hand.draws[0]
    assert first == Draw("Hero", 1, 2, 21, (), c("2s 7s 5h 3c Qh"), c("2s 7s 5h 3c Qh"))
    assert hand.draws[8].discarded == c("Ad")


def test_tournament_with_antes_all_in_post_chat_and_finish_lines() -> None:
    hand = one(str(TOUR / "2-7 Single Draw-NL-USD-2max-STT-1.40-201212.ante.all.in.txt"))
    assert isinstance(hand, Hand)
    assert hand.tournament == Tournament(
        "476454368", 140, 10, "Match Round I, Level V", None, "USD"
    )
    assert (hand.currency, hand.stakes) == ("chips", Stakes(5000, 10000, 10000, 10000, 2500))
    assert hand.seats == (Seat(1, "Hero", 100, 3), Seat(2, "Player0", 299900, 4))
    assert hand.posts == (
        Post("Hero", PostKind.ANTE, 100, 5, all_in=True),
        Post("Player0", PostKind.ANTE, 2500, 6),
        Post("Player0", PostKind.BIG_BLIND, 10000, 7),
    )
    assert Uncalled("Player0", 12400, 10) in hand.steps
    notes = [(n.kind, n.player) for n in hand.steps if isinstance(n, Note)]
    assert notes == [
        ("chat", "Player0"), ("chat", "Hero"), ("chat", "Hero"),
        ("tournament", "Hero"), ("tournament", "Player0"),
    ]  # fmt: skip
    assert hand.time == datetime(2011, 11, 29, 21, 52, 8, tzinfo=UTC)


# ---- wording beyond the corpus


DEFAULT_TABLE = "Table 'Tbl' 6-max Seat #1 is the button"
DEFAULT_SEATS = "Seat 1: Ann ($10 in chips)\nSeat 2: Bob ($10 in chips)"


def stars(header: str, body: str, seats: str = "", table: str = "") -> str:
    return (
        f"{header}\n"
        f"{table or DEFAULT_TABLE}\n"
        f"{seats or DEFAULT_SEATS}\n"
        f"{body}\n"
        "*** SUMMARY ***\n"
        "Total pot $0.20 | Rake $0\n"
    )


TD_HEADER = (
    "PokerStars Hand #1:  Triple Draw 2-7 Lowball Limit ($0.10/$0.20 USD) - 2013/07/01 12:00:00 ET"
)
WALK = "Ann: posts small blind $0.05\nBob: posts big blind $0.10\n*** DEALING HANDS ***\nAnn: folds"


@pytest.mark.parametrize(
    ("header", "game", "structure", "stakes"),
    [
        (TD_HEADER, Game.TRIPLE_DRAW_27, Structure.FIXED, Stakes(5, 10, 10, 20)),
        (
            "PokerStars Game #2: Triple Draw 2-7 Lowball Pot Limit ($0.05/$0.10 USD)"
            " - 2013/07/01 12:00:00 ET",
            Game.TRIPLE_DRAW_27,
            Structure.POT,
            Stakes(5, 10, 10, 10),
        ),
        (
            "PokerStars Home Game Hand #3: {Club 7} Triple Draw A-5 Lowball Limit"
            " ($0.10/$0.20 USD) - 2013/07/01 12:00:00 ET",
            Game.TRIPLE_DRAW_A5,
            Structure.FIXED,
            Stakes(5, 10, 10, 20),
        ),
        (
            "PokerStars Hand #4:  8-Game (Triple Draw 2-7 Lowball Limit, $0.10/$0.20 USD)"
            " - 2013/07/01 12:00:00 ET",
            Game.TRIPLE_DRAW_27,
            Structure.FIXED,
            Stakes(5, 10, 10, 20),
        ),
        (
            "PokerStars Zoom Hand #5:  5 Card Draw No Limit ($0.05/$0.10) - 2013/07/01 12:00:00 ET",
            Game.FIVE_CARD_DRAW,
            Structure.NO_LIMIT,
            Stakes(5, 10, 10, 10),
        ),
        (
            "PokerStars Hand #6:  Badugi Limit ($0.10/$0.20 USD) - 2013/07/01 12:00:00 ET",
            Game.BADUGI,
            Structure.FIXED,
            Stakes(5, 10, 10, 20),
        ),
        (
            "PokerStars Hand #7:  8-Game (Badugi Limit, $0.10/$0.20 USD) - 2013/07/01 12:00:00 ET",
            Game.BADUGI,
            Structure.FIXED,
            Stakes(5, 10, 10, 20),
        ),
    ],
)
def test_headers_of_every_kind(
    header: str, game: Game, structure: Structure, stakes: Stakes
) -> None:
    hand = hand_of(stars(header, WALK))
    assert (hand.game, hand.structure, hand.stakes) == (game, structure, stakes)
    assert hand.time == datetime(2013, 7, 1, 16, 0, tzinfo=UTC)  # ET in summer is UTC-4


def test_play_money_has_no_currency_sign() -> None:
    walk = WALK.replace("$0.05", "5").replace("$0.10", "10")
    hand = hand_of(stars(TD_HEADER.replace("($0.10/$0.20 USD)", "(10/20)"), walk))
    assert hand.currency == "play"
    assert hand.stakes == Stakes(500, 1000, 1000, 2000)


@pytest.mark.parametrize(
    ("header", "game"),
    [
        (
            "PokerStars Hand #9:  HORSE (Razz Limit, $0.10/$0.20 USD) - 2013/07/01 12:00:00 ET",
            "Razz Limit",
        ),
        (
            "PokerStars Hand #9:  Hold'em No Limit ($0.01/$0.02 USD) - 2013/07/01 12:00:00 ET",
            "Hold'em No Limit",
        ),
        (
            "PokerStars Hand #9: Tournament #7, $10+$1 USD 8-Game (Razz Limit)"
            " - Level I (10/20) - 2013/07/01 12:00:00 ET",
            "Razz Limit",
        ),
    ],
)
def test_games_we_do_not_replay_are_skipped_with_the_site_game_name(header: str, game: str) -> None:
    outcome = one(header + "\n*** HOLE CARDS ***\nwhatever follows\n", text=True)
    assert isinstance(outcome, Skipped)
    assert (outcome.kind, outcome.game, outcome.hand_id) == ("unsupported", game, "9")


def test_bounty_tournament_buy_in_and_seat_bounties() -> None:
    header = (
        "PokerStars Hand #10: Tournament #99, $10+$5+$1 USD Triple Draw 2-7 Lowball Limit"
        " - Level III (20/40) - 2013/01/10 20:00:00 CET [2013/01/10 14:00:00 ET]"
    )
    seats = "Seat 1: Ann (1,500 in chips, $5 bounty)\nSeat 2: Bob (1,480 in chips) is sitting out"
    body = "Ann: posts small blind 10\nBob: posts big blind 20\n*** DEALING HANDS ***\nAnn: folds"
    hand = hand_of(stars(header, body, seats))
    assert hand.tournament == Tournament("99", 1000, 100, "III", 500, "USD")
    assert hand.seats == (Seat(1, "Ann", 150000, 3), Seat(2, "Bob", 148000, 4, sitting_out=True))
    assert hand.stakes == Stakes(1000, 2000, 2000, 4000)
    assert hand.time == datetime(2013, 1, 10, 19, 0, tzinfo=UTC)


def test_both_blinds_post_has_its_small_part_dead() -> None:
    seats = "Seat 1: Ann ($10 in chips)\nSeat 2: Bob ($10 in chips)\nSeat 3: Cy ($10 in chips)"
    body = (
        "Ann: posts small blind $0.05\nBob: posts big blind $0.10\n"
        "Cy: posts small & big blinds $0.15\n*** DEALING HANDS ***\n"
        "Cy: raises $0.10 to $0.20\nAnn: folds\nBob: folds\n"
        "Uncalled bet ($0.10) returned to Cy\nCy collected $0.30 from pot"
    )
    hand = hand_of(stars(TD_HEADER, body, seats))
    assert hand.posts[2] == Post("Cy", PostKind.BOTH_BLINDS, 15, 8, dead=5)
    assert hand.actions[0] == Action("Cy", 0, ActionKind.RAISE, 10, 10, 20)


def test_lines_that_carry_no_play_are_notes() -> None:
    body = "\n".join(
        [
            "Ann: posts small blind $0.05",
            "Bob: posts big blind $0.10",
            "Eve joins the table at seat #4",
            "*** DEALING HANDS ***",
            "Dealt to Ann [7s 5d 4h 3c 2s]",
            'Bob said, "gl: folds"',
            "Ann has timed out",
            "Ann has timed out while disconnected",
            "Ann is disconnected",
            "Ann is connected",
            "Ann has returned",
            "Ann: is sitting out",
            "Bob is capped",
            "Betting is capped",
            "Eve will be allowed to play after the button",
            "Ann: folds (disconnect)",
            "Eve leaves the table",
            "Uncalled bet ($0.05) returned to Bob",
            "Bob collected $0.10 from pot",
            "Bob: doesn't show hand",
        ]
    )
    hand = hand_of(stars(TD_HEADER, body))
    notes = [(n.kind, n.player) for n in hand.steps if isinstance(n, Note)]
    assert notes == [
        ("join", "Eve"), ("chat", "Bob"), ("timed_out", "Ann"), ("timed_out", "Ann"),
        ("disconnected", "Ann"), ("connected", "Ann"), ("returned", "Ann"),
        ("sitting_out", "Ann"), ("capped", "Bob"), ("capped", None), ("wait_for_button", "Eve"),
        ("leave", "Eve"), ("no_show", "Bob"),
    ]  # fmt: skip
    assert Action("Ann", 0, ActionKind.FOLD, 20) in hand.steps


def test_raises_record_the_total_and_the_chips_added() -> None:
    body = (
        "Ann: posts small blind $0.05\nBob: posts big blind $0.10\n*** DEALING HANDS ***\n"
        "Ann: raises $0.10 to $0.20\nBob: raises $0.10 to $0.30 and is capped\n"
        "Ann: calls $0.10 and has reached the $0.30 cap\n"
        "*** FIRST DRAW ***\nAnn: discards 5 cards\nBob: stands pat\n"
        "Bob: bets $0.10 and is all-in\nAnn: calls $0.10"
    )
    hand = hand_of(stars(TD_HEADER, body))
    assert hand.actions == (
        Action("Ann", 0, ActionKind.RAISE, 8, 15, 20),
        Action("Bob", 0, ActionKind.RAISE, 9, 20, 30, True),
        Action("Ann", 0, ActionKind.CALL, 10, 10, None, True),
        Action("Bob", 1, ActionKind.BET, 14, 10, None, True),
        Action("Ann", 1, ActionKind.CALL, 15, 10),
    )
    assert hand.draws == (Draw("Ann", 1, 5, 12), Draw("Bob", 1, 0, 13, (), None, ()))


def test_collects_from_numbered_side_pots() -> None:
    body = (
        "Ann: posts small blind $0.05\nBob: posts big blind $0.10\n*** DEALING HANDS ***\n"
        "Ann: calls $0.05\nBob: checks\n*** SHOW DOWN ***\n"
        "Ann: shows [7s 5d 4h 3c 2s] (Lo: 7,5,4,3,2)\nBob: mucks hand\n"
        "Ann collected $0.05 from side pot-2\nAnn collected $0.05 from side pot-1\n"
        "Ann collected $0.10 from main pot\nAnn cashed out the hand for $1 | Cash Out Fee $0.01"
    )
    text = stars(TD_HEADER, body).replace(
        "Total pot $0.20 | Rake $0",
        "Total pot $0.20 Main pot $0.10. Side pot-1 $0.05. Side pot-2 $0.05. | Rake $0",
    )
    hand = hand_of(text + "Seat 1: Ann (button) showed [7s 5d 4h 3c 2s] and won ($0.20) with Lo\n")
    assert [(x.amount, x.pot) for x in hand.collects] == [(5, 2), (5, 1), (10, 0)]
    assert hand.total_pot == 20


def test_an_unknown_line_is_a_warning_with_its_line_and_text_and_reading_goes_on() -> None:
    text = stars(TD_HEADER, WALK + "\nAnn: dances on the table\nBob collected $0.10 from pot")
    hand = hand_of(text)
    assert hand.warnings == (
        Problem(
            UNKNOWN_LINE,
            Severity.WARNING,
            9,
            "a line this reader does not know: Ann: dances on the table",
        ),
    )
    assert hand.steps[-1] == Collect("Bob", 10, 10, 0)


def test_a_line_of_play_that_does_not_read_is_an_error_that_says_where() -> None:
    text = stars(TD_HEADER, WALK.replace("Ann: folds", "Ann: bets $abc"))
    error = one(text, text=True)
    assert isinstance(error, ParseError)
    assert (error.file, error.line, error.column, error.line_text) == (
        "t.txt",
        8,
        11,
        "Ann: bets $abc",
    )
    assert "folds, checks, calls" in error.expected


def test_an_unknown_summary_line_is_a_warning_too() -> None:
    hand = hand_of(stars(TD_HEADER, WALK) + "Board [2c 3d 4h]\nSomething else\n")
    assert [(w.code, w.line, w.message) for w in hand.warnings] == [
        (UNKNOWN_LINE, 12, "a line this reader does not know: Something else")
    ]


def test_a_hand_cut_before_its_summary_is_partial() -> None:
    text = "\n".join(stars(TD_HEADER, WALK).split("\n")[:8])
    outcome = one(text, text=True)
    assert isinstance(outcome, Skipped)
    assert (outcome.kind, outcome.hand_id) == ("incomplete", "1")


def test_bad_cards_and_amounts_are_positioned_errors() -> None:
    error = one(
        stars(TD_HEADER, WALK.replace("Ann: folds", "Dealt to Ann [7s 5d 4h 3c 1x]")), text=True
    )
    assert isinstance(error, ParseError)
    assert (error.line, error.column) == (8, 27)
    error = one(stars(TD_HEADER, WALK.replace("$0.05", "$0.0.5")), text=True)
    assert isinstance(error, ParseError) and error.line == 5


def test_times_without_eastern_time_and_without_zone() -> None:
    plain = hand_of(stars(TD_HEADER.replace(" ET", ""), WALK))
    assert plain.time == datetime(2013, 7, 1, 12, 0)
    old = hand_of(
        stars(TD_HEADER.replace("2013/07/01 12:00:00 ET", "2008/08/17 - 01:14:43 (ET)"), WALK)
    )
    assert old.time == datetime(2008, 8, 17, 5, 14, 43, tzinfo=UTC)


def test_a_tournament_without_buy_in_text_keeps_its_game() -> None:
    header = (
        "PokerStars Hand #11: Tournament #5, Triple Draw 2-7 Lowball Limit"
        " - Level I (10/20) - 2013/01/10 14:00:00 ET"
    )
    walk = WALK.replace("$0.05", "5").replace("$0.10", "10")
    hand = hand_of(stars(header, walk))
    assert hand.game is Game.TRIPLE_DRAW_27
    assert hand.tournament == Tournament("5", None, None, "I", None, None)


def test_tournament_summary_files_are_skipped() -> None:
    summary = "PokerStars Tournament #123, No Limit Hold'em\nBuy-In: $1/$0.10\n"
    outcome = one(summary, text=True)
    assert isinstance(outcome, Skipped) and outcome.kind == "incomplete"


def test_split_cuts_at_headers_and_drops_blank_lines_between_hands() -> None:
    lines = [
        (1, ""),
        (2, "PokerStars Hand #1: x"),
        (3, "a"),
        (4, ""),
        (5, ""),
        (6, "PokerStars Game #2: y"),
    ]
    chunks = list(READER.split(iter(lines), "f"))
    assert chunks == [
        HandText("f", 2, "PokerStars Hand #1: x\na", "pokerstars"),
        HandText("f", 6, "PokerStars Game #2: y", "pokerstars"),
    ]


_SPLIT_LINES = st.sampled_from(
    [
        "PokerStars Hand #1: x",
        "PokerStars Game #2: y",
        "PokerStars Tournament #3, z",
        "PokerStars Hand 4: not a header",
        " PokerStars Hand #5: indented",
        "Hero: folds",
        "",
        " ",
        "\t",
    ]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_SPLIT_LINES, max_size=40), st.integers(min_value=1, max_value=40))
def test_split_on_whole_blocks_cuts_as_line_by_line(lines: list[str], cut: int) -> None:
    text = "\n".join(lines)
    pieces = [text[i : i + cut] for i in range(0, len(text), cut)]
    by_block = list(READER.split(NumberedLines(line_blocks(pieces)), "f"))
    by_line = list(READER.split(list(split_lines(pieces)), "f"))
    assert by_block == by_line


def test_money_is_exact_hundredths() -> None:
    assert money("$1,500.50") == 150050
    assert money("1,500") == 150000
    assert money("€0.05") == 5
    assert money("$2") == 200


def test_needles_are_text_every_match_contains() -> None:
    assert literal_needle(r"(?P<player>.+?):\ folds(?:\ \[x\])?") == ": folds"
    assert literal_needle(r"ab?c") == "a"
    assert literal_needle(r"x|y") == ""


def _corpus_lines() -> list[str]:
    lines: set[str] = set()
    for folder in (STARS, TOUR):
        for path in sorted(folder.glob("*.txt")):
            for chunk, _ in read_path(path):
                lines.update(line.rstrip() for line in chunk.text.split("\n") if line.strip())
    return sorted(lines)


def _first_kind(line: str, kinds: Sequence[LineKind]) -> tuple[str, dict[str, str | None]] | None:
    """The definition the classifier's needles and leads must not change: the first kind, in
    order, whose pattern matches the whole line."""
    for kind in kinds:
        m = kind.regex.match(line)
        if m is not None:
            return kind.name, m.groupdict()
    return None


def test_the_classifier_reads_every_line_as_the_first_kind_that_matches() -> None:
    lines = _corpus_lines()
    edited = [line[:i] + line[i + 1 :] for line in lines for i in (0, len(line) // 2, -1)]
    for classifier in (pokerstars._BODY_LINES, pokerstars._SUMMARY_LINES):
        for line in lines + edited:
            found = classifier(line)
            assert (found and (found[0], found[1].groupdict())) == _first_kind(
                line, classifier.kinds
            ), line


def test_remembered_readings_give_the_same_records_as_fresh_ones() -> None:
    paths = sorted(STARS.glob("*.txt")) + sorted(TOUR.glob("*.txt"))
    chunks = [chunk for path in paths for chunk, _ in read_path(path)]

    def outcomes() -> list[object]:
        found: list[object] = []
        for chunk in chunks:
            try:
                found.append(READER.parse(chunk))
            except ParseError as exc:
                found.append(str(exc))
        return found

    for seen in (pokerstars._BODY_SEEN, pokerstars._SUMMARY_SEEN):
        seen.clear()
    fresh = outcomes()
    assert len(pokerstars._BODY_SEEN) > 0
    assert outcomes() == fresh


def test_a_utc_time_is_that_moment() -> None:
    assert stated_time("2026/03/01 12:49:00 UTC [2026/03/01 7:49:00 ET]") == datetime(
        2026, 3, 1, 12, 49, tzinfo=UTC
    )
    assert stated_time("2026/07/01 12:49:00 GMT") == datetime(2026, 7, 1, 12, 49, tzinfo=UTC)
    assert stated_time("2026/07/01 12:49:00 ET") == datetime(2026, 7, 1, 16, 49, tzinfo=UTC)


def test_long_lines_are_read_but_not_remembered() -> None:
    chat = 'Bob said, "' + "gl " * 200 + '"'
    body = "\n".join(
        ["Ann: posts small blind $0.05", "Bob: posts big blind $0.10", chat, "Ann: folds"]
    )
    hand = hand_of(stars(TD_HEADER, body))
    assert [n.text for n in hand.steps if isinstance(n, Note)] == [chat]
    assert chat not in pokerstars._BODY_SEEN
    assert "Ann: folds" in pokerstars._BODY_SEEN
