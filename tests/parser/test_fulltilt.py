"""Full Tilt reader: exact records from the corpus files and the positioned errors."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

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
from engine.replay import replay
from engine.verdict import Problem, Severity
from parser.fulltilt import FullTiltReader
from parser.outcome import HandText, Outcome, ParseError, Skipped
from parser.reader import read_path, read_text
from tests.corpus import CORPUS

FTP = CORPUS / "cash/FTP/Draw"
SUMMARIES = CORPUS / "summaries/FTP"
ET = ZoneInfo("America/New_York")


def c(text: str) -> tuple[int, ...]:
    return parse_cards(text)


def outcomes(path: Path) -> list[Outcome]:
    return [o for _, o in read_path(path)]


def only_hand(path: Path) -> Hand:
    (out,) = outcomes(path)
    assert isinstance(out, Hand), out
    return out


def test_archive_sample_gives_every_step_with_its_line() -> None:
    hand = only_hand(FTP / "3-Draw-Limit-USD-1500-3000-201101.FTP.Archive.sample.txt")
    assert (hand.site, hand.hand_id, hand.table, hand.game, hand.structure) == (
        "fulltilt", "27088270000", "harrington25", Game.TRIPLE_DRAW_27, Structure.FIXED,
    )  # fmt: skip
    # "$1,500/$3,000" are the fixed-limit bets; the blinds are half and one small bet.
    assert hand.stakes == Stakes(75000, 150000, 150000, 300000)
    assert hand.time == datetime(2011, 1, 8, 11, 0, 0, tzinfo=ET)
    assert (hand.button, hand.max_seats, hand.currency) == (6, 6, "USD")
    assert (hand.total_pot, hand.rake, hand.line) == (4275000, 200, 3)
    assert hand.seats == (
        Seat(1, "Player1", 10346100, 5),
        Seat(2, "Player2", 12010600, 6),
        Seat(4, "Hero", 5775000, 7),
        Seat(6, "Player6", 4649750, 8),
    )
    assert (hand.hero, hand.dealt) == ("Hero", c("5s 3h 4c Qs 8d"))
    assert hand.steps == (
        Post("Player1", PostKind.SMALL_BLIND, 75000, 9),
        Post("Player2", PostKind.BIG_BLIND, 150000, 10),
        Action("Hero", 0, ActionKind.RAISE, 14, 300000, 300000),
        Action("Player6", 0, ActionKind.RAISE, 15, 450000, 450000),
        Action("Player1", 0, ActionKind.FOLD, 16),
        Note("time_left", "Player2 has 15 seconds left to act", 17, "Player2"),
        Action("Player2", 0, ActionKind.RAISE, 18, 450000, 600000),
        Action("Hero", 0, ActionKind.CALL, 19, 300000),
        Action("Player6", 0, ActionKind.CALL, 20, 150000),
        Draw("Player2", 1, 1, 22),
        Draw("Hero", 1, 1, 23, c("Qs"), c("5s 3h 4c 8d"), c("2h")),
        Draw("Player6", 1, 2, 24),
        Note("dealt", "Player2 is dealt 1 card", 25, "Player2"),
        Note("dealt", "Player6 is dealt 2 cards", 27, "Player6"),
        Action("Player2", 1, ActionKind.CHECK, 28),
        Action("Hero", 1, ActionKind.BET, 29, 150000, 150000),
        Action("Player6", 1, ActionKind.RAISE, 30, 300000, 300000),
        Action("Player2", 1, ActionKind.CALL, 31, 300000),
        Action("Hero", 1, ActionKind.RAISE, 32, 300000, 450000),
        Action("Player6", 1, ActionKind.RAISE, 33, 300000, 600000),
        Action("Player2", 1, ActionKind.CALL, 34, 300000),
        Action("Hero", 1, ActionKind.CALL, 35, 150000),
        Draw("Player2", 2, 1, 37),
        Draw("Hero", 2, 0, 38, (), c("5s 3h 4c 8d 2h"), ()),
        Note("time_left", "Player6 has 15 seconds left to act", 39, "Player6"),
        Note("time_requested", "Player6 has requested TIME", 40, "Player6"),
        Draw("Player6", 2, 0, 41, (), None, ()),
        Note("dealt", "Player2 is dealt 1 card", 42, "Player2"),
        Action("Player2", 2, ActionKind.CHECK, 43),
        Action("Hero", 2, ActionKind.CHECK, 44),
        Action("Player6", 2, ActionKind.CHECK, 45),
        Draw("Player2", 3, 1, 47),
        Draw("Hero", 3, 0, 48, (), c("5s 3h 4c 8d 2h"), ()),
        Draw("Player6", 3, 0, 49, (), None, ()),
        Note("dealt", "Player2 is dealt 1 card", 50, "Player2"),
        Action("Player2", 3, ActionKind.BET, 51, 300000, 300000),
        Action("Hero", 3, ActionKind.CALL, 52, 300000),
        Action("Player6", 3, ActionKind.FOLD, 53),
        Show("Player2", c("8s 6d 4s 3d 2c"), 55),
        Show("Hero", c("8d 5s 4c 3h 2h"), 56),
        Collect("Hero", 4274800, 57),
    )


def test_single_draw_antes_draw_cards_and_sitting_out_seat() -> None:
    hand = only_hand(FTP / "1-Draw-NL-USD-0.10-0.20-201103.txt")
    assert hand.game is Game.SINGLE_DRAW_27 and hand.structure is Structure.NO_LIMIT
    assert hand.stakes == Stakes(10, 20, 20, 20, 5)
    assert hand.seat_of("N804SY") == Seat(4, "N804SY", 1775, 5, sitting_out=True)
    assert hand.posts == (
        Post("Thanks4Coming", PostKind.ANTE, 5, 8),
        Post("mrsjoanmac", PostKind.ANTE, 5, 9),
        Post("Wayren", PostKind.ANTE, 5, 10),
        Post("Sonny090", PostKind.ANTE, 5, 11),
        Post("Hero", PostKind.ANTE, 5, 12),
        Post("Wayren", PostKind.SMALL_BLIND, 10, 13),
        Post("Sonny090", PostKind.BIG_BLIND, 20, 14),
    )
    # Antes do not count as bets: "Wayren calls $0.50" completes his small blind to $0.60.
    assert hand.actions[2:5] == (
        Action("Hero", 0, ActionKind.RAISE, 21, 60, 60),
        Action("Wayren", 0, ActionKind.CALL, 22, 50),
        Action("Sonny090", 0, ActionKind.CALL, 23, 40),
    )
    assert hand.draws == (
        Draw("Wayren", 1, 1, 25),
        Draw("Sonny090", 1, 1, 26),
        Draw("Hero", 1, 2, 27, c("Ah Ts"), c("4s 8h 5c"), c("Qc 5s")),
    )
    assert hand.shows == (
        Show("Sonny090", c("Td 9d 8c 7h 3h"), 36),
        Show("Wayren", c("9s 8s 6c 4h 3d"), 37),
    )
    assert hand.collects == (Collect("Wayren", 347, 38),)
    assert (hand.total_pot, hand.rake) == (365, 18)
    notes = [s for s in hand.steps if isinstance(s, Note)]
    assert notes == [
        Note("time_left", "Hero has 15 seconds left to act", 20, "Hero"),
        Note("dealt", "Wayren is dealt 1 card", 28, "Wayren"),
        Note("dealt", "Sonny090 is dealt 1 card", 29, "Sonny090"),
        Note("sitting_out", "mrsjoanmac is sitting out", 39, "mrsjoanmac"),
    ]


def test_utf16_doubled_file_keeps_the_files_line_numbers() -> None:
    # Every line break is doubled: "Player3 calls $0.20, and is all in" is line 57.
    hand = only_hand(FTP / "3-Draw-Limit-USD-0.10-0.20-201011.txt")
    assert hand.seats[0] == Seat(1, "Player1", 200, 3)
    assert Action("Player3", 2, ActionKind.CALL, 57, 20, None, True) in hand.actions
    # mucks at the showdown, and the summary shows what was mucked
    assert Muck("Player3", 69) in hand.steps
    assert Show("Player3", c("9d 8h 7h 5c 2s"), 83, mucked=True) in hand.steps
    assert Note("leaves", "Player5 stands up", 71, "Player5") in hand.steps
    assert hand.collects == (Collect("Player1", 100, 73),)


def test_dead_small_blind_is_all_dead_and_the_missed_big_blind_live() -> None:
    hand = only_hand(FTP / "3-Draw-Limit-USD-5-10-201211.txt")
    assert hand.posts == (
        Post("Hero", PostKind.SMALL_BLIND, 250, 7),
        Post("Player0", PostKind.BIG_BLIND, 500, 8),
        Post("Player2", PostKind.EXTRA, 250, 9, dead=250),
        Post("Player2", PostKind.EXTRA, 500, 10),
    )
    # The live $5 counts: "raises to $10" adds $5.
    assert hand.actions[1] == Action("Player2", 0, ActionKind.RAISE, 15, 500, 1000)
    assert Uncalled("Player2", 500, 19) in hand.steps
    assert Muck("Player2", 20) in hand.steps
    assert hand.collects == (Collect("Player2", 1500, 21),)


def test_hero_discards_with_kept_and_new_cards_in_pot_limit_five_card_draw() -> None:
    hand = only_hand(FTP / "5-Carddraw-PL-0.10-0.25-201011.Sample.Not.UTF16.txt")
    assert hand.stakes == Stakes(10, 25, 25, 25)
    assert hand.draws == (
        Draw("Hero", 1, 3, 31, c("Jh Kc 3s"), c("Qd Qh"), c("7c Ad 3c")),
        Draw("Player4", 1, 2, 35),
    )
    assert Show("Hero", c("Qd Qh Ad 7c 3c"), 61, mucked=True) in hand.steps


def test_header_stakes_win_over_the_file_name() -> None:
    # The file is named 0.10-0.20 but the header says $0.25/$0.50.
    hand = only_hand(FTP / "5-Carddraw-NL-USD-0.10-0.20-201011.Saw.Showdown.Not.UTF16.txt")
    assert hand.stakes == Stakes(25, 50, 50, 50)
    assert hand.actions[4] == Action("Player2", 0, ActionKind.CALL, 33, 75)


def test_ace_to_five_small_blind_rounds_down() -> None:
    # "$0.05/$0.10" fixed limit: small blind $0.02 as posted, big blind $0.05.
    hand = only_hand(FTP / "A5-3-Draw-Limit-USD-0.05-0.10-201104.Sample.txt")
    assert hand.game is Game.TRIPLE_DRAW_A5
    assert hand.stakes == Stakes(2, 5, 5, 10)
    assert hand.actions == (
        Action("Hero", 0, ActionKind.RAISE, 17, 8, 10),
        Action("Villain", 0, ActionKind.FOLD, 19),
    )
    assert Note("sitting_out", "Villain is sitting out", 21, "Villain") in hand.steps


def test_walk_with_two_players_sitting_out_and_a_duration_line() -> None:
    hand = only_hand(FTP / "3-Draw-Limit-USD-150-300-201011.Hero.and.Player1.sitting.out.txt")
    assert [s.sitting_out for s in hand.seats] == [True, True, False, False, False]
    assert (hand.hero, hand.dealt) == (None, None)
    assert hand.steps[-3:] == (
        Uncalled("Player2", 7500, 14),
        Muck("Player2", 15),
        Collect("Player2", 15000, 16),
    )


def test_sitting_out_said_only_in_the_summary_marks_the_seat() -> None:
    # The seat list shows Hero as a normal seat; the summary says Hero sat out.
    hand = only_hand(FTP / "3-Draw-Limit-USD-250-500-201011.Hero.sitting.out.but.not.listed.txt")
    assert hand.seat_of("Hero") == Seat(6, "Hero", 500000, 6, sitting_out=True)
    assert not any(s.sitting_out for s in hand.seats if s.player != "Hero")


def test_run_together_summary_line_is_kept_as_a_note_and_the_hand_is_read() -> None:
    # "Seat 3: Player4 Seat 4: Player1 (big blind) collected ($0.50), mucked": Full Tilt
    # wrote an unfinished line for a seat nobody holds and ran the next one into it.  The
    # play lines are complete and agree with each other (antes $0.50 + big blind $0.40,
    # $0.40 returned, $0.50 won, total pot $0.50), so the hand is represented faithfully;
    # the corrupt part is kept as a note naming "Player4", who sits nowhere, for the
    # replay to report.
    hand = only_hand(FTP / "1-Draw-NL-USD-0.20-0.40-201211.bad.collect.pot.txt")
    assert hand.steps[-1] == Note(
        "spliced_summary",
        "Seat 3: Player4 Seat 4: Player1 (big blind) collected ($0.50), mucked",
        31,
        "Player4",
    )
    assert hand.seat_of("Player4") is None
    assert (hand.total_pot, hand.rake) == (50, 0)
    assert hand.collects == (Collect("Player1", 50, 26),)
    assert Note("disconnected", "Player2 has been disconnected", 17, "Player2") in hand.steps
    assert Note("reconnected", "Player2 has reconnected", 18, "Player2") in hand.steps


def test_partial_and_dead_hands_are_incomplete() -> None:
    (partial,) = outcomes(FTP / "3-Draw-Limit-USD-20-40-201101.Partial.txt")
    assert partial == Skipped(
        "incomplete",
        "a partial hand: Full Tilt wrote only its summary",
        site="fulltilt",
        file=str(FTP / "3-Draw-Limit-USD-20-40-201101.Partial.txt"),
        line=1,
        hand_id="27020940000",
        game="2-7 Triple Draw",
    )  # fmt: skip
    (dead,) = outcomes(FTP / "3-Draw-Limit-USD-10-20-201101.Dead.hand.txt")
    assert isinstance(dead, Skipped)
    assert (dead.kind, dead.reason, dead.hand_id) == (
        "incomplete", "a dead hand: no cards were dealt", "26884156000",
    )  # fmt: skip


@pytest.mark.parametrize(
    "name",
    [
        "27SD-USD-MTT-1-201303.txt",
        "27TD-USD-HUSnG-201101.Hero.wins.txt",
        "3-Draw-Limit-USD-STT-2max-10-201211.Hero.loses.txt",
    ],
)
def test_tournament_summaries_are_incomplete(name: str) -> None:
    (out,) = outcomes(SUMMARIES / name)
    assert isinstance(out, Skipped)
    assert (out.kind, out.reason, out.line) == (
        "incomplete", "a tournament summary: it holds no hand", 1,
    )  # fmt: skip


TOURNAMENT_HEADER = (
    "Full Tilt Poker Game #22431220930: $5 + $0.50 Sit & Go (191669829), Table 1 - 15/30"
    " - Limit 2-7 Triple Draw - 20:43:46 ET - 2010/07/24"
)
TOURNAMENT_HAND = (
    TOURNAMENT_HEADER
    + """
