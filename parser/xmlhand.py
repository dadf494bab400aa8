"""One hand of an XML history as a flat list of its elements, each with its file line.

Merge and Boss write XML.  A Lark grammar over XML would re-implement an XML parser
badly, so these readers use the standard library's expat parser (the one under
``xml.etree``) directly: it is the only stdlib XML interface that reports each element's
line, which every step of the record must carry.  A hand is small, so the list is too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from xml.parsers import expat

from engine.record import Hand
from parser.builder import HandBuilder
from parser.lines import FieldError, numbered_text
from parser.outcome import HandText, ParseError, Skipped


@dataclass(frozen=True, slots=True)
class Element:
    tag: str
    attrs: dict[str, str]
    line: int  # in the file
    depth: int


def line_text(chunk: HandText, line: int) -> str:
    """The text of file line ``line`` of a hand, stripped and cut to 200 characters: what a
    warning or an error about an element quotes."""
    rows = chunk.text.split("\n")
    i = line - chunk.line
    return rows[i].strip()[:200] if 0 <= i < len(rows) else ""


class XmlReading:
    """One XML hand being read, element by element, into a ``HandBuilder``: what the Merge
    and Boss readers share (the element being read, how a failure and an unknown element
    are reported), so that both quote lines and fail the same way."""

    def __init__(self, chunk: HandText, els: list[Element]) -> None:
        self.chunk = chunk
        self.els = els
        self.b = HandBuilder()
        self.at: Element | None = els[0] if els else None  # the element being read

    def read(self) -> Hand | Skipped:
        raise NotImplementedError

    def parsed(self) -> Hand | Skipped:
        """``read``, with a missing attribute or a value that does not read as a
        ``ParseError`` at the element being read."""
        try:
            return self.read()
        except (FieldError, KeyError, ValueError) as e:
            message = f"missing attribute {e}" if isinstance(e, KeyError) else str(e)
            raise self.fail(message, self.at) from None

    def fail(self, message: str, el: Element | None, expected: str = "") -> ParseError:
        line = el.line if el is not None else self.chunk.line
        return ParseError(
            message, file=self.chunk.file, line=line, line_text=self.text(line),
            expected=expected,
        )  # fmt: skip

    def text(self, line: int) -> str:
        return line_text(self.chunk, line)

    def unknown(self, el: Element) -> None:
        self.b.unknown_line(el.line, self.text(el.line))


def elements(chunk: HandText, root: str = "hand") -> list[Element]:
    """The elements of ``chunk.text`` in document order; ParseError for malformed XML."""
    found: list[Element] = []
    depth = 0
    parser = expat.ParserCreate()

    def start(tag: str, attrs: dict[str, str]) -> None:
        nonlocal depth
        depth += 1
        found.append(Element(tag, attrs, chunk.line + parser.CurrentLineNumber - 1, depth - 1))

    def end(tag: str) -> None:
        nonlocal depth
        depth -= 1

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    try:
        parser.Parse(f"<{root}>{chunk.text}</{root}>", True)
    except expat.ExpatError as e:
        lines = chunk.text.split("\n")
        rel = min(max(e.lineno, 1), len(lines))
        column = e.offset + 1 - (len(root) + 2 if e.lineno == 1 else 0)
        raise ParseError(
            f"not well-formed XML: {expat.ErrorString(e.code)}",
            file=chunk.file,
            line=chunk.line + rel - 1,
            column=max(column, 1),
            line_text=lines[rel - 1],
            expected="well-formed XML",
        ) from None
    return found[1:]  # without the wrapping root


def xml_hands(
    lines: Iterable[tuple[int, str]],
    file: str,
    site: str,
    *,
    starts: Callable[[str, list[str]], bool],
    ends: Callable[[str], int],
    skip: Callable[[str], bool],
) -> Iterator[HandText]:
    """Cut an XML history's numbered lines into hands, lazily.

    ``starts(line, buffered)`` tells whether a line begins a new hand after the lines
    buffered so far; ``ends`` gives the index just past a hand's closing tag in its line
    (or -1); ``skip`` tells the document's own lines outside hands (declaration, root
    tags).  Anything else outside a hand becomes a chunk of its own, so that the reader
    can say what it is instead of dropping it.
    """
    buf: list[tuple[int, str]] = []
    stray: list[tuple[int, str]] = []
    for no, raw in lines:
        line = raw.strip().lstrip("\ufeff").rstrip("\ufffd")
        if not buf:
            if not line or skip(line):
                continue
            if not starts(line, []):
                stray.append((no, line))
                continue
            if stray:
                yield numbered_text(stray, file, site)
                stray = []
        elif starts(line, [t for _, t in buf]):
            # a new hand before the last one closed: the last one is cut short
            yield numbered_text(buf, file, site)
            buf = []
        cut = ends(line)
        if cut >= 0:
            buf.append((no, line[:cut]))
            yield numbered_text(buf, file, site)
            buf = []
            rest = line[cut:].strip()
            if rest and not skip(rest):
                stray.append((no, rest))
            continue
        buf.append((no, line))
    for part in (buf, stray):
        if part:
            yield numbered_text(part, file, site)
