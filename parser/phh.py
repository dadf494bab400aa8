"""PHH, pokerkit's open hand-history format (a TOML file), read and written.

A PHH file describes a hand with standard fields (``variant``, ``antes``,
``blinds_or_straddles``, ``starting_stacks``, ``actions`` in the ``p1 cbr 20`` notation...)
that any PHH tool can replay.  The standard has no place for much of what a site's history
says (posts other than blinds and antes, uncalled bets, which pot a player collected, notes,
rake), so ``write_phh`` also writes the whole record in underscore-prefixed user-defined
fields, which the standard reserves for such extensions.  ``read_phh`` rebuilds the record
from those fields when present, so ``read_phh(write_phh(hand))`` is the same hand; a PHH
file from elsewhere is read from its standard fields alone.

Payouts in a PHH file from elsewhere: ``winnings`` (per player, the pots collected after
rake) become one ``Collect`` per player with ``pot=None``: the standard does not split a
player's winnings by pot, so the replay checks each player's total, not who took which
side pot.  Without ``winnings``, ``finishing_stacks`` give the collects (final stack less
what the player had left behind, so a returned uncalled bet is counted in); with them,
``finishing_stacks`` also give each player's result (``Hand.net``).  A file with neither
states no payout and gets no collects.

A ``.phhs`` file holds several hands, each under its own table header (``[1]``, ``[2]``...
as pokerkit writes them): ``PhhReader.split`` cuts it there, so every hand has its own
text, first line and outcome, and one broken hand is an error for that hand alone.

Reading is tolerant, as pokerkit's own loader is: a key the standard does not define is an
``UNKNOWN_LINE`` warning at its line (pokerkit warns that it "should probably be prefixed
with an underscore"), never the end of the hand; ``_``-prefixed user-defined keys and the
standard's descriptive keys (``event``, ``city``, ``time_zone``, ``level``...) are read
without a word.  Warnings a record carried when it was written (``Hand.warnings``) are
written in ``_drawlab_warnings`` and read back, each at its row of the file.

The standard fields are written so that pokerkit plays them as the site dealt them: a
live post other than the two blinds (a player who just sat down posting a big blind) is
a negative blind, pokerkit's "post bet", so the first round still opens after the big
blind; when draws follow one another with no betting (a player all-in), each draw's cards
are dealt before anybody draws again, and the reader numbers a draw anew when a player
draws a second time; a show or muck after all but one have folded, which has no place
in pokerkit's hand, is written as a commented-out action (``# p3 sm 7s5d4h3c2s``) that
the reader takes back.  A card dealt again after the deck is reshuffled needs nothing:
pokerkit deals a card from its discards with a warning that it "is not recommended".

Home games (RULES.md, "Home variants") carry their house rules, the pot carried in and the
shotgun's face-up cards in ``_drawlab_hand`` (``house``, ``carried``, ``up_cards``, written
only where a hand has them) and the ace shown for a longer draw as a draw's ``shown``; the
standard fields then describe the plain game, as pokerkit has none of the variants.

Variant codes: the standard's ``F2L3D`` and ``N2L1D``, and for the draw games it does not
name, codes built the same way: structure letter (F, P, N) + game (``2L3D``, ``2L1D``,
``AL3D``, ``AL1D``, ``5D``, as in ``P2L3D`` or ``N5D``).
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time
from decimal import Decimal, InvalidOperation
from mmap import mmap
from typing import Any, Final

from engine.cards import CardError, Cards, format_cards, parse_cards
from engine.problems import UNKNOWN_LINE
from engine.profiles import CHIPS
from engine.record import (
    Action,
    ActionKind,
    Collect,
    Draw,
    Game,
    Hand,
    HouseRules,
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
from engine.rules import HOUSE
from engine.verdict import Problem, Severity
from parser.builder import draw_with
from parser.outcome import HandText, ParseError, Skipped

SITE: Final = "phh"
FORMAT_VERSION: Final = 1

_GAME_CODES: Final = {
    Game.TRIPLE_DRAW_27: "2L3D",
    Game.SINGLE_DRAW_27: "2L1D",
    Game.TRIPLE_DRAW_A5: "AL3D",
    Game.SINGLE_DRAW_A5: "AL1D",
    Game.FIVE_CARD_DRAW: "5D",
    Game.BADUGI: "B",  # pokerkit's fixed-limit Badugi is "FB"
}
_STRUCTURE_CODES: Final = {Structure.FIXED: "F", Structure.POT: "P", Structure.NO_LIMIT: "N"}
VARIANTS: Final[dict[str, tuple[Game, Structure]]] = {
    s + g: (game, structure)
    for game, g in _GAME_CODES.items()
    for structure, s in _STRUCTURE_CODES.items()
}
# The standard's other variants: hands we recognise and skip, rather than call broken.
OTHER_VARIANTS: Final = {
    "FT": "fixed-limit Texas hold'em",
    "NT": "no-limit Texas hold'em",
    "NS": "no-limit short-deck hold'em",
    "PO": "pot-limit Omaha hold'em",
    "FO/8": "fixed-limit Omaha hold'em hi-lo",
    "F7S": "fixed-limit seven card stud",
    "F7S/8": "fixed-limit seven card stud hi-lo",
    "FR": "fixed-limit razz",
}
# Every key of the standard (pokerkit's HandHistory fields): any other key not starting
# with "_" is a warning, as pokerkit's loader gives one.
STANDARD_KEYS: Final = frozenset({
    "variant", "ante_trimming_status", "antes", "blinds_or_straddles", "bring_in",
    "small_bet", "big_bet", "min_bet", "starting_stacks", "actions", "author", "event", "url",
    "venue", "address", "city", "region", "postal_code", "country", "time", "time_zone",
    "day", "month", "year", "hand", "level", "seats", "seat_count",
    "table", "players", "finishing_stacks", "winnings", "currency", "currency_symbol",
    "time_limit", "time_banks", "rake",
})  # fmt: skip
# A show or muck once all but one have folded: pokerkit has no showdown then, so the
# writer comments the action out ("# p3 sm 7s5d4h3c2s") and the reader takes it back.
_SHOW_AFTER_FOLDS = re.compile(r"^ ?p\d+ sm(?: [2-9TJQKA][cdhs](?:[2-9TJQKA][cdhs])*)?$")
_SNIFF = re.compile(r"^\s*(?:variant|\"variant\"|'variant')\s*=\s*['\"]", re.MULTILINE)
# A .phhs file's table header, one per hand: ``[1]`` as pokerkit writes it, or any other
# plain or quoted name.  A ``[_name]`` table is a user-defined field of the hand above it.
_SECTION = re.compile(
    r"""^\s*\[\s*(?:[A-Za-z0-9-][A-Za-z0-9_-]*|"[^"]*"|'[^']*')\s*\]\s*(?:#.*)?$"""
)


