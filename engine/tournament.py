"""The site-neutral tournament summary record: what a tournament cost and paid.

Sites write a summary file per tournament (its buy-in, entrants, prize pool and the
finishing places); the summary readers in ``parser/`` build this record from it, and the
hand readers' tournament lines give a smaller one when there is no summary.  Money is an
``int`` in hundredths of the unit the buy-in is paid in (cents, or hundredths of a
play-money chip or a player point), so every figure adds up exactly.  Nothing here knows
any site's wording.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from engine.record import Game

PLAY_MONEY = "PLAY"  # the currency of play-money tournaments
POINTS = ("FPP", "FTP")  # player points: PokerStars' FPP, Full Tilt's points


class Kind(StrEnum):
    """What kind of tournament, as a tracker's filter offers them."""

    SIT_AND_GO = "sit_and_go"
    MULTI_TABLE = "multi_table"
    SHOOTOUT = "shootout"
    SATELLITE = "satellite"


@dataclass(frozen=True, slots=True)
class Finish:
    """One listed player's result: ``place`` is None while they are still playing.

    ``prize`` is the money part of the prize; ``ticket`` names a ticket won (its stated
    value, when the site writes one, is in ``prize``).  ``entry`` is 2 for ``name [2]``.
    """

    place: int | None
    player: str
    prize: int
    line: int
    ticket: str = ""
    entry: int = 1
    country: str = ""


@dataclass(frozen=True, slots=True)
class TournamentSummary:
    """A tournament as its summary file states it, and the player the file is about.

    ``buy_in``, ``fee`` and ``bounty`` are per entry; ``rebuy_cost`` and ``addon_cost``
    per rebuy and add-on (each with its fee); ``paid_extra`` what the site says the
    player paid for rebuys and add-ons when it says so.  ``place`` is the player's, None
    while the tournament is running for them; ``finishes`` every listed player's.
    ``line`` is the summary's first line in ``file``.
    """

    site: str
    tournament_id: str
    file: str
    line: int
    name: str = ""
    game_text: str = ""
    game: Game | None = None
    currency: str = ""
    buy_in: int = 0
    fee: int = 0
    bounty: int = 0
    ticket_entry: bool = False  # the buy-in was paid with a ticket only
    entrants: int | None = None
    prize_pool: int | None = None
    started: datetime | None = None
    finished: datetime | None = None
    running: bool = False
    kinds: frozenset[Kind] = frozenset()
    target: str = ""  # a satellite's target tournament
    rebuy_cost: int = 0
    addon_cost: int = 0
    total_rebuys: int | None = None
    total_addons: int | None = None
    finishes: tuple[Finish, ...] = ()
    player: str = ""
    place: int | None = None
    prize: int = 0
    ticket: str = ""
    reentries: int = 0
    rebuys: int = 0
    addons: int = 0
    paid_extra: int | None = None
    bounties_won: int = 0
    knockouts: int = 0

    @property
    def entries(self) -> int:
        """The player's entries: the first and every re-entry."""
        return 1 + self.reentries

    @property
    def cost(self) -> int:
        """Everything the player paid: each entry's buy-in, fee and bounty, and the
        rebuys and add-ons (as the site totals them, when it does)."""
        return entry_cost(
            self.entries, self.buy_in + self.fee + self.bounty,
            self.rebuys * self.rebuy_cost + self.addons * self.addon_cost, self.paid_extra,
        )

    @property
    def net(self) -> int:
        """What the tournament left the player: prize and bounties less the cost."""
        return self.prize + self.bounties_won - self.cost


def entry_cost(entries: int, per_entry: int, extras: int, paid_extra: int | None) -> int:
    """What a player paid: ``per_entry`` (buy-in, fee and bounty) for each entry, and
    their rebuys and add-ons, as the site totals them (``paid_extra``) when it does."""
    return entries * per_entry + (extras if paid_extra is None else paid_extra)
