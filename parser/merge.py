"""Merge Network (Carbon, Lock...) hand histories: XML, read with parser/xmlhand.py.

Each hand is a ``<description type=".." stakes=".."/>`` followed by a ``<game>`` element
of rounds and events.  Events name players by seat (chat by nickname).  Amounts: BET is
the bet, RAISE the street total reached, CALL and ALL_IN the chips added (the replay of
"All-in.on.second.draw" proves it: see tests/test_merge.py).  DRAW gives only a count;
the hero's hand after each draw is a ``DRAW_DRAWN_CARDS`` element, from which the
discarded, kept and received cards follow.  Merge states no rake and no total pot, and
writes no uncalled bet: the winner's amount includes it (5-Carddraw-PL...201111).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from datetime import datetime

from engine.record import Game, Hand, PostKind, Stakes, Structure
from parser.builder import HandBuilder, hand_change
from parser.lines import FieldError, cards, money
from parser.outcome import HandText, ParseError, Skipped
from parser.xmlhand import Element, elements, xml_hands

SITE = "merge"
_STAKES = re.compile(r"^(No Limit|Pot Limit|Limit) \(?([$€£]?)([\d.,]+)\/[$€£]?([\d.,]+)\)?$")
_STRUCTURES = {"Limit": Structure.FIXED, "Pot Limit": Structure.POT, "No Limit": Structure.NO_LIMIT}
_CURRENCIES = {"$": "USD", "€": "EUR", "£": "GBP"}
_ROUND_DRAW = re.compile(r"^(FIRST|SECOND|THIRD)_DRAW$")
_QUIET_ROUNDS = frozenset({"BLINDS", "SHOWDOWN", "END_OF_GAME", "END_OF_FOLDED_GAME"})


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
    if line.startswith("<description"):
        return True
    return line.startswith("<game ") and any(t.startswith("<game ") for t in buf)


def _ends(line: str) -> int:
    i = line.find("</game>")
    return -1 if i < 0 else i + len("</game>")


class MergeReader:
    site = SITE

    def sniff(self, head: str) -> bool:
        return "<description type=" in head and "<game id=" in head

    def split(self, lines: Iterable[tuple[int, str]], file: str) -> Iterator[HandText]:
        return xml_hands(lines, file, SITE, _starts, _ends, lambda s: s.startswith("<?xml"))

    def parse(self, chunk: HandText) -> Hand | Skipped:
        els = elements(chunk)
        try:
            return _MergeHand(chunk, els).read()
        except (FieldError, KeyError, ValueError) as e:
            raise _error(chunk, els, str(e)) from None


def _error(
    chunk: HandText, els: list[Element], message: str, at: Element | None = None
) -> ParseError:
    line = at.line if at is not None else chunk.line
    text = chunk.text.split("\n")[line - chunk.line] if line >= chunk.line else ""
    return ParseError(message, file=chunk.file, line=line, line_text=text.strip())


class _MergeHand:
    def __init__(self, chunk: HandText, els: list[Element]) -> None:
        self.chunk = chunk
        self.els = els
        self.b = HandBuilder()
        self.by_seat: dict[str, str] = {}

    def fail(self, message: str, el: Element, expected: str = "") -> ParseError:
        text = self.chunk.text.split("\n")[el.line - self.chunk.line].strip()
        return ParseError(
            message, file=self.chunk.file, line=el.line, line_text=text, expected=expected
        )

    def read(self) -> Hand | Skipped:
        desc = next((e for e in self.els if e.tag == "description"), None)
        game_el = next((e for e in self.els if e.tag == "game"), None)
        if desc is None or game_el is None:
            at = self.els[0] if self.els else Element("?", {}, self.chunk.line, 0)
            raise self.fail(
                "not a Merge hand", at, "<description type=.. stakes=../> then <game ...>"
            )
        hand_id = game_el.attrs["id"]
        kind = desc.attrs.get("type", "")
        if _game(kind, Structure.FIXED) is None:  # before the stakes: Badugi's are "Half Pot"
            return Skipped.unsupported_game(
                kind,
                SITE,
                self.chunk.file,
                self.chunk.line,
                hand_id,
            )
        m = _STAKES.match(desc.attrs.get("stakes", ""))
        if m is None:
            raise self.fail("unreadable stakes", desc, "stakes like 'Limit $1/$2'")
        structure = _STRUCTURES[m.group(1)]
        game = _game(kind, structure)
        assert game is not None
        if any(e.tag == "round" and e.attrs.get("id") == "GAME_CANCELLED" for e in self.els):
            return Skipped(
                "incomplete",
                "the hand was cancelled (GAME_CANCELLED)",
                SITE,
                self.chunk.file,
                self.chunk.line,
                hand_id,
                kind,
            )
        button: int | None = None
        small_blind: int | None = None
        for el in self.els:
            if el.tag == "players":
                button = int(el.attrs["dealer"]) if "dealer" in el.attrs else None
            elif el.tag == "player":
                seat, name = el.attrs["seat"], el.attrs["nickname"]
                self.by_seat[seat] = name
                self.b.seat(
                    int(seat),
                    name,
                    money(el.attrs["balance"]),
                    el.line,
                    sitting_out=el.attrs.get("dealtin") == "false",
                )
            elif el.tag == "round":
                rid = el.attrs.get("id", "")
                if _ROUND_DRAW.match(rid):
                    self.b.start_draw()
                elif rid.startswith(("PRE_", "POST_")) or rid in _QUIET_ROUNDS:
                    self.b.in_draw = False
                else:
                    raise self.fail(f"unknown round {rid!r}", el, "a Merge round id")
            elif el.tag == "event":
                if el.attrs.get("type") == "SMALL_BLIND" and small_blind is None:
                    small_blind = money(el.attrs["amount"])
                self.event(el)
            elif el.tag == "cards":
                self.cards(el)
            elif el.tag == "winner":
                self.winner(el)
            elif el.tag not in ("description", "game"):
                raise self.fail(f"unknown element <{el.tag}>", el, "a Merge hand element")
        a, b = money(m.group(3)), money(m.group(4))
        if structure is Structure.FIXED:
            stakes = Stakes(small_blind if small_blind is not None else a // 2, a, a, b)
        else:
            stakes = Stakes(a, b, b, b)
        currency = _CURRENCIES.get(m.group(2), "chips")
        if game_el.attrs.get("realmoney") == "false":
            currency = "play"
        data = game_el.attrs.get("data", "").split("|")
        table = re.sub(r" \(\d+\)$", "", data[1]) if len(data) > 1 else ""
        when = None
        if "starttime" in game_el.attrs:
            when = datetime.strptime(game_el.attrs["starttime"], "%Y%m%d%H%M%S")
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
        )

    def player(self, el: Element) -> str:
        seat = el.attrs.get("player")
        if seat is None or seat not in self.by_seat:
            raise self.fail(f"player seat {seat!r} is not seated", el, "a seated player's seat")
        return self.by_seat[seat]

    def event(self, el: Element) -> None:
        kind = el.attrs.get("type", "")
        b, line = self.b, el.line
        if kind == "CHAT":
            b.note("chat", el.attrs.get("text", ""), line, el.attrs.get("player"))
            return
        p = self.player(el)
        amount = money(el.attrs["amount"]) if "amount" in el.attrs else 0
        if kind == "SMALL_BLIND":
            b.post(p, PostKind.SMALL_BLIND, amount, line)
        elif kind == "BIG_BLIND":
            b.post(p, PostKind.BIG_BLIND, amount, line)
        elif kind == "INITIAL_BLIND":  # a new player's live big blind
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
            b.bet_to(p, line, amount)
        elif kind == "ALL_IN":
            b.push(p, line, amount)
        elif kind == "DRAW":
            count = int(el.attrs.get("text", ""))
            if count == 0:
                b.draw(p, 0, line, discarded=(), received=())
            else:
                b.draw(p, count, line)
        elif kind == "SHOW":
            pass  # the cards follow in a <cards type="SHOWN"> element
        elif kind == "MUCK":
            b.muck(p, line)
        else:
            raise self.fail(f"unknown event type {kind!r}", el, "a Merge event type")

    def cards(self, el: Element) -> None:
        kind = el.attrs.get("type", "")
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
        elif kind == "MUCKED":
            self.b.show(p, shown, el.line, mucked=True)
        else:
            raise self.fail(
                f"unknown cards type {kind!r}", el, "HOLE, DRAW_DRAWN_CARDS, SHOWN, MUCKED"
            )

    def winner(self, el: Element) -> None:
        p = self.player(el)
        amount = money(el.attrs["amount"])
        if el.attrs.get("uncalled") == "true":
            self.b.uncalled(p, amount, el.line)
            return
        number = el.attrs.get("potnumber")
        self.b.collect(p, amount, el.line, int(number) - 1 if number else None)
