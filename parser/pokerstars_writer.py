"""A hand record written back out in PokerStars' words.

Any site's record can be written, so hands from every site can be opened by tools that
read PokerStars files.  What PokerStars has no words for is left out (see
``STARS_CANNOT_SAY``); everything else reads back through ``parser.pokerstars`` into the
same record, which the round-trip tests check on every corpus hand.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Final
from zoneinfo import ZoneInfo

from engine import badugi
from engine.cards import RANK_CHARS, Cards
from engine.money import format_money
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
    Show,
    Structure,
    Uncalled,
)
from engine.rules import house_words
from parser.lines import cards_text
from parser.pokerstars import GRAMMAR, NOTE_KINDS
from parser.times import ZONES

GAME_NAMES: Final = {
    Game.TRIPLE_DRAW_27: "Triple Draw 2-7 Lowball",
    Game.SINGLE_DRAW_27: "Single Draw 2-7 Lowball",
    Game.TRIPLE_DRAW_A5: "Triple Draw A-5 Lowball",
    Game.SINGLE_DRAW_A5: "Single Draw A-5 Lowball",
    Game.FIVE_CARD_DRAW: "5 Card Draw",
    Game.BADUGI: "Badugi",
}
LIMIT_NAMES: Final = {
    Structure.FIXED: "Limit",
    Structure.POT: "Pot Limit",
    Structure.NO_LIMIT: "No Limit",
}
SYMBOLS: Final = {"USD": "$", "CAD": "$", "EUR": "€", "GBP": "£", "INR": "₹"}
_TRIPLE = (Game.TRIPLE_DRAW_27, Game.TRIPLE_DRAW_A5, Game.BADUGI)  # three draws
_MARKERS: Final = {1: "FIRST DRAW", 2: "SECOND DRAW", 3: "THIRD DRAW"}
_ORDINALS: Final = {1: "1st", 2: "2nd", 3: "3rd"}
_ET = ZoneInfo(ZONES["ET"])
_NOTE_LINES = GRAMMAR.classifier(NOTE_KINDS)

STARS_CANNOT_SAY: Final = (
    "other players' hole cards before the showdown (dealt_others)",
    "per-player results (net)",
    "run-it-twice runs",
    "which pot a collect came from when the site did not say (written as 'from pot')",
    "dead parts of posts other than 'small & big blinds'",
    "the wording of notes from other sites (written as PokerStars notes or chat)",
    "the reader's warnings (Hand.warnings): a line it could not place is not written back",
)


def write_pokerstars(hand: Hand) -> str:
    """The hand as a PokerStars hand-history text (lines joined by newlines, no end blank)."""
    return "\n".join(_Writer(hand).lines()) + "\n"


class _Writer:
    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        chips = hand.tournament is not None or hand.currency not in SYMBOLS
        self.symbol = "" if chips else SYMBOLS[hand.currency]
        self.out: list[str] = []
        self.street = 0
        self.draw = 0
        self.in_draw = False
        self.put_in: dict[str, int] = {}
        self.level = 0  # the highest street total so far, for "raises X to Y"
        self.dealt_written = False
        self.showdown_written = False
        self.side_pots = max((c.pot or 0 for c in hand.collects), default=0)

    def money(self, amount: int) -> str:
        return format_money(amount, symbol=self.symbol, thousands=False)

    # ---- the hand
    def lines(self) -> list[str]:
        h = self.hand
        self.out.append(self.header())
        table = f"Table '{h.table}'"
        if h.max_seats is not None:
            table += f" {h.max_seats}-max"
        if h.button is not None:
            table += f" Seat #{h.button} is the button"
        self.out.append(table)
        if h.house is not None:  # DrawLab's lines: PokerStars has no words for a house's rules
            ante = f"; ante {self.money(h.stakes.ante)}" if h.stakes.ante else ""
            self.out.append(f"House rules: {house_words(h.house)}{ante}")
        if h.carried:
            self.out.append(f"Pot carried from the last deal: {self.money(h.carried)}")
        for s in h.seats:
            out = " is sitting out" if s.sitting_out else ""
            self.out.append(f"Seat {s.seat}: {s.player} ({self.money(s.stack)} in chips){out}")
        for step in h.steps:
            if isinstance(step, Post):
                self.post(step)
            elif isinstance(step, Note):
                self.out.append(self.note(step))
            elif isinstance(step, Action):
                self.deal()
                self.action(step)
            elif isinstance(step, Draw):
                self.deal()
                self.draw_step(step)
            elif isinstance(step, Show):
                self.deal()
                if not step.mucked:
                    self.showdown()
                    said = _badugi_words(step.cards) if h.game is Game.BADUGI else ""
                    self.out.append(f"{step.player}: shows [{cards_text(step.cards)}]{said}")
            elif isinstance(step, Muck):
                self.deal()
                self.showdown()
                self.out.append(f"{step.player}: mucks hand")
            elif isinstance(step, Uncalled):
                self.deal()
                self.out.append(
                    f"Uncalled bet ({self.money(step.amount)}) returned to {step.player}"
                )
            elif isinstance(step, Collect):
                self.deal()
                self.out.append(
                    f"{step.player} collected {self.money(step.amount)} from {self.pot(step)}"
                )
        self.deal()
        self.summary()
        return self.out

    def header(self) -> str:
        h = self.hand
        game = f"{GAME_NAMES[h.game]} {LIMIT_NAMES[h.structure]}"
        st = h.stakes
        small, big = (
            (st.small_bet, st.big_bet)
            if h.structure is Structure.FIXED
            else (st.small_blind, st.big_blind)
        )
        when = _time(h.time)
        if h.tournament is None:
            iso = f" {h.currency}" if h.currency in SYMBOLS else ""
            stakes = f"({self.money(small)}/{self.money(big)}{iso})"
            kind = "Home Game Hand" if h.house is not None else "Hand"
            return f"PokerStars {kind} #{h.hand_id}:  {game} {stakes}{when}"
        t = h.tournament
        sym = SYMBOLS.get(t.currency or "", "")
        parts = [p for p in (t.buy_in, t.bounty, t.fee) if p is not None]
        if not parts:
            buyin = ""
        elif t.buy_in == 0 and t.fee == 0 and t.bounty is None and t.currency is None:
            buyin = "Freeroll "
        else:
            buyin = "+".join(format_money(p, symbol=sym, thousands=False) for p in parts)
            buyin += f" {t.currency} " if t.currency else " "
        level = ""
        if t.level is not None:
            level = t.level if "Level " in t.level else f"Level {t.level}"
            level += " "
        stakes = f"({format_money(small, thousands=False)}/{format_money(big, thousands=False)})"
        return (
            f"PokerStars Hand #{h.hand_id}: Tournament #{t.tournament_id}, {buyin}"
            f"{game} - {level}{stakes}{when}"
        )

    # ---- steps
    def post(self, p: Post) -> None:
        words = {
            PostKind.SMALL_BLIND: "posts small blind",
            PostKind.BIG_BLIND: "posts big blind",
            PostKind.BOTH_BLINDS: "posts small & big blinds",
            PostKind.ANTE: "posts the ante",
            PostKind.EXTRA: "posts straddle",
        }[p.kind]
        self.out.append(f"{p.player}: {words} {self.money(p.amount)}{_all_in(p.all_in)}")
        if p.kind is not PostKind.ANTE:
            total = self.put_in.get(p.player, 0) + p.amount - p.dead
            self.put_in[p.player] = total
            self.level = max(self.level, total)

    def deal(self) -> None:
        if self.dealt_written:
            return
        self.dealt_written = True
        self.out.append("*** DEALING HANDS ***")
        if self.hand.hero is not None and self.hand.dealt is not None:
            self.out.append(f"Dealt to {self.hand.hero} [{cards_text(self.hand.dealt)}]")
        for player, card in self.hand.up_cards:
            self.out.append(f"Dealt face up to {player} [{cards_text((card,))}]")

    def showdown(self) -> None:
        if not self.showdown_written:
            self.showdown_written = True
            self.out.append("*** SHOW DOWN ***")

    # The reader numbers streets and draws from the order of lines: a draw line opens the
    # next draw, an action after draws opens the betting round that follows, and a marker
    # line names its draw.  The writer keeps the same state and writes a marker where the
    # order alone would not give the record's numbers (and always for triple draw, where
    # PokerStars writes them).
    def marker(self, draw: int) -> None:
        name = _MARKERS.get(draw, "DRAW") if self.hand.game in _TRIPLE else "DRAW"
        self.out.append(f"*** {name} ***")
        self.draw = draw
        self.in_draw = True

    def action(self, a: Action) -> None:
        reader_street = self.draw if self.in_draw else self.street
        if a.street != reader_street:
            self.marker(a.street)
        if self.in_draw:
            self.in_draw = False
            self.street = self.draw
            self.put_in = {}
            self.level = 0
        before = self.put_in.get(a.player, 0)
        if a.kind is ActionKind.FOLD:
            text = "folds"
        elif a.kind is ActionKind.CHECK:
            text = "checks"
        elif a.kind is ActionKind.CALL:
            text = f"calls {self.money(a.amount)}"
        elif a.kind is ActionKind.BET:
            text = f"bets {self.money(a.amount)}"
        else:
            to = a.to if a.to is not None else before + a.amount
            text = f"raises {self.money(max(to - self.level, 0))} to {self.money(to)}"
        if a.kind in (ActionKind.CALL, ActionKind.BET, ActionKind.RAISE):
            self.put_in[a.player] = before + a.amount
            self.level = max(self.level, before + a.amount)
        self.out.append(f"{a.player}: {text}{_all_in(a.all_in)}")

    def draw_step(self, d: Draw) -> None:
        if self.in_draw:
            if d.draw != self.draw:
                self.marker(d.draw)
        elif self.hand.game in _TRIPLE or d.draw != self.street + 1:
            self.marker(d.draw)
        else:
            self.draw = d.draw
            self.in_draw = True
        if d.count == 0:
            on = f" on [{cards_text(d.kept)}]" if d.kept is not None else ""
            self.out.append(f"{d.player}: stands pat{on}")
            return
        cards = f" [{cards_text(d.discarded)}]" if d.discarded is not None else ""
        plural = "card" if d.count == 1 else "cards"
        self.out.append(f"{d.player}: discards {d.count} {plural}{cards}")
        if d.received is not None:
            kept = f"[{cards_text(d.kept)}] " if d.kept is not None else ""
            self.out.append(f"Dealt to {d.player} {kept}[{cards_text(d.received)}]")
        if d.shown is not None:
            self.out.append(f"{d.player}: shows [{cards_text(d.shown)}] to draw")

    def pot(self, c: Collect) -> str:
        if not c.pot:
            return "main pot" if self.side_pots else "pot"
        return "side pot" if self.side_pots == 1 else f"side pot-{c.pot}"

    def note(self, n: Note) -> str:
        found = _NOTE_LINES(n.text)
        kind, _ = found if found is not None else ("", None)
        if NOTE_KINDS.get(kind) == n.kind:  # the note's own line, written back as it was
            return n.text
        player = n.player or "Dealer"
        simple = {
            "leave": f"{player} leaves the table",
            "sit_out": f"{player}: sits out",
            "sitting_out": f"{player}: is sitting out",
            "timed_out": f"{player} has timed out",
            "disconnected": f"{player} is disconnected",
            "connected": f"{player} is connected",
            "returned": f"{player} has returned",
        }
        if n.kind in simple and n.player is not None:
            return simple[n.kind]
        if n.kind == "reshuffle":  # any site's: the replay needs it where it stands
            return "The deck is reshuffled"
        said = n.text.replace("\n", " ")
        return f'{player} said, "{said}"'

    # ---- summary
    def summary(self) -> None:
        h = self.hand
        self.out.append("*** SUMMARY ***")
        if h.total_pot is not None:
            rake = f" | Rake {self.money(h.rake)}" if h.rake is not None else ""
            self.out.append(f"Total pot {self.money(h.total_pot)}{rake}")
        mucked = {s.player: s.cards for s in h.shows if s.mucked}
        shown = {s.player: s.cards for s in h.shows if not s.mucked}
        won: dict[str, int] = {}
        for c in h.collects:
            won[c.player] = won.get(c.player, 0) + c.amount
        folded = {a.player: a.street for a in h.actions if a.kind is ActionKind.FOLD}
        for s in h.seats:
            roles = " (button)" if s.seat == h.button else ""
            outcome = self.outcome(s.player, mucked, shown, won, folded)
            self.out.append(f"Seat {s.seat}: {s.player}{roles} {outcome}")
        # A mucked show of someone without a seat line still has to be said.
        seated = {s.player for s in h.seats}
        for player, cards in mucked.items():
            if player not in seated:
                self.out.append(f"Seat 0: {player} mucked [{cards_text(cards)}]")

    def outcome(
        self,
        player: str,
        mucked: dict[str, Cards],
        shown: dict[str, Cards],
        won: dict[str, int],
        folded: dict[str, int],
    ) -> str:
        if player in mucked:
            return f"mucked [{cards_text(mucked[player])}]"
        if player in shown:
            result = f"won ({self.money(won[player])})" if player in won else "lost"
            return f"showed [{cards_text(shown[player])}] and {result}"
        if player in won:
            return f"collected ({self.money(won[player])})"
        if player in folded:
            street = folded[player]
            if street == 0:
                return "folded before the Draw"
            if self.hand.game in _TRIPLE:
                return f"folded after the {_ORDINALS.get(street, '3rd')} Draw"
            return "folded after the Draw"
        return "mucked"


def _badugi_words(cards: Cards) -> str:
    """PokerStars' words for a shown badugi, " (Badugi: 8,6,3,2)", highest card first, the
    ace as A.  Smaller hands get none: we have no PokerStars history showing its words for
    them, and the reader takes a show with or without words."""
    if len(cards) != badugi.HAND_SIZE or len(set(cards)) != badugi.HAND_SIZE:
        return ""
    played = badugi.playing_cards(cards)
    if len(played) != badugi.HAND_SIZE:
        return ""
    return " (Badugi: " + ",".join(RANK_CHARS[c >> 2] for c in played) + ")"


def _all_in(flag: bool) -> str:
    return " and is all-in" if flag else ""


def _time(when: datetime | None) -> str:
    if when is None:
        return ""
    if when.tzinfo is None:
        return f" - {_clock(when)}"
    utc = when.astimezone(UTC)
    return f" - {_clock(utc)} UTC [{_clock(utc.astimezone(_ET))} ET]"


def _clock(t: datetime) -> str:
    return f"{t:%Y/%m/%d} {t.hour}:{t:%M:%S}"


def write_all(hands: Iterable[Hand]) -> str:
    """Several hands as one PokerStars file: hands apart by blank lines, as the client does."""
    return "\n\n".join(write_pokerstars(h) for h in hands)
