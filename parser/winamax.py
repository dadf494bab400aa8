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
from re import Match

from engine.record import Game, Hand, PostKind, Stakes, Structure, Tournament
from parser.builder import HandBuilder, hand_change
from parser.lines import (
    Classifier,
    FieldError,
    LineGrammar,
    LineHandler,
    all_in,
    betting_handlers,
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
_LOOSE_HEADER = re.compile(
    r" - HandId: #(?P<hand_id>\S+) - (?P<game>.+?) (?P<limit>fixed limit|pot limit|no limit) "
)


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
        if loose is not None and _game(loose["game"], _STRUCTURES[loose["limit"]]) is None:
            # another game of a mixed table, whose stakes may be written otherwise
            return Skipped.unsupported_game(
                loose["game"],
                site=SITE,
                file=chunk.file,
                line=chunk.line,
                hand_id=loose["hand_id"],
            )
        if h is None:
            raise ParseError(
                "not the start of a Winamax hand",
                file=chunk.file,
                line=chunk.line,
                line_text=first,
                expected="a header like 'Winamax Poker - CashGame - HandId: #1-2-3 - ...'",
            )
        structure = _STRUCTURES[h["limit"]]
        game = _game(h["game"], structure)
        if game is None:
            return Skipped.unsupported_game(
                h["game"],
                site=SITE,
                file=chunk.file,
                line=chunk.line,
                hand_id=h["hand_id"],
            )
        reading = _WinamaxHand(chunk)
        read_lines(chunk, sections(), reading.handlers(), reading.b)
        if not reading.b.seats:
            raise no_seats(chunk)
        try:
            return reading.finish(h, game, structure)
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
            "SEAT": lambda m, line, _t: b.seat(
                int(m["seat"]), m["player"], money(m["stack"]), line
            ),
            "SMALL_BLIND": self.small_blind_post,
            "BIG_BLIND": self.big_blind_post,
            "ANTE": lambda m, line, _t: b.post(
                m["player"], PostKind.ANTE, money(m["amount"]), line, all_in=all_in(m)
            ),
            "DEALT": self.dealt,
            "BET_MARKER": lambda m, line, _t: setattr(b, "in_draw", False),
            "DRAW_MARKER": lambda m, line, _t: b.start_draw(),
            **betting_handlers(b),
            "DISCARDS": self.discards,
            "STANDS_PAT": self.stands_pat,
            "UNCALLED": lambda m, line, _t: b.uncalled(m["player"], money(m["amount"]), line),
            "SHOWS": lambda m, line, _t: b.show(m["player"], cards(m["cards"]), line),
            "MUCKS": self.mucks,
            "COLLECTED": self.collected,
            "TOTAL_POT": self.totals,
            "CHAT": lambda m, line, text: b.note("chat", text, line, m["player"]),
        }

    def table_line(self, m: Match[str], line: int, _text: str) -> None:
        self.table = m["table"]
        self.max_seats = int(m["max"])
        self.play_money = m["money"] == "play money"
        self.button = int(m["button"])

    def small_blind_post(self, m: Match[str], line: int, _text: str) -> None:
        amount = money(m["amount"])
        kind = PostKind.EXTRA if m["out_of_position"] else PostKind.SMALL_BLIND
        if kind is PostKind.SMALL_BLIND and self.small_blind is None:
            self.small_blind = amount
        self.b.post(m["player"], kind, amount, line, all_in=all_in(m))

    def big_blind_post(self, m: Match[str], line: int, _text: str) -> None:
        kind = PostKind.EXTRA if m["out_of_position"] else PostKind.BIG_BLIND
        self.b.post(m["player"], kind, money(m["amount"]), line, all_in=all_in(m))

    def dealt(self, m: Match[str], line: int, _text: str) -> None:
        player, first, second = m["player"], m["cards"], m["cards2"]
        if _hidden(first):
            return  # "Dealt to Player0 [X X X X X]": nothing known
        if self.b.draw_no == 0:
            self.b.deal(player, cards(first) + cards(second))
            return
        index = self.b.draw_needed(
            player,
            f"new cards for {player} without a draw line before them",
            chunk=self.chunk,
            line=line,
            text=_text,
            expected=f"'{player} discard N cards' before it",
        )
        if second is None:
            after = cards(first)
            before = self.b.holding.get(player)
            if before is not None:
                thrown, kept, got = hand_change(before, after)
                self.b.fill_draw(index, discarded=thrown, kept=kept, received=got)
            self.b.holding[player] = after
        else:
            kept, got = cards(first), cards(second)
            self.b.fill_draw(index, kept=kept, received=got)
            self.b.holding[player] = kept + got

    def discards(self, m: Match[str], line: int, _text: str) -> None:
        count = int(m["count"])
        shown = m["cards"]
        thrown = cards(shown) if shown else (() if count == 0 else None)
        self.b.draw(
            m["player"], count, line, discarded=thrown, received=() if count == 0 else None
        )

    def stands_pat(self, m: Match[str], line: int, _text: str) -> None:
        shown = m["cards"]
        kept = None if shown is None or _hidden(shown) else cards(shown)
        self.b.draw(m["player"], 0, line, discarded=(), kept=kept, received=())

    def mucks(self, m: Match[str], line: int, _text: str) -> None:
        if m["cards"]:
            self.b.show(m["player"], cards(m["cards"]), line, mucked=True)
        else:
            self.b.muck(m["player"], line)

    def collected(self, m: Match[str], line: int, _text: str) -> None:
        which = m["pot"]
        pot = None if which == "pot" else 0 if which == "main pot" else int(m["side"] or 1)
        self.b.collect(m["player"], money(m["amount"]), line, pot)

    def totals(self, m: Match[str], line: int, _text: str) -> None:
        # Winamax's "Total pot" is what the winners share, the rake already taken out;
        # the record's total pot is everything put in, as on the other sites.
        self.rake = money(m["rake"]) if m["rake"] else 0
        self.total_pot = money(m["amount"]) + self.rake

    def finish(self, h: Match[str], game: Game, structure: Structure) -> Hand:
        a, b = money(h["small"]), money(h["big"])
        ante = money(h["ante"]) if h["ante"] else 0
        if structure is Structure.FIXED:
            stakes = Stakes(self.small_blind or a // 2, a, a, b, ante)
        else:
            stakes = Stakes(a, b, b, b, ante)
        naive = datetime.strptime(h["time"], "%Y/%m/%d %H:%M:%S")
        zone = h["zone"]
        when = naive if zone is None else in_utc(naive, zone)
        if when is None:
            raise FieldError(f"a time zone this reader does not know: {zone}")
        tournament = None
        currency = "play" if self.play_money else "EUR"
        if h["kind"] != "CashGame":
            tournament = Tournament(req(h["tournament"]), level=h["level"])
            currency = "chips"
        return self.b.build(
            site=SITE,
            hand_id=h["hand_id"],
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
