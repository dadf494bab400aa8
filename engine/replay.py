"""Re-run a recorded hand under the rules, step by step, and say what could not have happened.

The record is fed to the state machine (``engine.state``) in the order the site wrote it.
Each step is first checked (whose turn, what is allowed, what size), then performed as the
site wrote it, so one bad step is reported where it happens and the rest of the hand is
still checked against the chips that really moved.  Cards go through a tracker
(``engine.cardtrack``), money at the end through ``engine.settle``.  Nothing is repaired.

``replay`` is the one entry point: the verdict, the final stacks and the settled pots of
every hand, and on request the table after every step for the dashboard's replayer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import attrgetter

from engine.cards import Cards, format_cards
from engine.cardtrack import CardTracker
from engine.hand_value import high_value, low_value
from engine.money import format_money as money
from engine.pots import Pot, SettledPot, side_pots
from engine.problems import (
    BAD_BUTTON,
    BAD_DRAW,
    CARRIED_POT_MISMATCH,
    DECK_EXHAUSTED,
    ILLEGAL_ACTION,
    MISSING_ACTION,
    REPLAY_FAILED,
    RUN_IT_TWICE,
    SHOWDOWN_ORDER,
    UNKNOWN_PLAYER,
    UP_CARD_MISMATCH,
    Finding,
)
from engine.profiles import SiteProfile, chip_unit, profile_for
from engine.record import (
    MISDEAL_NOTE,
    Action,
    ActionKind,
    Collect,
    Draw,
    Hand,
    Muck,
    Note,
    Post,
    PostKind,
    Show,
    Uncalled,
)
from engine.rules import GameRules, Opener, can_open, rules_of
from engine.settle import Reported, Table, settle
from engine.state import HandState, Phase
from engine.verdict import Problem, Severity, Verdict

# Enum members read once (a class attribute lookup costs some 45 ns at each use in 3.11).
_DEAL, _BETTING, _DRAW = Phase.DEAL, Phase.BETTING, Phase.DRAW
_SHOWDOWN, _DEAD = Phase.SHOWDOWN, Phase.DEAD
_UNDECIDED = (_DEAL, _BETTING, _DRAW)  # phases the hand can still move on from
_EVERY = 1 << 30  # ``_move_on``: every round and every draw still open
_BET = ActionKind.BET
_SMALL_BLIND = PostKind.SMALL_BLIND


@dataclass(frozen=True, slots=True)
class SeatView:
    """One player's place at the table after a step."""

    seat: int
    player: str
    stack: int
    bet: int  # chips in front of the player in this betting round
    total: int  # chips put in this hand
    folded: bool
    all_in: bool
    cards: Cards | None  # the hand as far as the history shows it
    drawn: tuple[int, ...]  # cards drawn in each draw so far
    up: int | None = None  # shotgun: the first card, dealt face up and seen by all


@dataclass(frozen=True, slots=True)
class TableState:
    """The table after step ``step`` (``-1``: after the forced bets, before the first step).

    ``street`` is the betting round (0 before the first draw) and ``draw`` the last draw
    begun (0 before any); ``pots`` are the main and side pots of the chips in so far.
    """

    step: int
    line: int
    street: int
    draw: int
    phase: str
    to_act: str | None
    pot: int
    pots: tuple[Pot, ...]
    current_bet: int
    seats: tuple[SeatView, ...]
    text: str
    problems: tuple[Problem, ...]


@dataclass(frozen=True, slots=True)
class Replay:
    """What replaying a hand found: the verdict, each seated player's stack at the end of
    the hand as the history has the chips move (what they collected, the uncalled bets
    they got back), the pots as settled (main pot first, before rake, with their winners
    by the cards shown) and, when asked for, the table after each step.

    A replay that failed has the problems found up to the failure and ``REPLAY_FAILED``,
    no final stacks and no pots (nothing to carry to the table's next hand), and its
    views stop at the step where it failed.
    """

    hand: Hand
    verdict: Verdict
    final: dict[str, int]
    pots: tuple[SettledPot, ...]
    states: tuple[TableState, ...] = ()


