"""Badugi hands end to end: PokerStars text read, replayed, written back; dealt hands."""

from __future__ import annotations

from collections import Counter

import pytest

from analysis.statistics.facts import hand_facts
from analysis.statistics.hand_classes import BADUGI_CLASSES, hand_class, is_made
from engine.cards import parse_cards
from engine.record import Draw, Game, Hand, Show, Stakes, Structure
from engine.sim.dealer import deal_hands
from engine.verify import verify
from parser.pokerstars_writer import write_pokerstars
from parser.reader import read_text
from tests.parser_corpus import without_position

HAND = """\
PokerStars Hand #11:  Badugi Limit ($0.10/$0.20 USD) - 2013/07/01 12:00:00 ET
Table 'Tbl' 8-max Seat #1 is the button
Seat 1: Ann ($10 in chips)
Seat 2: Bob ($10 in chips)
Ann: posts small blind $0.05
Bob: posts big blind $0.10
*** DEALING HANDS ***
Dealt to Ann [7h 3s 5h 6d]
Ann: raises $0.10 to $0.20
Bob: calls $0.10
*** FIRST DRAW ***
Bob: discards 4 cards
Ann: discards 1 card [5h]
Dealt to Ann [7h 3s 6d] [2c]
Bob: checks
Ann: bets $0.10
Bob: calls $0.10
*** SECOND DRAW ***
Bob: discards 1 card
Ann: stands pat
Bob: bets $0.20
Ann: calls $0.20
*** THIRD DRAW ***
Bob: stands pat
Ann: stands pat
Bob: checks
Ann: checks
*** SHOW DOWN ***
Bob: shows [8c 4d 2h As] (Badugi: 8,4,2,A)
Ann: shows [7h 3s 6d 2c] (Badugi: 7,6,3,2)
Ann collected $1 from pot
*** SUMMARY ***
Total pot $1 | Rake $0
Seat 1: Ann (button) (small blind) showed [7h 3s 6d 2c] and won ($1) with Badugi: 7,6,3,2
Seat 2: Bob (big blind) showed [8c 4d 2h As] and lost with Badugi: 8,4,2,A
"""


def read_one(text: str) -> Hand:
    results = list(read_text(text, "b.txt"))
    assert len(results) == 1
    hand = results[0][1]
    assert isinstance(hand, Hand), hand
    return hand


def test_pokerstars_badugi_hand_reads_and_replays_ok() -> None:
    hand = read_one(HAND)
    assert (hand.game, hand.structure, hand.stakes) == (
        Game.BADUGI,
        Structure.FIXED,
        Stakes(5, 10, 10, 20),
    )
    assert hand.dealt == parse_cards("7h 3s 5h 6d")
    draws = [(s.player, s.draw, s.count) for s in hand.steps if isinstance(s, Draw)]
    assert draws == [
        ("Bob", 1, 4),
        ("Ann", 1, 1),
        ("Bob", 2, 1),
        ("Ann", 2, 0),
        ("Bob", 3, 0),
        ("Ann", 3, 0),
    ]
    shows = [(s.player, s.cards) for s in hand.steps if isinstance(s, Show)]
    assert shows == [("Bob", parse_cards("8c 4d 2h As")), ("Ann", parse_cards("7h 3s 6d 2c"))]
    verdict = verify(hand)
    assert verdict.problems == ()


def test_the_wrong_winner_is_caught_by_the_badugi_ranking() -> None:
    # Bob's 8-4-2-A badugi loses to Ann's 7-6-3-2: paying Bob is a wrong award.
    text = HAND.replace("Ann collected $1 from pot", "Bob collected $1 from pot")
    codes = {p.code for p in verify(read_one(text)).problems}
    assert "WRONG_WINNER" in codes, codes


def test_five_cards_drawn_or_five_cards_dealt_are_errors() -> None:
    five = HAND.replace("Dealt to Ann [7h 3s 5h 6d]", "Dealt to Ann [7h 3s 5h 6d Kc]")
    assert not verify(read_one(five)).ok
    drawn = HAND.replace("Bob: discards 4 cards", "Bob: discards 5 cards")
    assert not verify(read_one(drawn)).ok


def test_written_back_in_pokerstars_words() -> None:
    hand = read_one(HAND)
    text = write_pokerstars(hand)
    assert "Badugi Limit ($0.10/$0.20 USD)" in text.splitlines()[0]
    assert "Ann: shows [7h 3s 6d 2c] (Badugi: 7,6,3,2)" in text
    assert "Bob: shows [8c 4d 2h As] (Badugi: 8,4,2,A)" in text
    assert "*** THIRD DRAW ***" in text
    assert without_position(read_one(text)) == without_position(hand)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_dealt_badugi_hands_verify_and_round_trip(players: int) -> None:
    counts: Counter[int] = Counter()
    for hand in deal_hands(60, Game.BADUGI, players, seed=players * 7 + 1):
        assert hand.game is Game.BADUGI
        assert verify(hand).problems == (), hand.hand_id
        assert len(hand.dealt or ()) in (0, 4)
        back = read_one(write_pokerstars(hand))
        assert verify(back).problems == (), hand.hand_id
        counts.update(s.count for s in hand.steps if isinstance(s, Draw))
    assert set(counts) <= {0, 1, 2, 3, 4}
    assert counts[0] and counts[1] and counts[2]


def test_facts_count_each_draw_and_class_the_showdown_in_badugi_terms() -> None:
    facts = {f.player: f for f in hand_facts(read_one(HAND))}
    assert {p: (f.drawn_1, f.drawn_2, f.drawn_3) for p, f in facts.items()} == {
        "Ann": (1, 0, 0),
        "Bob": (4, 1, 0),
    }
    assert {p: f.final_class for p, f in facts.items()} == {
        "Ann": "4-card 7-high badugi",
        "Bob": "4-card 8-high badugi",
    }
    # Ann stood pat on a made badugi on the second and third draws: not a snow.
    assert (facts["Ann"].snow_opp, facts["Ann"].snowed) == (True, False)


@pytest.mark.parametrize(
    ("text", "cls", "made"),
    [
        ("Ac 2d 3h 4s", "4-card 4-high badugi", True),
        ("6c 4d 3h As", "4-card 6-high badugi", True),
        ("Kc Qd Jh Ts", "4-card 9-high or worse badugi", True),
        ("2c 3c 4d 5h", "three-card", False),
        ("As Ad 5c 5h", "two-card", False),
        ("Kc Kd Kh Ks", "one-card", False),
    ],
)
def test_badugi_hand_classes(text: str, cls: str, made: bool) -> None:
    assert hand_class(parse_cards(text), Game.BADUGI) == cls
    assert is_made(parse_cards(text), Game.BADUGI) is made
    assert cls in BADUGI_CLASSES
    assert hand_class(parse_cards("Ac 2d 3h 4s 5c"), Game.BADUGI) is None
