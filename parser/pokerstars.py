"""PokerStars hand histories (work in progress: sniffing and splitting first)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from engine.record import Hand
from parser.outcome import HandText, ParseError, Skipped

SITE = "pokerstars"
_HEADS = ("PokerStars ",)


class PokerStarsReader:
    site = SITE

    def sniff(self, head: str) -> bool:
        return any(line.lstrip("\ufeff").startswith(_HEADS) for line in head.splitlines()[:50])

    def split(self, lines: Iterable[tuple[int, str]], file: str) -> Iterator[HandText]:
        buf: list[str] = []
        start = 0
        for no, line in lines:
            if line.startswith(_HEADS) and buf:
                yield HandText(file, start, "\n".join(buf), SITE)
                buf = []
            if not buf:
                if not line.strip():
                    continue
                start = no
            buf.append(line)
        if buf:
            yield HandText(file, start, "\n".join(buf), SITE)

    def parse(self, chunk: HandText) -> Hand | Skipped:
        raise ParseError(
            "the PokerStars reader is being written", file=chunk.file, line=chunk.line
        )
