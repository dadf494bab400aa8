"""One hand's verdict as plain database rows, built in the worker processes.

Workers turn each ``HandResult`` into tuples (cheap to send between processes); the
importer's main process only numbers them and appends them in bulk.  Child rows carry,
in place of ``hands.id``, the position of their hand in the worker's batch
(``Rows.hands``); the importer swaps in the real ids once it knows which hands are new.

Column orders here are those of ``analysis.storage.schema``; ``COLUMNS`` lists them without the
ids the importer adds (``hands.id``, ``hands.batch``, ``quarantine.id``...).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import cache
from operator import attrgetter
from typing import Any

import pyarrow as pa

from analysis.pipeline.verification import HandResult, ends_chain
from analysis.statistics.fact_row import FACT_FIELDS
from analysis.statistics.facts import fact_rows, hand_facts
from engine.cards import Cards, format_card, format_cards
from engine.continuity import ContinuityTracker, LastHand, TableHand, TableKey
from engine.record import (
    Action,
    ActionKind,
    Collect,
    Draw,
    Game,
    Hand,
    Muck,
    Post,
    PostKind,
    Show,
    Structure,
    Uncalled,
)
from engine.verdict import Problem, Severity

Row = tuple[Any, ...]

HAND_COLUMNS = (
    "key", "site", "hand_id", "table_name", "game", "structure",
    "small_blind", "big_blind", "small_bet", "big_bet", "ante", "currency", "time",
    "button", "max_seats", "players", "hero", "hero_cards", "total_pot", "rake",
    "tournament_id", "buy_in", "fee", "level",
    "status", "reason", "errors", "warnings", "file", "line", "text", "time_utc",
)  # fmt: skip
QUARANTINE_COLUMNS = ("key", "site", "file", "line", "error", "text")
CHILD_COLUMNS: dict[str, tuple[str, ...]] = {
    "seats": ("hand", "seat", "player", "stack", "sitting_out", "cards", "net", "line"),
    "actions": (
        "hand", "idx", "street", "player", "kind", "amount", "to_amount", "all_in", "dead",
        "line",
    ),
    "draws": (
        "hand", "idx", "player", "draw", "count", "discarded", "kept", "received", "run",
        "line",
    ),
    "shows": ("hand", "idx", "player", "cards", "mucked", "run", "line"),
    "payouts": ("hand", "idx", "player", "kind", "amount", "pot", "run", "line"),
    "problems": ("hand", "code", "severity", "line", "message"),
    "pots": ("hand", "idx", "amount", "eligible", "winners"),
}  # fmt: skip
_I64, _I32, _STR, _BOOL = pa.int64(), pa.int32(), pa.string(), pa.bool_()
_TS = pa.timestamp("us")
HAND_TYPES = (
    _STR, _STR, _STR, _STR, _STR, _STR,
    _I64, _I64, _I64, _I64, _I64, _STR, _TS,
    _I32, _I32, _I32, _STR, _STR, _I64, _I64,
    _STR, _I64, _I64, _STR,
    _STR, _STR, _I32, _I32, _STR, _I32, _STR, _BOOL,
)  # fmt: skip
QUARANTINE_TYPES = (_STR, _STR, _STR, _I32, _STR, _STR)
CHILD_TYPES: dict[str, tuple[pa.DataType, ...]] = {
    "seats": (_I64, _I32, _STR, _I64, _BOOL, _STR, _I64, _I32),
    "actions": (_I64, _I32, _I32, _STR, _STR, _I64, _I64, _BOOL, _I64, _I32),
    "draws": (_I64, _I32, _STR, _I32, _I32, _STR, _STR, _STR, _I32, _I32),
    "shows": (_I64, _I32, _STR, _STR, _BOOL, _I32, _I32),
    "payouts": (_I64, _I32, _STR, _STR, _I64, _I32, _I32, _I32),
    "problems": (_I64, _STR, _STR, _I32, _STR),
    "pots": (_I64, _I32, _I64, pa.list_(_STR), pa.list_(_STR)),
}
_DUCK_TO_ARROW = {
    "BOOLEAN": _BOOL,
    "VARCHAR": _STR,
    "TIMESTAMP": _TS,
    "BIGINT": _I64,
    "INTEGER": _I32,
    "SMALLINT": pa.int16(),
    "DOUBLE": pa.float64(),
}
_ACTION_KINDS = {kind: kind.value for kind in ActionKind}  # Enum.value is a slow property
_POST_KINDS = {kind: f"post_{kind.value}" for kind in PostKind}
_VALUES: dict[Any, str] = {m: m.value for e in (Game, Structure) for m in e}
_ERROR = Severity.ERROR
FACTS_FAILED = "FACTS_FAILED"
CONTINUITY_FAILED = "CONTINUITY_FAILED"

FactsFn = Callable[[Hand], Sequence[Any]]
Carry = tuple[int, TableHand, dict[str, int]]
"""(position in ``Rows.hands``, the hand's summary, each seat's final stack): what the
stack carry-over check across consecutive hands needs, small to send back."""
Break = tuple[str, int]
"""(file, line) of a hand that could not be read: every stack chain of that file reaching
across the line ends there (``ContinuityTracker.break_chains``)."""
End = tuple[TableKey, LastHand | None]
"""A table's last hand in a batch and its final stacks (None: unknown), for the next."""


