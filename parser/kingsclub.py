"""KingsClub hand histories: the grammar is grammars/kingsclub.lark.

KingsClub states every call, bet and raise as the street total it reaches, writes no
uncalled-bet lines and no total pot (the summary gives each seat's final stack and net
instead, kept in ``Hand.net``), omits street markers in single-draw hands, and runs it
twice by showing one new card per run: ``discards [Th] draws [8c] [Qs]``.

``posts blind 44`` is a returning player's missed blinds: 44 live plus the small blind
dead (the hand's nets and pot prove it cost 66: see tests/parser/test_kingsclub.py).

Reading is tolerant (parser/lines.py): chat is a note, and a line the reader does not
know, or one out of place, is a warning on the hand; the replay judges the chips.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from dataclasses import replace
from datetime import datetime
from itertools import pairwise
from re import Match

from engine.record import Draw, Game, Hand, PostKind, Stakes, Step, Structure
from parser.builder import HandBuilder
from parser.lines import (
    Classifier,
    LineGrammar,
    LineHandler,
    all_in,
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

SITE = "kingsclub"
_GAMES = {
    "2-7 Triple Draw": Game.TRIPLE_DRAW_27,
    "2-7 Single Draw": Game.SINGLE_DRAW_27,
    "A-5 Triple Draw": Game.TRIPLE_DRAW_A5,
    "A-5 Single Draw": Game.SINGLE_DRAW_A5,
    "5 Card Draw": Game.FIVE_CARD_DRAW,
    "Five Card Draw": Game.FIVE_CARD_DRAW,
}
_STRUCTURES = {"Limit": Structure.FIXED, "Pot Limit": Structure.POT, "No Limit": Structure.NO_LIMIT}


def grammar() -> LineGrammar:
    return site_grammar("kingsclub.lark")


@functools.cache
def sections() -> tuple[Classifier, ...]:
    """The date, table and seats; then play; then the summary."""
    g = grammar()
    return (
        g.classifier(("DATE", "TABLE", "SEAT", "CHAT")),
        g.classifier((
            "ANTE", "SMALL_BLIND", "BIG_BLIND", "BLIND", "DEALT", "FOLDS", "CHECKS", "CALLS",
            "BETS", "RAISES", "DRAW_ROUND", "BETTING_ROUND", "DISCARDS", "DRAWS",
            "STANDS_PAT", "SHOWS", "CHAT",
        )),
        g.classifier(("SUMMARY", "SUMMARY_SEAT", "RAKE", "WINS", "WINS_FROM", "CHAT")),
    )


def _is_start(line: str) -> bool:
    return grammar().regex("HEADER").match(line) is not None


class KingsClubReader:
    site = SITE

    def sniff(self, head: str) -> bool:
        lines = [clean(x.lstrip("\ufeff")) for x in head.splitlines()[:40]]
        lines = [x for x in lines if x]
        date = grammar().regex("DATE")
        return any(_is_start(a) and date.match(b) is not None for a, b in pairwise(lines))

    def split(self, lines: Iterable[tuple[int, str]], file: str) -> Iterator[HandText]:
        return numbered_hands(lines, _is_start, file, SITE)

    def parse(self, chunk: HandText) -> Hand | Skipped:
        first = chunk.text.split("\n", 1)[0]
        header = grammar().regex("HEADER").match(first)
        if header is None:
            raise ParseError(
                "not the start of a KingsClub hand",
                file=chunk.file,
                line=chunk.line,
                line_text=first,
                expected="a header like '#39969256: Limit 2-7 Triple Draw - 40/80'",
            )
        hand_id, game_name = header["hand_id"], header["game"]
        game = _GAMES.get(game_name)
        if game is None:
            return Skipped.unsupported_game(
                game_name,
                site=SITE,
                file=chunk.file,
                line=chunk.line,
                hand_id=hand_id,
            )
        reading = _KingsClubHand(chunk)
        read_lines(chunk, sections(), reading.handlers(), reading.b)
        if not reading.b.seats:
            raise no_seats(chunk)
        try:
            return reading.finish(header, game)
        except ValueError as e:
            raise header_error(chunk, e) from None


class _KingsClubHand:
    def __init__(self, chunk: HandText) -> None:
        self.chunk = chunk
        self.b = HandBuilder()
        self.button: int | None = None
        self.table = ""
        self.time: datetime | None = None
        self.rake: int | None = None
        self.ante = 0
        self.small_blind: int | None = None
        self.runs = False

    def handlers(self) -> dict[str, LineHandler]:
        b = self.b
        return {
            "DATE": self.date,
            "TABLE": self.table_line,
            "SEAT": lambda m, line, _t: b.seat(
                int(m["seat"]), m["player"], money(m["stack"]), line
            ),
            "ANTE": self.ante_post,
            "SMALL_BLIND": self.small_blind_post,
            "BIG_BLIND": lambda m, line, _t: b.post(
                m["player"], PostKind.BIG_BLIND, money(m["amount"]), line, all_in=all_in(m)
            ),
            "BLIND": self.missed_blinds,
            "DEALT": self.dealt,
            "FOLDS": lambda m, line, _t: b.fold(m["player"], line),
            "CHECKS": lambda m, line, _t: b.check(m["player"], line),
            "CALLS": lambda m, line, _t: b.call_to(m["player"], line, money(m["to"]), all_in(m)),
            "BETS": lambda m, line, _t: b.bet_to(m["player"], line, money(m["to"]), all_in(m)),
            "RAISES": lambda m, line, _t: b.bet_to(m["player"], line, money(m["to"]), all_in(m)),
            "DRAW_ROUND": lambda m, line, _t: b.start_draw(),
            "BETTING_ROUND": lambda m, line, _t: setattr(b, "in_draw", False),
            "DISCARDS": self.discards,
            "DRAWS": lambda m, line, _t: b.draw(m["player"], int(m["count"]), line),
            "STANDS_PAT": lambda m, line, _t: b.draw(
                m["player"], 0, line, discarded=(), received=()
            ),
            "SHOWS": self.shows,
            "SUMMARY_SEAT": self.summary_seat,
            "RAKE": self.rake_line,
            "WINS": self.wins,
            "WINS_FROM": self.wins,
            "CHAT": lambda m, line, text: b.note("chat", text, line, m["player"]),
        }

    def date(self, m: Match[str], line: int, _text: str) -> None:
        self.time = datetime.strptime(m["time"], "%Y-%m-%d %H:%M:%S")

    def table_line(self, m: Match[str], line: int, _text: str) -> None:
        self.table = m["table"]
        self.button = int(m["button"])

    def ante_post(self, m: Match[str], line: int, _text: str) -> None:
        amount = money(m["amount"])
        self.ante = self.ante or amount
        self.b.post(m["player"], PostKind.ANTE, amount, line, all_in=all_in(m))

    def small_blind_post(self, m: Match[str], line: int, _text: str) -> None:
        amount = money(m["amount"])
        if self.small_blind is None:
            self.small_blind = amount
        self.b.post(m["player"], PostKind.SMALL_BLIND, amount, line, all_in=all_in(m))

    def missed_blinds(self, m: Match[str], line: int, _text: str) -> None:
        live = money(m["amount"])
        dead = live // 2  # the small blind, which KingsClub leaves out of the line
        self.b.post(
            m["player"], PostKind.BOTH_BLINDS, live + dead, line, dead=dead, all_in=all_in(m)
        )

    def dealt(self, m: Match[str], line: int, _text: str) -> None:
        player, shown = m["player"], m["cards"]
        hidden = all(tok in ("X", "x") for tok in shown.split())
        if self.b.draw_no == 0:
            if not hidden:
                self.b.deal(player, cards(shown))
            return
        # Inside a draw a "Dealt to" line can only state the cards the draw gave: record
        # them as written (hidden ones as a count) so the replay judges them.
        if hidden:
            self.b.draw(player, len(shown.split()), line)
        else:
            got = cards(shown)
            self.b.draw(player, len(got), line, received=got)

    def discards(self, m: Match[str], line: int, _text: str) -> None:
        player, thrown = m["player"], cards(m["cards"])
        first = cards(m["drawn"])
        held = self.b.holding.get(player)
        kept = tuple(c for c in held if c not in thrown) if held is not None else None
        if m["drawn2"] is None:
            self.b.draw(player, len(thrown), line, discarded=thrown, kept=kept, received=first)
            if kept is not None:
                self.b.holding[player] = kept + first
            return
        self.runs = True
        self.b.draw(player, len(thrown), line, discarded=thrown, kept=kept, received=first, run=1)
        second = cards(m["drawn2"])
        self.b.draw(player, len(thrown), line, discarded=thrown, kept=kept, received=second, run=2)

    def shows(self, m: Match[str], line: int, _text: str) -> None:
        run = int(m["run"]) if m["run"] else 0
        self.runs = self.runs or run > 0
        self.b.show(m["player"], cards(m["cards"]), line, run=run)

    def summary_seat(self, m: Match[str], line: int, _text: str) -> None:
        net = m["net"]
        if net is not None:
            self.b.net[m["player"]] = -money(net[1:]) if net[0] == "-" else money(net[1:])

    def rake_line(self, m: Match[str], line: int, _text: str) -> None:
        self.rake = money(m["amount"])

    def wins(self, m: Match[str], line: int, _text: str) -> None:
        """"x wins pot (5)" names no pot; "x wins (5) from side pot 1" does (WINS_FROM)."""
        run = int(m["run"]) if m["run"] else 0
        which = m.groupdict().get("pot")
        pot = None if which is None else 0 if which == "pot" else int(m["side"])
        self.b.collect(m["player"], money(m["amount"]), line, pot, run)

    def finish(self, header: Match[str], game: Game) -> Hand:
        structure = _STRUCTURES[header["limit"]]
        a, b = money(header["small"]), money(header["big"])
        if structure is Structure.FIXED:
            stakes = Stakes(self.small_blind or a // 2, a, a, b, self.ante)
        else:
            stakes = Stakes(a, b, b, b, self.ante)
        if self.runs:
            self.b.steps = _run_twice(self.b.steps)
        return self.b.build(
            site=SITE,
            hand_id=header["hand_id"],
            table=self.table,
            game=game,
            structure=structure,
            stakes=stakes,
            currency="USD",
            time=self.time,
            button=self.button,
            file=self.chunk.file,
            line=self.chunk.line,
            rake=self.rake,
        )


def _run_twice(steps: list[Step]) -> list[Step]:
    """Single-run draws of a run-it-twice draw round, as one draw per run.

    A round is run twice when one of its draws shows cards per run, or when no betting
    follows it (everyone was all in before it and the board was run twice).
    """
    last_bet_street = max((s.street for s in steps if hasattr(s, "street")), default=0)
    twice = {s.draw for s in steps if isinstance(s, Draw) and s.run}
    twice |= {s.draw for s in steps if isinstance(s, Draw) and s.draw > last_bet_street}
    out: list[Step] = []
    for s in steps:
        if isinstance(s, Draw) and s.run == 0 and s.draw in twice:
            out.append(replace(s, run=1))
            out.append(replace(s, run=2))
        else:
            out.append(s)
    return out
