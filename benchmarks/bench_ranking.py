"""Hands ranked per second: one at a time from text, in batch, and pokerkit for scale.

Run: ``python -m benchmarks.bench_ranking``.  Goals (issue 2): one at a time from text at
least 5x pokerkit's StandardLowHand on the same hands; batch at least 10 million hands/s.
Badugi (issue 15) beside them: from text against pokerkit's ``BadugiHand.from_game``, from
card ints, and in batch.
"""

from __future__ import annotations

import random
import time

import numpy as np

from engine import ranking as ranking_module
from engine.cards import format_cards, parse_cards
from engine.compare import parse_hand
from engine.ranking import FIVE_CARD_RANKINGS, Ranking, rank
from engine.sim.batch import all_hands, combinations_array, rank_batch

# Processor time, not wall time: on a machine shared with other jobs the wall clock counts
# their work too (the batch Badugi figure read 4.3M/s by the wall, 14M/s of processor time).
_clock = time.process_time


def _per_second(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def main(text_hands: int = 50_000, batch_copies: int = 4) -> None:
    rng = random.Random(1)
    texts = [format_cards(rng.sample(range(52), 5), sep="") for _ in range(text_hands)]

    start = _clock()
    ours = [rank(parse_hand(t), Ranking.DEUCE_SEVEN) for t in texts]
    ours_rate = _per_second(len(texts), _clock() - start)

    from pokerkit import StandardLowHand  # test-only dependency: imported only here

    start = _clock()
    theirs = [StandardLowHand(t) for t in texts]
    pk_rate = _per_second(len(texts), _clock() - start)

    # Same hands, same verdicts: a benchmark of a wrong answer is worth nothing.
    for i in range(0, len(texts) - 1, 2):
        a, b = ours[i], ours[i + 1]
        ta, tb = theirs[i], theirs[i + 1]
        expected = -1 if ta > tb else 1 if tb > ta else 0
        assert (-1 if a < b else 1 if b < a else 0) == expected, (texts[i], texts[i + 1])

    cards = [parse_cards(t) for t in texts]
    start = _clock()
    for c in cards:
        rank(c, Ranking.DEUCE_SEVEN)
    ints_rate = _per_second(len(cards), _clock() - start)

    hands = np.random.default_rng(2).permutation(np.tile(all_hands(), (batch_copies, 1)))
    batch_rates = {}
    for ranking in FIVE_CARD_RANKINGS:
        rank_batch(hands[:1000], ranking)  # warm the tables
        start = _clock()
        rank_batch(hands, ranking)
        batch_rates[ranking] = _per_second(len(hands), _clock() - start)

    # Badugi: four-card hands, its own table (built on first use, timed apart).
    start = _clock()
    rank((0, 5, 10, 15), Ranking.BADUGI)
    badugi_build = _clock() - start
    fours = [tuple(rng.sample(range(52), 4)) for _ in range(text_hands)]
    start = _clock()
    for c in fours:
        rank(c, Ranking.BADUGI)
    badugi_ints_rate = _per_second(len(fours), _clock() - start)
    four_texts = [format_cards(c, sep="") for c in fours]
    start = _clock()
    badugi_ours = [rank(parse_hand(t, 4), Ranking.BADUGI) for t in four_texts]
    badugi_text_rate = _per_second(len(four_texts), _clock() - start)
    from pokerkit import BadugiHand

    pk_texts = four_texts[: len(four_texts) // 10]  # pokerkit searches every subset: slower
    start = _clock()
    badugi_theirs = [BadugiHand.from_game(t) for t in pk_texts]
    badugi_pk_rate = _per_second(len(pk_texts), _clock() - start)
    for i in range(0, len(pk_texts) - 1, 2):
        a, b = badugi_ours[i], badugi_ours[i + 1]
        pa, pb = badugi_theirs[i], badugi_theirs[i + 1]
        expected = -1 if pa > pb else 1 if pb > pa else 0
        assert (-1 if a < b else 1 if b < a else 0) == expected, (four_texts[i], four_texts[i + 1])
    # The five-card tables: what the first hand ranked in a process pays (none at import).
    ranking_module._checked_classes.cache_clear()
    start = _clock()
    for five_card in ranking_module.FIVE_CARD_RANKINGS:
        ranking_module._Tables(five_card)
    five_build = _clock() - start
    four_hands = np.random.default_rng(2).permutation(
        np.tile(combinations_array(52, 4), (batch_copies * 9, 1))
    )
    start = _clock()
    rank_batch(four_hands, Ranking.BADUGI)
    batch_rates[Ranking.BADUGI] = _per_second(len(four_hands), _clock() - start)

    print(f"one at a time from text (2-7): {ours_rate:12,.0f} hands/s")
    print(f"pokerkit StandardLowHand(text): {pk_rate:12,.0f} hands/s")
    print(f"  ratio: {ours_rate / pk_rate:.1f}x (goal >= 5x)")
    print(f"one at a time from card ints:   {ints_rate:12,.0f} hands/s")
    print(f"one at a time from text, Badugi: {badugi_text_rate:11,.0f} hands/s")
    print(f"pokerkit BadugiHand.from_game:  {badugi_pk_rate:12,.0f} hands/s")
    print(f"  ratio: {badugi_text_rate / badugi_pk_rate:.1f}x")
    print(f"one at a time, Badugi (ints):   {badugi_ints_rate:12,.0f} hands/s")
    print(f"Badugi table built on first use: {badugi_build * 1000:8.0f} ms")
    print(f"five-card tables built on first use: {five_build * 1000:4.0f} ms")
    for ranking, rate in batch_rates.items():
        count = len(four_hands) if ranking is Ranking.BADUGI else len(hands)
        print(f"batch {ranking.value:>6} ({count:,} hands): {rate:14,.0f} hands/s (goal >= 10M)")


if __name__ == "__main__":
    main()
