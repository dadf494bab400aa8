"""Equity simulator speed: player-trials per second with three draws left.

Run: ``python -m benchmarks.bench_equity``.  Goal (issue 8): at least 200,000 player-trials
per second, so that an answer to 0.5% accuracy comes in well under a second.
"""

from __future__ import annotations

import time

from engine.cards import parse_cards
from engine.ranking import Ranking
from engine.sim.draw_choice import draw_equity
from engine.sim.equity import Player, equity, players_from_text

SITUATIONS = {
    "heads-up, 2-7, 3 draws": ["7s5d4h", "8s6d3c2c"],
    "six-way, 2-7, 3 draws": ["7s5d4h", "8s6d3c2c", "Kh9h", "-", "4d2d", "Qc8c6c4c"],
    "six-way, A-5, 3 draws": ["As2d3h", "4s5d6c7c", "Kh9h", "-", "Ad2c", "Qc8c6s4c"],
}


def main(trials: int = 200_000) -> None:
    for name, texts in SITUATIONS.items():
        players = players_from_text(texts)
        ranking = Ranking.ACE_FIVE if "A-5" in name else Ranking.DEUCE_SEVEN
        equity(players, ranking, 3, trials=2000, seed=0)  # warm up
        start = time.perf_counter()
        result = equity(players, ranking, 3, trials=trials, seed=1)
        seconds = time.perf_counter() - start
        rate = trials * len(players) / seconds
        worst = max(result.stderr)
        print(f"{name}: {trials:,} trials in {seconds:.2f} s = {rate:,.0f} player-trials/s "
              f"(goal >= 200,000); largest standard error {worst:.4f}")  # fmt: skip

    unknown = [Player(parse_cards("7s5d4h")), Player.drawing(1), Player.drawing(2)]
    equity(unknown, Ranking.DEUCE_SEVEN, 3, trials=2000, seed=0)  # builds the ranges once
    start = time.perf_counter()
    equity(unknown, Ranking.DEUCE_SEVEN, 3, trials=trials, seed=1)
    seconds = time.perf_counter() - start
    rate = trials * 3 / seconds
    print(f"three-way, two opponents known by draw count only: {rate:,.0f} player-trials/s")

    hand = parse_cards("7s5d4h3cKd")
    start = time.perf_counter()
    choices = draw_equity(hand, 3, Ranking.DEUCE_SEVEN, [Player(parse_cards("8s6d2c"))])
    seconds = time.perf_counter() - start
    print(f"draw_equity, 32 choices x 20,000 trials heads-up: {seconds:.2f} s "
          f"(best: {choices[0].label}, {choices[0].equity:.3f})")  # fmt: skip
    start = time.perf_counter()
    draw_equity(hand, 1, Ranking.DEUCE_SEVEN, [Player(parse_cards("8s6d4c3h2d"))])
    print(f"draw_equity, 32 choices exact (one draw vs pat): {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
