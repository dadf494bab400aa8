"""Merge Network (Carbon, Lock...) hand histories: XML, read with parser/xmlhand.py.

Each hand is a ``<game>`` element of rounds and events, after a ``<description type=..
stakes=../>`` that names the game and stakes.  A session file writes the description once,
before its first game: every later game is played under it until another description
comes (3-Draw-Limit-USD-1-2-201104.Multi.hand.sample: 15 games, one description).  So
``split`` gives every game a chunk of its own and puts the description in force in front
of the game's first line, on that same line: the chunk then reads alone (the importer's
workers, reverify and the replayer parse one stored text at a time) and every element
keeps its line in the file.

Events name players by seat (chat by nickname).  Amounts: BET is the bet, RAISE the street
total reached, CALL and ALL_IN the chips added (the replay of "All-in.on.second.draw"
proves it: see tests/parser/test_merge.py).  DRAW gives only a count; the hero's hand after each
draw is a ``DRAW_DRAWN_CARDS`` element, from which the discarded, kept and received cards
follow.  Merge states no rake and no total pot, and writes no uncalled bet: the winner's
amount includes it (5-Carddraw-PL...201111).

Reading is tolerant: an element, round, event or cards type this reader does not know is
an ``UNKNOWN_LINE`` warning at its line and reading goes on; the replay judges the chips.
Only a known element whose chips or cards do not read, or a hand without a usable
description, game or seats, is a ``ParseError``.  The layouts over the years, as the two
open-source trackers that read Merge files describe them (fpdb's MergeToFpdb, HHSmithy's
MergeFastParserImpl): tournaments (``type="2-7 Lowball Tournament"``, stakes ``No Limit
Level 3 Blinds (..)``, balances written after the forced bets), ``starttime`` as
``20110419085211`` or ``2012/07/14 12:47:39 -0700``, balances with or without ``$``,
sitting out, joining and leaving as events, ``GAME_CANCELLED`` as a round or an event,
``RETURN_BLIND`` (a returning player's blinds) and ``COMPLETE`` (a raise to a total).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from datetime import datetime
from typing import Final

from engine.problems import UNKNOWN_LINE
from engine.record import Game, Hand, Post, PostKind, Stakes, Structure, Tournament
from parser.builder import hand_change
from parser.lines import cards, money
from parser.outcome import HandText, Skipped
from parser.xmlhand import Element, XmlReading, elements, xml_hands

SITE = "merge"
_STAKES = re.compile(
    r"^(No Limit|Pot Limit|Limit)\s*(?:Level (\d+) Blinds)?\s*"
    r"\(?([$€£]?)([\d.,]+)\s*/\s*[$€£]?([\d.,]+)\)?$"
)
_STRUCTURES = {"Limit": Structure.FIXED, "Pot Limit": Structure.POT, "No Limit": Structure.NO_LIMIT}
_CURRENCIES = {"$": "USD", "€": "EUR", "£": "GBP"}
_ROUND_DRAW = re.compile(r"^(FIRST|SECOND|THIRD)_DRAW$")
_QUIET_ROUNDS = frozenset({"BLINDS", "SHOWDOWN", "END_OF_GAME", "END_OF_FOLDED_GAME"})
_TOURNAMENT = " Tournament"
_DESCRIPTION = re.compile(r"^<description\b[^>]*?(?:/>|>\s*</description>)")
# Events that move no chip and no card: what they say is kept as a note.
_NOTE_EVENTS: Final = {
    "SIT_OUT": "sit_out",
    "SITTING_OUT": "sitting_out",
    "SIT_IN": "returned",
    "DISCONNECTED": "disconnected",
    "RECONNECTED": "connected",
    "LEAVE": "leave",
    "PLAYER_OUT": "leave",
    "JOIN": "join",
}
_KNOWN_ELEMENTS: Final = frozenset({"description", "game", "players", "player", "round"})
# Merge wrote RAISE as the chips the raise added until it changed to the street total
# reached; fpdb's MergeToFpdb reads the old way for hands before this day.
_RAISE_TO_SINCE = datetime(2010, 9, 8)


def _game(kind: str, structure: Structure) -> Game | None:
    if kind == "2-7 Lowball":
        # Merge deals 2-7 single draw only as no limit; with limits it is triple draw.
        return Game.SINGLE_DRAW_27 if structure is Structure.NO_LIMIT else Game.TRIPLE_DRAW_27
    if kind == "A-5 Lowball":
        return Game.TRIPLE_DRAW_A5
    if kind in ("5-Draw", "5 Card Draw"):
        return Game.FIVE_CARD_DRAW
    return None


def _starts(line: str, buf: list[str]) -> bool:
    """A description starts a hand; so does a game, unless it is the description's own."""
    if line.startswith("<description"):
        return True
    return line.startswith("<game ") and (not buf or any(t.startswith("<game ") for t in buf))


