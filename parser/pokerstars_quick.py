"""The commonest PokerStars lines that never repeat, read without the classifier's walk.

The reader remembers each line's reading by its text, so a line read once costs a dict
look-up after that; what is left to read afresh are the lines whose text is new in every
hand: the hero's dealt and drawn cards, the discards that show cards, the cards shown,
the seats' summary lines that state what a player collected.  Classifying them with the
grammar's classifier means a needle test for every kind tried before theirs, then the
kind's regular expression.

The functions here prove, with a few ``str`` tests, which kind the classifier would try
first with success, and leave the line to the classifier (None) when they cannot: a
line goes the slow way, never a different way.  Two facts carry the proofs.  The body's
classifier tries the kinds in order and a kind is tried only when its needle is in the
line: a line holding one ``": "`` cannot hold the needle of any ``"<player>: <verb>"``
kind but the one whose verb follows that colon.  And a lazy ``PLAYER`` ends at the first
place the rest of the line fits.  The lines of cards are then read by their kind's own
terminal (``card_match``: the grammar's fields, about 6,000 machine instructions a line
against 12,900 for splitting them by string operations); the seats' summary lines, whose
only field the reader keeps is the mucked cards, by string tests alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from parser.lines import site_grammar

_GRAMMAR = site_grammar("pokerstars.lark")
_DEALT: Final = "Dealt to "
_IN_CHIPS: Final = " in chips"  # the needle of SEAT, the first kind of the body
_DRAW_STREET: Final = "*** "  # the needles of kinds tried before SHOWS without a colon

CardParts = tuple[str, str, str, str | None]
"""(kind, player, first field, second field): for ``DEALT`` the two brackets' texts (the
second None when there is one), ``DISCARDS`` the count's digit and the cards (None
without a bracket), ``STANDS_PAT`` the cards and None, ``SHOWS`` the cards and the
description in brackets (None without one)."""

CardMatch = tuple[str, "re.Match[str]"]
"""A line of cards' kind and the match of that kind's own terminal (``grammars/
pokerstars.lark``): the grammar's reading of the line, found without the walk."""


def _terminal(name: str, groups: tuple[str, ...]) -> Callable[[str], re.Match[str] | None]:
    """The whole-line match of a terminal whose groups are ``groups`` in that order, as
    the readings unpack ``m.groups()`` (checked here, at import)."""
    regex = _GRAMMAR.regex(name)
    found = tuple(sorted(regex.groupindex, key=regex.groupindex.__getitem__))
    if found != groups or regex.groups != len(groups):
        raise TypeError(f"{name}: groups {found}, the readings unpack {groups}")
    return regex.match


_DEALT_MATCH: Final = _terminal("DEALT", ("player", "cards", "cards2"))
_DISCARDS_MATCH: Final = _terminal("DISCARDS", ("player", "count", "cards"))
_STANDS_PAT_MATCH: Final = _terminal("STANDS_PAT", ("player", "cards"))
_SHOWS_MATCH: Final = _terminal("SHOWS", ("player", "cards", "description"))


def card_match(text: str) -> CardMatch | None:
    """The kind and match the body's classifier gives a line of cards of the common kinds
    (``Dealt to Hero [8h 7d] [4d Qh Ah]``, ``Hero: discards 3 cards [9s Ts Ks]``,
    ``Hero: stands pat on [...]``, ``Hero: shows [...] (a description)``); None leaves
    the line to the classifier.

    The kind's own terminal reads the line; what is proved here is only that the
    classifier would try that kind: no needle of a kind tried before it is in the line.
    Those needles are ``" in chips"`` (``SEAT``), ``"Dealt to "``, ``"*** "`` and
    ``": "`` followed by a verb of play: so a line without ``" in chips"`` is a ``DEALT``
    candidate when it holds no ``": "``, and a ``DISCARDS`` or ``STANDS_PAT`` one when
    its one ``": "`` is followed by that verb.
    """
    if _IN_CHIPS in text:
        return None
    if text.startswith(_DEALT):
        if ": " in text:
            return None  # "<player>: <verb>" kinds come before DEALT
        m = _DEALT_MATCH(text)
        return None if m is None else ("DEALT", m)
    colon = text.find(": ")
    if colon < 1:
        return None
    verb = colon + 2
    if text.startswith("shows [", verb):
        return _shows(text, verb)
    if text.find(": ", verb) >= 0:
        return None  # the needle of a kind tried before may follow
    if text.startswith("discards ", verb):
        m = _DISCARDS_MATCH(text)
        return None if m is None else ("DISCARDS", m)
    if text.startswith("stands pat", verb):
        m = _STANDS_PAT_MATCH(text)
        return None if m is None else ("STANDS_PAT", m)
    return None


