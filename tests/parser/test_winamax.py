"""Winamax reader: the play-money triple-draw file, and its wording."""

from __future__ import annotations

from datetime import UTC, datetime

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
    Show,
    Stakes,
    Structure,
)
from engine.verdict import Problem, Severity
from parser.outcome import ParseError, Skipped
from parser.reader import read_path, read_text
from tests.corpus import CORPUS

FILE = CORPUS / "cash/Winamax/Draw/Triple Draw 2-7-FL-6max-play-0.50-1.00-201610.export.txt"


def hand() -> Hand:
    ((_, out),) = list(read_path(FILE))
    assert isinstance(out, Hand), out
    return out


def test_header_table_and_seats_of_a_play_money_table() -> None:
    h = hand()
    assert (h.site, h.hand_id, h.table, h.game, h.structure) == (
        "winamax", "9160772-2-1476189756", "Suceava 02", Game.TRIPLE_DRAW_27, Structure.FIXED,
    )  # fmt: skip
    assert h.stakes == Stakes(25, 50, 50, 100)  # play money "0.50/1" in hundredths
    assert (h.currency, h.max_seats, h.button) == ("play", 6, 4)
    assert h.time == datetime(2016, 10, 11, 12, 42, 36, tzinfo=UTC)
    assert h.seats[1] == Seat(2, "Player3", 1305, 4)
    assert (h.hero, h.dealt) == (None, None)  # the export has no "Dealt to" lines


def test_out_of_position_big_blinds_are_live_extra_posts() -> None:
    # Winamax lets a joining player post a big blind "out of position"; he may then check
    # as Player4 and Player3 do, so the post is live: EXTRA with nothing dead.
    h = hand()
    assert h.posts == (
        Post("Player0", PostKind.SMALL_BLIND, 25, 10),
        Post("Hero", PostKind.BIG_BLIND, 50, 11),
        Post("Player4", PostKind.EXTRA, 50, 12),
        Post("Player3", PostKind.EXTRA, 50, 13),
        Post("Player2", PostKind.EXTRA, 50, 14),
    )
    assert h.actions[:8] == (
        Action("Player4", 0, ActionKind.CHECK, 16),
        Action("Player3", 0, ActionKind.CHECK, 17),
        Action("Player2", 0, ActionKind.RAISE, 18, 50, 100),  # "raises 0.50 to 1"
        Action("Player1", 0, ActionKind.FOLD, 19),
        Action("Player0", 0, ActionKind.CALL, 20, 75),
        Action("Hero", 0, ActionKind.CALL, 21, 50),
        Action("Player4", 0, ActionKind.CALL, 22, 50),
        Action("Player3", 0, ActionKind.CALL, 23, 50),
    )


def test_draws_are_counts_and_discard_zero_is_standing_pat() -> None:
    h = hand()
    assert h.draws[:5] == (
        Draw("Player0", 1, 2, 25),
        Draw("Hero", 1, 2, 26),
        Draw("Player4", 1, 4, 27),
        Draw("Player3", 1, 2, 28),
        Draw("Player2", 1, 0, 29, (), None, ()),
    )
    assert [d.draw for d in h.draws] == [1] * 5 + [2] * 4 + [3] * 3
    assert h.actions[-3:] == (
        Action("Player4", 3, ActionKind.BET, 56, 100, 100),
        Action("Player3", 3, ActionKind.CALL, 57, 100),
        Action("Player2", 3, ActionKind.CALL, 58, 100),
    )


def test_showdown_collect_and_total_pot_with_the_rake_added_back() -> None:
    # "Total pot 12.15 | Rake 0.85": Winamax's total is after the rake; the players put
    # in 13.00, which is what Hand.total_pot holds on every site.
    h = hand()
    assert h.shows == (
        Show("Player4", parse_cards("3s 2c 5s Ks 8c"), 60),
        Show("Player3", parse_cards("7c 6c 8s 2s 3c"), 61),
        Show("Player2", parse_cards("3h 7d 5h 8d 2d"), 62),
    )
    assert h.collects == (Collect("Player2", 1215, 63),)
    assert (h.total_pot, h.rake) == (1300, 85)
    assert sum(s.amount for s in h.posts) + sum(s.amount for s in h.actions) == 1300


def test_unknown_line_is_a_warning_at_its_line_and_the_rest_is_read() -> None:
    plain = FILE.read_text()
    text = plain.replace("Player1 folds", "Player1 leaves quietly", 1)
    ((_, out),) = list(read_text(text, "w.txt"))
    ((_, before),) = list(read_text(plain, "w.txt"))
    assert isinstance(out, Hand) and isinstance(before, Hand)
    assert out.warnings == (
        Problem(UNKNOWN_LINE, Severity.WARNING, 19,
                "a line this reader does not know: Player1 leaves quietly"),
    )  # fmt: skip
    assert out.steps == tuple(s for s in before.steps if s.line != 19)


