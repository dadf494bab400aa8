"""The table as the rules run it: whose turn, what they may do, where the chips are, what is left.

``HandState`` is driven step by step, by the dealer (which picks among ``legal_actions()``)
and by the replay (which feeds it what a site wrote).  Each step has a pair: ``check_*``
says what is wrong with a step *without changing anything* and returns it, ``apply_*``
performs it exactly as given, legal or not, so that a replay can report a problem and
carry on with the chips the site says moved.  Dealing the cards (``deal``) is a step of
its own, taken by the caller once the forced bets are in.  The machine never invents a
step.

Streets: betting round ``street`` 0 comes before the first draw; draw ``d`` (1-based) sits
between rounds ``d - 1`` and ``d``.  Positions: ``order`` lists the players dealt in
clockwise from the first seat left of the button, so heads-up the big blind comes first
and the button (small blind) second, as RULES.md has it.

Money is ``int`` hundredths.  A player's ``total`` is every chip they put in this hand;
``dead`` is the part that never counted as a bet (a dead small blind), which is kept out of
the levels that decide what an opponent can win and what comes back uncalled.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from operator import itemgetter

from engine.money import format_money as money
from engine.problems import (
    BAD_AMOUNT,
    BAD_ANTE,
    BAD_BLIND,
    BAD_DRAW,
    CAP_EXCEEDED,
    DECK_EXHAUSTED,
    ILLEGAL_ACTION,
    OUT_OF_TURN,
    STACK_MISMATCH,
    Finding,
)
from engine.record import ActionKind, PostKind, Stakes, Structure
from engine.rules import Forced, GameRules, Opener, fixed_raise, fixed_raise_to


class Phase(StrEnum):
    DEAL = "deal"  # forced bets being posted, cards not dealt yet
    BETTING = "betting"
    DRAW = "draw"
    SHOWDOWN = "showdown"  # betting over with two or more players left
    WON = "won"  # everyone else folded
    DEAD = "dead"  # jacks or better and nobody opened: no winner, the antes stay


# Enum members read once: ``Phase.BETTING`` is a class attribute lookup costing some 45 ns
# in Python 3.11 at every use, and the replay runs these methods for every step of every hand.
_DEAL, _BETTING, _DRAW = Phase.DEAL, Phase.BETTING, Phase.DRAW
_SHOWDOWN, _WON, _DEAD = Phase.SHOWDOWN, Phase.WON, Phase.DEAD
_FOLD, _CHECK, _CALL, _BET = ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET
_CHECK_OR_CALL = (_CHECK, _CALL)
_RAISE = ActionKind.RAISE
_ANTE, _SMALL_BLIND = PostKind.ANTE, PostKind.SMALL_BLIND
_BIG_BLIND, _BOTH_BLINDS = PostKind.BIG_BLIND, PostKind.BOTH_BLINDS
_BIG_BLINDS = (_BIG_BLIND, _BOTH_BLINDS)
_FIXED, _NO_LIMIT = Structure.FIXED, Structure.NO_LIMIT
_ANTES = Forced.ANTES
_SEAT_NUMBER, _NAME = itemgetter(0), itemgetter(1)  # of a ``(seat, player, stack)``
_OVER = (_SHOWDOWN, _WON, _DEAD)
_OPEN = (_BETTING, _DRAW)


@dataclass(frozen=True, slots=True)
class Legal:
    """What the player to act may do now.

    Amounts: ``call`` is the chips a call adds (already cut to the stack: a call for less
    is all-in); bets and raises are given as street totals ``min_to``..``max_to`` (fixed
    limit: one value), and ``all_in_to`` is the street total of pushing every chip (when
    the stack is short of ``min_to``, ``min_to == max_to == all_in_to``).  ``aggressive``
    is BET with no bet to face, RAISE otherwise, ``None`` when the player may not bet or
    raise (cap, betting not reopened, nobody left to answer, no chips beyond the call).
    """

    player: str
    call: int
    can_check: bool
    aggressive: ActionKind | None
    min_to: int
    max_to: int
    all_in_to: int


@dataclass(frozen=True, slots=True)
class DrawTurn:
    player: str
    draw: int
    limit: int  # most cards this player may draw
    stub: int  # cards left in the stub before this draw


class HandState:
    """One hand at one table, under ``rules`` with ``stakes``.

    ``seats`` are ``(seat, player, stack)`` of the players dealt in.  ``button`` is the
    button's seat number (``None`` when the site did not say: then the small blind fixes
    the positions).  Site settings: ``cap_heads_up`` False lifts the fixed-limit cap while
    only two players are left in the pot; ``casino_short_all_ins`` False drops the casino
    rule of short fixed-limit all-ins (``engine.rules.fixed_raise``).
    """

    __slots__ = (
        "_active",
        "_big_bet_from",
        "_blind_all_in",
        "_fixed",
        "_live",
        "_position",
        "_short_counted",
        "_short_to",
        "_sitting_out",
        "_twice",
        "aggressor",
        "all_in",
        "ante_levels",
        "antes",
        "bets",
        "button",
        "button_blinds",
        "cap_heads_up",
        "carried",
        "casino_short_all_ins",
        "closed",
        "current_bet",
        "dead",
        "draw_number",
        "draw_queue",
        "drawn",
        "folded",
        "heads_up",
        "last_aggressor",
        "last_raise",
        "order",
        "pending",
        "phase",
        "pile",
        "posted_big",
        "posted_small",
        "reshuffle_stated",
        "reshuffles",
        "returned",
        "rules",
        "seat_of",
        "stack",
        "stakes",
        "start_stack",
        "street",
        "street_bet",
        "stub",
        "to_act",
        "total",
    )

    def __init__(
        self,
        rules: GameRules,
        stakes: Stakes,
        seats: Sequence[tuple[int, str, int]],
        button: int | None,
        *,
        cap_heads_up: bool = True,
        casino_short_all_ins: bool = True,
        small_blind_player: str | None = None,
        carried: int = 0,
        sitting_out: frozenset[str] = frozenset(),
    ) -> None:
        self.rules = rules
        self.carried = carried  # chips in the pot from the hand before (home antes carried)
        self.stakes = stakes
        self.cap_heads_up = cap_heads_up
        self.casino_short_all_ins = casino_short_all_ins
        self.seat_of: dict[str, int] = {player: seat for seat, player, _ in seats}
        self.start_stack: dict[str, int] = {player: stack for _, player, stack in seats}
        self.button = button
        order = _position_order(seats, button, small_blind_player)
        self.order: tuple[str, ...] = order
        # each player's place in ``order`` (the first, should a name sit twice), and the
        # order twice over: "the players after p" is then one slice, not a modulo loop
        last = len(order) - 1
        self._position = dict(zip(order[::-1], range(last, -1, -1), strict=True))
        self._twice = order + order
        self._fixed = rules.structure is _FIXED
        self._big_bet_from = rules.rounds // 2  # ``GameRules.big_bet_round``
        self.heads_up = last == 1
        # heads-up the button posts the small blind, unless the button is on a seat that is
        # empty or sitting out (a dead button): then the blinds follow the seats as usual
        self.button_blinds = self.heads_up and any(seat == button for seat, _, _ in seats)
        self.stack = dict(self.start_stack)
        # one map of noughts copied: a copy is a third of the time of building each anew
        noughts = dict.fromkeys(order, 0)
        self.total = noughts
        self.dead = noughts.copy()
        # antes per player, made at the first ante: dead money, kept out of the levels
        # unless a player is all-in on nothing but an ante (``pot_dead``)
        self.antes: dict[str, int] | None = None
        self.ante_levels = False
        self.street_bet = noughts.copy()
        self.returned = noughts.copy()  # uncalled bets given back
        self.folded: set[str] = set()
        self.all_in: set[str] = set()
        self._live: list[str] | None = None
        self._active: list[str] | None = None
        self.phase = _DEAL
        self.street = 0
        self.draw_number = 0
        self.to_act: str | None = None
        self.current_bet = 0
        self.last_raise = 0  # size of the last full bet or raise this round
        self.bets = 0  # the bet and full raises this round, for the cap
        # fixed limit: the full bet or raise a short all-in fell short of, and whether it
        # counted toward the cap (``engine.rules.fixed_raise``)
        self._short_to = 0
        self._short_counted = False
        # players the site says are sitting out; those of them all-in by a blind the
        # site may fold (RULES.md: the player forfeits, the blind stays in the pot)
        self._sitting_out = sitting_out
        self._blind_all_in: set[str] = set()
        self.pending: set[str] = set()  # players who must still act this round
        self.closed: set[str] = set()  # acted since the last full raise: may not re-raise
        self.aggressor: str | None = None  # last full bettor or raiser of this round
        self.last_aggressor: str | None = None  # of the last round that had a bet
        self.posted_small: str | None = None
        self.posted_big: list[str] = []
        self.draw_queue: list[str] = []
        self.drawn: dict[int, dict[str, int]] = {}
        self.stub = rules.deck_size
        self.pile = 0  # discards since the last reshuffle
        self.reshuffles = 0
        self.reshuffle_stated = False  # the site says the next draw comes from a new stub

    # ------------------------------------------------------------------ views

    @property
    def live(self) -> list[str]:
        """Players still in the hand (not folded), in position order."""
        if self._live is None:
            self._live = [p for p in self.order if p not in self.folded]
        return self._live

    @property
    def active(self) -> list[str]:
        """Players who can still bet: not folded and not all-in."""
        if self._active is None:
            self._active = [p for p in self.live if p not in self.all_in]
        return self._active

    def _changed(self) -> None:
        """Someone folded or went all-in (or came back from it): forget the cached lists."""
        self._live = None
        self._active = None

    @property
    def pot(self) -> int:
        """Every chip in the middle, this round's bets and a carried pot included."""
        return sum(self.total.values()) + self.carried

    def pot_dead(self) -> dict[str, int]:
        """Each player's chips that count in no level of the pots: dead blinds, and antes
        (RULES.md: dead money in the main pot, never a side pot of its own, whoever posts
        them, the big-blind ante included).  A player all-in on nothing but an ante can win
        only what their ante matched: then the antes are levels as the bets are."""
        antes = self.antes
        if antes is None or self.ante_levels:
            return self.dead
        dead = self.dead
        return {p: dead[p] + antes[p] for p in dead}

    @property
    def over(self) -> bool:
        return self.phase in _OVER

    def bet_size(self) -> int:
        """The fixed-limit bet of this round; the minimum opening bet in pot and no limit."""
        if self._fixed:
            big = self.street >= self._big_bet_from
            return self.stakes.big_bet if big else self.stakes.small_bet
        return self.stakes.big_blind

    # ------------------------------------------------------------------ forced bets

    def check_post(self, player: str, kind: PostKind, amount: int, dead: int = 0) -> list[Finding]:
        out: list[Finding] = []
        if player not in self.total:
            return out
        if amount > self.stack[player]:
            out.append(
                Finding(
                    STACK_MISMATCH,
                    f"{player} posts {money(amount)} but has only {money(self.stack[player])}",
                )
            )
        short = amount >= self.stack[player]  # all-in for less is always allowed
        st = self.stakes
        if kind is _ANTE:
            if st.ante and amount != st.ante and not (short and amount < st.ante):
                text = f"{player} antes {money(amount)}, not {money(st.ante)}"
                out.append(Finding(BAD_ANTE, text))
            return out
        live = amount - dead
        if kind is _SMALL_BLIND:
            # fixed-limit headers state the bets, and sites round half a small bet their
            # own way ($0.10 at $0.25/$0.50): any share of the big blind from 30% to 60%
            rounded = self._fixed and (3 * st.big_blind <= 10 * amount <= 6 * st.big_blind)
            if amount != st.small_blind and not rounded and not (short and amount < st.small_blind):
                out.append(
                    Finding(
                        BAD_BLIND,
                        f"{player} posts a small blind of {money(amount)}, "
                        f"not {money(st.small_blind)}",
                    )
                )
            if self.posted_small is None and self.button is not None:
                want = self.order[-1] if self.button_blinds else self.order[0]
                if player != want:
                    out.append(
                        Finding(
                            BAD_BLIND,
                            f"{player} posts the small blind, but it is {want}'s seat "
                            f"(button on seat {self.button})",
                        )
                    )
        elif kind in _BIG_BLINDS:
            if live != st.big_blind and not (short and live < st.big_blind):
                out.append(
                    Finding(
                        BAD_BLIND,
                        f"{player} posts a big blind of {money(live)}, not {money(st.big_blind)}",
                    )
                )
            if kind is _BOTH_BLINDS and dead > st.small_blind:
                out.append(
                    Finding(
                        BAD_BLIND,
                        f"{player} posts {money(dead)} dead, more than the small blind",
                    )
                )
            if kind is _BIG_BLIND and not self.posted_big and self.button is not None:
                out.extend(self._big_blind_seat(player))
        return out

    def _big_blind_seat(self, player: str) -> list[Finding]:
        pos = self._position[player]
        if self.posted_small is not None:
            sb = self._position[self.posted_small]
            want = self.order[(sb + 1) % len(self.order)]
            if player != want:
                return [
                    Finding(
                        BAD_BLIND,
                        f"{player} posts the big blind, but it is {want}'s seat "
                        f"(after the small blind {self.posted_small})",
                    )
                ]
        elif (self.button_blinds and pos != 0) or (not self.button_blinds and pos > 1):
            return [
                Finding(
                    BAD_BLIND,
                    f"{player} posts the big blind from seat {self.seat_of[player]}, too far "
                    f"from the button on seat {self.button}",
                )
            ]
        return []

    def apply_post(self, player: str, kind: PostKind, amount: int, dead: int = 0) -> None:
        self._put(player, amount)
        if player in self._sitting_out and player in self.all_in:
            self._blind_all_in.add(player)
        if kind is _ANTE:
            if self.antes is None:
                self.antes = dict.fromkeys(self.order, 0)
            if player in self.antes:
                self.antes[player] += amount
                if player in self.all_in and self.total[player] == self.antes[player]:
                    self.ante_levels = True
            return
        self.dead[player] += dead
        self.street_bet[player] += amount - dead
        self.current_bet = max(self.current_bet, self.street_bet[player])
        if kind is _SMALL_BLIND and self.posted_small is None:
            self.posted_small = player
        if kind in _BIG_BLINDS:
            self.posted_big.append(player)
            self.bets = 1
            self.last_raise = max(self.stakes.big_blind, self.last_raise)

    def deal(self) -> None:
        """The cards are dealt: the first betting round begins."""
        if self.phase is not _DEAL:
            return
        self.stub = self.rules.deck_size - self.rules.hand_size * len(self.order)
        self.phase = _BETTING
        self.street = 0
        if not self._fixed:
            self.last_raise = max(self.last_raise, self.stakes.big_blind)
        self.pending = set(self.active)
        self.closed = set()
        big = self._big_blind_player()  # found once: it is the aggressor and fixes the first
        if self.current_bet:
            self.aggressor = big
        self._begin_round(self._first_to_act_preflop(big))

    def _big_blind_player(self) -> str | None:
        if not self.posted_big:
            return None
        position = self._position
        if self.posted_small is not None:
            sb = position[self.posted_small]
            for p in self._twice[sb + 1 : sb + 1 + len(self.order)]:
                if p in self.posted_big:
                    return p
        early = [p for p in self.posted_big if position[p] <= 1]
        return max(early, key=position.__getitem__) if early else self.posted_big[0]

    def _first_to_act_preflop(self, big: str | None) -> int:
        """The place in ``order`` of the first to act, after ``big``, the big blind."""
        if self.rules.forced is _ANTES or not (self.posted_big or self.posted_small):
            return 0
        anchor = big or self.posted_small
        assert anchor is not None
        return (self._position[anchor] + 1) % len(self.order)

    # ------------------------------------------------------------------ betting

    def legal_actions(self) -> Legal | None:
        """The choices of the player to act, or ``None`` when nobody is to act."""
        if self.phase is not _BETTING or self.to_act is None:
            return None
        return self._legal_for(self.to_act)

    def _legal_for(self, player: str) -> Legal:
        return Legal(player, *self._options(player))

    def _options(self, player: str) -> tuple[int, bool, ActionKind | None, int, int, int]:
        """``Legal``'s fields after the player's name; the replay checks every bet and raise
        against them without building a ``Legal`` each time."""
        stack = self.stack[player]
        mine = self.street_bet[player]
        owed = max(0, self.current_bet - mine)
        call = min(owed, stack)
        all_in_to = mine + stack
        aggressive: ActionKind | None = _RAISE if self.current_bet else _BET
        others = [p for p in self.active if p != player]
        if stack <= owed or not others or (player in self.closed and owed > 0) or self._capped():
            aggressive = None
        min_to, max_to = self._raise_bounds(player)
        return call, owed == 0, aggressive, min_to, max_to, all_in_to

    def _capped(self) -> bool:
        cap = self.rules.cap
        if cap is None or not self._fixed:
            return False
        if not self.cap_heads_up and len(self.live) <= 2:
            return False
        return self.bets >= cap

    def _raise_bounds(self, player: str) -> tuple[int, int]:
        all_in_to = self.street_bet[player] + self.stack[player]
        size = self.bet_size()
        if self._fixed:
            target = fixed_raise_to(self.current_bet, size, self._short_to)
            return min(target, all_in_to), min(target, all_in_to)
        step = max(self.last_raise, size) if self.current_bet else size
        low = min(self.current_bet + step, all_in_to)
        if self.rules.structure is _NO_LIMIT:
            return low, all_in_to
        owed = self.current_bet - self.street_bet[player]
        high = self.current_bet + self.pot + owed
        return low, min(max(high, low), all_in_to)

    def check_action(
        self,
        player: str,
        kind: ActionKind,
        amount: int,
        to: int | None = None,
        all_in: bool = False,
    ) -> list[Finding]:
        """Everything wrong with ``player`` doing ``kind`` for ``amount`` chips now.

        Pure, as every check: before the cards are dealt (``deal``, the caller's step)
        nobody may act yet."""
        phase = self.phase
        if player not in self.total:
            return []
        if phase is not _BETTING:
            what = {
                _DEAL: "before the cards are dealt",
                _DRAW: f"during draw {self.draw_number}",
                _SHOWDOWN: "after the betting is over",
                _WON: "after everyone else folded",
                _DEAD: "in a dead hand",
            }.get(self.phase, "now")
            return [Finding(ILLEGAL_ACTION, f"{player} {kind.value}s {what}")]
        if player in self.folded:
            return [Finding(ILLEGAL_ACTION, f"{player} {kind.value}s after folding")]
        if player in self.all_in:
            if kind is _FOLD and player in self._blind_all_in:
                return []  # the site folds a sitting-out player all-in for a blind
            return [Finding(ILLEGAL_ACTION, f"{player} {kind.value}s while all-in")]
        out: list[Finding] = []
        to_act = self.to_act
        if player != to_act:
            if to_act is None:
                text = f"{player} {kind.value}s after the betting round was complete"
            else:
                text = f"{player} {kind.value}s, but it is {to_act}'s turn"
            out.append(Finding(OUT_OF_TURN, text))
        stack = self.stack[player]
        owed = self.current_bet - self.street_bet[player]
        if owed < 0:
            owed = 0
        if amount > stack:
            out.append(
                Finding(
                    STACK_MISMATCH,
                    f"{player} puts in {money(amount)} but has only {money(stack)}",
                )
            )
        if all_in and amount < stack:
            out.append(
                Finding(
                    BAD_AMOUNT,
                    f"{player} is said to be all-in but keeps {money(stack - amount)}",
                )
            )
        if kind is _FOLD:
            return out
        if kind is _CHECK:
            if owed:
                text = f"{player} checks facing a bet of {money(min(owed, stack))}"
                out.append(Finding(ILLEGAL_ACTION, text))
            return out
        if kind is _CALL:
            call = min(owed, stack)
            if not owed:
                out.append(Finding(ILLEGAL_ACTION, f"{player} calls with nothing to call"))
            elif amount != call and amount <= stack and amount != self._full_blind_call(player):
                text = f"{player} calls {money(amount)}; the call is {money(call)}"
                out.append(Finding(BAD_AMOUNT, text))
            return out
        out.extend(self._check_aggression(player, kind, amount, to))
        return out

    def completes(self, player: str, kind: ActionKind, amount: int) -> bool:
        """The bet or raise of ``amount`` by ``player`` now is the completion of a short
        all-in: the full bet or raise it fell short of (``engine.rules.fixed_raise``), which
        the replayer names as such ("completes to 300")."""
        short_to = self._short_to
        return (
            short_to > 0
            and (kind is _RAISE or kind is _BET)
            and self.street_bet.get(player, 0) + amount == short_to
        )

    def _full_blind_call(self, player: str) -> int | None:
        """Facing a big blind all-in for less, some sites make a caller put in a full blind
        (others only what the blind holds, as ``legal_actions`` offers): both are taken."""
        if self.street or not self.posted_big or self.current_bet >= self.stakes.big_blind:
            return None
        return min(self.stakes.big_blind - self.street_bet[player], self.stack[player])

    def _check_aggression(
        self, player: str, kind: ActionKind, amount: int, to: int | None
    ) -> list[Finding]:
        out: list[Finding] = []
        verb = "bets" if kind is _BET else "raises"
        new_to = self.street_bet[player] + amount
        if to is not None and to != new_to:
            out.append(
                Finding(
                    BAD_AMOUNT,
                    f"{player} {verb} to {money(to)}, but {money(amount)} added to "
                    f"{money(self.street_bet[player])} makes {money(new_to)}",
                )
            )
        if new_to <= self.current_bet:
            if amount == self.stack[player] and amount > 0:
                return out  # an all-in written as a raise that is only a call for less
            out.append(
                Finding(
                    BAD_AMOUNT,
                    f"{player} {verb} to {money(new_to)}, no more than the bet of "
                    f"{money(self.current_bet)}",
                )
            )
            return out
        _, _, aggressive, min_to, max_to, all_in_to = self._options(player)
        if aggressive is None:
            if self._capped():
                out.append(
                    Finding(
                        CAP_EXCEEDED,
                        f"{player} raises after the betting was capped at {self.bets} bets",
                    )
                )
            elif player in self.closed:
                out.append(
                    Finding(
                        ILLEGAL_ACTION,
                        f"{player} raises, but an all-in of less than half a bet did not "
                        "reopen the betting",
                    )
                )
            elif not [p for p in self.active if p != player]:
                out.append(Finding(ILLEGAL_ACTION, f"{player} {verb} with nobody left to call"))
            return out
        all_in_for_less = new_to == all_in_to and new_to < min_to
        if all_in_for_less:
            return out
        kind_of = self.rules.structure
        if kind_of is _FIXED and new_to != min_to:
            out.append(
                Finding(
                    BAD_AMOUNT,
                    f"{player} {verb} to {money(new_to)}; in fixed limit it must be "
                    f"{money(min_to)}",
                )
            )
        elif new_to < min_to:
            out.append(
                Finding(
                    BAD_AMOUNT,
                    f"{player} {verb} to {money(new_to)}, under the minimum of {money(min_to)}",
                )
            )
        elif new_to > max_to and new_to <= all_in_to:
            out.append(
                Finding(
                    BAD_AMOUNT,
                    f"{player} {verb} to {money(new_to)}, over the pot-limit maximum of "
                    f"{money(max_to)}",
                )
            )
        return out

    def apply_action(self, player: str, kind: ActionKind, amount: int = 0) -> None:
        """Perform the action as given (chips as the site wrote them), legal or not."""
        if self.phase is _DEAL:
            self.deal()
        if player not in self.total:
            return
        if kind is _FOLD and player in self.all_in:
            self._folded_by_site(player)
            return
        if kind is _FOLD:
            self.folded.add(player)
            self._live = self._active = None
            self.pending.discard(player)
        elif kind in _CHECK_OR_CALL:
            if amount:  # ``_put`` of nothing changes nothing
                self._put(player, amount)
            bet = self.street_bet[player] + amount
            self.street_bet[player] = bet
            self.pending.discard(player)
            self.closed.add(player)
            if bet > self.current_bet:
                self.current_bet = bet  # a call of a full blind
        else:
            self._aggress(player, amount)
        if self.phase is _BETTING:
            self._advance(player)

    def _folded_by_site(self, player: str) -> None:
        """An all-in player folded (by the site, or wrongly: ``check_action`` says which):
        out of the hand, their chips left in the pot, and nobody else's turn changed."""
        self.folded.add(player)
        self._changed()
        if player in self.draw_queue:
            self.draw_queue.remove(player)
        if self.phase in _OPEN and len(self.live) == 1:
            self._return_uncalled()
            self.phase = _WON
            self.to_act = None

    def _aggress(self, player: str, amount: int) -> None:
        before = self.current_bet
        self._put(player, amount)
        self.street_bet[player] += amount
        new_to = self.street_bet[player]
        if new_to <= before:
            self.pending.discard(player)
            self.closed.add(player)
            return
        increase = new_to - before
        size = self.bet_size()
        if self._fixed and not self._short_to and increase == size:
            full = counts = True  # one bet more, nothing short before it (``fixed_raise``)
        elif self._fixed:
            rule = fixed_raise(
                new_to,
                before,
                size,
                short_to=self._short_to,
                short_counted=self._short_counted,
                casino=self.casino_short_all_ins,
            )
            full, counts = rule.full, rule.counts
            self._short_to, self._short_counted = rule.short_to, rule.short_counted
        else:
            full = counts = increase >= (max(self.last_raise, size) if before else size)
        self.current_bet = new_to
        self.bets += counts
        if full:
            self.last_raise = max(increase, self.last_raise if before else 0)
            self.closed = {player}
            self.aggressor = player
        else:
            self.closed.add(player)
        self.pending = {p for p in self.active if p != player}

    def _put(self, player: str, amount: int) -> None:
        left = self.stack[player] - amount
        self.stack[player] = left
        self.total[player] += amount
        if left <= 0 and amount > 0:
            self.all_in.add(player)
            self._live = self._active = None

    def _advance(self, after: str) -> None:
        live = self._live
        if live is None:
            live = self.live
        if len(live) == 1:
            self._return_uncalled()
            self.phase = _WON
            self.to_act = None
            return
        pending = self.pending
        if not pending or (len(pending) == 1 and self._nobody_to_decide()):
            pending.clear()
            self._close_round()
            return
        start = self._position[after] + 1
        for p in self._twice[start : start + len(self.order)]:
            if p in pending:
                self.to_act = p
                return

    def _nobody_to_decide(self) -> bool:
        """Everyone but one player is all-in (or folded) and that player has matched the
        bet: there is nobody to raise against and nothing to call, so the betting is over
        (RULES.md, "All-in": the small blind calling all-in for less heads-up)."""
        active = self._active
        if active is None:
            active = self.active
        return len(active) == 1 and self.street_bet[active[0]] >= self.current_bet

    def _begin_round(self, first: int) -> None:
        active = self.active
        if not active or self._nobody_to_decide():
            self.pending = set()
        if not self.pending:
            self.to_act = None
            self._close_round()
            return
        pending = self.pending
        for p in self._twice[first : first + len(self.order)]:
            if p in pending:
                self.to_act = p
                return

    def close_round(self) -> list[str]:
        """End the betting round now; returns the players who had not acted yet."""
        missing = [p for p in self.order if p in self.pending]
        if self.phase is _BETTING:
            self.pending = set()
            self._close_round()
        return missing

    def _close_round(self) -> None:
        self.to_act = None
        self._return_uncalled()
        if self.aggressor is not None:
            self.last_aggressor = self.aggressor
        if len(self.live) <= 1:
            self.phase = _WON
            return
        nobody_opened = self.street == 0 and self.current_bet == 0
        if nobody_opened and self.rules.opener is Opener.JACKS:
            self.phase = _DEAD
            return
        if self.street >= self.rules.draws:
            self.phase = _SHOWDOWN
            return
        self.phase = _DRAW
        self.draw_number = self.street + 1
        self.drawn[self.draw_number] = {}
        self.draw_queue = list(self.live)

    def _return_uncalled(self) -> None:
        """Chips above what anyone else could match go back to their owner at once."""
        top: str | None = None
        first = second = 0
        total, dead = self.total, self.dead
        antes = None if self.ante_levels else self.antes
        for p in self.order:
            level = total[p] - dead[p]
            if antes is not None:
                level -= antes[p]
            if top is None or level > first:
                # one name a statement: mypyc (compiled.py) miscompiles this as one tuple
                # assignment to an optional name, and every replay failed compiled
                second = first if top is not None else 0
                top = p
                first = level
            elif level > second:
                second = level
        if top is None:
            return
        excess = first - second
        if excess > 0:
            self.total[top] -= excess
            self.stack[top] += excess
            self.street_bet[top] = max(0, self.street_bet[top] - excess)
            self.returned[top] += excess
            self.all_in.discard(top)
            self._changed()

    # ------------------------------------------------------------------ draws

    def draw_turn(self) -> DrawTurn | None:
        """Who draws next and the most cards they may take (the ace rule aside)."""
        if self.phase is not _DRAW or not self.draw_queue:
            return None
        return DrawTurn(self.draw_queue[0], self.draw_number, self.rules.max_discard, self.stub)

    def check_draw(self, player: str, count: int, shows_ace: bool = False) -> list[Finding]:
        """Everything wrong with ``player`` drawing ``count`` cards now (pure: before the
        deal there is no draw to take part in)."""
        if player not in self.total:
            return []
        if self.phase is not _DRAW:
            if player in self.folded:
                return [Finding(ILLEGAL_ACTION, f"{player} draws after folding")]
            return [Finding(ILLEGAL_ACTION, f"{player} draws when no draw is being dealt")]
        out: list[Finding] = []
        queue = self.draw_queue
        if player in self.folded:
            out.append(Finding(ILLEGAL_ACTION, f"{player} draws after folding"))
        elif player in self.drawn[self.draw_number]:
            out.append(Finding(BAD_DRAW, f"{player} draws twice in draw {self.draw_number}"))
        elif queue and queue[0] != player:
            out.append(
                Finding(
                    OUT_OF_TURN,
                    f"{player} draws before {queue[0]} in draw {self.draw_number}",
                )
            )
        rules = self.rules
        limit = rules.max_discard if not shows_ace else rules.discard_limit(shows_ace)
        if count > limit or count < 0:
            out.append(
                Finding(BAD_DRAW, f"{player} draws {count} cards; the most allowed is {limit}")
            )
        elif rules.no_replacement and self.reshuffles and count > self.stub:
            left = f"only {self.stub}" if self.stub else "none"
            out.append(
                Finding(
                    DECK_EXHAUSTED,
                    f"{player} draws {count} cards after the discards were shuffled once; "
                    f"{left} left, and the house deals no replacement",
                )
            )
        elif count > self.stub + self.pile:
            out.append(
                Finding(
                    BAD_DRAW,
                    f"{player} draws {count} cards but the stub and the earlier discards "
                    f"hold only {self.stub + self.pile}",
                )
            )
        return out

    def apply_draw(self, player: str, count: int) -> bool:
        """Deal ``count`` new cards to ``player``; True when the stub ran out and was rebuilt."""
        if self.phase is _DEAL:
            self.deal()
        if player not in self.total:
            return False
        reshuffled = False
        if self.reshuffle_stated:  # the site says where it reshuffles: there, not by count
            self.reshuffle_stated = False
            self.stub += self.pile
            self.pile = 0
            self.reshuffles += 1
            reshuffled = True
        if count <= self.stub:
            self.stub -= count
            self.pile += count
        else:
            need = count - self.stub
            self.stub = max(0, self.pile - need)
            self.pile = count
            self.reshuffles += 1
            reshuffled = True
        if self.phase is _DRAW:
            self.drawn[self.draw_number][player] = count
            if player in self.draw_queue:
                self.draw_queue.remove(player)
            if not self.draw_queue:
                self._next_street()
        return reshuffled

    def state_reshuffle(self) -> None:
        """The site writes that the dealer shuffles the discards into a new stub before the
        next player's cards ("The deck is reshuffled"): that draw is dealt from the old
        stub's rest and every card discarded so far, never the drawer's own discards of it.

        The stated place wins over the count of the stub, which assumes no burn cards; a
        site that does not write it gets the reshuffle where the count runs out."""
        self.reshuffle_stated = True

    def misdeal(self) -> list[Finding]:
        """A card exposed while dealing voids the deal (RULES.md, "Home variants"): the hand
        is over with its antes in the pot for the same dealer's new deal.  Only before any
        betting: once the cards are played a misdeal cannot be called."""
        out: list[Finding] = []
        if self.phase is not _DEAL and not (
            self.phase is _BETTING
            and self.street == 0
            and len(self.pending) == len(self.active)
            and not any(self.street_bet.values())
        ):
            out.append(Finding(ILLEGAL_ACTION, "a misdeal is called after the play began"))
        self.phase = _DEAD
        self.to_act = None
        return out

    def close_draw(self) -> list[str]:
        """End the draw now; returns the players who had not drawn."""
        missing = list(self.draw_queue)
        if self.phase is _DRAW:
            self.draw_queue = []
            self._next_street()
        return missing

    def _next_street(self) -> None:
        self.street += 1
        self.phase = _BETTING
        self.street_bet = dict.fromkeys(self.order, 0)
        self.current_bet = 0
        self.bets = 0
        self.last_raise = 0
        self._short_to = 0
        self._short_counted = False
        self.aggressor = None
        self.closed = set()
        self.pending = set(self.active)
        self._begin_round(0)

    # ------------------------------------------------------------------ showdown

    def showdown_order(self) -> list[str]:
        """Who shows first: the last bettor or raiser of the final round (if still in),
        otherwise the first player left of the button; then clockwise."""
        live = self.live
        if not live:
            return []
        first = self.aggressor if self.aggressor in live else live[0]
        i = live.index(first)
        return live[i:] + live[:i]

    def finish(self) -> list[str]:
        """Close whatever is still open (betting, draws) and return who never acted."""
        if self.phase is _DEAL:
            self.deal()
        missing: list[str] = []
        guard = 0
        while self.phase in _OPEN and guard < 16:
            guard += 1
            if self.phase is _BETTING:
                missing.extend(self.close_round())
            else:
                missing.extend(self.close_draw())
        return missing


def _position_order(
    seats: Sequence[tuple[int, str, int]], button: int | None, small_blind: str | None
) -> tuple[str, ...]:
    """Players clockwise from the first seat left of the button (the button last)."""
    ordered = sorted(seats, key=_SEAT_NUMBER)
    names = list(map(_NAME, ordered))
    if button is None and small_blind is not None and small_blind in names:
        i = names.index(small_blind)
        if len(names) == 2:
            i = (i + 1) % 2  # heads-up the small blind is the button
    elif button is None:
        return tuple(names)
    else:  # the seats numbered up to the button's, sorted, go last
        i = bisect_right(ordered, button, key=_SEAT_NUMBER)
    return (*names[i:], *names[:i])