# ---------------------------------------------------------------------------------------
# writing


def write_phh(hand: Hand) -> str:
    """The hand as a PHH file: standard fields, then the exact record in ``_drawlab`` fields."""
    order = _positional_order(hand)
    index = {player: i + 1 for i, player in enumerate(order)}
    seat_of = {s.player: s for s in hand.seats}
    out: list[str] = []

    def put(key: str, value: object) -> None:
        out.append(f"{key} = {_toml(value)}")

    put("variant", _STRUCTURE_CODES[hand.structure] + _GAME_CODES[hand.game])
    antes = [0] * len(order)
    blinds = [0] * len(order)
    in_turn = _blinds_in_turn(hand, order)
    for p in hand.posts:
        i = index.get(p.player)
        if i is None:
            continue
        # Dead chips (antes, the dead part of a missed blind) are antes to the standard;
        # live ones are blinds, and any live post but the small and the big blind (a new
        # player's, a second big blind) is negative: pokerkit's "post bet", live money
        # that does not move the first to act away from the player after the big blind.
        if p.kind is PostKind.ANTE:
            antes[i - 1] += p.amount
        else:
            antes[i - 1] += p.dead
            live = p.amount - p.dead
            blinds[i - 1] += live if p.player in in_turn else -live
    if len(order) == 2:
        # The standard lists heads-up forced bets in reverse (the button posts the small).
        antes.reverse()
        blinds.reverse()
    put("antes", [_units(a) for a in antes])
    put("blinds_or_straddles", [_units(b) for b in blinds])
    if hand.structure is Structure.FIXED:
        put("small_bet", _units(hand.stakes.small_bet))
        put("big_bet", _units(hand.stakes.big_bet))
    else:
        put("min_bet", _units(hand.stakes.big_blind))
    put("starting_stacks", [_units(seat_of[p].stack) for p in order])
    out.append("actions = [")
    for action in _standard_actions(hand, index):
        out.append(f"  {_toml(action)},")
    out.append("]")
    put("players", list(order))
    put("seats", [seat_of[p].seat for p in order])
    if hand.max_seats is not None:
        put("seat_count", hand.max_seats)
    put("table", hand.table)
    put("hand", hand.hand_id)
    put("venue", hand.site)
    if len(hand.currency) == 3 and hand.currency.isupper():
        put("currency", hand.currency)
    if hand.time is not None:
        t = hand.time.astimezone(UTC) if hand.time.tzinfo is not None else hand.time
        out.append(f"time = {t:%H:%M:%S}")
        put("day", t.day)
        put("month", t.month)
        put("year", t.year)
        if hand.time.tzinfo is not None:
            put("time_zone", "UTC")
    won: dict[str, int] = {}
    for c in hand.collects:
        won[c.player] = won.get(c.player, 0) + c.amount
    put("winnings", [_units(won.get(p, 0)) for p in order])
    out.append("")
    out.append("# The whole DrawLab record: what the standard fields cannot say.")
    put("_drawlab_version", FORMAT_VERSION)
    put("_drawlab_hand", _hand_fields(hand))
    out.append("_drawlab_seats = [")
    for s in hand.seats:
        out.append(f"  {_toml(_fields(s))},")
    out.append("]")
    out.append("_drawlab_steps = [")
    for step in hand.steps:
        out.append(f"  {_toml(_step_fields(step))},")
    out.append("]")
    if hand.warnings:
        out.append("_drawlab_warnings = [")
        for w in hand.warnings:
            out.append(
                f"  {_toml({'code': w.code, 'severity': w.severity.value, 'message': w.message})},"
            )
        out.append("]")
    return "\n".join(out) + "\n"


def _blinds_in_turn(hand: Hand, order: Sequence[str]) -> frozenset[str]:
    """The players whose posts are the blinds: the small blind and the big blind the
    first betting round starts after, as the replay finds it (engine/state.py).

    pokerkit opens the first round after the largest positive blind (the last one on a
    tie), so a second big blind posted by a player who just sat down must not count:
    heads-up both posts are the blinds (the standard has no post bet there).
    """
    posters = [p for p in hand.posts if p.kind is not PostKind.ANTE and p.player in order]
    if len(order) == 2:
        return frozenset(p.player for p in posters)
    small = next((p.player for p in posters if p.kind is PostKind.SMALL_BLIND), None)
    bigs = [p.player for p in posters if p.kind in (PostKind.BIG_BLIND, PostKind.BOTH_BLINDS)]
    position = {player: i for i, player in enumerate(order)}
    big: str | None = None
    if small is not None:
        after = [*order[position[small] + 1 :], *order[: position[small]]]
        big = next((p for p in after if p in bigs), None)
    elif bigs:
        early = [p for p in bigs if position[p] <= 1]
        big = max(early, key=position.__getitem__) if early else bigs[0]
    return frozenset(p for p in (small, big) if p is not None)


