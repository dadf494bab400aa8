"""PokerStars hand histories: cut a file into hands and turn each hand into a record.

The wording lives in ``grammars/pokerstars.lark`` (one terminal per kind of line); this
module is the transformer: it classifies each line among the kinds allowed where it
stands and turns the line's named groups into record elements.  It knows no rules of
the game: amounts are what the text says, and the only arithmetic is turning "raises to"
into the chips the raise adds, from what the same player already put in on that street.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Final

from engine.cards import CardError, Cards, parse_cards
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
    Step,
    Structure,
    Tournament,
    Uncalled,
)
from parser.encoding import NumberedLines
from parser.lines import LineGrammar, LineKind, MoneyError, classify, money, spaced_cards
from parser.outcome import HandText, ParseError, Skipped
from parser.times import stated_time

SITE: Final = "pokerstars"
GRAMMAR = LineGrammar("pokerstars.lark")

_HAND_START = re.compile(
    r"PokerStars (?:Home Game Hand|Home Game|Zoom Hand|Rush Hand|Hand|Game|Tournament) #"
)

GAMES: Final[dict[str, Game]] = {
    "Triple Draw 2-7 Lowball": Game.TRIPLE_DRAW_27,
    "Single Draw 2-7 Lowball": Game.SINGLE_DRAW_27,
    "Triple Draw A-5 Lowball": Game.TRIPLE_DRAW_A5,
    "Single Draw A-5 Lowball": Game.SINGLE_DRAW_A5,
    "5 Card Draw": Game.FIVE_CARD_DRAW,
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

_BODY = GRAMMAR.group(
    (
        "SEAT", "FOLDS", "CHECKS", "CALLS", "BETS", "RAISES", "DISCARDS", "STANDS_PAT", "DEALT",
        "DRAW_STREET", "POST_SB", "POST_BB", "POST_ANTE", "POST_BOTH", "POST_STRADDLE",
        "SHOWS", "MUCKS", "COLLECTED", "UNCALLED", "NO_SHOW", "SHOWDOWN", "DEALING",
        "CHAT", "JOINS", "LEAVES", "SITS_OUT", "SITTING_OUT", "TIMED_OUT", "DISCONNECTED",
        "CONNECTED", "RETURNED", "SECONDS_LEFT", "ALLOWED_TO_PLAY", "REMOVED",
        "BETTING_CAPPED", "CAPPED",
        "CASHED_OUT", "FINISHED", "WINS_TOURNAMENT", "BOUNTY", "REBUY", "TIME_BANK",
        "SUMMARY",
    )
)  # fmt: skip
_SUMMARY = GRAMMAR.group(("SEAT_SUMMARY", "TOTAL_POT", "BOARD"))
_BODY_EXPECTED = (
    "a line of play (posts, folds, checks, calls, bets, raises, discards, stands pat, "
    "shows, mucks, collected...) or a known note (said, joins, leaves, sits out...)"
)
_SUMMARY_EXPECTED = "a summary line ('Total pot ...' or 'Seat N: ...')"

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
    "REBUY": "tournament",
    "NO_SHOW": "no_show",
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
        try:
            return spaced_cards(text)
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

    # ---- the hand
    def run(self) -> Hand | Skipped:
        first = self.chunk.line
        numbered = [
            (first + i, text.rstrip())
            for i, text in enumerate(self.chunk.text.split("\n"))
            if text.strip()
        ]
        if not numbered:
            raise self.error("empty hand", first, "", "a PokerStars hand header")
        head_no, head = numbered[0]
        if head.startswith("PokerStars Tournament #"):
            return Skipped(
                "incomplete",
                "a PokerStars tournament summary: it holds no hand",
                SITE,
                self.file,
                head_no,
            )
        m = GRAMMAR.regex("HEADER").match(head)
        if m is None:
            raise self.error(
                "not a PokerStars hand header",
                head_no,
                head,
                "'PokerStars Hand #<id>: <game> <limit> (<stakes>) - <date> <time>'",
            )
        hand_id = m["hand_id"]
        game_text = m["game"]
        g = GRAMMAR.regex("GAME").match(game_text)
        if g is None:
            raise self.error(
                "unknown game description",
                head_no,
                head,
                "'<game> <limit> (<stakes>)', for example 'Triple Draw 2-7 Lowball Limit'",
                column=head.find(game_text) + 1,
            )
        name, limit = g["name"].strip(), g["limit"]
        game = GAMES.get(name)
        structure = STRUCTURES.get(limit)
        if game is None or structure is None:
            site_game = f"{name} {limit}"
            why = f"PokerStars {site_game}" + (f" ({g['mix']})" if g["mix"] else "")
            return Skipped(
                "unsupported",
                f"{why}: not a draw game DrawLab replays",
                SITE,
                self.file,
                head_no,
                hand_id,
                site_game,
            )
        self.fixed = structure is Structure.FIXED
        if any(text == "Hand cancelled" for _, text in numbered):
            return Skipped(
                "incomplete", "the hand was cancelled", SITE, self.file, head_no, hand_id, None
            )
        tournament = self.tournament(m, g["rest"], head_no, head)
        stakes_text = self.stakes_text(g["rest"], tournament is not None, head_no, head)
        small, big, iso = self.stakes(stakes_text, head_no, head)
        currency = self.currency(stakes_text, iso, tournament is not None)
        time = stated_time(m["time"]) if m["time"] else None
        if len(numbered) < 2:
            raise self.error("the hand stops after its header", head_no, head, "a 'Table' line")
        table_no, table_text = numbered[1]
        t = GRAMMAR.regex("TABLE").match(table_text)
        if t is None:
            raise self.error(
                "not a PokerStars table line",
                table_no,
                table_text,
                "'Table '<name>' <n>-max Seat #<n> is the button'",
            )
        summary_seen = self.body(numbered[2:])
        if not summary_seen:
            return Skipped(
                "incomplete",
                "the hand's text ends before its summary (a partial hand)",
                SITE,
                self.file,
                head_no,
                hand_id,
                None,
            )
        stakes = self.make_stakes(structure, small, big)
        return Hand(
            site=SITE,
            hand_id=hand_id,
            table=t["table"],
            game=game,
            structure=structure,
            stakes=stakes,
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
        ante = next(
            (
                s.amount
                for s in self.steps
                if isinstance(s, Post) and s.kind is PostKind.ANTE and not s.all_in
            ),
            0,
        )
        if structure is Structure.FIXED:
            # The header of a fixed-limit game states the bets; the blinds are posted.
            small_blind = next(
                (
                    s.amount
                    for s in self.steps
                    if isinstance(s, Post) and s.kind is PostKind.SMALL_BLIND and not s.all_in
                ),
                small // 2,
            )
            big_blind = next(
                (
                    s.amount
                    for s in self.steps
                    if isinstance(s, Post) and s.kind is PostKind.BIG_BLIND and not s.all_in
                ),
                small,
            )
            return Stakes(small_blind, big_blind, small, big, ante)
        return Stakes(small, big, big, big, ante)

    # ---- the lines after the table line
    def body(self, lines: list[tuple[int, str]]) -> bool:
        kinds = _BODY
        summary = False
        for no, text in lines:
            found = classify(text, kinds)
            if found is None:
                if summary:
                    raise self.error("unknown summary line", no, text, _SUMMARY_EXPECTED)
                raise self.error("unknown line", no, text, _BODY_EXPECTED, self.column(text))
            name, m = found
            if name == "SUMMARY":
                summary = True
                kinds = _SUMMARY
                continue
            self.line(name, m, no, text)
        return summary

    def column(self, text: str) -> int:
        """Where an unknown line goes wrong: after a seated player's name, if it starts so."""
        names = [s.player for s in self.seats if text.startswith(s.player)]
        if not names:
            return 1
        rest = len(max(names, key=len))
        return rest + 3 if text[rest : rest + 2] == ": " else rest + 2

    def line(self, name: str, m: re.Match[str], no: int, text: str) -> None:
        _HANDLERS[name](self, name, m, no, text)

    def draw_marker(self, name: str, m: re.Match[str], no: int, text: str) -> None:
        self.draw = _DRAW_MARKERS[m["which"]]
        self.in_draw = True

    def seat(self, name: str, m: re.Match[str], no: int, text: str) -> None:
        if self.steps:
            raise self.error("a seat line after the hand has started", no, text, _BODY_EXPECTED)
        self.seats.append(
            Seat(
                seat=int(m["seat"]),
                player=m["player"],
                stack=self.amount(m["stack"], no, text),
                line=no,
                sitting_out=m["out"] is not None,
            )
        )

    def shows(self, name: str, m: re.Match[str], no: int, text: str) -> None:
        self.steps.append(Show(m["player"], self.cards(m["cards"], no, text), no))

    def mucks(self, name: str, m: re.Match[str], no: int, text: str) -> None:
        self.steps.append(Muck(m["player"], no))

    def collected(self, name: str, m: re.Match[str], no: int, text: str) -> None:
        pot = m["pot"]
        index = 0 if pot in ("pot", "main pot") else int(m["side"] or 1)
        self.steps.append(Collect(m["player"], self.amount(m["amount"], no, text), no, index))

    def uncalled(self, name: str, m: re.Match[str], no: int, text: str) -> None:
        self.steps.append(Uncalled(m["player"], self.amount(m["amount"], no, text), no))

    def note(self, name: str, m: re.Match[str], no: int, text: str) -> None:
        player = m.groupdict().get("player")
        self.steps.append(Note(NOTE_KINDS[name], text, no, player))

    def marker(self, name: str, m: re.Match[str], no: int, text: str) -> None:
        """Section markers (deal, showdown, board): the order of the lines already says it."""

    def total_pot_line(self, name: str, m: re.Match[str], no: int, text: str) -> None:
        self.total_pot = self.amount(m["amount"], no, text)
        self.rake = self.amount(m["rake"], no, text) if m["rake"] else None

    def seat_summary(self, name: str, m: re.Match[str], no: int, text: str) -> None:
        if m["mucked"] is not None:
            cards = self.cards(m["mucked"], no, text)
            self.steps.append(Show(m["player"], cards, no, mucked=True))

    def post(self, name: str, m: re.Match[str], no: int, text: str) -> None:
        amount = self.amount(m["amount"], no, text)
        kind = _POST_KINDS[name]
        player = m["player"]
        dead = 0
        if kind is PostKind.BOTH_BLINDS:
            # "posts small & big blinds $0.75": the small-blind part is dead money.
            dead = self.both_blinds_dead(amount)
        self.steps.append(Post(player, kind, amount, no, dead, m["all_in"] is not None))
        if kind is not PostKind.ANTE:
            self.put_in[player] = self.put_in.get(player, 0) + amount - dead

    def both_blinds_dead(self, amount: int) -> int:
        big = next(
            (s.amount for s in self.steps if isinstance(s, Post) and s.kind is PostKind.BIG_BLIND),
            None,
        )
        if big is None or big >= amount:
            return 0
        return amount - big

    def action(self, name: str, m: re.Match[str], no: int, text: str) -> None:
        if self.in_draw:
            self.street = self.draw
            self.in_draw = False
            self.put_in = {}
        player = m["player"]
        if name == "FOLDS":
            self.steps.append(Action(player, self.street, ActionKind.FOLD, no))
            if m["cards"]:
                shown = self.cards(m["cards"][1:-1], no, text)
                self.steps.append(Show(player, shown, no))
            return
        if name == "CHECKS":
            self.steps.append(Action(player, self.street, ActionKind.CHECK, no))
            return
        kind = _ACTION_KINDS[name]
        stated = self.amount(m["amount"], no, text)
        all_in = m["all_in"] is not None or m["cap"] is not None
        before = self.put_in.get(player, 0)
        if kind is ActionKind.RAISE:
            to = self.amount(m["to"], no, text)
            added = to - before
            self.put_in[player] = to
            self.steps.append(Action(player, self.street, kind, no, added, to, all_in))
            return
        self.put_in[player] = before + stated
        self.steps.append(Action(player, self.street, kind, no, stated, None, all_in))

    def draw_line(self, name: str, m: re.Match[str], no: int, text: str) -> None:
        if not self.in_draw:
            self.draw = self.street + 1
            self.in_draw = True
        player = m["player"]
        cards = self.cards(m["cards"], no, text) if m["cards"] is not None else None
        if name == "STANDS_PAT":
            # Standing pat throws and receives nothing; the kept cards only where shown.
            self.steps.append(Draw(player, self.draw, 0, no, (), cards, ()))
            return
        self.steps.append(Draw(player, self.draw, int(m["count"]), no, cards))

    def dealt_line(self, name: str, m: re.Match[str], no: int, text: str) -> None:
        player = m["player"]
        first = self.cards(m["cards"], no, text)
        second = self.cards(m["cards2"], no, text) if m["cards2"] is not None else None
        if not self.in_draw and self.draw == 0 and second is None:
            if self.dealt is not None:
                raise self.error(
                    "a second deal before any draw", no, text, "one 'Dealt to' line per deal"
                )
            self.hero = player
            self.dealt = first
            return
        for i in range(len(self.steps) - 1, -1, -1):
            step = self.steps[i]
            if isinstance(step, Draw) and step.player == player and step.draw == self.draw:
                # "[kept] [new]"; a single bracket after a draw is the new cards only.
                kept, received = (first, second) if second is not None else (None, first)
                self.steps[i] = replace(step, kept=kept, received=received)
                return
        raise self.error(
            "new cards dealt without a draw",
            no,
            text,
            "'Dealt to <player> [kept] [new]' after that player's discards",
        )


