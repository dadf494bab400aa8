"""How a showdown is scored, for the equity simulator and the drills: one ranking, or a home
game's wild cards and California high-low split.

A ``Ranking`` alone still means what it always did (engine/ranking.py, a 52-card deck); a
``Scoring`` adds the wild cards (engine/wild.py: high or ace-to-five low) and the split: in
high-low each pot is halved, the best high hand takes one half and the best ace-to-five low
the other, so a player's share of a pot is half of each half they win (ties split each
half).  The odd chip that goes to the high half is a matter of chips (engine/pots.py), not
of equity.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.cards import Cards
from engine.ranking import Ranking, hand_size_of
from engine.sim.batch import rank_batch
from engine.sim.wild_batch import rank_high_batch, rank_low_batch
from engine.wild import Wild, deck_for

Shares = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Scoring:
    """``ranking``: HIGH for high-low (its high half; the low half is ace-to-five);
    ``wild``: the wild cards (high and ace-to-five only); ``high_low``: the pot is split."""

    ranking: Ranking
    wild: Wild | None = None
    high_low: bool = False

    def __post_init__(self) -> None:
        if self.high_low and self.ranking is not Ranking.HIGH:
            raise ValueError("high-low splits a high pot: its ranking is high")
        if self.wild is not None and self.ranking not in (Ranking.HIGH, Ranking.ACE_FIVE):
            raise ValueError(f"wild cards play in high and ace-to-five, not {self.ranking}")

    @property
    def plain(self) -> bool:
        """Nothing but the ranking: every older path applies unchanged."""
        return self.wild is None and not self.high_low

    @property
    def deck(self) -> Cards:
        return deck_for(self.wild)

    @property
    def size(self) -> int:
        return hand_size_of(self.ranking)

    def values(self, hands: npt.ArrayLike) -> npt.NDArray[np.int16]:
        """Each row's value in the (high, for high-low) ranking: smaller is better."""
        if self.wild is None:
            return rank_batch(hands, self.ranking)
        if self.ranking is Ranking.HIGH:
            return rank_high_batch(hands, self.wild)
        return rank_low_batch(hands, self.wild)

    def low_values(self, hands: npt.ArrayLike) -> npt.NDArray[np.int16]:
        """Each row's ace-to-five value (the low half of high-low)."""
        return rank_low_batch(hands, self.wild)

    def shares(self, final_hands: npt.NDArray[np.uint8]) -> Shares:
        """Each player's share of the pot in each trial, from (trials, players, size)."""
        trials, players, size = final_hands.shape
        flat = final_hands.reshape(-1, size)
        share = _won(self.values(flat).reshape(trials, players))
        if self.high_low:
            share = (share + _won(self.low_values(flat).reshape(trials, players))) / 2
        return share

    def label(self) -> str:
        """Words for a page: "high, deuces wild, high-low split"."""
        words = [{Ranking.HIGH: "high", Ranking.ACE_FIVE: "ace-to-five"}.get(self.ranking, "")]
        words[0] = words[0] or str(self.ranking)
        if self.wild is not None:
            words.append(WILD_WORDS[self.wild])
        if self.high_low:
            words.append("high-low split")
        return ", ".join(words)


WILD_WORDS = {
    Wild.JOKER: "a joker wild",
    Wild.TWO_JOKERS: "two jokers wild",
    Wild.DEUCES: "deuces wild",
    Wild.ONE_EYED_JACKS: "one-eyed jacks wild",
}


def _won(values: npt.NDArray[np.int16]) -> Shares:
    won = values == values.min(axis=1, keepdims=True)
    share: Shares = won / won.sum(axis=1, keepdims=True)
    return share


def scoring_of(how: Ranking | Scoring) -> Scoring:
    return how if isinstance(how, Scoring) else Scoring(how)
