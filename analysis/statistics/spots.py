"""What a player faced at one decision, as named facts, and a statistic's spot over them.

A betting statistic asks one question of each of a player's decisions, in the order the
hand played them: was this a chance to do the thing (the opportunity), and did the player
do it (the event)?  ``analysis.statistics.facts`` walks a hand's actions once and describes
each decision by the bits below, what the player faced (``PREDRAW``, ``FACING_BET``...)
and what the player did (``FOLD``, ``RAISE``...); a statistic declares its opportunity as
a ``Spot`` (facts that must all hold, and the actions it admits) and its event as the
actions that count.  A hand is an opportunity when any decision was one, and the event
happened when the player did it at any such decision.

Plain ``int`` bits rather than an ``IntFlag``: the walk builds one mask per action, and an
enum's operators cost more than the rest of the walk (``Final``, so that the compiled facts
read them as constants).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

# what the player did (exactly one of the five, plus FULL for a full bet or raise)
FOLD: Final = 1 << 0
CHECK: Final = 1 << 1
CALL: Final = 1 << 2
BET: Final = 1 << 3
RAISE: Final = 1 << 4
FULL: Final = 1 << 5
"""A full bet or raise, the only kind that makes a betting level (RULES.md, short all-ins:
an all-in short of half a bet is none; completing it is no new level either)."""
AGGRESSIVE: Final = BET | RAISE
VOLUNTARY: Final = CALL | BET | RAISE
ANY_ACTION: Final = FOLD | CHECK | CALL | BET | RAISE
ANSWERS: Final = FOLD | CALL | RAISE
"""What a player can do facing a bet."""

# what the player faced
PREDRAW: Final = 1 << 8  # the betting round before the first draw
AFTER_DRAW: Final = 1 << 9  # a betting round after a draw
LAST_ROUND: Final = 1 << 10  # the betting round after the game's last draw
FIRST_PREDRAW: Final = 1 << 11  # the player's first pre-draw decision
UNOPENED: Final = 1 << 12  # pre-draw, nobody has called, bet or raised yet (blinds do not open)
STEAL_SEAT: Final = 1 << 13  # the player sits in CO, BTN or SB
BLIND_SEAT: Final = 1 << 14  # the player sits in a blind
ONE_RAISE: Final = 1 << 15  # pre-draw, facing exactly one raise over the big blind (a 2-bet)
THREE_BET: Final = 1 << 16  # pre-draw, facing a re-raise (the 3-bet)
FIRST_RAISER: Final = 1 << 17  # the player made the first pre-draw raise
FACING_STEAL: Final = 1 << 18  # pre-draw, a steal raise with only folds after it, by another
FACING_BET: Final = 1 << 19  # another player bet or raised in this round before the decision
FACING_PAT_BET: Final = 1 << 20  # ... and that player stood pat on the draw just before
STOOD_PAT: Final = 1 << 21  # the player stood pat on the draw just before this round
CHECKED_TO: Final = 1 << 22  # nobody has bet this round and another player checked already
CHECKED_BEFORE: Final = 1 << 23  # the player checked earlier in this round


@dataclass(frozen=True, slots=True)
class Spot:
    """An opportunity: the decisions at which ``need`` all hold and the player's action
    is one of ``actions``.  ``column``: the fact column that records it (shared by the
    statistics that share the spot, as VPIP and PFR share a pre-draw decision)."""

    column: str
    need: int
    actions: int = ANY_ACTION

    def admits(self, mask: int) -> bool:
        """Whether a decision described by ``mask`` is this opportunity."""
        return mask & self.need == self.need and mask & self.actions != 0
