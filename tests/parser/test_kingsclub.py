"""KingsClub reader: exact records from the corpus, and the choices on its faulty files."""

from __future__ import annotations

from datetime import datetime

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
from parser.outcome import ParseError
from parser.reader import read_path, read_text
from tests.corpus import CORPUS

KC = CORPUS / "cash/KingsClub/Draw"


def c(text: str) -> tuple[int, ...]:
    return parse_cards(text, distinct=False)


def only_hand(name: str) -> Hand:
    ((_, out),) = list(read_path(KC / name))
    assert isinstance(out, Hand), out
    return out


def chips_in(hand: Hand, player: str) -> int:
    posted = sum(p.amount for p in hand.posts if p.player == player)
    return posted + sum(a.amount for a in hand.actions if a.player == player)


def test_heads_up_triple_draw_calls_state_the_street_total() -> None:
    hand = only_hand("2-7 Triple Draw Lowball-FL-USD-40-80-202101.txt")
    assert (hand.site, hand.hand_id, hand.table, hand.button) == (
        "kingsclub", "39969256", "8 Game Mix", 1,
    )  # fmt: skip
    assert (hand.game, hand.structure) == (Game.TRIPLE_DRAW_27, Structure.FIXED)
    assert hand.stakes == Stakes(2000, 4000, 4000, 8000)
    assert hand.time == datetime(2021, 1, 2, 15, 42, 6)
    assert hand.seats == (Seat(1, "Player0", 47850, 4), Seat(6, "Hero", 175550, 5))
    assert (hand.hero, hand.dealt) == ("Hero", c("Ts 8h Jh 4c 6h"))
    # "Hero calls 80" after a big blind of 40 adds 40.
    assert hand.actions[:2] == (
        Action("Player0", 0, ActionKind.RAISE, 11, 6000, 8000),
        Action("Hero", 0, ActionKind.CALL, 12, 4000),
    )
    assert hand.draws == (
        Draw("Hero", 1, 2, 14, c("Ts Jh"), c("8h 4c 6h"), c("3c 6c")),
        Draw("Player0", 1, 2, 15),
        Draw("Hero", 2, 1, 21, c("6c"), c("8h 4c 6h 3c"), c("2c")),
        Draw("Player0", 2, 0, 22, (), None, ()),
        Draw("Hero", 3, 0, 29, (), None, ()),
        Draw("Player0", 3, 0, 30, (), None, ()),
    )
    assert hand.shows == (
        Show("Hero", c("3c 8h 2c 4c 6h"), 34),
        Show("Player0", c("4h 7s 2h 8d 5s"), 35),
    )
    assert hand.collects == (Collect("Hero", 79900, 40),)
    assert (hand.rake, hand.total_pot) == (100, None)
    assert hand.net == (("Player0", -40000), ("Hero", 39900))
    # the record's bookkeeping agrees with the site's nets
    assert chips_in(hand, "Player0") == 40000
    assert 79900 - chips_in(hand, "Hero") == 39900


def test_posts_blind_is_both_missed_blinds_with_the_small_one_dead() -> None:
    # "Player1: posts blind 44" cost 66: Player1 only posts an 11 ante and folds, and
    # the summary says -77.  So it is 44 live plus the 22 small blind dead.
    hand = only_hand("2-7 Triple Draw Lowball-FL-USD-44-88-202012.rake.txt")
    assert hand.stakes == Stakes(2200, 4400, 4400, 8800, 1100)
    assert hand.posts[-3:] == (
        Post("Player3", PostKind.SMALL_BLIND, 2200, 19),
        Post("Hero", PostKind.BIG_BLIND, 4400, 20),
        Post("Player1", PostKind.BOTH_BLINDS, 6600, 21, dead=2200),
    )
    assert dict(hand.net)["Player1"] == -7700 == -chips_in(hand, "Player1")
    # every chip is accounted for: collected + rake = everything put in
    total = sum(chips_in(hand, s.player) for s in hand.seats)
    assert total == 119400 + 500 == sum(c.amount for c in hand.collects) + (hand.rake or 0)


