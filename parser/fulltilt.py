"""Full Tilt Poker hand histories: the grammar is grammars/fulltilt.lark.

Full Tilt quirks handled here: ``FullTiltPoker Game #`` headers from some exports, the
archive separator ``**** # 1 ****``, UTF-16 files with doubled line breaks (the encoding
layer undoes them; line numbers stay the file's), fixed-limit headers that give the bet
sizes rather than the blinds, the hero's draw shown as ``discards 1 card [Qs]`` and then
``Dealt to Hero [kept] [new]``, ``posts a dead small blind`` (all dead) beside ``posts $5``
(a live missed big blind), partial hands and dead hands (no cards dealt), tournament
summaries, and a summary line sometimes run together with the next one.  Headers may
give the local time with the same moment in ET in brackets; the hand's time is the ET one
in UTC (parser/times.py holds the one table of zones).  Reading is tolerant: chatter,
emotes, connection, time and seating lines are notes, and any line the reader does not
know is a warning (parser/lines.py); the replay judges the chips and cards.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from datetime import datetime
from re import Match

from engine.record import Game, Hand, PostKind, Stakes, Structure, Tournament
from parser.builder import HandBuilder
from parser.lines import (
    Classifier,
    FieldError,
    LineGrammar,
    LineHandler,
    all_in,
    betting_handlers,
    cards,
    clean,
    header_error,
    money,
    no_seats,
    numbered_hands,
    read_lines,
    site_grammar,
)
from parser.outcome import HandText, ParseError, Skipped
from parser.times import local

SITE = "fulltilt"
_HAND_START = ("Full Tilt Poker Game #", "FullTiltPoker Game #")
_SUMMARY_START = "Full Tilt Poker Tournament Summary"
_ARCHIVE_SEPARATOR = re.compile(r"^\*{5,} # \d+ \*{5,}$")
GAMES = {
    "2-7 Triple Draw": Game.TRIPLE_DRAW_27,
    "2-7 Single Draw": Game.SINGLE_DRAW_27,
    "A-5 Triple Draw": Game.TRIPLE_DRAW_A5,
    "A-5 Single Draw": Game.SINGLE_DRAW_A5,
    "5 Card Draw": Game.FIVE_CARD_DRAW,
    "Badugi": Game.BADUGI,
}
_STRUCTURES = {"Limit": Structure.FIXED, "Pot Limit": Structure.POT, "No Limit": Structure.NO_LIMIT}
_BUY_IN = re.compile(r"\$(?P<buy_in>[\d,.]+) \+ \$(?P<fee>[\d,.]+)")
_MAX_SEATS = re.compile(r"(?P<seats>\d+) max")
_OTHER_GAME = re.compile(
    r" - (?:[A-Za-z ]+ )?(?P<game>Hold'em|Omaha[^-]*|Razz|7 Card Stud[^-]*|Stud[^-]*)"
)


def grammar() -> LineGrammar:
    return site_grammar("fulltilt.lark")


_NOTES = (
    "TIME_LEFT", "REQUESTED_TIME", "DISCONNECTED", "RECONNECTED", "IS_SITTING_OUT",
    "SITS_OUT", "STANDS_UP", "SITS_DOWN", "HAS_RETURNED", "TIMED_OUT", "FEELING", "ADDS",
    "TO_RECONNECT", "TOURNAMENT_RESULT",
)  # fmt: skip
_SEATS = ("SEAT", *_NOTES, "CHAT")
_PLAY = (
    "DEAD_SMALL_BLIND", "SMALL_BLIND", "BIG_BLIND", "ANTE", "POSTS", "BUTTON", "HOLE_CARDS",
    "DEALT", "FOLDS", "CHECKS", "CALLS", "BETS", "RAISES", "DRAW_MARKER", "DISCARDS",
    "STANDS_PAT", "IS_DEALT", "UNCALLED", "SHOW_DOWN", "SHOWS", "MUCKS", "WINS", *_NOTES,
    "CHAT",
)  # fmt: skip
_SUMMARY = (
    "SUMMARY", "DURATION", "TOTAL_POT", "SUM_SPLICED", "SUM_FOLDED", "SUM_SITTING_OUT",
    "SUM_COLLECTED", "SUM_SHOWED", "SUM_MUCKED", *_NOTES, "CHAT",
)  # fmt: skip


@functools.cache
def sections() -> tuple[Classifier, ...]:
    """Seats, then play, then the summary: which kinds of line to try where."""
    g = grammar()
    return tuple(g.classifier(names) for names in (_SEATS, _PLAY, _SUMMARY))


class FullTiltReader:
    site = SITE

    def sniff(self, head: str) -> bool:
        for raw in head.splitlines()[:60]:
            line = raw.lstrip("\ufeff").strip()
            if line.startswith((*_HAND_START, _SUMMARY_START)):
                return True
        return False

    def split(self, lines: Iterable[tuple[int, str]], file: str) -> Iterator[HandText]:
        return numbered_hands(
            lines,
            lambda s: s.startswith((*_HAND_START, _SUMMARY_START)),
            file,
            SITE,
            skip=lambda s: _ARCHIVE_SEPARATOR.match(s) is not None,
        )

    def parse(self, chunk: HandText) -> Hand | Skipped:
        first = clean(chunk.text.split("\n", 1)[0].lstrip("\ufeff"))
        if first.startswith(_SUMMARY_START):
            return Skipped(
                "incomplete",
                "a tournament summary: it holds no hand",
                site=SITE,
                file=chunk.file,
                line=chunk.line,
                game=_summary_game(first),
            )
        header = _header(first)
        other = _OTHER_GAME.search(first) if header is None else None
        if other is not None:  # a game we do not replay, its header worded otherwise
            hand = re.search(r"#(?P<hand_id>\d+)", first)
            return Skipped.unsupported_game(
                other["game"],
                site=SITE,
                file=chunk.file,
                line=chunk.line,
                hand_id=hand["hand_id"] if hand else None,
            )
        if header is None:
            raise ParseError(
                "not the start of a Full Tilt hand",
                file=chunk.file,
                line=chunk.line,
                line_text=first,
                expected="a header like 'Full Tilt Poker Game #123: Table T (6 max) - $1/$2 - ...'",
            )
        hand_id, game_name = header["hand_id"], header["game"]
        if header["partial"]:
            return Skipped(
                "incomplete",
                "a partial hand: Full Tilt wrote only its summary",
                site=SITE,
                file=chunk.file,
                line=chunk.line,
                hand_id=hand_id,
                game=game_name,
            )
        game = GAMES.get(game_name)
        if game is None:
            return Skipped.unsupported_game(
                game_name,
                site=SITE,
                file=chunk.file,
                line=chunk.line,
                hand_id=hand_id,
            )
        if re.search(rf"^Hand #{hand_id} has been canceled", chunk.text, re.M):
            return Skipped(
                "incomplete",
                "the hand was cancelled",
                site=SITE,
                file=chunk.file,
                line=chunk.line,
                hand_id=hand_id,
                game=game_name,
            )
        reading = _FullTiltHand(chunk)
        read_lines(chunk, sections(), reading.handlers(), reading.b)
        if not reading.b.seats:
            raise no_seats(chunk)
        if not reading.hole_cards:
            return Skipped(
                "incomplete",
                "a dead hand: no cards were dealt",
                site=SITE,
                file=chunk.file,
                line=chunk.line,
                hand_id=hand_id,
                game=game_name,
            )
        try:
            return reading.finish(header, game)
        except ValueError as e:
            raise header_error(chunk, e) from None


_LIMITS = {"FL": "Limit", "NL": "No Limit", "PL": "Pot Limit"}


def _header(first: str) -> Match[str] | None:
    """The header line read, whichever of its two orders it is in (the fields are named
    alike in both; the 2013 order may abbreviate the limit, ``_LIMITS``)."""
    return grammar().regex("HEADER").match(first) or grammar().regex("HEADER_2013").match(first)


def _summary_game(first: str) -> str | None:
    for name in ("2-7 Triple Draw", "2-7 Single Draw", "A-5 Triple Draw", "5 Card Draw"):
        if name in first:
            return name
    return None


class _FullTiltHand:
    """The state of one hand being read: line handlers feeding a HandBuilder."""

    def __init__(self, chunk: HandText) -> None:
        self.chunk = chunk
        self.b = HandBuilder()
        self.button: int | None = None
        self.hole_cards = False
        self.rake: int | None = None
        self.total_pot: int | None = None
        self.pending_received: dict[str, int] = {}

    def handlers(self) -> dict[str, LineHandler]:
        return {
            "SEAT": self.seat,
            "ANTE": self.post(PostKind.ANTE),
            "SMALL_BLIND": self.post(PostKind.SMALL_BLIND),
            "BIG_BLIND": self.post(PostKind.BIG_BLIND),
            "DEAD_SMALL_BLIND": self.dead_small_blind,
            "POSTS": self.post(PostKind.EXTRA),
            "BUTTON": self.set_button,
            "HOLE_CARDS": self.hole,
            "DEALT": self.dealt,
            **betting_handlers(self.b),
            "DRAW_MARKER": lambda m, line, _t: self.b.start_draw(),
            "DISCARDS": self.discards,
            "STANDS_PAT": self.stands_pat,
            "IS_DEALT": self.is_dealt,
            "UNCALLED": lambda m, line, _t: self.b.uncalled(
                m["player"], money(m["amount"]), line
            ),
            "SHOWS": lambda m, line, _t: self.b.show(m["player"], cards(m["cards"]), line),
            "MUCKS": self.mucks,
            "WINS": self.wins,
            "TOTAL_POT": self.totals,
            "SUM_SITTING_OUT": lambda m, line, _t: self.b.mark_sitting_out(m["player"]),
            "SUM_MUCKED": self.summary_mucked,
            "SUM_SPLICED": self.spliced,
            "TIME_LEFT": self.noise("time_left"),
            "REQUESTED_TIME": self.noise("time_requested"),
            "DISCONNECTED": self.noise("disconnected"),
            "RECONNECTED": self.noise("reconnected"),
            "IS_SITTING_OUT": self.noise("sitting_out"),
            "SITS_OUT": self.noise("sitting_out"),
            "STANDS_UP": self.noise("leaves"),
            "SITS_DOWN": self.noise("joins"),
            "HAS_RETURNED": self.noise("returns"),
            "TIMED_OUT": self.noise("timed_out"),
            "FEELING": self.noise("mood"),
            "ADDS": lambda m, line, text: self.b.note(
                "add_on", text, line, m["player"], amount=money(m["amount"])
            ),
            "TO_RECONNECT": self.noise("disconnected"),
            "TOURNAMENT_RESULT": self.noise("finished"),
            "CHAT": self.noise("chat"),
        }

    # --- handlers ------------------------------------------------------------------------
    def seat(self, m: Match[str], line: int, _text: str) -> None:
        sitting_out = m["out"] is not None
        self.b.seat(
            int(m["seat"]), m["player"], money(m["stack"]), line, sitting_out=sitting_out
        )

    def post(self, kind: PostKind) -> LineHandler:
        def handle(m: Match[str], line: int, _text: str) -> None:
            self.b.post(m["player"], kind, money(m["amount"]), line, all_in=all_in(m))

        return handle

    def dead_small_blind(self, m: Match[str], line: int, _text: str) -> None:
        amount = money(m["amount"])
        self.b.post(m["player"], PostKind.EXTRA, amount, line, dead=amount, all_in=all_in(m))

    def set_button(self, m: Match[str], line: int, _text: str) -> None:
        self.button = int(m["seat"])

    def hole(self, m: Match[str], line: int, _text: str) -> None:
        self.hole_cards = True

    def dealt(self, m: Match[str], line: int, _text: str) -> None:
        player, first, second = m["player"], m["cards"], m["cards2"]
        if self.b.draw_no == 0:
            # Before any draw: the first deal ("Dealt to Hero [5 cards]").
            self.b.deal(player, cards(first) + cards(second))
            return
        # After a draw: "Dealt to Hero [kept] [received]" completes the hero's draw.
        index = self.b.draw_needed(
            player,
            f"new cards for {player} without a draw line before them",
            chunk=self.chunk,
            line=line,
            text=_text,
            expected=f"'{player} discards N cards' earlier in this draw",
        )
        kept, received = cards(first), cards(second)
        if second is None:  # a single bracket: the whole hand after the draw
            kept, received = (), cards(first)
        self.b.fill_draw(index, kept=kept, received=received)
        self.b.holding[player] = kept + received

    def discards(self, m: Match[str], line: int, _text: str) -> None:
        thrown = cards(m["cards"]) if m["cards"] is not None else None
        self.b.draw(m["player"], int(m["count"]), line, discarded=thrown)

    def stands_pat(self, m: Match[str], line: int, _text: str) -> None:
        kept = cards(m["cards"]) if m["cards"] is not None else None
        self.b.draw(m["player"], 0, line, discarded=(), kept=kept, received=())

    def is_dealt(self, m: Match[str], line: int, text: str) -> None:
        # "Player2 is dealt 1 card" repeats the count of the discard line: a note keeps it.
        self.b.note("dealt", text, line, m["player"])

    def mucks(self, m: Match[str], line: int, _text: str) -> None:
        if m["cards"] is not None:
            self.b.show(m["player"], cards(m["cards"]), line, mucked=True)
        else:
            self.b.muck(m["player"], line)

    def wins(self, m: Match[str], line: int, _text: str) -> None:
        which = m["pot"]
        pot: int | None
        if which == "main pot":
            pot = 0
        elif which.startswith("side pot"):
            pot = int(m["side"]) if m["side"] else 1
        else:
            pot = None
        self.b.collect(m["player"], money(m["amount"]), line, pot)

    def totals(self, m: Match[str], line: int, _text: str) -> None:
        self.total_pot = money(m["amount"])
        self.rake = money(m["rake"])

    def summary_mucked(self, m: Match[str], line: int, _text: str) -> None:
        if m["cards"] is not None:
            self.b.show(m["player"], cards(m["cards"]), line, mucked=True)

    def spliced(self, m: Match[str], line: int, text: str) -> None:
        # Keep the unfinished part as a note naming the seat and player it announced, and
        # read the rest as the seat line it is.  The replay sees a player who sits nowhere.
        self.b.note("spliced_summary", text, line, m["player"])
        rest = m["rest"]
        seat = grammar().regex("SUM_SITTING_OUT").match(rest)
        if seat is not None:
            self.b.mark_sitting_out(seat["player"])
            return
        seat = grammar().regex("SUM_MUCKED").match(rest)
        if seat is not None:
            self.summary_mucked(seat, line, rest)
            return
        if any(
            grammar().regex(name).match(rest) is not None
            for name in ("SUM_COLLECTED", "SUM_SHOWED", "SUM_FOLDED")
        ):
            return
        self.b.unknown_line(line, rest)  # the rest is no summary line we know

    def noise(self, kind: str) -> LineHandler:
        def handle(m: Match[str], line: int, text: str) -> None:
            self.b.note(kind, text, line, m["player"])

        return handle

    # --- the record ----------------------------------------------------------------------
    def finish(self, h: Match[str], game: Game) -> Hand:
        limit = h["limit"]
        structure = _STRUCTURES[_LIMITS.get(limit, limit)]
        a, b = money(h["small"]), money(h["big"])
        ante_amount = money(h["ante"]) if h["ante"] else 0
        if structure is Structure.FIXED:
            stakes = Stakes(a // 2, a, a, b, ante_amount)
        else:
            stakes = Stakes(a, b, b, b, ante_amount)
        tournament = None
        if h["tournament_id"] is not None:
            m = _BUY_IN.search(h["tournament"] or "")
            tournament = Tournament(
                h["tournament_id"],
                buy_in=money(m["buy_in"]) if m else None,
                fee=money(m["fee"]) if m else None,
            )
        currency = "USD" if h["small"].startswith("$") else "chips"
        max_seats = None
        attrs = h["attrs"]
        if attrs:
            m = _MAX_SEATS.search(attrs)
            max_seats = int(m["seats"]) if m else (2 if "heads up" in attrs else None)
        return self.b.build(
            site=SITE,
            hand_id=h["hand_id"],
            table=h["table"],
            game=game,
            structure=structure,
            stakes=stakes,
            currency=currency,
            time=_when(h),
            button=self.button,
            file=self.chunk.file,
            line=self.chunk.line,
            max_seats=max_seats,
            rake=self.rake,
            total_pot=self.total_pot,
            tournament=tournament,
        )


def _when(h: Match[str]) -> datetime:
    """The hand's moment: the bracketed (ET) time in UTC where the header gives one,
    else the local time in UTC when its zone is known, else as written."""
    date, clock, zone = h["date"], h["clock"], h["zone"]
    when = None
    if h["et_date"] is not None and h["et_clock"] is not None:
        when = local(h["et_date"], h["et_clock"], h["et_zone"])
    if when is None:
        when = local(date, clock, zone) or local(date, clock, None)
    if when is None:
        raise FieldError(f"not a time: {date} {clock}")
    return when
