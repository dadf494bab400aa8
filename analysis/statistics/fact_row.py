"""The row of per-player facts: its fields, in the order of table ``player_hands``' columns,
and each column's DuckDB type, read off the fields' annotations.

A module of its own because the types are read by introspection (``dataclasses.fields``
and their annotations' text, under ``from __future__ import annotations``), which a
module compiled with mypyc does not keep (an optional field's type is then ``type``):
``analysis.statistics.facts``, which fills the rows, is compiled (see the Makefile's
``COMPILED``); this module stays Python.
"""

from __future__ import annotations

from dataclasses import astuple, dataclass, fields
from datetime import datetime
from typing import Any

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
    # pre-draw
    predraw_acted: bool
    vpip: bool
    rfi_opp: bool
    rfi: bool
    pfr: bool
    three_bet_opp: bool
    three_bet: bool
    cap_opp: bool
    cap: bool
    steal_opp: bool
    steal: bool
    fold_to_steal_opp: bool
    fold_to_steal: bool
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
    fold_to_pat_opp: bool
    fold_to_pat: bool
    # showdown
    cards_shown: bool
    final_cards: str | None
    final_class: str | None
    # added after the first layout (columns only ever appended)
    fold_to_three_bet_opp: bool
    fold_to_three_bet: bool

    def as_tuple(self) -> tuple[Any, ...]:
        return astuple(self)


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

FACT_COLUMNS: dict[str, str] = {
    f.name: ("SMALLINT" if f.name in _SMALL else _DUCK_TYPES[str(f.type)])
    for f in fields(PlayerHandFacts)
}
"""Column name -> DuckDB type of table ``player_hands``, in the row's field order."""


FACT_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(PlayerHandFacts))
"""The names of ``hand_fact_rows``' values, in order."""
