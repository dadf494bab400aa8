"""The lines of a tournament hand that end a tournament for a player, or pay a bounty.

Where there is no summary, a tournament's result is in its hands: "Alice finished the
tournament in 7th place", "Bob wins the tournament and receives $9.50 -
congratulations!", "Bob wins $2.50 for eliminating Alice ...", and what a player paid on
the way: "Bob re-buys and receives 1500 chips for $1.00", "... takes the add-on ...".
The site grammars already name these lines (PokerStars' ``FINISHED``,
``WINS_TOURNAMENT``, ``BOUNTY``, ``REBUY``, ``ADD_ON``, ``ENTRY_WON``, Full Tilt's
``TOURNAMENT_RESULT``); this reads the place and amounts they state.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from parser.lines import FieldError, money, site_grammar

_WORDS: Final = ("tournament", "eliminat", "re-buys", "add-on")
_PLACE: Final = re.compile(r" finished the tournament in (\d+)(?:st|nd|rd|th)? place")
_PAID: Final = re.compile(r" (?:and received|and receives) ([$€£₹]?\d[\d,]*(?:\.\d+)?)")
_BOUNTY: Final = re.compile(r" (?:wins|split) (?:the )?([$€£₹]?\d[\d,]*(?:\.\d+)?) ")
_FOR: Final = re.compile(r" chips for ([$€£₹]?\d[\d,]*(?:\.\d+)?)")
_ENTRY: Final = re.compile(r" wins an entry to tournament #(\d+)")


@dataclass(frozen=True, slots=True)
class TournamentLine:
    """What one line says of ``player``: a place (1 for the winner), a prize, a bounty."""

    player: str
    line: int
    place: int | None = None
    prize: int = 0
    bounty: int = 0
    rebuys: int = 0
    addons: int = 0
    paid: int = 0  # what a rebuy or add-on cost, where the line says
    ticket: str = ""  # a satellite's seat: "entry to tournament #123"


def _kinds() -> tuple[tuple[str, re.Pattern[str]], ...]:
    stars = site_grammar("pokerstars.lark")
    tilt = site_grammar("fulltilt.lark")
    return (
        ("finished", stars.regex("FINISHED")),
        ("won", stars.regex("WINS_TOURNAMENT")),
        ("bounty", stars.regex("BOUNTY")),
        ("rebuy", stars.regex("REBUY")),
        ("addon", stars.regex("ADD_ON")),
        ("entry", stars.regex("ENTRY_WON")),
        ("result", tilt.regex("TOURNAMENT_RESULT")),
    )


def tournament_lines(text: str, first_line: int = 1) -> Iterator[TournamentLine]:
    """Every finishing and bounty line of a hand's text, ``first_line`` its first line."""
    kinds = _kinds()
    for i, raw in enumerate(text.split("\n")):
        line = raw.strip()
        if not any(word in line for word in _WORDS):
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
    """The line's figures; None where they do not read or no tournament holds them."""
    found = _figures(kind, line, player, no)
    if found is None or max(found.prize, found.bounty, found.paid) >= 10**15:
        return None
    return found if found.place is None or found.place < 10**9 else None


def _figures(kind: str, line: str, player: str, no: int) -> TournamentLine | None:
    try:
        if kind == "bounty":
            m = _BOUNTY.search(line, len(player))
            return TournamentLine(player, no, bounty=money(m.group(1))) if m else None
        if kind in ("rebuy", "addon"):
            cost = _FOR.search(line, len(player))
            return TournamentLine(player, no, rebuys=int(kind == "rebuy"),
                                  addons=int(kind == "addon"),
                                  paid=money(cost.group(1)) if cost else 0)
        if kind == "entry":
            entry = _ENTRY.search(line, len(player))
            return TournamentLine(player, no, ticket=f"entry to tournament #{entry.group(1)}"
                                  if entry else "")
        place = _PLACE.search(line, len(player))
        paid = _PAID.search(line, len(player))
        return TournamentLine(
            player, no,
            place=int(place.group(1)) if place else (1 if " wins the tournament" in line else None),
            prize=money(paid.group(1)) if paid else 0,
        )
    except FieldError:
        return None