@dataclass
class Rows:
    """The rows of one batch of hand texts, ready to be numbered and appended."""

    hands: list[Row] = field(default_factory=list)
    quarantine: list[Row] = field(default_factory=list)
    children: dict[str, list[Row]] = field(
        default_factory=lambda: {name: [] for name in CHILD_COLUMNS}
    )
    player_hands: list[Row] = field(default_factory=list)
    carry: list[Carry] = field(default_factory=list)
    breaks: list[Break] = field(default_factory=list)
    firsts: list[Carry] = field(default_factory=list)
    ends: list[End] = field(default_factory=list)
    found: dict[int, tuple[Problem, ...]] = field(default_factory=dict)

    def follow(self, known: Mapping[str, Sequence[int]] | None = None) -> None:
        """Check the stacks carried from hand to hand within the batch, here (in the
        worker): every hand but the first of each table is compared with the one before
        it, as the importer's tracker would compare them, since a batch is a run of
        consecutive hands of one file and its failed hands (``breaks``) are all that lies
        between them.  What is left for the tracker that follows the whole import
        (``with_continuity``) is each table's first hand (``firsts``) and how each table
        ends (``ends``, in the order of each table's last hand, the order the tracker
        would have seen them last); ``found`` holds the problems found here.  Neither the
        summaries of every hand nor the check's work then cross to the main process.

        ``known``: the lines of failed hands this batch does not hold, by file (reverify's
        pages: the quarantined texts, and the failed hands of the pages before), which
        end chains here as they do in the tracker that follows; they are not sent back.
        """
        tracker = ContinuityTracker()
        for file, line in self.breaks:
            tracker.break_chains(file, line)
        for file, lines in (known or {}).items():
            for line in lines:
                tracker.break_chains(file, line)
        last_at: dict[TableKey, int] = {}
        for carried in self.carry:
            local, summary, final = carried
            key = summary.key
            if not key[3].strip():
                continue  # an unknown table: nothing to chain with
            if key not in last_at:
                self.firsts.append(carried)
            try:
                problems = tuple(tracker.feed_table_hand(summary, final))
            except Exception as exc:  # the check's bug must not stop the import
                problems = (_continuity_failed(summary, exc),)
            if problems:
                self.found[local] = problems
            last_at[key] = local
        ordered = sorted(last_at.items(), key=lambda item: item[1])
        self.ends = [(key, tracker.last(key)) for key, _ in ordered]
        self.carry = []

    def to_arrow(self, fact_types: Sequence[tuple[str, str]] = ()) -> ArrowRows:
        """Typed columns, built where the rows were (in the worker), cheap to send back."""
        return ArrowRows(
            hands=_table(HAND_COLUMNS, HAND_TYPES, self.hands),
            quarantine=_table(QUARANTINE_COLUMNS, QUARANTINE_TYPES, self.quarantine),
            children={
                name: _table(CHILD_COLUMNS[name], CHILD_TYPES[name], rows)
                for name, rows in self.children.items()
            },
            player_hands=_table(
                ("hand", *(n for n, _ in fact_types)),
                (_I64, *(_DUCK_TO_ARROW.get(t.split()[0].upper(), _STR) for _, t in fact_types)),
                self.player_hands,
            ),
            carry=self.carry,
            breaks=self.breaks,
            firsts=self.firsts,
            ends=self.ends,
            found=self.found,
        )


