"""Boss reader (XML): card numbers, street totals, silent uncalled bets."""

from __future__ import annotations

from datetime import UTC, datetime

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
)
from parser.boss import boss_card
from parser.outcome import ParseError
from parser.reader import read_path, read_text
from tests.corpus import CORPUS

BOSS = CORPUS / "cash/Boss/Draw"


def c(text: str) -> tuple[int, ...]:
    return parse_cards(text)


def hands(name: str) -> list[Hand]:
    out = [o for _, o in read_path(BOSS / name)]
    assert all(isinstance(o, Hand) for o in out), out
    return [o for o in out if isinstance(o, Hand)]


def test_card_numbers_rank_with_ace_zero_and_suits_in_blocks_of_13() -> None:
    assert [boss_card(n) for n in ("0", "12", "13", "26", "50", "51")] == list(
        c("Ad Kd Ac Ah Qs Ks")
    )
    assert boss_card("b") is None
    assert sorted(boss_card(str(n)) or 0 for n in range(52)) == list(range(52))


def test_pot_limit_hand_in_a_txt_file_without_xml_declaration() -> None:
    (h,) = hands("5CD-PL-EUR-0.50-1.00-201307.txt")
    assert (h.site, h.hand_id, h.table, h.game, h.structure) == (
        "boss", "3042344309", "Table FCD 59", Game.FIVE_CARD_DRAW, Structure.POT,
    )  # fmt: skip
    assert (h.stakes, h.currency, h.button) == (Stakes(50, 100, 100, 100), "EUR", 3)
    assert h.time == datetime.fromtimestamp(1374605236, UTC)
    assert h.seats == (Seat(3, "Hero", 6006, 4), Seat(4, "Player0", 1418, 5))
    assert (h.hero, h.dealt) == ("Hero", c("Ah 7h Td 4s Qs"))
    # bets and calls state the street total: Player0's "CALL 2.00" over his 1.00 adds 1
    assert h.actions == (
        Action("Hero", 0, ActionKind.RAISE, 21, 150, 200),
        Action("Player0", 0, ActionKind.CALL, 22, 100),
        Action("Player0", 1, ActionKind.CHECK, 36),
        Action("Hero", 1, ActionKind.BET, 37, 200, 200),
        Action("Player0", 1, ActionKind.CALL, 38, 200),
    )
    assert h.draws == (
        Draw("Player0", 1, 2, 24),
        Draw("Hero", 1, 3, 30, c("7h Td 4s"), c("Ah Qs"), c("7s Kc Kd")),
    )
    # the results: a mucked hand with its cards, and the winner's pair of kings
    assert h.steps[-3:] == (
        Show("Player0", c("Js Jd Ad 8c Qh"), 40, mucked=True),
        Show("Hero", c("Kc Kd Ah Qs 7s"), 46),
        Collect("Hero", 760, 46),
    )
    assert (h.total_pot, h.rake) == (800, 40)


def test_fourteen_hands_of_the_opoker_sample() -> None:
    hs = hands("5CD-FL-EUR-2-4.Opoker.sample.xml")
    assert len(hs) == 14
    first = hs[0]
    assert first.stakes == Stakes(100, 200, 200, 400)  # "2.00/4.00" fixed: the bets
    assert first.posts == (
        Post("Player3", PostKind.SMALL_BLIND, 100, 9),
        Post("Hero", PostKind.BIG_BLIND, 200, 10),
    )
    # Player3's last bet of 4 was not called and came back unsaid: POT 7.75 + rake 0.25
    assert first.actions[-2:] == (
        Action("Player3", 1, ActionKind.BET, 45, 400, 400),
        Action("Hero", 1, ActionKind.FOLD, 46),
    )
    assert (first.total_pot, first.rake) == (800, 25)
    assert first.collects == (Collect("Player3", 775, 48),)
    # a seat sitting out, and empty seats left out
    sitting = hs[12]
    assert sitting.seat_of("Player2") == Seat(2, "Player2", 9275, 448, sitting_out=True)
    assert all(s.player != "UNKNOWN" for h in hs for s in h.seats)
    # a result without cards is a muck
    assert Muck("Player2", 289) in hs[6].steps
    assert hs[6].collects == (Collect("Player3", 1350, 290),)


def test_unknown_action_is_a_positioned_error() -> None:
    text = (BOSS / "5CD-PL-EUR-0.50-1.00-201307.txt").read_text()
    text = text.replace('"ACTION_CHECK"', '"ACTION_DANCE"')
    ((_, out),) = list(read_text(text, "b.txt"))
    assert isinstance(out, ParseError)
    assert (out.line, out.message) == (36, "unknown Boss action 'ACTION_DANCE'")
