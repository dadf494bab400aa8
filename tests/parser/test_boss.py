"""Boss reader (XML): card numbers, street totals, silent uncalled bets."""

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
    Muck,
    Post,
    PostKind,
    Seat,
    Show,
    Stakes,
    Structure,
    Tournament,
)
from engine.verdict import Problem, Severity
from engine.verify import verify
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


def test_unknown_action_is_a_warning_at_its_line_and_the_replay_judges() -> None:
    text = (BOSS / "5CD-PL-EUR-0.50-1.00-201307.txt").read_text()
    text = text.replace('"ACTION_CHECK"', '"ACTION_DANCE"')
    ((_, out),) = list(read_text(text, "b.txt"))
    assert isinstance(out, Hand)
    assert out.warnings == (
        Problem(
            UNKNOWN_LINE, Severity.WARNING, 36,
            'a line this reader does not know: <ACTION TYPE="ACTION_DANCE" PLAYER="Player0">'
            "</ACTION>",
        ),
    )  # fmt: skip
    assert Action("Player0", 1, ActionKind.CHECK, 36) not in out.actions
    verdict = verify(out)
    assert verdict.problems[0] == out.warnings[0] and not verdict.ok  # Player0 never acted


def test_unknown_elements_blind_kinds_and_seat_states_are_warnings() -> None:
    text = (BOSS / "5CD-PL-EUR-0.50-1.00-201307.txt").read_text()
    text = text.replace(
        '<PLAYER NAME="UNKNOWN" SEAT="5" AMOUNT="0.00" STATE="STATE_EMPTY" DEALER="N"></PLAYER>',
        '<PLAYER NAME="Later" SEAT="5" AMOUNT="9.00" STATE="STATE_RESERVED" DEALER="N"></PLAYER>',
    ).replace(
        '<ACTION TYPE="ACTION_RAISE" PLAYER="Hero" VALUE="2.00"></ACTION>',
        '<JACKPOT VALUE="0.01"></JACKPOT>\n'
        '<ACTION TYPE="HAND_BLINDS" PLAYER="Later" KIND="HAND_XB" VALUE="0.00"></ACTION>\n'
        '<ACTION TYPE="ACTION_RAISE" PLAYER="Hero" VALUE="2.00"></ACTION>',
    )
    ((_, out),) = list(read_text(text, "b.txt"))
    assert isinstance(out, Hand)
    assert [(w.code, w.line) for w in out.warnings] == [
        (UNKNOWN_LINE, 6), (UNKNOWN_LINE, 21), (UNKNOWN_LINE, 22),
    ]  # fmt: skip
    assert out.warnings[1].message == (
        'a line this reader does not know: <JACKPOT VALUE="0.01"></JACKPOT>'
    )
    assert out.seat_of("Later") == Seat(5, "Later", 900, 6)


def test_an_unreadable_amount_of_a_known_action_is_an_error_at_its_line() -> None:
    text = (BOSS / "5CD-PL-EUR-0.50-1.00-201307.txt").read_text()
    text = text.replace('PLAYER="Hero" VALUE="2.00"></ACTION>', 'PLAYER="Hero" VALUE="2,0O">'
                        "</ACTION>", 1)  # fmt: skip
    ((_, out),) = list(read_text(text, "b.txt"))
    assert isinstance(out, ParseError)
    assert (out.line, out.message) == (21, "not an amount: '2,0O'")


def test_a_hand_without_players_is_an_error_at_its_header() -> None:
    text = (BOSS / "5CD-PL-EUR-0.50-1.00-201307.txt").read_text()
    head = text.split("\n", 1)[0]
    ((_, out),) = list(read_text(head + "\n</HISTORY>\n", "b.txt"))
    assert isinstance(out, ParseError)
    assert (out.line, out.message) == (1, "a Boss hand without players")


def test_a_sit_and_go_hand_with_antes_written_as_their_own_action() -> None:
    text = (BOSS / "5CD-PL-EUR-0.50-1.00-201307.txt").read_text()
    text = text.replace('GAMEKIND="GAMEKIND_CASH"', 'GAMEKIND="GAMEKIND_SITGO"').replace(
        'TABLETOURNEYID=""', 'TABLETOURNEYID="7781"'
    ).replace(
        '<ACTION TYPE="HAND_BLINDS" PLAYER="Hero" KIND="HAND_SB"',
        '<ACTION TYPE="HAND_ANTE" PLAYER="Hero" VALUE="0.10"></ACTION>\n'
        '<ACTION TYPE="HAND_ANTE" PLAYER="Player0" VALUE="0.10"></ACTION>\n'
        '<ACTION TYPE="HAND_BLINDS" PLAYER="Hero" KIND="HAND_SB"',
    )  # fmt: skip
    ((_, out),) = list(read_text(text, "b.txt"))
    assert isinstance(out, Hand)
    assert (out.tournament, out.currency) == (Tournament("7781"), "chips")
    assert out.posts[:2] == (
        Post("Hero", PostKind.ANTE, 10, 7),
        Post("Player0", PostKind.ANTE, 10, 8),
    )
    assert out.warnings == ()


def test_seats_written_without_a_state_as_older_files_do() -> None:
    text = (BOSS / "5CD-PL-EUR-0.50-1.00-201307.txt").read_text()
    old = text.replace(' STATE="STATE_EMPTY"', "").replace(' STATE="STATE_PLAYING"', "")
    ((_, out),) = list(read_text(old, "b.txt"))
    ((_, now),) = list(read_text(text, "b.txt"))
    assert isinstance(out, Hand) and isinstance(now, Hand)
    assert out.seats == now.seats == (Seat(3, "Hero", 6006, 4), Seat(4, "Player0", 1418, 5))
    assert out.warnings == () and verify(out).ok
