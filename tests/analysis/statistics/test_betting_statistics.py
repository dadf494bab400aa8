"""Each betting statistic's rule on hands written for it: an opportunity taken, one not
taken, and a hand without the opportunity, read off the player's row by the declaration's
own columns (``definitions.BETTING``)."""

from __future__ import annotations

from typing import Any

import pytest

from analysis.statistics.definitions import BETTING, STAT_BY_KEY
from analysis.statistics.facts import hand_facts
from engine.record import Game, Hand, Stakes, Structure
from tests.handbuild import make_hand

THREE = [(1, "A", 5000), (2, "B", 5000), (3, "C", 5000)]  # A on the button, B SB, C BB
BLINDS = [("post", "B", "sb", 50), ("post", "C", "bb", 100)]


def three_handed(*steps: tuple[Any, ...]) -> Hand:
    return make_hand(THREE, [*BLINDS, *steps], button=1)


# A steals, B folds, C 3-bets and A folds to it.
STEAL_FOLD = three_handed(
    ("raise", "A", 0, 200, 200), ("fold", "B", 0), ("raise", "C", 0, 200, 300),
    ("fold", "A", 0), ("uncalled", "C", 100), ("collect", "C", 450),
)
# A limps in, B completes, C checks: nobody raises.
LIMPED = three_handed(
    ("call", "A", 0, 100), ("call", "B", 0, 50), ("check", "C", 0),
)
# A steals, B calls, C 3-bets, A caps, B folds, C calls.
CAPPED = three_handed(
    ("raise", "A", 0, 200, 200), ("call", "B", 0, 150), ("raise", "C", 0, 200, 300),
    ("raise", "A", 0, 200, 400), ("fold", "B", 0), ("call", "C", 0, 100),
)

# A and B fold: the big blind has a walk, no decision at all.
WALK = three_handed(("fold", "A", 0), ("fold", "B", 0), ("uncalled", "C", 50),
                    ("collect", "C", 100))


def heads_up(*steps: tuple[Any, ...], game: Game = Game.TRIPLE_DRAW_27) -> Hand:
    """X (button, small blind) limps and Y (big blind) checks, then ``steps``."""
    structure = Structure.NO_LIMIT if game is Game.SINGLE_DRAW_27 else Structure.FIXED
    stakes = Stakes(50, 100, 100, 100) if game is Game.SINGLE_DRAW_27 else Stakes(50, 100, 100, 200)
    return make_hand(
        [(1, "X", 5000), (2, "Y", 5000)],
        [("post", "X", "sb", 50), ("post", "Y", "bb", 100), ("call", "X", 0, 50),
         ("check", "Y", 0), *steps],
        button=1, game=game, structure=structure, stakes=stakes,
    )


def draws(k: int, x: int, y: int) -> tuple[tuple[Any, ...], ...]:
    """Draw ``k``: Y takes ``y`` cards and X ``x`` (0: stands pat)."""
    return ("draw", "Y", k, y), ("draw", "X", k, x)


# X stands pat and bets when Y checks; Y check-raises; X calls.  Then the second draw is
# checked through and, after the last draw, Y bets and X folds.
PAT_BET_CHECK_RAISE = heads_up(
    *draws(1, 0, 2), ("check", "Y", 1), ("bet", "X", 1, 100), ("raise", "Y", 1, 200, 200),
    ("call", "X", 1, 100),
    *draws(2, 0, 1), ("check", "Y", 2), ("check", "X", 2),
    *draws(3, 0, 1), ("bet", "Y", 3, 200), ("fold", "X", 3),
)
# X stands pat and checks behind; Y check-calls X's bet on the last round (X drew one).
PAT_CHECK_CHECK_CALL = heads_up(
    *draws(1, 0, 2), ("check", "Y", 1), ("check", "X", 1),
    *draws(2, 1, 1), ("check", "Y", 2), ("bet", "X", 2, 200), ("call", "Y", 2, 200),
    *draws(3, 1, 0), ("check", "Y", 3), ("bet", "X", 3, 200), ("call", "Y", 3, 200),
)
# Y stands pat and bets first (nobody checked to Y); X folds to it before the last draw.
PAT_LEADS = heads_up(*draws(1, 2, 0), ("bet", "Y", 1, 100), ("fold", "X", 1))
# Single draw: the only draw is the last, so its round is "after the last draw".
SINGLE_DRAW_FOLD = heads_up(
    *draws(1, 1, 2), ("bet", "Y", 1, 300), ("fold", "X", 1), game=Game.SINGLE_DRAW_27
)

