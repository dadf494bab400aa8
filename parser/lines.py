"""Line grammars: the ``.lark`` files' line terminals as fast whole-line matchers.

Hand histories are line-oriented: every line is one fact.  A site's grammar file names
each kind of line as a Lark terminal with capture groups; Lark loads and checks the file
through its public API (``Lark.open`` and ``.terminals``: imports, composition of shared
pieces), and this module compiles each terminal to an anchored regular expression.  A
reader then classifies a line by trying the kinds allowed where it stands, in order,
cheapest test first: a kind whose pattern starts with literal text (its *lead*: "Seat ",
"*** ") is tried only on lines starting with that text's first character, and each kind's
longest literal piece (its *needle*) must occur in the line before the regular expression
runs at all.  That keeps reading at many thousand hands a second where a per-token parse
would not.

Reading is tolerant and the replay strict: ``read_lines`` walks a hand's lines through a
reader's sections (header, seats, play, summary...) and hands each known line's fields to
its handler; a line it cannot place - unknown, or out of place - is an ``UNKNOWN_LINE``
warning on the hand, never the end of it.  Order of play is the replay's to judge.  Only
a line recognisably about chips or cards whose amount or cards do not read is a
``ParseError``.

Money and card helpers live here too because every site writes them the same few ways:
one money parser and one error type (``FieldError``) for every reader.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from lark import Lark

from engine.cards import JOKER, JOKER_TEXT, SECOND_JOKER, CardError, Cards, format_card, parse_cards
from engine.problems import UNKNOWN_LINE
from parser.builder import HandBuilder
from parser.outcome import HandText, ParseError

GRAMMARS = Path(__file__).parent / "grammars"
_META = set(".^$*+?{}[]|()")


@dataclass(frozen=True, slots=True)
class LineKind:
    name: str
    regex: re.Pattern[str]
    needle: str
    lead: str = ""  # the literal text every line of the kind starts with ("" when none)


class LineGrammar:
    """The line terminals of one ``.lark`` file, compiled once."""

    def __init__(self, filename: str) -> None:
        lark = Lark.open(str(GRAMMARS / filename), parser="lalr", lexer="basic")
        self.kinds: dict[str, LineKind] = {}
        self._sources: dict[str, str] = {}
        for term in lark.terminals:
            source = term.pattern.to_regexp()
            self._sources[term.name] = source
            self.kinds[term.name] = LineKind(
                term.name, re.compile(source + r"\Z"), literal_needle(source), literal_lead(source)
            )

    def group(self, names: Iterable[str]) -> tuple[LineKind, ...]:
        return tuple(self.kinds[n] for n in names)

    def regex(self, name: str) -> re.Pattern[str]:
        return self.kinds[name].regex

    def prefix(self, name: str) -> re.Pattern[str]:
        """The terminal as a pattern for the start of a line (not anchored at its end): a
        line's first part, read apart from what follows it."""
        return re.compile(self._sources[name])

    def classifier(self, names: Iterable[str]) -> Classifier:
        """A ``Classifier`` over the named kinds, tried in the order given."""
        return Classifier(self.group(names))


class Classifier:
    """The first of a fixed group of kinds, in the order given, whose pattern matches all of a
    line: a line's kind and match, or None.

    Built once per group: each kind's tests are unpacked, and the kinds that can match a
    line are looked up by its first character, so a line of play ("Alice: folds") does not
    test the needles of the kinds that start with "Seat " or "*** ", and a seat line skips
    those starting with "Dealt to ".  Skipping a kind whose lead the line does not start with
    changes no answer: its pattern, anchored at the line's start, could not match.
    """

    __slots__ = ("_by_first", "_unled", "kinds")

    def __init__(self, kinds: Sequence[LineKind]) -> None:
        self.kinds = tuple(kinds)
        tests = [((k.needle, k.regex.match, k.name), k.lead) for k in self.kinds]
        self._unled = tuple(test for test, lead in tests if not lead)
        self._by_first = {
            first: tuple(test for test, lead in tests if not lead or lead[0] == first)
            for first in {lead[0] for _, lead in tests if lead}
        }

    def __call__(self, line: str) -> tuple[str, re.Match[str]] | None:
        for needle, match, name in self._by_first.get(line[:1], self._unled):
            if needle in line:
                m = match(line)
                if m is not None:
                    return name, m
        return None