def replay(hand: Hand, *, views: bool = False) -> Replay:
    """Replay ``hand`` under the rules: the one way in, for the command line, the importer,
    the continuity checks, the dashboard and the tests.

    ``views`` also keeps the table after every step (the dashboard's replayer), taken by an
    observer of this same run (``TableViews``).  Never raises: this is the one place where
    a failure of the engine on an odd record becomes a verdict, so that one hand never
    stops a file.  A failure is never retried another way: it is the verdict
    (``REPLAY_FAILED``, naming the exception), so that the tests see it.
    """
    watcher = TableViews() if views else None
    r = _Replayer(hand, watcher)
    try:
        verdict = r.run()
        final = r.final_stacks()
    except Exception as exc:  # reported on the hand, never raised
        return _failed(hand, r.problems, exc, tuple(watcher.states) if watcher else ())
    return Replay(hand, verdict, final, r.pots, tuple(watcher.states) if watcher else ())


def _failed(
    hand: Hand, found: Sequence[Problem], exc: Exception, states: tuple[TableState, ...]
) -> Replay:
    """The replay of a hand the engine failed on: the problems found before the failure,
    then ``REPLAY_FAILED`` naming the exception; no final stacks and no pots."""
    message = f"the replay failed on this hand ({type(exc).__name__}: {exc})"
    failed = Problem(REPLAY_FAILED, Severity.ERROR, hand.line, message)
    return Replay(hand, Verdict((*found, failed)), {}, (), states)


def _has_notes(hand: Hand) -> bool:
    # the records' step types are final: a note is a ``Note``, never of a subclass
    return Note in set(map(type, hand.steps))


def _involved(hand: Hand, notes: bool) -> set[str]:
    """Players dealt in: those with a step, or whose cards were dealt (``notes``: the hand
    has a note among its steps)."""
    steps = hand.steps
    if notes:
        names = {s.player for s in steps if not isinstance(s, Note)}
    else:  # no note, whose player may be anyone's name: every step's player, read in C
        names = set(map(_PLAYER, steps))
    if hand.hero is not None and hand.dealt is not None:
        names.add(hand.hero)
    if hand.dealt_others:
        names.update(p for p, _ in hand.dealt_others)
    return names


def _small_blind(hand: Hand) -> str | None:
    """Who posted the first small blind: it fixes the positions when the button is unknown."""
    return next(
        (s.player for s in hand.steps if isinstance(s, Post) and s.kind is _SMALL_BLIND), None
    )


_SITS_OUT = ("sitting_out", "sit_out")  # the readers' note kinds


def _sitting_out(hand: Hand, notes: bool) -> frozenset[str]:
    """The players the history says sit out: on their seat line, or on a line of its own
    (a note, looked for when the hand has one)."""
    names = {s.player for s in hand.seats if s.sitting_out}
    for step in hand.steps if notes else ():
        if isinstance(step, Note) and step.kind in _SITS_OUT and step.player:
            names.add(step.player)
    return frozenset(names)


# the fields of steps and seats the replay reads for every hand, read in C
_PLAYER = attrgetter("player")
_SEAT = attrgetter("seat", "player", "stack")
_SEAT_NUMBER = attrgetter("seat")
_PLAYER_STACK = attrgetter("player", "stack")


