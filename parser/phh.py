"""PHH, pokerkit's open TOML hand-history format (work in progress)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from engine.record import Hand
from parser.outcome import HandText, ParseError, Skipped

SITE = "phh"


class PhhReader:
    site = SITE

    def sniff(self, head: str) -> bool:
        return any(line.startswith("variant = ") for line in head.splitlines()[:80])

    def split(self, lines: Iterable[tuple[int, str]], file: str) -> Iterator[HandText]:
        buf = [line for _, line in lines]
        yield HandText(file, 1, "\n".join(buf), SITE)

    def parse(self, chunk: HandText) -> Hand | Skipped:
        raise ParseError("the PHH reader is being written", file=chunk.file, line=chunk.line)
