"""Cached page data: each ``analysis`` call once per database generation and arguments.

The connection is passed as ``_con`` (Streamlit does not hash leading-underscore
arguments); ``path`` and ``gen`` (see ``ui.state``) are what makes the cache key, so a
new import or another database file is never served stale figures.  No SQL here: every
function is a call into ``analysis``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, tzinfo
from typing import Any, TypeVar, cast

import pandas as pd
import streamlit as st

from analysis.statistics import figures as stats
from analysis.statistics.offers import Offers, most_played
from analysis.statistics.offers import offers as offers_of
from analysis.storage import hand_scope, memory, queries, samples, settings
from analysis.storage.db import Connection
from analysis.storage.db import replay_suggested as _replay_suggested
from analysis.storage.filters import Filters
from engine.replay import Replay, replay
from ui.charts import CHART_POINTS, thin

TTL = 3600  # seconds: generations change the key anyway; this only bounds memory
F = TypeVar("F", bound=Callable[..., Any])


def cached(entries: int, ttl: int = TTL) -> Callable[[F], F]:
    """``st.cache_data`` as every page's data is cached: no spinner, at most ``entries``
    results, and a ``Filters`` hashed by its ``repr`` (every field, in order) rather than
    by Streamlit's walk through a dataclass, which each of a run's cached calls paid
    (docs/dashboard-speed.md)."""
    return cast(Callable[[F], F], st.cache_data(
        ttl=ttl, show_spinner=False, max_entries=entries, hash_funcs={Filters: repr}))


@cached(64)
def player_list(_con: Connection, path: str, gen: int, filters: Filters) -> pd.DataFrame:
    return stats.player_list(_con, filters)


@cached(64)
def hero_name(_con: Connection, path: str, gen: int, filters: Filters) -> str | None:
    return stats.hero_name(_con, filters)


@cached(64)
def results(_con: Connection, path: str, gen: int, player: str,
            filters: Filters) -> stats.Results:
    return stats.results(_con, player, filters)


@cached(64)
def player_stats(_con: Connection, path: str, gen: int, player: str,
                 filters: Filters) -> tuple[stats.StatValue, ...]:
    return stats.player_stats(_con, player, filters)


@dataclass(frozen=True)
class Curves:
    """What the overview draws from the player's hands in time order: the running totals
    thinned to the chart's points, the dates they span, the days and the sessions."""

    by_hand: pd.DataFrame  # ``stats.CURVE_COLUMNS``, every k-th point and the last (``thin``)
    first: pd.Timestamp | None  # the first and last timed hand
    last: pd.Timestamp | None
    by_date: pd.DataFrame
    sessions: pd.DataFrame


@cached(16)
def curves(_con: Connection, path: str, gen: int, player: str, filters: Filters,
           zone: tzinfo = UTC) -> Curves:
    """The curve, the days (``zone``'s) and the sessions from their tables where the
    filters allow (``stats.timeline_figures``), else from one fetch of the player's hands,
    kept only as what the page shows: Streamlit copies a cached frame on every hit."""
    got = stats.timeline_figures(_con, player, filters, points=CHART_POINTS, zone=zone)
    return Curves(thin(got.by_hand), got.first, got.last, got.by_date, got.sessions)


@cached(16)
def cube(_con: Connection, path: str, gen: int, player: str, filters: Filters) -> pd.DataFrame:
    """One scan the draw tables and the showdown hands are rolled up from."""
    return stats.cube(_con, player, filters)


@cached(64)
def by_position(_con: Connection, path: str, gen: int, player: str,
                filters: Filters) -> pd.DataFrame:
    """Results by position in acting order; no statistics (the chart shows win rates only)."""
    return stats.order_by_position(
        stats.summary(_con, filters, player, by=("position",), stats=()))


@cached(64)
def draw_summary(_con: Connection, path: str, gen: int, player: str,
                 filters: Filters) -> pd.DataFrame:
    return stats.draw_summary_of(stats.draw_cells_of(cube(_con, path, gen, player, filters)))


