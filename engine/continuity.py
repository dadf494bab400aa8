"""Stacks carried from one hand to the next at the same table.

A player's stack at the start of a hand is what they had at the end of the previous hand
at that table.  In a tournament that holds to the chip.  In a cash game a player may add
chips between hands (a top-up, or a rebuy after going broke) and sites do not always log
it, so a stack that *grew* is a warning (``STACK_CHANGE``); one that shrank cannot be
explained that way and is an error (``STACK_MISMATCH``).

Two hands are taken as consecutive when they are neighbours at the same table (same site,
tournament and table name) in the same file, in time order, less than ``MAX_GAP`` apart: a
longer gap means hands are missing in between (the hero sat out, or the file holds only
some hands), and then nothing can be said.  Hands of different files are not compared: a
site writes a table's session into one file, and files cut apart (or anonymised, as the
corpus files are, where "Player1" of one file is not "Player1" of the next) say nothing
about each other.

A hand whose table has no name (a PHH file from pokerkit, which writes none) is at a table
of its own: hands of unknown tables cannot be told to be at one, so they are never chained.
A hand whose history states no payouts (``PAYOUT_UNSTATED``) ends with stacks nobody wrote,
so it carries nothing to the next hand.

A hand missing from the file (RULES.md: the button moved past a seat that was dealt in,
and the stacks changed) is a gap in the history, not a fault of the later hand: when the
button skipped a seat its player held in both hands, the stacks that changed are one
warning (``HAND_MISSING``) naming the two hands and why, and both hands keep their own
verdicts.  A stack that changes with no such sign is still an error.

A hand that failed (a parse error, or a replay that gave no final stacks) ends its table's
chain: the stacks after it are unknown, so the table's next hand starts a new chain instead
of being compared with the hand before the failed one (which flagged every player).  A
parse error rarely tells its table, so ``ContinuityTracker.break_chains`` without a table
ends every chain of the file that reaches across the failed hand's line (conservative).
"""

from __future__ import annotations

from bisect import bisect_right, insort
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from operator import attrgetter
from typing import NamedTuple

from engine.money import format_money as money
from engine.problems import (
    CARRIED_POT_MISMATCH,
    DEALER_MISMATCH,
    HAND_MISSING,
    STACK_CHANGE,
    STACK_MISMATCH,
)
from engine.profiles import PROFILES
from engine.record import (
    MISDEAL_NOTE,
    TOP_UP_NOTES,
    Action,
    Game,
    Hand,
    Note,
    Post,
    Uncalled,
)
from engine.replay import replay
from engine.verdict import Problem, Severity

MAX_GAP = timedelta(minutes=5)
_NO_TIME = timedelta(0)
_NOTHING_ADDED: dict[str, int] = {}  # (read only)
_FIVE_CARD_DRAW = Game.FIVE_CARD_DRAW


class TableKey(NamedTuple):
    """The table a hand was played at: its hands' stacks carry over from one to the next."""

    file: str
    site: str
    tournament: str  # the tournament's id, "" at a cash table
    table: str


def table_key(hand: Hand) -> TableKey:
    tournament = hand.tournament.tournament_id if hand.tournament is not None else ""
    return TableKey(file=hand.file, site=hand.site, tournament=tournament, table=hand.table)


class TableHand(NamedTuple):
    """What the carry-over check needs of a hand, and no more.

    The importer's workers replay hands and its main process, which sees every hand in
    file order, checks the carry-over: this is what crosses between them, a plain tuple
    because pickling whole records cost more than the check itself.
    """

    key: TableKey
    hand_id: str
    time: datetime | None
    tournament: bool
    # (player, stack, line, seat number, sitting out) of each seat
    seats: tuple[tuple[str, int, int, int, bool], ...]
    carries: bool  # its final stacks are known: the history says where the pot went
    line: int  # the hand's first line
    added: tuple[tuple[str, int], ...] = ()  # chips the history says a player added
    # a home game's deal (RULES.md, "Home variants"): the pot it started with, the pot it
    # left to the next deal (nobody opened, or a misdeal), whether it was a misdeal
    home: bool = False
    button: int | None = None
    carried: int = 0
    leaves: int = 0
    misdeal: bool = False

    @classmethod
    def of(cls, hand: Hand, time: datetime | None) -> TableHand:
        """``time``: the hand's time as the caller compares times (the importer's are the
        stored ones, naive UTC)."""
        home = _home(hand)
        return cls(
            key=table_key(hand),
            hand_id=hand.hand_id,
            time=time,
            tournament=hand.tournament is not None,
            seats=tuple(map(_SEAT, hand.seats)),
            carries=not _payouts_unstated(hand),
            line=hand.line,
            added=_top_ups(hand),
            home=home,
            button=hand.button,
            carried=hand.carried,
            leaves=_leaves(hand) if home else 0,
            misdeal=home and _misdealt(hand),
        )


