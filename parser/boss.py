"""Boss Media (Opoker and other skins) hand histories: XML, read with parser/xmlhand.py.

One ``<HISTORY>`` element per hand, alone in a ``.txt`` file or inside a ``<ROOT>``.
Cards are integers (``<CARD LINK="26"/>``, ``b`` for a hidden card); the ranks follow from
the hand descriptions in the corpus (``n % 13``, 0 the ace: three showdowns agree), the
suits from the open-source tracker that reads these files (0-12 diamonds, 13-25 clubs,
26-38 hearts, 39-51 spades; no corpus hand can confirm a suit).  Bets and calls state
the street total.  ``CHANGECARD`` gives a draw's count and, for the hero, the hand after
it.  Uncalled bets are silently returned: the showdown's POT (after rake) leaves them out.

Reading is tolerant: an element, action type, blind kind or seat state this reader does not
know is an ``UNKNOWN_LINE`` warning at its line and reading goes on; the replay judges the
chips.  Only a known element whose chips or cards do not read, or a hand without a usable
``<HISTORY>`` header or seats, is a ``ParseError``.  Beyond the corpus, the layouts HHSmithy's
BossMediaFastParserImpl reads (from real files): ``GAMEKIND_SITGO`` and ``_TOURNAMENT``,
antes as ``<ACTION TYPE="HAND_ANTE">``, ``WINTYPE`` on results, and seats written without a
``STATE`` (an empty one is then named ``UNKNOWN``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import UTC, datetime

from engine.cards import make_card
from engine.problems import UNKNOWN_LINE
from engine.record import Game, Hand, PostKind, Stakes, Structure, Tournament
from parser.builder import hand_change
from parser.lines import FieldError, money
from parser.outcome import HandText, Skipped
from parser.xmlhand import Element, XmlReading, elements, xml_hands

SITE = "boss"
_GAMES = {"GAME_FCD": Game.FIVE_CARD_DRAW}
_STRUCTURES = {"FL": Structure.FIXED, "PL": Structure.POT, "NL": Structure.NO_LIMIT}
_SUITS = (1, 0, 2, 3)  # Boss suit blocks (diamonds, clubs, hearts, spades) as engine suits
_RANK_OF_BOSS = (12, *range(12))  # Boss rank 0 is the ace; engine rank 12 is the ace


def boss_card(link: str) -> int | None:
    """Boss card number to an engine card; ``None`` for a hidden card (``b``)."""
    if link == "b":
        return None
    n = int(link)
    if not 0 <= n < 52:
        raise FieldError(f"not a Boss card number: {link!r}")
    return make_card(_RANK_OF_BOSS[n % 13], _SUITS[n // 13])


def _starts(line: str, buf: list[str]) -> bool:
    return line.startswith("<HISTORY ")


def _ends(line: str) -> int:
    i = line.find("</HISTORY>")
    return -1 if i < 0 else i + len("</HISTORY>")


_SEAT_STATES = frozenset({"STATE_PLAYING", "STATE_SITOUT"})
_TOURNAMENTS = frozenset({"GAMEKIND_TOURNAMENT", "GAMEKIND_SITGO"})
_KNOWN_ACTIONS = frozenset(
    {"ACTION_FOLD", "ACTION_CHECK", "ACTION_CALL", "ACTION_BET", "ACTION_RAISE", "ACTION_ALLIN"}
)


def _outside(line: str) -> bool:
    return line.startswith("<?xml") or line in ("<ROOT>", "</ROOT>")


class BossReader:
    site = SITE

    def sniff(self, head: str) -> bool:
        return "<HISTORY ID=" in head and "GAMETYPE=" in head

    def split(self, lines: Iterable[tuple[int, str]], file: str) -> Iterator[HandText]:
        return xml_hands(lines, file, SITE, starts=_starts, ends=_ends, skip=_outside)

    def parse(self, chunk: HandText) -> Hand | Skipped:
        return _BossHand(chunk, elements(chunk)).parsed()


class _BossHand(XmlReading):
    def __init__(self, chunk: HandText, els: list[Element]) -> None:
        super().__init__(chunk, els)
        self.names: set[str] = set()
        self.stake = 0  # the STAKES' first amount: a fixed-limit table's small bet
        self.button: int | None = None
        self.total_pot: int | None = None
        self.rake: int | None = None
        self.small_blind: int | None = None

    def _cards_of(self, i: int) -> tuple[list[int | None], int]:
        """The CARD children of element ``i``; returns them and the index after them."""
        parent = self.els[i]
        out: list[int | None] = []
        j = i + 1
        while j < len(self.els) and self.els[j].depth > parent.depth:
            el = self.els[j]
            if el.tag == "CARD":
                out.append(boss_card(el.attrs.get("LINK", "")))
            j += 1
        return out, j

    def read(self) -> Hand | Skipped:
        if not self.els or self.els[0].tag != "HISTORY":
            raise self.fail("not a Boss hand", self.at, "<HISTORY ID=.. GAME=.. ...>")
        h = self.els[0].attrs
        hand_id = h["ID"]
        game = _GAMES.get(h.get("GAME", ""))
        if game is None:
            return Skipped.unsupported_game(
                h.get("GAME"),
                site=SITE,
                file=self.chunk.file,
                line=self.chunk.line,
                hand_id=hand_id,
            )
        structure = _STRUCTURES.get(h.get("LIMIT", ""))
        if structure is None:
            raise self.fail(f"unreadable LIMIT {h.get('LIMIT')!r}", self.at, "FL, PL or NL")
        low, _, high = h.get("STAKES", "").partition("/")
        a, b_ = money(low), money(high)
        self.stake = a
        i = 1
        while i < len(self.els):
            i = self.element(i)
        button, total_pot, rake, small_blind = (
            self.button, self.total_pot, self.rake, self.small_blind
        )
        b = self.b
        if not b.seats:
            raise self.fail("a Boss hand without players", self.els[0], "<PLAYER NAME=.. ../>")
        if structure is Structure.FIXED:
            # FL STAKES are the small and big bet: "2.00/4.00" is blinds 1/2
            stakes = Stakes(small_blind if small_blind is not None else a // 2, a, a, b_)
        else:
            stakes = Stakes(a, b_, b_, b_)
        tournament = None
        currency = h.get("TABLECURRENCY", "")
        if h.get("GAMEKIND") in _TOURNAMENTS:
            tournament = Tournament(h.get("TABLETOURNEYID") or h.get("SESSION", ""))
            currency = "chips"
        when = None
        if h.get("DATE", "").isdigit():
            when = datetime.fromtimestamp(int(h["DATE"]), UTC)
        elif h.get("DATE"):
            b.warn(
                UNKNOWN_LINE, self.chunk.line, f"a DATE this reader does not know: {h['DATE']!r}"
            )
        return b.build(
            site=SITE,
            hand_id=hand_id,
            table=h.get("TABLE", ""),
            game=game,
            structure=structure,
            stakes=stakes,
            currency=currency,
            time=when,
            button=button,
            file=self.chunk.file,
            line=self.chunk.line,
            rake=rake,
            total_pot=total_pot,
            tournament=tournament,
        )

    def element(self, i: int) -> int:
        """Read element ``i`` into the hand; returns the index of the next one to read
        (past the CARD children of the elements that hold cards)."""
        el = self.els[i]
        self.at = el
        a_ = el.attrs
        kind = a_.get("TYPE", "") if el.tag == "ACTION" else ""
        if el.tag == "PLAYER":
            self.seat(el)
        elif kind == "HAND_BLINDS":
            self.blind(el)
        elif kind == "HAND_ANTE":
            self.b.post(self.player(el), PostKind.ANTE, money(a_.get("VALUE")), el.line)
        elif kind == "HAND_DEAL":
            got, after = self._cards_of(i)
            known = tuple(c for c in got if c is not None)
            if len(known) == len(got) and got:
                self.b.deal(self.player(el), known)
            return after
        elif kind == "CHANGECARD":
            return self.change_cards(i)
        elif kind == "HAND_BOARD":
            self.b.start_draw()
        elif kind in _KNOWN_ACTIONS:
            self.action(el, kind)
        elif el.tag == "SHOWDOWN":
            self.total_pot = money(a_["POT"])
            if a_.get("RAKE"):
                self.rake = money(a_["RAKE"])
                self.total_pot += self.rake
        elif el.tag == "RESULT":
            return self.result(i)
        else:
            self.unknown(el)
        return i + 1

    def seat(self, el: Element) -> None:
        a_ = el.attrs
        # older files write no STATE: an empty seat is then the player "UNKNOWN"
        state = a_.get("STATE")
        empty = state == "STATE_EMPTY" or (state is None and a_.get("NAME") == "UNKNOWN")
        if state is not None and not empty and state not in _SEAT_STATES:
            self.unknown(el)  # seated all the same: the replay judges its chips
        if not empty:
            self.b.seat(
                int(a_["SEAT"]),
                a_["NAME"],
                money(a_["AMOUNT"]),
                el.line,
                sitting_out=a_.get("STATE") == "STATE_SITOUT",
            )
            self.names.add(a_["NAME"])
            if a_.get("DEALER") == "Y":
                self.button = int(a_["SEAT"])

    def blind(self, el: Element) -> None:
        b = self.b
        p, value = self.player(el), money(el.attrs["VALUE"])
        blind = el.attrs.get("KIND", "")
        if blind == "HAND_SB":
            self.small_blind = value if self.small_blind is None else self.small_blind
            b.post(p, PostKind.SMALL_BLIND, value, el.line)
        elif blind == "HAND_BB":
            b.post(p, PostKind.BIG_BLIND, value, el.line)
        elif blind == "HAND_AB":
            dead = self.small_blind or self.stake // 2
            b.post(p, PostKind.BOTH_BLINDS, value, el.line, dead=dead)
        elif blind == "HAND_ANTE":
            b.post(p, PostKind.ANTE, value, el.line)
        else:
            self.unknown(el)

    def change_cards(self, i: int) -> int:
        """A draw, with the cards thrown and received where the file shows them all."""
        b = self.b
        el = self.els[i]
        p = self.player(el)
        got, after_cards = self._cards_of(i)
        count = int(el.attrs["COUNT"])
        index = b.draw(
            p,
            count,
            el.line,
            discarded=() if count == 0 else None,
            received=() if count == 0 else None,
        )
        after = tuple(c for c in got if c is not None)
        before = b.holding.get(p)
        if len(after) == len(got) and got and before is not None:
            thrown, kept, new = hand_change(before, after)
            b.fill_draw(index, discarded=thrown, kept=kept, received=new)
            b.holding[p] = after
        return after_cards

    def result(self, i: int) -> int:
        """A player's result: the cards shown or mucked, and what the player won."""
        b = self.b
        el = self.els[i]
        p = self.player(el)
        got, after = self._cards_of(i)
        shown = tuple(c for c in got if c is not None)
        mucked = el.attrs.get("HAND", "") == "$(STR_G_MUCK)"
        if shown:
            b.show(p, shown, el.line, mucked=mucked)
        elif mucked:
            b.muck(p, el.line)
        win = money(el.attrs.get("WIN", "0"))
        if win:
            b.collect(p, win, el.line)
        return after

    def player(self, el: Element) -> str:
        p = el.attrs.get("PLAYER", "")
        if p not in self.names:
            raise self.fail(f"player {p!r} is not seated", el, "a seated player's name")
        return p

    def action(self, el: Element, kind: str) -> None:
        p, b, line = self.player(el), self.b, el.line
        value = money(el.attrs["VALUE"]) if el.attrs.get("VALUE") else 0
        if kind == "ACTION_FOLD":
            b.fold(p, line)
        elif kind == "ACTION_CHECK":
            b.check(p, line)
        elif kind == "ACTION_CALL":
            b.call_to(p, line, value)
        elif kind in ("ACTION_BET", "ACTION_RAISE"):
            b.bet_to(p, line, value)
        else:  # ACTION_ALLIN
            if value <= b.highest:
                b.call_to(p, line, value, all_in=True)
            else:
                b.bet_to(p, line, value, all_in=True)
