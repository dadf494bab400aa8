"""Winamax hand histories: the grammar is grammars/winamax.lark.

Winamax calls triple draw ``Lowball27``, writes calls as the chips they add and raises as
"raises 0.50 to 1", shows draws as counts only ("discard 2 cards"), and lets players who
join or come back post a live big blind "out of position": recorded as an ``EXTRA`` post
with nothing dead, because the player may then check as a big blind does.  Its "Total
pot" excludes the rake; ``Hand.total_pot`` adds it back (everything put in, as elsewhere).

Reading is tolerant (parser/lines.py): chat is a note, and a line the reader does not
know, or one out of place, is a warning on the hand; the replay judges the chips.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from datetime import datetime

from engine.record import Game, Hand, PostKind, Stakes, Structure, Tournament
from parser.builder import HandBuilder, hand_change
from parser.lines import (
    Classifier,
    FieldError,
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

SITE = "winamax"
_START = "Winamax Poker - "
_STRUCTURES = {
    "fixed limit": Structure.FIXED,
    "pot limit": Structure.POT,
    "no limit": Structure.NO_LIMIT,
}
_LOOSE_HEADER = re.compile(r" - HandId: #(\S+) - (.+?) (fixed limit|pot limit|no limit) ")


def grammar() -> LineGrammar:
    return site_grammar("winamax.lark")


@functools.cache
def sections() -> tuple[Classifier, ...]:
    """The table and seats; then posts and play; then the summary."""
    g = grammar()
    return (
        g.classifier(("TABLE", "SEAT", "CHAT")),
        g.classifier((
            "BLINDS_MARKER", "SMALL_BLIND", "BIG_BLIND", "ANTE", "DEALT", "BET_MARKER",
            "DRAW_MARKER", "FOLDS", "CHECKS", "CALLS", "BETS", "RAISES", "DISCARDS",
            "STANDS_PAT", "UNCALLED", "SHOW_DOWN", "SHOWS", "MUCKS", "COLLECTED", "CHAT",
        )),
        g.classifier((
            "SUMMARY", "TOTAL_POT", "SUM_SHOWED", "SUM_WON", "SUM_FOLDED", "SUM_MUCKED", "CHAT",
        )),
    )


def _game(name: str, structure: Structure) -> Game | None:
    key = name.lower().replace(" ", "").replace("-", "")
    if key in ("lowball27", "27lowball", "27tripledraw", "tripledraw27"):
        # Winamax deals 2-7 single draw only as no limit and triple draw only with limits.
        return Game.SINGLE_DRAW_27 if structure is Structure.NO_LIMIT else Game.TRIPLE_DRAW_27
    if key in ("27singledraw", "lowball27singledraw"):
        return Game.SINGLE_DRAW_27
    if key in ("5carddraw", "fivecarddraw"):
        return Game.FIVE_CARD_DRAW
    return None


def _hidden(shown: str) -> bool:
    return all(tok in ("X", "x") for tok in shown.split())


class WinamaxReader:
    site = SITE

    def sniff(self, head: str) -> bool:
        return any(
            x.lstrip("\ufeff").startswith(_START + "CashGame")
            or x.lstrip("\ufeff").startswith(_START + "Tournament")
            for x in head.splitlines()[:40]
        )

    def split(self, lines: Iterable[tuple[int, str]], file: str) -> Iterator[HandText]:
        return numbered_hands(lines, lambda s: s.startswith(_START), file, SITE)

    def parse(self, chunk: HandText) -> Hand | Skipped:
        first = chunk.text.split("\n", 1)[0]
        if first.lstrip("\ufeff").startswith(_START + "Tournament summary"):
            # as PokerStars' and Full Tilt's: ``parser.summaries`` reads it, the importer
            # stores it; as a hand text it holds no hand
            return Skipped(
                "incomplete",
                "a Winamax tournament summary: it holds no hand",
                site=SITE,
                file=chunk.file,
                line=chunk.line,
            )
        h = grammar().regex("HEADER").match(first)
        loose = _LOOSE_HEADER.search(first) if h is None else None
        if loose is not None and _game(loose.group(2), _STRUCTURES[loose.group(3)]) is None:
            # another game of a mixed table, whose stakes may be written otherwise
            return Skipped.unsupported_game(
                loose.group(2),
                site=SITE,
                file=chunk.file,
                line=chunk.line,
                hand_id=loose.group(1),
            )
        if h is None:
            raise ParseError(
                "not the start of a Winamax hand",
                file=chunk.file,
                line=chunk.line,
                line_text=first,
                expected="a header like 'Winamax Poker - CashGame - HandId: #1-2-3 - ...'",
            )
        structure = _STRUCTURES[req(h.group(7))]
        game = _game(req(h.group(6)), structure)
        if game is None:
            return Skipped.unsupported_game(
                h.group(6),
                site=SITE,
                file=chunk.file,
                line=chunk.line,
                hand_id=h.group(5),
            )
        reading = _WinamaxHand(chunk)
        read_lines(chunk, sections(), reading.handlers(), reading.b)
        if not reading.b.seats:
            raise no_seats(chunk)
        try:
            return reading.finish(h.groups(), game, structure)
        except ValueError as e:
            raise header_error(chunk, e) from None


class _WinamaxHand:
    def __init__(self, chunk: HandText) -> None:
        self.chunk = chunk
        self.b = HandBuilder()
        self.table = ""
        self.max_seats: int | None = None
        self.play_money = False
        self.button: int | None = None
        self.total_pot: int | None = None
        self.rake: int | None = None
        self.small_blind: int | None = None

    def handlers(self) -> dict[str, LineHandler]:
        b = self.b
        return {
            "TABLE": self.table_line,
            "SEAT": lambda f, line, _t: b.seat(int(req(f[0])), req(f[1]), money(f[2]), line),
            "SMALL_BLIND": self.small_blind_post,
            "BIG_BLIND": self.big_blind_post,
            "ANTE": lambda f, line, _t: b.post(
                req(f[0]), PostKind.ANTE, money(f[1]), line, all_in=f[2] is not None
            ),
            "DEALT": self.dealt,
            "BET_MARKER": lambda f, line, _t: setattr(b, "in_draw", False),
            "DRAW_MARKER": lambda f, line, _t: b.start_draw(),
            "FOLDS": lambda f, line, _t: b.fold(req(f[0]), line),
            "CHECKS": lambda f, line, _t: b.check(req(f[0]), line),
            "CALLS": lambda f, line, _t: b.call(req(f[0]), line, money(f[1]), f[2] is not None),
            "BETS": lambda f, line, _t: b.bet_adding(
                req(f[0]), line, money(f[1]), f[2] is not None
            ),
            "RAISES": lambda f, line, _t: b.bet_to(req(f[0]), line, money(f[2]), f[3] is not None),
            "DISCARDS": self.discards,
            "STANDS_PAT": self.stands_pat,
            "UNCALLED": lambda f, line, _t: b.uncalled(req(f[0]), money(f[1]), line),
            "SHOWS": lambda f, line, _t: b.show(req(f[0]), cards(f[1]), line),
            "MUCKS": self.mucks,
            "COLLECTED": self.collected,
            "TOTAL_POT": self.totals,
            "CHAT": lambda f, line, text: b.note("chat", text, line, f[0]),
        }

    def table_line(self, f: Fields, line: int, _text: str) -> None:
        self.table = req(f[0])
        self.max_seats = int(req(f[1]))
        self.play_money = f[2] == "play money"
        self.button = int(req(f[3]))

    def small_blind_post(self, f: Fields, line: int, _text: str) -> None:
        amount = money(f[1])
        kind = PostKind.EXTRA if f[2] else PostKind.SMALL_BLIND
        if kind is PostKind.SMALL_BLIND and self.small_blind is None:
            self.small_blind = amount
        self.b.post(req(f[0]), kind, amount, line, all_in=f[3] is not None)

    def big_blind_post(self, f: Fields, line: int, _text: str) -> None:
        kind = PostKind.EXTRA if f[2] else PostKind.BIG_BLIND
        self.b.post(req(f[0]), kind, money(f[1]), line, all_in=f[3] is not None)

    def dealt(self, f: Fields, line: int, _text: str) -> None:
        player = req(f[0])
        if _hidden(req(f[1])):
            return  # "Dealt to Player0 [X X X X X]": nothing known
        if self.b.draw_no == 0:
            self.b.deal(player, cards(f[1]) + cards(f[2]))
            return
        index = self.b.draw_needed(
            player,
            f"new cards for {player} without a draw line before them",
            self.chunk,
            line,
            _text,
            f"'{player} discard N cards' before it",
        )
        if f[2] is None:
            after = cards(f[1])
            before = self.b.holding.get(player)
            if before is not None:
                thrown, kept, got = hand_change(before, after)
                self.b.fill_draw(index, discarded=thrown, kept=kept, received=got)
            self.b.holding[player] = after
        else:
            kept, got = cards(f[1]), cards(f[2])
            self.b.fill_draw(index, kept=kept, received=got)
            self.b.holding[player] = kept + got

    def discards(self, f: Fields, line: int, _text: str) -> None:
        count = int(req(f[1]))
        thrown = cards(f[2]) if f[2] else (() if count == 0 else None)
        self.b.draw(
            req(f[0]), count, line, discarded=thrown, received=() if count == 0 else None
        )

    def stands_pat(self, f: Fields, line: int, _text: str) -> None:
        shown = f[1]
        kept = None if shown is None or _hidden(shown) else cards(shown)
        self.b.draw(req(f[0]), 0, line, discarded=(), kept=kept, received=())

    def mucks(self, f: Fields, line: int, _text: str) -> None:
        if f[1]:
            self.b.show(req(f[0]), cards(f[1]), line, mucked=True)
        else:
            self.b.muck(req(f[0]), line)

    def collected(self, f: Fields, line: int, _text: str) -> None:
        which = req(f[2])
        pot = None if which == "pot" else 0 if which == "main pot" else int(f[3] or 1)
        self.b.collect(req(f[0]), money(f[1]), line, pot)

    def totals(self, f: Fields, line: int, _text: str) -> None:
        # Winamax's "Total pot" is what the winners share, the rake already taken out;
        # the record's total pot is everything put in, as on the other sites.
        self.rake = money(f[1]) if f[1] else 0
        self.total_pot = money(f[0]) + self.rake

    def finish(self, h: Fields, game: Game, structure: Structure) -> Hand:
        kind, tour_name, buy_in, level, hand_id = h[0], h[1], h[2], h[3], h[4]
        a, b = money(h[8]), money(h[9])
        ante = money(h[7]) if h[7] else 0
        if structure is Structure.FIXED:
            stakes = Stakes(self.small_blind or a // 2, a, a, b, ante)
        else:
            stakes = Stakes(a, b, b, b, ante)
        naive = datetime.strptime(req(h[10]), "%Y/%m/%d %H:%M:%S")
        when = naive if h[11] is None else in_utc(naive, h[11])
        if when is None:
            raise FieldError(f"a time zone this reader does not know: {h[11]}")
        tournament = None
        currency = "play" if self.play_money else "EUR"
        if kind != "CashGame":
            tournament = Tournament(req(tour_name), level=level)
            currency = "chips"
        del buy_in
        return self.b.build(
            site=SITE,
            hand_id=req(hand_id),
            table=self.table,
            game=game,
            structure=structure,
            stakes=stakes,
            currency=currency,
            time=when,
            button=self.button,
            file=self.chunk.file,
            line=self.chunk.line,
            max_seats=self.max_seats,
            rake=self.rake,
            total_pot=self.total_pot,
            tournament=tournament,
        )
