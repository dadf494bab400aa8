"""Step-by-step assembly of a ``Hand`` while a site's lines stream past.

Sites state bets differently: some give the chips a call adds, some the total a raise
reaches, some only an "all in" with the chips pushed.  The record wants both the chips an
action adds and the street total where the site states one, so the builder keeps each
player's chips in the current betting round (posts count) - bookkeeping only: it never
judges whether an action was legal, that is the replay's job.

Draws may be completed by a later line (Full Tilt writes the hero's new cards after the
other players' discards), so a draw is recorded where its first line stands and filled
in place afterwards.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from engine.cards import Cards
from engine.problems import UNKNOWN_LINE
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
from engine.verdict import Problem, Severity
from parser.outcome import HandText, ParseError


def hand_change(before: Cards, after: Cards) -> tuple[Cards, Cards, Cards]:
    """(discarded, kept, received) between a hand and the hand after a draw, in card order."""
    after_set = set(after)
    before_set = set(before)
    discarded = tuple(c for c in before if c not in after_set)
    kept = tuple(c for c in before if c in after_set)
    received = tuple(c for c in after if c not in before_set)
    return discarded, kept, received


def draw_with(
    step: Draw,
    *,
    kept: Cards | None,
    received: Cards | None,
    shown: Cards | None,
    discarded: Cards | None,
) -> Draw:
    """The draw with the cards a later line states (the readers' one way to fill a draw in
    place): its own constructor, which costs a fraction of ``dataclasses.replace`` (that one
    reads every field by name first)."""
    return Draw(
        step.player,
        step.draw,
        step.count,
        step.line,
        discarded=discarded,
        kept=kept,
        received=received,
        run=step.run,
        shown=shown,
    )


class HandBuilder:
    """Collects one hand's seats and steps in order; ``build`` freezes them into a ``Hand``."""

    def __init__(self) -> None:
        self.seats: list[Seat] = []
        self.steps: list[Step] = []
        self.street = 0
        self.draw_no = 0
        self.in_draw = False
        self.put: dict[str, int] = {}  # chips each player has in the current betting round
        self.highest = 0
        self.hero: str | None = None
        self.dealt: Cards | None = None
        self.holding: dict[str, Cards] = {}  # known current cards, to tell kept from received
        self.net: dict[str, int] = {}
        self.warnings: list[Problem] = []

    # --- what reading noticed ------------------------------------------------------------
    def warn(self, code: str, line: int, message: str) -> None:
        """A positioned warning that travels with the record into the hand's verdict."""
        self.warnings.append(Problem(code, Severity.WARNING, line, message))

    def unknown_line(self, line: int, text: str) -> None:
        """A line the reader cannot place: kept as a warning, never the end of the hand."""
        self.warn(UNKNOWN_LINE, line, f"a line this reader does not know: {text[:200]}")

    # --- seats ---------------------------------------------------------------------------
    def seat(
        self, seat: int, player: str, stack: int, line: int, sitting_out: bool = False
    ) -> None:
        self.seats.append(Seat(seat, player, stack, line, sitting_out))

    def mark_sitting_out(self, player: str) -> None:
        self.seats = [replace(s, sitting_out=True) if s.player == player else s for s in self.seats]

    def deal(self, player: str, cards: Cards) -> None:
        """Known hole cards of ``player`` before the first draw (the hero's, usually)."""
        if self.hero is None or self.hero == player:
            self.hero = player
            self.dealt = cards
        self.holding[player] = cards

    # --- money put in --------------------------------------------------------------------
    def _add(self, player: str, chips: int) -> int:
        total = self.put.get(player, 0) + chips
        self.put[player] = total
        self.highest = max(self.highest, total)
        return total

    def post(
        self,
        player: str,
        kind: PostKind,
        amount: int,
        line: int,
        dead: int = 0,
        all_in: bool = False,
    ) -> None:
        if kind is not PostKind.ANTE:
            self._add(player, amount - dead)
        self.steps.append(Post(player, kind, amount, line, dead=dead, all_in=all_in))

    def _action(self, action: Action) -> None:
        self.in_draw = False
        self.steps.append(action)

    def fold(self, player: str, line: int) -> None:
        self._action(Action(player, self.street, ActionKind.FOLD, line))

    def check(self, player: str, line: int) -> None:
        self._action(Action(player, self.street, ActionKind.CHECK, line))

    def call(self, player: str, line: int, amount: int, all_in: bool = False) -> None:
        """A call stated as the chips it adds."""
        self._add(player, amount)
        self._action(
            Action(
                player,
                self.street,
                ActionKind.CALL,
                line,
                amount=amount,
                all_in=all_in,
            )
        )

    def call_to(self, player: str, line: int, to: int, all_in: bool = False) -> None:
        """A call stated as the player's street total."""
        self.call(player, line, to - self.put.get(player, 0), all_in)

    def bet_to(
        self, player: str, line: int, to: int, all_in: bool = False, kind: ActionKind | None = None
    ) -> None:
        """A bet or raise stated as the street total it reaches ("raises to $3,000")."""
        if kind is None:
            kind = ActionKind.RAISE if self.highest > 0 else ActionKind.BET
        amount = to - self.put.get(player, 0)
        self._add(player, amount)
        self._action(Action(player, self.street, kind, line, amount=amount, to=to, all_in=all_in))

    def bet_adding(
        self,
        player: str,
        line: int,
        amount: int,
        all_in: bool = False,
        kind: ActionKind | None = None,
    ) -> None:
        """A bet or raise stated as the chips it adds."""
        self.bet_to(player, line, self.put.get(player, 0) + amount, all_in, kind)

    def push(self, player: str, line: int, amount: int) -> None:
        """An all-in stated only by the chips it adds: a call, bet or raise by the totals."""
        before = self.put.get(player, 0)
        if before + amount <= self.highest:
            self.call(player, line, amount, all_in=True)
        else:
            self.bet_adding(player, line, amount, all_in=True)

    # --- draws ---------------------------------------------------------------------------
    def start_draw(self) -> None:
        self.draw_no += 1
        self.street = self.draw_no
        self.in_draw = True
        self.put = {}
        self.highest = 0

    def draw(
        self,
        player: str,
        count: int,
        line: int,
        *,
        discarded: Cards | None = None,
        kept: Cards | None = None,
        received: Cards | None = None,
        run: int = 0,
    ) -> int:
        """Record a draw (opening the draw round if no marker did); returns its step index."""
        if not self.in_draw:
            self.start_draw()
        draw = Draw(
            player,
            self.draw_no,
            count,
            line,
            discarded=discarded,
            kept=kept,
            received=received,
            run=run,
        )
        self.steps.append(draw)
        return len(self.steps) - 1

    def fill_draw(
        self,
        index: int,
        *,
        kept: Cards | None,
        received: Cards | None,
        discarded: Cards | None = None,
    ) -> None:
        """Step ``index``'s draw with the cards a later line states; ``discarded`` only
        where the line says which cards went (else the draw's own stay)."""
        step = self.steps[index]
        assert isinstance(step, Draw)
        thrown = step.discarded if discarded is None else discarded
        self.steps[index] = draw_with(
            step, kept=kept, received=received, shown=step.shown, discarded=thrown
        )

    def last_draw_of(self, player: str) -> int | None:
        for i in range(len(self.steps) - 1, -1, -1):
            s = self.steps[i]
            if isinstance(s, Draw) and s.player == player and s.draw == self.draw_no:
                return i
        return None

    def draw_needed(
        self, player: str, message: str, *, chunk: HandText, line: int, text: str, expected: str
    ) -> int:
        """The step index of ``player``'s draw this round, for the cards shown after it;
        cards shown with no draw before them are text out of order: a positioned error."""
        index = self.last_draw_of(player)
        if index is None:
            raise ParseError(
                message,
                file=chunk.file,
                line=line,
                line_text=text,
                expected=expected,
            )
        return index

    # --- the end -------------------------------------------------------------------------
    def show(
        self, player: str, cards: Cards, line: int, mucked: bool = False, run: int = 0
    ) -> None:
        self.steps.append(Show(player, cards, line, mucked, run))

    def muck(self, player: str, line: int) -> None:
        self.steps.append(Muck(player, line))

    def uncalled(self, player: str, amount: int, line: int) -> None:
        self.steps.append(Uncalled(player, amount, line))

    def collect(
        self, player: str, amount: int, line: int, pot: int | None = None, run: int = 0
    ) -> None:
        self.steps.append(Collect(player, amount, line, pot, run))

    def note(
        self,
        kind: str,
        text: str,
        line: int,
        player: str | None = None,
        amount: int | None = None,
    ) -> None:
        self.steps.append(Note(kind, text, line, player, amount))

    def build(
        self,
        *,
        site: str,
        hand_id: str,
        table: str,
        game: Game,
        structure: Structure,
        stakes: Stakes,
        currency: str,
        time: datetime | None,
        button: int | None,
        file: str,
        line: int,
        max_seats: int | None = None,
        rake: int | None = None,
        total_pot: int | None = None,
        tournament: Tournament | None = None,
    ) -> Hand:
        return Hand(
            site=site,
            hand_id=hand_id,
            table=table,
            game=game,
            structure=structure,
            stakes=stakes,
            currency=currency,
            time=time,
            button=button,
            seats=tuple(self.seats),
            steps=tuple(self.steps),
            file=file,
            line=line,
            hero=self.hero,
            dealt=self.dealt,
            max_seats=max_seats,
            rake=rake,
            total_pot=total_pot,
            tournament=tournament,
            net=tuple(self.net.items()),
            warnings=tuple(self.warnings),
        )
