"""Merge reader (XML): exact records, the amount conventions, and the cancelled hand."""

from __future__ import annotations

from datetime import datetime

from engine.cards import parse_cards
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
)
from parser.outcome import ParseError, Skipped
from parser.reader import read_path, read_text
from tests.corpus import CORPUS

MERGE = CORPUS / "cash/Merge/Draw"


def c(text: str) -> tuple[int, ...]:
    return parse_cards(text)


def only(name: str) -> Hand | Skipped | ParseError:
    ((_, out),) = list(read_path(MERGE / name))
    return out


def only_hand(name: str) -> Hand:
    out = only(name)
    assert isinstance(out, Hand), out
    return out


def test_showdown_hand_with_chat_and_the_heros_draws() -> None:
    h = only_hand("3-Draw-Limit-USD-1-2-201104.Sample.with.showdown.txt")
    assert (h.site, h.hand_id, h.table, h.game, h.structure) == (
        "merge", "33423082-14", "Minnehaha", Game.TRIPLE_DRAW_27, Structure.FIXED,
    )  # fmt: skip
    assert h.stakes == Stakes(50, 100, 100, 200)
    assert (h.time, h.button, h.currency) == (datetime(2011, 4, 19, 9, 11, 34), 1, "USD")
    assert h.seats == (Seat(1, "Villain", 3280, 4), Seat(3, "Hero", 4680, 5))
    assert (h.hero, h.dealt) == ("Hero", c("Qh Tc 4s 6h 7h"))
    assert h.draws == (
        Draw("Hero", 1, 2, 17, c("Qh Tc"), c("4s 6h 7h"), c("9d 9c")),
        Draw("Villain", 1, 1, 18),
        Draw("Hero", 2, 1, 28, c("9d"), c("9c 4s 6h 7h"), c("3c")),
        Draw("Villain", 2, 0, 29, (), None, ()),
        Draw("Hero", 3, 0, 39, (), c("3c 9c 4s 6h 7h"), ()),
        Draw("Villain", 3, 0, 40, (), None, ()),
    )
    assert (
        Note("chat", "played some higher stakes td cash games on ps to learn", 24, "Villain")
        in h.steps
    )
    assert h.shows == (
        Show("Hero", c("3c 9c 4s 6h 7h"), 50),
        Show("Villain", c("2d 6c 4c 8s 7c"), 51),
    )
    assert h.collects == (Collect("Villain", 1350, 54, pot=0),)
    assert (h.rake, h.total_pot) == (None, None)  # Merge states neither


def test_raise_is_a_street_total_and_all_in_the_chips_added() -> None:
    # Villain had $57: 10 before the draw and 30 after the first draw leave 17, so
    # ALL_IN amount="17.00" adds 17 (a raise to 17 over Hero's 10) and Hero's CALL 7.
    h = only_hand("3-Draw-Limit-USD-5-10-201105.All-in.on.second.draw.txt")
    assert h.posts == (
        Post("Villain", PostKind.SMALL_BLIND, 200, 8),
        Post("Hero", PostKind.BIG_BLIND, 500, 9),
    )
    assert h.stakes == Stakes(200, 500, 500, 1000)  # Merge's $5/$10 small blind is $2
    assert h.actions[2:10] == (
        Action("Hero", 1, ActionKind.CHECK, 22),
        Action("Villain", 1, ActionKind.BET, 23, 500, 500),
        Action("Hero", 1, ActionKind.RAISE, 24, 1000, 1000),
        Action("Villain", 1, ActionKind.RAISE, 25, 1000, 1500),
        Action("Hero", 1, ActionKind.RAISE, 26, 1000, 2000),
        Action("Villain", 1, ActionKind.RAISE, 27, 1000, 2500),
        Action("Hero", 1, ActionKind.RAISE, 28, 1000, 3000),
        Action("Villain", 1, ActionKind.CALL, 29, 500),
    )
    assert h.actions[10:] == (
        Action("Hero", 2, ActionKind.BET, 37, 1000, 1000),
        Action("Villain", 2, ActionKind.RAISE, 38, 1700, 1700, True),
        Action("Hero", 2, ActionKind.CALL, 39, 700),
    )
    villain_in = sum(s.amount for s in h.posts if s.player == "Villain") + sum(
        s.amount for s in h.actions if s.player == "Villain"
    )
    assert villain_in == 5700 == h.seats[1].stack


