"""A seeded deck for the dealer: dealing order, the stub, and the deck-exhaustion rule.

RULES.md, "The deck runs out": when a player draws more cards than the stub holds, the
dealer gives what is left of the stub, then shuffles every card discarded so far into a
new stub, except the cards this player has just thrown, and deals the rest from it.
Folded hands are not discards: they never come back.  No card is burned (RULES.md
burns none), so the stub holds ``52 - 5 * players - cards drawn so far`` until it runs out,
which is what the replay assumes when it checks cards seen twice.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.cards import Card, Cards


@dataclass(frozen=True, slots=True)
class Replacement:
    """The cards a draw received, and whether the stub ran out (and was rebuilt) during it."""

    received: Cards
    reshuffled: bool
    from_old_stub: int  # how many of ``received`` came from the stub before the reshuffle


class Deck:
    """One hand's cards: a shuffled stub dealt from the top, and the discard pile."""

    __slots__ = ("_discards", "_rng", "_stub", "reshuffles")

    def __init__(self, rng: random.Random) -> None:
        cards = list(range(52))
        rng.shuffle(cards)
        self._rng = rng
        self._stub: list[Card] = cards  # the top of the stub is the end of the list
        self._discards: list[Card] = []
        self.reshuffles = 0

    @property
    def stub_size(self) -> int:
        return len(self._stub)

    @property
    def discard_pile(self) -> Cards:
        return tuple(self._discards)

    def deal_round_robin(self, players: int, cards_each: int = 5) -> list[Cards]:
        """Deal one card at a time to each player in turn, as a dealer does."""
        hands: list[list[Card]] = [[] for _ in range(players)]
        for _ in range(cards_each):
            for hand in hands:
                hand.append(self._stub.pop())
        return [tuple(h) for h in hands]

    def replace(self, discarded: Cards) -> Replacement:
        """Give ``len(discarded)`` new cards for ``discarded`` and put those on the pile."""
        need = len(discarded)
        received: list[Card] = []
        reshuffled = False
        from_old = min(need, len(self._stub))
        for _ in range(from_old):
            received.append(self._stub.pop())
        if len(received) < need:
            reshuffled = True
            self.reshuffles += 1
            new_stub = self._discards
            self._discards = []
            self._rng.shuffle(new_stub)
            self._stub = new_stub + self._stub  # the old stub is empty here
            while len(received) < need:
                if not self._stub:
                    raise RuntimeError("no cards left even after reshuffling the discards")
                received.append(self._stub.pop())
        self._discards.extend(discarded)
        return Replacement(tuple(received), reshuffled, from_old)
