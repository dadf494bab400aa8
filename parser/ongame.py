"""OnGame hand histories: the grammar is grammars/ongame.lark.

OnGame writes money in parentheses on posts, "raises $4 to $5" (chips added, then the
total), "changed 2 cards" for a draw and the hero's whole new hand after it ("New hand
for Hero: [...]"), so the discarded, kept and received cards follow from the two hands.
Missed blinds are a live "posts big blind" plus "posts dead blind" (all dead).  The
summary gives each pot with its winners, the rake, and each seat's net and shown cards.
Some hands give the hero's new hand with no "changed" line before it: the draw follows
from the two hands and is recorded with a ``DRAW_INFERRED`` warning.  Reading is
tolerant (parser/lines.py): a line the reader does not know, or one out of place, is a
warning on the hand; the replay judges the chips and cards.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from datetime import datetime
from re import Match

from engine.problems import DRAW_INFERRED
from engine.record import Game, Hand, PostKind, Stakes, Structure
from parser.builder import HandBuilder, hand_change
from parser.lines import (
    Classifier,
    FieldError,
    LineGrammar,
    LineHandler,
    betting_handlers,
    cards,
    header_error,
    money,
    no_seats,
    numbered_hands,
    read_lines,
    site_grammar,
)
from parser.outcome import HandText, ParseError, Skipped
from parser.times import in_utc

SITE = "ongame"
_START = "***** History for hand "
_GAMES = {
    "FIVE_CARD_DRAW": Game.FIVE_CARD_DRAW,
    "TRIPLE_DRAW_2_7": Game.TRIPLE_DRAW_27,
    "TRIPLE_DRAW_27": Game.TRIPLE_DRAW_27,
    "SINGLE_DRAW_2_7": Game.SINGLE_DRAW_27,
}
_STRUCTURES = {"LIMIT": Structure.FIXED, "POT_LIMIT": Structure.POT, "NO_LIMIT": Structure.NO_LIMIT}
_CURRENCIES = {"$": "USD", "€": "EUR", "£": "GBP"}
_WINNER = re.compile(r"(?P<player>.+?) \((?P<amount>[$€£]?[\d.,]+)\)(?:, |$)")


def grammar() -> LineGrammar:
    return site_grammar("ongame.lark")


@functools.cache
def sections() -> tuple[Classifier, ...]:
    """The time, table, button and seats; then play; then the summary."""
    g = grammar()
    return (
        g.classifier(("START_TIME", "TABLE", "USER", "BUTTON", "PLAYERS", "SEAT", "CHAT")),
        g.classifier((
            "SMALL_BLIND", "BIG_BLIND", "DEAD_BLIND", "ANTE", "SEPARATOR", "DEALING", "DEALT",
            "FOLDS", "CHECKS", "CALLS", "BETS", "RAISES", "UNCALLED", "CHANGED", "NEW_HAND",
            "CHAT",
        )),
        g.classifier(("SUMMARY", "POT_WON", "RAKE", "SUMMARY_SEAT", "SEPARATOR", "END_HAND")),
    )


class OnGameReader:
    site = SITE

    def sniff(self, head: str) -> bool:
        return any(x.lstrip("\ufeff").startswith(_START) for x in head.splitlines()[:40])

    def split(self, lines: Iterable[tuple[int, str]], file: str) -> Iterator[HandText]:
        return numbered_hands(lines, lambda s: s.startswith(_START), file, SITE)

    def parse(self, chunk: HandText) -> Hand | Skipped:
        lines = chunk.text.split("\n")
        first = lines[0]
        start = grammar().regex("START_HAND").match(first)
        if start is None:
            raise ParseError(
                "not the start of an OnGame hand",
                file=chunk.file,
                line=chunk.line,
                line_text=first,
                expected="'***** History for hand R5-123-4 *****'",
            )
        table_re = grammar().regex("TABLE")
        for i, text in enumerate(lines[:6]):
            t = table_re.match(text)
            if t is not None and t["game"] not in _GAMES:
                return Skipped.unsupported_game(
                    t["game"],
                    site=SITE,
                    file=chunk.file,
                    line=chunk.line + i,
                    hand_id=start["hand_id"],
                )
        reading = _OnGameHand(chunk)
        read_lines(chunk, sections(), reading.handlers(), reading.b)
        if not reading.b.seats:
            raise no_seats(chunk)
        try:
            return reading.finish(start["hand_id"])
        except ValueError as e:
            raise header_error(chunk, e) from None


class _OnGameHand:
    def __init__(self, chunk: HandText) -> None:
        self.chunk = chunk
        self.b = HandBuilder()
        self.time: datetime | None = None
        self.table: Match[str] | None = None  # the table line: name, limit, game, stakes
        self.button: int | None = None
        self.user: str | None = None
        self.total_pot = 0
        self.rake: int | None = None
        self.small_blind: int | None = None

    def handlers(self) -> dict[str, LineHandler]:
        b = self.b
        return {
            "START_TIME": self.start_time,
            "TABLE": lambda m, line, _t: setattr(self, "table", m),
            "USER": lambda m, line, _t: setattr(self, "user", m["player"]),
            "BUTTON": lambda m, line, _t: setattr(self, "button", int(m["seat"])),
            "SEAT": lambda m, line, _t: b.seat(
                int(m["seat"]), m["player"], money(m["stack"]), line
            ),
            "SMALL_BLIND": self.small_blind_post,
            "BIG_BLIND": lambda m, line, _t: b.post(
                m["player"], PostKind.BIG_BLIND, money(m["amount"]), line
            ),
            "DEAD_BLIND": self.dead_blind,
            "ANTE": lambda m, line, _t: b.post(
                m["player"], PostKind.ANTE, money(m["amount"]), line
            ),
            "DEALT": lambda m, line, _t: b.deal(m["player"], cards(m["cards"])),
            **betting_handlers(b),
            "UNCALLED": lambda m, line, _t: b.uncalled(m["player"], money(m["amount"]), line),
            "CHANGED": self.changed,
            "NEW_HAND": self.new_hand,
            "POT_WON": self.pot_won,
            "RAKE": lambda m, line, _t: setattr(self, "rake", money(m["amount"])),
            "SUMMARY_SEAT": self.summary_seat,
            "CHAT": lambda m, line, text: b.note("chat", text, line, m["player"]),
        }

    def start_time(self, m: Match[str], line: int, text: str) -> None:
        when = datetime.strptime(f"{m['time']} {m['year']}", "%b %d %H:%M:%S %Y")
        self.time = in_utc(when, m["zone"]) or when  # as written when the zone is unknown

    def small_blind_post(self, m: Match[str], line: int, _text: str) -> None:
        amount = money(m["amount"])
        if self.small_blind is None:
            self.small_blind = amount
        self.b.post(m["player"], PostKind.SMALL_BLIND, amount, line)

    def dead_blind(self, m: Match[str], line: int, _text: str) -> None:
        amount = money(m["amount"])
        self.b.post(m["player"], PostKind.EXTRA, amount, line, dead=amount)

    def changed(self, m: Match[str], line: int, _text: str) -> None:
        count = int(m["count"])
        if count == 0:
            self.b.draw(m["player"], 0, line, discarded=(), received=())
        else:
            self.b.draw(m["player"], count, line)

    def new_hand(self, m: Match[str], line: int, text: str) -> None:
        player, after = m["player"], cards(m["cards"])
        before = self.b.holding.get(player)
        index = self.b.last_draw_of(player)
        if index is None and before is not None:
            # no "changed N cards" line: the draw is what the two hands differ by
            thrown, kept, got = hand_change(before, after)
            self.b.draw(player, len(thrown), line, discarded=thrown, kept=kept, received=got)
            self.b.warn(
                DRAW_INFERRED,
                line,
                f"{player}'s draw of {len(thrown)} worked out from the new hand: "
                "no 'changed N cards' line",
            )
            self.b.holding[player] = after
            return
        index = self.b.draw_needed(
            player,
            f"a new hand for {player} with neither a draw line nor a hand before it",
            chunk=self.chunk,
            line=line,
            text=text,
            expected=f"'Dealing to {player}: [...]' or '{player} changed N cards' before it",
        )
        if before is not None:
            thrown, kept, got = hand_change(before, after)
            self.b.fill_draw(index, discarded=thrown, kept=kept, received=got)
        else:
            self.b.fill_draw(index, kept=None, received=None)
        self.b.holding[player] = after

    def pot_won(self, m: Match[str], line: int, _text: str) -> None:
        pot = 0 if m["pot"] == "Main pot" else int(m["side"] or 1)
        self.total_pot += money(m["amount"])
        for w in _WINNER.finditer(m["winners"]):
            self.b.collect(w["player"], money(w["amount"]), line, pot)

    def summary_seat(self, m: Match[str], line: int, _text: str) -> None:
        player = m["player"]
        if m["sign"] is not None:
            amount = money(m["net"])
            self.b.net[player] = -amount if m["sign"] == "-" else amount
        if m["cards"] is not None:
            self.b.show(player, cards(m["cards"]), line)

    def finish(self, hand_id: str) -> Hand:
        t = self.table
        if t is None:
            raise FieldError("no table line: the stakes and the game are unknown")
        structure = _STRUCTURES[t["limit"]]
        a, b = money(t["small"]), money(t["big"])
        if structure is Structure.FIXED:
            stakes = Stakes(self.small_blind or a // 2, a, a, b)
        else:
            stakes = Stakes(a, b, b, b)
        currency = _CURRENCIES.get(t["symbol"] or "", "chips")
        kind = t["kind"]
        if kind is not None and "play" in kind.lower():
            currency = "play"
        if self.user is not None and self.b.hero is None:
            self.b.hero = self.user
        return self.b.build(
            site=SITE,
            hand_id=hand_id,
            table=f"{t['table']} [{t['table_id']}]",
            game=_GAMES[t["game"]],
            structure=structure,
            stakes=stakes,
            currency=currency,
            time=self.time,
            button=self.button,
            file=self.chunk.file,
            line=self.chunk.line,
            rake=self.rake,
            total_pot=self.total_pot,
        )
