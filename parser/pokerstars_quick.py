"""The commonest PokerStars lines that never repeat, split by string operations.

The reader remembers each line's reading by its text, so a line read once costs a dict
look-up after that; what is left to read afresh are the lines whose text is new in every
hand: the hero's dealt and drawn cards, the discards that show cards, the cards shown,
the seats' summary lines that state what a player collected.  Classifying them with the
grammar means a search for the needles of every kind tried before theirs and a regular
expression whose lazy player name is tried at every length: a third of the time of
reading a hand.

Each function here answers for one common form of line with the fields the grammar's
terminal would give (``grammars/pokerstars.lark``), or None to leave the line to the
grammar: a line these cannot prove they read the grammar's way goes the slow way, never
a different way.  Two facts carry the proofs.  The body's classifier tries the kinds in
order and a kind is tried only when its needle is in the line: a line holding one
``": "`` cannot hold the needle of any ``"<player>: <verb>"`` kind but the one whose verb
follows that colon.  And a lazy ``PLAYER`` ends at the first place the rest of the line
fits, so where the rest is found at the first candidate place, that is the grammar's
player.
"""

from __future__ import annotations

from typing import Final

_DEALT: Final = "Dealt to "
_DISCARDS: Final = ": discards "
_STANDS_PAT: Final = ": stands pat"
_SHOWS: Final = ": shows ["
_IN_CHIPS: Final = " in chips"  # the needle of SEAT, the first kind of the body
_DRAW_STREET: Final = "*** "  # the needles of kinds tried before SHOWS without a colon

CardParts = tuple[str, str, str, str | None]
"""(kind, player, first field, second field): for ``DEALT`` the two brackets' texts (the
second None when there is one), ``DISCARDS`` the count's digit and the cards (None
without a bracket), ``STANDS_PAT`` the cards and None, ``SHOWS`` the cards and the
description in brackets (None without one)."""


def card_parts(text: str) -> CardParts | None:
    """The kind and fields of a line of cards as the body's classifier reads it, for the
    common forms (``Dealt to Hero [8h 7d] [4d Qh Ah]``, ``Hero: discards 3 cards [9s Ts
    Ks]``, ``Hero: stands pat on [...]``, ``Hero: shows [...] (a description)``); None
    for any other line, the grammar's to read."""
    if _IN_CHIPS in text:
        return None
    if text.startswith(_DEALT):
        if ": " in text:
            return None  # "<player>: <verb>" kinds come before DEALT
        return _dealt(text)
    colon = text.find(": ")
    if colon < 1:
        return None
    verb = colon + 2
    if text.startswith("shows [", verb):
        return _shows(text, colon)
    if text.find(": ", verb) >= 0:
        return None  # the needle of a kind tried before may follow
    if text.startswith("discards ", verb):
        return _discards(text, colon)
    if text.startswith("stands pat", verb):
        return _stands_pat(text, colon)
    return None


def _bracket_end(text: str, start: int) -> int:
    """The offset just past the bracket opening at ``start`` (``[^\\]]*\\]``), -1 when
    it does not close."""
    close = text.find("]", start + 1)
    return -1 if close < 0 else close + 1


def _dealt(text: str) -> CardParts | None:
    """``Dealt to <player> [cards]( [cards2])?``: the player is nonempty and ends at the
    first " [" after it; from there the rest must be the one or two brackets."""
    at = text.find(" [", len(_DEALT) + 1)
    if at < 0:
        return None
    end = _bracket_end(text, at + 1)
    if end < 0:
        return None
    first = text[at + 2 : end - 1]
    if end == len(text):
        return "DEALT", text[len(_DEALT) : at], first, None
    if not text.startswith(" [", end):
        return None
    last = _bracket_end(text, end + 1)
    if last != len(text):
        return None
    return "DEALT", text[len(_DEALT) : at], first, text[end + 2 : -1]


def _discards(text: str, at: int) -> CardParts | None:
    """``<player>: discards <digit> cards?( [cards])?``; the line's one ": " is the
    discards', so no kind before DISCARDS has its needle in the line."""
    rest = at + len(_DISCARDS)
    count = text[rest : rest + 1]
    if count not in _ASCII_DIGITS:
        return None  # another digit \d reads, or none: the grammar's
    if text.startswith(" cards", rest + 1):
        after = rest + 7
    elif text.startswith(" card", rest + 1):
        after = rest + 6
    else:
        return None
    if after == len(text):
        return "DISCARDS", text[:at], count, None
    if not text.startswith(" [", after) or _bracket_end(text, after + 1) != len(text):
        return None
    return "DISCARDS", text[:at], count, text[after + 2 : -1]


_ASCII_DIGITS: Final = frozenset("0123456789")


def _stands_pat(text: str, at: int) -> CardParts | None:
    """``<player>: stands pat on [cards]``."""
    rest = at + len(_STANDS_PAT)
    if not text.startswith(" on [", rest) or _bracket_end(text, rest + 4) != len(text):
        return None
    return "STANDS_PAT", text[:at], text[rest + 5 : -1], None


def _shows(text: str, at: int) -> CardParts | None:
    """``<player>: shows [cards]( (description))?``.  No needle of a kind tried before
    SHOWS may be in the line: no "Dealt to ", no "*** ", and after the player's colon
    no ": " before a word of play (the description is often "Lo: 8,7,6,4,2")."""
    if _DEALT in text or _DRAW_STREET in text:
        return None
    start = at + len(_SHOWS) - 1
    colon = text.find(": ", start)
    while colon >= 0:
        if text[colon + 2 : colon + 3] in _VERB_STARTS:
            return None
        colon = text.find(": ", colon + 2)
    end = _bracket_end(text, start)
    if end < 0:
        return None
    cards = text[start + 1 : end - 1]
    if end == len(text):
        return "SHOWS", text[:at], cards, None
    if text.startswith(" (", end) and text.endswith(")") and len(text) >= end + 3:
        return "SHOWS", text[:at], cards, text[end + 2 : -1]
    return None


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
    if "[" in text or not text.startswith("Seat "):
        return False
    colon = text.find(": ", 5)
    seat = text[5:colon]
    if colon < 6 or not (seat.isascii() and seat.isdigit()):
        return False
    first = colon + 3  # the player's first character is at colon + 2
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
