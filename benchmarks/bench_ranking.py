"""Hands ranked per second: one at a time from text, in batch, and pokerkit for scale.

Run: ``python -m benchmarks.bench_ranking``.  Goals (issue 2): one at a time from text at
least 5x pokerkit's StandardLowHand on the same hands; batch at least 10 million hands/s.
"""

from __future__ import annotations

import random
import time

import numpy as np

from engine.cards import format_cards, parse_cards
from engine.compare import parse_hand
from engine.ranking import FIVE_CARD_RANKINGS, Ranking, rank
from engine.sim.batch import all_hands, combinations_array, rank_batch


def _per_second(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def main(text_hands: int = 50_000, batch_copies: int = 4) -> None:
    rng = random.Random(1)
    texts = [format_cards(rng.sample(range(52), 5), sep="") for _ in range(text_hands)]

    start = time.perf_counter()
    ours = [rank(parse_hand(t), Ranking.DEUCE_SEVEN) for t in texts]
    ours_rate = _per_second(len(texts), time.perf_counter() - start)

    from pokerkit import StandardLowHand  # test-only dependency: imported only here

    start = time.perf_counter()
    theirs = [StandardLowHand(t) for t in texts]
    pk_rate = _per_second(len(texts), time.perf_counter() - start)

    # Same hands, same verdicts: a benchmark of a wrong answer is worth nothing.
    for i in range(0, len(texts) - 1, 2):
        a, b = ours[i], ours[i + 1]
        ta, tb = theirs[i], theirs[i + 1]
        expected = -1 if ta > tb else 1 if tb > ta else 0
        assert (-1 if a < b else 1 if b < a else 0) == expected, (texts[i], texts[i + 1])

    cards = [parse_cards(t) for t in texts]
    start = time.perf_counter()
    for c in cards:
        rank(c, Ranking.DEUCE_SEVEN)
    ints_rate = _per_second(len(cards), time.perf_counter() - start)

    hands = np.random.default_rng(2).permutation(np.tile(all_hands(), (batch_copies, 1)))
    batch_rates = {}
    for ranking in FIVE_CARD_RANKINGS:
        rank_batch(hands[:1000], ranking)  # warm the tables
        start = time.perf_counter()
        rank_batch(hands, ranking)
        batch_rates[ranking] = _per_second(len(hands), time.perf_counter() - start)

    # Badugi: four-card hands, its own table (built on first use, timed apart).
    start = time.perf_counter()
    rank((0, 5, 10, 15), Ranking.BADUGI)
    badugi_build = time.perf_counter() - start
    fours = [tuple(rng.sample(range(52), 4)) for _ in range(text_hands)]
    start = time.perf_counter()
    for c in fours:
        rank(c, Ranking.BADUGI)
    badugi_ints_rate = _per_second(len(fours), time.perf_counter() - start)
    four_hands = np.random.default_rng(2).permutation(
        np.tile(combinations_array(52, 4), (batch_copies * 9, 1))
    )
    start = time.perf_counter()
    rank_batch(four_hands, Ranking.BADUGI)
    batch_rates[Ranking.BADUGI] = _per_second(len(four_hands), time.perf_counter() - start)

    print(f"one at a time from text (2-7): {ours_rate:12,.0f} hands/s")
    print(f"pokerkit StandardLowHand(text): {pk_rate:12,.0f} hands/s")
    print(f"  ratio: {ours_rate / pk_rate:.1f}x (goal >= 5x)")
    print(f"one at a time from card ints:   {ints_rate:12,.0f} hands/s")
    print(f"one at a time, Badugi (ints):   {badugi_ints_rate:12,.0f} hands/s")
    print(f"Badugi table built on first use: {badugi_build * 1000:8.0f} ms")
    for ranking, rate in batch_rates.items():
        count = len(four_hands) if ranking is Ranking.BADUGI else len(hands)
        print(f"batch {ranking.value:>6} ({count:,} hands): {rate:14,.0f} hands/s (goal >= 10M)")


if __name__ == "__main__":
    main()