def literal_lead(regexp: str) -> str:
    """The literal text every match of the pattern starts with ("" when it starts with a
    group, a class or a quantified character, or has a '|' outside groups)."""
    if "|" in _top_level(regexp):
        return ""
    lead: list[str] = []
    i = 0
    while i < len(regexp):
        ch = regexp[i]
        if ch == "\\":
            nxt = regexp[i + 1 : i + 2]
            if not nxt or nxt.isalnum():  # a class (\d, \s) or an anchor (\Z)
                break
            lead.append(nxt)
            i += 2
            continue
        if ch in _META:
            if ch in "?*{" and lead:  # the character before is optional
                lead.pop()
            break
        lead.append(ch)
        i += 1
    return "".join(lead)


def literal_needle(regexp: str) -> str:
    """The longest run of literal text the pattern always requires, outside any group.

    Only text at nesting depth 0 counts, and a character followed by a quantifier does
    not, so the needle occurs in every line the pattern matches.
    """
    best = ""
    run: list[str] = []
    depth = 0
    i = 0
    n = len(regexp)

    def close() -> None:
        nonlocal best
        if len(run) > len(best):
            best = "".join(run)
        run.clear()

    while i < n:
        ch = regexp[i]
        if ch == "\\" and i + 1 < n:
            nxt = regexp[i + 1]
            lit = None if nxt.isalnum() else nxt
            i += 2
        elif ch == "[":
            close()
            j = i + 1
            if j < n and regexp[j] == "]":
                j += 1
            while j < n and regexp[j] != "]":
                j += 2 if regexp[j] == "\\" else 1
            i = j + 1
            continue
        elif ch in "(":
            close()
            depth += 1
            i += 1
            continue
        elif ch == ")":
            depth -= 1
            i += 1
            close()
            continue
        elif ch in _META:
            if ch in "?*{" and run:
                run.pop()
            close()
            i += 1
            continue
        else:
            lit = ch
            i += 1
        if depth or lit is None:
            close()
            continue
        if i < n and regexp[i] in "?*{":
            close()
            continue
        run.append(lit)
    close()
    if "|" in _top_level(regexp):
        return ""
    return best


