"""Lark grammars whose tokens are whole lines, shared by the text sites' readers.

A hand history is a sequence of lines, each of a known kind.  Each site's ``.lark`` file
names every kind of line as a terminal (a regular expression over one line, its fields in
capture groups) and the order they may come in as rules.  Lark's LALR parser with the
contextual lexer checks the order and names the line it cannot place, with what it
expected there; a callback per terminal, fed the line's fields as it is read, builds the
record, so no parse tree is ever made.  This is the fastest way to use Lark that keeps the
grammar in the grammar file (see the measurements in the parser issue).

The fields are read by matching the terminal's own pattern again, compiled separately,
so the pattern lives in one place: the grammar file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from engine.cards import CardError, Cards, parse_cards
from parser.outcome import HandText, ParseError

GRAMMARS = Path(__file__).parent / "grammars"

LineHandler = Callable[[tuple[str | None, ...], int, str], object]
"""Called with a line's captured fields, its 1-based line in the file, and its text."""

_MONEY = re.compile(r"^[$€£]?\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?\s?(?:[$€£]|EUR|USD)?$")


class FieldError(ValueError):
    """A line of a known kind whose field does not read (a money or card text)."""


def money(text: str | None) -> int:
    """Money text to hundredths: ``$1,500`` -> 150000, ``0.5`` -> 50, ``12.15`` -> 1215.

    Play money and chips use the same hundredths, so every site's amounts are exact ints.
    """
    if text is None:
        raise FieldError("missing amount")
    m = _MONEY.match(text.strip())
    if m is None:
        raise FieldError(f"not an amount: {text!r}")
    whole = int(m.group(1).replace(",", ""))
    cents = (m.group(2) or "").ljust(2, "0")
    return whole * 100 + int(cents)


def cards(text: str | None) -> Cards:
    """Card text as the sites write it (``7s 5d``, ``7s,5d``, ``7s, 5d``); repeats kept.

    A repeated card is site data the replay must flag, not something to refuse here.
    """
    if text is None:
        return ()
    try:
        return parse_cards(text, distinct=False)
    except CardError as e:
        raise FieldError(str(e)) from None


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


def clean(line: str) -> str:
    """A line without trailing blanks and the U+FFFD a truncated final UTF-16 byte leaves."""
    return line.rstrip().rstrip("\ufffd").rstrip()


_TERMINAL_DEF = re.compile(r"^([A-Z][A-Z0-9_]*)(?:\.-?\d+)?\s*:\s*(.*(?:\n[ \t]+\|.*)*)$", re.M)
_NAMES_ONLY = re.compile(r"^[A-Z][A-Z0-9_]*(?:\s*\|\s*[A-Z][A-Z0-9_]*)+$")


class _Dispatch(Transformer[Token, None]):
    """Terminal callbacks that hand each line to the current hand's handlers."""

    def __init__(self) -> None:
        super().__init__()
        self.handlers: dict[str, LineHandler] = {}
        self.first_line = 1
        self.extract: dict[str, re.Pattern[str]] = {}
        self.kinds: dict[str, tuple[str, ...]] = {}  # a composite terminal's line kinds

    def __default__(self, data: Any, children: Any, meta: Any) -> Any:
        return Tree(data, [])  # fresh, small: nothing is kept

    def line(self, token: Token) -> Token:
        kind = token.type
        m = None
        for sub in self.kinds.get(kind, ()):
            m = self.extract[sub].match(token.value)
            if m is not None:
                kind = sub
                break
        handler = self.handlers.get(kind)
        if handler is not None:
            if m is None:
                m = self.extract[kind].match(token.value)
            assert m is not None  # the lexer matched this very pattern
            line = self.first_line + (token.line or 1) - 1
            text = token.value.rstrip("\n")
            try:
                handler(m.groups(), line, text)
            except ValueError as e:  # FieldError, or a date that is no date
                raise ParseError(
                    str(e),
                    file="",
                    line=line,
                    column=1,
                    line_text=text,
                    expected=f"a valid {describe(kind)} line",
                ) from None
        return token


def describe(terminal: str) -> str:
    return terminal.lower().replace("_", " ")