def test_chat_is_a_note_and_a_call_that_does_not_read_an_error() -> None:
    plain = FILE.read_text()
    text = plain.replace("Player1 folds", "Player1: gg\nPlayer1 folds", 1)
    ((_, out),) = list(read_text(text, "w.txt"))
    assert isinstance(out, Hand) and out.warnings == ()
    assert Note("chat", "Player1: gg", 19, "Player1") in out.steps
    bad = plain.replace("Player1 folds", "Player1 calls 0,5,0", 1)
    ((_, err),) = list(read_text(bad, "w.txt"))
    assert isinstance(err, ParseError)
    assert (err.line, err.line_text) == (19, "Player1 calls 0,5,0")


def test_holdem_is_unsupported() -> None:
    text = (
        "Winamax Poker - CashGame - HandId: #1-2-3 - Holdem no limit (0.01€/0.02€)"
        " - 2016/10/11 12:42:36 UTC\n"
    )
    ((_, out),) = list(read_text(text, "nl.txt"))
    assert out == Skipped(
        "unsupported",
        "Holdem is not a game DrawLab replays",
        site="winamax",
        file="nl.txt",
        line=1,
        hand_id="1-2-3",
        game="Holdem",
    )  # fmt: skip


REAL_MONEY_HAND = """\
Winamax Poker - CashGame - HandId: #9250793-1-1478989461 - 2-7 Triple Draw fixed limit \
(25€/50€) - 2016/11/12 22:24:21 UTC
Table: 'Pampelune' 6-max (real money) Seat #4 is the button
Seat 1: Alice (2047.50€)
Seat 4: Bob (217.78€)
*** ANTE/BLINDS ***
Bob posts small blind 12.50€
Alice posts big blind 25€
*** FIRST-BET ***
Dealt to Bob [X X X X X]
Dealt to Alice [2h Td 8c 7c 8s]
Bob raises 25€ to 50€
Alice calls 25€
*** FIRST-DRAW ***
Alice discards 2 cards [Td 8s]
Bob stands pat [X X X X X]
Dealt to Alice [2h 8c 7c] [3d 4d]
*** SECOND-BET ***
Alice checks
Bob bets 25€
Alice folds
Bob collected 100€ from pot
*** SUMMARY ***
Total pot 100€ | No rake
Seat 4: Bob (small blind) (button) won 100€
"""


def test_real_money_hand_with_euro_amounts_hidden_cards_and_the_heros_draw() -> None:
    ((_, h),) = list(read_text(REAL_MONEY_HAND, "eur.txt"))
    assert isinstance(h, Hand), h
    assert (h.currency, h.game, h.stakes) == (
        "EUR",
        Game.TRIPLE_DRAW_27,
        Stakes(1250, 2500, 2500, 5000),
    )
    assert h.seats == (Seat(1, "Alice", 204750, 3), Seat(4, "Bob", 21778, 4))
    assert (h.hero, h.dealt) == ("Alice", parse_cards("2h Td 8c 7c 8s"))
    assert h.actions[:2] == (
        Action("Bob", 0, ActionKind.RAISE, 11, 3750, 5000),
        Action("Alice", 0, ActionKind.CALL, 12, 2500),
    )
    assert h.draws == (
        Draw(
            "Alice", 1, 2, 14, parse_cards("Td 8s"), parse_cards("2h 8c 7c"), parse_cards("3d 4d")
        ),
        Draw("Bob", 1, 0, 15, (), None, ()),
    )
    assert h.collects == (Collect("Bob", 10000, 21),)
    assert (h.total_pot, h.rake) == (10000, 0)


def test_stud_hand_of_a_mixed_table_is_unsupported_whatever_its_stakes_look_like() -> None:
    text = (
        "Winamax Poker - CashGame - HandId: #9250793-400-1478989999 - 7-Card Stud fixed limit"
        " (5€ - 25€/50€) - 2016/11/12 22:30:00 UTC\n"
    )
    ((_, out),) = list(read_text(text, "s.txt"))
    assert out == Skipped(
        "unsupported",
        "7-Card Stud is not a game DrawLab replays",
        site="winamax",
        file="s.txt",
        line=1,
        hand_id="9250793-400-1478989999",
        game="7-Card Stud",
    )  # fmt: skip


def test_a_tournament_summary_is_no_hand_and_no_parse_error() -> None:
    text = "Winamax Poker - Tournament summary : Expresso(193493816)\nPlayer : Hero\n"
    [(_, outcome)] = list(read_text(text, "s.txt"))
    assert outcome == Skipped(
        "incomplete",
        "a Winamax tournament summary: it holds no hand",
        site="winamax",
        file="s.txt",
        line=1,
    )
