"""What the dashboard's filters offer: the values of one player's hands under the other
filters, so no pick matches nothing and none can change whose figures are shown.

The player comes first (a name at a site), then the kind of money among that player's
hands, most played first; then each of game, stakes, position and table size offers the
values of the player's hands that match the other three picks, and the dates span those
hands.  A pick the others no longer allow (left over from another player, or made
before another pick) is dropped, until every pick is one the others allow: any value
then offered matches at least one hand.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date

import pandas as pd

from analysis.statistics.figures import day_span, key_counts
from analysis.statistics.positions import POSITIONS
from analysis.storage.db import Connection
from analysis.storage.filters import Filters

PICKED = ("game", "stakes", "position")


@dataclass(frozen=True)
class Offers:
    """The values each filter offers, and the filters with the picks they no longer
    allow dropped (``kept``)."""

    kept: Filters
    games: tuple[str, ...]
    stakes: tuple[str, ...]
    positions: tuple[str, ...]
    min_players: int
    max_players: int
    first_day: date | None
    last_day: date | None


def _matching(combos: pd.DataFrame, picks: dict[str, object], players: tuple[int, int] | None,
              but: str) -> pd.DataFrame:
    """The combinations that match every pick but ``but``'s."""
    mask = pd.Series(True, index=combos.index)
    for name, value in picks.items():
        if name != but and value is not None:
            mask &= combos[name] == value
    if players is not None and but != "players":
        mask &= combos["players"].between(*players)
    return combos[mask]


def most_played(counts: pd.DataFrame, column: str) -> tuple[str, ...]:
    """The values of ``column`` in ``counts`` (hands per row, as ``key_counts`` gives them),
    the most hands first: which currency, or which game's final hands, a page shows first
    (money adds up only within one currency)."""
    ranked = counts.groupby(column)["hands"].sum().sort_values(ascending=False)
    return tuple(str(v) for v in ranked.index)


def _values(frame: pd.DataFrame, name: str) -> tuple[str, ...]:
    values = {str(v) for v in frame[name].dropna().unique()}
    if name == "position":
        rank = {p: i for i, p in enumerate(POSITIONS)}
        return tuple(sorted(values, key=lambda p: (rank.get(p, len(rank)), p)))
    return tuple(sorted(values))


def offers(con: Connection, player: str, filters: Filters) -> Offers:
    """The options of ``player``'s hands under ``filters`` (their site and money fixed),
    each under the others, and ``filters`` with the picks nothing allows dropped."""
    free = replace(filters, game=None, stakes=None, position=None,
                   players_min=None, players_max=None)
    combos = key_counts(con, (*PICKED, "players"), free, player=player)
    picks: dict[str, object] = {"game": filters.game, "stakes": filters.stakes,
                                "position": filters.position}
    players = (None if filters.players_min is None or filters.players_max is None
               else (filters.players_min, filters.players_max))
    changed = True
    while changed:
        changed = False
        for name in PICKED:
            if picks[name] is not None and picks[name] not in set(
                    _matching(combos, picks, players, name)[name]):
                picks[name], changed = None, True
        seats = _matching(combos, picks, players, "players")["players"]
        if players is not None and not seats.between(*players).any():
            players, changed = None, True
    seats = _matching(combos, picks, players, "players")["players"].dropna()
    kept = replace(filters, game=_text(picks["game"]), stakes=_text(picks["stakes"]),
                   position=_text(picks["position"]),
                   players_min=None if players is None else players[0],
                   players_max=None if players is None else players[1])
    first, last = day_span(con, player, replace(kept, date_from=None, date_to=None))
    return Offers(
        kept=kept,
        games=_values(_matching(combos, picks, players, "game"), "game"),
        stakes=_values(_matching(combos, picks, players, "stakes"), "stakes"),
        positions=_values(_matching(combos, picks, players, "position"), "position"),
        min_players=int(seats.min()) if len(seats) else 2,
        max_players=int(seats.max()) if len(seats) else 2,
        first_day=first,
        last_day=last,
    )


def _text(value: object) -> str | None:
    return None if value is None else str(value)