Seat 1: Alice (1,485)
Seat 2: Bob (1,515)
Alice posts the small blind of 7
Bob posts the big blind of 15
The button is in seat #1
*** HOLE CARDS ***
Dealt to Alice [7h 5d 4c 3s 2h]
Alice raises to 30
Bob folds
Uncalled bet of 15 returned to Alice
Alice mucks
Alice wins the pot (30)
*** SUMMARY ***
Total pot 30 | Rake 0
Seat 1: Alice (small blind) collected (30), mucked
Seat 2: Bob (big blind) folded before the Draw
"""
)


def test_tournament_hand_amounts_are_chips_in_hundredths() -> None:
    ((_, hand),) = list(read_text(TOURNAMENT_HAND, "t.txt"))
    assert isinstance(hand, Hand)
    assert hand.tournament == Tournament("191669829", 500, 50)
    assert (hand.currency, hand.table) == ("chips", "1")
    assert hand.stakes == Stakes(750, 1500, 1500, 3000)
    assert hand.seats[0] == Seat(1, "Alice", 148500, 2)
    assert hand.actions[0] == Action("Alice", 0, ActionKind.RAISE, 9, 2300, 3000)


ALL_IN_TOURNAMENT_HAND = (
    "Full Tilt Poker Game #22431220931: $5 + $0.50 Sit & Go (191669829), Table 1 - 80/160"
    " - Limit 2-7 Triple Draw - 20:50:00 ET - 2010/07/24"
    """
