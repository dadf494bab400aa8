"""PokerStars hand histories: cut a file into hands and turn each hand into a record.

The wording lives in ``grammars/pokerstars.lark`` (one terminal per kind of line); this
module is the transformer: it classifies each line among the kinds allowed where it
stands and turns the line's named groups into record elements.  It knows no rules of
the game: amounts are what the text says, and the only arithmetic is turning "raises to"
into the chips the raise adds, from what the same player already put in on that street.

Reading is tolerant, the replay strict: a line no kind reads becomes an ``UNKNOWN_LINE``
warning in ``Hand.warnings`` and reading goes on, since the replay's accounting of every
chip and card decides whether the hand is sound.  Only a line recognisably about chips or
cards that does not read (a seated player's bet whose amount is garbled), or a hand
without a usable header or seats, is a parse error.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from mmap import mmap
from typing import Any, Final, NamedTuple, TypeVar

from engine.cards import CardError, Cards, parse_cards
from engine.problems import UNKNOWN_LINE
from engine.record import (
    MISDEAL_NOTE,
    TOP_UP_NOTES,
    Action,
    ActionKind,
    Collect,
    Draw,
    Game,
    Hand,
    HouseRules,
    Muck,
    Note,
    Post,
    PostKind,
    Seat,
    Show,
    Stakes,
    Step,
    Structure,
    Tournament,
    Uncalled,
)
from engine.rules import house_from_words
from engine.verdict import Problem, Severity
from parser.builder import draw_with
from parser.encoding import NumberedLines
from parser.lines import (
    Classifier,
    LineGrammar,
    MoneyError,
    money,
    site_grammar,
    spaced_cards,
)
from parser.outcome import HandText, ParseError, Skipped
from parser.times import stated_time

SITE: Final = "pokerstars"
HOME_SITE: Final = "home"  # a hand with DrawLab's "House rules:" line: a home game
GRAMMAR: Final[LineGrammar] = site_grammar("pokerstars.lark")

_HAND_START = re.compile(
    r"PokerStars (?:Home Game Hand|Home Game|Zoom Hand|Rush Hand|Hand|Game|Tournament) #"
)

GAMES: Final[dict[str, Game]] = {
    "Triple Draw 2-7 Lowball": Game.TRIPLE_DRAW_27,
    "Single Draw 2-7 Lowball": Game.SINGLE_DRAW_27,
    "Triple Draw A-5 Lowball": Game.TRIPLE_DRAW_A5,
    "Single Draw A-5 Lowball": Game.SINGLE_DRAW_A5,
    "5 Card Draw": Game.FIVE_CARD_DRAW,
    "Badugi": Game.BADUGI,
}
STRUCTURES: Final[dict[str, Structure]] = {
    "Limit": Structure.FIXED,
    "Fixed Limit": Structure.FIXED,
    "Pot Limit": Structure.POT,
    "No Limit": Structure.NO_LIMIT,
}
CURRENCY_OF_SYMBOL: Final = {"$": "USD", "€": "EUR", "£": "GBP", "₹": "INR"}
TOURNAMENT_CURRENCY: Final = "chips"
PLAY_CURRENCY: Final = "play"

_BODY_LINES = GRAMMAR.classifier(
    (
        "SEAT", "FOLDS", "CHECKS", "CALLS", "BETS", "RAISES", "DISCARDS", "STANDS_PAT", "DEALT",
        "DRAW_STREET", "POST_SB", "POST_BB", "POST_ANTE", "POST_BOTH", "POST_STRADDLE",
        "SHOWS", "MUCKS", "COLLECTED", "UNCALLED", "NO_SHOW", "SHOWDOWN", "DEALING",
        "CHAT", "JOINS", "LEAVES", "SITS_OUT", "SITTING_OUT", "TIMED_OUT", "DISCONNECTED",
        "CONNECTED", "RETURNED", "SECONDS_LEFT", "ALLOWED_TO_PLAY", "REMOVED",
        "BETTING_CAPPED", "CAPPED",
        "CASHED_OUT", "FINISHED", "WINS_TOURNAMENT", "BOUNTY", "REBUY", "TIME_BANK",
        "RESHUFFLE", "ADD_ON", "ADDS", "ENTRY_WON", "BREAK_SKIPPED", "SUMMARY",
        "HOUSE_RULES", "CARRIED", "UP_CARD", "SHOWS_TO_DRAW", "MISDEAL",
    )
)  # fmt: skip
_SUMMARY_LINES = GRAMMAR.classifier(("SEAT_SUMMARY", "TOTAL_POT", "BOARD"))
_HEADER = GRAMMAR.regex("HEADER")
_HEADER_START = GRAMMAR.prefix("HEADER_START")
_TIME_START = re.compile(r" - \d{4}/\d\d?/\d\d?")
"""Where the header's game part ends: ``HEADER``'s lazy ``game`` stops at the first place
(one character in at least) where `` - `` and a date follow, and the time is the rest."""
_GAME = GRAMMAR.regex("GAME")
_TABLE = GRAMMAR.regex("TABLE")
_BODY_EXPECTED = (
    "a line of play (posts, folds, checks, calls, bets, raises, discards, stands pat, "
    "shows, mucks, collected...) or a known note (said, joins, leaves, sits out...)"
)
_SUMMARY_EXPECTED = "a summary line ('Total pot ...' or 'Seat N: ...')"

# A line no kind reads is a warning unless it is recognisably about chips or cards: then
# reading it wrong would change the hand, so it stays a parse error.  Such a line is a
# seated player's name and a verb of play whose amount or cards did not read, or one of
# the lines of money and cards no player's name starts.
_PLAY_VERB = re.compile(
    r":? (?:posts|calls|bets|raises|folds|checks|discards|stands pat|shows|mucks)\b ?"
    r"| collected\b ?"
)
_MONEY_LINE = re.compile(r"(?:Uncalled bet|Dealt to|Total pot)\b ?")
_AMOUNT_OR_CARDS = re.compile(r"[$€£₹]\d|\[")
_UNKNOWN = GRAMMAR.regex("UNKNOWN")
_CANCELLED: Final = "Hand cancelled"  # a line no kind reads: ``unknown`` notices it

NOTE_KINDS: Final = {
    "CHAT": "chat",
    "JOINS": "join",
    "LEAVES": "leave",
    "SITS_OUT": "sit_out",
    "SITTING_OUT": "sitting_out",
    "TIMED_OUT": "timed_out",
    "DISCONNECTED": "disconnected",
    "CONNECTED": "connected",
    "RETURNED": "returned",
    "TIME_BANK": "time_bank",
    "SECONDS_LEFT": "time_bank",
    "ALLOWED_TO_PLAY": "wait_for_button",
    "REMOVED": "removed",
    "CAPPED": "capped",
    "BETTING_CAPPED": "capped",
    "CASHED_OUT": "cash_out",
    "FINISHED": "tournament",
    "WINS_TOURNAMENT": "tournament",
    "BOUNTY": "tournament",
    "ENTRY_WON": "tournament",
    "BREAK_SKIPPED": "tournament",
    "NO_SHOW": "no_show",
    # Notes with an effect: the replay reads "reshuffle" (discards may come back); a rebuy
    # or add-on puts chips on the player's stack for the next hand.
    "RESHUFFLE": "reshuffle",
    "MISDEAL": MISDEAL_NOTE,
    "REBUY": "rebuy",
    "ADD_ON": "add_on",
    "ADDS": "add_on",
}
_POST_KINDS: Final = {
    "POST_SB": PostKind.SMALL_BLIND,
    "POST_BB": PostKind.BIG_BLIND,
    "POST_BOTH": PostKind.BOTH_BLINDS,
    "POST_ANTE": PostKind.ANTE,
    "POST_STRADDLE": PostKind.EXTRA,
}
_ACTION_KINDS: Final = {
    "CALLS": ActionKind.CALL,
    "BETS": ActionKind.BET,
    "RAISES": ActionKind.RAISE,
}
# The members the handlers name, as plain names: an enum member read from its class costs
# ten times a global's look-up (Python 3.11), and the handlers run for every line.
_FIXED: Final = Structure.FIXED
_ANTE: Final = PostKind.ANTE
_SMALL_BLIND: Final = PostKind.SMALL_BLIND
_BIG_BLIND: Final = PostKind.BIG_BLIND
_BOTH_BLINDS: Final = PostKind.BOTH_BLINDS
_FOLD: Final = ActionKind.FOLD
_CHECK: Final = ActionKind.CHECK
_RAISE: Final = ActionKind.RAISE
_DRAW_MARKERS: Final = {"FIRST DRAW": 1, "SECOND DRAW": 2, "THIRD DRAW": 3, "DRAW": 1}


class PokerStarsReader:
    """The SiteReader for PokerStars text files."""

    site = SITE

    def sniff(self, head: str) -> bool:
        return any(_HAND_START.match(line.lstrip("\ufeff")) for line in head.splitlines()[:40])

    def split(self, lines: Iterable[tuple[int, str]], file: str) -> Iterator[HandText]:
        blocks = lines.blocks() if isinstance(lines, NumberedLines) else None
        if blocks is not None:
            yield from _split_blocks(blocks, file)
            return
        buf: list[str] = []
        start = 0
        for no, line in lines:
            if buf and line.startswith("PokerStars ") and _HAND_START.match(line):
                yield HandText(file, start, "\n".join(buf).rstrip("\n"), SITE)
                buf = []
            if not buf:
                if not line.strip():
                    continue
                start = no
            buf.append(line)
        if buf:
            yield HandText(file, start, "\n".join(buf).rstrip("\n"), SITE)

    def parse(self, chunk: HandText) -> Hand | Skipped:
        return _HandParser(chunk).run()


def _split_blocks(blocks: Iterator[tuple[int, str]], file: str) -> Iterator[HandText]:
    """``split`` on whole blocks of lines: the same hands, found with ``str.find``.

    A hand starts at its header line; the blank lines before the first hand are skipped.
    Only header lines cost Python code here, not every line.
    """
    pieces: list[str] = []  # the current hand's lines so far, in runs joined by "\n"
    started = False
    start = 0
    for no, text in blocks:
        at = 0  # where this block's part of the current hand begins
        if not started:
            first = _first_text_line(text)
            if first is None:
                continue
            skipped, at = first
            start = no + skipped
            no = start
            started = True
        elif text.startswith("PokerStars ") and _HAND_START.match(text):
            yield HandText(file, start, "\n".join(pieces).rstrip("\n"), SITE)
            pieces = []
            start = no
        find = text.find
        p = find(_NEXT_HAND, at)
        while p >= 0:
            if _HAND_START.match(text, p + 1):
                pieces.append(text[at:p])
                yield HandText(file, start, "\n".join(pieces).rstrip("\n"), SITE)
                pieces = []
                no += text.count("\n", at, p + 1)
                start = no
                at = p + 1
            p = find(_NEXT_HAND, p + 1)
        pieces.append(text[at:])
    if started:
        yield HandText(file, start, "\n".join(pieces).rstrip("\n"), SITE)


_NEXT_HAND: Final = "\nPokerStars "
_NEXT_HAND_BYTES: Final = _NEXT_HAND.encode("ascii")
_HAND_START_BYTES: Final = re.compile(_HAND_START.pattern.encode("ascii"))


def next_hand_start(data: bytes | mmap, pos: int) -> int:
    """The offset of the first line at or after byte ``pos`` that starts a hand, -1 when
    none does: where ``split`` would cut, found in the raw bytes of an ASCII-compatible
    file (UTF-8, cp1252), so a big file can be cut into parts that are read apart."""
    p = data.find(_NEXT_HAND_BYTES, max(pos - 1, 0))
    while p >= 0:
        if _HAND_START_BYTES.match(data, p + 1):
            return p + 1
        p = data.find(_NEXT_HAND_BYTES, p + 1)
    return -1


def header_parts(head: str) -> tuple[re.Match[str], str, str | None] | None:
    """A header line's start (kind, hand id, club, tournament, buy-in), game part and time
    text, as ``HEADER`` reads them; None when it is no header.

    ``HEADER`` itself spends most of its time in its lazy game part, which tries the time's
    start after every character: the start alone and one search for the time cost a third.
    On a line without trailing blanks the start ends before the line does (it ends with a
    blank), so the game part is never empty and both read the same; any other line goes
    through ``HEADER``.
    """
    m = _HEADER_START.match(head)
    if m is None:
        return None
    start = m.end()
    if start >= len(head) or head[-1:].isspace():
        full = _HEADER.match(head)
        return None if full is None else (full, full["game"], full["time"])
    t = _TIME_START.search(head, start + 1)
    if t is None:
        return m, head[start:], None
    return m, head[start : t.start()], head[t.start() + 3 :]


def _first_text_line(text: str) -> tuple[int, int] | None:
    """(lines before it, offset) of the block's first line that is not blank, or None."""
    offset = 0
    skipped = 0
    while True:
        end = text.find("\n", offset)
        line = text[offset:] if end < 0 else text[offset:end]
        if line.strip():
            return skipped, offset
        if end < 0:
            return None
        offset = end + 1
        skipped += 1