def _ends(line: str) -> int:
    i = line.find("</game>")
    return -1 if i < 0 else i + len("</game>")


def _with_descriptions(chunks: Iterable[HandText]) -> Iterator[HandText]:
    """Every game with the description in force put before its first line (same line)."""
    description: str | None = None
    for chunk in chunks:
        m = _DESCRIPTION.match(chunk.text)
        if m is not None:
            description = m.group(0)
        elif description is not None and chunk.text.startswith("<game "):
            chunk = HandText(chunk.file, chunk.line, description + chunk.text, chunk.site)
        yield chunk


class MergeReader:
    site = SITE

    def sniff(self, head: str) -> bool:
        return "<description type=" in head and "<game id=" in head

    def split(self, lines: Iterable[tuple[int, str]], file: str) -> Iterator[HandText]:
        chunks = xml_hands(
            lines, file, SITE, starts=_starts, ends=_ends, skip=lambda s: s.startswith("<?xml")
        )
        return _with_descriptions(chunks)

    def parse(self, chunk: HandText) -> Hand | Skipped:
        return _MergeHand(chunk, elements(chunk)).parsed()


class _MergeHand(XmlReading):
    def __init__(self, chunk: HandText, els: list[Element]) -> None:
        super().__init__(chunk, els)
        self.by_seat: dict[str, str] = {}
        self.raise_adds = False
        self.big_blind = 0

    def read(self) -> Hand | Skipped:
        desc = next((e for e in self.els if e.tag == "description"), None)
        game_el = next((e for e in self.els if e.tag == "game"), None)
        if desc is None or game_el is None:
            raise self.fail(
                "not a Merge hand: no <description> before the game" if game_el is not None
                else "not a Merge hand", game_el or self.at,
                "<description type=.. stakes=../> then <game ...>",
            )  # fmt: skip
        self.at = game_el
        hand_id = game_el.attrs["id"]
        kind = desc.attrs.get("type", "")
        tournament = kind.endswith(_TOURNAMENT)
        if tournament:
            kind = kind[: -len(_TOURNAMENT)]
        if _game(kind, Structure.FIXED) is None:  # before the stakes: Badugi's are "Half Pot"
            return Skipped.unsupported_game(
                kind,
                site=SITE,
                file=self.chunk.file,
                line=self.chunk.line,
                hand_id=hand_id,
            )
        m = _STAKES.match(desc.attrs.get("stakes", "").strip())
        if m is None:
            raise self.fail("unreadable stakes", desc, "stakes like 'Limit $1/$2'")
        structure = _STRUCTURES[m.group(1)]
        game = _game(kind, structure)
        assert game is not None
        if any(
            e.attrs.get("id" if e.tag == "round" else "type") == "GAME_CANCELLED"
            for e in self.els
            if e.tag in ("round", "event")
        ):
            return Skipped(
                "incomplete",
                "the hand was cancelled (GAME_CANCELLED)",
                site=SITE,
                file=self.chunk.file,
                line=self.chunk.line,
                hand_id=hand_id,
                game=kind,
            )  # fmt: skip
        a, b = money(m.group(4)), money(m.group(5))
        self.big_blind = a if structure is Structure.FIXED else b
        when = _start_time(game_el.attrs.get("starttime", ""))
        if when is None and "starttime" in game_el.attrs:
            self.b.warn(
                UNKNOWN_LINE,
                game_el.line,
                f"a starttime this reader does not know: {game_el.attrs['starttime'][:50]!r}",
            )
        self.raise_adds = when is not None and when.replace(tzinfo=None) < _RAISE_TO_SINCE
        button: int | None = None
        small_blind: int | None = None
        for el in self.els:
            self.at = el
            if el.tag == "players":
                button = int(el.attrs["dealer"]) if "dealer" in el.attrs else None
            elif el.tag == "player":
                self.seat(el)
            elif el.tag == "round":
                rid = el.attrs.get("id", "")
                if _ROUND_DRAW.match(rid):
                    self.b.start_draw()
                elif rid.startswith(("PRE_", "POST_")) or rid in _QUIET_ROUNDS:
                    self.b.in_draw = False
                else:
                    self.unknown(el)
            elif el.tag == "event":
                if el.attrs.get("type") == "SMALL_BLIND" and small_blind is None:
                    small_blind = money(el.attrs.get("amount"))
                self.event(el)
            elif el.tag == "cards":
                self.cards(el)
            elif el.tag == "winner":
                self.winner(el)
            elif el.tag not in _KNOWN_ELEMENTS:
                self.unknown(el)
        if not self.b.seats:
            raise self.fail("a Merge hand without players", game_el, "<player seat=.. ../>")
        if tournament:
            self.forced_bets_back()
        if structure is Structure.FIXED:
            stakes = Stakes(small_blind if small_blind is not None else a // 2, a, a, b)
        else:
            stakes = Stakes(a, b, b, b)
        currency = _CURRENCIES.get(m.group(3), "chips")
        if game_el.attrs.get("realmoney") == "false" or tournament:
            currency = "chips" if tournament else "play"
        data = game_el.attrs.get("data", "").split("|")
        table = re.sub(r" \(\d+\)$", "", data[1]) if len(data) > 1 else ""
        return self.b.build(
            site=SITE,
            hand_id=hand_id,
            table=table,
            game=game,
            structure=structure,
            stakes=stakes,
            currency=currency,
            time=when,
            button=button,
            file=self.chunk.file,
            line=self.chunk.line,
            max_seats=int(game_el.attrs["seats"]) if game_el.attrs.get("seats", "").isdigit()
            else None,
            tournament=_tournament(data, m.group(2)) if tournament else None,
        )  # fmt: skip

    def seat(self, el: Element) -> None:
        seat, name = el.attrs["seat"], el.attrs["nickname"]
        self.by_seat[seat] = name
        self.b.seat(
            int(seat), name, money(el.attrs["balance"]), el.line,
            sitting_out=el.attrs.get("dealtin") == "false",
        )  # fmt: skip

    def forced_bets_back(self) -> None:
        """Tournament balances are written after the blinds and antes (fpdb's MergeToFpdb
        adds them back, in its adjustMergeTourneyStack): the stack is both together."""
        posted: dict[str, int] = {}
        for step in self.b.steps:
            if isinstance(step, Post):
                posted[step.player] = posted.get(step.player, 0) + step.amount
        self.b.seats = [
            replace(s, stack=s.stack + posted[s.player]) if s.player in posted else s
            for s in self.b.seats
        ]

    def player(self, el: Element) -> str:
        """The seated player an event names: by seat, or by nickname as chat does."""
        who = el.attrs.get("player")
        if who in self.by_seat:
            return self.by_seat[who]
        if who is not None and who in self.by_seat.values():
            return who
        raise self.fail(f"player seat {who!r} is not seated", el, "a seated player's seat")

    def event(self, el: Element) -> None:
        kind = el.attrs.get("type", "")
        b, line = self.b, el.line
        if kind == "CHAT":
            b.note("chat", el.attrs.get("text", ""), line, el.attrs.get("player"))
            return
        if kind == "SHOW":
            return  # the cards follow in a <cards type="SHOWN"> element
        if kind in _NOTE_EVENTS:
            who = el.attrs.get("player")
            name = self.by_seat.get(who or "", who)
            b.note(_NOTE_EVENTS[kind], self.text(line), line, name)
            return
        if kind not in _CHIP_EVENTS:
            self.unknown(el)
            return
        p = self.player(el)
        # a move of chips without its amount is a known line that does not read
        amount = money(el.attrs.get("amount")) if kind not in _NO_AMOUNT else 0
        if kind == "SMALL_BLIND":
            b.post(p, PostKind.SMALL_BLIND, amount, line)
        elif kind == "BIG_BLIND":
            b.post(p, PostKind.BIG_BLIND, amount, line)
        elif kind == "INITIAL_BLIND":  # a new player's live big blind
            b.post(p, PostKind.EXTRA, amount, line)
        elif kind == "RETURN_BLIND":
            # a player back from sitting out: up to the big blind live, more is both
            # blinds with the small one dead (fpdb's MergeToFpdb reads it so)
            if amount > self.big_blind:
                b.post(p, PostKind.BOTH_BLINDS, amount, line, dead=amount - self.big_blind)
            else:
                b.post(p, PostKind.EXTRA, amount, line)
        elif kind in ("DEAD_BLIND", "POSTED_DEAD_BLIND"):
            b.post(p, PostKind.EXTRA, amount, line, dead=amount)
        elif kind == "ANTE":
            b.post(p, PostKind.ANTE, amount, line)
        elif kind == "FOLD":
            b.fold(p, line)
        elif kind == "CHECK":
            b.check(p, line)
        elif kind == "CALL":
            b.call(p, line, amount)
        elif kind == "BET":
            b.bet_adding(p, line, amount)
        elif kind == "RAISE":
            if self.raise_adds:
                b.bet_adding(p, line, amount)
            else:
                b.bet_to(p, line, amount)
        elif kind == "COMPLETE":
            b.bet_to(p, line, amount)
        elif kind == "ALL_IN":
            b.push(p, line, amount)
        elif kind == "DRAW":
            text = el.attrs.get("text", "")
            if not text.isdigit() or int(text) > 5:
                raise self.fail(f"unreadable draw count {text!r}", el, 'text="0" to text="5"')
            count = int(text)
            if count == 0:
                b.draw(p, 0, line, discarded=(), received=())
            else:
                b.draw(p, count, line)
        elif kind == "MUCK":
            b.muck(p, line)

    def cards(self, el: Element) -> None:
        kind = el.attrs.get("type", "")
        if kind not in ("HOLE", "DRAW_DRAWN_CARDS", "SHOWN", "MUCKED"):
            self.unknown(el)
            return
        p = self.player(el)
        shown = cards(el.attrs.get("cards", ""))
        if kind == "HOLE":
            self.b.deal(p, shown)
        elif kind == "DRAW_DRAWN_CARDS":
            index = self.b.last_draw_of(p)
            if index is None:
                raise self.fail(f"drawn cards for {p} without a DRAW event", el, "a DRAW event")
            before = self.b.holding.get(p)
            if before is not None:
                thrown, kept, got = hand_change(before, shown)
                self.b.fill_draw(index, discarded=thrown, kept=kept, received=got)
            self.b.holding[p] = shown
        elif kind == "SHOWN":
            self.b.show(p, shown, el.line)
        else:
            self.b.show(p, shown, el.line, mucked=True)

    def winner(self, el: Element) -> None:
        p = self.player(el)
        amount = money(el.attrs.get("amount"))
        if el.attrs.get("uncalled") == "true":
            self.b.uncalled(p, amount, el.line)
            return
        number = el.attrs.get("potnumber", "")
        self.b.collect(p, amount, el.line, int(number) - 1 if number.isdigit() else None)


_CHIP_EVENTS: Final = frozenset({
    "SMALL_BLIND", "BIG_BLIND", "INITIAL_BLIND", "RETURN_BLIND", "DEAD_BLIND",
    "POSTED_DEAD_BLIND", "ANTE", "FOLD", "CHECK", "CALL", "BET", "RAISE", "COMPLETE",
    "ALL_IN", "DRAW", "MUCK",
})  # fmt: skip


_NO_AMOUNT: Final = frozenset({"FOLD", "CHECK", "DRAW", "MUCK"})


def _start_time(text: str) -> datetime | None:
    """``20110419085211`` (the table's clock) or ``2012/07/14 12:47:39 -0700``."""
    for layout in ("%Y%m%d%H%M%S", "%Y/%m/%d %H:%M:%S %z", "%Y/%m/%d %H:%M:%S"):
        try:
            return datetime.strptime(text.strip(), layout)
        except ValueError:
            continue
    return None


def _tournament(data: list[str], level: str | None) -> Tournament:
    """``data="20120101|$200 Freeroll - NL Holdem|46245544-1|46289039-1|true"``: the third
    field is the tournament and its table; the level is the description's."""
    tid = data[2].split("-")[0] if len(data) > 2 else ""
    return Tournament(tid or (data[1] if len(data) > 1 else ""), level=level)
