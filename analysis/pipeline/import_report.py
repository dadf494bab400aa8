"""The words and lines an import prints: a progress line, a summary table, a problems log.

Kept apart from ``cli.py`` so that the command line only chooses where text goes, and
from the importer so that it stays free of presentation.
"""

from __future__ import annotations

import json

from analysis.pipeline.importer import STATUSES, ImportSummary, Progress

BAR_WIDTH = 24


def progress_line(p: Progress) -> str:
    """``[#####-----] 3/10 files  12,345 hands  4,210 hands/s  7 problems``."""
    filled = min(BAR_WIDTH, int(BAR_WIDTH * p.fraction))
    bar = "#" * filled + "-" * (BAR_WIDTH - filled)
    return (
        f"[{bar}] {p.files_done}/{p.files_total} files  {p.hands:,} hands  "
        f"{p.rate:,.0f} hands/s  {p.problems:,} problems"
    )


def summary_table(s: ImportSummary) -> str:
    rows: list[tuple[str, str]] = [
        ("files read", f"{s.files:,}"),
        ("files unchanged (skipped)", f"{s.unchanged:,}"),
        ("files rejected", f"{len(s.rejected):,}"),
        ("hands read", f"{s.hands:,}"),
    ]
    rows += [(f"  {status}", f"{s.statuses.get(status, 0):,}") for status in STATUSES]
    rows += [
        ("added", f"{s.added:,}"),
        ("already present", f"{s.already_present:,}"),
        ("problems", f"{s.problems:,}"),
        ("tournament summaries read", f"{s.summaries:,}"),
        ("  stored (new or newer)", f"{s.summaries_added:,}"),
        ("  not read", f"{len(s.summary_errors):,}"),
        ("seconds", f"{s.seconds:,.1f}"),
        ("hands/s", f"{(s.hands / s.seconds if s.seconds > 0 else 0):,.0f}"),
    ]
    width = max(len(k) for k, _ in rows)
    vwidth = max(len(v) for _, v in rows)
    lines = [f"{k:<{width}}  {v:>{vwidth}}" for k, v in rows]
    if s.hands == len(s.rejected) and s.added == 0 and s.already_present > 0:
        lines.append("nothing new: every hand was already in the database")
    elif s.added == 0 and s.already_present > 0:
        lines.append("nothing added: the hands read were already in the database")
    return "\n".join(lines)


def problems_log(s: ImportSummary) -> str:
    """Rejected files, then each problem as ``file:line: status: CODE: message``."""
    lines = [f"rejected: {message}" for message in s.rejected]
    lines += [f"summary not read: {message}" for message in s.summary_errors]
    lines += [str(p) for p in s.problem_log]
    if s.problems > len(s.problem_log):
        lines.append(f"... and {s.problems - len(s.problem_log):,} more problems")
    return "\n".join(lines)


def summary_json(s: ImportSummary) -> str:
    return json.dumps({"summary": s.as_dict()}, sort_keys=False)