class _Header(NamedTuple):
    """A hand's header line read: its match, the game it names and the parts read later."""

    text: str
    line: int
    match: re.Match[str]
    hand_id: str
    game: Game
    structure: Structure
    rest: str  # after the limit: the stakes and the tournament's level
    time_text: str | None


def _next_text(lines: list[str], start: int) -> int | None:
    """The index of the first line from ``start`` that is not blank, None when none is."""
    for i in range(start, len(lines)):
        if lines[i].strip():
            return i
    return None


class _HandParser:
    """One hand's lines to a record; one instance per hand, thrown away after."""

    def __init__(self, chunk: HandText) -> None:
        self.chunk = chunk
        self.file = chunk.file
        self.steps: list[Step] = []
        self.seats: list[Seat] = []
        self.hero: str | None = None
        self.dealt: Cards | None = None
        self.street = 0
        self.draw = 0
        self.in_draw = False
        self.put_in: dict[str, int] = {}  # chips each player has in on the current street
        self.total_pot: int | None = None
        self.rake: int | None = None
        self.fixed = False
        self.posted: dict[PostKind, int] = {}  # the first post of each kind not all-in
        self.big_blind: int | None = None  # the first big blind posted, all-in or not
        self.warnings: list[Problem] = []  # what tolerant reading noticed (unknown lines)
        self.in_summary = False
        self.house: HouseRules | None = None  # a home game's "House rules:" line
        self.house_ante: int | None = None  # the ante it states
        self.carried = 0
        self.up_cards: list[tuple[str, int]] = []
        self.was_cancelled = False  # a "Hand cancelled" line was read

    # ---- errors
    def error(
        self, message: str, line: int, text: str, expected: str = "", column: int = 1
    ) -> ParseError:
        return ParseError(
            message,
            file=self.file,
            line=line,
            column=column,
            line_text=text,
            expected=expected,
        )

    def amount(self, text: str, line: int, full: str) -> int:
        try:
            return money(text)
        except MoneyError:
            raise self.error(
                f"not an amount: {text!r}",
                line,
                full,
                "an amount like $1.50 or 1,500",
                column=max(full.find(text), 0) + 1,
            ) from None

    def cards(self, text: str, line: int, full: str) -> Cards:
        """The cards of a bracket's text, or its positioned error at the first card that
        does not read."""
        try:
            found = spaced_cards(text)
        except CardError as exc:
            start = max(full.find(text), 0)
            column = start + 1
            for token in re.finditer(r"\S+", text):
                try:
                    parse_cards(token.group(), distinct=False)
                except CardError:
                    column = start + token.start() + 1
                    break
            raise self.error(
                str(exc), line, full, "cards like [7s 5d 4h 3c 2s]", column=column
            ) from None
        return found

    # ---- the hand
    def run(self) -> Hand | Skipped:
        first = self.chunk.line
        lines = self.chunk.text.split("\n")
        # Blank lines are skipped everywhere; a line is read without its trailing blanks.
        i = _next_text(lines, 0)
        if i is None:
            raise self.error("empty hand", first, "", "a PokerStars hand header")
        head = lines[i].rstrip()
        head_no = first + i
        if head.startswith("PokerStars Tournament #"):
            return Skipped(
                "incomplete",
                "a PokerStars tournament summary: it holds no hand",
                site=SITE,
                file=self.file,
                line=head_no,
            )
        header = self.header(head, head_no)
        if isinstance(header, Skipped):
            return header
        self.fixed = header.structure is _FIXED
        # A cancelled hand is skipped whatever else it holds: its "Hand cancelled" line is
        # noticed as the lines are read (``unknown``), and looked for only when reading
        # stops at an error, so a hand that reads is not searched for it a second time.
        try:
            return self.hand(lines, i, header)
        except Exception:
            if any(line.rstrip() == _CANCELLED for line in lines):
                return self.cancelled(head_no, header.hand_id)
            raise

    def header(self, head: str, head_no: int) -> _Header | Skipped:
        """The header line's parts, or the skip of a game DrawLab does not replay."""
        parts = header_parts(head)
        if parts is None:
            raise self.error(
                "not a PokerStars hand header",
                head_no,
                head,
                "'PokerStars Hand #<id>: <game> <limit> (<stakes>) - <date> <time>'",
            )
        m, game_text, time_text = parts
        g = _GAME.match(game_text)
        if g is None:
            raise self.error(
                "unknown game description",
                head_no,
                head,
                "'<game> <limit> (<stakes>)', for example 'Triple Draw 2-7 Lowball Limit'",
                column=head.find(game_text) + 1,
            )
        name, limit, mix = g["name"].strip(), g["limit"], g["mix"]
        game = GAMES.get(name)
        structure = STRUCTURES.get(limit)
        if game is None or structure is None:
            site_game = f"{name} {limit}"
            why = f"PokerStars {site_game}" + (f" ({mix})" if mix else "")
            return Skipped(
                "unsupported",
                f"{why}: not a draw game DrawLab replays",
                site=SITE,
                file=self.file,
                line=head_no,
                hand_id=m["hand_id"],
                game=site_game,
            )
        return _Header(
            text=head,
            line=head_no,
            match=m,
            hand_id=m["hand_id"],
            game=game,
            structure=structure,
            rest=g["rest"],
            time_text=time_text,
        )

    def hand(self, lines: list[str], at: int, header: _Header) -> Hand | Skipped:
        """The hand whose header is ``lines[at]``: the table line, then the body read."""
        head, head_no = header.text, header.line
        tournament = self.tournament(header.match, header.rest, head_no, head)
        stakes_text = self.stakes_text(header.rest, tournament is not None, head_no, head)
        small, big, iso = self.stakes(stakes_text, head_no, head)
        currency = self.currency(stakes_text, iso, tournament is not None)
        time = stated_time(header.time_text) if header.time_text else None
        j = _next_text(lines, at + 1)
        if j is None:
            raise self.error("the hand stops after its header", head_no, head, "a 'Table' line")
        table_text = lines[j].rstrip()
        table_no = self.chunk.line + j
        t = _TABLE.match(table_text)
        if t is None:
            raise self.error(
                "not a PokerStars table line",
                table_no,
                table_text,
                "'Table '<name>' <n>-max Seat #<n> is the button'",
            )
        summary_seen = self.body(enumerate(islice(lines, j + 1, None), table_no + 1))
        if self.was_cancelled:
            return self.cancelled(head_no, header.hand_id)
        if not summary_seen:
            return Skipped(
                "incomplete",
                "the hand's text ends before its summary (a partial hand)",
                site=SITE,
                file=self.file,
                line=head_no,
                hand_id=header.hand_id,
            )
        if not self.seats:
            raise self.error(
                "a hand without seats",
                table_no,
                table_text,
                "'Seat <n>: <player> (<stack> in chips)' after the table line",
            )
        return Hand(
            site=SITE if self.house is None else HOME_SITE,
            hand_id=header.hand_id,
            table=t["table"],
            game=header.game,
            structure=header.structure,
            stakes=self.make_stakes(header.structure, small, big),
            currency=currency,
            time=time,
            button=int(t["button"]) if t["button"] else None,
            seats=tuple(self.seats),
            steps=tuple(self.steps),
            file=self.file,
            line=head_no,
            hero=self.hero,
            dealt=self.dealt,
            max_seats=int(t["max"]) if t["max"] else None,
            rake=self.rake,
            total_pot=self.total_pot,
            tournament=tournament,
            house=self.house,
            carried=self.carried,
            up_cards=tuple(self.up_cards),
            warnings=tuple(self.warnings),
        )

    def cancelled(self, head_no: int, hand_id: str) -> Skipped:
        return Skipped(
            "incomplete",
            "the hand was cancelled",
            site=SITE,
            file=self.file,
            line=head_no,
            hand_id=hand_id,
        )

    def tournament(self, m: re.Match[str], rest: str, line: int, text: str) -> Tournament | None:
        if m["tournament"] is None:
            return None
        buyin = m["buyin"]
        level = GRAMMAR.regex("GAME_TOURNAMENT").match(rest)
        parts: list[int] = []
        currency: str | None = None
        if buyin is None:
            parts = []
        elif buyin != "Freeroll":
            amounts, _, iso = buyin.partition(" ")
            currency = iso or CURRENCY_OF_SYMBOL.get(amounts[:1])
            parts = [self.amount(p, line, text) for p in amounts.split("+")]
        else:
            parts = [0, 0]
        if len(parts) > 3:
            raise self.error("a buy-in of more than three parts", line, text, "$10+$1 or $5+$5+$1")
        buy_in = parts[0] if parts else None
        bounty = parts[1] if len(parts) == 3 else None
        fee = parts[-1] if len(parts) >= 2 else None
        return Tournament(
            tournament_id=m["tournament"],
            buy_in=buy_in,
            fee=fee,
            level=_level(level),
            bounty=bounty,
            currency=currency,
        )

    def stakes_text(self, rest: str, tournament: bool, line: int, text: str) -> str:
        kind = "GAME_TOURNAMENT" if tournament else "GAME_CASH"
        m = GRAMMAR.regex(kind).match(rest)
        if m is None:
            raise self.error(
                "cannot read the stakes",
                line,
                text,
                "' - Level <n> (<small>/<big>)'" if tournament else "' (<small>/<big> <currency>)'",
                column=max(text.find(rest), 0) + 1,
            )
        return m["stakes"]

    def stakes(self, text: str, line: int, full: str) -> tuple[int, int, str | None]:
        m = GRAMMAR.regex("STAKES").match(text)
        if m is None:
            raise self.error(
                "cannot read the stakes",
                line,
                full,
                "'<small>/<big>', like $0.10/$0.20",
                column=max(full.find(text), 0) + 1,
            )
        return self.amount(m["small"], line, full), self.amount(m["big"], line, full), m["iso"]

    @staticmethod
    def currency(stakes: str, iso: str | None, tournament: bool) -> str:
        if tournament:
            return TOURNAMENT_CURRENCY
        if iso:
            return iso
        return CURRENCY_OF_SYMBOL.get(stakes[:1], PLAY_CURRENCY)

    def make_stakes(self, structure: Structure, small: int, big: int) -> Stakes:
        """The stakes from the header, with the first ante and blinds posted in full."""
        posted = self.posted
        ante = posted.get(_ANTE, 0)
        if self.house is not None:  # a home game: antes, no blinds
            ante = self.house_ante if self.house_ante is not None else ante
            if structure is _FIXED:
                return Stakes(0, small, small, big, ante)
            return Stakes(0, big, big, big, ante)
        if structure is _FIXED:
            # The header of a fixed-limit game states the bets; the blinds are posted.
            small_blind = posted.get(_SMALL_BLIND, small // 2)
            big_blind = posted.get(_BIG_BLIND, small)
            return Stakes(small_blind, big_blind, small, big, ante)
        return Stakes(small, big, big, big, ante)

    # ---- the lines after the table line
    def body(self, lines: Iterator[tuple[int, str]]) -> bool:
        """Each line's handler in turn; True when the summary was reached.

        A line's reading (its kind, match, handler and the values its fields hold)
        depends on its text alone, and most lines of a history repeat (the same players
        check, fold, post the same blinds), so readings are remembered by text
        (``_BODY_SEEN``, ``_SUMMARY_SEEN``): a line read before costs a dict look-up and
        its handler, which only builds the step.
        """
        seen = _BODY_SEEN.get
        for no, raw in lines:
            reading = seen(raw)
            if reading is None:
                reading = self.read(raw, no, _BODY_LINES, _BODY_SEEN)
                if reading is None:
                    continue
            if reading.handler(self, no, reading):  # only "*** SUMMARY ***"'s answers True
                break
        else:
            return False
        self.in_summary = True
        seen = _SUMMARY_SEEN.get
        for no, raw in lines:
            reading = seen(raw)
            if reading is None:
                reading = self.read(raw, no, _SUMMARY_LINES, _SUMMARY_SEEN)
                if reading is None:
                    continue
            reading.handler(self, no, reading)
        return True

    def read(
        self, raw: str, no: int, kinds: Classifier, seen: dict[str, _Reading]
    ) -> _Reading | None:
        """A line's reading, remembered in ``seen``; None for a blank line.

        The kind's values (amounts, cards, counts) are read here, once per distinct
        line: a field that does not read raises its positioned error at this line, as
        the handler would (``seat`` defers its error: ``_SEAT_READING``).
        """
        text = raw.rstrip()
        if not text:
            return None
        found = kinds(text)
        if found is None:
            # Remembered like any reading: ``unknown`` decides in each hand between a
            # warning and an error, which depends on that hand's seats.
            unknown = _UNKNOWN.match(text)
            assert unknown is not None  # any text without a line break
            found = "UNKNOWN", unknown
        name, m = found
        if name == "SUMMARY":
            reading = _Reading(_summary_starts, text, name, m)
        else:
            handler, values = _HANDLERS[name]
            found_values = None if values is None else values(self, name, m, no, text)
            reading = _Reading(handler, text, name, m, found_values)
        if "[" not in raw:  # a line showing cards hardly ever comes twice: not worth its room
            _remember(seen, raw, reading, len(raw))
        return reading

    def unknown(self, no: int, r: _Reading) -> None:
        """A line no kind reads: an UNKNOWN_LINE warning (reading goes on), or a parse
        error when the line is recognisably about chips or cards (``_PLAY_VERB``)."""
        text = r.text
        if text == _CANCELLED:
            self.was_cancelled = True
        column = self.unreadable_play(text)
        if column is not None:
            expected = _SUMMARY_EXPECTED if self.in_summary else _BODY_EXPECTED
            raise self.error("unknown line", no, text, expected, column)
        # The wording of ``parser.builder.HandBuilder.unknown_line``, which the other
        # readers use.
        message = f"a line this reader does not know: {text[:200]}"
        self.warnings.append(Problem(UNKNOWN_LINE, Severity.WARNING, no, message))

    def unreadable_play(self, text: str) -> int | None:
        """The column where a line about chips or cards stops reading, None for chatter.

        Such a line is a seat line before the summary (the stacks every chip is counted
        from), a seated player's verb of play whose amount or cards do not read, a seated
        player's "name: ..." naming money or cards, or a line of money no name starts.
        """
        if not self.in_summary and text.startswith("Seat "):
            return 1
        for player in sorted((s.player for s in self.seats), key=len, reverse=True):
            if text.startswith(player):
                after = len(player)
                verb = _PLAY_VERB.match(text, after)
                if verb is not None:
                    return verb.end() + 1
                if text.startswith(": ", after) and _AMOUNT_OR_CARDS.search(text, after):
                    return after + 3
        opening = _MONEY_LINE.match(text)
        return None if opening is None else opening.end() + 1

    # Each handler takes the line's number and its reading: the line's text, kind and
    # match, and the values its kind's reader (``_HANDLERS``) took from the fields.

    def draw_marker(self, no: int, r: _Reading) -> None:
        self.draw = r.values.draw
        self.in_draw = True

    def seat(self, no: int, r: _Reading) -> None:
        text, m, v = r.text, r.match, r.values
        stack = v.stack
        # Notes (a rebuy, a player joining) may stand before the seat lines; play may not.
        if self.steps and not all(isinstance(s, Note) for s in self.steps):
            raise self.error("a seat line after the hand has started", no, text, _BODY_EXPECTED)
        if stack is None:
            stack = self.amount(m["stack"], no, text)  # raises: the amount did not read
        self.seats.append(Seat(v.seat, v.player, stack, no, v.sitting_out))

    def shows(self, no: int, r: _Reading) -> None:
        self.steps.append(Show(r.values.player, r.values.cards, no))

    def mucks(self, no: int, r: _Reading) -> None:
        self.steps.append(Muck(r.values.player, no))

    def collected(self, no: int, r: _Reading) -> None:
        v = r.values
        self.steps.append(Collect(v.player, v.amount, no, v.pot))

    def uncalled(self, no: int, r: _Reading) -> None:
        self.steps.append(Uncalled(r.values.player, r.values.amount, no))

    def note(self, no: int, r: _Reading) -> None:
        v = r.values
        self.steps.append(Note(v.kind, r.text, no, v.player, v.amount))

    def marker(self, no: int, r: _Reading) -> None:
        """Section markers (deal, showdown, board): the order of the lines already says it."""

    def total_pot_line(self, no: int, r: _Reading) -> None:
        self.total_pot = r.values.amount
        self.rake = r.values.rake

    def seat_summary(self, no: int, r: _Reading) -> None:
        v = r.values
        if v.cards is not None:
            self.steps.append(Show(v.player, v.cards, no, mucked=True))

    def post(self, no: int, r: _Reading) -> None:
        player, kind, amount, all_in = r.values
        dead = 0
        if kind is _BOTH_BLINDS:
            # "posts small & big blinds $0.75": the small-blind part is dead money.
            dead = self.both_blinds_dead(amount)
        self.steps.append(Post(player, kind, amount, no, dead=dead, all_in=all_in))
        if not all_in and kind not in self.posted:
            self.posted[kind] = amount
        if kind is _BIG_BLIND and self.big_blind is None:
            self.big_blind = amount
        if kind is not _ANTE:
            self.put_in[player] = self.put_in.get(player, 0) + amount - dead

    def both_blinds_dead(self, amount: int) -> int:
        big = self.big_blind
        if big is None or big >= amount:
            return 0
        return amount - big

    def street_starts(self) -> None:
        """The first bet, check or fold after a draw opens the next betting round."""
        self.street = self.draw
        self.in_draw = False
        self.put_in = {}

    def fold(self, no: int, r: _Reading) -> None:
        if self.in_draw:
            self.street_starts()
        player, cards = r.values
        self.steps.append(Action(player, self.street, _FOLD, no))
        if cards is not None:
            self.steps.append(Show(player, cards, no))

    def check(self, no: int, r: _Reading) -> None:
        if self.in_draw:
            self.street_starts()
        self.steps.append(Action(r.values.player, self.street, _CHECK, no))

    def bet(self, no: int, r: _Reading) -> None:
        """A call or a bet: the chips stated are the chips added."""
        if self.in_draw:
            self.street_starts()
        player, kind, stated, all_in = r.values
        put_in = self.put_in
        put_in[player] = put_in.get(player, 0) + stated
        self.steps.append(
            Action(
                player,
                self.street,
                kind,
                no,
                amount=stated,
                all_in=all_in,
            )
        )

    def raise_to(self, no: int, r: _Reading) -> None:
        """A raise states the chips added and the street total; the total decides."""
        if self.in_draw:
            self.street_starts()
        player, to, all_in = r.values
        put_in = self.put_in
        before = put_in.get(player, 0)
        put_in[player] = to
        self.steps.append(
            Action(
                player,
                self.street,
                _RAISE,
                no,
                amount=to - before,
                to=to,
                all_in=all_in,
            )
        )

    def discards(self, no: int, r: _Reading) -> None:
        if not self.in_draw:
            self.draw = self.street + 1
            self.in_draw = True
        v = r.values
        self.steps.append(Draw(v.player, self.draw, v.drawn, no, discarded=v.cards))

    def stands_pat(self, no: int, r: _Reading) -> None:
        if not self.in_draw:
            self.draw = self.street + 1
            self.in_draw = True
        # Standing pat throws and receives nothing; the kept cards only where shown.
        self.steps.append(
            Draw(
                r.values.player,
                self.draw,
                0,
                no,
                discarded=(),
                kept=r.values.cards,
                received=(),
            )
        )

    def house_rules(self, no: int, r: _Reading) -> None:
        """DrawLab's home-game line: the hand is played under these house rules (site
        "home"); words it does not know are an unknown line, read on past."""
        text, m = r.text, r.match
        house = house_from_words(m["rules"])
        if house is None:
            self.unknown(no, r)
            return
        self.house = house
        if m["amount"] is not None:
            self.house_ante = self.amount(m["amount"], no, text)

    def carried_line(self, no: int, r: _Reading) -> None:
        self.carried = r.values.amount

    def up_card(self, no: int, r: _Reading) -> None:
        text, (player, cards) = r.text, r.values
        if len(cards) != 1:
            raise self.error("a face-up card is one card", no, text, "'[Ah]'")
        self.up_cards.append((player, cards[0]))

    def shows_to_draw(self, no: int, r: _Reading) -> None:
        """The ace shown for a longer draw: on the player's draw just written.  A draw of
        four keeps it (so it is the kept card), a draw of five throws it too."""
        text, (player, shown) = r.text, r.values
        for i in range(len(self.steps) - 1, -1, -1):
            step = self.steps[i]
            if isinstance(step, Draw) and step.player == player and step.draw == self.draw:
                kept = step.kept
                if kept is None and step.count + len(shown) == 5:
                    kept = shown
                elif kept is None and step.count == 5:
                    kept = ()
                self.steps[i] = draw_with(
                    step, kept=kept, received=step.received, shown=shown, discarded=step.discarded
                )
                return
        raise self.error(
            "an ace shown without a draw",
            no,
            text,
            "'<player>: shows [Ah] to draw' after the discards",
        )

    def dealt_line(self, no: int, r: _Reading) -> None:
        text, (player, first, second) = r.text, r.values
        if not self.in_draw and self.draw == 0 and second is None:
            if self.dealt is not None:
                raise self.error(
                    "a second deal before any draw", no, text, "one 'Dealt to' line per deal"
                )
            self.hero = player
            self.dealt = first
            return
        steps = self.steps
        for i in range(len(steps) - 1, -1, -1):
            step = steps[i]
            if isinstance(step, Draw) and step.player == player and step.draw == self.draw:
                # "[kept] [new]"; a single bracket after a draw is the new cards only.
                kept, received = (first, second) if second is not None else (None, first)
                steps[i] = draw_with(
                    step, kept=kept, received=received, shown=step.shown, discarded=step.discarded
                )
                return
        raise self.error(
            "new cards dealt without a draw",
            no,
            text,
            "'Dealt to <player> [kept] [new]' after that player's discards",
        )


def line_kinds(text: str) -> Iterator[tuple[str, str]]:
    """Each non-blank line of one hand with the terminal it is, as ``parse`` classifies it
    (``"UNKNOWN"`` for a line no terminal matches after the table line, ``"?"`` for a
    first or second line that is no header or table; a summary line is read as a line of
    play if it is one): the grammar's rules then check the order."""
    kinds = _BODY_LINES
    lines = (line.rstrip() for line in text.split("\n") if line.strip())
    for i, line in enumerate(lines):
        if i == 0:
            name = "HEADER" if GRAMMAR.regex("HEADER").match(line) else "?"
        elif i == 1:
            name = "TABLE" if GRAMMAR.regex("TABLE").match(line) else "?"
        else:
            found = kinds(line)
            if found is None and kinds is _SUMMARY_LINES:
                found = _BODY_LINES(line)  # a line of play out of place, for the rules
            name, _ = found if found is not None else ("UNKNOWN", None)
            if name == "SUMMARY":
                kinds = _SUMMARY_LINES
        yield name, line


class _Reading(NamedTuple):
    """A line's reading: the handler of its kind, the line without trailing blanks, its
    kind and match, and the values its kind's reader took from the fields (``_HANDLERS``:
    one of the records below, None for a kind that has none)."""

    handler: _Handler
    text: str
    kind: str
    match: re.Match[str]
    values: Any = None


_Handler = Callable[["_HandParser", int, _Reading], "bool | None"]
_Values = Callable[[_HandParser, str, re.Match[str], int, str], tuple[Any, ...]]


class _Player(NamedTuple):
    player: str


class _Cards(NamedTuple):
    """A player and the cards of the line: folded and shown, stood pat on, shown, mucked
    at the summary (None where the line shows none)."""

    player: str
    cards: Cards | None


class _Shown(NamedTuple):
    player: str
    cards: Cards


class _Bet(NamedTuple):
    player: str
    kind: ActionKind
    stated: int
    all_in: bool


class _Raise(NamedTuple):
    player: str
    to: int
    all_in: bool


class _Discards(NamedTuple):
    player: str
    drawn: int  # the number of cards thrown
    cards: Cards | None


class _Dealt(NamedTuple):
    player: str
    cards: Cards
    more: Cards | None  # a second bracket: after a draw, the cards received


class _DrawNo(NamedTuple):
    draw: int


class _SeatLine(NamedTuple):
    seat: int
    player: str
    stack: int | None  # None: the stack does not read (``seat`` raises its error)
    sitting_out: bool


class _Paid(NamedTuple):
    player: str
    amount: int


class _Collected(NamedTuple):
    player: str
    amount: int
    pot: int  # 0 the main pot, n side pot n


class _NoteLine(NamedTuple):
    kind: str
    player: str | None
    amount: int | None


class _Total(NamedTuple):
    amount: int
    rake: int | None


class _PostLine(NamedTuple):
    player: str
    kind: PostKind
    amount: int
    all_in: bool


class _Amount(NamedTuple):
    amount: int


def _player(p: _HandParser, name: str, m: re.Match[str], no: int, text: str) -> _Player:
    return _Player(m["player"])


def _folds(p: _HandParser, name: str, m: re.Match[str], no: int, text: str) -> _Cards:
    cards = m["cards"]
    return _Cards(m["player"], p.cards(cards[1:-1], no, text) if cards else None)


def _bets(p: _HandParser, name: str, m: re.Match[str], no: int, text: str) -> _Bet:
    stated = p.amount(m["amount"], no, text)
    all_in = m["all_in"] is not None or m["cap"] is not None
    return _Bet(m["player"], _ACTION_KINDS[name], stated, all_in)


def _raises(p: _HandParser, name: str, m: re.Match[str], no: int, text: str) -> _Raise:
    p.amount(m["amount"], no, text)  # must be an amount, though the total decides
    all_in = m["all_in"] is not None or m["cap"] is not None
    return _Raise(m["player"], p.amount(m["to"], no, text), all_in)


def _discards(p: _HandParser, name: str, m: re.Match[str], no: int, text: str) -> _Discards:
    cards = m["cards"]
    thrown = None if cards is None else p.cards(cards, no, text)
    return _Discards(m["player"], int(m["count"]), thrown)


def _pat(p: _HandParser, name: str, m: re.Match[str], no: int, text: str) -> _Cards:
    cards = m["cards"]
    return _Cards(m["player"], None if cards is None else p.cards(cards, no, text))


def _dealt(p: _HandParser, name: str, m: re.Match[str], no: int, text: str) -> _Dealt:
    first = p.cards(m["cards"], no, text)
    second = m["cards2"]
    return _Dealt(m["player"], first, None if second is None else p.cards(second, no, text))


def _draw_no(p: _HandParser, name: str, m: re.Match[str], no: int, text: str) -> _DrawNo:
    return _DrawNo(_DRAW_MARKERS[m["which"]])


def _seat(p: _HandParser, name: str, m: re.Match[str], no: int, text: str) -> _SeatLine:
    """A stack that does not read is None here: ``seat`` raises its error, after the
    check that the hand has not started (that error comes first)."""
    try:
        stack: int | None = money(m["stack"])
    except MoneyError:
        stack = None
    return _SeatLine(int(m["seat"]), m["player"], stack, m["out"] is not None)


def _shown(p: _HandParser, name: str, m: re.Match[str], no: int, text: str) -> _Shown:
    return _Shown(m["player"], p.cards(m["cards"], no, text))


def _collect(p: _HandParser, name: str, m: re.Match[str], no: int, text: str) -> _Collected:
    pot = m["pot"]
    index = 0 if pot in ("pot", "main pot") else int(m["side"] or 1)
    return _Collected(m["player"], p.amount(m["amount"], no, text), index)


def _paid(p: _HandParser, name: str, m: re.Match[str], no: int, text: str) -> _Paid:
    return _Paid(m["player"], p.amount(m["amount"], no, text))


def _note(p: _HandParser, name: str, m: re.Match[str], no: int, text: str) -> _NoteLine:
    found = m.groupdict()
    kind = NOTE_KINDS[name]
    chips = found.get("chips") if kind in TOP_UP_NOTES else None
    amount = None if chips is None else p.amount(chips, no, text)
    return _NoteLine(kind, found.get("player"), amount)


def _total(p: _HandParser, name: str, m: re.Match[str], no: int, text: str) -> _Total:
    rake = m["rake"]
    return _Total(p.amount(m["amount"], no, text), p.amount(rake, no, text) if rake else None)


def _mucked(p: _HandParser, name: str, m: re.Match[str], no: int, text: str) -> _Cards:
    mucked = m["mucked"]
    return _Cards(m["player"], None if mucked is None else p.cards(mucked, no, text))


def _post(p: _HandParser, name: str, m: re.Match[str], no: int, text: str) -> _PostLine:
    amount = p.amount(m["amount"], no, text)
    return _PostLine(m["player"], _POST_KINDS[name], amount, m["all_in"] is not None)


def _carried(p: _HandParser, name: str, m: re.Match[str], no: int, text: str) -> _Amount:
    return _Amount(p.amount(m["amount"], no, text))


_HANDLERS: dict[str, tuple[_Handler, _Values | None]] = {
    "FOLDS": (_HandParser.fold, _folds),
    "CHECKS": (_HandParser.check, _player),
    "CALLS": (_HandParser.bet, _bets),
    "BETS": (_HandParser.bet, _bets),
    "RAISES": (_HandParser.raise_to, _raises),
    "DISCARDS": (_HandParser.discards, _discards),
    "STANDS_PAT": (_HandParser.stands_pat, _pat),
    "DEALT": (_HandParser.dealt_line, _dealt),
    "DRAW_STREET": (_HandParser.draw_marker, _draw_no),
    "SEAT": (_HandParser.seat, _seat),
    "SHOWS": (_HandParser.shows, _shown),
    "MUCKS": (_HandParser.mucks, _player),
    "COLLECTED": (_HandParser.collected, _collect),
    "UNCALLED": (_HandParser.uncalled, _paid),
    "SHOWDOWN": (_HandParser.marker, None),
    "DEALING": (_HandParser.marker, None),
    "BOARD": (_HandParser.marker, None),
    "TOTAL_POT": (_HandParser.total_pot_line, _total),
    "SEAT_SUMMARY": (_HandParser.seat_summary, _mucked),
    "UNKNOWN": (_HandParser.unknown, None),
    "HOUSE_RULES": (_HandParser.house_rules, None),
    "CARRIED": (_HandParser.carried_line, _carried),
    "UP_CARD": (_HandParser.up_card, _shown),
    "SHOWS_TO_DRAW": (_HandParser.shows_to_draw, _shown),
}
"""Each kind of line's handler, and the reader of the values its fields hold (None: the
handler reads the match itself, or needs nothing)."""
_HANDLERS.update(dict.fromkeys(_POST_KINDS, (_HandParser.post, _post)))
_HANDLERS.update(dict.fromkeys(NOTE_KINDS, (_HandParser.note, _note)))


def _summary_starts(parser: _HandParser, no: int, reading: _Reading) -> bool:
    """The reading of "*** SUMMARY ***": True, for ``body`` to switch to the summary's
    kinds of line (every other handler answers None: one test of the answer a line,
    where a test of the handler before its call cost a look-up and a comparison more)."""
    return True


_SEEN_LINES: Final = 2048
_SEEN_CHARS: Final = 300
_BODY_SEEN: dict[str, _Reading] = {}  # readings by the line's text
_SUMMARY_SEEN: dict[str, _Reading] = {}

_K = TypeVar("_K")
_V = TypeVar("_V")


def _remember(seen: dict[_K, _V], key: _K, value: _V, chars: int) -> None:
    """Keep ``value`` for ``key`` (of ``chars`` characters) within the memos' bounds:
    ``_SEEN_LINES`` entries of at most ``_SEEN_CHARS`` characters (lines of play are short;
    an enormous line in a damaged file is read, not kept)."""
    if chars > _SEEN_CHARS:
        return
    if len(seen) >= _SEEN_LINES:
        seen.clear()  # what repeats comes back at once
    seen[key] = value


def _level(m: re.Match[str] | None) -> str | None:
    """ "Level V" is level "V"; a heads-up match keeps its round: "Match Round I, Level V"."""
    if m is None or m["level"] is None:
        return None
    if m["match"]:
        return f"{m['match']}Level {m['level']}"
    return str(m["level"])
