"""The lines of a tournament hand that end a tournament for a player, or pay a bounty.

Where there is no summary, a tournament's result is in its hands: "Alice finished the
tournament in 7th place", "Bob wins the tournament and receives $9.50 -
congratulations!", "Bob wins $2.50 for eliminating Alice ...".  The site grammars already
name these lines (PokerStars' ``FINISHED``, ``WINS_TOURNAMENT``, ``BOUNTY``, Full Tilt's
``TOURNAMENT_RESULT``); this reads the place and amounts they state.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from parser.lines import FieldError, money, site_grammar

_PLACE: Final = re.compile(r" finished the tournament in (\d+)(?:st|nd|rd|th)? place")
_PAID: Final = re.compile(r" (?:and received|and receives) ([$€£₹]?\d[\d,]*(?:\.\d+)?)")
_BOUNTY: Final = re.compile(r" (?:wins|split) (?:the )?([$€£₹]?\d[\d,]*(?:\.\d+)?) ")


@dataclass(frozen=True, slots=True)
class TournamentLine:
    """What one line says of ``player``: a place (1 for the winner), a prize, a bounty."""

    player: str
    line: int
    place: int | None = None
    prize: int = 0
    bounty: int = 0


def _kinds() -> tuple[tuple[str, re.Pattern[str]], ...]:
    stars = site_grammar("pokerstars.lark")
    tilt = site_grammar("fulltilt.lark")
    return (
        ("finished", stars.regex("FINISHED")),
        ("won", stars.regex("WINS_TOURNAMENT")),
        ("bounty", stars.regex("BOUNTY")),
        ("result", tilt.regex("TOURNAMENT_RESULT")),
    )


def tournament_lines(text: str, first_line: int = 1) -> Iterator[TournamentLine]:
    """Every finishing and bounty line of a hand's text, ``first_line`` its first line."""
    kinds = _kinds()
    for i, raw in enumerate(text.split("\n")):
        line = raw.strip()
        if "tournament" not in line and "eliminat" not in line:
            continue
        for kind, regex in kinds:
            m = regex.match(line)
            if m is None:
                continue
            player = (m.groupdict().get("player") or m.group(1)).strip()
            found = _read(kind, line, player, first_line + i)
            if found is not None:
                yield found
            break


def _read(kind: str, line: str, player: str, no: int) -> TournamentLine | None:
    try:
        if kind == "bounty":
            m = _BOUNTY.search(line, len(player))
            return TournamentLine(player, no, bounty=money(m.group(1))) if m else None
        place = _PLACE.search(line, len(player))
        paid = _PAID.search(line, len(player))
        return TournamentLine(
            player, no,
            place=int(place.group(1)) if place else (1 if " wins the tournament" in line else None),
            prize=money(paid.group(1)) if paid else 0,
        )
    except FieldError:
        return None
