"""Merge reader (XML): exact records, the amount conventions, and the cancelled hand."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from analysis.pipeline.importer import import_paths
from analysis.pipeline.verify_files import verify_paths
from analysis.storage import db as dbmod
from analysis.storage.queries import rebuild
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
)
from engine.replay import replay
from engine.verdict import Problem, Severity
from parser.merge import MergeReader
from parser.outcome import HandText, ParseError, Skipped
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


def test_unknown_event_is_a_warning_at_its_line_and_the_replay_judges() -> None:
    good = (MERGE / "3-Draw-Limit-USD-1-2-201104.Sample.with.showdown.txt").read_text()
    bad = good.replace('type="CHECK" timestamp="1303222327281"', 'type="DANCE" timestamp="1"')
    ((_, out),) = list(read_text(bad, "m.txt"))
    assert isinstance(out, Hand)
    assert out.warnings == (
        Problem(
            UNKNOWN_LINE, Severity.WARNING, 22,
            'a line this reader does not know: <event sequence="7" type="DANCE" timestamp="1"'
            ' player="3"/>',
        ),
    )  # fmt: skip
    assert Action("Hero", 1, ActionKind.CHECK, 22) not in out.actions
    # Hero's check is gone: the replay, not the reader, says the hand cannot be
    verdict = replay(out).verdict
    assert verdict.problems[0] == out.warnings[0] and not verdict.ok


def test_unknown_elements_rounds_and_cards_types_are_warnings() -> None:
    good = (MERGE / "3-Draw-Limit-USD-1-2-201104.Sample.with.showdown.txt").read_text()
    text = good.replace(
        '<round id="BLINDS" sequence="1">', '<round id="BLINDS" sequence="1">\n\t\t<jackpot/>'
    ).replace('<round id="SECOND_DRAW"', '<round id="BONUS"><cards type="COMMUNITY" cards="2c"/>'
              '</round><round id="SECOND_DRAW"')  # fmt: skip
    ((_, out),) = list(read_text(text, "m.txt"))
    assert isinstance(out, Hand)
    assert [(w.code, w.line, w.message) for w in out.warnings] == [
        (UNKNOWN_LINE, 8, "a line this reader does not know: <jackpot/>"),
        (UNKNOWN_LINE, 28, 'a line this reader does not know: <round id="BONUS"><cards '
         'type="COMMUNITY" cards="2c"/></round><round id="SECOND_DRAW" sequence="5">'),
        (UNKNOWN_LINE, 28, 'a line this reader does not know: <round id="BONUS"><cards '
         'type="COMMUNITY" cards="2c"/></round><round id="SECOND_DRAW" sequence="5">'),
    ]  # fmt: skip
    assert replay(out).verdict.ok  # nothing of the play was lost


def test_an_unreadable_amount_of_a_known_event_is_an_error_at_its_line() -> None:
    good = (MERGE / "3-Draw-Limit-USD-1-2-201104.Sample.with.showdown.txt").read_text()
    bad = good.replace('player="1" amount="1.00"/>', 'player="1" amount="lots"/>', 1)
    ((_, out),) = list(read_text(bad, "m.txt"))
    assert isinstance(out, ParseError)
    assert (out.line, out.message) == (23, "not an amount: 'lots'")


def test_an_unreadable_draw_count_is_an_error_at_its_line() -> None:
    good = (MERGE / "3-Draw-Limit-USD-1-2-201104.Sample.with.showdown.txt").read_text()
    bad = good.replace('player="1" text="1"/>', 'player="1" text="one"/>')
    ((_, out),) = list(read_text(bad, "m.txt"))
    assert isinstance(out, ParseError)
    assert (out.line, out.message) == (18, "unreadable draw count 'one'")


def test_fifteen_games_under_one_description_are_fifteen_hands() -> None:
    name = MERGE / "3-Draw-Limit-USD-1-2-201104.Multi.hand.sample.txt"
    got = list(read_path(name))
    hands = [o for _, o in got]
    assert all(isinstance(h, Hand) for h in hands), hands
    assert [h.hand_id for h in hands if isinstance(h, Hand)] == [
        f"33423082-{i}" for i in range(1, 16)
    ]
    # each game's chunk starts at its own <game> line (the first at the description)
    assert [c.line for c, _ in got] == [
        1, 23, 44, 75, 106, 127, 149, 171, 206, 227, 250, 272, 294, 318, 374,
    ]  # fmt: skip
    assert {(h.game, h.structure, h.stakes, h.currency, h.table) for h in hands
            if isinstance(h, Hand)} == {
        (Game.TRIPLE_DRAW_27, Structure.FIXED, Stakes(50, 100, 100, 200), "USD", "Minnehaha")
    }  # fmt: skip
    # the later chunks carry the description on their first line, so each reads alone
    second = got[1][0]
    assert second.text.startswith(
        '<description type="2-7 Lowball" stakes="Limit $1/$2"/><game id="33423082-2" '
    )
    assert MergeReader().parse(second) == hands[1]
    # the stacks carry from game to game and every hand replays clean
    results = list(verify_paths([name]))
    assert [r.status for r in results] == ["ok"] * 15
    assert all(r.problems == () for r in results)
    h2 = hands[1]
    assert isinstance(h2, Hand)
    assert h2.seats == (Seat(1, "Villain", 3050, 25), Seat(3, "Hero", 4950, 26))


def test_a_later_description_applies_to_the_games_after_it() -> None:
    single = (MERGE / "3-Draw-Limit-USD-1-2-201104.Sample.with.showdown.txt").read_text()
    game = single.split("\n", 1)[1]
    text = single + "\n" + game + '<description type="A-5 Lowball" stakes="Limit $1/$2"/>\n' + game
    outs = [o for _, o in read_text(text, "m.txt")]
    assert [o.game for o in outs if isinstance(o, Hand)] == [
        Game.TRIPLE_DRAW_27, Game.TRIPLE_DRAW_27, Game.TRIPLE_DRAW_A5,
    ]  # fmt: skip


def test_a_game_without_any_description_is_an_error_at_the_game() -> None:
    single = (MERGE / "3-Draw-Limit-USD-1-2-201104.Sample.with.showdown.txt").read_text()
    game = single.split("\n", 1)[1]
    with pytest.raises(ParseError) as caught:
        MergeReader().parse(HandText("m.txt", 2, game, "merge"))
    assert (caught.value.line, caught.value.message) == (
        2, "not a Merge hand: no <description> before the game",
    )  # fmt: skip


def test_badugi_is_unsupported_before_its_half_pot_stakes_are_read() -> None:
    good = (MERGE / "3-Draw-Limit-USD-1-2-201104.Sample.with.showdown.txt").read_text()
    badugi = good.replace(
        'type="2-7 Lowball" stakes="Limit $1/$2"',
        'type="Badugi" stakes="Half Pot Limit ($0.50/$0.50)"',
    )
    ((_, out),) = list(read_text(badugi, "b.txt"))
    assert out == Skipped(
        "unsupported",
        "Badugi is not a game DrawLab replays",
        site="merge",
        file="b.txt",
        line=1,
        hand_id="33423082-14",
        game="Badugi",
    )  # fmt: skip


def test_sitting_out_joining_and_connections_are_notes() -> None:
    good = (MERGE / "3-Draw-Limit-USD-1-2-201104.Sample.with.showdown.txt").read_text()
    text = good.replace(
        "\t</players>",
        '\t\t<player seat="5" nickname="Napper" balance="$20.00" dealtin="false" />\n\t</players>',
    ).replace(
        '<event sequence="8" type="CHAT"',
        '<event sequence="8" type="SIT_OUT" timestamp="2" player="5"/>'
        '<event sequence="8" type="CHAT"',
    )
    ((_, out),) = list(read_text(text, "m.txt"))
    assert isinstance(out, Hand)
    assert out.seat_of("Napper") == Seat(5, "Napper", 2000, 6, sitting_out=True)
    line = '<event sequence="8" type="SIT_OUT" timestamp="2" player="5"/><event sequence="8" '
    notes = [s for s in out.steps if isinstance(s, Note)]
    assert notes[0].kind == "sit_out" and notes[0].player == "Napper" and notes[0].line == 25
    assert notes[0].text.startswith(line)
    assert out.warnings == () and replay(out).verdict.ok


TOURNAMENT = """\
<description type="2-7 Lowball Tournament" stakes="No Limit Level 2 Blinds (15/30)"/>
<game id="46165919-7" starttime="2012/07/14 12:47:39 -0700" numholecards="5" gametype="67" \
seats="6" realmoney="true" data="20120714|Fun Step 1|46165833-1|46165919-7|true">
\t<players dealer="0">
\t\t<player seat="0" nickname="Hero" balance="1485" dealtin="true" />
\t\t<player seat="2" nickname="Villain" balance="1470" dealtin="true" />
\t</players>
\t<round id="BLINDS" sequence="1">
\t\t<event sequence="1" type="SMALL_BLIND" timestamp="1" player="0" amount="15"/>
\t\t<event sequence="2" type="BIG_BLIND" timestamp="2" player="2" amount="30"/>
\t</round>
\t<round id="PRE_FIRST_DRAW" sequence="2">
\t\t<event sequence="3" type="CALL" timestamp="3" player="0" amount="15"/>
\t\t<event sequence="4" type="CHECK" timestamp="4" player="2"/>
\t\t<cards type="HOLE" cards="7c,5d,4h,3s,2c" player="0"/>
\t</round>
\t<round id="FIRST_DRAW" sequence="3">
\t\t<event sequence="5" type="DRAW" timestamp="5" player="2" text="1"/>
\t\t<event sequence="6" type="DRAW" timestamp="6" player="0" text="0"/>
\t</round>
\t<round id="POST_FIRST_DRAW" sequence="4">
\t\t<event sequence="7" type="CHECK" timestamp="7" player="2"/>
\t\t<event sequence="8" type="BET" timestamp="8" player="0" amount="60"/>
\t\t<event sequence="9" type="FOLD" timestamp="9" player="2"/>
\t</round>
\t<round id="END_OF_FOLDED_GAME" sequence="5">
\t\t<winner amount="60" uncalled="true" potnumber="1" player="0" pottype="n"/>
\t\t<winner amount="60" uncalled="false" potnumber="1" player="0" pottype="n"/>
\t</round>
\t<round id="END_OF_GAME" sequence="6">
\t</round>
</game>
"""


def test_a_tournament_hand_with_balances_after_the_blinds() -> None:
    ((_, out),) = list(read_text(TOURNAMENT, "t.txt"))
    assert isinstance(out, Hand)
    assert (out.game, out.structure, out.stakes, out.currency) == (
        Game.SINGLE_DRAW_27, Structure.NO_LIMIT, Stakes(1500, 3000, 3000, 3000), "chips",
    )  # fmt: skip
    assert out.tournament == Tournament("46165833", level="2")
    assert (out.table, out.max_seats, out.button) == ("Fun Step 1", 6, 0)
    assert out.time == datetime(2012, 7, 14, 12, 47, 39, tzinfo=timezone(timedelta(hours=-7)))
    # the balances are what was left after the blinds: the stacks are both together
    assert out.seats == (Seat(0, "Hero", 150000, 4), Seat(2, "Villain", 150000, 5))
    assert replay(out).verdict.ok and out.warnings == ()


def test_a_cancelled_game_event_is_incomplete() -> None:
    text = TOURNAMENT.replace(
        '<round id="END_OF_GAME" sequence="6">',
        '<round id="END_OF_GAME" sequence="6"><event sequence="10" type="GAME_CANCELLED"'
        ' timestamp="10"/>',
    )
    ((_, out),) = list(read_text(text, "t.txt"))
    assert isinstance(out, Skipped) and (out.kind, out.hand_id) == ("incomplete", "46165919-7")


def test_a_returning_players_blinds_beyond_the_big_one_are_both_with_the_small_dead() -> None:
    text = TOURNAMENT.replace(
        "\t</players>",
        '\t\t<player seat="4" nickname="Back" balance="1455" dealtin="true" />\n\t</players>',
    ).replace(
        '\t</round>\n\t<round id="PRE_FIRST_DRAW"',
        '\t\t<event sequence="2" type="RETURN_BLIND" timestamp="2" player="4" amount="45"/>\n'
        '\t</round>\n\t<round id="PRE_FIRST_DRAW"',
    )
    ((_, out),) = list(read_text(text, "t.txt"))
    assert isinstance(out, Hand)
    assert out.posts[2] == Post("Back", PostKind.BOTH_BLINDS, 4500, 11, dead=1500)
    assert out.seat_of("Back") == Seat(4, "Back", 150000, 6)


def test_raises_before_september_2010_state_the_chips_added() -> None:
    good = (MERGE / "3-Draw-Limit-USD-1-2-201104.Sample.with.showdown.txt").read_text()
    old = good.replace('starttime="20110419091134"', 'starttime="20100419091134"')
    ((_, out),) = list(read_text(old, "m.txt"))
    assert isinstance(out, Hand)
    # the small blind's RAISE 2.00 over his 0.50 adds 2 (to 2.50) in the old layout
    assert out.actions[0] == Action("Villain", 0, ActionKind.RAISE, 12, 200, 250)
    ((_, new),) = list(read_text(good, "m.txt"))
    assert isinstance(new, Hand)
    assert new.actions[0] == Action("Villain", 0, ActionKind.RAISE, 12, 150, 200)


def test_a_bet_without_its_amount_is_an_error_at_its_line() -> None:
    good = (MERGE / "3-Draw-Limit-USD-1-2-201104.Sample.with.showdown.txt").read_text()
    bad = good.replace('type="BET" timestamp="1303222332187" player="1" amount="1.00"/>',
                       'type="BET" timestamp="1303222332187" player="1"/>')  # fmt: skip
    ((_, out),) = list(read_text(bad, "m.txt"))
    assert isinstance(out, ParseError)
    assert (out.line, out.message) == (23, "missing amount")


def test_the_importer_stores_the_fifteen_games_and_each_reopens(tmp_path: Path) -> None:
    con = dbmod.connect(tmp_path / "m.duckdb")
    import_paths(con, [MERGE / "3-Draw-Limit-USD-1-2-201104.Multi.hand.sample.txt"], workers=0)
    rows = con.execute(
        "SELECT hand_id, status, site, line, text FROM hands ORDER BY line"
    ).fetchall()
    assert [(r[0], r[1]) for r in rows] == [(f"33423082-{i}", "ok") for i in range(1, 16)]
    # every stored text is one game with its description: it reads again alone
    for hand_id, _, site, line, text in rows:
        record, why = rebuild(site, "m.txt", line, text)
        assert why == "" and record is not None and record.hand_id == hand_id