@dataclass(frozen=True)
class ArrowRows:
    """``Rows`` as Arrow tables; child tables' ``hand`` is the position in ``hands``."""

    hands: pa.Table
    quarantine: pa.Table
    children: dict[str, pa.Table]
    player_hands: pa.Table
    carry: list[Carry] = field(default_factory=list)
    breaks: list[Break] = field(default_factory=list)
    firsts: list[Carry] = field(default_factory=list)  # see ``Rows.follow``
    ends: list[End] = field(default_factory=list)
    found: dict[int, tuple[Problem, ...]] = field(default_factory=dict)

    @property
    def chained(self) -> bool:
        """Whether ``with_continuity`` has anything to do with these rows."""
        return bool(self.carry or self.breaks or self.firsts or self.ends or self.found)

    def __reduce__(self) -> tuple[Any, ...]:
        # A worker sends these back: the tables as one buffer of Arrow IPC streams, which
        # the importer reads in place.  Pickling each table costs four times as much to
        # write (6.6 against 1.6 us a hand) and more again to read, in the main process.
        sink = pa.BufferOutputStream()
        ends: list[int] = []
        for table in (self.hands, self.quarantine, *self.children.values(), self.player_hands):
            with pa.ipc.new_stream(sink, table.schema) as writer:
                writer.write_table(table)
            ends.append(sink.tell())
        packed = (sink.getvalue().to_pybytes(), tuple(ends), tuple(self.children))
        chains = (self.firsts, self.ends, self.found)
        return _unpacked, (*packed, self.carry, self.breaks, *chains)


def _unpacked(
    data: bytes,
    ends: tuple[int, ...],
    names: tuple[str, ...],
    carry: list[Carry],
    breaks: list[Break],
    firsts: list[Carry] | None = None,
    table_ends: list[End] | None = None,
    found: dict[int, tuple[Problem, ...]] | None = None,
) -> ArrowRows:
    """``ArrowRows.__reduce__``'s buffer read back, each table a view of it."""
    buffer = pa.py_buffer(data)
    tables: list[pa.Table] = []
    start = 0
    for end in ends:
        tables.append(pa.ipc.open_stream(buffer.slice(start, end - start)).read_all())
        start = end
    hands, quarantine, *children, player_hands = tables
    return ArrowRows(hands, quarantine, dict(zip(names, children, strict=True)), player_hands,
                     carry, breaks, firsts or [], table_ends or [], found or {})  # fmt: skip


def _table(names: Sequence[str], types: Sequence[pa.DataType], rows: list[Row]) -> pa.Table:
    """The rows as a table: one conversion of all the tuples into a struct array, whose
    fields are the columns.  Transposing the tuples (``zip``) and converting each column
    took 16 % more instructions (callgrind, a batch of every table) and made a tuple of
    each column on the way."""
    if not rows:
        return pa.Table.from_arrays([pa.array([], type=t) for t in types], names=list(names))
    return pa.Table.from_struct_array(pa.array(rows, type=_struct(tuple(names), tuple(types))))