def test_single_draw_without_street_markers_opens_the_draw_on_its_first_line() -> None:
    hand = only_hand("A5-1-Draw-Limit-USD-50-100-202102.txt")
    assert hand.game is Game.SINGLE_DRAW_A5
    assert hand.draws == (
        Draw("Hero", 1, 3, 12, c("Tc Ks Qc"), c("4c As"), c("7s 3h 3s")),
        Draw("Player0", 1, 0, 13, (), None, ()),
    )
    assert hand.actions[2:] == (
        Action("Hero", 1, ActionKind.CHECK, 14),
        Action("Player0", 1, ActionKind.CHECK, 15),
    )
    assert hand.seats[0] == Seat(1, "Player0", 138900, 4)  # "1,389"


def test_run_it_twice_draw_is_one_draw_per_run_with_the_same_discards() -> None:
    hand = only_hand("NL-2-7-SD-USD-25-50-202108.2.RIT.txt")
    assert hand.draws == (
        Draw("Hero", 1, 1, 29, c("Th"), c("5d 7h Td 2h"), c("8c"), run=1),
        Draw("Hero", 1, 1, 29, c("Th"), c("5d 7h Td 2h"), c("Qs"), run=2),
        Draw("Player1", 1, 0, 30, (), None, (), run=1),
        Draw("Player1", 1, 0, 30, (), None, (), run=2),
    )
    assert hand.shows == (
        Show("Hero", c("5d 7h 8c Td 2h"), 31, run=1),
        Show("Hero", c("5d 7h Qs Td 2h"), 32, run=2),
        Show("Player1", c("6c 8s 7s 2c 5c"), 33),
    )
    assert hand.actions[-2:] == (
        Action("Player1", 0, ActionKind.RAISE, 26, 113000, 118000, True),
        Action("Hero", 0, ActionKind.CALL, 27, 103000, None, True),
    )
    assert hand.collects == (Collect("Player1", 245300, 42),)


def test_run_it_twice_hidden_draw_runs_twice_too() -> None:
    # "Player4 draws 2" is one line, but the draw was dealt once per run.
    hand = only_hand("NL-2-7-SD-USD-25-50-202108.1.RIT.txt")
    assert hand.draws == (
        Draw("Player4", 1, 2, 37, run=1),
        Draw("Player4", 1, 2, 37, run=2),
        Draw("Player2", 1, 0, 38, (), None, (), run=1),
        Draw("Player2", 1, 0, 38, (), None, (), run=2),
    )
    assert hand.shows[1:] == (
        Show("Player4", c("4c 8d 6h 2h 7h"), 40, run=1),
        Show("Player4", c("4c 8d 6h 2h 5c"), 41, run=2),
    )
    assert (hand.rake, dict(hand.net)["Player4"]) == (700, 131800)


def test_win_without_showdown_and_silently_returned_bet() -> None:
    # KingsClub writes no "uncalled" line: Hero's last 88 came back unsaid, as the net
    # (+732 = 1,139 won - 407 put in, not 495) shows.  Recorded as written.
    hand = only_hand("A5-3-Draw-Limit-USD-44-88-202010.txt")
    assert hand.game is Game.TRIPLE_DRAW_A5
    assert hand.actions[-2:] == (
        Action("Hero", 3, ActionKind.BET, 57, 8800, 8800),
        Action("Player3", 3, ActionKind.FOLD, 58),
    )
    assert hand.shows == ()
    assert hand.collects == (Collect("Hero", 113900, 67),)
    assert chips_in(hand, "Hero") - 8800 == 113900 - 73200


