"""Full Tilt hands parsed per second (one core), and the other site readers for scale.

The corpus's Full Tilt hands (all twelve that hold a hand, UTF-8 and UTF-16 alike,
decoded once) are repeated into one large in-memory file, which is then read the way a
user's file is: cut into hands, each parsed to a record.  Two figures: the whole path
from decoded text (``read_text``: lines, sniffing, splitting, parsing) and the parse of
already-cut hands alone.  The peer open-source tracker reads about 2,000 Full Tilt hands
per second.  Rates are per CPU second (``time.process_time``).  Run
``python -m benchmarks.bench_parse_sites [HANDS]`` (default 20,000).
"""

from __future__ import annotations

import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from engine.record import Hand
from parser.encoding import open_stream
from parser.fulltilt import FullTiltReader
from parser.outcome import HandText
from parser.reader import read_text
from parser.site import SiteReader
from tests.corpus import corpus_dir

CORPUS = corpus_dir() / "cash"


def decoded(path: Path) -> str:
    with path.open("rb") as f:
        _, lines = open_stream(f)
        return "\n".join(text for _, text in lines)


def hand_texts(folder: str, reader: SiteReader) -> list[str]:
    """The text of every hand (not skip) of one site's corpus files."""
    out = []
    for path in sorted((CORPUS / folder).rglob("*")):
        if path.suffix not in (".txt", ".xml"):
            continue
        with path.open("rb") as f:
            _, lines = open_stream(f)
            for chunk in reader.split(lines, str(path)):
                if isinstance(reader.parse(chunk), Hand):
                    out.append(chunk.text)
    return out


def best_rate(count: int, run: Callable[[], object], repeat: int = 5) -> float:
    """Items per CPU second of the fastest of ``repeat`` runs (the machine is shared: CPU
    time does not count the other load against the rate, the fastest run the least
    disturbed)."""
    fastest = min(_timed(run) for _ in range(repeat))
    return count / fastest


def _timed(run: Callable[[], object]) -> float:
    start = time.process_time()
    run()
    return time.process_time() - start


def bench_site(name: str, folder: str, reader: SiteReader, hands: int) -> None:
    texts = hand_texts(folder, reader)
    chunks = [HandText("bench", 1, texts[i % len(texts)], reader.site) for i in range(hands)]

    def parse_all() -> None:
        for chunk in chunks:  # records dropped as made, as an import does
            reader.parse(chunk)

    rate = best_rate(hands, parse_all)
    print(f"  {name:10} parse only: {rate:8,.0f} hands/s ({len(texts)} distinct hands)")


def main(argv: list[str]) -> int:
    hands = int(argv[1]) if len(argv) > 1 else 20_000
    ftp = FullTiltReader()
    texts = hand_texts("FTP", ftp)
    big = "\n\n".join(texts[i % len(texts)] for i in range(hands))
    print(f"Full Tilt: {hands:,} hands ({len(texts)} distinct corpus hands repeated), one core")

    def whole() -> int:
        return sum(1 for _, out in read_text(big, "bench.txt") if isinstance(out, Hand))

    assert whole() == hands
    print(f"  read_text (cut + parse): {best_rate(hands, whole):8,.0f} hands/s")
    tracemalloc.start()
    whole()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"  peak memory while reading: {peak / 2**20:.1f} MiB "
        f"(the {len(big) / 2**20:.1f} MiB text itself excluded)"
    )
    bench_site("fulltilt", "FTP", ftp, hands)
    loop = best_rate(1_000_000, lambda: sum(range(1_000_000)), repeat=5)
    print(f"  (this machine: {loop / 1e6:.0f} M integer additions/s in sum(range()))")
    from parser.boss import BossReader
    from parser.kingsclub import KingsClubReader
    from parser.merge import MergeReader
    from parser.ongame import OnGameReader
    from parser.winamax import WinamaxReader

    print("Other sites, parse only, for scale:")
    for name, folder, reader in (
        ("kingsclub", "KingsClub", KingsClubReader()),
        ("winamax", "Winamax", WinamaxReader()),
        ("ongame", "OnGame", OnGameReader()),
        ("merge", "Merge", MergeReader()),
        ("boss", "Boss", BossReader()),
    ):
        bench_site(name, folder, reader, hands // 4)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