_SEAT = attrgetter("player", "stack", "line", "seat", "sitting_out")  # ``TableHand.seats``'


def carry_over(
    previous: Hand, previous_final: Mapping[str, int], current: Hand
) -> tuple[Problem, ...]:
    """What is wrong with the stacks ``current`` starts with, after ``previous`` ended."""
    return table_carry_over(
        TableHand.of(previous, previous.time), previous_final, TableHand.of(current, current.time)
    )


def table_carry_over(
    previous: TableHand, previous_final: Mapping[str, int], current: TableHand
) -> tuple[Problem, ...]:
    """``carry_over`` of two hands' summaries."""
    if not current.key.table.strip() or previous.key != current.key:
        return ()
    if previous.time is not None and current.time is not None:
        try:
            gap = current.time - previous.time
        except TypeError:  # one time with a zone, one without: they cannot be compared
            return ()
        if gap < _NO_TIME or gap > MAX_GAP:
            return ()
    out: list[Problem] = []
    if current.home and previous.home:
        out.extend(_deal_carried(previous, current))
    added = dict(previous.added) if previous.added else _NOTHING_ADDED
    for player, now, line, _, _ in current.seats:
        before = previous_final.get(player)
        if before is None:
            continue
        before += added.get(player, 0)  # a top-up the history states is no surprise
        if now == before:
            continue
        text = (
            f"{player} starts with {money(now)} but ended hand {previous.hand_id} "
            f"with {money(before)}"
        )
        if current.tournament or now < before:
            out.append(Problem(STACK_MISMATCH, Severity.ERROR, line, text))
        else:
            text += f" (a top-up or rebuy of {money(now - before)}?)"
            out.append(Problem(STACK_CHANGE, Severity.WARNING, line, text))
    changed = [p for p in out if p.code in _STACK_CODES]
    if changed:
        missing = _hand_missing(previous, current, len(changed))
        if missing is not None:
            out = [p for p in out if p.code not in _STACK_CODES]
            out.append(missing)
    return tuple(out)


_STACK_CODES = (STACK_MISMATCH, STACK_CHANGE)


def _apart(gap: timedelta) -> str:
    seconds = int(gap.total_seconds())
    if seconds < 60:
        return f"{seconds} s"
    return f"{seconds // 60} min {seconds % 60} s" if seconds % 60 else f"{seconds // 60} min"


def _hand_missing(previous: TableHand, current: TableHand, changed: int) -> Problem | None:
    """One warning for a hand missing between ``previous`` and ``current`` (the caller has
    found ``changed`` stacks that do not carry over), or None when nothing says a hand is
    missing: the button moved past a seat whose player was dealt in both hands, where one
    deal would have put it.  (The hands are close in time: the caller compares no others.)"""
    start, end = previous.button, current.button
    if start is None or end is None or start == end:
        return None
    before = {seat: player for player, _, _, seat, out in previous.seats if not out}
    after = {seat: player for player, _, _, seat, out in current.seats if not out}
    seats = sorted(set(before) | set(after) | {start, end})
    at = seats.index(start)
    skipped: list[int] = []
    for seat in seats[at + 1 :] + seats[:at]:
        if seat == end:
            break
        if seat in before and before[seat] == after.get(seat):
            skipped.append(seat)
    if not skipped:
        return None
    seat_words = ", ".join(map(str, skipped))
    apart = ""
    if previous.time is not None and current.time is not None:
        apart = f" {_apart(current.time - previous.time)} apart,"
    text = (
        f"a hand is missing between hands {previous.hand_id} and {current.hand_id}: the "
        f"button moved from seat {start} to seat {end}, past seat {seat_words} dealt in "
        f"both,{apart} and {changed} stack{'s' if changed > 1 else ''} changed in between"
    )
    return Problem(HAND_MISSING, Severity.WARNING, current.line, text)