def _top_level(regexp: str) -> str:
    """The characters of ``regexp`` outside groups and classes (to spot top-level '|')."""
    out: list[str] = []
    depth = 0
    i = 0
    while i < len(regexp):
        ch = regexp[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[":
            j = i + 1
            if j < len(regexp) and regexp[j] == "]":
                j += 1
            while j < len(regexp) and regexp[j] != "]":
                j += 2 if regexp[j] == "\\" else 1
            i = j + 1
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0:
            out.append(ch)
        i += 1
    return "".join(out)


_CARD_OF_TEXT: dict[str, int] = {}
for _r, _rc in enumerate("23456789TJQKA"):
    for _s, _sc in enumerate("cdhs"):
        for _text in {_rc + _sc, _rc.lower() + _sc, _rc + _sc.upper(), _rc.lower() + _sc.upper()}:
            _CARD_OF_TEXT[_text] = _r * 4 + _s
        if _rc == "T":
            _CARD_OF_TEXT["10" + _sc] = _CARD_OF_TEXT["10" + _sc.upper()] = _r * 4 + _s

SECOND_JOKER_TEXT = "Jk2"
"""How DrawLab's home-game text writes the second joker of a two-joker deck: ``Jk`` alone
cannot say which joker a line means once the two are in different hands."""
_CARD_OF_TEXT[JOKER_TEXT] = JOKER
_CARD_OF_TEXT[SECOND_JOKER_TEXT] = SECOND_JOKER


def spaced_cards(text: str) -> Cards:
    """Cards written apart, "7s 5d 4h", the way sites print them; repeats are kept.

    A fast path for the common case: any other text goes through ``engine.cards``, which
    raises ``CardError`` for what is not a card.
    """
    try:
        cards = tuple(map(_CARD_OF_TEXT.__getitem__, text.split()))
    except KeyError:
        return parse_cards(text, distinct=False)
    if JOKER_TEXT in text and cards.count(JOKER) > 1:  # "Jk Jk": the second joker
        return parse_cards(text, distinct=False)
    return cards


def cards_text(cards: Cards) -> str:
    """Cards written apart for a history ("7s 5d Jk"), the second joker as ``Jk2``."""
    return " ".join(SECOND_JOKER_TEXT if c == SECOND_JOKER else format_card(c) for c in cards)


class FieldError(ValueError):
    """A field of a known kind of line that does not read: an amount or cards."""


MoneyError = FieldError
"""The name the PokerStars reader catches: the same error as every other reader's."""

_MONEY = re.compile(r"[$€£₹]?\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?\s?(?:[$€£₹]|EUR|USD|GBP)?")


_SIGNS: Final = frozenset("$€£₹")
_DECIMAL_SCALE: Final = (0, 10, 1)  # "5" after the point is 50 hundredths, "05" is 5


@functools.lru_cache(maxsize=8192)
def money(text: str | None) -> int:
    """An amount as exact hundredths: ``"$1,500.50"`` is 150050, chips ``"1,500"`` 150000.

    Every site's way: a sign before (``$0.05``) or after (``25€``), thousands grouped by
    commas, at most two decimals.  Play money and chips use the same hundredths, so every
    amount is an exact int; anything else (``1,2,3``, ``$1.234``, a missing field) is a
    ``FieldError``.
    """
    if text is None:
        raise FieldError("missing amount")
    # The commonest forms, "$7.30", "1500", "€0.5", the quick way: a sign or none, ASCII
    # digits, at most two decimals, nothing else (so the expression would read them so).
    body = text[1:] if text[:1] in _SIGNS else text
    whole, dot, frac = body.partition(".")
    if whole.isdigit() and whole.isascii():
        if not dot:
            return int(whole) * 100
        if 0 < len(frac) <= 2 and frac.isdigit() and frac.isascii():
            return int(whole) * 100 + int(frac) * _DECIMAL_SCALE[len(frac)]
    m = _MONEY.fullmatch(text.strip())
    if m is None:
        raise FieldError(f"not an amount: {text!r}")
    hundredths = m.group(2) or "0"
    return int(m.group(1).replace(",", "")) * 100 + int(hundredths.ljust(2, "0"))


def cards(text: str | None) -> Cards:
    """Card text as the sites write it (``7s 5d``, ``7s,5d``, ``7s, 5d``); repeats kept.

    A repeated card is site data the replay must flag, not something to refuse here;
    text that is no card is a ``FieldError``.
    """
    if text is None:
        return ()
    try:
        return spaced_cards(text)
    except CardError as e:
        raise FieldError(str(e)) from None


# --- cutting a file into hands ---------------------------------------------------------


def clean(line: str) -> str:
    """A line without trailing blanks and the U+FFFD a truncated final UTF-16 byte leaves."""
    return line.rstrip().rstrip("\ufffd").rstrip()


def join_numbered(lines: Iterable[tuple[int, str]], first: int) -> str:
    """Lines of one hand back to text, blank lines put back where numbers skip.

    The encoding layer may drop the blank lines a client doubled; putting them back keeps
    "line k of the chunk" equal to "line first + k - 1 of the file".
    """
    out: list[str] = []
    expect = first
    for no, text in lines:
        if no > expect:
            out.extend([""] * (no - expect))
        out.append(text)
        expect = no + 1
    return "\n".join(out)


def numbered_hands(
    lines: Iterable[tuple[int, str]],
    starts: Callable[[str], bool],
    file: str,
    site: str,
    skip: Callable[[str], bool] = lambda s: False,
) -> Iterator[HandText]:
    """Cut numbered lines into hands at lines where ``starts`` holds, lazily.

    Lines before the first hand that are not separators (``skip``) become a chunk of
    their own, so the reader can say what they are instead of dropping them.
    """
    buf: list[tuple[int, str]] = []
    for no, raw in lines:
        line = clean(raw)
        if starts(line) and buf:
            yield _chunk(buf, file, site)
            buf = []
        if not line or skip(line):
            if buf:
                buf.append((no, ""))
            continue
        buf.append((no, line))
    if buf:
        yield _chunk(buf, file, site)


def _chunk(buf: list[tuple[int, str]], file: str, site: str) -> HandText:
    while buf:
        _, last = buf[-1]
        if last:
            break
        buf.pop()
    return numbered_text(buf, file, site)


def numbered_text(lines: Sequence[tuple[int, str]], file: str, site: str) -> HandText:
    """One hand's numbered lines (at least one) as its text, numbered from its first line."""
    first, _ = lines[0]
    return HandText(file, first, join_numbered(lines, first), site)


# --- reading one hand's lines ----------------------------------------------------------

LineHandler = Callable[[re.Match[str], int, str], object]
"""Called with a line's match (its fields read by the grammar's group names), its 1-based
line in the file, and its text."""

CHIP_AND_CARD_VERBS: tuple[str, ...] = (
    "posts", "antes", "calls", "bets", "raises", "discards", "draws", "changed",
    "stands pat", "shows", "mucks", "wins", "ties", "collected", "adds", "is dealt",
)  # fmt: skip
"""Words that, after a seated player's name, make a line about chips or cards."""


def describe(kind: str) -> str:
    return kind.lower().replace("_", " ")


def about_chips_or_cards(
    text: str, players: Iterable[str], verbs: Sequence[str] = CHIP_AND_CARD_VERBS
) -> bool:
    """Whether ``text`` is a seated player's name then a betting, drawing or showing verb.

    Such a line that no kind of line reads states chips or cards we cannot read: a parse
    error, where any other unknown line is only a warning.
    """
    for player in players:
        if not text.startswith(player):
            continue
        rest = text[len(player) :]
        if rest.startswith(":"):
            rest = rest[1:]
        if not rest.startswith(" "):
            continue
        rest = rest[1:]
        for verb in verbs:
            if rest.startswith(verb) and (len(rest) == len(verb) or rest[len(verb)] == " "):
                return True
    return False


def betting_handlers(b: HandBuilder) -> dict[str, LineHandler]:
    """The handlers of FOLDS, CHECKS, CALLS, BETS and RAISES for a site whose calls and bets
    state the chips they add and whose raises state the street total ("raises to"): their
    groups named ``player``, ``amount`` (``to`` for a raise) and ``all_in``."""
    return {
        "FOLDS": lambda m, line, _t: b.fold(m["player"], line),
        "CHECKS": lambda m, line, _t: b.check(m["player"], line),
        "CALLS": lambda m, line, _t: b.call(m["player"], line, money(m["amount"]), all_in(m)),
        "BETS": lambda m, line, _t: b.bet_adding(m["player"], line, money(m["amount"]), all_in(m)),
        "RAISES": lambda m, line, _t: b.bet_to(m["player"], line, money(m["to"]), all_in(m)),
    }


def read_lines(
    chunk: HandText,
    sections: Sequence[Classifier],
    handlers: Mapping[str, LineHandler],
    builder: HandBuilder,
    first: int = 1,
    verbs: Sequence[str] = CHIP_AND_CARD_VERBS,
) -> None:
    """Feed each line of ``chunk`` from its ``first`` (0-based) to the handler of its kind.

    ``sections`` are tried forward only: a line is looked for in the current section,
    then in the later ones (moving there when it is found).  A line found nowhere, or
    only in an earlier section (out of place), is an ``UNKNOWN_LINE`` warning on the
    builder - unless it is about chips or cards (``about_chips_or_cards``): then, as for
    a known line whose field does not read, a ``ParseError`` at that line.
    """
    lines = chunk.text.split("\n")
    where = 0
    count = len(sections)
    for i in range(first, len(lines)):
        text = lines[i]
        if not text:
            continue
        line = chunk.line + i
        found = sections[where](text)
        if found is None:
            for later in range(where + 1, count):
                found = sections[later](text)
                if found is not None:
                    where = later
                    break
        if found is None:
            if any(sections[earlier](text) is not None for earlier in range(where)):
                builder.warn(UNKNOWN_LINE, line, f"a line out of place: {text[:200]}")
                continue
            if about_chips_or_cards(text, (s.player for s in builder.seats), verbs):
                raise ParseError(
                    "a line about chips or cards that does not read",
                    file=chunk.file,
                    line=line,
                    line_text=text,
                    expected="an amount like $1.50 or 1,500, or cards like [7s 5d]",
                )
            builder.unknown_line(line, text)
            continue
        kind, m = found
        handler = handlers.get(kind)
        if handler is None:
            continue
        try:
            handler(m, line, text)
        except ValueError as e:  # FieldError, or a date that is no date
            raise ParseError(
                str(e),
                file=chunk.file,
                line=line,
                line_text=text,
                expected=f"a valid {describe(kind)} line",
            ) from None


def all_in(m: re.Match[str]) -> bool:
    """Whether a line of chips says its player is all in: its ``all_in`` group matched."""
    return m["all_in"] is not None


def req(value: str | None) -> str:
    """A field its pattern always captures (the grammar guarantees it is there)."""
    if value is None:
        raise FieldError("a required field is missing")
    return value


def header_error(chunk: HandText, error: ValueError) -> ParseError:
    """A field of the hand's header that does not read (a date that is no date)."""
    first = chunk.text.split("\n", 1)[0]
    return ParseError(
        f"unreadable field: {error}",
        file=chunk.file,
        line=chunk.line,
        line_text=first,
        expected="a valid header",
    )


def no_seats(chunk: HandText) -> ParseError:
    """A hand with a header but no seat that reads: nothing to replay."""
    return ParseError(
        "a hand without seats",
        file=chunk.file,
        line=chunk.line,
        line_text=chunk.text.split("\n", 1)[0],
        expected="seat lines like 'Seat 1: Player (1,500)' after the header",
    )


@functools.cache
def site_grammar(name: str) -> LineGrammar:
    """One compiled grammar per file and process: compiling costs more than a hand."""
    return LineGrammar(name)
