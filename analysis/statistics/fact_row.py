"""The row of per-player facts: the facts every hand computes (its fields), then the
betting statistics' columns (``definitions.betting_columns``: each declared statistic's
opportunity and event), and each column's DuckDB type, read off the fields' annotations.
Rows are built and read by column name; the order is only the table's.

A module of its own because the types are read by introspection (``dataclasses.fields``
and their annotations' text, under ``from __future__ import annotations``), which a
module compiled with mypyc does not keep (an optional field's type is then ``type``):
``analysis.statistics.facts``, which fills the rows, is compiled (see the Makefile's
``COMPILED``); this module stays Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

from analysis.statistics.definitions import betting_columns

ROUNDS = 4  # betting rounds kept per player: pre-draw and after each of three draws
DRAWS = 3


@dataclass(frozen=True, slots=True)
class PlayerHandFacts:
    # who and where
    site: str
    hand_id: str
    player: str
    seat: int
    is_hero: bool
    game: str
    structure: str
    currency: str
    stakes: str
    small_bet: int
    big_bet: int
    tournament_id: str | None
    time: datetime | None
    players: int
    position: str
    # money, int hundredths
    invested: int
    collected: int
    net: int
    rake_share: int
    net_showdown: int
    net_nonshowdown: int
    # how the hand ended for the player
    won: bool
    went_to_showdown: bool
    won_at_showdown: bool
    draws_seen: int
    saw_draw_1: bool
    won_saw_draw_1: bool
    folded_round: int | None
    all_in: bool
    # aggression per betting round
    bets_0: int
    bets_1: int
    bets_2: int
    bets_3: int
    raises_0: int
    raises_1: int
    raises_2: int
    raises_3: int
    calls_0: int
    calls_1: int
    calls_2: int
    calls_3: int
    checks_0: int
    checks_1: int
    checks_2: int
    checks_3: int
    # draws
    drawn_1: int | None
    drawn_2: int | None
    drawn_3: int | None
    pat_1: bool | None
    pat_2: bool | None
    pat_3: bool | None
    snow_opp: bool
    snowed: bool
    break_opp: bool
    broke: bool
    # showdown
    cards_shown: bool
    final_cards: str | None
    final_class: str | None
    # the betting statistics' opportunities and events, by column
    flags: Mapping[str, bool]

    def __getattr__(self, name: str) -> bool:
        """A betting statistic's column read as a field (``row.vpip``)."""
        if name == "flags":  # not set yet (a copy being made): no flag to look in
            raise AttributeError(name)
        try:
            return self.flags[name]
        except KeyError:
            raise AttributeError(name) from None

    def as_tuple(self) -> tuple[Any, ...]:
        """The values in the table's column order (``FACT_FIELDS``)."""
        return (*(getattr(self, name) for name in HAND_FIELDS),
                *(self.flags[name] for name in BETTING_COLUMNS))

    @classmethod
    def of(cls, values: Mapping[str, Any]) -> PlayerHandFacts:
        """The row of a mapping of every column to its value."""
        return cls(**{name: values[name] for name in HAND_FIELDS},
                   flags={name: values[name] for name in BETTING_COLUMNS})


_DUCK_TYPES = {
    "str": "VARCHAR",
    "str | None": "VARCHAR",
    "int": "BIGINT",
    "int | None": "BIGINT",
    "bool": "BOOLEAN",
    "bool | None": "BOOLEAN",
    "datetime | None": "TIMESTAMP",
}
_SMALL = {"seat", "players", "draws_seen", "folded_round"} | {
    f"{k}_{r}" for k in ("bets", "raises", "calls", "checks") for r in range(ROUNDS)
} | {f"drawn_{d}" for d in range(1, DRAWS + 1)}

HAND_FIELDS: tuple[str, ...] = tuple(
    f.name for f in fields(PlayerHandFacts) if f.name != "flags"
)
"""The facts every hand computes, apart from the betting statistics'."""
BETTING_COLUMNS: tuple[str, ...] = betting_columns()
"""The betting statistics' columns, each a flag."""

FACT_COLUMNS: dict[str, str] = {
    **{f.name: ("SMALLINT" if f.name in _SMALL else _DUCK_TYPES[str(f.type)])
       for f in fields(PlayerHandFacts) if f.name != "flags"},
    **dict.fromkeys(BETTING_COLUMNS, "BOOLEAN"),
}
"""Column name -> DuckDB type of table ``player_hands``, in the table's order."""


FACT_FIELDS: tuple[str, ...] = tuple(FACT_COLUMNS)
"""The names of ``hand_fact_rows``' values, in order."""