def _shows(text: str, verb: int) -> CardMatch | None:
    """``SHOWS``, whose needle ``": shows ["`` is at the line's first ``": "``: no needle
    of a kind tried before it may be in the line: no "Dealt to ", no "*** ", and after
    that colon no ": " before a word of play (the description is often "Lo: 8,7,6,4,2")."""
    if _DEALT in text or _DRAW_STREET in text:
        return None
    colon = text.find(": ", verb)
    while colon >= 0:
        if text[colon + 2 : colon + 3] in _VERB_STARTS:
            return None
        colon = text.find(": ", colon + 2)
    m = _SHOWS_MATCH(text)
    return None if m is None else ("SHOWS", m)


_FIELDS: Final = {
    "DEALT": ("cards", "cards2"),
    "DISCARDS": ("count", "cards"),
    "STANDS_PAT": ("cards", None),
    "SHOWS": ("cards", "description"),
}


def card_parts(text: str) -> CardParts | None:
    """``card_match``'s answer as the kind, the player and the kind's two fields."""
    found = card_match(text)
    if found is None:
        return None
    kind, m = found
    first, second = _FIELDS[kind]
    return kind, m["player"], m[first], None if second is None else m[second]


_VERB_STARTS: Final = frozenset("fcbrdsp")
"""The first letters of the words after ": " in the needles of the kinds tried before
SHOWS (folds, checks, calls, bets, raises, discards, stands pat, posts)."""

_FOLDED: Final = frozenset(
    f"folded {when} {street}{bet}"
    for when in ("before", "after", "on")
    for street in ("Flop", "the Draw", "the 1st Draw", "the 2nd Draw", "the 3rd Draw")
    for bet in ("", " (didn't bet)")
)
_PLAIN_ENDINGS: Final = (" mucked", " is sitting out", " sat out")


def plain_seat_summary(text: str) -> bool:
    """Whether ``SEAT_SUMMARY`` reads this line, for its common forms without cards
    (``Seat 3: x (button) folded before the Draw``, ``Seat 3: x collected ($0.45)``):
    such a line adds nothing to the hand (only mucked cards would), so knowing that the
    summary's first kind reads it is reading it.  False leaves the line to the grammar.

    The terminal is ``Seat <digits>: <player><roles> <outcome>``: the lazy player may
    take in the roles, so it reads the line when some " " starts an outcome that runs to
    the end with a nonempty player before it.
    """
    if not text.startswith("Seat "):
        return False
    colon = text.find(": ", 5)
    seat = text[5:colon]
    if colon < 6 or not (seat.isascii() and seat.isdigit()):
        return False
    first = colon + 3  # the player's first character is at colon + 2
    if "[" in text:
        return _showed(text, first)
    at = text.rfind(" folded ")
    if at >= first:
        return text[at + 1 :] in _FOLDED
    for ending in _PLAIN_ENDINGS:
        if text.endswith(ending):
            return len(text) - len(ending) >= first  # a nonempty player before it
    at = text.rfind(" collected (")
    if at < first:
        return False
    end = text.find(")", at)
    return end == len(text) - 1 or (end == len(text) - 9 and text.endswith("), mucked"))


_SHOWED_ENDS: Final = (" and won", " and lost", " and collected")


def _showed(text: str, first: int) -> bool:
    """``plain_seat_summary`` for ``Seat 3: x showed [cards] and won ($1.80)``: the
    shown cards are the show's, read from its own line, so the summary line adds nothing.

    Only the outcome ``mucked [cards]`` gives the line a field, and it ends the line with
    its bracket: a line not ending with "]" that the terminal reads has none.  The
    terminal reads it when some split fits, here the first " showed [" after a nonempty
    player: ``showed \\[[^\\]]*\\] and (?:won|lost|collected)(?: \\([^)]*\\))?(?: with .*)?``.
    """
    if text.endswith("]"):
        return False
    at = text.find(" showed [", first)
    if at < 0:
        return False
    close = text.find("]", at + 9)
    if close < 0:
        return False
    end = close + 1
    for word in _SHOWED_ENDS:
        if text.startswith(word, end):
            end += len(word)
            break
    else:
        return False
    if text.startswith(" (", end):
        shut = text.find(")", end + 2)
        if shut < 0:
            return False
        end = shut + 1
    return end == len(text) or text.startswith(" with ", end)
