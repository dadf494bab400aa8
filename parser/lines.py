"""Line grammars: the ``.lark`` files' line terminals as fast whole-line matchers.

Hand histories are line-oriented: every line is one fact.  A site's grammar file names
each kind of line as a Lark terminal with named groups; Lark loads and checks the file
(imports, composition of shared pieces), and this module compiles each terminal to an
anchored regular expression.  A reader then classifies a line by trying the kinds allowed
where it stands, cheapest test first: each kind's longest literal piece (its *needle*)
must occur in the line before the regular expression runs at all.  That keeps reading
at many thousand hands a second where a per-token parse would not.

Money helpers live here too because every site writes money the same few ways.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from lark import Lark

from engine.cards import Cards, parse_cards

GRAMMARS = Path(__file__).parent / "grammars"
_META = set(".^$*+?{}[]|()")


@dataclass(frozen=True, slots=True)
class LineKind:
    name: str
    regex: re.Pattern[str]
    needle: str


class LineGrammar:
    """The line terminals of one ``.lark`` file, compiled once."""

    def __init__(self, filename: str) -> None:
        lark = Lark.open(str(GRAMMARS / filename), parser="lalr", lexer="basic")
        self.kinds: dict[str, LineKind] = {}
        for term in lark.terminals:
            source = term.pattern.to_regexp()
            self.kinds[term.name] = LineKind(
                term.name, re.compile(source + r"\Z"), literal_needle(source)
            )

    def group(self, names: Iterable[str]) -> tuple[LineKind, ...]:
        return tuple(self.kinds[n] for n in names)

    def regex(self, name: str) -> re.Pattern[str]:
        return self.kinds[name].regex


def classify(line: str, kinds: Sequence[LineKind]) -> tuple[str, re.Match[str]] | None:
    """The first kind whose needle is in ``line`` and whose pattern matches all of it."""
    for kind in kinds:
        if kind.needle in line:
            m = kind.regex.match(line)
            if m is not None:
                return kind.name, m
    return None


class Classifier:
    """``classify`` over one fixed group of kinds, each kind's test unpacked once.

    The result is ``classify(line, kinds)``'s: the kinds are tried in the same order; only
    the per-kind attribute lookups are gone, which matters on a reader's hottest path.
    """

    __slots__ = ("_tests", "kinds")

    def __init__(self, kinds: Sequence[LineKind]) -> None:
        self.kinds = tuple(kinds)
        self._tests = tuple((k.needle, k.regex.match, k.name) for k in self.kinds)

    def __call__(self, line: str) -> tuple[str, re.Match[str]] | None:
        for needle, match, name in self._tests:
            if needle in line:
                m = match(line)
                if m is not None:
                    return name, m
        return None


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


def spaced_cards(text: str) -> Cards:
    """Cards written apart, "7s 5d 4h", the way sites print them; repeats are kept.

    A fast path for the common case: any other text goes through ``engine.cards``, which
    raises ``CardError`` for what is not a card.
    """
    try:
        return tuple(map(_CARD_OF_TEXT.__getitem__, text.split()))
    except KeyError:
        return parse_cards(text, distinct=False)


class MoneyError(ValueError):
    """Text that is not an amount of money."""


_MONEY = re.compile(r"[$€£₹]?(\d[\d,]*)(?:\.(\d{1,2}))?")


@functools.lru_cache(maxsize=8192)
def money(text: str) -> int:
    """An amount as exact hundredths: ``"$1,500.50"`` is 150050, chips ``"1,500"`` 150000."""
    m = _MONEY.fullmatch(text.strip())
    if m is None:
        raise MoneyError(f"not an amount: {text!r}")
    whole = int(m.group(1).replace(",", ""))
    frac = m.group(2) or "0"
    return whole * 100 + int(frac.ljust(2, "0"))


def format_money(amount: int, symbol: str = "$") -> str:
    """Hundredths back to the way sites write them: ``$1.50``, ``$2``, ``1500`` for chips."""
    sign = "-" if amount < 0 else ""
    whole, cents = divmod(abs(amount), 100)
    text = f"{whole}" if cents == 0 else f"{whole}.{cents:02d}"
    return f"{sign}{symbol}{text}"
