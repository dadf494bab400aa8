"""What each site does its own way, as settings the replay reads (never as branches on a name).

RULES.md states the default rule; where a site's real histories (the corpus) show another
practice, that site's profile says so, with the file that shows it.  A site we have no
profile for gets ``DEFAULT``: the rulebook's rules and a tolerant reading of how the
history reports money (any of the ways real sites use is accepted).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from engine.record import Action, Hand, Post


class UncalledReport(StrEnum):
    """How a site tells that an unmatched bet went back to its owner."""

    LINE = "line"  # an "Uncalled bet ... returned" line, collected amounts exclude it
    SILENT = "silent"  # no line, and the collected amounts exclude it
    IN_COLLECT = "in_collect"  # no line, the returned chips are in "collected" and the total
    ANY = "any"  # any of the above


class TotalPot(StrEnum):
    """What a site's "Total pot" holds."""

    WITH_RAKE = "with_rake"
    WITHOUT_RAKE = "without_rake"
    ANY = "any"


class OddChips(StrEnum):
    """Who gets the odd chips of a split, the winners ordered clockwise from the button."""

    ONE_EACH = "one_each"  # one each to the first winners (RULES.md)
    ALL_TO_FIRST = "all_to_first"  # all to the first winner (pokerkit)
    EITHER = "either"  # either of the above


@dataclass(frozen=True, slots=True)
class SiteProfile:
    """One site's practice.

    ``cap_heads_up``: the fixed-limit cap still holds when only two players are in the pot.
    ``casino_short_all_ins``: the fixed-limit rule of short all-ins (RULES.md, "Short
    all-ins in fixed limit"): one of half a bet or more counts as a full bet or raise, one
    of less may be completed (``engine.rules.fixed_raise``); False for a site whose
    histories show otherwise (a short all-in never reopens, the next raise is one bet more).
    ``odd_chip_clockwise``: the odd chip of a split goes to
    the first winner left of the button; False lets it go to any of the winners.
    ``run_it_twice``: the site deals all-in pots twice.  ``checks_show_order``: report
    hands shown out of order.
    ``max_implied_rake_per_mille``: where the site writes no rake, the most the collected
    amounts may fall short of the pot before it is an error.  ``home_rules``: five-card
    draw is played in the home form of the user's documents (antes, jacks or better to
    open, three cards drawn, four with an ace shown).
    ``chip_unit``: the smallest chip a pot is split into, in hundredths; ``None`` takes it
    from the record (``chip_unit``).  ``unstated_currency_is_chips``: a hand whose currency
    is not written is played in chips (whole chips, split to the chip).
    ``payouts_may_be_unstated``: the format may leave out who collected what; such a hand
    is a warning (``PAYOUT_UNSTATED``) whose collections cannot be checked, not an error.
    ``odd_chips``: how several odd chips of one split are given out (``OddChips``).
    """

    site: str
    cap_heads_up: bool = True
    casino_short_all_ins: bool = True
    odd_chip_clockwise: bool = True
    uncalled: UncalledReport = UncalledReport.ANY
    total_pot: TotalPot = TotalPot.ANY
    run_it_twice: bool = True
    checks_show_order: bool = False
    max_implied_rake_per_mille: int = 100
    home_rules: bool = False
    chip_unit: int | None = None
    unstated_currency_is_chips: bool = False
    payouts_may_be_unstated: bool = False
    odd_chips: OddChips = OddChips.ONE_EACH


DEFAULT = SiteProfile(site="")

