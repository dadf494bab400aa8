"""How fast a large PokerStars triple-draw file reads, and how much memory that takes.

The corpus holds only a few PokerStars hands, so the big file is made of the corpus's
PokerStars draw hands repeated with fresh hand ids (about half of them triple draw).
Reading goes through ``read_path`` exactly as an import does: decode, split, parse.
Run ``python -m benchmarks.bench_parse [HANDS]``; it prints hands per second on one core
and the peak memory of the reading (tracemalloc) next to the file's size.
"""

from __future__ import annotations

import re
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from engine.record import Game, Hand
from parser.reader import read_path

CORPUS = Path("/work/shared/corpus")
SOURCES = ("cash/Stars/Draw", "tour/Stars/Draw")
_ID = re.compile(r"^(PokerStars (?:Hand|Game) #)\d+", re.MULTILINE)


def corpus_hands() -> list[str]:
    """The corpus's PokerStars hands that parse, triple draw weighted as in real play."""
    texts: list[str] = []
    for folder in SOURCES:
        for path in sorted((CORPUS / folder).glob("*.txt")):
            for chunk, outcome in read_path(path):
                if isinstance(outcome, Hand):
                    weight = 6 if outcome.game is Game.TRIPLE_DRAW_27 else 1
                    texts.extend([chunk.text] * weight)
    return texts


def write_big_file(path: Path, hands: int) -> int:
    texts = corpus_hands()
    with path.open("w", encoding="utf-8") as out:
        for i in range(hands):
            text = _ID.sub(lambda m, i=i: f"{m.group(1)}{9_000_000_000 + i}", texts[i % len(texts)])
            out.write(text)
            out.write("\n\n\n")
    return path.stat().st_size


def measure(path: Path) -> tuple[int, int, float]:
    start = time.perf_counter()
    parsed = sum(1 for _, outcome in read_path(path) if isinstance(outcome, Hand))
    return parsed, 0, time.perf_counter() - start


def main(argv: list[str]) -> int:
    hands = int(argv[0]) if argv else 50_000
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "stars-big.txt"
        size = write_big_file(path, hands)
        parsed, _, seconds = measure(path)
        tracemalloc.start()
        small = Path(tmp) / "stars-small.txt"
        write_big_file(small, hands // 10)
        tracemalloc.reset_peak()
        sum(1 for _ in read_path(small))
        _, peak_small = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        sum(1 for _ in read_path(path))
        _, peak_big = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    print(f"file: {hands} hands, {size / 1e6:.1f} MB")
    print(f"parsed: {parsed} hands in {seconds:.2f} s = {parsed / seconds:,.0f} hands/s (one core)")
    print(
        f"peak memory while reading: {peak_big / 1e6:.2f} MB for {hands} hands, "
        f"{peak_small / 1e6:.2f} MB for {hands // 10} hands (flat = streaming)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