class LastHand(NamedTuple):
    """A table's last hand and the stacks it ended with."""

    hand: TableHand
    final: dict[str, int]


"""A table's last hand and its final stacks: what its next hand is compared with."""


class ContinuityTracker:
    """Feeds hands one by one (a file's order) and remembers the last hand of each table."""

    TABLES = 4096  # the tables remembered; the longest unseen is forgotten first

    def __init__(self) -> None:
        self._last: dict[TableKey, LastHand] = {}
        self._breaks: dict[str, list[int]] = {}  # file -> lines of its failed hands
        self._table_breaks: dict[TableKey, list[int]] = {}

    def break_chains(self, file: str, line: int, key: TableKey | None = None) -> None:
        """A hand that failed at ``line`` of ``file``: the chain of table ``key`` (of every
        table of the file when its table is unknown) that reaches across that line ends.

        Breaks are kept by line, so they may be given in any order with the hands: the
        importer's workers send a batch's failed hands apart from its good ones.
        """
        if key is None:
            insort(self._breaks.setdefault(file, []), line)
        else:
            insort(self._table_breaks.setdefault(key, []), line)

    def _broken(self, previous: TableHand, current: TableHand) -> bool:
        """A failed hand lies between two hands of a table."""
        low, high = sorted((previous.line, current.line))
        for lines in (self._breaks.get(current.key.file), self._table_breaks.get(current.key)):
            if lines:
                after = bisect_right(lines, low)
                if after < len(lines) and lines[after] < high:
                    return True
        return False

    def feed(self, hand: Hand, final: Mapping[str, int]) -> tuple[Problem, ...]:
        """The carry-over problems of ``hand``'s starting stacks; ``final`` (its stacks at
        the end, empty when the replay could not run it) is kept for the table's next hand
        unless it is unknown."""
        if not hand.table.strip():
            return ()  # an unknown table: nothing to chain with
        return self.feed_table_hand(TableHand.of(hand, hand.time), final)

    def feed_table_hand(self, hand: TableHand, final: Mapping[str, int]) -> tuple[Problem, ...]:
        """``feed`` for a hand's summary."""
        key = hand.key
        if not key.table.strip():
            return ()
        last = self._last
        previous = last.pop(key, None)
        if final and hand.carries:  # ``resume``, the key already taken out
            last[key] = LastHand(hand, dict(final))
            if len(last) > self.TABLES:
                del last[next(iter(last))]
        return self._carried(previous, hand)

    def follows(self, hand: TableHand) -> tuple[Problem, ...]:
        """``feed_table_hand``'s problems, remembering nothing: for the first hand of a
        table in a run of hands followed elsewhere (a worker process followed the rest of
        the run, and ``resume`` then takes the table's end from it)."""
        if not hand.key.table.strip():
            return ()
        return self._carried(self._last.get(hand.key), hand)

    def last(self, key: TableKey) -> LastHand | None:
        """The hand the table's next hand is compared with, and its final stacks; None
        when there is none (a new table, or its last hand ended with unknown stacks)."""
        return self._last.get(key)

    def resume(self, key: TableKey, last: LastHand | None) -> None:
        """Take ``last`` (another tracker's ``last``) as the table's last hand."""
        self._last.pop(key, None)
        if last is not None:
            self._last[key] = last
            if len(self._last) > self.TABLES:
                del self._last[next(iter(self._last))]

    def _carried(self, previous: LastHand | None, hand: TableHand) -> tuple[Problem, ...]:
        if previous is None or (
            (self._breaks or self._table_breaks) and self._broken(previous.hand, hand)
        ):
            return ()  # the first hand of a chain (a new one after a failed hand)
        return table_carry_over(previous.hand, previous.final, hand)


def _top_ups(hand: Hand) -> tuple[tuple[str, int], ...]:
    """Chips each player added during the hand for the next one, where the lines say so."""
    if Note not in map(type, hand.steps):  # most hands: no note, looked for in C (the
        return ()  # step records are final classes, never subclassed
    added: dict[str, int] = {}
    for step in hand.steps:
        if (
            isinstance(step, Note)
            and step.kind in TOP_UP_NOTES
            and step.player is not None
            and step.amount is not None
        ):
            added[step.player] = added.get(step.player, 0) + step.amount
    return tuple(added.items())