def test_pre_draw_all_in_goes_through_every_draw() -> None:
    h = only_hand("3-Draw-PL-USD-0.05-0.10-201102.Sample.all.streets.txt")
    assert h.structure is Structure.POT and h.stakes == Stakes(5, 10, 10, 10)
    assert h.actions == (
        Action("Hero", 0, ActionKind.RAISE, 12, 25, 30),
        Action("Villain", 0, ActionKind.RAISE, 13, 80, 90),
        Action("Hero", 0, ActionKind.RAISE, 14, 240, 270),
        Action("Villain", 0, ActionKind.RAISE, 15, 385, 475, True),
        Action("Hero", 0, ActionKind.CALL, 16, 205),
    )
    assert [(d.player, d.draw, d.count) for d in h.draws] == [
        ("Villain", 1, 2), ("Hero", 1, 0), ("Villain", 2, 1), ("Hero", 2, 0),
        ("Villain", 3, 1), ("Hero", 3, 0),
    ]  # fmt: skip
    # 9.50 went in and 9.03 came out: the rake is only implied, so none is recorded
    assert h.collects == (Collect("Hero", 903, 41, pot=0),) and h.rake is None


def test_initial_blind_is_a_live_extra_post() -> None:
    h = only_hand("5-Carddraw-PL-USD-0.05-0.10.201111.txt")
    assert h.game is Game.FIVE_CARD_DRAW
    assert h.posts[2] == Post("Hero", PostKind.EXTRA, 10, 13)
    assert h.actions[1] == Action("Hero", 0, ActionKind.CHECK, 17)
    assert h.steps[-2:] == (Muck("Player3", 41), Collect("Player3", 98, 42, pot=0))


def test_mucked_cards_are_a_mucked_show() -> None:
    h = only_hand("A5-3-Draw-Limit-USD-0.50-1-201105.Sample.txt")
    assert h.game is Game.TRIPLE_DRAW_A5
    assert h.steps[-4:] == (
        Muck("Player3", 51),
        Show("Hero", c("6c 3c Ad 2s 8h"), 52),
        Show("Player3", c("Ac 8s 7c 3h 6d"), 53, mucked=True),
        Collect("Hero", 594, 56, pot=0),
    )


def test_cancelled_game_is_incomplete() -> None:
    out = only("3-Draw-PL-USD-0.05-0.10-201102.Cancelled.hand.txt")
    assert isinstance(out, Skipped)
    assert (out.kind, out.reason, out.hand_id, out.line) == (
        "incomplete", "the hand was cancelled (GAME_CANCELLED)", "31691047-143", 1,
    )  # fmt: skip


def test_malformed_xml_is_a_positioned_error_and_the_next_hand_is_read() -> None:
    good = (MERGE / "3-Draw-Limit-USD-1-2-201104.Sample.with.showdown.txt").read_text()
    bad = good.replace('type="CHECK" timestamp="1303222327281"', 'type="CHECK timestamp=')
    results = [o for _, o in read_text(bad + good, "m.txt")]
    assert [type(o) for o in results] == [ParseError, Hand]
    err = results[0]
    assert isinstance(err, ParseError) and err.line == 22
    assert err.message.startswith("not well-formed XML")


def test_unknown_event_is_an_error_at_its_line() -> None:
    good = (MERGE / "3-Draw-Limit-USD-1-2-201104.Sample.with.showdown.txt").read_text()
    bad = good.replace('type="CHECK" timestamp="1303222327281"', 'type="DANCE" timestamp="1"')
    ((_, out),) = list(read_text(bad, "m.txt"))
    assert isinstance(out, ParseError)
    assert (out.line, out.message) == (22, "unknown event type 'DANCE'")


def test_badugi_is_unsupported_before_its_half_pot_stakes_are_read() -> None:
    good = (MERGE / "3-Draw-Limit-USD-1-2-201104.Sample.with.showdown.txt").read_text()
    badugi = good.replace(
        'type="2-7 Lowball" stakes="Limit $1/$2"',
        'type="Badugi" stakes="Half Pot Limit ($0.50/$0.50)"',
    )
    ((_, out),) = list(read_text(badugi, "b.txt"))
    assert out == Skipped(
        "unsupported", "Badugi is not a game DrawLab replays", "merge", "b.txt", 1,
        "33423082-14", "Badugi",
    )  # fmt: skip
