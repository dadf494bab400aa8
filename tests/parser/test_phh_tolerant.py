"""PHH read tolerantly: pokerkit's own data (televised final tables) with every key it
writes, unknown keys as warnings, and the warnings a record carries kept through PHH."""

from __future__ import annotations

from datetime import UTC, datetime

from engine.cards import parse_cards
from engine.problems import UNKNOWN_LINE
from engine.record import (
    Action,
    ActionKind,
    Collect,
    Draw,
    Hand,
    Note,
    Post,
    PostKind,
    Seat,
    Show,
    Stakes,
)
from engine.verdict import Problem, Severity
from parser.merge import MergeReader
from parser.outcome import HandText
from parser.phh import read_phh, write_phh
from parser.reader import read_text
from tests.corpus import CORPUS

# As pokerkit's dataset writes a hand of a televised final table: a big-blind ante, the
# descriptive keys, user-defined keys, and one key of no standard.
WSOP = """\
variant = "N2L1D"
ante_trimming_status = true
antes = [0, 225000, 0, 0, 0]
blinds_or_straddles = [112500, 225000, 0, 0, 0]
min_bet = 225000
starting_stacks = [5000000, 7000000, 3000000, 1200000, 9000000]
actions = [
  "d dh p1 ??????????",
  "d dh p2 ??????????",
  "d dh p3 ??????????",
  "d dh p4 7c5d4h3s2c",
  "d dh p5 ??????????",
  "p3 f",
  "p4 cbr 1200000",
  "p5 f",
  "p1 f",
  "p2 cc",
  "p2 sd ??",
  "p4 sd",
  "d dh p2 8h",
  "p4 sm 7c5d4h3s2c",
  "p2 sm 8h6s4c3d2h",
]
author = "Juho Kim"
event = "2023 World Series of Poker Event #43: $50,000 Poker Players Championship"
url = "https://www.pokergo.com/"
address = "3655 Las Vegas Blvd S"
city = "Las Vegas"
region = "Nevada"
postal_code = "89109"
country = "United States of America"
time = 21:15:00
time_zone = "America/Los_Angeles"
day = 20
month = 6
year = 2023
hand = 41
level = 25
seat_count = 8
seats = [1, 2, 4, 6, 8]
players = ["Chris Brewer", "Daniel Negreanu", "Jason Mercier", "Bryn Kenney", "Phil Ivey"]
finishing_stacks = [4887500, 5575000, 3000000, 2737500, 9000000]
_venue_notes = "user field"
rubbish_key = 3

[_broadcast]
episode = 4
"""


def c(text: str) -> tuple[int, ...]:
    return parse_cards(text)


def test_pokerkits_final_table_hand_reads_with_its_descriptive_and_user_keys() -> None:
    ((_, out),) = list(read_text(WSOP, "wsop.phh"))
    assert isinstance(out, Hand)
    assert (out.site, out.hand_id, out.max_seats, out.button) == ("phh", "41", 8, 8)
    assert out.time == datetime(2023, 6, 21, 4, 15, tzinfo=UTC)  # 21:15 in Las Vegas
    assert out.stakes == Stakes(11250000, 22500000, 22500000, 22500000)
    assert out.seats[3] == Seat(6, "Bryn Kenney", 120000000, 6)
    # the big blind's ante is dead money posted with his blind
    assert out.posts == (
        Post("Chris Brewer", PostKind.SMALL_BLIND, 11250000, 4),
        Post("Daniel Negreanu", PostKind.BIG_BLIND, 45000000, 4, dead=22500000),
    )
    assert out.actions[1] == Action("Bryn Kenney", 0, ActionKind.RAISE, 14, 120000000, 120000000)
    assert out.draws == (
        Draw("Daniel Negreanu", 1, 1, 18, None, None, c("8h")),
        Draw("Bryn Kenney", 1, 0, 19, (), None, ()),
    )
    assert out.shows == (
        Show("Bryn Kenney", c("7c5d4h3s2c"), 21),
        Show("Daniel Negreanu", c("8h6s4c3d2h"), 22),
    )
    assert out.collects == (Collect("Bryn Kenney", 273750000, 42),)
    # one warning, for the key no standard defines; none for "_" keys and tables
    assert out.warnings == (
        Problem(
            UNKNOWN_LINE, Severity.WARNING, 44,
            "a key the PHH standard does not define (user keys begin with '_'): rubbish_key = 3",
        ),
    )  # fmt: skip


def test_show_whatever_the_cards_is_a_note_not_an_error() -> None:
    text = WSOP.replace('"p2 sm 8h6s4c3d2h"', '"p2 sm -"')
    ((_, out),) = list(read_text(text, "wsop.phh"))
    assert isinstance(out, Hand)
    assert out.shows == (Show("Bryn Kenney", c("7c5d4h3s2c"), 21),)
    assert Note("show", "p2 sm -", 22, "Daniel Negreanu") in out.steps


def test_a_records_warnings_go_through_phh_and_come_back_at_their_rows() -> None:
    good = CORPUS / "cash/Merge/Draw/3-Draw-Limit-USD-1-2-201104.Sample.with.showdown.txt"
    text = good.read_text().replace('type="CHECK" timestamp="1303222327281"', 'type="DANCE"')
    hand = MergeReader().parse(HandText("m.txt", 1, text, "merge"))
    assert isinstance(hand, Hand) and len(hand.warnings) == 1
    written = write_phh(hand)
    back = read_phh(written, "m.phh")
    row = written.split("\n").index("_drawlab_warnings = [") + 2
    assert back.warnings == (
        Problem(UNKNOWN_LINE, Severity.WARNING, row, hand.warnings[0].message),
    )
    assert back.site == "merge"  # the record's own site: its profile judges the replay
