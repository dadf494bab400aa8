"""OnGame reader: both corpus files, exact to the chip and the line."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from engine.cards import parse_cards
from engine.problems import DRAW_INFERRED, UNKNOWN_LINE
from engine.record import (
    Action,
    ActionKind,
    Collect,
    Draw,
    Game,
    Hand,
    Post,
    PostKind,
    Seat,
    Show,
    Stakes,
    Structure,
)
from engine.replay import replay
from engine.verdict import Problem, Severity
from parser.outcome import ParseError
from parser.reader import read_path, read_text
from tests.corpus import CORPUS

OG = CORPUS / "cash/OnGame/Draw"


def c(text: str) -> tuple[int, ...]:
    return parse_cards(text)


def hands(name: str) -> list[Hand]:
    out = [o for _, o in read_path(OG / name)]
    assert all(isinstance(o, Hand) for o in out), out
    return [o for o in out if isinstance(o, Hand)]


def test_pot_limit_hand_without_street_delimiter() -> None:
    (h,) = hands("5-Carddraw-PL-USD-1.00-1.00-201111.No.Street.Delimiter.txt")
    assert (h.site, h.hand_id, h.table, h.game, h.structure) == (
        "ongame", "R5-192626403-203", "Flensburg [192626403]", Game.FIVE_CARD_DRAW,
        Structure.POT,
    )  # fmt: skip
    assert h.stakes == Stakes(100, 100, 100, 100)
    assert h.time == datetime(2011, 11, 18, 12, 48, 10, tzinfo=timezone(timedelta(hours=1)))
    assert (h.button, h.hero, h.dealt) == (1, "Hero", c("Qs 8c 5h Th 5s"))
    assert h.seats[1] == Seat(3, "Player0", 2240, 8)
    # two big blinds and no small blind, as written
    assert h.posts == (
        Post("Player0", PostKind.BIG_BLIND, 100, 11),
        Post("Player3", PostKind.BIG_BLIND, 100, 12),
    )
    assert h.actions == (
        Action("Player1", 0, ActionKind.RAISE, 16, 300, 300),
        Action("Hero", 0, ActionKind.FOLD, 17),
        Action("Player0", 0, ActionKind.RAISE, 18, 400, 500),  # "raises $4 to $5"
        Action("Player3", 0, ActionKind.FOLD, 19),
        Action("Player1", 0, ActionKind.CALL, 20, 200),
        Action("Player0", 1, ActionKind.BET, 23, 500, 500),
        Action("Player1", 1, ActionKind.FOLD, 24),
    )
    # no "---" before the draw: the first "changed" line opens it
    assert h.draws == (Draw("Player0", 1, 2, 21), Draw("Player1", 1, 3, 22))
    assert h.collects == (Collect("Player0", 1045, 27, pot=0),)
    assert (h.total_pot, h.rake) == (1100, 55)
    assert h.net == (("Player0", 545), ("Player3", -100), ("Player1", -500))


def test_four_hands_of_a_limit_file_with_dead_blind_and_new_hand_lines() -> None:
    h1, h2, h3, h4 = hands("5-Carddraw-USD-0.05-0.10-201009.Sample.txt")
    assert [h.hand_id for h in (h1, h2, h3, h4)] == [
        "R5-81962116-232", "R5-81962116-233", "R5-81962116-234", "R5-81962116-235",
    ]  # fmt: skip
    assert [h.line for h in (h1, h2, h3, h4)] == [1, 35, 82, 115]
    assert h1.stakes == Stakes(2, 5, 5, 10)
    assert h1.seat_of("x Diabolo666") == Seat(1, "x Diabolo666", 1123, 9)
    # "New hand for Hero" after "changed 2 cards" gives what was thrown, kept and drawn
    assert h1.draws[0] == Draw("Hero", 1, 2, 21, c("Tc 7c"), c("9h Ah Jh"), c("8h 6s"))
    assert h1.shows == (
        Show("Hero", c("8h 9h 6s Ah Jh"), 31),
        Show("x Diabolo666", c("2c Ac Td As Qc"), 32),
    )
    assert h1.collects == (Collect("x Diabolo666", 21, 28, pot=0),)
    # a returning player posts a live big blind and a dead small one
    assert h2.posts[2:] == (
        Post("grommek", PostKind.BIG_BLIND, 5, 48),
        Post("grommek", PostKind.EXTRA, 2, 49, dead=2),
    )
    assert Action("DamonV2", 0, ActionKind.CALL, 55, 5, None, True) in h2.actions
    assert h2.draws[0] == Draw("Hero", 1, 1, 59, c("Jd"), c("5s 8h 4h 7d"), c("Ah"))
    assert dict(h2.net) == {
        "Hero": -5, "x Diabolo666": -5, "velabianca": 21, "grommek": -7, "DamonV2": -5,
    }  # fmt: skip
    assert (h3.total_pot, h3.rake) == (12, 0)
    assert h4.collects == (Collect("velabianca", 38, 147, pot=0),)


def test_unknown_line_is_a_warning_at_its_line_and_the_rest_is_read() -> None:
    plain = (OG / "5-Carddraw-PL-USD-1.00-1.00-201111.No.Street.Delimiter.txt").read_text()
    text = plain.replace("Hero folds", "Hero throws a tantrum")
    ((_, out),) = list(read_text(text, "o.txt"))
    ((_, before),) = list(read_text(plain, "o.txt"))
    assert isinstance(out, Hand) and isinstance(before, Hand)
    assert out.warnings == (
        Problem(UNKNOWN_LINE, Severity.WARNING, 17,
                "a line this reader does not know: Hero throws a tantrum"),
    )  # fmt: skip
    assert out.steps == tuple(s for s in before.steps if s.line != 17)


SAMPLE = OG / "5-Carddraw-USD-0.05-0.10-201009.Sample.txt"


def test_new_hand_without_a_changed_line_infers_the_draw_with_a_warning() -> None:
    text = SAMPLE.read_text().replace("Hero changed 2 cards\n", "", 1)
    first, *_ = [o for _, o in read_text(text, "o.txt")]
    assert isinstance(first, Hand), first
    # the draw stands where the new hand does (line 21 once the changed line is gone)
    assert first.draws[0] == Draw("Hero", 1, 2, 21, c("Tc 7c"), c("9h Ah Jh"), c("8h 6s"))
    assert first.warnings == (
        Problem(DRAW_INFERRED, Severity.WARNING, 21,
                "Hero's draw of 2 worked out from the new hand: no 'changed N cards' line"),
    )  # fmt: skip
    assert replay(first).verdict.errors == ()


def test_new_hand_after_its_changed_line_gives_no_warning() -> None:
    first = hands(SAMPLE.name)[0]
    assert first.warnings == ()
    assert first.draws[0] == Draw("Hero", 1, 2, 21, c("Tc 7c"), c("9h Ah Jh"), c("8h 6s"))


def test_a_call_that_does_not_read_is_a_positioned_error() -> None:
    text = (OG / "5-Carddraw-PL-USD-1.00-1.00-201111.No.Street.Delimiter.txt").read_text()
    text = text.replace("Hero folds", "Hero calls $1.2.3")
    ((_, out),) = list(read_text(text, "o.txt"))
    assert isinstance(out, ParseError)
    assert (out.line, out.line_text) == (17, "Hero calls $1.2.3")
