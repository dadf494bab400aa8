"""Every real hand in the shared corpus: the consistent ones verify ok, the broken ones are named.

The corpus is read in place (../shared/corpus), never copied.  The manifest names the files
that are internally inconsistent; each must be flagged with the code of what is wrong and
on the line where it is wrong.  Every other hand the parsers read must replay without a
single error, and without warnings except the one listed below.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.pipeline.verification import HandResult
from analysis.pipeline.verify_files import verify_paths
from engine import problems as P
from tests.corpus import CORPUS

SIDECARS = (".hp", ".hands", ".gt")

# file -> problems (code, line) that must be among those reported; the hand is invalid
BROKEN: dict[str, set[tuple[str, int]]] = {
    # 'Seat 3: Player4 Seat 4: Player1 (big blind) collected ($0.50)': seat 3 is empty
    "cash/FTP/Draw/1-Draw-NL-USD-0.20-0.40-201211.bad.collect.pot.txt": {(P.UNKNOWN_PLAYER, 31)},
    # 'Player0 wins pot (1,350)' when 1,225 was in the pot (the nets agree with 1,225)
    "cash/KingsClub/Draw/NL-2-7-SD-USD-125-250-202103.missed.sb.txt": {(P.COLLECT_MISMATCH, 38)},
    # 'Dealt to Hero: [6h Ks Ks]' and 'Dealt to Player3: [X X X X X X]'
    "cash/KingsClub/Draw/NL-2-7-SD-USD-125-250-202103.RIT.txt": {
        (P.DUPLICATE_CARD, 29),
        (P.BAD_DRAW, 31),
    },
    # 'discards 2 cards []' then 'Dealt to Hero [same five] [same five]'
    "cash/Stars/Draw/Triple Draw 2-7 Lowball-FL-USD-1.00-2.00-201206.duplicate.holecards.txt": {
        (P.DUPLICATE_CARD, 21),
        (P.BAD_DRAW, 21),
        (P.DUPLICATE_CARD, 31),
    },
}

# (file, hand id) -> warnings expected on an ok hand
WARNED: dict[tuple[str, str], set[str]] = {
    # OnGame writes only the loser's cards: the winner's hand is unknown
    ("cash/OnGame/Draw/5-Carddraw-USD-0.05-0.10-201009.Sample.txt", "R5-81962116-235"): {
        P.UNDECIDED
    },
    # Full Tilt tops a stack up to the table's maximum without writing a line (the other
    # top-ups of the 10-game file are written, "X adds $16.25", and carried over silently)
    ("cash/FTP/Mix/10Game-6max-USD-2.50-5.201104.Sample.txt", "29705493576"): {P.STACK_CHANGE},
    ("cash/FTP/Mix/10Game-6max-USD-2.50-5.201104.Sample.txt", "29705637212"): {P.STACK_CHANGE},
    ("cash/FTP/Mix/10Game-6max-USD-2.50-5.201104.Sample.txt", "29704563387"): {P.STACK_CHANGE},
    ("cash/FTP/Mix/10Game-6max-USD-2.50-5.201104.Sample.txt", "29704583328"): {P.STACK_CHANGE},
}


def _hand_files() -> list[Path]:
    return sorted(
        p
        for p in CORPUS.rglob("*")
        if p.is_file() and p.suffix not in SIDECARS and p.name not in ("MANIFEST.tsv", "README.md")
    )


@pytest.fixture(scope="module")
def results() -> dict[str, list[HandResult]]:
    by_file: dict[str, list[HandResult]] = {}
    for path in _hand_files():
        by_file[str(path.relative_to(CORPUS))] = list(verify_paths([path]))
    return by_file


def test_the_corpus_is_there() -> None:
    assert len(_hand_files()) >= 50


def test_every_file_gets_a_verdict_and_nothing_fails_to_parse(
    results: dict[str, list[HandResult]],
) -> None:
    for name, found in results.items():
        assert found, name
        for r in found:
            assert r.status != "parse_error", (name, r.reason)


def test_every_consistent_hand_verifies_ok(results: dict[str, list[HandResult]]) -> None:
    replayed = 0
    for name, found in results.items():
        if name in BROKEN:
            continue
        for r in found:
            if r.status in ("unsupported", "incomplete", "summary"):  # none replayed
                continue
            replayed += 1
            assert r.status == "ok", (name, r.hand_id, r.problems)
            warned = {p.code for p in r.problems}
            assert warned == WARNED.get((name, r.hand_id), set()), (name, r.hand_id, r.problems)
    assert replayed >= 50


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_each_broken_hand_is_flagged_with_its_code_and_line(
    results: dict[str, list[HandResult]], name: str
) -> None:
    (result,) = results[name]
    assert result.status == "invalid"
    reported = {(p.code, p.line) for p in result.problems}
    assert BROKEN[name] <= reported, result.problems


def test_incomplete_hands_and_summaries_are_counted_not_replayed(
    results: dict[str, list[HandResult]],
) -> None:
    incomplete = sorted(
        name for name, found in results.items() for r in found if r.status == "incomplete"
    )
    assert incomplete == [
        "cash/FTP/Draw/3-Draw-Limit-USD-10-20-201101.Dead.hand.txt",
        "cash/FTP/Draw/3-Draw-Limit-USD-20-40-201101.Partial.txt",
        "cash/Merge/Draw/3-Draw-PL-USD-0.05-0.10-201102.Cancelled.hand.txt",
        "cash/Stars/Draw/3-Draw-Limit-USD-1-2-200809.Hand.cancelled.txt",
    ]
    summaries = sorted(  # a summary is its own kind of record, not an incomplete hand
        (name, r.hand_id) for name, found in results.items() for r in found
        if r.status == "summary"
    )
    assert summaries == [
        ("summaries/FTP/27SD-USD-MTT-1-201303.txt", "251286379"),
        ("summaries/FTP/27TD-USD-HUSnG-201101.Hero.wins.txt", "211366000"),
        ("summaries/FTP/3-Draw-Limit-USD-STT-2max-10-201211.Hero.loses.txt", "243560420"),
    ]
