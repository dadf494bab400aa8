"""Hands parsed and verified per second on one core, next to pokerkit replaying the same hands.

The large PokerStars triple-draw file is dealt (``engine.sim.dealer``: fixed-limit 2-7 triple
draw at tables of 2 to 6 players, the corpus has too few hands) and written out with the
PokerStars writer.  Our figure is ``verify_paths`` over that file, exactly what ``drawlab
verify`` does: decode, split, parse, replay and verify every hand, follow the stacks.  The
same hands are written as PHH, and pokerkit loads each text (``HandHistory.loads``) and
replays it to its last state: the work an import through pokerkit would do.  The PHH texts
are made before the clock starts.

Times are CPU seconds of this one process (``time.process_time``): hands per second per
core, whatever else the machine is running.  The replay alone is also given in
microseconds per hand, best of three runs: ``replay`` (verdict, final stacks and pots,
what the importer calls for every hand) over the records already parsed.

The two-core figure is ``verify_paths(..., workers=2)`` (``drawlab verify --workers 2``):
hands per *wall* second, worker start-up included, so it depends on what else the machine
runs (the load average is printed beside it); the one-core figure is CPU time and does
not.  The main process's CPU time per hand in that run is given too: the workers read
their own parts of the file, so it is only the putting together of their verdicts.

Run ``python -m benchmarks.bench_verify [HANDS]``; goals: at least 2,500 hands per second
on one core, at least three times pokerkit, at least 10,000 hands per second on two.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

from analysis.pipeline.verify_files import verify_in_parts, verify_paths
from engine.pots import NO_RAKE
from engine.record import Game, Hand
from engine.replay import replay
from engine.sim.dealer import deal_hands
from parser.phh import write_phh
from parser.pokerstars_writer import write_pokerstars
from parser.reader import read_path


def dealt(hands: int) -> list[Hand]:
    """``hands`` triple-draw hands spread over tables of 2 to 6 players."""
    out: list[Hand] = []
    per_size = hands // 5 + 1
    for players in (2, 3, 4, 5, 6):
        out.extend(
            deal_hands(
                per_size,
                Game.TRIPLE_DRAW_27,
                players,
                seed=1000 + players,
                rake=NO_RAKE,
                site="phh",  # the rulebook's cap heads-up, which pokerkit also applies
                first_hand_id=10_000_000 * players,
            )
        )
    return out[:hands]


def ours(path: Path, workers: int = 1) -> tuple[int, int, float, float]:
    """Hands, hands ok, CPU seconds (of this process), wall seconds."""
    start, wall = time.process_time(), time.perf_counter()
    total = ok = 0
    for result in verify_paths([path], workers=workers):
        total += 1
        ok += result.status == "ok"
    return total, ok, time.process_time() - start, time.perf_counter() - wall


def in_parts(path: Path) -> float:
    """CPU seconds of the two-core run's work done in this one process: the workers' job on
    every part of the file and the main process's stitching, without the processes."""
    start = time.process_time()
    for _ in verify_in_parts([path]):
        pass
    return time.process_time() - start


def parse_only(path: Path) -> float:
    start = time.process_time()
    for _ in read_path(path):
        pass
    return time.process_time() - start


def replay_only(hands: list[Hand], runs: int = 3) -> float:
    """CPU microseconds per hand of ``replay``, the best of ``runs`` passes."""
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        for hand in hands:
            replay(hand)
        best = min(best, time.process_time() - start)
    return best * 1e6 / len(hands)


def pokerkit(texts: list[str]) -> tuple[int, int, float]:
    """Hands replayed, hands pokerkit refused (its repair of the history fails), seconds."""
    from pokerkit import HandHistory  # a test-and-benchmark tool, never a runtime dependency

    start = time.process_time()
    done = refused = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for text in texts:
            try:
                for _state in HandHistory.loads(text):
                    pass
                done += 1
            except ValueError:
                refused += 1
    return done, refused, time.process_time() - start


def main(argv: list[str]) -> int:
    count = int(argv[0]) if argv else 20_000
    hands = dealt(count)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "stars-triple-draw.txt"
        with path.open("w", encoding="utf-8") as out:
            for hand in hands:
                out.write(write_pokerstars(hand))
                out.write("\n\n\n")
        size = path.stat().st_size
        total, ok, seconds, wall = ours(path)
        parallel = {n: ours(path, n) for n in (2,)}
        load = {n: os.getloadavg()[0] for n in parallel}  # over the last minute: that run
        main_cpu = {n: cpu for n, (_, _, cpu, _) in parallel.items()}
        parsing = parse_only(path)
        parted = in_parts(path)
    replaying = replay_only(hands)
    texts = [write_phh(hand) for hand in hands]
    replayed, refused, kit_seconds = pokerkit(texts)
    rate = total / seconds
    kit_rate = (replayed + refused) / kit_seconds
    print(f"file: {total} PokerStars 2-7 triple draw hands, {size / 1e6:.1f} MB, {ok} verify ok")
    print(
        f"drawlab parse + verify: {rate:,.0f} hands/s ({seconds:.2f} s CPU on one core, "
        f"{wall:.2f} s wall)"
    )
    for n, (p_total, p_ok, _, p_wall) in parallel.items():
        assert (p_total, p_ok) == (total, ok)  # the same verdicts whatever the workers
        p_rate = p_total / p_wall
        print(
            f"drawlab verify --workers {n}: {p_rate:,.0f} hands/s ({p_wall:.2f} s wall, "
            f"worker start-up included, load average {load[n]:.1f}; goal >= 10,000 on 2 "
            f"cores: {'met' if p_rate >= 10_000 else 'NOT met'}); main process "
            f"{main_cpu[n] * 1e6 / p_total:.1f} us CPU per hand"
        )
    print(
        f"  the two-core run's work in one process: {parted * 1e6 / total:.1f} us CPU per hand, "
        f"so {2 * total / parted:,.0f} hands/s on two idle cores at best"
    )
    print(f"  of which parse only:  {total / parsing:,.0f} hands/s")
    print(f"  replay only:          {1e6 / replaying:,.0f} hands/s")
    print(f"  replay:               {replaying:.1f} us per hand (best of 3, the importer's call)")
    print(
        f"pokerkit load + replay of the same hands as PHH: {kit_rate:,.0f} hands/s "
        f"({replayed} replayed, {refused} refused)"
    )
    print(
        f"ratio: {rate / kit_rate:.1f}x pokerkit (goal >= 3x); goal >= 2,500 hands/s: "
        f"{'met' if rate >= 2500 else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