@cache
def _struct(names: tuple[str, ...], types: tuple[pa.DataType, ...]) -> pa.DataType:
    return pa.struct([pa.field(n, t) for n, t in zip(names, types, strict=True)])


def hand_key(site: str, hand_id: str, table: str, time: datetime | None, text: str) -> str:
    """What makes a hand the same hand across imports (see ``analysis.storage.schema``)."""
    if hand_id:
        return f"{site}:{hand_id}"
    if table and time is not None:
        return f"{site}:{table}@{time.isoformat()}"
    return f"{site}#{text_digest(text)}"


def text_digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


_CARD_TEXT = tuple(format_card(c) for c in range(52))
# the texts of no, one and two cards, half of all the card sets written (the draws'
# discards and receipts): a look-up, 30 against 200 ns a set (measured), in 0.3 MB
_SHORT_TEXT: dict[Cards, str] = {
    (): "",
    **{(a,): _CARD_TEXT[a] for a in range(52)},
    **{(a, b): _CARD_TEXT[a] + _CARD_TEXT[b] for a in range(52) for b in range(52)},
}


def cards_text(cards: Cards | None) -> str | None:
    """``7s5d4h3c2s``; a look-up per card, as this runs for every card of every hand."""
    if cards is None:
        return None
    text = _SHORT_TEXT.get(cards)
    if text is not None:
        return text
    try:
        return "".join([_CARD_TEXT[c] for c in cards])
    except IndexError:  # not a card number: let the engine say so
        return format_cards(cards, sep="")


def utc_naive(time: datetime | None) -> datetime | None:
    """Times as stored: UTC where the site gave a zone, as written where it did not."""
    if time is None or time.tzinfo is None:
        return time
    return time.astimezone(UTC).replace(tzinfo=None)


def add_result(
    rows: Rows,
    result: HandResult,
    facts: FactsFn | None = None,
    fact_columns: Sequence[str] = (),
) -> None:
    """Append one verdict's rows: a hand and its children, or one quarantine row."""
    if result.status == "parse_error":
        rows.quarantine.append(
            (
                f"{result.site}#{text_digest(result.text)}",
                result.site,
                result.file,
                result.line,
                result.reason or "; ".join(p.message for p in result.problems),
                result.text,
            )
        )
        rows.breaks.append((result.file, result.line))
        return
    local = len(rows.hands)
    problems = list(result.problems)
    hand = result.hand
    time = None if hand is None else utc_naive(hand.time)  # once for all its rows
    if hand is not None and facts is not None and fact_columns:
        try:
            if facts is hand_facts and (
                fact_columns is FACT_FIELDS or tuple(fact_columns) == FACT_FIELDS
            ):
                # the same values without building a frozen row only to read it back
                facts_rows = fact_rows(hand, (local,), time)
            else:
                getter = attrgetter(*fact_columns)
                single = len(fact_columns) == 1
                facts_rows = [
                    (local, values) if single else (local, *values)
                    for values in map(getter, facts(hand))
                ]
            rows.player_hands.extend(facts_rows)
        except Exception as exc:  # the statistics' bug must not lose the hand
            message = f"facts: {type(exc).__name__}: {exc}"
            problems.append(Problem(FACTS_FAILED, Severity.WARNING, hand.line, message))
    rows.hands.append(_hand_row(result, hand, problems, time))
    if ends_chain(result.status):  # a game not replayed: its table's stacks are unknown
        rows.breaks.append((result.file, result.line))
    for p in problems:
        rows.children["problems"].append((local, p.code, str(p.severity), p.line, p.message))
    if hand is not None:
        final = _add_steps(rows.children, local, hand)
        rows.carry.append((local, TableHand.of(hand, time), final))
        rows.children["pots"].extend(
            (local, idx, pot.amount, pot.eligible, pot.winners)
            for idx, pot in enumerate(result.pots)
        )