PROFILES: dict[str, SiteProfile] = {
    # Stars: "Uncalled bet ($0.10) returned to X"; "Total pot $1.35 | Rake $0.06", collected $1.29.
    "pokerstars": SiteProfile(
        "pokerstars",
        cap_heads_up=False,
        uncalled=UncalledReport.LINE,
        total_pot=TotalPot.WITH_RAKE,
        run_it_twice=False,
        checks_show_order=True,
    ),
    # Full Tilt: "Uncalled bet of $5 returned to X"; total pot includes the rake.
    "fulltilt": SiteProfile(
        "fulltilt",
        cap_heads_up=False,
        uncalled=UncalledReport.LINE,
        total_pot=TotalPot.WITH_RAKE,
        run_it_twice=False,
        checks_show_order=True,
    ),
    # Winamax writes "Total pot 12.15 | Rake 0.85" with 13.00 put in (the total after the
    # rake); its reader may give either figure.  It writes no uncalled bet: a bet nobody
    # called stays in the pot, "collected" and "Total pot" both count it (issue 12).
    "winamax": SiteProfile("winamax", uncalled=UncalledReport.IN_COLLECT, run_it_twice=False),
    # Merge: a bet, a raise and four more heads-up (3-Draw-Limit-USD-5-10 All-in.on.second.draw).
    "merge": SiteProfile("merge", cap_heads_up=False, run_it_twice=False),
    # KingsClub: no uncalled lines, "wins pot" is net of the returned bet (A5-3-Draw 44-88);
    # run it twice (NL-2-7-SD RIT).  Its "posts blind 44" that costs 66 is read by its
    # reader as both blinds with 22 dead.
    "kingsclub": SiteProfile("kingsclub", uncalled=UncalledReport.SILENT, run_it_twice=True),
    # OnGame: "Main pot: $0.27 won by X ($0.26)" after a bet nobody called: silent return.
    "ongame": SiteProfile("ongame", uncalled=UncalledReport.SILENT, run_it_twice=False),
    "boss": SiteProfile("boss", run_it_twice=False),
    # PHH files from other tools (ours carry the original site's record and profile): the
    # rulebook's play.  No uncalled lines: the ``winnings`` (pots collected, after rake)
    # leave a returned bet out, the collects read from ``finishing_stacks`` count it in,
    # so either way is accepted.  No total pot; a rake only as winnings short of the pot.
    # Amounts are chips unless a ``currency`` is written (pokerkit writes none); the
    # payout fields are optional (pokerkit's default dump has neither).  pokerkit gives
    # all the odd chips of a split to the first winner, our own dealt hands one each.
    "phh": SiteProfile(
        "phh",
        uncalled=UncalledReport.ANY,
        total_pot=TotalPot.ANY,
        run_it_twice=False,
        max_implied_rake_per_mille=100,
        unstated_currency_is_chips=True,
        payouts_may_be_unstated=True,
        odd_chips=OddChips.EITHER,
    ),
    # The user's home games, as their own documents describe them.
    "home": SiteProfile("home", home_rules=True, run_it_twice=False, checks_show_order=True),
}


# Each site id (``Hand.site``, what ``--site`` takes) and the name the site goes by, as
# the pages show it and as a user may type it instead of the id.
SITE_NAMES: dict[str, str] = {
    "pokerstars": "PokerStars",
    "fulltilt": "Full Tilt",
    "winamax": "Winamax",
    "merge": "Merge",
    "kingsclub": "KingsClub",
    "ongame": "OnGame",
    "boss": "Boss",
    "opoker": "Opoker",
    "phh": "PHH",
    "home": "home game",
}


CHIPS = "chips"  # ``Hand.currency`` of tournaments and play-money tables
CHIP = 100  # one chip in the record's hundredths
CENT = 1


def table_unit(profile: SiteProfile, tournament: bool, currency: str) -> int:
    """The smallest chip at a table, in the record's hundredths: a whole chip (``CHIP``) in
    a tournament or at a table played in chips, a cent (``CENT``) in a cash game, unless
    the site's profile sets its own."""
    if profile.chip_unit is not None:
        return profile.chip_unit
    chips = tournament or currency.lower() == CHIPS
    chips = chips or (profile.unstated_currency_is_chips and not currency)
    return CHIP if chips else CENT


def chip_unit(hand: Hand, profile: SiteProfile) -> int:
    """The smallest amount a pot of ``hand`` is split into (``table_unit``).

    A record holding an amount that is not a whole number of that unit (a stack or a bet
    of half a chip) cannot have been played in it, so it falls back to the cent rather
    than judge a split by a unit the table did not use.
    """
    unit = table_unit(profile, hand.tournament is not None, hand.currency)
    if unit == CENT:
        return unit
    amounts = [s.stack for s in hand.seats]
    amounts += [s.amount for s in hand.steps if isinstance(s, Post | Action)]
    if any(a % unit for a in amounts):
        return CENT
    return unit


def profile_for(site: str) -> SiteProfile:
    """The profile of ``site`` (a ``Hand.site`` value); the tolerant default for others."""
    found = PROFILES.get(site)
    if found is None:
        found = _DEFAULTS.get(site)
        if found is None:
            found = replace(DEFAULT, site=site)
            if len(_DEFAULTS) < 64:  # a few site names, made once each (the profile is frozen)
                _DEFAULTS[site] = found
    return found


_DEFAULTS: dict[str, SiteProfile] = {}
