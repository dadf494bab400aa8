"""Re-run a recorded hand under the rules, step by step, and say what could not have happened.

The record is fed to the state machine (``engine.state``) in the order the site wrote it.
Each step is first checked (whose turn, what is allowed, what size), then performed as the
site wrote it, so one bad step is reported where it happens and the rest of the hand is
still checked against the chips that really moved.  Cards go through a tracker
(``engine.cardtrack``), money at the end through ``engine.settle``.  Nothing is repaired.

``replay`` also yields the table after every step for the dashboard's replayer; ``verify``
(``engine.verify``) runs the same replay without building those views.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Cards, format_cards
from engine.cardtrack import CardTracker
from engine.pots import Pot, side_pots
from engine.problems import (
    BAD_BUTTON,
    ILLEGAL_ACTION,
    MISSING_ACTION,
    REPLAY_FAILED,
    RUN_IT_TWICE,
    SHOWDOWN_ORDER,
    UNKNOWN_PLAYER,
    Finding,
    money,
)
from engine.profiles import SiteProfile, chip_unit, profile_for
from engine.ranking import rank
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
    Uncalled,
)
from engine.rules import GameRules, Opener, can_open, home_five_card_draw, rules_for
from engine.settle import Reported, Table, settle
from engine.state import HandState, Phase
from engine.verdict import Problem, Severity, Verdict


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
    hand: Hand
    verdict: Verdict
    states: tuple[TableState, ...]


def replay(hand: Hand) -> Replay:
    """The verdict on ``hand`` and the table after each of its steps.

    Never raises: should the replay itself fail on an odd record, the verdict says so
    (``REPLAY_FAILED``) and the views stop at the step where it failed.
    """
    r = _Replayer(hand, keep_states=True)
    try:
        verdict = r.run()
    except Exception as exc:  # reported on the hand, never raised
        message = f"the replay failed on this hand ({type(exc).__name__}: {exc})"
        failed = Problem(REPLAY_FAILED, Severity.ERROR, hand.line, message)
        verdict = Verdict((*r.problems, failed))
    return Replay(hand, verdict, tuple(r.states))


def run_checks(hand: Hand) -> Verdict:
    """The verdict alone (no table views): what ``engine.verify.verify`` returns."""
    return _Replayer(hand, keep_states=False).run()


def run_with_stacks(hand: Hand) -> tuple[Verdict, dict[str, int]]:
    """The verdict and each seated player's stack at the end of the hand, as the history
    has the chips move (what they collected, the uncalled bets they got back)."""
    r = _Replayer(hand, keep_states=False)
    verdict = r.run()
    return verdict, r.final_stacks()


def _involved(hand: Hand) -> set[str]:
    """Players dealt in: those with a step, or whose cards were dealt."""
    names: set[str] = set()
    for s in hand.steps:
        if not isinstance(s, Note):
            names.add(s.player)
    if hand.hero is not None and hand.dealt is not None:
        names.add(hand.hero)
    names.update(p for p, _ in hand.dealt_others)
    return names


class _Replayer:
    def __init__(self, hand: Hand, keep_states: bool) -> None:
        self.hand = hand
        self.keep_states = keep_states
        self.profile: SiteProfile = profile_for(hand.site)
        if self.profile.home_rules and hand.game is Game.FIVE_CARD_DRAW:
            self.rules: GameRules = home_five_card_draw(hand.structure)
        else:
            self.rules = rules_for(hand.game, hand.structure)
        self.problems: list[Problem] = []
        self.states: list[TableState] = []
        self.seated = {s.player for s in hand.seats}
        involved = _involved(hand)
        self.unknown = involved - self.seated
        seats = [(s.seat, s.player, s.stack) for s in hand.seats if s.player in involved]
        small = next(
            (
                s.player
                for s in hand.steps
                if isinstance(s, Post) and s.kind is PostKind.SMALL_BLIND
            ),
            None,
        )
        self.state = HandState(
            self.rules,
            hand.stakes,
            seats,
            hand.button,
            cap_heads_up=self.profile.cap_heads_up,
            reopen_on_half_bet=self.profile.reopen_on_half_bet,
            small_blind_player=small,
        )
        self.cards = CardTracker()
        self.run_cards: dict[int, CardTracker] = {}
        self._fork = self.cards
        self.strengths: dict[int, dict[str, int]] = {}
        self.uncalled: list[Uncalled] = []
        self.collects: list[Collect] = []
        self.shown_order: list[tuple[str, int]] = []
        self.forfeited: set[str] = set()
        self.returned_in_collect: dict[str, int] = {}
        self.drawn: dict[str, list[int]] = {p: [] for _, p, _ in seats}
        self.step_problems: list[Problem] = []

    # ------------------------------------------------------------------ driver

    def run(self) -> Verdict:
        hand = self.hand
        seat_numbers = {s.seat for s in hand.seats}
        if hand.button is not None and seat_numbers and hand.button not in seat_numbers:
            self._report(
                Finding(
                    BAD_BUTTON,
                    f"the button is on seat {hand.button}, where nobody sits",
                    Severity.WARNING,
                ),
                hand.line,
            )
        self._deal_known_cards()
        if self.keep_states:
            self._snapshot(-1, hand.line, "the forced bets are posted")
        last_line = hand.line
        for index, step in enumerate(hand.steps):
            self.step_problems = []
            last_line = max(last_line, step.line)
            text = self._step(step)
            if self.keep_states:
                self._snapshot(index, step.line, text)
        end_line = self.collects[0].line if self.collects else last_line
        self.step_problems = []
        self._finish(end_line)
        self._settle(end_line)
        if self.keep_states and self.step_problems:
            self._snapshot(len(hand.steps), end_line, "the pots are settled")
        return Verdict(tuple(self.problems))

    def _report(self, finding: Finding, line: int) -> None:
        problem = finding.at(line)
        if problem in self.problems:
            return  # the same finding from each run of a run-it-twice hand
        self.problems.append(problem)
        self.step_problems.append(problem)

    def _report_all(self, findings: list[Finding], line: int) -> None:
        for f in findings:
            self._report(f, line)

    def _deal_known_cards(self) -> None:
        hand = self.hand
        size = self.rules.hand_size
        if hand.hero is not None and hand.dealt is not None and hand.hero in self.drawn:
            self._report_all(self.cards.deal(hand.hero, hand.dealt, size), hand.line)
        for player, cards in hand.dealt_others:
            if player in self.drawn:
                self._report_all(self.cards.deal(player, cards, size), hand.line)

    def _step(self, step: object) -> str:
        if isinstance(step, Note):
            if "summary" in step.kind and step.player and step.player not in self.seated:
                # a summary line naming a seat and a player the hand never had (a reader
                # keeps such a corrupt line as a note of kind "..summary..")
                text = f"the summary names {step.player}, who is not seated at this table"
                self._report(Finding(UNKNOWN_PLAYER, text), step.line)
            return step.text
        assert isinstance(step, Post | Action | Draw | Show | Muck | Uncalled | Collect)
        if step.player in self.unknown:
            self._report(
                Finding(UNKNOWN_PLAYER, f"{step.player} is not seated at this table"), step.line
            )
            return f"{step.player}: not at the table"
        if isinstance(step, Action):
            return self._action(step)
        if isinstance(step, Draw):
            return self._draw(step)
        if isinstance(step, Post):
            return self._post(step)
        if isinstance(step, Show):
            return self._show(step)
        if isinstance(step, Muck):
            self._reach_end(step.line)
            self.forfeited.add(step.player)
            return f"{step.player} mucks"
        if isinstance(step, Uncalled):
            self.uncalled.append(step)
            return f"{money(step.amount)} uncalled returned to {step.player}"
        self._reach_end(step.line)
        self.collects.append(step)
        return f"{step.player} collects {money(step.amount)}"

    # ------------------------------------------------------------------ steps

    def _post(self, post: Post) -> str:
        amount, dead = post.amount, post.dead
        if self.state.phase is not Phase.DEAL:
            self._report(
                Finding(ILLEGAL_ACTION, f"{post.player} posts after the cards were dealt"),
                post.line,
            )
        self._report_all(self.state.check_post(post.player, post.kind, amount, dead), post.line)
        self.state.apply_post(post.player, post.kind, amount, dead)
        if not self.keep_states:
            return ""
        kind = post.kind.value.replace("_", " ")
        return f"{post.player} posts {kind} {money(amount)}"

    def _action(self, action: Action) -> str:
        st = self.state
        self._reach_betting(action.street, action.line)
        player, kind = action.player, action.kind
        findings = st.check_action(player, kind, action.amount, action.to, action.all_in)
        if (
            self.rules.opener is Opener.JACKS
            and kind is ActionKind.BET
            and st.street == 0
            and st.current_bet == 0
        ):
            held = self.cards.hand(player)
            if held is not None and len(held) == self.rules.hand_size and not can_open(held):
                findings.append(Finding(ILLEGAL_ACTION, f"{player} opens without jacks or better"))
        self._report_all(findings, action.line)
        st.apply_action(player, kind, action.amount)
        if not self.keep_states:
            return ""
        if kind is ActionKind.FOLD:
            return f"{player} folds"
        if kind is ActionKind.CHECK:
            return f"{player} checks"
        if kind is ActionKind.CALL:
            return f"{player} calls {money(action.amount)}"
        verb = "bets" if kind is ActionKind.BET else "raises to"
        return f"{player} {verb} {money(st.street_bet.get(player, 0))}"

    def _draw(self, draw: Draw) -> str:
        st = self.state
        player = draw.player
        if draw.run >= 1 and not self.profile.run_it_twice:
            self._report(
                Finding(RUN_IT_TWICE, f"{player} draws for a second run at {self.hand.site}"),
                draw.line,
            )
        if draw.run <= 1:
            if st.phase is not Phase.DRAW or st.draw_number != draw.draw:
                self._reach_draw(draw.draw, draw.line)
            shows_ace = (
                self.rules.max_discard_with_ace is not None
                and draw.kept is not None
                and any(c >> 2 == 12 for c in draw.kept)
            )
            found = st.check_draw(player, draw.count, shows_ace)
            if found:
                self._report_all(found, draw.line)
            before = st.reshuffles
            st.apply_draw(player, draw.count)
            after = st.reshuffles
            if player in self.drawn:
                self.drawn[player].append(draw.count)
        else:
            before = after = st.reshuffles
        if draw.discarded is None and draw.kept is None and draw.received is None:
            if draw.count:  # cards unseen in, unseen out: what the player holds is unknown
                for tracker in (self.cards, *self.run_cards.values()):
                    if tracker.hands.get(player) is not None:
                        tracker.hands[player] = None
        else:
            trackers = [self._tracker(draw.run)]
            if draw.run == 0 and self.run_cards:
                trackers += list(self.run_cards.values())
            for tracker in trackers:
                findings = tracker.draw(
                    player,
                    draw.count,
                    draw.discarded,
                    draw.kept,
                    draw.received,
                    before,
                    after,
                    self.rules.hand_size,
                )
                if findings:
                    self._report_all(findings, draw.line)
        if not self.keep_states:
            return ""
        return f"{player} draws {draw.count}" if draw.count else f"{player} stands pat"

    def _tracker(self, run: int) -> CardTracker:
        """Run 0 is the hand; runs 1 and 2 of a run-it-twice part from it where they begin."""
        if run == 0:
            return self.cards
        if run not in self.run_cards:
            if not self.run_cards:
                self._fork = self.cards.copy()
            self.run_cards[run] = self._fork.copy()
        return self.run_cards[run]

    def _show(self, show: Show) -> str:
        self._reach_end(show.line)
        player = show.player
        trackers = [self._tracker(show.run)]
        if show.run == 0 and self.run_cards:
            trackers = list(self.run_cards.values())
        for tracker in trackers:
            self._report_all(
                tracker.show(player, show.cards, self.rules.hand_size, self.state.reshuffles),
                show.line,
            )
        if player not in self.state.folded and len(set(show.cards)) == self.rules.hand_size:
            self.strengths.setdefault(show.run, {})[player] = rank(show.cards, self.rules.ranking)
        if not show.mucked:
            self.shown_order.append((player, show.line))
        verb = "mucks" if show.mucked else "shows"
        return f"{player} {verb} {format_cards(show.cards)}"

    # ------------------------------------------------------------------ moving on

    def _missing(self, players: list[str], what: str, line: int) -> None:
        for p in players:
            self._report(Finding(MISSING_ACTION, f"{p} never {what}"), line)

    def _reach_betting(self, street: int, line: int) -> None:
        st = self.state
        if st.phase is Phase.DEAL:
            st.deal()
        for _ in range(16):
            if st.phase is Phase.BETTING and st.street < street:
                self._missing(st.close_round(), f"acts in betting round {st.street + 1}", line)
            elif st.phase is Phase.DRAW and st.draw_number <= street:
                self._missing(st.close_draw(), f"draws in draw {st.draw_number}", line)
            else:
                return

    def _reach_draw(self, number: int, line: int) -> None:
        st = self.state
        if st.phase is Phase.DEAL:
            st.deal()
        for _ in range(16):
            if st.phase is Phase.BETTING and st.street < number:
                self._missing(st.close_round(), f"acts in betting round {st.street + 1}", line)
            elif st.phase is Phase.DRAW and st.draw_number < number:
                self._missing(st.close_draw(), f"draws in draw {st.draw_number}", line)
            else:
                return

    def _reach_end(self, line: int) -> None:
        st = self.state
        if st.phase in (Phase.DEAL, Phase.BETTING, Phase.DRAW):
            if st.phase is Phase.DEAL:
                st.deal()
            for _ in range(16):
                if st.phase is Phase.BETTING:
                    self._missing(st.close_round(), f"acts in betting round {st.street + 1}", line)
                elif st.phase is Phase.DRAW:
                    self._missing(st.close_draw(), f"draws in draw {st.draw_number}", line)
                else:
                    return

    def _finish(self, end_line: int) -> None:
        self._reach_end(end_line)
        if self.profile.checks_show_order and self.state.phase is Phase.SHOWDOWN:
            want = [p for p in self.state.showdown_order() if p in dict(self.shown_order)]
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
        table = Table(
            total=dict(st.total),
            returned=dict(st.returned),
            live=list(st.live),
            seat_of=dict(st.seat_of),
            button=hand.button,
            dead_hand=st.phase is Phase.DEAD,
            strengths=self.strengths,
            forfeited=self.forfeited,
            unit=chip_unit(hand, self.profile),
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
        for problem in settle(table, reported, self.profile):
            self.problems.append(problem)
            self.step_problems.append(problem)
        self.returned_in_collect = table.returned_in_collect

    def final_stacks(self) -> dict[str, int]:
        st = self.state
        out = {s.player: s.stack for s in self.hand.seats}
        for p in st.order:
            out[p] = st.stack[p]
        for c in self.collects:
            if c.player in out:
                out[c.player] += c.amount
        for p, amount in self.returned_in_collect.items():
            out[p] -= amount
        return out

    # ------------------------------------------------------------------ views

    def _snapshot(self, index: int, line: int, text: str) -> None:
        st = self.state
        live = set(st.live)
        pots = side_pots(st.total, live) if st.total else ()
        seats = tuple(
            SeatView(
                seat=st.seat_of[p],
                player=p,
                stack=st.stack[p],
                bet=st.street_bet[p],
                total=st.total[p],
                folded=p in st.folded,
                all_in=p in st.all_in,
                cards=self.cards.hand(p),
                drawn=tuple(self.drawn.get(p, ())),
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
                problems=tuple(self.step_problems),
            )
        )


def _next_drawer(st: HandState) -> str | None:
    turn = st.draw_turn()
    return None if turn is None else turn.player
