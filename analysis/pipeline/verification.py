"""One verdict per hand text, whatever the reader made of it: the contract of ``drawlab verify``.

The reader gives every chunk of text exactly one outcome (a record, a reasoned skip or a
positioned parse error); here each outcome becomes a ``HandResult`` with one of five
statuses, so the command line, the importer and the dashboard count hands the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from engine.pots import SettledPot
from engine.record import Game, Hand
from engine.replay import replay
from engine.tournament import TournamentSummary
from engine.verdict import Problem, Severity, Verdict
from parser.outcome import HandText, Outcome, ParseError, Skipped

Status: TypeAlias = Literal[
    "ok", "invalid", "parse_error", "unsupported", "incomplete", "summary", "summary_error"
]
STATUSES: tuple[Status, ...] = ("ok", "invalid", "parse_error", "unsupported", "incomplete")
SUMMARY_STATUSES: tuple[Status, ...] = ("summary", "summary_error")
"""A tournament summary's verdicts: read, or not read (an error at its line).  A summary is
its own kind of record, so these are counted apart from the hands' ``STATUSES``."""
PARSE_ERROR_CODE = "PARSE_ERROR"


def ends_chain(status: str) -> bool:
    """A result after which its table's stacks are unknown: a text that did not read, or a
    game DrawLab does not replay (a mixed table's Badugi or Stud hand moves chips too), so
    the next hand at the table starts a new chain of stacks instead of being compared."""
    return status in ("parse_error", "unsupported")


@dataclass(frozen=True, slots=True)
class HandResult:
    """What one hand text came to.

    ``game`` is a ``Game`` value for the games we replay, the site's own name for a game we
    do not replay, or ``""`` when the text could not be read far enough to know.  ``reason``
    explains a skip or a parse error in a sentence; ``problems`` holds the replay's findings
    (warnings allowed with ``ok``) or, for a parse error, one ``PARSE_ERROR`` problem.
    ``final`` is each seated player's stack at the end of a replayed hand, as the replay
    has the chips move (uncalled bets back even where the site does not write them): what
    ``engine.continuity.ContinuityTracker.feed`` wants for the next hand at the table.
    """

    file: str
    line: int
    hand_id: str
    site: str
    game: str
    status: Status
    problems: tuple[Problem, ...]
    hand: Hand | None
    text: str
    reason: str
    final: tuple[tuple[str, int], ...] = ()
    pots: tuple[SettledPot, ...] = ()  # main pot first, as the replay settled them
    summary: TournamentSummary | None = None  # a tournament summary's record, read here


_GAME_VALUES: dict[Game, str] = {game: game.value for game in Game}
"""Each game's value: ``Enum.value`` is a property run in Python, a dict look-up is not."""


def status_of(problems: tuple[Problem, ...]) -> tuple[Status, str]:
    """A replayed hand's status and reason: invalid with its first error's message when
    it has an error, ok (warnings allowed) otherwise."""
    for p in problems:
        if p.severity is Severity.ERROR:
            return "invalid", p.message
    return "ok", ""


def check(chunk: HandText, outcome: Outcome) -> HandResult:
    """The result of one chunk: replayed when it is a hand, otherwise its skip or error."""
    if isinstance(outcome, Hand):
        done = replay(outcome)
        return _hand_result(chunk, outcome, done.verdict, done.final, done.pots)
    return _other_result(chunk, outcome)


def summary_result(item: TournamentSummary | ParseError) -> HandResult:
    """The verdict of one tournament summary of a summary file: ``summary`` with its
    tournament id for one that read, ``summary_error`` at its line for one that did not."""
    if isinstance(item, ParseError):
        problem = Problem(PARSE_ERROR_CODE, Severity.ERROR, item.line, item.message)
        return HandResult(
            file=item.file,
            line=item.line,
            hand_id="",
            site="",
            game="",
            status="summary_error",
            problems=(problem,),
            hand=None,
            text=item.line_text,
            reason=item.message,
        )
    return HandResult(
        file=item.file,
        line=item.line,
        hand_id=item.tournament_id,
        site=item.site,
        game=summary_game(item),
        status="summary",
        problems=(),
        hand=None,
        text="",
        reason="a tournament summary",
        summary=item,
    )


def summary_game(item: TournamentSummary) -> str:
    """A summary's game as a hand's verdict names it: its ``Game`` value, else the site's
    own words for it."""
    return item.game.value if item.game is not None else item.game_text


def _hand_result(
    chunk: HandText,
    outcome: Hand,
    verdict: Verdict,
    final: dict[str, int],
    pots: tuple[SettledPot, ...] = (),
) -> HandResult:
    status, reason = status_of(verdict.problems)
    return HandResult(
        file=outcome.file or chunk.file,
        line=outcome.line,
        hand_id=outcome.hand_id,
        site=outcome.site,
        game=_GAME_VALUES[outcome.game],
        status=status,
        problems=verdict.problems,
        hand=outcome,
        text=chunk.text,
        reason=reason,
        final=tuple(final.items()),
        pots=pots,
    )


def _other_result(chunk: HandText, outcome: Skipped | ParseError) -> HandResult:
    if isinstance(outcome, Skipped):
        return HandResult(
            file=outcome.file or chunk.file,
            line=outcome.line,
            hand_id=outcome.hand_id or "",
            site=outcome.site or chunk.site,
            game=outcome.game or "",
            status=outcome.kind,
            problems=(),
            hand=None,
            text=chunk.text,
            reason=outcome.reason,
        )
    return _parse_error_result(chunk, outcome)


def _parse_error_result(chunk: HandText, error: ParseError) -> HandResult:
    problem = Problem(PARSE_ERROR_CODE, Severity.ERROR, error.line, error.message)
    return HandResult(
        file=error.file or chunk.file,
        line=error.line,
        hand_id=_hand_id_guess(chunk.text),
        site=chunk.site,
        game="",
        status="parse_error",
        problems=(problem,),
        hand=None,
        text=chunk.text,
        reason=str(error),
    )


def _hand_id_guess(text: str) -> str:
    """The first ``#digits`` of the head line, so a parse error still names its hand."""
    head = text.lstrip("\ufeff").split("\n", 1)[0]
    start = head.find("#")
    if start < 0:
        return ""
    end = start + 1
    while end < len(head) and (head[end].isalnum() or head[end] in "-_"):
        end += 1
    return head[start + 1 : end]
