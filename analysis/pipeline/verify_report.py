"""The output of ``drawlab verify``: one JSON line per hand and a summary, or a readable report.

The JSON shape is a contract other tools rely on (issue 4): per hand ``{"file", "hand_id",
"site", "game", "status", "problems": [{"code", "severity", "line", "message"}]}``, then one
``{"summary": {"files", "hands", "ok", "invalid", "parse_error", "unsupported",
"incomplete", "summaries", "summary_errors", "seconds"}}``.  The exit status is 0 when
every hand is ok, unsupported or incomplete and every summary read, 1 otherwise.

A tournament summary file is no hand: each of its summaries is a record of its own kind,
one ``{"file", "line", "kind": "summary", "status": "summary", "site", "tournament_id",
...}`` object with the summary's main fields (``"status": "error"`` with the message for
one that did not read), counted in ``summaries`` and ``summary_errors``, never in
``hands``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from json.encoder import encode_basestring  # json.dumps' own quoting (ensure_ascii=False)

from analysis.pipeline.verification import (
    STATUSES,
    SUMMARY_STATUSES,
    HandResult,
)
from engine.verdict import Problem

FAILING = frozenset({"invalid", "parse_error", "summary_error"})


@dataclass(slots=True)
class Tally:
    """Counts over the results seen so far."""

    files: set[str] = field(default_factory=set)
    counts: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(STATUSES + SUMMARY_STATUSES, 0)
    )

    def add(self, result: HandResult) -> None:
        self.files.add(result.file)
        self.counts[result.status] = self.counts.get(result.status, 0) + 1

    def add_counts(self, counts: dict[str, int], files: Iterable[str]) -> None:
        """A run of results counted elsewhere (a worker process): ``counts`` by status."""
        self.files.update(files)
        for status, n in counts.items():
            self.counts[status] = self.counts.get(status, 0) + n

    @property
    def hands(self) -> int:
        return sum(self.counts[s] for s in STATUSES)

    @property
    def exit_status(self) -> int:
        return 1 if any(self.counts[s] for s in FAILING) else 0


def result_json(result: HandResult) -> str:
    if result.status in SUMMARY_STATUSES:
        return summary_record_json(result)
    return row_json(
        result.file, result.hand_id, result.site, result.game, result.status, result.problems
    )


def row_json(
    file: str, hand_id: str, site: str, game: str, status: str, problems: Sequence[Problem]
) -> str:
    """A hand's JSON line, the bytes ``json.dumps`` of the object gives (ensure_ascii off,
    default separators), put together from quoted strings: a worker renders every hand's
    line, and the dictionary and the encoder's walk over it were most of that."""
    head = (
        f'{{"file": {encode_basestring(file)}, "hand_id": {encode_basestring(hand_id)}, '
        f'"site": {encode_basestring(site)}, "game": {encode_basestring(game)}, '
        f'"status": {encode_basestring(status)}, "problems": ['
    )
    if not problems:
        return head + "]}"
    listed = ", ".join(
        f'{{"code": {encode_basestring(p.code)}, '
        f'"severity": {encode_basestring(p.severity.value)}, "line": {int.__repr__(p.line)}, '
        f'"message": {encode_basestring(p.message)}}}'
        for p in problems
    )
    return head + listed + "]}"


def summary_json(tally: Tally, seconds: float) -> str:
    summary: dict[str, int | float] = {"files": len(tally.files), "hands": tally.hands}
    summary.update({s: tally.counts[s] for s in STATUSES})
    summary["summaries"] = tally.counts["summary"]
    summary["summary_errors"] = tally.counts["summary_error"]
    summary["seconds"] = round(seconds, 3)
    return json.dumps({"summary": summary})


def result_text(result: HandResult) -> str | None:
    """The lines a reader wants about one hand: nothing for a clean ok hand."""
    return row_text(
        result.file,
        result.line,
        result.hand_id,
        result.site,
        result.game,
        result.status,
        result.problems,
        result.reason,
    )


def row_text(
    file: str,
    line: int,
    hand_id: str,
    site: str,
    game: str,
    status: str,
    problems: Sequence[Problem],
    reason: str,
) -> str | None:
    """``result_text`` of a hand's fields, as a worker process has them."""
    if status == "summary_error":
        return f"{file}:{line}: a tournament summary: NOT READ - {reason}"
    if status == "summary":
        what = " ".join(x for x in (site, game) if x)
        return f"{file}:{line}: tournament {hand_id} ({what}): a tournament summary"
    if status == "ok" and not problems:
        return None
    name = f"hand {hand_id}" if hand_id else "a hand"
    what = " ".join(x for x in (site, game) if x)
    head = f"{file}:{line}: {name}" + (f" ({what})" if what else "")
    label = {
        "ok": "ok, with warnings",
        "invalid": "INVALID",
        "parse_error": "PARSE ERROR",
        "unsupported": "not replayed",
        "incomplete": "incomplete",
    }[status]
    lines = [f"{head}: {label}"]
    if status in ("unsupported", "incomplete") or (status == "parse_error" and not problems):
        lines[0] += f" - {reason}"
    for p in problems:
        lines.append(f"    line {p.line}: {p.severity.value} {p.code}: {p.message}")
    return "\n".join(lines)


def summary_text(tally: Tally, seconds: float) -> str:
    c = tally.counts
    parts = [
        f"{tally.hands} hands in {len(tally.files)} files, {seconds:.2f} s:",
        f"{c['ok']} ok, {c['invalid']} invalid, {c['parse_error']} parse errors, "
        f"{c['unsupported']} not replayed (unsupported), {c['incomplete']} incomplete",
    ]
    if c["summary"] or c["summary_error"]:  # said only where summaries were met
        parts[-1] += (
            f"; {c['summary']} tournament summaries, {c['summary_error']} summaries not read"
        )
    return " ".join(parts)


def summary_record_json(result: HandResult) -> str:
    """A tournament summary's JSON line: where it is, its site and tournament and, when
    the record came along (not from worker processes, which send no records), its main
    fields, amounts in hundredths of its currency; for one that did not read, the error
    at its line."""
    record: dict[str, object] = {
        "file": result.file,
        "line": result.line,
        "kind": "summary",
        "status": "error" if result.status == "summary_error" else "summary",
    }
    if result.status == "summary_error":
        record["message"] = result.reason
        return json.dumps(record, ensure_ascii=False)
    record.update(site=result.site, tournament_id=result.hand_id)
    item = result.summary
    if item is not None:
        record.update(
            name=item.name,
            game=result.game,
            currency=item.currency,
            buy_in=item.buy_in,
            fee=item.fee,
            entrants=item.entrants,
            prize_pool=item.prize_pool,
            started=item.started.isoformat() if item.started is not None else None,
            player=item.player,
            place=item.place,
            prize=item.prize,
        )
    else:
        record["game"] = result.game
    return json.dumps(record, ensure_ascii=False)
