"""How many complete hands the dealer plays per second, one core, per game.

Each hand runs the whole way through ``engine.state.HandState`` (legal options, rounds,
draws, uncalled bets), the player model, the deck and the pots, and builds the record.
Run ``python -m benchmarks.bench_dealer [HANDS]`` (default 3,000 per game).
"""

from __future__ import annotations

import sys
import time

from engine.record import Game, Structure
from engine.sim.dealer import deal_hands

CASES = (
    (Game.TRIPLE_DRAW_27, Structure.FIXED, 6),
    (Game.TRIPLE_DRAW_27, Structure.FIXED, 2),
    (Game.TRIPLE_DRAW_27, Structure.POT, 6),
    (Game.SINGLE_DRAW_27, Structure.NO_LIMIT, 6),
    (Game.TRIPLE_DRAW_A5, Structure.FIXED, 6),
    (Game.FIVE_CARD_DRAW, Structure.FIXED, 6),
)


def main(argv: list[str]) -> int:
    hands = int(argv[1]) if len(argv) > 1 else 3000
    print(f"dealer: {hands} hands per case, one core")
    total = 0
    spent = 0.0
    for game, structure, players in CASES:
        start = time.perf_counter()
        count = sum(1 for _ in deal_hands(hands, game, players, seed=1, structure=structure))
        seconds = time.perf_counter() - start
        total += count
        spent += seconds
        print(f"  {game.value:16} {structure.value:9} {players} players: "
              f"{count / seconds:8,.0f} hands/s")
    print(f"  all cases: {total / spent:,.0f} hands/s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