def line_kinds(text: str) -> Iterator[tuple[str, str]]:
    """Each non-blank line of one hand with the terminal it is, as ``parse`` classifies it
    (``"?"`` for a line no terminal matches): the grammar's rules can then check the order."""
    kinds: tuple[LineKind, ...] = _BODY
    lines = (line.rstrip() for line in text.split("\n") if line.strip())
    for i, line in enumerate(lines):
        if i == 0:
            name = "HEADER" if GRAMMAR.regex("HEADER").match(line) else "?"
        elif i == 1:
            name = "TABLE" if GRAMMAR.regex("TABLE").match(line) else "?"
        else:
            found = classify(line, kinds)
            name = found[0] if found else "?"
            if name == "SUMMARY":
                kinds = _SUMMARY
        yield name, line


_Handler = Callable[[_HandParser, str, re.Match[str], int, str], None]
_HANDLERS: dict[str, _Handler] = {
    "FOLDS": _HandParser.action,
    "CHECKS": _HandParser.action,
    "CALLS": _HandParser.action,
    "BETS": _HandParser.action,
    "RAISES": _HandParser.action,
    "DISCARDS": _HandParser.draw_line,
    "STANDS_PAT": _HandParser.draw_line,
    "DEALT": _HandParser.dealt_line,
    "DRAW_STREET": _HandParser.draw_marker,
    "SEAT": _HandParser.seat,
    "SHOWS": _HandParser.shows,
    "MUCKS": _HandParser.mucks,
    "COLLECTED": _HandParser.collected,
    "UNCALLED": _HandParser.uncalled,
    "SHOWDOWN": _HandParser.marker,
    "DEALING": _HandParser.marker,
    "BOARD": _HandParser.marker,
    "TOTAL_POT": _HandParser.total_pot_line,
    "SEAT_SUMMARY": _HandParser.seat_summary,
}
_HANDLERS.update(dict.fromkeys(_POST_KINDS, _HandParser.post))
_HANDLERS.update(dict.fromkeys(NOTE_KINDS, _HandParser.note))


def _level(m: re.Match[str] | None) -> str | None:
    """ "Level V" is level "V"; a heads-up match keeps its round: "Match Round I, Level V"."""
    if m is None or m["level"] is None:
        return None
    if m["match"]:
        return f"{m['match']}Level {m['level']}"
    return str(m["level"])
