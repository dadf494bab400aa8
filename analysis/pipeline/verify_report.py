"""The output of ``drawlab verify``: one JSON line per hand and a summary, or a readable report.

The JSON shape is a contract other tools rely on (issue 4): per hand ``{"file", "hand_id",
"site", "game", "status", "problems": [{"code", "severity", "line", "message"}]}``, then one
``{"summary": {"files", "hands", "ok", "invalid", "parse_error", "unsupported",
"incomplete", "seconds"}}``.  The exit status is 0 when every hand is ok, unsupported or
incomplete, 1 otherwise.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from analysis.pipeline.verification import STATUSES, HandResult

FAILING = frozenset({"invalid", "parse_error"})


@dataclass(slots=True)
class Tally:
    """Counts over the results seen so far."""

    files: set[str] = field(default_factory=set)
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STATUSES, 0))

    def add(self, result: HandResult) -> None:
        self.files.add(result.file)
        self.counts[result.status] = self.counts.get(result.status, 0) + 1

    @property
    def hands(self) -> int:
        return sum(self.counts.values())

    @property
    def exit_status(self) -> int:
        return 1 if any(self.counts[s] for s in FAILING) else 0


def result_json(result: HandResult) -> str:
    return json.dumps(
        {
            "file": result.file,
            "hand_id": result.hand_id,
            "site": result.site,
            "game": result.game,
            "status": result.status,
            "problems": [
                {
                    "code": p.code,
                    "severity": p.severity.value,
                    "line": p.line,
                    "message": p.message,
                }
                for p in result.problems
            ],
        },
        ensure_ascii=False,
    )


def summary_json(tally: Tally, seconds: float) -> str:
    summary: dict[str, int | float] = {"files": len(tally.files), "hands": tally.hands}
    summary.update({s: tally.counts[s] for s in STATUSES})
    summary["seconds"] = round(seconds, 3)
    return json.dumps({"summary": summary})


def result_text(result: HandResult) -> str | None:
    """The lines a reader wants about one hand: nothing for a clean ok hand."""
    if result.status == "ok" and not result.problems:
        return None
    name = f"hand {result.hand_id}" if result.hand_id else "a hand"
    what = " ".join(x for x in (result.site, result.game) if x)
    head = f"{result.file}:{result.line}: {name}" + (f" ({what})" if what else "")
    label = {
        "ok": "ok, with warnings",
        "invalid": "INVALID",
        "parse_error": "PARSE ERROR",
        "unsupported": "not replayed",
        "incomplete": "incomplete",
    }[result.status]
    lines = [f"{head}: {label}"]
    if result.status in ("unsupported", "incomplete") or (
        result.status == "parse_error" and not result.problems
    ):
        lines[0] += f" - {result.reason}"
    for p in result.problems:
        lines.append(f"    line {p.line}: {p.severity.value} {p.code}: {p.message}")
    return "\n".join(lines)


def summary_text(tally: Tally, seconds: float) -> str:
    c = tally.counts
    parts = [
        f"{tally.hands} hands in {len(tally.files)} files, {seconds:.2f} s:",
        f"{c['ok']} ok, {c['invalid']} invalid, {c['parse_error']} parse errors, "
        f"{c['unsupported']} not replayed (unsupported), {c['incomplete']} incomplete",
    ]
    return " ".join(parts)
