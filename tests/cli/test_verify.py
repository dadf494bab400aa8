"""``drawlab verify``: the JSON-lines contract, the readable report and the exit status."""

from __future__ import annotations

import json
import os
import shutil
import zipfile
from pathlib import Path

import pytest

from cli import main
from tests.corpus import CORPUS
from tests.quick import sweep

KINGSCLUB = CORPUS / "cash" / "KingsClub" / "Draw"
WALKED = CORPUS / "cash" / "Stars" / "Draw" / "5-Carddraw-FL-USD-0.10-0.20-201106.Walked.txt"
MISSED_SB = KINGSCLUB / "NL-2-7-SD-USD-125-250-202103.missed.sb.txt"
CANCELLED = CORPUS / "cash" / "Stars" / "Draw" / "3-Draw-Limit-USD-1-2-200809.Hand.cancelled.txt"

HOLDEM = """\
PokerStars Hand #100000000001:  Hold'em No Limit ($0.01/$0.02 USD) - 2012/06/07 20:44:17 ET
Table 'Alpha' 6-max Seat #1 is the button
Seat 1: Hero ($2 in chips)
Seat 2: Villain ($2 in chips)
Hero: posts small blind $0.01
Villain: posts big blind $0.02
*** HOLE CARDS ***
Dealt to Hero [Ah Kh]
Hero: folds
Uncalled bet ($0.01) returned to Villain
Villain collected $0.02 from pot
*** SUMMARY ***
Total pot $0.02 | Rake $0
Seat 1: Hero (button) (small blind) folded before Flop
Seat 2: Villain (big blind) collected ($0.02)
"""


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str]]:
    status = main(["verify", *args])
    return status, capsys.readouterr().out.splitlines()


def test_json_lines_per_hand_then_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines = run(capsys, "--json", str(KINGSCLUB))
    objects = [json.loads(line) for line in lines]
    hands, summary = objects[:-1], objects[-1]["summary"]
    assert len(hands) == 9
    for h in hands:
        assert list(h) == ["file", "hand_id", "site", "game", "status", "problems"]
        assert h["site"] == "kingsclub"
    missed = next(h for h in hands if h["file"] == str(MISSED_SB))
    assert missed == {
        "file": str(MISSED_SB),
        "hand_id": "3516416",
        "site": "kingsclub",
        "game": "27_single_draw",
        "status": "invalid",
        "problems": [
            {
                "code": "COLLECT_MISMATCH",
                "severity": "error",
                "line": 38,
                "message": "collected 1,350, more than the pot of 1,225",
            }
        ],
    }
    assert {k: v for k, v in summary.items() if k != "seconds"} == {
        "files": 9,
        "hands": 9,
        "ok": 7,
        "invalid": 2,
        "parse_error": 0,
        "unsupported": 0,
        "incomplete": 0,
        "summaries": 0,
        "summary_errors": 0,
    }
    assert isinstance(summary["seconds"], float)
    assert list(summary) == [
        "files",
        "hands",
        "ok",
        "invalid",
        "parse_error",
        "unsupported",
        "incomplete",
        "summaries",
        "summary_errors",
        "seconds",
    ]
    assert status == 1


