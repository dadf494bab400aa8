"""What the replay concludes about a hand: ok, or the problems it found, each positioned.

A verifier reports; it never repairs.  Codes are stable strings (tools and the database
key on them); messages are for players; ``line`` points into the source file.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"  # a site's own known quirk: reported, not held against the hand


@dataclass(frozen=True, slots=True)
class Problem:
    code: str
    severity: Severity
    line: int
    message: str


@dataclass(frozen=True, slots=True)
class Verdict:
    problems: tuple[Problem, ...] = ()

    @property
    def ok(self) -> bool:
        return not any(p.severity is Severity.ERROR for p in self.problems)

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity is Severity.ERROR)

    @property
    def warnings(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity is Severity.WARNING)
