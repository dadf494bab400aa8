"""Bytecode instructions a hand, by function: a measure of the interpreter's work that no
other process on the machine changes.

On the shared host the CPU time of a replay moves by a tenth from run to run, more than
most single changes to the engine save; the count of instructions the interpreter runs does
not move at all.  ``sys.settrace`` with ``f_trace_opcodes`` counts them in every Python
frame, not inside C (a dict look-up, a set test or a record's ``object.__setattr__`` is
the one instruction that calls it), so the count ranks the Python-level costs and shows
whether a change removed work; what that saves in time is still for the clock to say
(``bench_verify``, best of several runs beside main).

    python -m benchmarks.bench_opcodes [--top N] [--parse]

The replay (``engine.replay.replay``, no views) of every hand of ``sample_histories/``,
read first and replayed once untraced (tables built, caches warm); ``--parse`` counts the
parse of those files instead (every site's reader they need, the lines' memo warm).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

from engine.record import Hand
from engine.replay import replay
from parser.reader import read_path

SAMPLES = Path(__file__).resolve().parent.parent / "sample_histories"
Tracer = Callable[[FrameType, str, Any], Any]


class Census:
    """Instructions and calls counted by function (``file:line name``) while tracing."""

    def __init__(self) -> None:
        self.ops: Counter[str] = Counter()
        self.calls: Counter[str] = Counter()
        self._names: dict[CodeType, str] = {}

    def _name(self, code: CodeType) -> str:
        name = self._names.get(code)
        if name is None:
            name = f"{Path(code.co_filename).name}:{code.co_firstlineno} {code.co_name}"
            self._names[code] = name
        return name

    def run(self, work: Callable[[], object]) -> None:
        ops, calls, name = self.ops, self.calls, self._name

        def local(frame: FrameType, event: str, arg: Any) -> Tracer:
            if event == "opcode":
                ops[name(frame.f_code)] += 1
            return local

        def on_call(frame: FrameType, event: str, arg: Any) -> Tracer | None:
            if event != "call":
                return None
            frame.f_trace_opcodes = True
            calls[name(frame.f_code)] += 1
            return local

        sys.settrace(on_call)
        try:
            work()
        finally:
            sys.settrace(None)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="bench_opcodes")
    ap.add_argument("--top", type=int, default=25, help="functions listed (default 25)")
    ap.add_argument("--parse", action="store_true", help="count the parse, not the replay")
    args = ap.parse_args(argv)
    files = sorted(p for p in SAMPLES.rglob("*") if p.is_file())
    hands = [h for p in files for _, h in read_path(p) if isinstance(h, Hand)]

    def parse_all() -> None:
        for path in files:
            for _ in read_path(path):
                pass

    def replay_all() -> None:
        for hand in hands:
            replay(hand)

    work = parse_all if args.parse else replay_all
    work()  # untraced: what a process pays once is not a cost per hand
    census = Census()
    census.run(work)
    n = len(hands)
    what = "parse" if args.parse else "replay"
    total_ops, total_calls = sum(census.ops.values()), sum(census.calls.values())
    print(f"{what} of {n:,} sample hands: {total_ops / n:,.0f} instructions and", end=" ")
    print(f"{total_calls / n:,.1f} Python calls a hand")
    for name, count in census.ops.most_common(args.top):
        calls = census.calls[name]
        print(f"  {name:44s} {count / n:8.1f} a hand  {calls / n:6.1f} calls a hand")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