@cached(64)
def draw_counts(_con: Connection, path: str, gen: int, player: str,
                filters: Filters) -> pd.DataFrame:
    return stats.draw_counts_of(stats.draw_cells_of(cube(_con, path, gen, player, filters)))


@cached(64)
def showdown_hands(_con: Connection, path: str, gen: int, player: str,
                   filters: Filters) -> pd.DataFrame:
    return stats.showdown_of(cube(_con, path, gen, player, filters))


@cached(16)
def summary(_con: Connection, path: str, gen: int, filters: Filters) -> pd.DataFrame:
    return stats.summary(_con, filters)


@cached(16)
def site_summary(_con: Connection, path: str, gen: int, filters: Filters) -> pd.DataFrame:
    """Results and statistics per player at each site (a name at two sites is two people)."""
    return stats.summary(_con, filters, by=("site",))


@cached(64)
def money_kinds(_con: Connection, path: str, gen: int, filters: Filters,
                player: str | None = None) -> pd.DataFrame:
    return stats.money_kinds(_con, filters, player)


@cached(64)
def offers(_con: Connection, path: str, gen: int, player: str, filters: Filters) -> Offers:
    """What the filters offer for ``player``'s hands (``analysis.statistics.offers``)."""
    return offers_of(_con, player, filters)


@cached(64)
def site_players(_con: Connection, path: str, gen: int, filters: Filters) -> pd.DataFrame:
    return stats.site_players(_con, filters)


@cached(64)
def by_stakes(_con: Connection, path: str, gen: int, player: str,
              filters: Filters) -> pd.DataFrame:
    return stats.by_stakes(_con, player, filters)


def hand_ids(con: Connection, player: str, filters: Filters, **behind: Any) -> list[int]:
    """The stored ids of the hands behind a figure (``stats.hand_ids``): not cached, it
    runs once, when the user asks to open them."""
    return stats.hand_ids(con, player, filters, **behind)



# --- filters ---------------------------------------------------------------------------


@dataclass(frozen=True)
class FilterOptions:
    """What the filter widgets offer: the values present in the database."""

    hands: int
    sites: tuple[str, ...]
    games: tuple[str, ...]
    stakes: tuple[str, ...]
    first_day: date | None
    last_day: date | None
    min_players: int
    max_players: int
    currencies: tuple[str, ...] = ()  # most hands first: money adds up only within one

    @property
    def description(self) -> str:
        days = ""
        if self.first_day is not None and self.last_day is not None:
            days = f", {self.first_day:%Y-%m-%d} to {self.last_day:%Y-%m-%d}"
        return f"{self.hands:,} hands{days}"


def _day(df: pd.DataFrame) -> date | None:
    if df.empty or pd.isna(df["time"].iloc[0]):
        return None
    return pd.Timestamp(df["time"].iloc[0]).date()


@cached(16)
def filter_options(_con: Connection, path: str, gen: int) -> FilterOptions:
    hands = queries.count_hands(_con)
    combos = stats.key_counts(_con, ("site", "game", "stakes", "players", "currency"))
    players = combos["players"].dropna()
    return FilterOptions(
        hands=hands,
        sites=tuple(sorted(str(v) for v in combos["site"].dropna().unique())),
        games=tuple(sorted(str(v) for v in combos["game"].dropna().unique())),
        stakes=tuple(sorted(str(v) for v in combos["stakes"].dropna().unique())),
        first_day=_day(queries.list_hands(_con, limit=1, newest_first=False)),
        last_day=_day(queries.list_hands(_con, limit=1, newest_first=True)),
        min_players=int(players.min()) if len(players) else 2,
        max_players=int(players.max()) if len(players) else 2,
        currencies=most_played(combos, "currency"),
    )


# --- hands for the replayer -------------------------------------------------------------

LIST_LIMIT = 200