class _Replayer:
    __slots__ = (
        "_fork",
        "ace_rule",
        "cards",
        "collects",
        "drawn",
        "forfeited",
        "hand",
        "hand_size",
        "jacks",
        "low_strengths",
        "misdealt",
        "pots",
        "problems",
        "profile",
        "returned_in_collect",
        "rules",
        "run_cards",
        "shown_order",
        "state",
        "strengths",
        "uncalled",
        "unknown",
        "up_cards",
        "watcher",
    )

    def __init__(self, hand: Hand, watcher: TableViews | None) -> None:
        self.hand = hand
        self.watcher = watcher
        self.problems: list[Problem] = list(hand.warnings)  # the reader's, first
        self.pots: tuple[SettledPot, ...] = ()

    def _prepare(self) -> None:
        """The table, the card tracker and the rules of the hand."""
        hand = self.hand
        self.profile: SiteProfile = profile_for(hand.site)
        self.rules: GameRules = rules_of(hand, self.profile.home_rules)
        # the rules' numbers the steps read, looked up once per hand
        self.hand_size = self.rules.hand_size
        self.jacks = self.rules.opener is Opener.JACKS
        self.ace_rule = self.rules.max_discard_with_ace is not None
        notes = _has_notes(hand)
        involved = _involved(hand, notes)
        seats = [seat for seat in map(_SEAT, hand.seats) if seat[1] in involved]
        self.unknown = involved.difference(map(_PLAYER, hand.seats))
        self.state = HandState(
            self.rules,
            hand.stakes,
            seats,
            hand.button,
            cap_heads_up=self.profile.cap_heads_up,
            casino_short_all_ins=self.profile.casino_short_all_ins,
            small_blind_player=_small_blind(hand) if hand.button is None else None,
            carried=hand.carried,
            sitting_out=_sitting_out(hand, notes),
        )
        self.cards = CardTracker(self.rules.deck_size)
        self.run_cards: dict[int, CardTracker] = {}
        self._fork = self.cards
        self.strengths: dict[int, dict[str, int]] = {}
        # high-low: the low values of the hands shown, run -> player -> rank
        self.low_strengths: dict[int, dict[str, int]] | None = (
            {} if self.rules.low is not None else None
        )
        self.up_cards = dict(hand.up_cards)
        self.misdealt = False
        self.uncalled: list[Uncalled] = []
        self.collects: list[Collect] = []
        self.shown_order: list[tuple[str, int]] = []
        self.forfeited: set[str] = set()
        self.returned_in_collect: dict[str, int] = {}

    # ------------------------------------------------------------------ driver

    def run(self) -> Verdict:
        """Each step checked, then applied as the site wrote it; then the pots settled."""
        self._prepare()
        hand = self.hand
        watcher = self.watcher
        if watcher is not None:
            watcher.begin(self)
        button = hand.button
        if button is not None and hand.seats and button not in map(_SEAT_NUMBER, hand.seats):
            self._report(
                Finding(
                    BAD_BUTTON,
                    f"the button is on seat {button}, where nobody sits",
                    Severity.WARNING,
                ),
                hand.line,
            )
        if hand.carried and not self.rules.carry_antes:
            text = f"{money(hand.carried)} is carried into the pot of a game that carries none"
            self._report(Finding(CARRIED_POT_MISMATCH, text), hand.line)
        self._deal_known_cards()
        if watcher is not None:
            watcher.stepped(self, -1, hand.line, "the forced bets are posted")
        handlers = _HANDLERS
        unknown = self.unknown
        # the step's own method, found by its type; a step of a player who is not seated
        # (or of a type the table does not know) goes to ``_step``, which reports it
        for index, step in enumerate(hand.steps):
            handler = handlers.get(type(step))
            if handler is None or (unknown and step.player in unknown):
                self._step(step)
            else:
                handler(self, step)
            if watcher is not None:
                watcher.stepped(self, index, step.line, _describe(self, step))
        if self.collects:
            end_line = self.collects[0].line
        else:
            end_line = max(hand.line, max([s.line for s in hand.steps], default=hand.line))
        self._finish(end_line)
        self._settle(end_line)
        if watcher is not None and watcher.found(self):
            watcher.stepped(self, len(hand.steps), end_line, "the pots are settled")
        return Verdict(tuple(self.problems))

    def _report(self, finding: Finding, line: int) -> None:
        problem = finding.at(line)
        if problem in self.problems:
            return  # the same finding from each run of a run-it-twice hand
        self.problems.append(problem)

    def _report_all(self, findings: list[Finding], line: int) -> None:
        for f in findings:
            self._report(f, line)

    def _deal_known_cards(self) -> None:
        hand = self.hand
        size = self.hand_size
        dealt_in = self.state.seat_of  # the players dealt in (``drawn`` is kept for views only)
        if hand.hero is not None and hand.dealt is not None and hand.hero in dealt_in:
            self._report_all(self.cards.deal(hand.hero, hand.dealt, size), hand.line)
        for player, cards in hand.dealt_others:
            if player in dealt_in:
                self._report_all(self.cards.deal(player, cards, size), hand.line)
        if (self.rules.shotgun or hand.up_cards) and not any(
            isinstance(s, Note) and s.kind == MISDEAL_NOTE for s in hand.steps
        ):
            self._deal_up_cards()  # a misdeal voids the deal: no card of it is anyone's

    def _deal_up_cards(self) -> None:
        """Shotgun: every player dealt in has a first card face up, known to all, so it is
        a card seen (no one else can hold it) and a card of the player's hand."""
        hand = self.hand
        line = hand.line
        if not self.rules.shotgun:
            text = "face-up cards are written in a game that deals none (no shotgun)"
            self._report(Finding(UP_CARD_MISMATCH, text), line)
            return
        for player in self.state.order:
            card = self.up_cards.get(player)
            if card is None:
                text = f"{player}'s face-up first card is not written (shotgun)"
                self._report(Finding(UP_CARD_MISMATCH, text), line)
                continue
            held = self.cards.hands.get(player)
            if held is not None:
                if card not in held:
                    text = (
                        f"{player}'s face-up card {format_cards((card,))} is not in the hand "
                        f"dealt to them ({format_cards(held)})"
                    )
                    self._report(Finding(UP_CARD_MISMATCH, text), line)
                continue
            self._report_all(self.cards.claim_up(player, card), line)
        for player in self.up_cards:
            if player not in self.state.seat_of:
                text = f"a face-up card is written for {player}, who is not dealt in"
                self._report(Finding(UP_CARD_MISMATCH, text), line)

    def _step(self, step: object) -> None:
        if isinstance(step, Note):
            self._note(step)
            return
        assert isinstance(step, Post | Action | Draw | Show | Muck | Uncalled | Collect)
        if step.player in self.unknown:
            self._report(
                Finding(UNKNOWN_PLAYER, f"{step.player} is not seated at this table"), step.line
            )
            return
        _HANDLERS[type(step)](self, step)

    # ------------------------------------------------------------------ steps

    def _note(self, note: Note) -> None:
        if note.kind == "reshuffle":
            if self.rules.no_replacement and self.state.reshuffles:
                text = "the discards are shuffled a second time; the house deals no replacement"
                self._report(Finding(DECK_EXHAUSTED, text), note.line)
            self.state.state_reshuffle()
        elif note.kind == MISDEAL_NOTE:
            if not self.rules.carry_antes:
                text = "a misdeal in a game that does not carry the antes to a new deal"
                self._report(Finding(ILLEGAL_ACTION, text), note.line)
            self._report_all(self.state.misdeal(), note.line)
            self.misdealt = True
        elif (
            "summary" in note.kind
            and note.player
            and all(s.player != note.player for s in self.hand.seats)
        ):
            # a summary line naming a seat and a player the hand never had (a reader
            # keeps such a corrupt line as a note of kind "..summary..")
            text = f"the summary names {note.player}, who is not seated at this table"
            self._report(Finding(UNKNOWN_PLAYER, text), note.line)

    def _muck(self, muck: Muck) -> None:
        self._reach_end(muck.line)
        self.forfeited.add(muck.player)

    def _uncalled(self, uncalled: Uncalled) -> None:
        self.uncalled.append(uncalled)

    def _collect(self, collect: Collect) -> None:
        self._reach_end(collect.line)
        self.collects.append(collect)

    def _post(self, post: Post) -> None:
        amount, dead = post.amount, post.dead
        st = self.state
        if st.phase is not _DEAL:
            self._report(
                Finding(ILLEGAL_ACTION, f"{post.player} posts after the cards were dealt"),
                post.line,
            )
        findings = st.check_post(post.player, post.kind, amount, dead)
        if findings:
            self._report_all(findings, post.line)
        st.apply_post(post.player, post.kind, amount, dead)

    def _action(self, action: Action) -> None:
        """One check (``HandState.check_action``, and the opener's cards where jacks open),
        then the action applied as the site wrote it."""
        st = self.state
        if st.phase is not _BETTING or st.street < action.street:
            self._reach_betting(action.street, action.line)
        player, kind, amount = action.player, action.kind, action.amount
        if self.watcher is not None:
            self.watcher.completes = st.completes(player, kind, amount)
        findings = st.check_action(player, kind, amount, action.to, action.all_in)
        if self.jacks and kind is _BET and st.street == 0 and st.current_bet == 0:
            held = self.cards.hand(player)
            opens = (
                held is None
                or len(held) != self.hand_size
                or max(held) >= self.rules.deck_size  # reported as a card of no deck
                or can_open(held, self.rules.wild)
            )
            if not opens:
                text = f"{player} opens without jacks or better"
                findings.append(Finding(ILLEGAL_ACTION, text))
        if findings:
            self._report_all(findings, action.line)
        st.apply_action(player, kind, amount)

    def _draw(self, draw: Draw) -> None:
        st = self.state
        player = draw.player
        run = draw.run
        if run >= 1 and not self.profile.run_it_twice:
            self._report(
                Finding(RUN_IT_TWICE, f"{player} draws for a second run at {self.hand.site}"),
                draw.line,
            )
        kept = draw.kept
        if run <= 1:
            if st.phase is not _DRAW or st.draw_number != draw.draw:
                self._reach_draw(draw.draw, draw.line)
            shown = draw.shown
            before = st.reshuffles
            shows_ace = self.ace_rule and (
                (kept is not None and any(c >> 2 == 12 for c in kept))
                or (shown is not None and any(c >> 2 == 12 for c in shown))
            )
            if shown is not None:
                self._check_shown(draw, shown)
            found = st.check_draw(player, draw.count, shows_ace)
            if found:
                self._report_all(found, draw.line)
            st.apply_draw(player, draw.count)
            after = st.reshuffles
        else:
            before = after = st.reshuffles
        discarded, received = draw.discarded, draw.received
        if discarded is None and kept is None and received is None:
            if draw.count:  # cards unseen in, unseen out: what the player holds is unknown
                if self.cards.hands.get(player) is not None:
                    self.cards.hands[player] = None
                for tracker in self.run_cards.values():
                    if tracker.hands.get(player) is not None:
                        tracker.hands[player] = None
        else:
            if not self.run_cards and run == 0:
                trackers = [self.cards]  # ``_tracker(0)``: the hand's one run
            else:
                trackers = [self._tracker(run)]
                if run == 0 and self.run_cards:
                    trackers += list(self.run_cards.values())
            for tracker in trackers:
                findings = tracker.draw(
                    player,
                    draw.count,
                    discarded=discarded,
                    kept=kept,
                    received=received,
                    reshuffles_before=before,
                    reshuffles_after=after,
                    hand_size=self.hand_size,
                )
                if findings:
                    self._report_all(findings, draw.line)
        if draw.shown and draw.count == self.hand_size:
            self.cards.throw_shown(player, draw.shown, after)
        if self.up_cards and draw.count and self.cards.hands.get(player) is None:
            self._lose_up_card(player, kept, after)

    def _lose_up_card(self, player: str, kept: Cards | None, reshuffles: int) -> None:
        """A player whose hand is unknown drew: their face-up card is thrown where the cards
        kept are written without it, and of unknown whereabouts where nothing is written
        (it may be thrown, then dealt again after a reshuffle)."""
        up = self.up_cards.get(player)
        if up is None or (kept is not None and up in kept):
            return
        if kept is not None:
            self.cards.throw_shown(player, (up,), reshuffles)
        elif self.cards.holder.get(up) == player:
            del self.cards.holder[up]

    def _check_shown(self, draw: Draw, shown: Cards) -> None:
        """The ace shown for a longer draw is an ace, of the player's hand: kept for a draw
        of four, thrown with the rest for a draw of five (where the discards are written)."""
        player = draw.player
        if not shown or any(c >> 2 != 12 for c in shown):
            text = f"{player} shows {format_cards(shown) or 'nothing'} to draw: not an ace"
            self._report(Finding(BAD_DRAW, text), draw.line)
        held = self.cards.hand(player)
        if held is not None and any(c not in held for c in shown):
            text = f"{player} shows {format_cards(shown)}, not in their hand, to draw"
            self._report(Finding(BAD_DRAW, text), draw.line)
        elif held is None:  # shown to the table: a card seen, this player's
            for card in shown:
                if self.cards.holder.get(card) != player:
                    self._report_all(self.cards.claim_up(player, card), draw.line)
        thrown, kept = draw.discarded, draw.kept
        if (
            draw.count == self.hand_size
            and thrown is not None
            and any(c not in thrown for c in shown)
        ):
            self._report(
                Finding(BAD_DRAW, f"{player} draws five but keeps the ace shown"), draw.line
            )
        elif draw.count < self.hand_size and kept is not None and any(c not in kept for c in shown):
            self._report(Finding(BAD_DRAW, f"{player} throws the ace shown to draw"), draw.line)

    def _tracker(self, run: int) -> CardTracker:
        """Run 0 is the hand; runs 1 and 2 of a run-it-twice part from it where they begin."""
        if run == 0:
            return self.cards
        if run not in self.run_cards:
            if not self.run_cards:
                self._fork = self.cards.copy()
            self.run_cards[run] = self._fork.copy()
        return self.run_cards[run]

    def _show(self, show: Show) -> None:
        self._reach_end(show.line)
        player = show.player
        if show.run == 0:  # the hand's one run, or every run of a hand run twice
            trackers = list(self.run_cards.values()) if self.run_cards else [self.cards]
        else:
            trackers = [self._tracker(show.run)]
        for tracker in trackers:
            findings = tracker.show(player, show.cards, self.hand_size, self.state.reshuffles)
            if findings:
                self._report_all(findings, show.line)
        rules = self.rules
        if (
            player not in self.state.folded
            and len(set(show.cards)) == self.hand_size
            and max(show.cards) < rules.deck_size  # a card of no deck has no value
        ):
            self.strengths.setdefault(show.run, {})[player] = high_value(show.cards, rules)
            low = low_value(show.cards, rules)
            if low is not None and self.low_strengths is not None:
                self.low_strengths.setdefault(show.run, {})[player] = low
        up = self.up_cards.get(player) if self.up_cards else None
        if up is not None and up not in show.cards and self._stood_pat(player):
            text = (
                f"{player} shows {format_cards(show.cards)} without the face-up "
                f"{format_cards((up,))}, and drew no card"
            )
            self._report(Finding(UP_CARD_MISMATCH, text), show.line)
        if not show.mucked:
            self.shown_order.append((player, show.line))

    def _stood_pat(self, player: str) -> bool:
        drawn = self.state.drawn
        return all(counts.get(player, 0) == 0 for counts in drawn.values())

    # ------------------------------------------------------------------ moving on

    def _missing(self, players: list[str], what: str, line: int) -> None:
        for p in players:
            self._report(Finding(MISSING_ACTION, f"{p} never {what}"), line)

    def _reach_betting(self, street: int, line: int) -> None:
        self._move_on(street, street + 1, line)

    def _reach_draw(self, number: int, line: int) -> None:
        self._move_on(number, number, line)

    def _reach_end(self, line: int) -> None:
        if self.state.phase in _UNDECIDED:
            self._move_on(_EVERY, _EVERY, line)

    def _move_on(self, rounds_before: int, draws_before: int, line: int) -> None:
        """Deal if need be, then close the betting rounds numbered below ``rounds_before``
        and the draws below ``draws_before`` that the history skipped, each player who
        never acted in them reported."""
        st = self.state
        if st.phase is _DEAL:
            st.deal()
        for _ in range(16):
            if st.phase is _BETTING and st.street < rounds_before:
                self._missing(st.close_round(), f"acts in betting round {st.street + 1}", line)
            elif st.phase is _DRAW and st.draw_number < draws_before:
                self._missing(st.close_draw(), f"draws in draw {st.draw_number}", line)
            else:
                return

    def _finish(self, end_line: int) -> None:
        self._reach_end(end_line)
        if self.profile.checks_show_order and self.state.phase is _SHOWDOWN:
            shown = dict(self.shown_order)
            want = [p for p in self.state.showdown_order() if p in shown]
            got = [p for p, _ in self.shown_order if p in want]
            if got != want[: len(got)]:
                line = self.shown_order[0][1] if self.shown_order else end_line
                self._report(
                    Finding(
                        SHOWDOWN_ORDER,
                        f"hands shown in the order {', '.join(got)}; "
                        f"the rules say {', '.join(want)}",
                        Severity.WARNING,
                    ),
                    line,
                )

    def _settle(self, end_line: int) -> None:
        st = self.state
        hand = self.hand
        table = Table(  # the state's own maps: settling reads them and the hand is over
            total=st.total,
            returned=st.returned,
            live=st.live,
            seat_of=st.seat_of,
            button=hand.button,
            dead_hand=st.phase is _DEAD,
            strengths=self.strengths,
            low_strengths=self.low_strengths,
            carried=hand.carried,
            forfeited=self.forfeited,
            unit=chip_unit(hand, self.profile),
            dead=st.pot_dead(),
        )
        reported = Reported(
            uncalled=self.uncalled,
            collects=self.collects,
            rake=hand.rake,
            total_pot=hand.total_pot,
            net=hand.net,
            tournament=hand.tournament is not None,
            end_line=end_line,
        )
        settled = settle(table, reported, self.profile)
        self.problems.extend(settled.problems)
        self.returned_in_collect = settled.returned_in_collect
        self.pots = settled.pots

    def final_stacks(self) -> dict[str, int]:
        out = dict(map(_PLAYER_STACK, self.hand.seats))
        out.update(self.state.stack)  # the players dealt in, each a seat of the hand
        for c in self.collects:
            if c.player in out:
                out[c.player] += c.amount
        for p, amount in self.returned_in_collect.items():
            out[p] -= amount
        return out