Seat 1: Alice (65)
Seat 2: Bob (2,935)
Alice posts the small blind of 40
Bob posts the big blind of 80
The button is in seat #1
Bob: gl
*** HOLE CARDS ***
Dealt to Alice [7s Kh 3c 4d 9h]
Alice calls 25, and is all in
Uncalled bet of 15 returned to Bob
*** FIRST DRAW *** (Total Pot: 130, 2 Players, 1 All-In)
Bob discards 3 cards
Alice discards 2 cards [Kh 9h]
Bob is dealt 3 cards
Dealt to Alice [7s 3c 4d] [4h Tc]
*** SHOW DOWN ***
Bob shows [9s 8h 6s 5h 3d] 9,8,6,5,3
Alice mucks
Bob wins the pot (130) with 9,8,6,5,3
*** SUMMARY ***
Total pot 130 | Rake 0
Seat 1: Alice (small blind) mucked [4h Tc 7s 4d 3c] - a pair of Fours
Seat 2: Bob (big blind) showed [9s 8h 6s 5h 3d] and won (130) with 9,8,6,5,3
"""
)


def test_tournament_all_in_before_the_draw_with_its_marker_wording() -> None:
    ((_, hand),) = list(read_text(ALL_IN_TOURNAMENT_HAND, "t.txt"))
    assert isinstance(hand, Hand)
    assert hand.stakes == Stakes(4000, 8000, 8000, 16000)
    assert hand.steps[2:6] == (
        Note("chat", "Bob: gl", 7, "Bob"),
        Action("Alice", 0, ActionKind.CALL, 10, 2500, None, True),
        Uncalled("Bob", 1500, 11),
        Draw("Bob", 1, 3, 13),
    )
    assert hand.draws[1] == Draw("Alice", 1, 2, 14, c("Kh 9h"), c("7s 3c 4d"), c("4h Tc"))
    assert (hand.total_pot, hand.collects) == (13000, (Collect("Bob", 13000, 20),))


def test_holdem_hand_is_unsupported_not_an_error() -> None:
    text = (
        "Full Tilt Poker Game #1: Table X (6 max) - $1/$2 - No Limit Hold'em"
        " - 1:00:00 ET - 2010/01/01\n"
    )
    ((_, out),) = list(read_text(text + "Seat 1: A ($100)\n", "h.txt"))
    assert out == Skipped(
        "unsupported",
        "Hold'em is not a game DrawLab replays",
        site="fulltilt",
        file="h.txt",
        line=1,
        hand_id="1",
        game="Hold'em",
    )  # fmt: skip


def test_unknown_line_inside_a_hand_is_a_warning_at_its_line() -> None:
    lines = TOURNAMENT_HAND.splitlines()
    lines.insert(9, "Bob does a little dance")
    ((_, out),) = list(read_text("\n".join(lines), "odd.txt"))
    ((_, plain),) = list(read_text(TOURNAMENT_HAND, "odd.txt"))
    assert isinstance(out, Hand) and isinstance(plain, Hand)
    assert out.warnings == (
        Problem(UNKNOWN_LINE, Severity.WARNING, 10,
                "a line this reader does not know: Bob does a little dance"),
    )  # fmt: skip
    # every other line is read as before, one line further down
    assert [s.line for s in out.steps] == [s.line + (s.line >= 10) for s in plain.steps]


def test_line_out_of_place_is_a_warning_and_the_replay_judges_the_rest() -> None:
    lines = TOURNAMENT_HAND.splitlines()
    at = lines.index("*** SUMMARY ***") + 1
    lines.insert(at, "Bob checks")  # play after the summary began
    ((_, out),) = list(read_text("\n".join(lines), "order.txt"))
    ((_, plain),) = list(read_text(TOURNAMENT_HAND, "order.txt"))
    assert isinstance(out, Hand) and isinstance(plain, Hand)
    assert out.warnings == (
        Problem(UNKNOWN_LINE, Severity.WARNING, at + 1, "a line out of place: Bob checks"),
    )
    assert out.steps == plain.steps


def test_bad_amount_on_a_known_line_is_a_positioned_error() -> None:
    text = TOURNAMENT_HAND.replace("Alice raises to 30", "Alice raises to 3,0,0")
    chunk = HandText("amt.txt", 1, text.rstrip("\n"), "fulltilt")
    with pytest.raises(ParseError) as info:
        FullTiltReader().parse(chunk)
    assert (info.value.line, info.value.line_text) == (9, "Alice raises to 3,0,0")
    assert "not an amount" in info.value.message


def test_a_seated_players_bet_that_does_not_read_is_a_positioned_error() -> None:
    text = TOURNAMENT_HAND.replace("Alice raises to 30", "Alice raises to thirty")
    ((_, out),) = list(read_text(text, "amt.txt"))
    assert isinstance(out, ParseError)
    assert (out.line, out.column, out.line_text) == (9, 1, "Alice raises to thirty")
    assert out.message == "a line about chips or cards that does not read"


def test_other_hands_of_a_file_survive_a_bad_one() -> None:
    bad = TOURNAMENT_HAND.replace("Bob folds", "Bob calls lots")
    results = [o for _, o in read_text(bad + "\n" + TOURNAMENT_HAND, "two.txt")]
    assert [type(o) for o in results] == [ParseError, Hand]
    assert isinstance(results[1], Hand) and results[1].line == 19


MIX_HEADER = (
    "Full Tilt Poker Game #29704292700: Table Jackrabbit (6 max) - $0.50/$1 Ante $0.25"
    " - No Limit 2-7 Single Draw - 19:44:24 CET - 2011/04/07 [13:44:24 ET - 2011/04/07]"
)
MIX_HAND = (
    MIX_HEADER
    + """
