"""Whether the last hand of a file is whole, or the poker client is still writing it.

A client writes each hand when it is over, but a watcher may read the file between two of
the client's writes: the file then ends inside a hand.  Such a hand must wait for the rest
of its text, while a hand that is whole but broken (a bad line, a cancelled hand) must be
stored at once with its verdict.  The parse cannot tell them apart (a hand cut inside its
summary may even read as a valid hand), so the cut is told by the form every site gives
the end of a hand:

- the text stops inside a line: the file does not end with a line break;
- or the hand's last section is missing or short: PokerStars and Full Tilt list every seat
  of the header again in the summary, Winamax and KingsClub end with a summary whose last
  line says who won, OnGame writes ``***** End of hand``, Merge closes ``</game>`` and
  Boss ``</HISTORY>``.

Only the last hand of a file is ever asked about (``analysis.pipeline.importer`` holds one
hand back while it reads), so none of this costs anything per hand.  PHH files are written
whole by programs, never by a client as it plays: a PHH hand always counts as whole.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable
from typing import BinaryIO, Final

_SUMMARY: Final = "*** SUMMARY ***"
_SEAT: Final = re.compile(r"^Seat \d+:", re.MULTILINE)
_STARS_WHOLE: Final = ("Hand cancelled",)  # a cancelled hand has no summary


def _seats_repeated(text: str) -> bool:
    """The summary is there and names at least as many seats as the header did."""
    at = text.find(_SUMMARY)
    if at < 0:
        return False
    first_section = text.find("\n*** ")
    head = text[: first_section if 0 <= first_section < at else at]
    return len(_SEAT.findall(text, at)) >= len(_SEAT.findall(head))


def _pokerstars(text: str) -> bool:
    if text.startswith("PokerStars Tournament #"):
        return True  # a tournament summary, written whole when the tournament ends
    if any(line.rstrip() in _STARS_WHOLE for line in text[-200:].split("\n")):
        return True
    return _seats_repeated(text)


def _fulltilt(text: str) -> bool:
    head = text[:300]
    if "(partial)" in head or head.startswith("Full Tilt Poker Tournament Summary"):
        return True  # Full Tilt wrote these as they are
    return _seats_repeated(text)


def _winamax(text: str) -> bool:
    return _SUMMARY in text and text.rstrip().rsplit("\n", 1)[-1].startswith(("Seat ", "Board"))


def _kingsclub(text: str) -> bool:
    return _SUMMARY in text and " wins " in text.rstrip().rsplit("\n", 1)[-1]


def _ongame(text: str) -> bool:
    return "***** End of hand" in text[-300:]


def _merge(text: str) -> bool:
    return "</game>" in text[-100:]


def _boss(text: str) -> bool:
    return "</HISTORY>" in text[-200:]


_WHOLE: Final[dict[str, Callable[[str], bool]]] = {
    "pokerstars": _pokerstars,
    "fulltilt": _fulltilt,
    "winamax": _winamax,
    "kingsclub": _kingsclub,
    "ongame": _ongame,
    "merge": _merge,
    "boss": _boss,
}
_XML: Final = frozenset({"merge", "boss"})  # the closing tag ends the hand's last line


def hand_finished(site: str, text: str, line_ended: bool) -> bool:
    """Whether the hand ``text`` of ``site``, the last of its file, is whole as the client
    writes it; ``line_ended``: the file ends with a line break (its last line is whole)."""
    check = _WHOLE.get(site)
    if check is None:
        return True  # PHH, or a site we know no ending of: nothing is held back
    if not line_ended and site not in _XML:
        return False
    return check(text)


def ends_with_line_break(stream: BinaryIO, end: int, encoding: str) -> bool:
    """Whether the ``end`` bytes of ``stream`` (a file opened in binary, decoded with
    ``encoding``) end with a line break, trailing spaces and a lone odd byte of UTF-16
    aside.  Reads a few bytes; leaves the stream's position where it found it."""
    if end <= 0:
        return False
    where = stream.tell()
    try:
        codec = encoding
        if encoding == "utf-16":  # the BOM says which
            stream.seek(0)
            codec = "utf-16-be" if stream.read(2) == codecs.BOM_UTF16_BE else "utf-16-le"
        stop = end - end % 2 if codec.startswith("utf-16") else end
        start = max(0, stop - 16)
        codec = "utf-8" if codec == "utf-8-sig" else codec
        stream.seek(start)
        tail = stream.read(stop - start).decode(codec, errors="ignore")
    finally:
        stream.seek(where)
    return tail.rstrip(" \t\x00\ufeff").endswith(("\n", "\r"))
