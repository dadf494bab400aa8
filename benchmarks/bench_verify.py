"""Hands parsed and verified per second on one core, next to pokerkit replaying the same hands.

The large PokerStars triple-draw file is dealt (``engine.sim.dealer``: fixed-limit 2-7 triple
draw at tables of 2 to 6 players, the corpus has too few hands) and written out with the
PokerStars writer.  Our figure is ``print_paths`` over that file, exactly what ``drawlab
verify`` does: decode, split, parse, replay and verify every hand, follow the stacks, render
the report (the readable one; ``--json`` renders every hand's line).  The same hands are
written as PHH, and pokerkit loads each text (``HandHistory.loads``) and replays it to its
last state: the work an import through pokerkit would do.  The PHH texts are made before
the clock starts.

Times are CPU seconds (``time.process_time``): hands per second per core, whatever else the
machine is running.  The replay alone is also given in microseconds per hand, best of three
runs: ``replay`` (verdict, final stacks and pots, what the importer calls for every hand)
over the dealt records and over the records parsed from the file (only the hero's cards
known, as in a real history).

The two-core figure is ``print_paths(..., workers=2)`` (``drawlab verify --workers 2``):
hands per *wall* second, worker start-up included, so it depends on what else the machine
runs (the load average is printed beside it); the one-core figure is CPU time and does
not.  The CPU of that run is given per hand, the main process's and the workers' (theirs
from ``getrusage`` once they have exited).  Then where a worker's CPU goes, timed where and
as the workers spend it: in a worker process of the same kind (forked, its collector set
by ``worker_init``), streaming the same parts and keeping no record, the cumulative work
of cutting the parts into hand texts, then parsing them too, then replaying them too, then
all of ``verify_units`` with its result pickled as it crosses the pipe; each stage is the
difference of two of them (best of three each).  Keeping the records of all the hands
alive under the default collector, as this benchmark did before, added some 40-55 us a
hand to the parse (the collector walking them), which no worker pays; the stages now add
up to what a worker spends a hand, printed beside the workers' CPU of the two-core run.

Run ``python -m benchmarks.bench_verify [HANDS]``; goals: at least 2,500 hands per second
on one core, at least three times pokerkit, at least 10,000 hands per second on two.
"""

from __future__ import annotations

import gc
import os
import pickle
import resource
import sys
import tempfile
import time
import warnings
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from analysis.pipeline.verify_files import (
    TASK_UNITS,
    _sources,
    _tasks,
    print_paths,
    verify_units,
)
from analysis.pipeline.workers import quick_context, worker_init
from engine.pots import NO_RAKE
from engine.record import Game, Hand
from engine.replay import replay
from engine.sim.dealer import deal_hands
from parser.phh import write_phh
from parser.pokerstars_writer import write_pokerstars
from parser.ranges import Part, cut_part
from parser.reader import parse


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


class Run:
    """One ``drawlab verify`` of the file: hands, hands ok, this process's CPU seconds, the
    workers' CPU seconds, wall seconds."""

    def __init__(self, path: Path, workers: int) -> None:
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        start, wall = time.process_time(), time.perf_counter()
        self.hands = self.ok = 0
        for printed in print_paths([path], workers, "text"):
            self.hands += sum(printed.counts.values())
            self.ok += printed.counts.get("ok", 0)
        self.cpu = time.process_time() - start
        self.wall = time.perf_counter() - wall
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.workers_cpu = (after.ru_utime + after.ru_stime) - (
            children.ru_utime + children.ru_stime
        )


def units_of(path: Path) -> list[Part]:
    """The parts the workers read, as ``drawlab verify --workers`` cuts the file."""
    return [u for task in _tasks(_sources([path])) for u in task.units if isinstance(u, Part)]


def records_of(units: list[Part]) -> list[Hand]:
    """The records parsed from the parts (only the hero's cards known)."""
    cuts = [(reader, chunk) for unit in units for reader, chunk, _ in cut_part(unit)]
    parsed = [parse(reader, chunk) for reader, chunk in cuts if reader is not None]
    return [hand for hand in parsed if isinstance(hand, Hand)]


