"""Each statistic that is a sum over the facts (showdown, aggression per round, cards
drawn, pats, snows and breaks) on hands written for it: its numerator and denominator for
one player of one hand, as ``drawlab stats`` sums them (``figures.player_stats`` over the
declaration's SQL), in a case where it happened, one where it could have and did not, and
one without the chance."""

from __future__ import annotations

from functools import cache
from typing import Any

import duckdb
import pytest

from analysis.statistics import figures
from analysis.statistics.definitions import STATS
from engine.record import Hand
from tests.analysis.statistics.test_betting_statistics import (
    CAPPED,
    PAT_CHECK_CHECK_CALL,
    STEAL_FOLD,
    WALK,
    draws,
    heads_up,
)
from tests.handbuild import make_hand
from tests.statsdb import database

# Draw 1: Y takes 2, X 1; X bets, Y calls.  Draw 2: X stands pat, Y takes 1; Y bets, X
# raises, Y calls.  Draw 3: X pat again, Y takes 1; X bets, Y calls.  X shows a 7-low (a
# hand known after standing pat on every later draw) and wins the 1,600 pot.
SHOWDOWN = heads_up(
    *draws(1, 1, 2), ("check", "Y", 1), ("bet", "X", 1, 100), ("call", "Y", 1, 100),
    *draws(2, 0, 1), ("bet", "Y", 2, 200), ("raise", "X", 2, 400, 400), ("call", "Y", 2, 200),
    *draws(3, 0, 1), ("check", "Y", 3), ("bet", "X", 3, 200), ("call", "Y", 3, 200),
    ("show", "X", "7s5d4h3c2s"), ("show", "Y", "8c7d6s3d2h"), ("collect", "X", 1600),
)
# X takes 2, Y stands pat and bets; X folds: Y wins without a showdown.
FOLD_AFTER_DRAW = heads_up(
    *draws(1, 2, 0), ("bet", "Y", 1, 100), ("fold", "X", 1),
    ("uncalled", "Y", 100), ("collect", "Y", 200),
)


def hero_heads_up(dealt: str, *steps: tuple[Any, ...]) -> Hand:
    """``heads_up`` with X the hero, dealt ``dealt``: X's cards are known."""
    return make_hand(
        [(1, "X", 5000), (2, "Y", 5000)],
        [("post", "X", "sb", 50), ("post", "Y", "bb", 100), ("call", "X", 0, 50),
         ("check", "Y", 0), *steps],
        button=1, hero="X", dealt=dealt,
    )


PAT_BET_TAKEN = (("check", "Y", 1), ("bet", "X", 1, 100), ("fold", "Y", 1),
                 ("uncalled", "X", 100), ("collect", "X", 200))
# X stands pat on a pair of kings (not a made hand): a snow.
SNOWED = hero_heads_up("KdKc9s5h2c", *draws(1, 0, 2), *PAT_BET_TAKEN)
# X stands pat on a 7-low: a pat that is no snow, and a made hand kept.
PAT_MADE = hero_heads_up("7s5d4h3c2s", *draws(1, 0, 2), *PAT_BET_TAKEN)
# X breaks an 8-low (throws the 8) and folds to Y's bet.
BROKE = hero_heads_up(
    "8s6d4c3h2s", ("draw", "Y", 1, 2), ("draw", "X", 1, 1, "8s", "6d4c3h2s", "Kd"),
    ("bet", "Y", 1, 100), ("fold", "X", 1), ("uncalled", "Y", 100), ("collect", "Y", 200),
)

HANDS: dict[str, Hand] = {
    "SHOWDOWN": SHOWDOWN, "FOLD_AFTER_DRAW": FOLD_AFTER_DRAW, "SNOWED": SNOWED,
    "PAT_MADE": PAT_MADE, "BROKE": BROKE, "STEAL_FOLD": STEAL_FOLD, "CAPPED": CAPPED,
    "WALK": WALK, "PAT_CHECK_CHECK_CALL": PAT_CHECK_CHECK_CALL,
}