def test_exit_status_zero_when_every_hand_is_ok_unsupported_or_incomplete(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    holdem = tmp_path / "holdem.txt"
    holdem.write_text(HOLDEM)
    status, lines = run(capsys, "--json", str(WALKED), str(holdem), str(CANCELLED))
    statuses = [json.loads(line).get("status") for line in lines[:-1]]
    assert statuses == ["ok", "unsupported", "incomplete"]
    assert json.loads(lines[1])["game"] == "Hold'em No Limit"
    assert status == 0


def test_a_missing_file_is_a_parse_error_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines = run(capsys, "--json", "/no/such/file.txt")
    first = json.loads(lines[0])
    assert first["status"] == "parse_error"
    assert first["problems"][0]["code"] == "PARSE_ERROR"
    assert json.loads(lines[-1])["summary"]["parse_error"] == 1
    assert status == 1


def test_zip_archives_are_read(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    archive = tmp_path / "hands.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.write(WALKED, "a/walked.txt")
        z.write(MISSED_SB, "b/missed.txt")
    status, lines = run(capsys, "--json", str(archive))
    statuses = sorted(json.loads(line)["status"] for line in lines[:-1])
    assert statuses == ["invalid", "ok"]
    assert status == 1


def test_the_readable_report_names_the_problems_and_counts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    copy = tmp_path / "missed.txt"
    shutil.copy(MISSED_SB, copy)
    status, lines = run(capsys, str(copy), str(WALKED))
    assert lines[0] == f"{copy}:1: hand 3516416 (kingsclub 27_single_draw): INVALID"
    assert lines[1] == (
        "    line 38: error COLLECT_MISMATCH: collected 1,350, more than the pot of 1,225"
    )
    assert lines[-1].startswith("2 hands in 2 files, ")
    assert lines[-1].endswith(
        "1 ok, 1 invalid, 0 parse errors, 0 not replayed (unsupported), 0 incomplete"
    )
    assert len(lines) == 3  # the clean hand prints nothing but its count
    assert status == 1


def test_the_readable_report_gives_the_reason_of_skips_and_parse_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    holdem = tmp_path / "holdem.txt"
    holdem.write_text(HOLDEM)
    status, lines = run(capsys, str(CANCELLED), str(holdem), "/no/such/file.txt")
    assert lines[0] == (
        f"{CANCELLED}:1: hand 20349633663 (pokerstars): incomplete - the hand was cancelled"
    )
    assert lines[1].startswith(f"{holdem}:1: hand 100000000001 (pokerstars Hold'em No Limit): ")
    assert lines[1].split(": ", 2)[2].startswith("not replayed - ")
    assert lines[2] == "/no/such/file.txt:1: a hand: PARSE ERROR"
    assert lines[3] == "    line 1: error PARSE_ERROR: no such file or folder"
    assert status == 1


def _session(folder: Path) -> Path:
    """A PokerStars session whose middle hand cannot be read and whose last hand does not
    follow the first (stacks followed in input order decide what is flagged)."""
    from tests.analysis.pipeline.test_chain_breaks import AFTER, BROKEN, _hand

    path = folder / "session.txt"
    later = _hand(4, a="$4", b="$3")
    path.write_text("\n\n".join([_hand(1), BROKEN, AFTER, later]), encoding="utf-8")
    return path


def _without_seconds(lines: list[str]) -> list[str]:
    """The output minus the time it took, the one thing two runs may not share."""
    last = lines[-1]
    if last.startswith('{"summary"'):
        summary = json.loads(last)
        del summary["summary"]["seconds"]
        return [*lines[:-1], json.dumps(summary)]
    head, _, rest = last.partition(" s:")
    return [*lines[:-1], head.rsplit(",", 1)[0] + rest]


@pytest.mark.slow
@pytest.mark.parametrize("as_json", [False, True])
def test_workers_give_the_output_of_one_process_in_input_order(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, as_json: bool
) -> None:
    paths = [str(CORPUS / "cash"), str(_session(tmp_path)), str(CORPUS / "tour")]
    flags = ["--json"] if as_json else []
    one_status, one = run(capsys, *flags, "--workers", "1", *paths)
    two_status, two = run(capsys, *flags, "--workers", "2", *paths)
    assert (two_status, _without_seconds(two)) == (one_status, _without_seconds(one))
    assert len(one) > 50
    if as_json:
        session = [json.loads(line) for line in one if "session.txt" in line]
        assert [(h["hand_id"], h["status"]) for h in session] == [
            ("1", "ok"),
            ("2", "parse_error"),
            ("3", "ok"),
            ("4", "invalid"),
        ]
        assert [p["code"] for p in session[3]["problems"]] == ["STACK_CHANGE", "STACK_MISMATCH"]


def test_verify_takes_every_core_by_default_but_for_a_small_input(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import cli

    big = tmp_path / "big.txt"
    big.write_bytes(WALKED.read_bytes() * (cli.SMALL_INPUT // len(WALKED.read_bytes()) + 1))
    monkeypatch.setattr(os, "cpu_count", lambda: 7)
    assert cli._default_workers([str(WALKED)]) == 1  # no processes to start for one hand
    assert cli._default_workers([str(big), str(WALKED)]) == 7


SUMMARY = CORPUS / "summaries" / "FTP" / "27TD-USD-HUSnG-201101.Hero.wins.txt"
BAD_SUMMARY = "Full Tilt Poker Tournament Summary X (5) Badugi Limit\nBuy-In: $1.2.3 + $0.10\n"


def _summaries(tmp_path: Path) -> Path:
    """A folder of a summary that reads, one that does not, and a hand history."""
    (tmp_path / "a_bad.txt").write_text(BAD_SUMMARY)
    shutil.copy(SUMMARY, tmp_path / "b_good.txt")
    shutil.copy(CANCELLED, tmp_path / "c_hand.txt")
    return tmp_path


@pytest.mark.parametrize("workers", sweep(["1", "2"], ["1"]))
def test_a_summary_is_its_own_record_in_the_report(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, workers: str
) -> None:
    folder = _summaries(tmp_path)
    status, lines = run(capsys, "--workers", workers, str(folder))
    assert lines[:-1] == [
        f"{folder}/a_bad.txt:2: a tournament summary: NOT READ - not an amount: '$1.2.3'",
        f"{folder}/b_good.txt:1: tournament 211366000 (fulltilt 27_triple_draw): "
        "a tournament summary",
        f"{folder}/c_hand.txt:1: hand 20349633663 (pokerstars): incomplete - "
        "the hand was cancelled",
    ]
    head, _, tail = lines[-1].partition(" s: ")
    assert head.startswith("1 hands in 3 files, ")
    assert tail == (
        "0 ok, 0 invalid, 0 parse errors, 0 not replayed (unsupported), 1 incomplete; "
        "1 tournament summaries, 1 summaries not read"
    )
    assert status == 1  # a summary that does not read fails, as a hand's parse error does


@pytest.mark.parametrize("workers", sweep(["1", "2"], ["1"]))
def test_a_summary_is_one_json_object_of_kind_summary(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, workers: str
) -> None:
    folder = _summaries(tmp_path)
    status, lines = run(capsys, "--json", "--workers", workers, str(folder))
    objects = [json.loads(line) for line in lines]
    assert objects[:2] == [
        {
            "file": f"{folder}/a_bad.txt",
            "line": 2,
            "kind": "summary",
            "status": "error",
            "message": "not an amount: '$1.2.3'",
        },
        {
            "file": f"{folder}/b_good.txt",
            "line": 1,
            "kind": "summary",
            "status": "summary",
            "site": "fulltilt",
            "tournament_id": "211366000",
            "name": "$30 + $1.50 Heads Up Sit & Go",
            "game": "27_triple_draw",
            "currency": "USD",
            "buy_in": 3000,
            "fee": 150,
            "entrants": 2,
            "prize_pool": 6000,
            "started": "2011-01-12T06:01:27+00:00",
            "player": "sljons91",
            "place": 1,
            "prize": 6000,
        },
    ]
    assert objects[2]["status"] == "incomplete" and "kind" not in objects[2]
    summary = objects[3]["summary"]
    del summary["seconds"]
    assert summary == {
        "files": 3,
        "hands": 1,
        "ok": 0,
        "invalid": 0,
        "parse_error": 0,
        "unsupported": 0,
        "incomplete": 1,
        "summaries": 1,
        "summary_errors": 1,
    }
    assert status == 1
