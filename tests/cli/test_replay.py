"""``drawlab replay``: a hand's steps in a terminal, and the JSON-lines contract."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analysis.pipeline.importer import import_paths
from analysis.storage import db
from cli import main
from tests.app_support import STARS_TRIPLE
from tests.paths import REPOSITORY

ROOT = REPOSITORY
SNG = ROOT / "sample_histories" / "pokerstars" / "27_triple_draw_fl_sit_and_go_6max.txt"
KEYS = ["hand_id", "step", "street", "event", "pot", "stacks", "bets"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    status = main(["replay", *args])
    out = capsys.readouterr()
    return status, out.out.splitlines(), out.err


def test_json_is_one_object_per_step_with_amounts_as_decimal_strings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, lines, _ = run(capsys, "--json", "--file", str(STARS_TRIPLE))
    assert status == 0
    steps = [json.loads(line) for line in lines]
    assert all(list(s) == KEYS for s in steps)
    assert [s["step"] for s in steps] == list(range(len(steps))) and len(steps) == 28
    assert steps[0] == {
        "hand_id": "63845186378", "step": 0, "street": "blinds",
        "event": "the forced bets are posted", "pot": "0.15",
        "stacks": {"Player1": "4.36", "Hero": "3.35", "Player2": "2.90", "Player3": "3.98",
                   "Player4": "4.46"},
        "bets": {"Player1": "0.00", "Hero": "0.05", "Player2": "0.10", "Player3": "0.00",
                 "Player4": "0.00"},
    }
    assert steps[-2]["event"] == "Player1 collects 1.29"
    assert steps[-1]["street"] == "settled"
    assert steps[-1]["stacks"]["Player1"] == "5.05" and steps[-1]["pot"] == "0.00"  # the rake
    assert steps[-1]["event"].endswith("; rake 0.06")  # named on its own, not left as the pot


@pytest.mark.slow
def test_a_stored_hand_by_its_id_in_chips(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "d.duckdb"
    con = db.connect(path)
    import_paths(con, [SNG], workers=0)
    con.close()
    status, lines, _ = run(capsys, "--db", str(path), "--json", "220001120265")
    assert status == 0
    last = json.loads(lines[-1])  # the stacks hand #220001120266 starts from
    assert last["stacks"] == {"Hero": "4140", "sevenfive2": "640", "RazzleDazzle2": "4220"}
    assert last["event"] == "the pots are settled: main pot 640 to sevenfive2"
    status, lines, _ = run(capsys, "--db", str(path), "pokerstars:220001120265")
    assert status == 0
    assert lines[0] == (
        "Hand #220001120265 · pokerstars · 2-7 Triple Draw · Fixed limit · 300/600 chips")
    assert lines[-2].split() == [
        "15", "settled", "pot", "0", "the", "pots", "are", "settled:", "main", "pot", "640",
        "to", "sevenfive2"]
    assert lines[-1] == "     Hero 4,140 folded | sevenfive2 640 *won* | RazzleDazzle2 4,220"
    status, _, err = run(capsys, "--db", str(path), "123")
    assert (status, err) == (1, "error: 123: no such hand stored\n")


def test_file_and_hand_choose_one_hand(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, _ = run(capsys, "--json", "--file", str(SNG), "--hand", "#220001120176")
    assert status == 0
    assert {json.loads(line)["hand_id"] for line in lines} == {"220001120176"}
    status, lines, err = run(capsys, "--file", str(SNG), "--hand", "1")
    assert (status, lines, err) == (1, [], f"error: {SNG} has no hand 1\n")
    status, _, err = run(capsys)
    assert (status, err) == (2, "error: give a HAND_ID, or --file PATH\n")