def stages(units: list[Part]) -> dict[str, float]:
    """``worker_stages`` in a worker process like those of ``drawlab verify --workers``."""
    with ProcessPoolExecutor(1, mp_context=quick_context(), initializer=worker_init) as pool:
        return pool.submit(worker_stages, units).result()


def worker_stages(units: list[Part]) -> dict[str, float]:
    """CPU seconds of each stage over every hand, as a worker spends them: the units
    streamed, no record kept, each stage the difference of two cumulative runs (the best
    of three of each), the last one ``verify_units`` and the pickling of what it sends."""

    def cut() -> None:
        for unit in units:
            for _ in cut_part(unit):
                pass

    def parsed() -> None:
        for unit in units:
            for reader, chunk, _ in cut_part(unit):
                if reader is not None:
                    parse(reader, chunk)

    def replayed() -> None:
        for unit in units:
            for reader, chunk, _ in cut_part(unit):
                if reader is not None:
                    hand = parse(reader, chunk)
                    if isinstance(hand, Hand):
                        replay(hand)

    def everything() -> None:
        for start in range(0, len(units), TASK_UNITS):  # at most a task's units at a time
            pickle.dumps(verify_units(units[start : start + TASK_UNITS], "text"))

    cumulative: dict[str, float] = {}
    for stage, work in (
        ("cut", cut),
        ("parse", parsed),
        ("replay", replayed),
        ("all", everything),
    ):
        times = []
        for _ in range(3):
            start = time.process_time()
            work()
            times.append(time.process_time() - start)
        cumulative[stage] = min(times)
    return {
        "cut": cumulative["cut"],
        "parse": cumulative["parse"] - cumulative["cut"],
        "replay": cumulative["replay"] - cumulative["parse"],
        "rest": cumulative["all"] - cumulative["replay"],
        "all": cumulative["all"],
    }


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
    gc.freeze()  # the dealt records: never walked by the collector in the runs timed here
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "stars-triple-draw.txt"
        with path.open("w", encoding="utf-8") as out:
            for hand in hands:
                out.write(write_pokerstars(hand))
                out.write("\n\n\n")
        size = path.stat().st_size
        one = Run(path, 1)
        two = Run(path, 2)
        load = os.getloadavg()[0]  # over the last minute: that run
        units = units_of(path)
        spent = stages(units)
        parsed = records_of(units)
    replaying = replay_only(hands)
    replaying_parsed = replay_only(parsed)
    texts = [write_phh(hand) for hand in hands]
    replayed, refused, kit_seconds = pokerkit(texts)
    total = one.hands
    rate = total / one.cpu
    kit_rate = (replayed + refused) / kit_seconds
    assert (two.hands, two.ok) == (one.hands, one.ok)  # the same verdicts whatever the workers

    def us(seconds: float) -> str:
        return f"{seconds * 1e6 / total:.1f} us"

    print(
        f"file: {total} PokerStars 2-7 triple draw hands, {size / 1e6:.1f} MB, "
        f"{one.ok} verify ok"
    )
    print(
        f"drawlab parse + verify: {rate:,.0f} hands/s ({one.cpu:.2f} s CPU on one core, "
        f"{one.wall:.2f} s wall)"
    )
    p_rate = two.hands / two.wall
    print(
        f"drawlab verify --workers 2: {p_rate:,.0f} hands/s ({two.wall:.2f} s wall, "
        f"worker start-up included, load average {load:.1f}; goal >= 10,000 on 2 "
        f"cores: {'met' if p_rate >= 10_000 else 'NOT met'})"
    )
    print(
        f"  CPU per hand in that run: {us(two.cpu + two.workers_cpu)} "
        f"(main process {us(two.cpu)}, workers {us(two.workers_cpu)}; the workers' stages "
        f"below add up to {us(spent['all'])})"
    )
    print(
        f"  a worker's CPU per hand, timed as the workers run: {us(spent['all'])} = cut "
        f"{us(spent['cut'])} + parse {us(spent['parse'])} + replay {us(spent['replay'])} "
        f"+ the rest {us(spent['rest'])} (stacks followed, verdicts made, rendered, "
        f"counted and pickled)"
    )
    print(f"  replay:               {replaying:.1f} us per hand of the dealt records (best of 3)")
    print(f"  replay:               {replaying_parsed:.1f} us per hand of the parsed records")
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