def _positional_order(hand: Hand) -> list[str]:
    """Players dealt in, from the seat after the button round to the button (PHH's p1..pN)."""
    live = [s for s in hand.seats if not s.sitting_out]
    live.sort(key=lambda s: s.seat)
    if hand.button is None or not live:
        return [s.player for s in live]
    after = [s for s in live if s.seat > hand.button]
    upto = [s for s in live if s.seat <= hand.button]
    return [s.player for s in after + upto]


def _standard_actions(hand: Hand, index: Mapping[str, int]) -> Iterator[str]:
    """The record's play in PHH action notation, for any PHH tool to replay."""
    order = sorted(index, key=lambda p: index[p])
    for player in order:
        cards = hand.dealt if player == hand.hero and hand.dealt is not None else None
        known = dict(hand.dealt_others)
        if cards is None:
            cards = known.get(player)
        yield f"d dh p{index[player]} {_cards(cards, 5)}"
    put_in: dict[str, int] = {}
    for p in hand.posts:
        if p.kind is not PostKind.ANTE:
            put_in[p.player] = put_in.get(p.player, 0) + p.amount - p.dead
    street = 0
    pending_deals: list[Draw] = []
    # Once all but one have folded there is no showdown to pokerkit: a show or a muck
    # then (the winner's, or a folded player's) is commented out (see _SHOW_AFTER_FOLDS).
    live = set(order)
    for step in hand.steps:
        if isinstance(step, Action) and step.player in index:
            if step.street != street:
                street = step.street
                put_in = {}
            for d in pending_deals:
                yield f"d dh p{index[d.player]} {_cards(d.received, d.count)}"
            pending_deals = []
            i = index[step.player]
            if step.kind is ActionKind.FOLD:
                live.discard(step.player)
                yield f"p{i} f"
            elif step.kind in (ActionKind.CHECK, ActionKind.CALL):
                put_in[step.player] = put_in.get(step.player, 0) + step.amount
                yield f"p{i} cc"
            else:
                total = put_in.get(step.player, 0) + step.amount
                put_in[step.player] = total
                yield f"p{i} cbr {_number(_units(total))}"
        elif isinstance(step, Draw) and step.player in index and step.run in (0, 1):
            if pending_deals and pending_deals[0].draw != step.draw:
                # A draw with no betting before it (a player all-in): pokerkit deals the
                # last draw's cards before anyone draws again.
                for d in pending_deals:
                    yield f"d dh p{index[d.player]} {_cards(d.received, d.count)}"
                pending_deals = []
            i = index[step.player]
            yield f"p{i} sd" if step.count == 0 else f"p{i} sd {_cards(step.discarded, step.count)}"
            if step.count:
                pending_deals.append(step)
        elif isinstance(step, Show) and not step.mucked and step.player in index and step.run < 2:
            for d in pending_deals:
                yield f"d dh p{index[d.player]} {_cards(d.received, d.count)}"
            pending_deals = []
            shown = f"p{index[step.player]} sm {format_cards(step.cards, '')}"
            yield shown if len(live) > 1 and step.player in live else f"# {shown}"
        elif isinstance(step, Muck) and step.player in index:
            mucked = f"p{index[step.player]} sm"
            yield mucked if len(live) > 1 and step.player in live else f"# {mucked}"
        elif isinstance(step, Note):
            yield f"# {step.text}"
    for d in pending_deals:
        yield f"d dh p{index[d.player]} {_cards(d.received, d.count)}"


def _cards(cards: Cards | None, count: int) -> str:
    if cards is None:
        return "??" * count
    return format_cards(cards, "") or "??" * count


def _units(amount: int) -> Decimal | int:
    """Hundredths to the unit PHH counts in: 150 is 1.5, 200 is 2."""
    return amount // 100 if amount % 100 == 0 else Decimal(amount) / 100


def _number(value: Decimal | int) -> str:
    return str(value) if isinstance(value, int) else f"{value:f}"


def _fields(obj: object) -> dict[str, object]:
    slots: tuple[str, ...] = getattr(type(obj), "__slots__", ())
    return {name: getattr(obj, name) for name in slots if name != "line"}


def _step_fields(step: Step) -> dict[str, object]:
    return {"type": type(step).__name__} | _fields(step)


def _hand_fields(hand: Hand) -> dict[str, object]:
    fields: dict[str, object] = {
        "site": hand.site,
        "hand_id": hand.hand_id,
        "table": hand.table,
        "game": hand.game.value,
        "structure": hand.structure.value,
        "stakes": _fields(hand.stakes),
        "currency": hand.currency,
        "time": hand.time.isoformat() if hand.time is not None else None,
        "button": hand.button,
        "hero": hand.hero,
        "dealt": hand.dealt,
        "dealt_others": [{"player": p, "cards": c} for p, c in hand.dealt_others],
        "max_seats": hand.max_seats,
        "rake": hand.rake,
        "total_pot": hand.total_pot,
        "tournament": _fields(hand.tournament) if hand.tournament is not None else None,
        "net": [{"player": p, "amount": a} for p, a in hand.net],
    }
    # the home game's fields, written only where a hand has them (older files stay as
    # they were): the house rules, the pot carried in, the shotgun's face-up cards
    if hand.house is not None:
        house = _fields(hand.house)
        if hand.house.max_draw_with_ace is None:
            house["max_draw_with_ace"] = 0  # no ace rule (TOML has no null)
        fields["house"] = house
    if hand.carried:
        fields["carried"] = hand.carried
    if hand.up_cards:
        fields["up_cards"] = [{"player": p, "card": c} for p, c in hand.up_cards]
    return fields