# Each step type's method on ``_Replayer``, for ``run``'s dispatch by ``type(step)``.
_HANDLERS: dict[type, Callable[..., None]] = {
    Action: _Replayer._action,
    Draw: _Replayer._draw,
    Post: _Replayer._post,
    Show: _Replayer._show,
    Muck: _Replayer._muck,
    Uncalled: _Replayer._uncalled,
    Collect: _Replayer._collect,
    Note: _Replayer._note,
}


class TableViews:
    """The dashboard's table after each step: an observer of the replay itself, told after
    the forced bets, after each step and after the settlement (when it found something), so
    that the picture is the verdict's own run, never a second pass.

    The engine tells it one fact it cannot read afterwards: whether a bet or raise completes
    a short all-in (``completes``, set before the action is applied).
    """

    __slots__ = ("_drawn", "_seen", "completes", "states")

    def __init__(self) -> None:
        self.states: list[TableState] = []
        self.completes = False
        self._seen = 0  # problems already shown in an earlier view
        self._drawn: dict[str, list[int]] = {}  # cards drawn in each draw, per player

    def begin(self, r: _Replayer) -> None:
        self._seen = len(r.problems)  # the reader's warnings belong to no step
        self._drawn = {p: [] for p in r.state.seat_of}

    def found(self, r: _Replayer) -> bool:
        """Problems came up since the last view."""
        return len(r.problems) > self._seen

    def stepped(self, r: _Replayer, index: int, line: int, text: str) -> None:
        """The table after step ``index`` (``-1``: the forced bets), with the problems the
        step brought up."""
        st = r.state
        if index >= 0 and index < len(r.hand.steps):
            step = r.hand.steps[index]
            if type(step) is Draw and step.run <= 1 and step.player in self._drawn:
                self._drawn[step.player].append(step.count)
        pots = side_pots(st.total, set(st.live), st.pot_dead()) if st.total else ()
        up_cards = r.up_cards
        seats = tuple(
            SeatView(
                seat=st.seat_of[p],
                player=p,
                stack=st.stack[p],
                bet=st.street_bet[p],
                total=st.total[p],
                folded=p in st.folded,
                all_in=p in st.all_in,
                cards=r.cards.hand(p),
                drawn=tuple(self._drawn.get(p, ())),
                up=up_cards.get(p) if up_cards else None,
            )
            for p in sorted(st.order, key=lambda q: st.seat_of[q])
        )
        self.states.append(
            TableState(
                step=index,
                line=line,
                street=st.street,
                draw=st.draw_number,
                phase=st.phase.value,
                to_act=st.to_act if st.phase is Phase.BETTING else _next_drawer(st),
                pot=st.pot,
                pots=pots,
                current_bet=st.current_bet,
                seats=seats,
                text=text,
                problems=tuple(r.problems[self._seen :]),
            )
        )
        self._seen = len(r.problems)