def _home(hand: Hand) -> bool:
    """Whether ``hand`` is a home game's deal: five-card draw under house rules."""
    if hand.game is not _FIVE_CARD_DRAW:
        return False
    profile = PROFILES.get(hand.site)
    return hand.house is not None or (profile is not None and profile.home_rules)


def _misdealt(hand: Hand) -> bool:
    return any(isinstance(s, Note) and s.kind == MISDEAL_NOTE for s in hand.steps)


def _leaves(hand: Hand) -> int:
    """The pot a home deal nobody won leaves to the next deal (0 when someone collects)."""
    if hand.collects:
        return 0
    put_in = sum(s.amount for s in hand.steps if isinstance(s, Post | Action))
    back = sum(s.amount for s in hand.steps if isinstance(s, Uncalled))
    return hand.carried + put_in - back


def _deal_carried(previous: TableHand, current: TableHand) -> list[Problem]:
    """The antes a dead or misdealt deal left are in the next deal's pot; after a misdeal
    the same dealer deals again, after a hand nobody opened the deal passes."""
    out: list[Problem] = []
    if current.carried != previous.leaves:
        if previous.leaves:
            why = "a misdeal" if previous.misdeal else "nobody opened"
            text = (
                f"the pot starts with {money(current.carried)}; hand {previous.hand_id} "
                f"({why}) left {money(previous.leaves)} in it"
            )
        else:
            text = (
                f"{money(current.carried)} is carried into the pot, but hand "
                f"{previous.hand_id} was won and left nothing"
            )
        out.append(Problem(CARRIED_POT_MISMATCH, Severity.ERROR, current.line, text))
    if previous.button is not None and current.button is not None:
        if previous.misdeal and current.button != previous.button:
            text = (
                f"after the misdeal of hand {previous.hand_id} the button moves from seat "
                f"{previous.button} to {current.button}; the same dealer deals again"
            )
            out.append(Problem(DEALER_MISMATCH, Severity.ERROR, current.line, text))
        elif previous.leaves and not previous.misdeal and current.button == previous.button:
            text = (
                f"nobody opened hand {previous.hand_id}, but the button stays on seat "
                f"{current.button}: the deal passes to the next dealer"
            )
            out.append(Problem(DEALER_MISMATCH, Severity.ERROR, current.line, text))
    return out


def _payouts_unstated(hand: Hand) -> bool:
    """The history says nothing of where the pot went, so the stacks after it are unknown
    (the replay reports it as ``PAYOUT_UNSTATED``)."""
    profile = PROFILES.get(hand.site)  # a site without a profile states its payouts
    if profile is None or not profile.payouts_may_be_unstated or hand.net or hand.collects:
        return False
    return any(isinstance(s, Post | Action) and s.amount for s in hand.steps)


def check_continuity(hands: Sequence[Hand]) -> dict[tuple[str, str], tuple[Problem, ...]]:
    """Problems of stack carry-over, keyed by ``(site, hand_id)`` of the later hand.

    Hands are grouped by table and put in time order (the given order where times are
    missing or equal); hands without a problem are absent from the result.
    """
    out: dict[tuple[str, str], tuple[Problem, ...]] = {}
    for group in _by_table(hands):
        tracker = ContinuityTracker()
        for hand in group:
            found = tracker.feed(hand, replay(hand).final)  # a failed replay: no stacks
            if found:
                out[(hand.site, hand.hand_id)] = found
    return out


def _when(hand: Hand) -> float:
    """Seconds since the epoch (a time without a zone taken as UTC); no time sorts last."""
    if hand.time is None:
        return float("inf")
    when = hand.time if hand.time.tzinfo is not None else hand.time.replace(tzinfo=UTC)
    return when.timestamp()


def _by_table(hands: Iterable[Hand]) -> list[list[Hand]]:
    groups: dict[TableKey, list[tuple[int, Hand]]] = {}
    for index, hand in enumerate(hands):
        groups.setdefault(table_key(hand), []).append((index, hand))
    ordered: list[list[Hand]] = []
    for members in groups.values():
        members.sort(key=lambda ih: (_when(ih[1]), ih[0]))
        ordered.append([h for _, h in members])
    return ordered
