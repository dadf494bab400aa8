"""PHH files: written for any PHH tool (pokerkit checks them), read from anywhere."""

from __future__ import annotations

import warnings
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from pokerkit import HandHistory

from engine.cards import parse_cards
from engine.record import (
    Action,
    ActionKind,
    Collect,
    Draw,
    Game,
    Hand,
    Muck,
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
from parser.outcome import ParseError
from parser.phh import read_phh, write_phh
from parser.reader import read_text
from tests.parser_corpus import results

CORRUPT = {"81631597149"}  # the duplicate hole cards hand: no engine can replay it


def stars_hands() -> list[Hand]:
    return [
        o
        for _, _, o in results()
        if isinstance(o, Hand) and o.site == "pokerstars" and o.hand_id not in CORRUPT
    ]


def standard_only(text: str) -> str:
    return text.split("# The whole DrawLab record")[0]


def replayable(hand: Hand) -> bool:
    return (hand.game, hand.structure) in (
        (Game.TRIPLE_DRAW_27, Structure.FIXED),
        (Game.SINGLE_DRAW_27, Structure.NO_LIMIT),
    )


def units(amount: int) -> Decimal:
    return Decimal(amount) / 100


@pytest.mark.parametrize(
    "hand", [h for h in stars_hands() if replayable(h)], ids=lambda h: h.hand_id
)
def test_pokerkit_replays_our_phh_to_the_stacks_the_history_states(hand: Hand) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        history = HandHistory.loads(write_phh(hand))
        final = list(history)[-1]
    order = list(history.players or [])
    # Without rake pokerkit pays the whole pot: the winner also gets what the site raked.
    for player, stack in zip(order, final.stacks, strict=True):
        start = hand.seat_of(player)
        assert start is not None
        spent = sum(
            s.amount for s in hand.steps if isinstance(s, Post | Action) and s.player == player
        )
        back = sum(
            s.amount for s in hand.steps if isinstance(s, Uncalled | Collect) and s.player == player
        )
        collectors = {c.player for c in hand.collects}
        rake = (hand.rake or 0) if collectors == {player} else 0
        assert Decimal(stack) == units(start.stack - spent + back + rake), player


def test_the_corrupt_hand_left_out_is_one_no_engine_can_replay() -> None:
    # The one Stars hand the tests above leave out: the site wrote the hero's whole hand
    # as the cards drawn ("discards 2 cards []", then the same five cards again).  Our
    # replay calls it invalid and pokerkit cannot play it: the exclusion is asserted.
    corrupt = [o for _, _, o in results() if isinstance(o, Hand) and o.hand_id in CORRUPT]
    assert [h.hand_id for h in corrupt] == sorted(CORRUPT)
    for hand in corrupt:
        assert "DUPLICATE_CARD" in {p.code for p in replay(hand).verdict.errors}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            history = HandHistory.loads(write_phh(hand))
            with pytest.raises(ValueError, match=r"^Unable to repair the hand history$"):
                list(history)


@pytest.mark.parametrize("hand", stars_hands(), ids=lambda h: h.hand_id)
def test_standard_fields_alone_give_back_the_play(hand: Hand) -> None:
    back = read_phh(standard_only(write_phh(hand)), "p.phh")
    live = [s for s in hand.seats if not s.sitting_out]
    assert sorted((s.seat, s.player, s.stack) for s in back.seats) == sorted(
        (s.seat, s.player, s.stack) for s in live
    )
    assert [(a.player, a.street, a.kind, a.amount) for a in back.actions] == [
        (a.player, a.street, a.kind, a.amount) for a in hand.actions
    ]
    assert [(d.player, d.draw, d.count) for d in back.draws] == [
        (d.player, d.draw, d.count) for d in hand.draws
    ]
    assert [(s.player, s.cards) for s in back.shows] == [
        (s.player, s.cards) for s in hand.shows if not s.mucked
    ]
    assert (back.hero, back.dealt, back.game, back.structure) == (
        hand.hero,
        hand.dealt,
        hand.game,
        hand.structure,
    )
    assert back.time == hand.time


WIKI_STYLE = """\
variant = 'F2L3D'
antes = [0, 0, 0]
blinds_or_straddles = [0.5, 1, 0]
small_bet = 1
big_bet = 2
starting_stacks = [20, 30, 15.5]
actions = [
  'd dh p1 7s5d4h3c2s',
  'd dh p2 ??????????',
  'd dh p3 ??????????',
  'p3 cbr 2',
  'p1 f',
  'p2 cc',
  'p2 sd ????',
  'p3 sd',
  'd dh p2 ????',
  '# p2 thinks',
  'p2 cc',
  'p3 cbr 1',
  'p2 cc',
  'p2 sm 8s6d4c3h2d',
  'p3 sm',
]
players = ['Ann', 'Bob', 'Cy']
seats = [2, 4, 6]
hand = 77
time = 21:05:00
day = 4
month = 7
year = 2024
time_zone = 'America/New_York'
"""


def test_a_phh_file_from_elsewhere_is_read_from_its_standard_fields() -> None:
    hand = read_phh(WIKI_STYLE, "w.phh")
    assert (hand.site, hand.hand_id, hand.game, hand.structure) == (
        "phh",
        "77",
        Game.TRIPLE_DRAW_27,
        Structure.FIXED,
    )
    assert hand.stakes == Stakes(50, 100, 100, 200, 0)
    assert hand.seats == (Seat(2, "Ann", 2000, 6), Seat(4, "Bob", 3000, 6), Seat(6, "Cy", 1550, 6))
    assert (hand.hero, hand.dealt, hand.button) == ("Ann", parse_cards("7s5d4h3c2s"), 6)
    assert hand.time == datetime(2024, 7, 5, 1, 5, tzinfo=UTC)
    assert hand.steps[:2] == (
        Post("Ann", PostKind.SMALL_BLIND, 50, 3),
        Post("Bob", PostKind.BIG_BLIND, 100, 3),
    )
    assert hand.steps[2:] == (
        Action("Cy", 0, ActionKind.RAISE, 11, 200, 200),
        Action("Ann", 0, ActionKind.FOLD, 12),
        Action("Bob", 0, ActionKind.CALL, 13, 100),
        Draw("Bob", 1, 2, 14, None, None, None),
        Draw("Cy", 1, 0, 15, (), None, ()),
        hand.steps[7],
        Action("Bob", 1, ActionKind.CHECK, 18),
        Action("Cy", 1, ActionKind.BET, 19, 100),
        Action("Bob", 1, ActionKind.CALL, 20, 100),
        Show("Bob", parse_cards("8s6d4c3h2d"), 21),
        Muck("Cy", 22),
    )
    assert hand.steps[7].line == 17


def test_a_hand_with_an_event_and_no_currency_is_that_tournaments_chips() -> None:
    event = "2023 World Series of Poker Event #33: $1,500 Deuce to Seven Triple Draw"
    text = WIKI_STYLE.replace("hand = 77", f"hand = 77\nevent = '{event}'\nlevel = 21")
    hand = read_phh(text, "wsop.phh")
    assert hand.currency == "chips"
    assert hand.tournament == Tournament(tournament_id=event, level="21")


def test_a_hand_with_every_players_cards_known_names_no_hero() -> None:
    text = WIKI_STYLE.replace("'d dh p2 ??????????'", "'d dh p2 8s6d4c3h2d'").replace(
        "'d dh p3 ??????????'", "'d dh p3 9s7d5c4h3d'")
    hand = read_phh(text, "broadcast.phh")
    assert (hand.hero, hand.dealt) == (None, None)
    assert [p for p, _ in hand.dealt_others] == ["Ann", "Bob", "Cy"]
    assert read_phh(WIKI_STYLE, "w.phh").hero == "Ann"  # one known hand: the writer's seat


def test_a_hand_with_a_currency_or_no_event_stays_a_cash_game() -> None:
    assert (read_phh(WIKI_STYLE, "w.phh").currency, read_phh(WIKI_STYLE, "w.phh").tournament) \
        == ("", None)
    priced = WIKI_STYLE.replace("hand = 77", "hand = 77\nevent = 'A game'\ncurrency = 'USD'")
    assert (read_phh(priced, "w.phh").currency, read_phh(priced, "w.phh").tournament) == (
        "USD", None)


def test_phh_files_are_recognised_by_the_file_reader() -> None:
    outcomes = [o for _, o in read_text(WIKI_STYLE, "w.phh")]
    assert len(outcomes) == 1 and isinstance(outcomes[0], Hand)


def test_broken_toml_is_a_positioned_error() -> None:
    with pytest.raises(ParseError) as info:
        read_phh("variant = 'F2L3D'\nantes = [0, 0\n", "bad.phh")
    assert info.value.file == "bad.phh"
    assert info.value.line == 3


def test_a_variant_we_do_not_read_is_an_error_on_its_line() -> None:
    with pytest.raises(ParseError) as info:
        read_phh("variant = 'NT'\nstarting_stacks = [1, 2]\nactions = []\n", "nt.phh")
    assert "variant 'NT'" in info.value.message


def test_extension_variant_codes_for_the_games_the_standard_lacks() -> None:
    hands = [h for h in stars_hands() if h.game is Game.FIVE_CARD_DRAW]
    codes = {write_phh(h).split("\n")[0] for h in hands}
    assert codes == {'variant = "F5D"', 'variant = "N5D"', 'variant = "P5D"'}


def test_a_phhs_file_holds_several_hands_each_with_its_own_lines() -> None:
    text = "[1]\n" + WIKI_STYLE + "\n[2]\n" + WIKI_STYLE.replace("hand = 77", "hand = 78")
    lines = text.split("\n")
    second_start = lines.index("[2]") + 2
    raise_line = lines.index("  'p3 cbr 2',", second_start) + 1
    outcomes = [(c.line, o) for c, o in read_text(text, "two.phhs")]
    assert [(line, o.hand_id) for line, o in outcomes if isinstance(o, Hand)] == [
        (2, "77"),
        (second_start, "78"),
    ]
    second = outcomes[1][1]
    assert isinstance(second, Hand)
    assert second.steps[2] == Action("Cy", 0, ActionKind.RAISE, raise_line, 200, 200)
    written = write_phh(second).split("\n")
    assert (
        read_phh("\n".join(written), "x", 40).steps[0].line
        == 40 + written.index("_drawlab_steps = [") + 1
    )