class LineGrammar:
    """One site's grammar, loaded once; ``run`` reads one hand's text through handlers.

    Terminals end with the line's ``\n``, so no separate newline token is lexed; a
    terminal defined only as an alternation of other terminals (``NOTE: CHAT | SITS_OUT``)
    is one token for the parser, and its line is handed to the handler of whichever
    part matches - fewer parser steps per line, the same line kinds for the handlers.

    Not re-entrant: a reader parses one hand at a time (worker processes each have their own).
    """

    def __init__(self, grammar_file: str) -> None:
        self._dispatch = _Dispatch()
        text = (GRAMMARS / grammar_file).read_text(encoding="utf-8")
        definitions = dict(_TERMINAL_DEF.findall(text))
        # Every terminal's own pattern, the parts of composite ones included.
        probe = Lark(
            text + "\nall_terminals__: " + " | ".join(definitions),
            start="all_terminals__",
            parser="lalr",
            lexer="contextual",
        )
        self._dispatch.extract = {
            t.name: re.compile(t.pattern.to_regexp()) for t in probe.terminals
        }
        self._dispatch.kinds = {
            name: tuple(part.strip() for part in body.split("|"))
            for name, body in definitions.items()
            if _NAMES_ONLY.match(" ".join(body.split()))
        }
        # Lark calls a lexer callback for a terminal only when the transformer has a method
        # of that name: give every terminal the one dispatching callback.
        for name in definitions:
            setattr(self._dispatch, name, self._dispatch.line)
        self._lark = Lark(
            text,
            parser="lalr",
            lexer="contextual",
            transformer=self._dispatch,
            propagate_positions=False,
            maybe_placeholders=False,
        )
        self.terminals = frozenset(self._dispatch.extract)
        self._lines: dict[str, re.Pattern[str]] = {}

    def pattern(self, terminal: str) -> re.Pattern[str]:
        """A terminal's pattern for one line without its line end."""
        found = self._lines.get(terminal)
        if found is None:
            regexp = self._dispatch.extract[terminal].pattern
            if regexp.endswith("\n"):  # Lark writes the escape as the character
                regexp = regexp[:-1] + "$"
            elif regexp.endswith("\\n"):
                regexp = regexp[:-2] + "$"
            found = self._lines[terminal] = re.compile(regexp)
        return found

    def run(self, chunk: HandText, handlers: dict[str, LineHandler]) -> None:
        unknown = set(handlers) - self.terminals
        if unknown:
            raise KeyError(f"handlers for terminals the grammar lacks: {sorted(unknown)}")
        self._dispatch.handlers = handlers
        self._dispatch.first_line = chunk.line
        try:
            self._lark.parse(chunk.text + "\n")
        except ParseError as e:
            e.file = chunk.file
            raise ParseError(
                e.message,
                file=chunk.file,
                line=e.line,
                column=e.column,
                line_text=e.line_text,
                expected=e.expected,
            ) from None
        except UnexpectedInput as e:
            raise lark_error(e, chunk) from None
        finally:
            self._dispatch.handlers = {}


def _line_text(chunk: HandText, rel_line: int) -> str:
    lines = chunk.text.split("\n")
    if 1 <= rel_line <= len(lines):
        return lines[rel_line - 1]
    return ""


def _expected(names: Iterable[str]) -> str:
    shown = sorted(describe(n) for n in names if not n.startswith("__"))
    if len(shown) > 40:
        shown = [*shown[:40], "..."]
    return ", ".join(shown)


def lark_error(e: UnexpectedInput, chunk: HandText) -> ParseError:
    """A Lark error as a ParseError positioned in the user's file."""
    rel = getattr(e, "line", -1)
    col = getattr(e, "column", 1)
    if isinstance(e, UnexpectedEOF) or rel is None or rel < 1:
        rel = chunk.text.count("\n") + 1
        col = 1
        text = _line_text(chunk, rel)
        message = "the hand ends too early"
        expected = _expected(e.expected) if isinstance(e, UnexpectedEOF) else ""
    elif isinstance(e, UnexpectedCharacters):
        text = _line_text(chunk, rel)
        message = "a line this site's hands never contain here"
        expected = _expected(e.allowed or ())
    elif isinstance(e, UnexpectedToken):
        text = _line_text(chunk, rel)
        if e.token.type == "$END":
            message = "the hand ends too early"
        else:
            message = f"a {describe(e.token.type)} line out of place"
        expected = _expected(e.expected or ())
    else:  # pragma: no cover - Lark has no other kinds
        text = _line_text(chunk, rel)
        message = str(e)
        expected = ""
    return ParseError(
        message,
        file=chunk.file,
        line=chunk.line + rel - 1,
        column=max(col, 1),
        line_text=text,
        expected=expected,
    )


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
    while buf and not buf[-1][1]:
        buf.pop()
    first = buf[0][0]
    return HandText(file, first, join_numbered(buf, first), site)


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