def _toml(value: object) -> str:
    """A TOML value, inline; ``None`` members of tables are left out (TOML has no null)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Decimal):
        return f"{value:f}"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        items = ", ".join(f"{k} = {_toml(v)}" for k, v in value.items() if v is not None)
        return "{" + items + "}"
    raise TypeError(f"no TOML form for {type(value).__name__}")


# ---------------------------------------------------------------------------------------
# reading


class PhhReader:
    """The SiteReader for PHH files (one hand per file)."""

    site = SITE

    def sniff(self, head: str) -> bool:
        return _SNIFF.search(head) is not None

    def split(self, lines: Iterable[tuple[int, str]], file: str) -> Iterator[HandText]:
        """A ``.phh`` file is one hand; a ``.phhs`` file has one per ``[n]`` section."""
        buf: list[str] = []
        start = 1
        for no, line in lines:
            if _SECTION.match(line):
                if any(b.strip() for b in buf):
                    yield HandText(file, start, "\n".join(buf), SITE)
                buf, start = [], no + 1
                continue
            if not buf:
                start = no
            buf.append(line)
        if any(b.strip() for b in buf):
            yield HandText(file, start, "\n".join(buf), SITE)

    def parse(self, chunk: HandText) -> Hand | Skipped:
        return parse_phh(chunk.text, chunk.file, chunk.line)


_SECTION_BYTES: Final = re.compile(_SECTION.pattern.encode("ascii"))


def next_hand_start(data: bytes | mmap, pos: int) -> int:
    """The offset of the first ``[n]`` section line at or after byte ``pos`` that
    ``split`` cuts at (one starting its line with ``[``), -1 when there is none: where a
    big ``.phhs`` file in UTF-8 can be cut into parts that are read apart."""
    p = data.find(b"\n[", max(pos - 1, 0))
    while p >= 0:
        end = data.find(b"\n", p + 1)
        line = data[p + 1 : end if end >= 0 else len(data)].rstrip(b"\r")
        if _SECTION_BYTES.fullmatch(line):
            return p + 1
        p = data.find(b"\n[", p + 1)
    return -1


def read_phh(text: str, file: str, first_line: int = 1) -> Hand:
    """One PHH hand (``text`` starting at line ``first_line`` of ``file``).

    Raises ``ParseError`` for text that is not a usable PHH hand of a draw game.
    """
    hand = parse_phh(text, file, first_line)
    if isinstance(hand, Skipped):
        raise ParseError(
            f"variant {hand.game!r} is not a draw game DrawLab reads",
            file=file,
            line=hand.line,
            line_text=_line(text, hand.line - first_line + 1),
            expected=f"one of the variants {', '.join(sorted(VARIANTS))}",
        )
    return hand


def parse_phh(text: str, file: str, first_line: int = 1) -> Hand | Skipped:
    """One PHH hand, or a skip for a hand of a game the standard names but we do not replay
    (hold'em, Omaha, stud, razz, badugi); raises ``ParseError`` for anything else."""
    shift = first_line - 1
    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        line, column = _toml_position(str(exc), text)
        raise ParseError(
            f"not valid TOML: {exc}",
            file=file,
            line=line + shift,
            column=column,
            line_text=_line(text, line),
            expected="a PHH file (TOML key = value lines)",
        ) from None
    lines = _LineFinder(text, shift)
    warnings = tuple(
        Problem(
            UNKNOWN_LINE, Severity.WARNING, lines.key(key),
            "a key the PHH standard does not define (user keys begin with '_'): "
            + _line(text, lines.key(key) - shift).strip(),
        )
        for key in data
        if key not in STANDARD_KEYS and not key.startswith("_")
    )  # fmt: skip
    try:
        if "_drawlab_version" in data:
            return _from_drawlab(data, file, lines, warnings)
        variant = data.get("variant")
        if isinstance(variant, str) and variant in OTHER_VARIANTS:
            hand_id = data.get("hand")
            return Skipped(
                "unsupported",
                f"{OTHER_VARIANTS[variant]} ({variant}): not a draw game DrawLab replays",
                site=SITE,
                file=file,
                line=lines.key("variant"),
                hand_id=None if hand_id is None else str(hand_id),
                game=variant,
            )
        return _from_standard(data, file, lines, warnings)
    except (KeyError, TypeError, ValueError, InvalidOperation, CardError, IndexError) as exc:
        key = exc.args[0] if isinstance(exc, KeyError) and exc.args else None
        what = f"{type(exc).__name__}: {exc}"
        if isinstance(exc, _FieldError):
            key, what = exc.key, str(exc)
        line = lines.key(str(key)) if key else first_line
        raise ParseError(
            f"not a usable PHH hand: {what}",
            file=file,
            line=line,
            line_text=_line(text, line - shift),
            expected="the PHH fields variant, starting_stacks and actions, well formed",
        ) from None


class _LineFinder:
    """Where keys and array items stand in the file, so every element gets its line."""

    def __init__(self, text: str, shift: int = 0) -> None:
        self.lines = text.split("\n")
        self.shift = shift

    def key(self, key: str) -> int:
        name = re.escape(key)
        pattern = re.compile(rf"""^\s*(?:{name}|"{name}"|'{name}')\s*=""")
        for i, line in enumerate(self.lines):
            if pattern.match(line):
                return i + 1 + self.shift
        return 1 + self.shift

    def items(self, key: str, count: int) -> list[int]:
        """The line each item of the array ``key = [...]`` starts on, however it is laid out.

        pokerkit writes an array on one line, we write one item per line; TOML allows any
        mix, with comments and strings holding brackets, so the array is scanned as TOML.
        """
        start = self.key(key)
        found: list[int] = []
        depth = 0
        expecting = False
        row = start - 1 - self.shift
        text = self.lines[row].split("=", 1)[1] if "=" in self.lines[row] else ""
        while depth >= 0 and len(found) < count:
            i = 0
            while i < len(text) and len(found) < count:
                ch = text[i]
                if ch == "#":
                    break
                if ch in "\"'":
                    if depth == 1 and expecting:
                        found.append(row + 1 + self.shift)
                        expecting = False
                    row, text, i = self._skip_string(row, text, i)
                    continue
                if ch in "[{":
                    if depth == 1 and expecting:
                        found.append(row + 1 + self.shift)
                        expecting = False
                    depth += 1
                    expecting = depth == 1
                elif ch in "]}":
                    depth -= 1
                    if depth <= 0:
                        depth = -1
                        break
                elif ch == ",":
                    expecting = depth == 1
                elif not ch.isspace() and depth == 1 and expecting:
                    found.append(row + 1 + self.shift)
                    expecting = False
                i += 1
            row += 1
            if depth < 0 or row >= len(self.lines):
                break
            text = self.lines[row]
        while len(found) < count:
            found.append(start)
        return found

    def _skip_string(self, row: int, text: str, i: int) -> tuple[int, str, int]:
        """Past the TOML string opening at ``text[i]`` (maybe over lines): row, text, index."""
        quote = text[i]
        if text.startswith(quote * 3, i):
            end = text.find(quote * 3, i + 3)
            while end < 0 and row + 1 < len(self.lines):
                row += 1
                text = self.lines[row]
                end = text.find(quote * 3)
            return (row, text, end + 3) if end >= 0 else (row, "", 0)
        j = i + 1
        while j < len(text) and text[j] != quote:
            j += 2 if quote == '"' and text[j] == "\\" else 1
        return row, text, j + 1


def _from_drawlab(
    data: dict[str, Any], file: str, lines: _LineFinder, warnings: tuple[Problem, ...]
) -> Hand:
    h = data["_drawlab_hand"]
    head = lines.key("_drawlab_hand")
    seat_rows = data["_drawlab_seats"]
    seat_lines = lines.items("_drawlab_seats", len(seat_rows))
    seats = tuple(
        Seat(
            seat=int(r["seat"]),
            player=str(r["player"]),
            stack=int(r["stack"]),
            line=no,
            sitting_out=bool(r.get("sitting_out", False)),
        )
        for r, no in zip(seat_rows, seat_lines, strict=True)
    )
    step_rows = data["_drawlab_steps"]
    step_lines = lines.items("_drawlab_steps", len(step_rows))
    steps = tuple(_step(r, no) for r, no in zip(step_rows, step_lines, strict=True))
    written = data.get("_drawlab_warnings", [])
    written_lines = lines.items("_drawlab_warnings", len(written))
    carried = tuple(
        Problem(str(w["code"]), Severity(w["severity"]), no, str(w["message"]))
        for w, no in zip(written, written_lines, strict=True)
    )
    t = h.get("tournament")
    tournament = (
        Tournament(
            tournament_id=str(t["tournament_id"]),
            buy_in=_opt_int(t.get("buy_in")),
            fee=_opt_int(t.get("fee")),
            level=t.get("level"),
            bounty=_opt_int(t.get("bounty")),
            currency=t.get("currency"),
        )
        if t is not None
        else None
    )
    st = h["stakes"]
    return Hand(
        site=str(h["site"]),
        hand_id=str(h["hand_id"]),
        table=str(h["table"]),
        game=Game(h["game"]),
        structure=Structure(h["structure"]),
        stakes=Stakes(
            int(st["small_blind"]),
            int(st["big_blind"]),
            int(st["small_bet"]),
            int(st["big_bet"]),
            int(st.get("ante", 0)),
        ),
        currency=str(h["currency"]),
        time=datetime.fromisoformat(h["time"]) if h.get("time") else None,
        button=_opt_int(h.get("button")),
        seats=seats,
        steps=steps,
        file=file,
        line=head,
        hero=h.get("hero"),
        dealt=_opt_cards(h.get("dealt")),
        dealt_others=tuple(
            (str(d["player"]), _int_cards(d["cards"])) for d in h.get("dealt_others", [])
        ),
        max_seats=_opt_int(h.get("max_seats")),
        rake=_opt_int(h.get("rake")),
        total_pot=_opt_int(h.get("total_pot")),
        tournament=tournament,
        net=tuple((str(n["player"]), int(n["amount"])) for n in h.get("net", [])),
        house=_house(h.get("house")),
        carried=int(h.get("carried", 0)),
        up_cards=tuple(
            (str(u["player"]), _int_cards([u["card"]])[0]) for u in h.get("up_cards", [])
        ),
        warnings=carried + warnings,
    )


def _house(value: object) -> HouseRules | None:
    """The ``house`` table of a DrawLab record: each house rule, the defaults where one is
    not written."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise TypeError(f"expected a table of house rules, got {value!r}")
    d = HOUSE
    ace = value.get("max_draw_with_ace", d.max_draw_with_ace)
    return HouseRules(
        jacks_to_open=bool(value.get("jacks_to_open", d.jacks_to_open)),
        max_draw=int(value.get("max_draw", d.max_draw)),
        max_draw_with_ace=int(ace) or None if ace is not None else None,
        no_replacement=bool(value.get("no_replacement", d.no_replacement)),
        ante_again=bool(value.get("ante_again", d.ante_again)),
        wild=str(value.get("wild", d.wild)),
        high_low=bool(value.get("high_low", d.high_low)),
        shotgun=bool(value.get("shotgun", d.shotgun)),
    )


def _step(r: Mapping[str, Any], line: int) -> Step:
    kind = r["type"]
    player = str(r.get("player", ""))
    if kind == "Post":
        return Post(
            player,
            PostKind(r["kind"]),
            int(r["amount"]),
            line,
            dead=int(r.get("dead", 0)),
            all_in=bool(r.get("all_in", False)),
        )  # fmt: skip
    if kind == "Action":
        return Action(
            player,
            int(r["street"]),
            ActionKind(r["kind"]),
            line,
            amount=int(r.get("amount", 0)),
            to=_opt_int(r.get("to")),
            all_in=bool(r.get("all_in", False)),
        )  # fmt: skip
    if kind == "Draw":
        return Draw(
            player,
            int(r["draw"]),
            int(r["count"]),
            line,
            discarded=_opt_cards(r.get("discarded")),
            kept=_opt_cards(r.get("kept")),
            received=_opt_cards(r.get("received")),
            run=int(r.get("run", 0)),
            shown=_opt_cards(r.get("shown")),
        )  # fmt: skip
    if kind == "Show":
        return Show(
            player, _int_cards(r["cards"]), line, bool(r.get("mucked", False)),
            int(r.get("run", 0)),
        )  # fmt: skip
    if kind == "Muck":
        return Muck(player, line)
    if kind == "Uncalled":
        return Uncalled(player, int(r["amount"]), line)
    if kind == "Collect":
        return Collect(player, int(r["amount"]), line, _opt_int(r.get("pot")), int(r.get("run", 0)))
    if kind == "Note":
        who = r.get("player")
        player_of = None if who is None else str(who)
        return Note(str(r["kind"]), str(r["text"]), line, player_of, _opt_int(r.get("amount")))
    raise ValueError(f"unknown step type {kind!r}")


def _opt_int(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an integer, got {value!r}")
    return value


def _int_cards(value: object) -> Cards:
    if not isinstance(value, list) or not all(
        isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 54 for c in value
    ):  # 52 and 53 are the jokers of a home game (engine.cards.JOKERS)
        raise ValueError(f"expected card numbers 0-53, got {value!r}")
    return tuple(value)


def _opt_cards(value: object) -> Cards | None:
    return None if value is None else _int_cards(value)


# ---- a PHH file from elsewhere: the standard fields only


def _from_standard(
    data: dict[str, Any], file: str, lines: _LineFinder, warnings: tuple[Problem, ...]
) -> Hand:
    variant = str(data["variant"])
    if variant not in VARIANTS:
        raise ValueError(
            f"variant {variant!r} is not a draw game DrawLab reads "
            f"(known: {', '.join(sorted(VARIANTS))})"
        )
    game, structure = VARIANTS[variant]
    stacks = [_hundredths(v) for v in data["starting_stacks"]]
    n = len(stacks)
    names = _player_names(data.get("players"), n)
    numbers = [int(s) for s in data.get("seats", range(1, n + 1))]
    if len(names) != n or len(numbers) != n:
        raise ValueError("players, seats and starting_stacks differ in length")
    antes = [_hundredths(v) for v in data.get("antes", [0] * n)]
    blinds = [_hundredths(v) for v in data.get("blinds_or_straddles", [0] * n)]
    if n == 2:
        antes.reverse()
        blinds.reverse()
    stacks_line = lines.key("starting_stacks")
    seats = tuple(Seat(numbers[i], names[i], stacks[i], stacks_line) for i in range(n))
    forced = _standard_posts(
        names,
        antes,
        blinds,
        ante_line=lines.key("antes"),
        post_line=lines.key("blinds_or_straddles"),
    )
    play = _StandardActions(names, seats, forced)
    actions = [str(a) for a in data["actions"]]
    for text, no in zip(actions, lines.items("actions", len(actions)), strict=True):
        play.read(text, no)
    steps = play.steps
    steps.extend(_payouts(data, names, seats, steps, lines))
    hero, dealt, others = play.hero, play.dealt, play.others
    if hero is not None and others:
        # every player's cards known (a broadcast's hand, the WSOP final tables): no seat
        # is the one the history was written from, so none is the hero
        others.insert(0, (hero, dealt or ()))
        hero, dealt = None, None
    when = _standard_time(data)
    small_bet = _hundredths(data.get("small_bet", data.get("min_bet", 0)))
    big_bet = _hundredths(data.get("big_bet", data.get("min_bet", 0)))
    posted = forced.blinds
    small_blind = posted[0] if len(posted) >= 2 else 0
    big_blind = posted[1] if len(posted) >= 2 else (posted[0] if posted else small_bet)
    currency, tournament = _money_of(data)
    return Hand(
        site=SITE,
        hand_id=str(data.get("hand", "")),
        table=str(data.get("table", "")),
        game=game,
        structure=structure,
        stakes=Stakes(small_blind, big_blind, small_bet, big_bet, forced.ante),
        currency=currency,
        time=when,
        button=numbers[-1] if n else None,
        seats=seats,
        steps=tuple(steps),
        file=file,
        line=lines.key("variant"),
        hero=hero,
        dealt=dealt,
        dealt_others=tuple(others),
        max_seats=_opt_int(data.get("seat_count")),
        net=_nets(data, names, stacks),
        warnings=warnings,
        tournament=tournament,
    )


@dataclass(frozen=True, slots=True)
class _Forced:
    """The forced bets of a standard PHH hand: their posts, what each blind put in the
    first betting round, the live blinds in posting order and the table's ante."""

    posts: list[Step]
    put_in: dict[str, int]
    blinds: list[int]
    ante: int


def _standard_posts(
    names: list[str], antes: list[int], blinds: list[int], *, ante_line: int, post_line: int
) -> _Forced:
    """The antes and blinds as posts (heads-up already in posting order: see the caller)."""
    n = len(names)
    steps: list[Step] = []
    put_in: dict[str, int] = {}
    # The table's ante is what most players pay (less is an all-in for less); more on one
    # player is dead money (a missed blind, a big-blind ante), posted with that player's
    # blind where there is one.
    ante = max(antes, key=lambda a: (antes.count(a), a), default=0)
    dead = [max(a - ante, 0) for a in antes]
    for i, amount in enumerate(antes):
        if min(amount, ante):
            steps.append(Post(names[i], PostKind.ANTE, min(amount, ante), ante_line))
    # Small blind first: heads-up that is the button, the last player (see the reversal).
    # A negative blind is pokerkit's "post bet" (a player who just sat down posting to
    # play at once): live money, posted after the blinds, a big blind when it is one.
    posting = range(n - 1, -1, -1) if n == 2 else range(n)
    live_blinds = [(i, blinds[i]) for i in posting if blinds[i] > 0]
    post_bets = [(i, -blinds[i]) for i in posting if blinds[i] < 0]
    posted = [b for _, b in live_blinds]
    for rank, (i, amount) in enumerate(live_blinds):
        post = (PostKind.SMALL_BLIND, PostKind.BIG_BLIND)[rank] if rank < 2 else PostKind.EXTRA
        steps.append(Post(names[i], post, amount + dead[i], post_line, dead=dead[i]))
        dead[i] = 0
        put_in[names[i]] = amount
    for i, amount in post_bets:
        post = PostKind.BIG_BLIND if amount == max(posted, default=0) else PostKind.EXTRA
        steps.append(Post(names[i], post, amount + dead[i], post_line, dead=dead[i]))
        dead[i] = 0
        put_in[names[i]] = amount
    for i, amount in enumerate(dead):
        if amount:
            steps.append(Post(names[i], PostKind.EXTRA, amount, ante_line, dead=amount))
    return _Forced(posts=steps, put_in=put_in, blinds=posted, ante=ante)


class _StandardActions:
    """A standard PHH hand's ``actions``, one at a time, as steps after the forced bets:
    which street and draw each belongs to, and the cards dealt and drawn."""

    def __init__(self, names: list[str], seats: tuple[Seat, ...], forced: _Forced) -> None:
        self.names = names
        self.seats = seats
        self.steps: list[Step] = list(forced.posts)
        self.put_in = dict(forced.put_in)
        self.hero: str | None = None
        self.dealt: Cards | None = None
        self.others: list[tuple[str, Cards]] = []
        self.street = 0
        self.draw = 0
        self.in_draw = False
        self.last_draw: dict[str, int] = {}  # each player's last draw, by its step's index
        self.drawn: set[str] = set()
        self.dealt_once: set[str] = set()

    def read(self, text: str, no: int) -> None:
        body, _, comment = text.partition("#")
        words = body.split()
        if not words and _SHOW_AFTER_FOLDS.match(comment):
            words = comment.split()  # written so by write_phh: pokerkit has no showdown there
        if not words:
            if comment.strip():
                self.steps.append(Note("comment", comment.strip(), no))
            return
        if words[0] == "d" and len(words) == 4 and words[1] == "dh":
            self.deal(_name_at(self.names, words[2]), _phh_cards(words[3]))
            return
        if words[0] == "d":
            raise ValueError(f"unknown dealer action {text!r}")
        who = _name_at(self.names, words[0])
        verb = words[1] if len(words) > 1 else ""
        if verb == "sd":
            self.discard(who, words, no)
        elif verb == "sm":
            self.show(who, words, text, no)
        else:
            self.bet(who, verb, words, text, no)

    def deal(self, who: str, cards: Cards | None) -> None:
        """The first deal's cards (the hero's first known), or a draw's cards received."""
        if who not in self.dealt_once:
            self.dealt_once.add(who)
            if cards is not None:
                if self.hero is None:
                    self.hero, self.dealt = who, cards
                else:
                    self.others.append((who, cards))
        elif who in self.last_draw and cards is not None:
            k = self.last_draw[who]
            d = self.steps[k]
            if isinstance(d, Draw):  # a standard draw ("sd") has no kept or shown cards
                self.steps[k] = draw_with(
                    d, kept=d.kept, received=cards, shown=d.shown, discarded=d.discarded
                )

    def discard(self, who: str, words: list[str], no: int) -> None:
        # A draw follows a betting round, or, when nobody can bet (a player all-in),
        # the draw before it: a player drawing again begins the next draw.
        if not self.in_draw:
            self.draw, self.in_draw, self.drawn = self.street + 1, True, set()
        elif who in self.drawn:
            self.draw, self.drawn = self.draw + 1, set()
        self.drawn.add(who)
        discarded = _phh_cards(words[2]) if len(words) > 2 else ()
        count = len(words[2]) // 2 if len(words) > 2 else 0
        self.steps.append(
            Draw(
                who,
                self.draw,
                count,
                no,
                discarded=discarded,
                received=() if not count else None,
            )
        )
        self.last_draw[who] = len(self.steps) - 1

    def show(self, who: str, words: list[str], text: str, no: int) -> None:
        if words[2:] == ["-"]:  # pokerkit's "show, whatever the cards": none are known
            self.steps.append(Note("show", text, no, who))
        elif len(words) > 2:
            cards = _phh_cards(words[2])
            if cards is not None:
                self.steps.append(Show(who, cards, no))
        else:
            self.steps.append(Muck(who, no))

    def bet(self, who: str, verb: str, words: list[str], text: str, no: int) -> None:
        if self.in_draw:
            self.street, self.in_draw, self.put_in = self.draw, False, {}
        put_in = self.put_in
        level = max(put_in.values(), default=0)
        before = put_in.get(who, 0)
        street = self.street
        if verb == "f":
            self.steps.append(Action(who, street, ActionKind.FOLD, no))
        elif verb == "cc":
            owed = max(level - before, 0)
            owed = min(owed, _stack_left(who, self.seats, self.steps))
            kind = ActionKind.CALL if owed else ActionKind.CHECK
            put_in[who] = before + owed
            self.steps.append(Action(who, street, kind, no, amount=owed))
        elif verb == "cbr" and len(words) == 3:
            to = _hundredths(Decimal(words[2]))
            kind = ActionKind.RAISE if level else ActionKind.BET
            put_in[who] = to
            raised_to = to if kind is ActionKind.RAISE else None
            self.steps.append(Action(who, street, kind, no, amount=to - before, to=raised_to))
        else:
            raise ValueError(f"unknown action {text!r}")


def _name_at(names: list[str], token: str) -> str:
    """The player a PHH player token (``p3``) names."""
    return names[_player_index(token, len(names))]


def _money_of(data: Mapping[str, Any]) -> tuple[str, Tournament | None]:
    """The hand's currency, and its tournament where it is one.  A hand that names no
    currency but an event (the WSOP final tables) is a tournament's: its amounts are
    chips, and the event's name is the tournament's, so it is never taken for a cash
    game in a blank currency."""
    currency = str(data.get("currency", "")).strip()
    event = str(data.get("event", "")).strip()
    if currency or not event:
        return currency, None
    level = data.get("level")
    return CHIPS, Tournament(tournament_id=event,
                             level=None if level is None else str(level))


class _FieldError(ValueError):
    """A field that is there but wrong: the error points at its line."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


def _per_player(data: Mapping[str, Any], key: str, n: int) -> list[int] | None:
    """A per-player amount field (``winnings``, ``finishing_stacks``) in hundredths."""
    values = data.get(key)
    if values is None:
        return None
    if not isinstance(values, list) or len(values) != n:
        raise _FieldError(key, f"{key} must list one amount per player ({n})")
    try:
        amounts = [_hundredths(v) for v in values]
    except (TypeError, ValueError) as exc:
        raise _FieldError(key, f"{key}: {exc}") from None
    if any(a < 0 for a in amounts):
        raise _FieldError(key, f"{key} holds a negative amount")
    return amounts


def _payouts(
    data: Mapping[str, Any],
    names: Sequence[str],
    seats: Sequence[Seat],
    steps: Sequence[Step],
    lines: _LineFinder,
) -> list[Collect]:
    """What each player took from the pots, as the file states it: one ``Collect`` each.

    PHH's ``winnings`` are the pots a player collected, after rake, summed per player: the
    standard has no split by pot, so each Collect has ``pot=None`` and the replay checks
    the player's total only.  Without ``winnings``, ``finishing_stacks`` say it: the final
    stack less what was left behind (starting stack less the chips put in) is what came
    back, the pots plus any uncalled bet returned silently (the "phh" profile accepts both
    ways of counting it).  A file with neither states no payout.
    """
    n = len(names)
    winnings = _per_player(data, "winnings", n)
    if winnings is not None:
        line = lines.key("winnings")
        return [Collect(names[i], w, line) for i, w in enumerate(winnings) if w]
    finishing = _per_player(data, "finishing_stacks", n)
    if finishing is None:
        return []
    line = lines.key("finishing_stacks")
    back = [f - _stack_left(names[i], seats, steps) for i, f in enumerate(finishing)]
    return [Collect(names[i], b, line) for i, b in enumerate(back) if b > 0]


def _nets(
    data: Mapping[str, Any], names: Sequence[str], stacks: Sequence[int]
) -> tuple[tuple[str, int], ...]:
    """Each player's result, when the file gives the finishing stacks."""
    finishing = _per_player(data, "finishing_stacks", len(names))
    if finishing is None:
        return ()
    return tuple((p, f - s) for p, f, s in zip(names, finishing, stacks, strict=True))


def _player_names(given: object, n: int) -> list[str]:
    """The players' names; the standard leaves an anonymous player's name empty, so the
    position name (``p3``) stands in, and a name given twice gets its position added."""
    if given is None:
        return [f"p{i + 1}" for i in range(n)]
    if not isinstance(given, list):
        raise TypeError(f"players must be a list of names, not {given!r}")
    names = [str(p) or f"p{i + 1}" for i, p in enumerate(given)]
    return [f"{name} (p{i + 1})" if names.count(name) > 1 else name for i, name in enumerate(names)]


def _stack_left(player: str, seats: Sequence[Seat], steps: Sequence[Step]) -> int:
    stack = next((s.stack for s in seats if s.player == player), 0)
    spent = 0
    for s in steps:
        if isinstance(s, Post | Action) and s.player == player:
            spent += s.amount
    return max(stack - spent, 0)


def _player_index(word: str, n: int) -> int:
    if not re.fullmatch(r"p\d+", word) or not 1 <= int(word[1:]) <= n:
        raise ValueError(f"not a player of this hand: {word!r}")
    return int(word[1:]) - 1


def _phh_cards(text: str) -> Cards | None:
    """PHH cards, ``7s5d``; unknown ``??`` cards make the whole group unknown."""
    if "?" in text:
        return None
    return parse_cards(text, distinct=False)


def _hundredths(value: object) -> int:
    if isinstance(value, bool):
        raise TypeError(f"not an amount: {value!r}")
    if isinstance(value, int):
        return value * 100
    if isinstance(value, Decimal):
        cents = value * 100
        if cents != cents.to_integral_value():
            raise ValueError(f"an amount finer than hundredths: {value}")
        return int(cents)
    raise TypeError(f"not an amount: {value!r}")


def _standard_time(data: Mapping[str, Any]) -> datetime | None:
    clock = data.get("time")
    if not isinstance(clock, time) or not all(k in data for k in ("year", "month", "day")):
        return None
    when = datetime(int(data["year"]), int(data["month"]), int(data["day"]), clock.hour,
                    clock.minute, clock.second)  # fmt: skip
    zone = data.get("time_zone", "UTC")
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return when.replace(tzinfo=ZoneInfo(str(zone))).astimezone(UTC)
    except (ZoneInfoNotFoundError, ValueError):
        return when


_TOML_AT = re.compile(r"line (\d+), column (\d+)")


def _toml_position(message: str, text: str) -> tuple[int, int]:
    m = _TOML_AT.search(message)
    if m:
        return int(m.group(1)), int(m.group(2))
    if "end of document" in message:
        lines = text.split("\n")
        return len(lines), len(lines[-1]) + 1
    return 1, 1


def _line(text: str, number: int) -> str:
    lines = text.split("\n")
    return lines[number - 1][:200] if 0 < number <= len(lines) else ""
