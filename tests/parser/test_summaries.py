"""Every real tournament summary in the shared corpus, read field by field."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.record import Game
from engine.tournament import Finish, Kind, TournamentSummary
from parser.outcome import ParseError
from parser.summaries import amount, read_summary_stream, summary_site
from tests.corpus import CORPUS

SUMMARIES = CORPUS.parent / "summaries"
FTP = CORPUS / "summaries" / "FTP"


def read(path: Path) -> TournamentSummary:
    found = read_summary_stream(io.BytesIO(path.read_bytes()), path.name)
    assert found is not None
    [summary] = found
    assert isinstance(summary, TournamentSummary), summary
    return summary


def fields(summary: TournamentSummary, *names: str) -> dict[str, object]:
    return {name: getattr(summary, name) for name in names}


def at(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


MONEY = ("currency", "buy_in", "fee", "bounty", "entrants", "prize_pool")
PLAYER = ("player", "place", "prize", "ticket", "entries", "rebuys", "addons",
          "bounties_won", "cost", "net", "running")


def test_re_entries_of_the_2_7_single_draw_event() -> None:
    s = read(SUMMARIES / "Stars" / "NLSD-MTT-USD-1000-50-201609.reentry.txt")
    assert fields(s, "site", "tournament_id", "game_text", "game", *MONEY) == {
        "site": "pokerstars", "tournament_id": "1646040883",
        "game_text": "No Limit Single Draw 2-7 Lowball", "game": Game.SINGLE_DRAW_27,
        "currency": "USD", "buy_in": 100000, "fee": 5000, "bounty": 0, "entrants": 104,
        "prize_pool": 14500000,
    }
    assert (s.started, s.finished, s.running) == (
        at(2016, 9, 6, 14, 10), at(2016, 9, 7, 17, 43, 46), False
    )
    assert s.player == "" and s.place is None  # the file names no player of its own
    assert len(s.finishes) == 145
    assert s.finishes[4] == Finish(5, "blanconegro", 1126710, 11, entry=2, country="Mexico")
    assert s.finishes[0] == Finish(1, "nilsef", 3051194, 7, country="Germany")
    assert s.finishes[14] == Finish(15, "Antonio7", 0, 21, country="Canada")
    assert sum(f.prize for f in s.finishes) == 14500000  # to the cent
    assert sum(f.entry == 2 for f in s.finishes) == 41
    assert s.kinds == {Kind.MULTI_TABLE}


def test_knockout_still_running_with_bounty_count() -> None:
    s = read(SUMMARIES / "FTP" / "NLHE-MTT-USD-255-201408.KO.count.bounties.txt")
    assert fields(s, "site", "tournament_id", "name", "game_text", *MONEY) == {
        "site": "fulltilt", "tournament_id": "271310526", "name": "The Sunday Brawl",
        "game_text": "Hold'em No Limit", "currency": "USD", "buy_in": 24000, "fee": 1500,
        "bounty": 4000, "entrants": 706, "prize_pool": 14120000,
    }
    assert fields(s, *PLAYER, "knockouts") == {
        "player": "Hero", "place": 38, "prize": 49420, "ticket": "", "entries": 1,
        "rebuys": 0, "addons": 0, "bounties_won": 16000, "cost": 29500, "net": 35920,
        "running": True, "knockouts": 4,
    }
    assert (s.started, s.finished) == (at(2014, 8, 3, 15, 3), None)
    assert sum(f.place is None for f in s.finishes) == 37


def test_utf16_fpp_rebuys_and_add_ons() -> None:
    s = read(SUMMARIES / "FTP" / "NLHE-MTT-FPP-25-201308.Rebuys.Addons.txt")
    assert fields(s, "tournament_id", "name", "target", "rebuy_cost", "addon_cost",
                  "total_rebuys", "total_addons", *MONEY) == {
        "tournament_id": "258129024", "name": "M. Rebuy to MiniFTOPS #1",
        "target": "255704809", "rebuy_cost": 2500, "addon_cost": 2500, "total_rebuys": 264,
        "total_addons": 13, "currency": "FTP", "buy_in": 2500, "fee": 0, "bounty": 0,
        "entrants": 91, "prize_pool": 920000,
    }
    assert fields(s, *PLAYER) == {
        "player": "w507w", "place": 10, "prize": 0, "ticket": "", "entries": 1,
        "rebuys": 11, "addons": 1, "bounties_won": 0, "cost": 32500, "net": -32500,
        "running": False,
    }
    assert s.finishes[0] == Finish(1, "mybankrollsmall", 2200, 35, ticket="MiniFTOPS Ticket")
    assert s.finishes[2] == Finish(3, "FT23", 10000, 39)
    assert Kind.SATELLITE in s.kinds
    assert (s.started, s.finished) == (at(2013, 8, 24, 9, 44), at(2013, 8, 24, 12, 22, 47))


def test_satellite_with_lines_run_together() -> None:
    s = read(SUMMARIES / "FTP" / "10Game-USD-SnG-8-201404.Satellite.to.Mini.FTOPS.line.error.txt")
    assert fields(s, "total_rebuys", "prize_pool", "target", "game_text", "buy_in", "fee") == {
        "total_rebuys": 2, "prize_pool": 5500, "target": "264533392", "game_text": "10-Game",
        "buy_in": 800, "fee": 70,
    }
    assert fields(s, "player", "place", "rebuys", "cost", "net") == {
        "player": "Hero", "place": 2, "rebuys": 1, "cost": 1670, "net": -1670,
    }
    assert s.finishes[0] == Finish(1, "Player0", 1300, 15, ticket="MiniFTOPS Ticket")
    assert s.kinds == {Kind.SATELLITE, Kind.SIT_AND_GO}


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("27SD-USD-MTT-1-201303.txt", {
            "tournament_id": "251286379", "game": Game.SINGLE_DRAW_27, "buy_in": 100,
            "fee": 10, "rebuy_cost": 100, "addon_cost": 100, "entrants": 30,
            "prize_pool": 10000, "total_rebuys": 12, "total_addons": 12,
            "player": "synthesiis", "place": 11, "prize": 0, "cost": 110,
            "started": at(2013, 3, 23, 1, 11), "finished": at(2013, 3, 23, 5, 17, 13)}),
        ("27TD-USD-HUSnG-201101.Hero.wins.txt", {
            "tournament_id": "211366000", "game": Game.TRIPLE_DRAW_27, "buy_in": 3000,
            "fee": 150, "entrants": 2, "prize_pool": 6000, "player": "sljons91", "place": 1,
            "prize": 6000, "cost": 3150, "net": 2850, "kinds": {Kind.SIT_AND_GO},
            "started": at(2011, 1, 12, 6, 1, 27), "finished": at(2011, 1, 12, 6, 21, 53)}),
        ("3-Draw-Limit-USD-STT-2max-10-201211.Hero.loses.txt", {
            "tournament_id": "243560420", "game": Game.TRIPLE_DRAW_27, "buy_in": 960,
            "fee": 40, "prize_pool": 1920, "player": "OrangeWater", "place": 2, "prize": 0,
            "net": -1000}),
    ],
)
def test_full_tilt_draw_summaries(name: str, expected: dict[str, object]) -> None:
    assert fields(read(FTP / name), *expected) == expected


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("FTP/NLHE-USD-SnG-6man-201101.Hero.cashes.txt", {
            "tournament_id": "214900008", "name": "$2 + $0.25 Sit & Go", "buy_in": 200,
            "fee": 25, "entrants": 6, "prize_pool": 1200, "player": "Hero", "place": 1,
            "prize": 780, "net": 555, "kinds": {Kind.SIT_AND_GO}}),
        ("FTP/Razz-USD-SnG-2man-201211.super.turbo.heads.up.txt", {
            "game_text": "Razz Limit", "game": None, "buy_in": 5883, "fee": 117,
            "prize_pool": 11766, "player": "Makksmakkmao", "place": 1, "prize": 11766,
            "started": at(2012, 11, 6, 22, 8, 23), "finished": at(2012, 11, 6, 22, 9, 52)}),
        ("Stars/8-Game-2max-STT-play-100-201306.homeGame.shootout.txt", {
            "tournament_id": "743144019", "game_text": "8-Game", "currency": "PLAY",
            "buy_in": 10000, "fee": 900, "entrants": 2, "prize_pool": 20000,
            "player": "Hero", "place": 1, "prize": 20000, "cost": 10900, "net": 9100,
            "started": at(2013, 6, 6, 3, 30), "finished": None}),
        ("Stars/NLHE-EUR-STT-0.42-201102.emailed.cp1252.txt", {
            "tournament_id": "361786920", "currency": "EUR", "buy_in": 42, "fee": 8,
            "entrants": 10, "prize_pool": 420, "player": "Hero", "place": 2, "prize": 90,
            "net": 40, "started": at(2011, 2, 6, 21, 17, 47), "finishes": ()}),
        ("Stars/NLHE-MTT-FPP-100-201309.Still.Playing.Super.Satellite.txt", {
            "currency": "FPP", "buy_in": 10000, "fee": 0, "entrants": 36,
            "prize_pool": 360000, "target": "821010003", "player": "NoFlaVor", "place": 29,
            "running": True, "cost": 10000, "kinds": {Kind.SATELLITE, Kind.MULTI_TABLE}}),
        ("Stars/NLHE-USD-5-201603.Sunday.Million.ticket.txt", {
            "buy_in": 470, "fee": 30, "entrants": 3, "prize_pool": None, "player": "inde02",
            "place": 2, "prize": 0, "net": -500}),
        ("Stars/NLHE-USD-HUSnG-10-201011.s0rrow.wins.txt", {
            "tournament_id": "329052872", "line": 4, "buy_in": 1000, "fee": 50,
            "player": "Hero", "place": 1, "prize": 2000, "net": 950,
            "started": at(2010, 11, 7, 13, 3, 52), "finished": at(2010, 11, 7, 13, 21, 44)}),
        ("Stars/NLHE-USD-MTT-4max-2.00-201011.Stars.local.format.txt", {
            "tournament_id": "329147523", "buy_in": 200, "fee": 20, "entrants": 440,
            "prize_pool": 88000, "player": "Hero", "place": 269, "running": True}),
        ("Stars/NLHE-4max-MTT-USD-2-201305.shootout.txt", {
            "entrants": 348, "player": "Hero", "place": 63, "prize": 522, "net": 302,
            "started": at(2013, 5, 26, 19, 45)}),
        ("Stars/NLHE-9max-MTT-USD-2.50-201305.KO.v1.txt", {
            "tournament_id": "734695129", "buy_in": 250, "fee": 20, "entrants": 5305,
            "prize_pool": 1061000, "player": "Hero", "place": 2788, "net": -270}),
        ("Stars/PLO-MTT-USD-505-25-202005.rebuy.addon.txt", {
            "buy_in": 50500, "fee": 2500, "place": 47, "rebuys": 5, "addons": 1,
            "paid_extra": 318000, "cost": 371000, "net": -371000,
            "started": at(2020, 5, 6, 18, 15), "finished": at(2020, 5, 8, 1, 22, 59)}),
        ("Winamax/NLHE-EUR-0.46-STT-201110.hero.cashed.txt", {
            "site": "winamax", "tournament_id": "13828726", "name": "Quitte ou Double",
            "currency": "EUR", "buy_in": 46, "fee": 4, "entrants": 10, "prize_pool": 460,
            "player": "Hero", "place": 3, "prize": 92, "net": 42,
            "started": at(2011, 10, 31, 17, 11, 45), "finished": at(2011, 10, 31, 18, 2, 45)}),
        ("Winamax/NLHE-EUR-MTT-10-201704.rebuys.addons.txt", {
            "name": "W SERIES Event 102", "game_text": "holdem-no-limit", "buy_in": 900,
            "fee": 100, "rebuy_cost": 1000, "addon_cost": 1000, "entrants": 1743,
            "total_rebuys": 1717, "total_addons": 912, "prize_pool": 3934800,
            "player": "I_LIMP_KQJT", "place": 845, "rebuys": 1, "addons": 1, "cost": 3000,
            "net": -3000, "kinds": {Kind.MULTI_TABLE}}),
        ("Winamax/NLHE-EUR-SNG-25-201704.new.format.txt", {
            "name": "Expresso", "buy_in": 2325, "fee": 175, "entrants": 3,
            "prize_pool": 5000, "place": 1, "prize": 5000, "net": 2500,
            "kinds": {Kind.SIT_AND_GO}, "finished": at(2017, 4, 12, 0, 47, 52)}),
        ("Winamax/NLHE-Freeroll-Ticket-STT-201208.txt", {
            "name": "Super Freeroll Stade 1", "ticket_entry": True, "currency": "EUR",
            "buy_in": 0, "prize_pool": 0, "player": "Hero", "place": 1, "cost": 0}),
    ],
)
def test_every_other_corpus_summary(path: str, expected: dict[str, object]) -> None:
    assert fields(read(SUMMARIES / path), *expected) == expected


def test_every_summary_file_reads() -> None:
    files = sorted(SUMMARIES.rglob("*.txt")) + sorted(FTP.glob("*.txt"))
    assert len(files) == 22
    assert all(isinstance(read(p), TournamentSummary) for p in files)


def test_a_knockout_re_entry_cost_bounties_and_net() -> None:
    text = (
        "PokerStars Tournament #2000000001, Triple Draw 2-7 Lowball\n"
        "Buy-In: $250.00/$250.00/$30.00 USD\n"
        "60 players\nTotal Prize Pool: $15000.00 USD\n"
        "Tournament started 2024/01/07 20:00:00 ET\n"
        "Tournament finished 2024/01/08 1:30:00 ET\n"
        "  1: winner (Canada), $6,000.00 (40%)\n"
        "  2: Hero [2] (Germany), $3,750.00 (25%)\n"
        "  9: Hero (Germany),\n\n"
        "You finished in 2nd place and received $3,750.00.\n"
        "You received a total of $812.50 for eliminating 4 players.\n"
    )
    [s] = read_summary_stream(io.BytesIO(text.encode()), "ko.txt") or []
    assert isinstance(s, TournamentSummary)
    assert fields(s, "game", "buy_in", "bounty", "fee", *PLAYER, "knockouts") == {
        "game": Game.TRIPLE_DRAW_27, "buy_in": 25000, "bounty": 25000, "fee": 3000,
        "player": "Hero", "place": 2, "prize": 375000, "ticket": "", "entries": 2,
        "rebuys": 0, "addons": 0, "bounties_won": 81250, "cost": 106000, "net": 350250,
        "running": False, "knockouts": 4,
    }
    assert s.started == at(2024, 1, 8, 1) and s.finished == at(2024, 1, 8, 6, 30)


def test_an_amount_that_does_not_read_is_an_error_at_its_line() -> None:
    text = "Full Tilt Poker Tournament Summary X (5) Badugi Limit\nBuy-In: $1.2.3 + $0.10\n"
    [error] = read_summary_stream(io.BytesIO(text.encode()), "bad.txt") or []
    assert isinstance(error, ParseError)
    assert (error.file, error.line, error.line_text) == ("bad.txt", 2, "Buy-In: $1.2.3 + $0.10")


def test_several_summaries_in_one_file_each_read() -> None:
    one = "PokerStars Tournament #{0}, Badugi\nBuy-In: $1.00/$0.10 USD\n9 players\n\n"
    found = read_summary_stream(io.BytesIO((one.format(1) + one.format(2)).encode()), "x")
    assert [(s.tournament_id, s.line, s.game) for s in found or []
            if isinstance(s, TournamentSummary)] == [("1", 1, Game.BADUGI), ("2", 5, Game.BADUGI)]


def test_hand_histories_are_not_summaries() -> None:
    assert summary_site("PokerStars Hand #1: Tournament #2, $1+$0.10 USD Badugi") is None
    assert summary_site("PokerStars Tournament #1: Hold'em No Limit") is None
    assert summary_site("\ufeff\n\nWinamax Poker - Tournament summary : X(1)") == "winamax"


def test_amounts_as_summaries_write_them() -> None:
    assert amount("$13 MiniFTOPS Ticket") is not None
    assert [(a.value, a.currency, a.rest) for a in
            (amount(t) for t in ("$30,511.94 (21.042%)", "0.46€", "9,200 FTP", "USD 1"))
            if a is not None] == [(3051194, "USD", "(21.042%)"), (46, "EUR", ""),
                                  (920000, "FTP", "")]


def test_damaged_summaries_never_raise() -> None:
    import random

    rng = random.Random(36)
    files = sorted(SUMMARIES.rglob("*.txt")) + sorted(FTP.glob("*.txt"))
    outcomes = 0
    for path in files:
        text = path.read_bytes()[:6000]
        for _ in range(25):
            data = bytearray(text)
            for _ in range(rng.randint(1, 12)):
                at = rng.randrange(len(data))
                data[at:at + rng.randint(0, 8)] = bytes(rng.choice(b"0123456789$:,.#/ \n(")
                                                        for _ in range(rng.randint(0, 6)))
            found = read_summary_stream(io.BytesIO(bytes(data)), path.name)
            outcomes += len(found or [])
            assert all(isinstance(o, TournamentSummary | ParseError) for o in found or [])
    assert outcomes > 300


def test_numbers_too_large_for_any_tournament_are_errors() -> None:
    text = "PokerStars Tournament #1, Badugi\nBuy-In: $1.00/$0.10 USD\n99999999999 players\n"
    [error] = read_summary_stream(io.BytesIO(text.encode()), "big.txt") or []
    assert isinstance(error, ParseError) and (error.line, error.message) == (
        3, "not a count: '99999999999'")
    assert amount("$99999999999999999") is None
