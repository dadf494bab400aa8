"""``drawlab convert``: every readable hand rewritten, everything else counted and listed."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli import main
from engine.record import Hand
from parser.convert import convert_paths
from parser.reader import read_path
from tests.parser_corpus import CORPUS, without_position

STARS = CORPUS / "cash/Stars/Draw"


def hands_in(folder: Path) -> list[Hand]:
    return [o for _, o in read_path(folder) if isinstance(o, Hand)]


def test_convert_to_phh_writes_one_file_per_hand_that_reads_back(tmp_path: Path) -> None:
    summary = convert_paths([STARS], "phh", tmp_path)
    originals = hands_in(STARS)
    assert summary.hands == len(originals) == 29  # 12 one-hand files, a 17-hand session
    assert len(summary.files) == 29 and all(f.suffix == ".phh" for f in summary.files)
    assert [s.hand_id for s in summary.skipped] == ["20349633663"]
    assert len(summary.errors) == 6  # the .hp/.hands/.gt side files are no hand histories
    back = {h.hand_id: h for h in hands_in(tmp_path)}
    assert {h.hand_id for h in originals} == set(back)
    for h in originals:
        assert without_position(back[h.hand_id]) == without_position(h)


def test_convert_to_pokerstars_keeps_one_file_per_input(tmp_path: Path) -> None:
    source = tmp_path / "in"
    source.mkdir()
    for name in (
        "Triple Draw 2-7 Lowball-FL-USD-0.10-0.20-201106.sample.txt",
        "5-Carddraw-FL-USD-0.10-0.20-201106.Walked.txt",
    ):
        (source / name).write_bytes((STARS / name).read_bytes())
    out = tmp_path / "out"
    summary = convert_paths([source], "pokerstars", out)
    assert (summary.hands, len(summary.files), summary.errors, summary.skipped) == (2, 2, [], [])
    assert sorted(f.name for f in out.iterdir()) == [
        "5-Carddraw-FL-USD-0.10-0.20-201106.Walked.txt",
        "Triple_Draw_2-7_Lowball-FL-USD-0.10-0.20-201106.sample.txt",
    ]
    assert sorted(h.hand_id for h in hands_in(out)) == ["63845186378", "64147461939"]


def test_the_command_prints_what_it_did(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = STARS / "3-Draw-Limit-USD-1-2-200809.Hand.cancelled.txt"
    status = main(["convert", "--to", "phh", str(source), "--out", str(tmp_path)])
    printed = capsys.readouterr().out.splitlines()
    assert status == 0
    assert printed == [
        "converted 0 hands into 0 files; skipped 1; unreadable 0",
        f"skipped {source}:1: incomplete: the hand was cancelled",
    ]
