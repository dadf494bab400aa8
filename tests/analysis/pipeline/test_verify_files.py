"""``verify_paths`` in worker processes that read parts of a file: the stacks are followed
across the parts' borders, so every verdict is the one process's."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import analysis.pipeline.verify_files as verify_files
import parser.ranges as ranges
from analysis.pipeline.verification import HandResult
from analysis.pipeline.verify_files import verify_paths
from engine.record import Game, Structure
from engine.sim.dealer import deal_hands
from parser.pokerstars_writer import write_pokerstars
from parser.sources import Source, iter_sources
from tests.analysis.pipeline.test_chain_breaks import BROKEN, _hand
from tests.corpus import CORPUS

ONE_HAND = 360  # bytes: each part holds about one hand


def _at(table: str, hand: str) -> str:
    return hand.replace("Table 'T'", f"Table '{table}'")


def _session(path: Path) -> Path:
    """Two tables, their hands interleaved; each chain crosses parts and tasks.

    Table T: hand 1, then 3 starts as 1 did (B lost $0.05 between them: flagged), then a
    hand that does not read, then 4 (a new chain: not compared with 3), then 5 after 4
    with B short (flagged).  Table U: 1, 2 and 3 follow each other, then 4 is short.
    """
    hands = [
        _hand(1),
        _at("U", _hand(1)),
        _hand(3),
        _at("U", _hand(2, a="$3.95", b="$4.05")),
        BROKEN,
        _at("U", _hand(3, a="$3.90", b="$4.10")),
        _hand(4),
        _hand(5, a="$3.95", b="$3"),
        _at("U", _hand(4, a="$3.85", b="$4")),
    ]
    filler = [_at(f"V{n}", _hand(n % 10)) for n in range(16)]  # the file's first 200 lines
    path.write_text("\n\n\n".join(filler + hands), encoding="utf-8")
    return path


def _verdicts(results: list[HandResult]) -> list[tuple[str, str, list[str]]]:
    return [(r.hand_id, r.status, [p.code for p in r.problems]) for r in results[16:]]


@pytest.mark.slow
@pytest.mark.parametrize("task_bytes", [ONE_HAND, 1 << 20])
def test_workers_follow_the_stacks_across_parts(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, task_bytes: int
) -> None:
    """One part per task (the main process stitches every chain) or all parts in one task
    (the worker's units are stitched the same way)."""
    path = _session(tmp_path / "session.txt")
    one = list(verify_paths([path]))
    monkeypatch.setattr(ranges, "PART_BYTES", ONE_HAND)
    monkeypatch.setattr(verify_files, "TASK_BYTES", task_bytes)
    [source] = iter_sources([path])
    assert isinstance(source, Source)
    assert len(ranges.parts(source) or []) == 25  # every hand starts a part of its own
    two = list(verify_paths([path], workers=2))
    mismatch = ["STACK_CHANGE", "STACK_MISMATCH"]
    assert _verdicts(one) == [
        ("1", "ok", []),
        ("1", "ok", []),
        ("3", "invalid", mismatch),
        ("2", "ok", []),
        ("2", "parse_error", ["PARSE_ERROR"]),
        ("3", "ok", []),
        ("4", "ok", []),
        ("5", "invalid", ["STACK_MISMATCH"]),
        ("4", "invalid", ["STACK_MISMATCH"]),
    ]
    assert [r.status for r in one[:16]] == ["ok"] * 16
    assert [(r.file, r.line, r.hand_id, r.status, r.problems, r.reason, r.final) for r in two] == [
        (r.file, r.line, r.hand_id, r.status, r.problems, r.reason, r.final) for r in one
    ]
    assert all(r.hand is None and r.text == "" and r.pots == () for r in two)


def _fields(results: list[HandResult]) -> list[tuple[object, ...]]:
    return [(r.file, r.line, r.hand_id, r.site, r.game, r.status, r.problems, r.reason, r.final)
            for r in results]


def test_the_workers_way_gives_one_process_verdicts_on_the_corpus(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Every corpus file, an archive of them (its members cut by the main process) and a
    session cut into parts: the units read, followed and stitched in this process."""
    archive = tmp_path / "corpus.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for path in sorted((CORPUS / "cash" / "Stars").rglob("*.txt")):
            zf.write(path, path.name)
    paths = [CORPUS, archive, _session(tmp_path / "session.txt")]
    monkeypatch.setattr(ranges, "PART_BYTES", ONE_HAND)
    monkeypatch.setattr(verify_files, "TEXTS_HANDS", 3)  # members in batches of 3 hands
    one = list(verify_paths(paths))
    assert len(one) > 250
    assert _fields(list(verify_files.verify_in_parts(paths))) == _fields(one)


def test_the_tasks_for_workers_shrink_towards_a_file_s_end(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Every part once, in order; a worker's last tasks are single parts, so the workers
    finish together; one process keeps tasks of ``TASK_BYTES``."""
    path = _session(tmp_path / "session.txt")
    monkeypatch.setattr(ranges, "PART_BYTES", ONE_HAND)
    monkeypatch.setattr(verify_files, "TAIL_BYTES", ONE_HAND)
    monkeypatch.setattr(verify_files, "TASK_BYTES", 6 * ONE_HAND)
    [source] = iter_sources([path])
    assert isinstance(source, Source)
    every = ranges.parts(source) or []
    assert len(every) == 25

    def tasks(workers: int) -> list[int]:
        made = list(verify_files._tasks(iter([source]), workers))
        assert [u for task in made for u in task.units] == every
        assert all(task.sources == [0] * len(task.units) for task in made)
        return [len(task.units) for task in made]

    two = tasks(2)
    assert two[0] > 1 and two[-4:] == [1, 1, 1, 1]
    assert two == sorted(two, reverse=True)
    one = tasks(1)
    assert len(one) < len(two) and min(one[:-1]) > 1


def test_small_files_are_grouped_for_workers_as_for_one_process(tmp_path: Path) -> None:
    """Files of one part each: as many in a task for workers as for one process."""
    for n in range(30):
        _session(tmp_path / f"session{n:02}.txt")
    sources = list(iter_sources([tmp_path]))
    assert len(sources) == 30
    assert sum(s.size for s in sources if isinstance(s, Source)) > verify_files.TAIL_BYTES

    def tasks(workers: int) -> list[int]:
        return [len(task.units) for task in verify_files._tasks(iter(sources), workers)]

    assert tasks(2) == tasks(1) == [30]


def test_verify_imports_no_numpy() -> None:
    """``drawlab verify`` (and the workers forked from it) does not pay numpy's import,
    0.1 s of CPU, for a ranking only Badugi needs."""
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, analysis.pipeline.verify_files, engine.ranking as r; "
            "r.rank((20, 13, 10, 7, 0), r.Ranking.DEUCE_SEVEN); print('numpy' in sys.modules)",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "False"


def test_a_hand_missing_from_a_tournament_file_is_a_warning_and_the_hands_stay_ok(
    tmp_path: Path,
) -> None:
    """A PokerStars tournament file with one hand taken out: the button jumps a seat and
    stacks changed; the hand after the gap is ok with one HAND_MISSING warning."""
    hands = list(deal_hands(12, Game.BADUGI, 4, seed=9, structure=Structure.FIXED, tournament=True))
    gone = next(
        k
        for k in range(3, len(hands) - 1)
        if len({len(hands[j].seats) for j in (k - 1, k, k + 1)}) == 1
        and any(
            a.stack != b.stack for a, b in zip(hands[k - 1].seats, hands[k + 1].seats, strict=True)
        )
    )
    kept = [h for i, h in enumerate(hands) if i != gone]
    path = tmp_path / "tournament.txt"
    path.write_text("\n\n\n".join(write_pokerstars(h) for h in kept), encoding="utf-8")
    results = list(verify_paths([path]))
    assert [r.status for r in results] == ["ok"] * len(kept)
    found = [(r.hand_id, [p.code for p in r.problems]) for r in results if r.problems]
    assert found == [(hands[gone + 1].hand_id, ["HAND_MISSING"])]
    (problem,) = results[gone].problems
    assert problem.message.startswith(
        f"a hand is missing between hands {hands[gone - 1].hand_id} and "
        f"{hands[gone + 1].hand_id}: the button moved from seat {hands[gone - 1].button} to "
        f"seat {hands[gone + 1].button}, past seat {hands[gone].button} dealt in both"
    )


def test_a_summary_gets_its_own_verdict_every_way_verify_reads(tmp_path: Path) -> None:
    """A summary on disk and in an archive, read and not read: the same verdicts in one
    process, in the workers' way here and in worker processes."""
    good = CORPUS / "summaries" / "FTP" / "27SD-USD-MTT-1-201303.txt"
    bad = b"Full Tilt Poker Tournament Summary X (5) Badugi Limit\nBuy-In: $1.2.3 + $0.10\n"
    archive = tmp_path / "s.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("bad.txt", bad)
        zf.write(good, "good.txt")
    paths = [good, archive]
    expected = [
        (str(good), 1, "251286379", "fulltilt", "27_single_draw", "summary", ""),
        (f"{archive}/bad.txt", 2, "", "", "", "summary_error", "PARSE_ERROR"),
        (f"{archive}/good.txt", 1, "251286379", "fulltilt", "27_single_draw", "summary", ""),
    ]
    for results in (
        list(verify_paths(paths)),
        list(verify_files.verify_in_parts(paths)),
        list(verify_paths(paths, workers=2)),
    ):
        got = [
            (r.file, r.line, r.hand_id, r.site, r.game, r.status,
             ",".join(p.code for p in r.problems))
            for r in results
        ]
        assert got == expected