CASES: list[tuple[str, Hand, str, tuple[bool, bool]]] = [
    # key, hand, player, (opportunity, event)
    ("vpip", STEAL_FOLD, "A", (True, True)),
    ("vpip", STEAL_FOLD, "B", (True, False)),
    ("vpip", PAT_LEADS, "Y", (True, False)),  # a check is a decision, not money in
    ("pfr", STEAL_FOLD, "C", (True, True)),
    ("pfr", LIMPED, "A", (True, False)),
    ("vpip", WALK, "C", (False, False)),
    ("pfr", WALK, "C", (False, False)),
    ("rfi", STEAL_FOLD, "A", (True, True)),
    ("rfi", LIMPED, "A", (True, False)),
    ("rfi", STEAL_FOLD, "B", (False, False)),  # opened before B acted
    ("steal", STEAL_FOLD, "A", (True, True)),
    ("steal", LIMPED, "A", (True, False)),
    ("steal", STEAL_FOLD, "C", (False, False)),  # the big blind cannot steal
    ("fold_to_steal", STEAL_FOLD, "B", (True, True)),
    ("fold_to_steal", STEAL_FOLD, "C", (True, False)),
    ("fold_to_steal", LIMPED, "B", (False, False)),
    ("three_bet", STEAL_FOLD, "C", (True, True)),
    ("three_bet", STEAL_FOLD, "B", (True, False)),
    ("three_bet", LIMPED, "C", (False, False)),
    ("fold_to_three_bet", STEAL_FOLD, "A", (True, True)),
    ("fold_to_three_bet", CAPPED, "A", (True, False)),
    ("fold_to_three_bet", CAPPED, "B", (False, False)),  # not the first raiser
    ("cap", CAPPED, "A", (True, True)),
    ("cap", CAPPED, "C", (False, False)),  # faced the cap, not a 3-bet
    ("cap", STEAL_FOLD, "A", (True, False)),
    ("fold_to_pat", PAT_LEADS, "X", (True, True)),
    ("fold_to_pat", PAT_BET_CHECK_RAISE, "Y", (True, False)),  # raised the pat bettor
    ("fold_to_pat", PAT_CHECK_CHECK_CALL, "Y", (False, False)),  # X drew before betting
    ("fold_after_last_draw", PAT_BET_CHECK_RAISE, "X", (True, True)),
    ("fold_after_last_draw", SINGLE_DRAW_FOLD, "X", (True, True)),  # one draw: the last
    ("fold_after_last_draw", PAT_CHECK_CHECK_CALL, "Y", (True, False)),
    ("fold_after_last_draw", PAT_LEADS, "X", (False, False)),  # folded after the first
    ("check_raise", PAT_BET_CHECK_RAISE, "Y", (True, True)),
    ("check_raise", PAT_CHECK_CHECK_CALL, "Y", (True, False)),  # check-called, twice
    ("check_raise", PAT_LEADS, "Y", (False, False)),  # bet out, never checked
    ("check_raise", PAT_BET_CHECK_RAISE, "X", (False, False)),  # raised without a check
    ("pat_bet", PAT_BET_CHECK_RAISE, "X", (True, True)),
    ("pat_bet", PAT_CHECK_CHECK_CALL, "X", (True, False)),  # checked behind; drew later
    ("pat_bet", PAT_LEADS, "Y", (False, False)),  # first to act: nobody checked to Y
    ("pat_bet", PAT_CHECK_CHECK_CALL, "Y", (False, False)),  # pat at last, first to act
]


def flags(hand: Hand, player: str, key: str) -> tuple[bool, bool]:
    """The player's (opportunity, event) columns of statistic ``key``."""
    spot = STAT_BY_KEY[key].spot
    assert spot is not None
    (row,) = [r for r in hand_facts(hand) if r.player == player]
    return getattr(row, spot.column), getattr(row, key)


@pytest.mark.parametrize(("key", "hand", "player", "expected"), CASES)
def test_betting_statistic_on_its_hands(
    key: str, hand: Hand, player: str, expected: tuple[bool, bool]
) -> None:
    assert flags(hand, player, key) == expected


def test_every_betting_statistic_has_a_taken_a_missed_and_an_absent_case() -> None:
    seen: dict[str, set[tuple[bool, bool]]] = {s.key: set() for s in BETTING}
    for key, _hand, _player, expected in CASES:
        seen[key].add(expected)
    assert {k: v for k, v in seen.items() if len(v) < 3} == {}


def test_betting_statistics_sum_their_own_columns() -> None:
    for s in BETTING:
        assert s.spot is not None
        assert (s.num_sql, s.den_sql) == (
            f"coalesce(count_if({s.key}), 0)", f"coalesce(count_if({s.spot.column}), 0)"
        )