Seat 1: Alice ($100)
Seat 2: Bob ($98.75)
Seat 3: Carol ($50), is sitting out
Alice antes $0.25
Bob antes $0.25
Alice posts the small blind of $0.50
Bob posts the big blind of $1
The button is in seat #1
*** HOLE CARDS ***
Dealt to Alice [7h 5d 4c 3s Kh]
Carol stands up
Alice has 15 seconds left to act
Alice has been disconnected
Alice has reconnected
Alice is feeling confused
Alice raises to $3
Carol sits down
Bob is feeling happy
Bob calls $2
Carol adds $5
*** DRAW *** (Pot: $6.50)
Bob discards 2 cards
Alice discards 1 card [Kh]
Bob is dealt 2 cards
Dealt to Alice [7h 5d 4c 3s] [2h]
Bob checks
Alice bets $5
Bob folds
Uncalled bet of $5 returned to Alice
Alice mucks
Alice wins the pot ($6.30)
*** SUMMARY ***
Total pot $6.50 | Rake $0.20
Seat 1: Alice (small blind) collected ($6.30), mucked
Seat 2: Bob (big blind) folded after the Draw
Seat 3: Carol is sitting out
"""
)


def test_ten_game_mix_header_takes_the_et_time_in_utc_and_the_ante() -> None:
    ((_, hand),) = list(read_text(MIX_HAND, "mix.txt"))
    assert isinstance(hand, Hand), hand
    assert (hand.hand_id, hand.table, hand.game, hand.structure, hand.max_seats) == (
        "29704292700", "Jackrabbit", Game.SINGLE_DRAW_27, Structure.NO_LIMIT, 6,
    )  # fmt: skip
    assert hand.stakes == Stakes(50, 100, 100, 100, 25)
    assert hand.time == datetime(2011, 4, 7, 17, 44, 24, tzinfo=UTC)
    assert hand.time.tzinfo is UTC
    assert hand.warnings == ()


def test_ten_game_mix_chatter_between_actions_is_read_as_notes() -> None:
    ((_, hand),) = list(read_text(MIX_HAND, "mix.txt"))
    assert isinstance(hand, Hand), hand
    notes = [(n.kind, n.line, n.player) for n in hand.steps if isinstance(n, Note)]
    assert notes == [
        ("leaves", 12, "Carol"), ("time_left", 13, "Alice"), ("disconnected", 14, "Alice"),
        ("reconnected", 15, "Alice"), ("mood", 16, "Alice"), ("joins", 18, "Carol"),
        ("mood", 19, "Bob"), ("add_on", 21, "Carol"), ("dealt", 25, "Bob"),
    ]  # fmt: skip
    # the top-up is kept with its amount: the next hand at the table may start $5 higher
    assert [n.amount for n in hand.steps if isinstance(n, Note) and n.kind == "add_on"] == [500]
    assert next(a for a in hand.actions if a.player == "Bob") == Action(
        "Bob", 0, ActionKind.CALL, 20, 200
    )
    assert hand.draws == (
        Draw("Bob", 1, 2, 23),
        Draw("Alice", 1, 1, 24, c("Kh"), c("7h 5d 4c 3s"), c("2h")),
    )


def test_ten_game_mix_hand_replays_ok() -> None:
    ((_, hand),) = list(read_text(MIX_HAND, "mix.txt"))
    assert isinstance(hand, Hand), hand
    assert replay(hand).verdict.problems == ()


def test_local_time_alone_is_taken_in_its_zone() -> None:
    text = MIX_HAND.replace(" [13:44:24 ET - 2011/04/07]", "")
    ((_, hand),) = list(read_text(text, "mix.txt"))
    assert isinstance(hand, Hand), hand
    assert hand.time == datetime(2011, 4, 7, 17, 44, 24, tzinfo=UTC)  # CEST is UTC+2


def test_every_draw_hand_of_the_ten_game_mix_file_is_ok() -> None:
    path = CORPUS / "cash/FTP/Mix/10Game-6max-USD-2.50-5.201104.Sample.txt"
    results = outcomes(path)
    hands = [o for o in results if isinstance(o, Hand)]
    skipped = [o for o in results if isinstance(o, Skipped)]
    assert len(results) == 84
    assert Counter(h.game for h in hands) == {
        Game.TRIPLE_DRAW_27: 10, Game.SINGLE_DRAW_27: 10, Game.BADUGI: 10,
    }  # fmt: skip
    badugi = [h for h in hands if h.game is Game.BADUGI]
    assert {len(h.dealt or ()) for h in badugi} == {4}  # Hero's four cards
    assert {len(s.cards) for h in badugi for s in h.shows} == {4}
    assert Counter(s.game for s in skipped) == {
        "Hold'em": 13, "Omaha Hi": 10, "Omaha H/L": 1, "Razz": 10,
        "Stud H/L": 10, "Stud Hi": 10,
    }  # fmt: skip
    assert {s.kind for s in skipped} == {"unsupported"}
    assert [h.hand_id for h in hands if not replay(h).verdict.ok] == []


def test_2013_header_puts_the_game_before_the_stakes() -> None:
    text = (
        TOURNAMENT_HAND.replace(
            TOURNAMENT_HEADER,
            "Full Tilt Poker Game #32617272180: Table Clackers (New to the Game)"
            " - FL 2-7 Triple Draw - $0.10/$0.20 - 10:18:16 ET - 2013/05/08",
        )
        .replace(" (1,485)", " ($1,485)")
        .replace(" (1,515)", " ($1,515)")
    )
    ((_, hand),) = list(read_text(text, "2013.txt"))
    assert isinstance(hand, Hand), hand
    assert (hand.hand_id, hand.table, hand.game, hand.structure) == (
        "32617272180", "Clackers", Game.TRIPLE_DRAW_27, Structure.FIXED,
    )  # fmt: skip
    assert hand.stakes == Stakes(5, 10, 10, 20)
    assert hand.time == datetime(2013, 5, 8, 10, 18, 16, tzinfo=ET)
    badugi = text.replace("FL 2-7 Triple Draw", "FL Badugi")
    ((_, out),) = list(read_text(badugi, "b.txt"))
    assert isinstance(out, Hand) and (out.game, out.structure) == (Game.BADUGI, Structure.FIXED)


def test_other_game_with_an_unusual_header_is_still_unsupported() -> None:
    text = "Full Tilt Poker Game #9: Table X - Match 1 - $1/$2 - Limit Razz - odd\n"
    ((_, out),) = list(read_text(text, "r.txt"))
    assert out == Skipped(
        "unsupported",
        "Razz is not a game DrawLab replays",
        site="fulltilt",
        file="r.txt",
        line=1,
        hand_id="9",
        game="Razz",
    )


def test_a_sit_and_go_result_after_the_last_pot_is_a_note() -> None:
    text = ALL_IN_TOURNAMENT_HAND.replace(
        "Bob wins the pot (130) with 9,8,6,5,3\n",
        "Bob wins the pot (130) with 9,8,6,5,3\nAlice finished the tournament in 2nd place\n"
        "Bob wins the tournament and receives $9.50 - congratulations!\n",
    )
    ((_, hand),) = list(read_text(text, "t.txt"))
    assert isinstance(hand, Hand), hand
    assert hand.warnings == ()
    assert [(n.kind, n.player) for n in hand.steps if isinstance(n, Note)][-2:] == [
        ("finished", "Alice"), ("finished", "Bob"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("attrs", "seats"), [("6 max, rush", 6), ("heads up", 2), ("deep 6", None), ("2 max", 2)]
)
def test_table_attributes_of_rush_deep_and_heads_up_tables(attrs: str, seats: int | None) -> None:
    text = MIX_HAND.replace("Table Jackrabbit (6 max)", f"Table Orion ({attrs})")
    ((_, hand),) = list(read_text(text, "rush.txt"))
    assert isinstance(hand, Hand), hand
    assert (hand.table, hand.max_seats, hand.warnings) == ("Orion", seats, ())


def test_full_tilt_poker_and_fulltiltpoker_headers_read_alike() -> None:
    ((_, a),) = list(read_text(MIX_HAND, "a.txt"))
    older = MIX_HAND.replace("Full Tilt Poker Game", "FullTiltPoker Game")
    ((_, b),) = list(read_text(older, "a.txt"))
    assert a == b