@cached(32)
def latest_hands(_con: Connection, path: str, gen: int, f: Filters) -> pd.DataFrame:
    return queries.list_hands(_con, f, limit=LIST_LIMIT)


@cached(32)
def biggest_pots(_con: Connection, path: str, gen: int, f: Filters) -> pd.DataFrame:
    return queries.biggest_pots(_con, f, limit=LIST_LIMIT)


@cached(32)
def problem_hands(_con: Connection, path: str, gen: int, f: Filters) -> pd.DataFrame:
    """One row per hand with a problem (errors and warnings), first problem's hand first."""
    rows = queries.hands_with_problems(_con, f, severity=None, limit=20 * LIST_LIMIT)
    return rows.drop_duplicates("id").head(LIST_LIMIT).reset_index(drop=True)


@cached(32)
def find_hand_ids(_con: Connection, path: str, gen: int, wanted: str,
                  sites: tuple[str, ...]) -> pd.DataFrame:
    """Hands whose site id is ``wanted`` (a leading ``#`` ignored), on any site."""
    wanted = wanted.lstrip("#").strip()
    rows = []
    if wanted:
        for site in sites:
            found = queries.get_hand(_con, f"{site}:{wanted}")
            if found is not None:
                rows.append({k: v for k, v in found.row.items() if k != "text"})
    if not rows:
        return pd.DataFrame(columns=["id", "hand_id", "site", "status", "time", "total_pot"])
    return pd.DataFrame(rows)


@cached(64)
def stored_hand(_con: Connection, path: str, gen: int, hand: int) -> queries.StoredHand | None:
    return queries.get_hand(_con, hand)


@cached(64)
def replay_of(_con: Connection, path: str, gen: int, hand: int) -> Replay | None:
    stored = stored_hand(_con, path, gen, hand)
    if stored is None or stored.hand is None:
        return None
    return replay(stored.hand, views=True)


# --- failed hands of an import ----------------------------------------------------------


@cached(128)
def hand_text_at(_con: Connection, path: str, gen: int, file: str, line: int) -> str | None:
    """The stored text of the failed hand an import logged at ``file:line``."""
    return queries.failed_hand_text(_con, file, line)


@cached(16)
def replay_suggested(_con: Connection, path: str, gen: int) -> bool:
    """A migration asks for the stored hands to be replayed again (``analysis.storage.db``)."""
    return _replay_suggested(_con)


# --- the page's scope and the user's memory ---------------------------------------------
# Small reads every page makes on every run (the samples, the errors switch, the user's
# people, tags, notes and saved filters): cheap alone, but a run made a dozen of them.
# A setting, a tag or a note written changes the file, so the generation, so the key.


@cached(16)
def sample_count(_con: Connection, path: str, gen: int) -> int:
    return samples.count(_con)


@cached(16)
def own_hands(_con: Connection, path: str, gen: int) -> int:
    return samples.own_hands(_con)


@cached(16)
def has_samples(_con: Connection, path: str, gen: int) -> bool:
    return hand_scope.has_samples(_con)


@cached(16)
def leave_out_errors(_con: Connection, path: str, gen: int) -> bool:
    return settings.leave_out_errors(_con)


@cached(64)
def with_errors(_con: Connection, path: str, gen: int, filters: Filters,
                player: str | None) -> int:
    return hand_scope.with_errors(_con, filters, player)


@cached(16)
def people(_con: Connection, path: str, gen: int) -> list[str]:
    return memory.people(_con)


@cached(16)
def all_tags(_con: Connection, path: str, gen: int) -> list[str]:
    return memory.all_tags(_con)


@cached(16)
def note_labels(_con: Connection, path: str, gen: int,
                site: str | None = None) -> dict[tuple[str, str], str]:
    return memory.note_labels(_con, site)


@cached(16)
def saved_filter_names(_con: Connection, path: str, gen: int) -> list[str]:
    return memory.saved_filter_names(_con)
