"""What reading one hand can give: a record, a reasoned skip, or a positioned error.

Every chunk of text the reader finds gets exactly one of these, so nothing a user gave
us is dropped without a verdict.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from typing import Literal, TypeAlias

from engine.record import Hand


@dataclass(frozen=True, slots=True)
class HandText:
    """The text of one hand as it stands in its file; ``line`` is its first line (1-based)."""

    file: str
    line: int
    text: str
    site: str = ""

    def __reduce__(self) -> tuple[type[HandText], tuple[str, int, str, str]]:
        # the importer sends every hand text to a worker: as a plain tuple, pickling
        # takes half the time of a frozen slotted dataclass's generic state
        return HandText, (self.file, self.line, self.text, self.site)


class ParseError(Exception):
    """A hand the reader could not read, positioned in its file."""

    def __init__(
        self,
        message: str,
        *,
        file: str,
        line: int,
        column: int = 1,
        line_text: str = "",
        expected: str = "",
    ) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.line_text = line_text
        self.expected = expected
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}"
        text = f"{where}: {self.message}"
        if self.line_text:
            text += f"\n    {self.line_text}\n    {' ' * (self.column - 1)}^"
        if self.expected:
            text += f"\n  expected: {self.expected}"
        return text

    def __reduce__(self) -> tuple[object, ...]:  # picklable across worker processes
        return (
            _rebuild_parse_error,
            (self.message, self.file, self.line, self.column, self.line_text, self.expected),
        )


def _rebuild_parse_error(
    message: str, file: str, line: int, column: int, line_text: str, expected: str
) -> ParseError:
    return ParseError(
        message, file=file, line=line, column=column, line_text=line_text, expected=expected
    )


SkipKind: TypeAlias = Literal["unsupported", "incomplete"]


@dataclass(frozen=True, slots=True)
class Skipped:
    """A hand we deliberately do not replay, and why.

    ``unsupported``: a game we do not replay (Hold'em, Badugi...), ``game`` is the site's name
    for it.  ``incomplete``: cancelled, partial or dead hands and tournament summaries.
    """

    kind: SkipKind
    reason: str
    _: KW_ONLY  # where the hand is, by name: five strings and numbers in a row read alike
    site: str
    file: str
    line: int
    hand_id: str | None = None
    game: str | None = None

    @classmethod
    def unsupported_game(
        cls, game: str | None, *, site: str, file: str, line: int, hand_id: str | None
    ) -> Skipped:
        """The verdict for a hand of a game DrawLab does not replay, in one wording."""
        return cls(
            "unsupported",
            f"{game} is not a game DrawLab replays",
            site=site,
            file=file,
            line=line,
            hand_id=hand_id,
            game=game,
        )


Outcome: TypeAlias = Hand | Skipped | ParseError
