"""How fast a large PokerStars triple-draw file reads, and how much memory that takes.

Two files, written to a temporary folder:
- simulated: 6-max fixed-limit 2-7 triple draw hands from the dealer (seeded), written as
  PokerStars text: every line kind of a triple-draw hand, many hands to showdown;
- corpus: the corpus's PokerStars draw hands repeated with fresh hand ids;
- fresh names: the files bench_import and bench_stages read (``bench_import.simulated``: ten
  table sessions of 2 to 6 players in four draw games, the players and stacks of each
  session its own), where far fewer lines repeat than in one long session: the case of a
  user importing many tables, and the figure the parser's memo of lines helps least.
Reading goes through ``read_path`` as an import does: detect the encoding, decode, split,
parse.  Run ``python -m benchmarks.bench_parse [HANDS]``; it prints hands per second on one
core, the CPU microseconds per hand of its two phases apart (decoding and cutting the file
into hands, which the importer's main process does; parsing the hands, which its workers
do), and the peak memory (tracemalloc) for the file and for a file ten times smaller:
close peaks mean memory does not grow with the file (the parser's bounded memo of lines
it has read fills up to its bound).
"""

from __future__ import annotations

import gc
import re
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

from engine.record import Game, Hand
from engine.sim.dealer import deal_hands
from parser.encoding import BLOCK, open_stream
from parser.outcome import HandText
from parser.pokerstars import PokerStarsReader
from parser.pokerstars_writer import write_pokerstars
from parser.reader import read_path
from tests.corpus import corpus_dir

CORPUS = corpus_dir()
_ID = re.compile(r"^(PokerStars (?:Hand|Game) #)\d+", re.MULTILINE)


def simulated_texts(count: int) -> Iterator[str]:
    for hand in deal_hands(count, Game.TRIPLE_DRAW_27, 6, seed=20_261_129):
        yield write_pokerstars(hand)


def corpus_texts(count: int) -> Iterator[str]:
    texts: list[str] = []
    for folder in ("cash/Stars/Draw", "tour/Stars/Draw"):
        for path in sorted((CORPUS / folder).glob("*.txt")):
            texts.extend(c.text for c, o in read_path(path) if isinstance(o, Hand))
    for i in range(count):
        yield _ID.sub(rf"\g<1>{9_000_000_000 + i}", texts[i % len(texts)])


def write_file(path: Path, texts: Iterator[str]) -> int:
    with path.open("w", encoding="utf-8", newline="\r\n") as out:
        for text in texts:
            out.write(text)
            out.write("\n\n\n")
    return path.stat().st_size


def fresh_files(hands: int) -> list[Path]:
    """The ten files of ``hands`` dealt hands that bench_stages imports (made once, cached)."""
    from benchmarks.bench_import import simulated

    return sorted(simulated(hands, 10).glob("*.txt"))


def speed(paths: list[Path]) -> tuple[int, float]:
    """Hands parsed and the CPU seconds it took (CPU time: other load on the machine
    does not count against one core's rate)."""
    start = time.process_time()
    parsed = sum(
        1 for path in paths for _, outcome in read_path(path) if isinstance(outcome, Hand)
    )
    return parsed, time.process_time() - start


def phases(paths: list[Path], repeats: int = 3) -> tuple[float, float]:
    """CPU microseconds per hand to cut the file into hands, and to parse them (best of
    ``repeats``: the least disturbed run), with the garbage collector set as the importer's
    processes set it."""
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    try:
        return _phases(paths, repeats)
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


def _phases(paths: list[Path], repeats: int) -> tuple[float, float]:
    reader = PokerStarsReader()

    def cut() -> list[HandText]:
        chunks: list[HandText] = []
        for path in paths:
            with path.open("rb") as f:
                _, lines = open_stream(f, f.read(BLOCK))
                chunks.extend(reader.split(lines, str(path)))
        return chunks

    chunks = cut()
    split_best = parse_best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        cut()
        split_best = min(split_best, time.process_time() - start)
        start = time.process_time()
        for chunk in chunks:
            reader.parse(chunk)
        parse_best = min(parse_best, time.process_time() - start)
    return split_best * 1e6 / len(chunks), parse_best * 1e6 / len(chunks)


def peak_memory(paths: list[Path]) -> int:
    tracemalloc.start()
    tracemalloc.reset_peak()
    for path in paths:
        for _ in read_path(path):
            pass
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def main(argv: list[str]) -> int:
    hands = int(argv[0]) if argv else 20_000
    with tempfile.TemporaryDirectory() as tmp:
        for name, source in (("simulated", simulated_texts), ("corpus", corpus_texts)):
            big = Path(tmp) / f"{name}-big.txt"
            small = Path(tmp) / f"{name}-small.txt"
            size = write_file(big, source(hands))
            write_file(small, source(hands // 10))
            report(name, hands, size, [big], [small])
    big_files, small_files = fresh_files(hands), fresh_files(hands // 10)
    size = sum(p.stat().st_size for p in big_files)
    report("fresh names", hands, size, big_files, small_files)
    return 0


def report(name: str, hands: int, size: int, big: list[Path], small: list[Path]) -> None:
    parsed, seconds = speed(big)
    split_us, parse_us = phases(big)
    peak_big, peak_small = peak_memory(big), peak_memory(small)
    print(
        f"{name}: {parsed} of {hands} hands parsed, {size / 1e6:.1f} MB, "
        f"{seconds:.2f} s = {parsed / seconds:,.0f} hands per CPU second (one core); "
        f"read+split {split_us:.1f} us/hand, parse {parse_us:.1f} us/hand; "
        f"peak memory {peak_big / 1e6:.2f} MB "
        f"({peak_small / 1e6:.2f} MB for a file ten times smaller)"
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
