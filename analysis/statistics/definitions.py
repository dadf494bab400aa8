"""Every statistic, defined once: what it counts, in words and as SQL over ``player_hands``.

A statistic is a ratio of two aggregates over a player's rows: ``numerator`` / ``denominator``.
For a rate the numerator counts hands where something happened and the denominator the
hands where it could have (the opportunity), so the sample size is always the
denominator.  The words are shown in the dashboard on hover and by ``drawlab stats``; the
SQL beside them is what ``analysis.statistics.figures`` sums.

A betting statistic is declared here whole: its opportunity (a ``Spot``: what the player
faced at a decision, ``analysis.statistics.spots``) and its event (the actions that count).
Its two fact columns (``<key>_opp`` unless the spot names another, and ``<key>``), the
facts' values (``analysis.statistics.facts`` checks every decision against every spot) and
its SQL follow from that; ``BETTING`` lists them.  The other statistics are sums over the
facts the hand's walk computes (showdown, draws, action counts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from analysis.statistics.spots import (
    AFTER_DRAW,
    AGGRESSIVE,
    ANSWERS,
    ANY_ACTION,
    BET,
    BLIND_SEAT,
    CHECK,
    CHECKED_BEFORE,
    CHECKED_TO,
    FACING_BET,
    FACING_PAT_BET,
    FACING_STEAL,
    FIRST_PREDRAW,
    FIRST_RAISER,
    FOLD,
    FULL,
    LAST_ROUND,
    ONE_RAISE,
    PREDRAW,
    RAISE,
    STEAL_SEAT,
    STOOD_PAT,
    THREE_BET,
    UNOPENED,
    VOLUNTARY,
    Spot,
)

Kind = Literal["rate", "mean", "ratio"]


@dataclass(frozen=True, slots=True)
class StatDef:
    key: str
    name: str
    group: str
    numerator: str
    denominator: str
    num_sql: str  # aggregate SQL expression over the rows: the numerator
    den_sql: str  # aggregate SQL expression over the rows: the denominator
    kind: Kind = "rate"  # rate: shown as a percentage; mean/ratio: as a number
    per_action: bool = False  # a rate counted over actions rather than hands
    spot: Spot | None = None  # a betting statistic: its opportunity, over decisions
    event: int = 0  # ... and the actions that count (``spots`` bits)
    short: str = ""  # a few letters for narrow tables (the HUD), the name if none
    written: str = ""  # a definition written whole (a player's own statistic)
    cell_num: str = ""  # SQL over the cells, where the statistic is no cell measure of its own
    cell_den: str = ""

    @property
    def label(self) -> str:
        return self.short or self.name

    @property
    def definition(self) -> str:
        if self.written:
            return f"{self.name}: {self.written}"
        if self.kind == "rate" and not self.per_action:
            return (f"{self.name}: hands where {self.numerator}, out of hands where "
                    f"{self.denominator}.")
        if self.kind == "rate":
            return f"{self.name}: {self.numerator}, out of {self.denominator}."
        if self.kind == "mean":
            return f"{self.name}: {self.numerator}, divided by the number of {self.denominator}."
        return f"{self.name}: {self.numerator}, divided by {self.denominator}."


def _flag(condition: str) -> str:
    """Count the rows where ``condition`` holds (NULL counts as false)."""
    return f"coalesce(count_if({condition}), 0)"  # count_if of only NULLs is NULL


def betting(
    key: str, name: str, group: str, numerator: str, denominator: str, *,
    need: int, event: int, actions: int = ANY_ACTION, opportunity: str = "", short: str = "",
) -> StatDef:
    """A betting statistic, declared whole: the hands where the player had a decision at
    which every fact of ``need`` held and the action was one of ``actions`` (the
    opportunity, recorded in column ``opportunity``, ``<key>_opp`` by default), and those
    where at such a decision the action was one of ``event`` (recorded in ``<key>``)."""
    spot = Spot(opportunity or f"{key}_opp", need, actions)
    return StatDef(key, name, group, numerator, denominator, _flag(key), _flag(spot.column),
                   spot=spot, event=event, short=short)


_ROUND_NAMES = ("pre-draw", "after the first draw", "after the second draw",
                "after the third draw")

PREDRAW_STATS: tuple[StatDef, ...] = (
    betting("vpip", "VPIP", "pre-draw",
            "the player called, bet or raised pre-draw (posting blinds does not count)",
            "the player made any pre-draw decision (a walk is not one)",
            need=PREDRAW, event=VOLUNTARY, opportunity="predraw_acted", short="VPIP"),
    betting("rfi", "Raise first in", "pre-draw",
            "the player's first pre-draw action was a raise in an unopened pot",
            "the pot was unopened (nobody had called or raised) at the player's first "
            "pre-draw action",
            need=PREDRAW | FIRST_PREDRAW | UNOPENED, event=AGGRESSIVE),
    betting("pfr", "PFR", "pre-draw",
            "the player raised pre-draw",
            "the player made any pre-draw decision",
            need=PREDRAW, event=AGGRESSIVE, opportunity="predraw_acted", short="PFR"),
    betting("three_bet", "3-bet", "pre-draw",
            "the player re-raised a single raise pre-draw (the big blind is the first bet; "
            "completing a short all-in is no re-raise)",
            "the player acted facing exactly one raise pre-draw",
            need=PREDRAW | ONE_RAISE, event=FULL, short="3B"),
    betting("fold_to_three_bet", "Fold to 3-bet", "pre-draw",
            "the player who made the first raise pre-draw folded to a re-raise",
            "the player who made the first raise pre-draw faced exactly one re-raise",
            need=PREDRAW | THREE_BET | FIRST_RAISER, event=FOLD),
    betting("cap", "Cap", "pre-draw",
            "the player put in the fourth bet pre-draw (the cap in fixed limit)",
            "the player acted facing a 3-bet pre-draw",
            need=PREDRAW | THREE_BET, event=FULL),
    betting("steal", "Steal attempt", "pre-draw",
            "the player raised first in from CO, BTN or SB",
            "the pot was unopened at the player's first action in CO, BTN or SB",
            need=PREDRAW | FIRST_PREDRAW | UNOPENED | STEAL_SEAT, event=AGGRESSIVE,
            short="Steal"),
    betting("fold_to_steal", "Fold to steal", "pre-draw",
            "the player in a blind folded to the steal",
            "the player in a blind faced a steal attempt with only folds after it",
            need=PREDRAW | BLIND_SEAT | FACING_STEAL, event=FOLD, short="FtS"),
)

OUTCOME: tuple[StatDef, ...] = (
    StatDef("wtsd", "Went to showdown", "showdown",
            "the player went to showdown (did not fold while two or more players remained)",
            "the player saw the first draw",
            _flag("went_to_showdown AND saw_draw_1"), _flag("saw_draw_1"), short="WTSD"),
    StatDef("wsd", "Won at showdown", "showdown",
            "the player won chips at showdown (a split counts)",
            "the player went to showdown",
            _flag("won_at_showdown"), _flag("went_to_showdown")),
    StatDef("wwsf", "Won when saw first draw", "showdown",
            "the player won chips after seeing the first draw",
            "the player saw the first draw",
            _flag("won_saw_draw_1"), _flag("saw_draw_1")),
)


def _aggression(r: int) -> tuple[StatDef, StatDef]:
    agg = f"sum(bets_{r} + raises_{r})"
    acts = f"(sum(bets_{r} + raises_{r} + calls_{r} + checks_{r}) + " \
           f"{_flag(f'folded_round = {r}')})"
    where = _ROUND_NAMES[r]
    return (
        StatDef(f"af_{r}", f"Aggression factor {where}", "aggression",
                f"the player's bets plus raises {where}", f"the player's calls {where}",
                agg, f"sum(calls_{r})", "ratio"),
        StatDef(f"afq_{r}", f"Aggression frequency {where}", "aggression",
                f"the player's bets and raises {where}",
                f"all the player's bets, raises, calls, checks and folds {where} (counted "
                f"per action)",
                agg, acts, "rate", per_action=True),
    )


AGGRESSION: tuple[StatDef, ...] = tuple(s for r in range(4) for s in _aggression(r))

_DRAW_NAMES = ("first", "second", "third")


def _draw_stats(k: int) -> tuple[StatDef, StatDef]:
    where = f"the {_DRAW_NAMES[k - 1]} draw"
    return (
        StatDef(f"drawn_{k}", f"Cards drawn on {where}", "draws",
                f"all the cards the player drew on {where}",
                f"hands where the player took {where}",
                f"sum(drawn_{k})", f"count(drawn_{k})", "mean", short=f"D{k}"),
        StatDef(f"pat_{k}", f"Stood pat on {where}", "draws",
                f"the player stood pat (drew no card) on {where}",
                f"the player took {where}",
                _flag(f"pat_{k}"), f"count(drawn_{k})", short="Pat" if k == 1 else f"Pat{k}"),
    )


DRAWS: tuple[StatDef, ...] = (
    *(s for k in (1, 2, 3) for s in _draw_stats(k)),
    StatDef("snow", "Snow", "draws",
            "the player stood pat on a hand that was not made (made: in lowball a ten-low "
            "or better without a pair, and in 2-7 no straight or flush; in five-card draw "
            "a straight or better)",
            "the player stood pat holding cards we know (the hero's own, or a hand shown "
            "after standing pat on every later draw)",
            _flag("snowed"), _flag("snow_opp"), short="Snow"),
    StatDef("break", "Break a made hand", "draws",
            "the player discarded from a made hand (as defined for snows)",
            "the player held a known made hand before a draw (mostly the hero)",
            _flag("broke"), _flag("break_opp"), short="Brk"),
    betting("fold_to_pat", "Fold to a pat hand", "draws",
            "the player folded to a bet or raise from a player who stood pat on the draw "
            "just before",
            "the player faced a bet or raise from a player who stood pat on the draw "
            "just before",
            need=AFTER_DRAW | FACING_PAT_BET, actions=ANSWERS, event=FOLD),
    betting("fold_after_last_draw", "Fold to a bet after the last draw", "draws",
            "the player folded to a bet or raise in the betting round after the last draw",
            "the player faced a bet or raise in the betting round after the last draw",
            need=AFTER_DRAW | LAST_ROUND | FACING_BET, actions=ANSWERS, event=FOLD,
            short="FLD"),
    betting("check_raise", "Check-raise after a draw", "draws",
            "the player checked and then raised a bet in the same betting round after a draw",
            "the player checked and then faced a bet in the same betting round after a draw",
            need=AFTER_DRAW | CHECKED_BEFORE | FACING_BET, actions=ANSWERS, event=RAISE,
            short="XR"),
    betting("pat_bet", "Bet when checked to after standing pat", "draws",
            "the player stood pat on the draw just before and bet when the players before "
            "them had checked",
            "the player stood pat on the draw just before and it was checked to them "
            "(nobody had bet, and at least one player had checked)",
            need=AFTER_DRAW | STOOD_PAT | CHECKED_TO, actions=CHECK | BET, event=BET,
            short="PatB"),
)

STATS: tuple[StatDef, ...] = PREDRAW_STATS + OUTCOME + AGGRESSION + DRAWS
"""Every ratio statistic, in display order."""

BETTING: tuple[StatDef, ...] = tuple(s for s in STATS if s.spot is not None)
"""The betting statistics, whose facts are their spots' and events' columns."""


def betting_columns() -> tuple[str, ...]:
    """The fact columns of the betting statistics, each once (VPIP and PFR share their
    opportunity's), in the statistics' order: opportunity, then event."""
    names: dict[str, None] = {}
    for s in BETTING:
        assert s.spot is not None
        names[s.spot.column] = None
        names[s.key] = None
    return tuple(names)


STAT_BY_KEY: dict[str, StatDef] = {s.key: s for s in STATS}

RESULT_DEFINITIONS: dict[str, str] = {
    "hands": "Hands: hands the player was dealt into.",
    "net": "Net won: chips collected minus chips put in (posts and bets, less uncalled "
           "bets returned), or the site's own per-player figure where it states one; "
           "in the table's currency, summed as it stands across currencies.",
    "net_bb": "Net won in big bets: each hand's net divided by that hand's big bet "
              "(the big blind in pot and no limit), summed.",
    "bb_per_100": "Win rate: net won in big bets per 100 hands.",
    "rake": "Rake paid: each hand's rake shared among the players who collected, in "
            "proportion to what they collected.",
    "net_showdown": "Showdown winnings: net won in hands where the player went to showdown.",
    "net_nonshowdown": "Non-showdown winnings: net won in hands where the player did not "
                       "go to showdown (folded, or everyone else folded).",
    "session": "Session: a run of the player's hands, across all tables, in which no two "
               "consecutive hands are more than the session gap (30 minutes unless "
               "chosen) apart.",
    "showdown_class": "Showdown hand: the class of the five cards a player held at "
                      "showdown, where they are known (shown, or the hero's own).",
}


_OWN: list[StatDef] = []


def use_own(stats: tuple[StatDef, ...]) -> None:
    """Show the player's own statistics (``analysis.statistics.own``) beside the built-in
    ones from now on: a program loads them once, at its start."""
    _OWN[:] = stats


def all_stats() -> tuple[StatDef, ...]:
    """The built-in statistics, then the player's own, in display order."""
    return STATS + tuple(_OWN)


def stat_by_key(key: str) -> StatDef:
    """A statistic, built-in or the player's own, by its key (``KeyError`` for none)."""
    found = STAT_BY_KEY.get(key) or next((s for s in _OWN if s.key == key), None)
    if found is None:
        raise KeyError(key)
    return found


@dataclass(frozen=True, slots=True)
class StatInfo:
    """What a page needs to offer a statistic: its key, name, group, definition and short
    label (the HUD's heading)."""

    key: str
    name: str
    group: str
    definition: str
    label: str


def catalog() -> tuple[StatInfo, ...]:
    """Every statistic a page can show, built-in and the player's own, in display order."""
    return tuple(StatInfo(s.key, s.name, s.group, s.definition, s.label) for s in all_stats())


def definitions() -> dict[str, str]:
    """Every statistic's definition by key, for hover texts and ``--json``."""
    return RESULT_DEFINITIONS | {s.key: s.definition for s in all_stats()}
