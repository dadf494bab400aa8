"""``drawlab verify``'s output rendered where the hands are replayed (``print_paths``): the
same bytes, counts and files as rendering each ``verify_paths`` result in this process, in
one process, in the workers' units and in worker processes."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

import analysis.pipeline.verify_files as verify_files
import parser.ranges as ranges
from analysis.pipeline.verification import HandResult
from analysis.pipeline.verify_files import Printed, Render, print_paths, verify_paths
from analysis.pipeline.verify_report import Tally, result_json, result_text, row_json
from engine.verdict import Problem, Severity
from tests.analysis.pipeline.test_verify_files import ONE_HAND, _session
from tests.corpus import CORPUS


def _expected(results: list[HandResult], render: Render) -> tuple[str, dict[str, int], int]:
    tally = Tally()
    lines: list[str] = []
    for r in results:
        tally.add(r)
        text = result_json(r) if render == "json" else result_text(r)
        if text is not None:
            lines.append(text + "\n")
    return "".join(lines), tally.counts, len(tally.files)


def _printed(printed: list[Printed]) -> tuple[str, dict[str, int], int]:
    tally = Tally()
    for p in printed:
        tally.add_counts(p.counts, p.files)
    return "".join(p.text for p in printed), tally.counts, len(tally.files)


def _paths(tmp_path: Path) -> list[Path]:
    archive = tmp_path / "corpus.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for path in sorted((CORPUS / "cash" / "Stars").rglob("*.txt")):
            zf.write(path, path.name)
    return [CORPUS, archive, _session(tmp_path / "session.txt"), tmp_path / "missing.txt"]


@pytest.mark.parametrize("render", ["json", "text"])
def test_printed_in_one_process_as_each_result_renders(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, render: Render
) -> None:
    """The corpus, an archive (its members cut here, 3 hands a batch), a session of two
    tables cut into one part per hand (its chains stitched across the parts) and a file
    that is not there."""
    paths = _paths(tmp_path)
    expected = _expected(list(verify_paths(paths)), render)
    monkeypatch.setattr(ranges, "PART_BYTES", ONE_HAND)
    monkeypatch.setattr(verify_files, "TEXTS_HANDS", 3)
    got = _printed(list(print_paths(paths, 1, render)))
    assert got == expected
    text, counts, files = got
    assert counts["invalid"] >= 7 and counts["parse_error"] >= 2  # the session's and more
    assert files > 90
    if render == "json":
        assert all(json.loads(line) for line in text.splitlines())


@pytest.mark.slow
@pytest.mark.parametrize("render", ["json", "text"])
def test_printed_by_worker_processes_as_in_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, render: Render
) -> None:
    """The carry-over problems of a table's first hand in a part are added by the main
    process, which renders that hand again: the session's flagged hands start parts."""
    path = _session(tmp_path / "session.txt")
    expected = _expected(list(verify_paths([path])), render)
    monkeypatch.setattr(ranges, "PART_BYTES", ONE_HAND)
    monkeypatch.setattr(verify_files, "TASK_BYTES", ONE_HAND)
    got = _printed(list(print_paths([path], 2, render)))
    assert got == expected
    assert got[1] == {
        "ok": 21,
        "invalid": 3,
        "parse_error": 1,
        "unsupported": 0,
        "incomplete": 0,
        "summary": 0,
        "summary_error": 0,
    }
    if render == "text":
        assert got[0].count("STACK_MISMATCH") == 3 and got[0].count("STACK_CHANGE") == 1


@pytest.mark.parametrize(
    "text",
    ["plain", 'quote " and \\ backslash', "tab\tnew\nline\r\x00\x1f", "é ü ñ 中 \u2028 😀", ""],
)
def test_a_row_json_is_json_dumps_byte_for_byte(text: str) -> None:
    problems = (
        Problem("STACK_MISMATCH", Severity.ERROR, 12, f"message {text}"),
        Problem(text or "X", Severity.WARNING, 0, text),
    )
    for listed in ((), problems):
        want = json.dumps(
            {
                "file": f"dir/{text}.txt",
                "hand_id": text,
                "site": "pokerstars",
                "game": text,
                "status": "invalid",
                "problems": [
                    {
                        "code": p.code,
                        "severity": p.severity.value,
                        "line": p.line,
                        "message": p.message,
                    }
                    for p in listed
                ],
            },
            ensure_ascii=False,
        )
        got = row_json(f"dir/{text}.txt", text, "pokerstars", text, "invalid", listed)
        assert got == want