def _describe(r: _Replayer, step: object) -> str:
    """The replayer's line for a step just applied."""
    if isinstance(step, Note):
        return step.text
    assert isinstance(step, Post | Action | Draw | Show | Muck | Uncalled | Collect)
    player = step.player
    if player in r.unknown:
        return f"{player}: not at the table"
    if isinstance(step, Action):
        return _describe_action(r, step)
    if isinstance(step, Draw):
        if step.shown:
            return f"{player} shows {format_cards(step.shown)} and draws {step.count}"
        return f"{player} draws {step.count}" if step.count else f"{player} stands pat"
    if isinstance(step, Post):
        return f"{player} posts {step.kind.value.replace('_', ' ')} {money(step.amount)}"
    if isinstance(step, Show):
        return f"{player} {'mucks' if step.mucked else 'shows'} {format_cards(step.cards)}"
    if isinstance(step, Muck):
        return f"{player} mucks"
    if isinstance(step, Uncalled):
        return f"{money(step.amount)} uncalled returned to {player}"
    return f"{player} collects {money(step.amount)}"


def _describe_action(r: _Replayer, action: Action) -> str:
    player, kind = action.player, action.kind
    if kind is ActionKind.FOLD:
        return f"{player} folds"
    if kind is ActionKind.CHECK:
        return f"{player} checks"
    if kind is ActionKind.CALL:
        return f"{player} calls {money(action.amount)}"
    assert r.watcher is not None
    verb = (
        "completes to" if r.watcher.completes else "bets" if kind is ActionKind.BET else "raises to"
    )
    return f"{player} {verb} {money(r.state.street_bet.get(player, 0))}"


def _next_drawer(st: HandState) -> str | None:
    turn = st.draw_turn()
    return None if turn is None else turn.player