def table_hand(hand: Hand) -> TableHand:
    """The hand as the carry-over check sees it; times as stored (naive UTC), so that hands
    rebuilt from the database compare with hands just read."""
    return TableHand.of(hand, utc_naive(hand.time))


def _hand_row(
    result: HandResult, hand: Hand | None, problems: list[Problem], time: datetime | None
) -> Row:
    errors = sum(1 for p in problems if p.severity is _ERROR) if problems else 0
    warnings = len(problems) - errors
    if hand is None:
        key = hand_key(result.site, result.hand_id, "", None, result.text)
        return (
            key, result.site, result.hand_id or None, None, result.game or None, None,
            None, None, None, None, None, None, None,
            None, None, None, None, None, None, None,
            None, None, None, None,
            result.status, result.reason or None, errors, warnings, result.file, result.line,
            result.text, None,
        )  # fmt: skip
    s = hand.stakes
    t = hand.tournament
    return (
        hand_key(hand.site, hand.hand_id, hand.table, hand.time, result.text),
        hand.site, hand.hand_id or None, hand.table or None, _VALUES[hand.game],
        _VALUES[hand.structure],
        s.small_blind, s.big_blind, s.small_bet, s.big_bet, s.ante, hand.currency or None,
        time,
        hand.button, hand.max_seats, len(hand.seats), hand.hero, cards_text(hand.dealt),
        hand.total_pot, hand.rake,
        t.tournament_id if t else None, t.buy_in if t else None, t.fee if t else None,
        t.level if t else None,
        result.status, result.reason or None, errors, warnings, result.file, result.line,
        result.text, None if hand.time is None else hand.time.tzinfo is not None,
    )  # fmt: skip


def _add_steps(children: dict[str, list[Row]], local: int, hand: Hand) -> dict[str, int]:
    """Append the hand's seats and steps as child rows; returns each seat's chips at the
    end as the history moves them (posts, bets, returns, wins), found in the same walk.

    The hottest loop of the rows (seventeen steps a hand): a step's kind is told by its
    class's identity (the records are final, slotted classes, never subclassed) rather
    than by a chain of ``isinstance`` calls, and a step that moves no chips books none;
    with the card texts looked up, 5 % fewer instructions for a hand's rows (callgrind)."""
    final = {seat.player: seat.stack for seat in hand.seats}
    known = dict(hand.dealt_others)
    if hand.hero is not None and hand.dealt is not None:
        known[hand.hero] = hand.dealt
    nets = dict(hand.net)
    children["seats"].extend(
        [
            (
                local, seat.seat, seat.player, seat.stack, seat.sitting_out,
                None if (c := known.get(seat.player)) is None else cards_text(c),
                nets.get(seat.player), seat.line,
            )
            for seat in hand.seats
        ]
    )  # fmt: skip
    action = children["actions"].append
    draw = children["draws"].append
    show = children["shows"].append
    payout = children["payouts"].append
    action_kinds = _ACTION_KINDS
    # Any: mypy narrows a step by ``type(step) is``, a call in every branch tried
    steps: tuple[Any, ...] = hand.steps
    for idx, step in enumerate(steps):
        cls = step.__class__
        if cls is Action:
            player, amount = step.player, step.amount
            action(
                (
                    local, idx, step.street, player, action_kinds[step.kind], amount,
                    step.to, step.all_in, 0, step.line,
                )
            )  # fmt: skip
            if amount or player not in final:
                final[player] = final.get(player, 0) - amount
        elif cls is Draw:
            d, k, r = step.discarded, step.kept, step.received
            draw(
                (
                    local, idx, step.player, step.draw, step.count,
                    None if d is None else cards_text(d), None if k is None else cards_text(k),
                    None if r is None else cards_text(r), step.run, step.line,
                )
            )  # fmt: skip
        elif cls is Post:
            player, amount = step.player, step.amount
            action(
                (
                    local, idx, 0, player, _POST_KINDS[step.kind], amount,
                    None, step.all_in, step.dead, step.line,
                )
            )  # fmt: skip
            final[player] = final.get(player, 0) - amount
        elif cls is Collect:
            player, amount = step.player, step.amount
            payout((local, idx, player, "collect", amount, step.pot, step.run, step.line))
            final[player] = final.get(player, 0) + amount
        elif cls is Show:
            show(
                (local, idx, step.player, cards_text(step.cards), step.mucked, step.run, step.line)
            )
        elif cls is Muck:
            show((local, idx, step.player, None, True, 0, step.line))
        elif cls is Uncalled:
            player, amount = step.player, step.amount
            payout((local, idx, player, "uncalled", amount, None, 0, step.line))
            final[player] = final.get(player, 0) + amount
    return final


