"""The contract every site's reader keeps, so the file reader can stay site-blind.

A reader recognises its site from the head of a decoded file, cuts the file's lines
into hands as they stream past (memory does not grow with the file), and turns one
hand's text into a record or a reasoned skip, raising ``ParseError`` for anything else.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol

from engine.record import Hand
from parser.outcome import HandText, Skipped


class SiteReader(Protocol):
    site: str

    def sniff(self, head: str) -> bool:
        """True when ``head`` (the first few KB of decoded text) is this site's."""
        ...

    def split(self, lines: Iterable[tuple[int, str]], file: str) -> Iterator[HandText]:
        """Cut numbered lines (1-based, without line ends) into hands, lazily."""
        ...

    def parse(self, chunk: HandText) -> Hand | Skipped:
        """One hand's text to a record; raises ``ParseError`` for text it cannot read."""
        ...