def test_wins_pot_disagreeing_with_the_nets_is_recorded_as_written() -> None:
    # "Player0 wins pot (1,350)" but the nets say +875: the pot was 1,475 with 250 of
    # Player0's raise uncalled, so he won 1,225.  Both statements are kept as the site
    # wrote them (the collect and Hand.net) so that the replay reports the disagreement
    # at line 38; refusing the hand would lose a hand whose play lines are all sound.
    hand = only_hand("NL-2-7-SD-USD-125-250-202103.missed.sb.txt")
    assert hand.collects == (Collect("Player0", 135000, 38),)
    assert dict(hand.net)["Player0"] == 87500
    assert sum(chips_in(hand, s.player) for s in hand.seats) == 147500
    assert (hand.rake, hand.total_pot) == (None, None)


def test_corrupt_draw_cards_are_recorded_for_the_replay_to_flag() -> None:
    # In the draw, "Dealt to Hero: [6h Ks Ks]" repeats a card Hero already holds and
    # "Dealt to Player3: [X X X X X X]" deals six.  A "Dealt to" line inside a draw can
    # only mean the cards that draw gave, so they are recorded as written - three cards
    # with Ks twice, six hidden ones - and the replay points at lines 29 and 31.  The
    # rest of the hand (a three-way all-in, a side pot split) is sound and worth keeping.
    hand = only_hand("NL-2-7-SD-USD-125-250-202103.RIT.txt")
    assert hand.dealt == c("4c 3d 7h Ks 2c")
    assert hand.draws == (
        Draw("Hero", 1, 3, 29, None, None, c("6h Ks Ks")),
        Draw("Player0", 1, 0, 30, (), None, ()),
        Draw("Player3", 1, 6, 31),
    )
    assert hand.collects == (
        Collect("Player0", 922500, 42, pot=1),
        Collect("Hero", 922500, 43, pot=1),
        Collect("Player0", 126250, 44, pot=0),
        Collect("Hero", 126250, 45, pot=0),
    )
    assert hand.net == (
        ("Player0", 48750),
        ("Player1", -10000),
        ("Player3", -77500),
        ("Player4", -10000),
        ("Hero", 48750),
    )
    assert Action("Player3", 0, ActionKind.RAISE, 23, 67500, 67500, True) in hand.actions


def test_unknown_line_is_a_warning_at_its_line_and_the_rest_is_read() -> None:
    plain = (KC / "A5-1-Draw-Limit-USD-50-100-202102.txt").read_text()
    text = plain.replace("Player0 stands pat", "Player0 ponders")
    ((_, out),) = list(read_text(text, "kc.txt"))
    ((_, before),) = list(read_text(plain, "kc.txt"))
    assert isinstance(out, Hand) and isinstance(before, Hand)
    assert out.warnings == (
        Problem(UNKNOWN_LINE, Severity.WARNING, 13,
                "a line this reader does not know: Player0 ponders"),
    )  # fmt: skip
    assert out.steps == tuple(s for s in before.steps if s.line != 13)


def test_chat_is_a_note_and_a_bet_that_does_not_read_an_error() -> None:
    plain = (KC / "A5-1-Draw-Limit-USD-50-100-202102.txt").read_text()
    text = plain.replace("Player0 stands pat", "Player0: nice hand\nPlayer0 stands pat")
    ((_, out),) = list(read_text(text, "kc.txt"))
    assert isinstance(out, Hand) and out.warnings == ()
    assert Note("chat", "Player0: nice hand", 13, "Player0") in out.steps
    bad = plain.replace("Player0 stands pat", "Player0 bets a lot")
    ((_, err),) = list(read_text(bad, "kc.txt"))
    assert isinstance(err, ParseError)
    assert (err.line, err.line_text) == (13, "Player0 bets a lot")


def test_holdem_hand_of_a_mixed_table_is_unsupported() -> None:
    text = "#1: No Limit Hold'em - 25/50\n2021-01-01 00:00:00\nTable 'Mix' Seat 1 is the button\n"
    ((_, out),) = list(read_text(text, "mix.txt"))
    assert not isinstance(out, Hand | ParseError)
    assert (out.kind, out.game) == ("unsupported", "Hold'em")