def with_continuity(rows: ArrowRows, tracker: Any) -> ArrowRows:
    """``rows`` with the stack carry-over problems ``tracker`` finds, fed in file order.

    The importer feeds every hand of an import through one tracker, in order, so a
    table's consecutive hands are compared whichever worker batches they came in; a hand
    that could not be read ends the chains across it (``Rows.breaks``).  An
    error found here makes an ``ok`` hand ``invalid``, as a replay error would.
    """
    for file, line in rows.breaks:  # by line: they may come in any order with the hands
        tracker.break_chains(file, line)
    found: dict[int, tuple[Problem, ...]] = {}
    for local, summary, final in rows.carry:
        try:
            problems = tuple(tracker.feed_table_hand(summary, final))
        except Exception as exc:  # the check's bug must not stop the import
            problems = (_continuity_failed(summary, exc),)
        if problems:
            found[local] = problems
    if rows.firsts or rows.ends or rows.found:  # followed in the worker (``Rows.follow``)
        found.update(rows.found)
        for local, summary, _ in rows.firsts:
            try:
                problems = tuple(tracker.follows(summary))
            except Exception as exc:
                problems = (_continuity_failed(summary, exc),)
            if problems:
                found[local] = problems
        for key, last in rows.ends:
            tracker.resume(key, last)
        found = dict(sorted(found.items()))  # in hand order, as one tracker finds them
    if not found:
        return replace(rows, carry=[], breaks=[], firsts=[], ends=[], found={})
    hands = rows.hands
    status = hands.column("status").to_pylist()
    reason = hands.column("reason").to_pylist()
    errors = hands.column("errors").to_pylist()
    warnings = hands.column("warnings").to_pylist()
    extra: list[Row] = []
    for local, problems in found.items():
        n_errors = sum(1 for p in problems if p.severity is Severity.ERROR)
        errors[local] += n_errors
        warnings[local] += len(problems) - n_errors
        if n_errors and status[local] == "ok":
            status[local] = "invalid"
            reason[local] = next(p.message for p in problems if p.severity is Severity.ERROR)
        extra += [(local, p.code, str(p.severity), p.line, p.message) for p in problems]
    for name, values in (
        ("status", status),
        ("reason", reason),
        ("errors", errors),
        ("warnings", warnings),
    ):
        i = hands.schema.get_field_index(name)
        hands = hands.set_column(i, name, pa.array(values, type=hands.schema.field(i).type))
    problems_table = pa.concat_tables(
        [
            rows.children["problems"],
            _table(CHILD_COLUMNS["problems"], CHILD_TYPES["problems"], extra),
        ]
    )
    children = {**rows.children, "problems": problems_table}
    return replace(
        rows, hands=hands, children=children, carry=[], breaks=[], firsts=[], ends=[], found={}
    )


def _continuity_failed(summary: TableHand, exc: Exception) -> Problem:
    message = f"continuity check failed: {type(exc).__name__}: {exc}"
    return Problem(CONTINUITY_FAILED, Severity.WARNING, summary.line, message)
