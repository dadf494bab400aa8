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

from engine.problems import DRAW_INFERRED
from engine.record import Game, Hand, PostKind, Stakes, Structure
from parser.builder import HandBuilder, hand_change
from parser.lines import (
    Classifier,
    Fields,
    LineGrammar,
    LineHandler,
    cards,
    header_error,
    money,
    no_seats,
    numbered_hands,
    read_lines,
    req,
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
_WINNER = re.compile(r"(.+?) \(([$€£]?[\d.,]+)\)(?:, |$)")


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
            if t is not None and t.group(4) not in _GAMES:
                return Skipped.unsupported_game(
                    t.group(4),
                    site=SITE,
                    file=chunk.file,
                    line=chunk.line + i,
                    hand_id=start.group(1),
                )
        reading = _OnGameHand(chunk)
        read_lines(chunk, sections(), reading.handlers(), reading.b)
        if not reading.b.seats:
            raise no_seats(chunk)
        try:
            return reading.finish(start.group(1))
        except ValueError as e:
            raise header_error(chunk, e) from None


class _OnGameHand:
    def __init__(self, chunk: HandText) -> None:
        self.chunk = chunk
        self.b = HandBuilder()
        self.time: datetime | None = None
        self.table: Fields = ()
        self.button: int | None = None
        self.user: str | None = None
        self.total_pot = 0
        self.rake: int | None = None
        self.small_blind: int | None = None

    def handlers(self) -> dict[str, LineHandler]:
        b = self.b
        return {
            "START_TIME": self.start_time,
            "TABLE": lambda f, line, _t: setattr(self, "table", f),
            "USER": lambda f, line, _t: setattr(self, "user", f[0]),
            "BUTTON": lambda f, line, _t: setattr(self, "button", int(req(f[0]))),
            "SEAT": lambda f, line, _t: b.seat(int(req(f[0])), req(f[1]), money(f[2]), line),
            "SMALL_BLIND": self.small_blind_post,
            "BIG_BLIND": lambda f, line, _t: b.post(
                req(f[0]), PostKind.BIG_BLIND, money(f[1]), line
            ),
            "DEAD_BLIND": self.dead_blind,
            "ANTE": lambda f, line, _t: b.post(req(f[0]), PostKind.ANTE, money(f[1]), line),
            "DEALT": lambda f, line, _t: b.deal(req(f[0]), cards(f[1])),
            "FOLDS": lambda f, line, _t: b.fold(req(f[0]), line),
            "CHECKS": lambda f, line, _t: b.check(req(f[0]), line),
            "CALLS": lambda f, line, _t: b.call(req(f[0]), line, money(f[1]), f[2] is not None),
            "BETS": lambda f, line, _t: b.bet_adding(
                req(f[0]), line, money(f[1]), f[2] is not None
            ),
            "RAISES": lambda f, line, _t: b.bet_to(req(f[0]), line, money(f[2]), f[3] is not None),
            "UNCALLED": lambda f, line, _t: b.uncalled(req(f[1]), money(f[0]), line),
            "CHANGED": self.changed,
            "NEW_HAND": self.new_hand,
            "POT_WON": self.pot_won,
            "RAKE": lambda f, line, _t: setattr(self, "rake", money(f[0])),
            "SUMMARY_SEAT": self.summary_seat,
            "CHAT": lambda f, line, text: b.note("chat", text, line, f[0]),
        }

    def start_time(self, f: Fields, line: int, text: str) -> None:
        when = datetime.strptime(f"{f[0]} {f[2]}", "%b %d %H:%M:%S %Y")
        self.time = in_utc(when, req(f[1])) or when  # as written when the zone is unknown

    def small_blind_post(self, f: Fields, line: int, _text: str) -> None:
        amount = money(f[1])
        if self.small_blind is None:
            self.small_blind = amount
        self.b.post(req(f[0]), PostKind.SMALL_BLIND, amount, line)

    def dead_blind(self, f: Fields, line: int, _text: str) -> None:
        amount = money(f[1])
        self.b.post(req(f[0]), PostKind.EXTRA, amount, line, dead=amount)

    def changed(self, f: Fields, line: int, _text: str) -> None:
        count = int(req(f[1]))
        if count == 0:
            self.b.draw(req(f[0]), 0, line, discarded=(), received=())
        else:
            self.b.draw(req(f[0]), count, line)

    def new_hand(self, f: Fields, line: int, text: str) -> None:
        player, after = req(f[0]), cards(f[1])
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
            self.chunk,
            line,
            text,
            f"'Dealing to {player}: [...]' or '{player} changed N cards' before it",
        )
        if before is not None:
            thrown, kept, got = hand_change(before, after)
            self.b.fill_draw(index, discarded=thrown, kept=kept, received=got)
        else:
            self.b.fill_draw(index, kept=None, received=None)
        self.b.holding[player] = after

    def pot_won(self, f: Fields, line: int, _text: str) -> None:
        pot = 0 if f[0] == "Main pot" else int(f[1] or 1)
        self.total_pot += money(f[2])
        for m in _WINNER.finditer(req(f[3])):
            self.b.collect(m.group(1), money(m.group(2)), line, pot)

    def summary_seat(self, f: Fields, line: int, _text: str) -> None:
        player = req(f[1])
        if f[3] is not None:
            amount = money(f[4])
            self.b.net[player] = -amount if f[3] == "-" else amount
        if f[5] is not None:
            self.b.show(player, cards(f[5]), line)

    def finish(self, hand_id: str) -> Hand:
        (name, table_id, limit, game_name, symbol, low, high, _kind) = self.table
        structure = _STRUCTURES[req(limit)]
        a, b = money(low), money(high)
        if structure is Structure.FIXED:
            stakes = Stakes(self.small_blind or a // 2, a, a, b)
        else:
            stakes = Stakes(a, b, b, b)
        currency = _CURRENCIES.get(symbol or "", "chips")
        if _kind is not None and "play" in _kind.lower():
            currency = "play"
        if self.user is not None and self.b.hero is None:
            self.b.hero = self.user
        return self.b.build(
            site=SITE,
            hand_id=hand_id,
            table=f"{name} [{table_id}]",
            game=_GAMES[req(game_name)],
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