CASES: list[tuple[str, str, str, tuple[int, int]]] = [
    # key, hand, player, (numerator, denominator)
    ("wtsd", "SHOWDOWN", "Y", (1, 1)),  # lost, but went
    ("wtsd", "FOLD_AFTER_DRAW", "X", (0, 1)),
    ("wtsd", "STEAL_FOLD", "B", (0, 0)),  # folded before the first draw
    ("wsd", "SHOWDOWN", "X", (1, 1)),
    ("wsd", "SHOWDOWN", "Y", (0, 1)),
    ("wsd", "FOLD_AFTER_DRAW", "Y", (0, 0)),  # won, without a showdown
    ("wwsf", "FOLD_AFTER_DRAW", "Y", (1, 1)),
    ("wwsf", "FOLD_AFTER_DRAW", "X", (0, 1)),
    ("wwsf", "STEAL_FOLD", "B", (0, 0)),
    # aggression factor: bets and raises, out of calls, in one round
    ("af_0", "CAPPED", "A", (2, 0)),  # raised twice, never called
    ("af_0", "SHOWDOWN", "X", (0, 1)),  # limped
    ("af_0", "SHOWDOWN", "Y", (0, 0)),  # checked: neither
    ("af_1", "SHOWDOWN", "X", (1, 0)),
    ("af_1", "SHOWDOWN", "Y", (0, 1)),
    ("af_1", "STEAL_FOLD", "B", (0, 0)),
    ("af_2", "SHOWDOWN", "Y", (1, 1)),  # bet, then called the raise
    ("af_2", "SHOWDOWN", "X", (1, 0)),
    ("af_2", "PAT_CHECK_CHECK_CALL", "Y", (0, 1)),  # checked, then called
    ("af_2", "FOLD_AFTER_DRAW", "X", (0, 0)),
    ("af_3", "SHOWDOWN", "X", (1, 0)),
    ("af_3", "SHOWDOWN", "Y", (0, 1)),
    ("af_3", "FOLD_AFTER_DRAW", "Y", (0, 0)),
    # aggression frequency: bets and raises, out of every action and fold, in one round
    ("afq_0", "STEAL_FOLD", "A", (1, 2)),  # raised, then folded to the 3-bet
    ("afq_0", "SHOWDOWN", "Y", (0, 1)),
    ("afq_0", "WALK", "C", (0, 0)),  # no decision
    ("afq_1", "SHOWDOWN", "X", (1, 1)),
    ("afq_1", "SHOWDOWN", "Y", (0, 2)),  # checked, then called
    ("afq_1", "FOLD_AFTER_DRAW", "X", (0, 1)),  # the fold counts
    ("afq_1", "STEAL_FOLD", "B", (0, 0)),
    ("afq_2", "SHOWDOWN", "Y", (1, 2)),
    ("afq_2", "SHOWDOWN", "X", (1, 1)),
    ("afq_2", "PAT_CHECK_CHECK_CALL", "Y", (0, 2)),
    ("afq_2", "PAT_MADE", "Y", (0, 0)),
    ("afq_3", "SHOWDOWN", "X", (1, 1)),
    ("afq_3", "SHOWDOWN", "Y", (0, 2)),
    ("afq_3", "FOLD_AFTER_DRAW", "Y", (0, 0)),
    # cards drawn: all the cards taken on a draw, out of the hands that took it
    ("drawn_1", "SHOWDOWN", "Y", (2, 1)),
    ("drawn_1", "FOLD_AFTER_DRAW", "Y", (0, 1)),  # stood pat
    ("drawn_1", "STEAL_FOLD", "B", (0, 0)),
    ("drawn_2", "SHOWDOWN", "Y", (1, 1)),
    ("drawn_2", "SHOWDOWN", "X", (0, 1)),
    ("drawn_2", "FOLD_AFTER_DRAW", "X", (0, 0)),  # folded after the first
    ("drawn_3", "SHOWDOWN", "Y", (1, 1)),
    ("drawn_3", "SHOWDOWN", "X", (0, 1)),
    ("drawn_3", "FOLD_AFTER_DRAW", "Y", (0, 0)),  # won after the first
    ("pat_1", "FOLD_AFTER_DRAW", "Y", (1, 1)),
    ("pat_1", "FOLD_AFTER_DRAW", "X", (0, 1)),
    ("pat_1", "STEAL_FOLD", "B", (0, 0)),
    ("pat_2", "SHOWDOWN", "X", (1, 1)),
    ("pat_2", "SHOWDOWN", "Y", (0, 1)),
    ("pat_2", "FOLD_AFTER_DRAW", "X", (0, 0)),
    ("pat_3", "SHOWDOWN", "X", (1, 1)),
    ("pat_3", "SHOWDOWN", "Y", (0, 1)),
    ("pat_3", "FOLD_AFTER_DRAW", "Y", (0, 0)),
    # snows and breaks need the cards held: the hero's, or a pat hand shown at the end
    ("snow", "SNOWED", "X", (1, 1)),
    ("snow", "PAT_MADE", "X", (0, 1)),
    ("snow", "SHOWDOWN", "X", (0, 1)),  # the 7-low shown after two pats
    ("snow", "FOLD_AFTER_DRAW", "Y", (0, 0)),  # stood pat on cards nobody saw
    ("snow", "BROKE", "X", (0, 0)),  # drew
    ("break", "BROKE", "X", (1, 1)),
    ("break", "PAT_MADE", "X", (0, 1)),
    ("break", "SNOWED", "X", (0, 0)),  # a pair is no made hand
    ("break", "SHOWDOWN", "Y", (0, 0)),  # cards unknown
]


@cache
def _database(name: str) -> duckdb.DuckDBPyConnection:
    return database([HANDS[name]])[0]


def counts(name: str, player: str, key: str) -> tuple[int, int]:
    """Statistic ``key``'s numerator and denominator for ``player`` in hand ``name``."""
    (stat,) = [s for s in figures.player_stats(_database(name), player) if s.key == key]
    return int(stat.numerator), int(stat.denominator)


@pytest.mark.parametrize(("key", "hand", "player", "expected"), CASES)
def test_summed_statistic_on_its_hands(
    key: str, hand: str, player: str, expected: tuple[int, int]
) -> None:
    assert counts(hand, player, key) == expected


def test_every_statistic_has_a_taken_a_missed_and_an_absent_case() -> None:
    """Each statistic not declared by its betting spot is here; those are in
    ``test_betting_statistics``, with the same three cases."""
    summed = [s.key for s in STATS if s.spot is None]
    seen: dict[str, set[str]] = {k: set() for k in summed}
    for key, _hand, _player, (num, den) in CASES:
        seen[key].add("taken" if num else "missed" if den else "absent")
    assert {k: v for k, v in seen.items() if len(v) < 3} == {}
    assert len(summed) == 19
