"""Opponents' ranges from the whole hand (engine.sim.reads): how long a count has stood, a bet
before the draw and the named profiles narrow or widen the range as a 2-7 player reads it,
and the share of hands that call the hero's bet."""

from __future__ import annotations

import numpy as np
import pytest

from engine.cards import RANK_CHARS
from engine.ranking import Ranking
from engine.sim.ranges import base_range
from engine.sim.reads import PROFILES, Read, defended, position_step, read_strategy
from engine.sim.review import Spot, opponent_players, spot_key
from engine.sim.strategy import default_strategy

D27 = Ranking.DEUCE_SEVEN


def _range_set(profile: str, since: int, keeps: int, aggressor: bool = False) -> set[bytes]:
    r = base_range(
        read_strategy(D27, profile, draws_left=1, since=since, aggressor=aggressor), 1, keeps
    )
    return {bytes(sorted(h)) for h in r.hands}


def _highest_low(hands: np.ndarray, keep_only: int) -> int:
    """The highest rank among each hand's ``keep_only`` lowest distinct cards, at most."""
    worst = 0
    for h in hands:
        ranks = sorted({int(c) >> 2 for c in h})[:keep_only]
        worst = max(worst, ranks[-1])
    return worst


def test_pat_since_the_first_draw_is_a_tighter_range_than_a_late_pat() -> None:
    early = _range_set("standard", 3, 5)
    late = _range_set("standard", 1, 5)
    assert early < late  # every hand pat since the first draw would stand pat late too
    # nine-low or better (53,040 hands) against ten-low or better (123,420)
    assert (len(early), len(late)) == (53_040, 123_420)
    r = base_range(read_strategy(D27, "standard", draws_left=1, since=3, aggressor=False), 1, 5)
    assert RANK_CHARS[_highest_low(r.hands, 5)] == "9"


@pytest.mark.slow  # over 1.5 s: make test runs it
def test_one_card_drawers_since_the_first_draw_hold_seven_and_eight_draws() -> None:
    early = base_range(read_strategy(D27, "standard", draws_left=1, since=3, aggressor=False), 1, 4)
    late = base_range(read_strategy(D27, "standard", draws_left=1, since=1, aggressor=False), 1, 4)
    assert RANK_CHARS[_highest_low(early.hands, 4)] == "8"
    assert RANK_CHARS[_highest_low(late.hands, 4)] == "9"
    tight = base_range(read_strategy(D27, "tight", draws_left=1, since=3, aggressor=False), 1, 4)
    assert RANK_CHARS[_highest_low(tight.hands, 4)] == "7"


def test_a_bet_before_the_draw_and_the_profiles_move_the_range_a_rank() -> None:
    assert _range_set("standard", 1, 5, aggressor=True) == _range_set("standard", 3, 5)
    tight, standard, loose = (_range_set(p, 1, 5) for p in PROFILES)
    assert tight < standard < loose
    assert read_strategy(
        D27, "standard", draws_left=2, since=2, aggressor=False
    ) is default_strategy(D27)


def test_the_spot_ranges_each_opponent_by_their_read() -> None:
    spot = Spot(D27, (0, 4, 8, 12, 49), 1, (0, 0), reads=(Read(0, 3), Read(0, 1)))
    players = opponent_players(spot)
    assert [p.keeps_unknown for p in players] == [5, 5]
    assert players[0].strategy is read_strategy(
        D27, "standard", draws_left=1, since=3, aggressor=False
    )
    assert players[1].strategy is default_strategy(D27)
    with pytest.raises(ValueError):
        Spot(D27, (0, 4, 8, 12, 49), 1, (0, 1), reads=(Read(0, 3), Read(0, 1)))
    with pytest.raises(ValueError):
        Spot(D27, (0, 4, 8, 12, 49), 1, (0,), profile="maniac")


def test_the_share_that_calls_follows_the_price_the_count_and_the_profile() -> None:
    assert defended(0.0, 1, "standard") == 1.0
    assert defended(1.0, 2, "standard") == pytest.approx(0.5)
    assert defended(1.0, 1, "standard") == pytest.approx(0.4)  # a one-card bettor: 0.8 of it
    assert defended(1.0, 0, "tight") == pytest.approx(0.5 * 0.8 * 0.85)
    assert defended(0.1, 3, "loose") == 1.0  # capped: everyone calls


def _opener_range(since: int, position: str, opener: str) -> set[bytes]:
    step = position_step(position, opener)
    r = base_range(
        read_strategy(D27, "standard", draws_left=1, since=since, aggressor=False, position=step),
        1,
        5,
    )
    return {bytes(sorted(h)) for h in r.hands}


def test_an_early_opener_is_ranged_tighter_than_a_button_opener_with_the_same_draws() -> None:
    utg = _opener_range(3, "UTG", "UTG")
    button = _opener_range(3, "BTN", "BTN")
    assert utg < _range_set("standard", 3, 5) < button
    # pat since the first draw: eight-low or better from UTG, ten-low or better from the button
    assert (len(utg), len(button)) == (18_360, 123_420)  # 18 rank sets x 1,020 suitings
    assert _opener_range(3, "MP", "MP") == _range_set("standard", 3, 5)


def test_a_blind_defending_a_steal_is_wider_and_callers_of_an_early_open_are_not() -> None:
    assert [position_step("BB", o) for o in ("CO", "BTN", "SB", "UTG", "MP")] == [1, 1, 1, 0, 0]
    assert position_step("SB", "BTN") == 1
    assert position_step("BTN", "UTG") == 0  # a cold caller keeps the profile's own
    assert position_step("UTG+2", "UTG+2") == -1
    assert position_step("SB", "SB") == 1  # the small blind's steal
    assert position_step("BB", None) == 0 and position_step(None, "BTN") == 0
    assert _opener_range(1, "BB", "BTN") == _range_set("loose", 1, 5)


def test_the_spot_ranges_an_opponent_by_their_position() -> None:
    spot = Spot(D27, (0, 4, 8, 12, 49), 1, (0,), reads=(Read(0, 3, False, -1),))
    assert opponent_players(spot)[0].strategy is read_strategy(
        D27, "standard", draws_left=1, since=3, aggressor=False, position=-1
    )
    assert spot_key(spot) != spot_key(Spot(D27, (0, 4, 8, 12, 49), 1, (0,), reads=(Read(0, 3),)))


def test_read_strategy_keywords_in_any_order_share_one_cache_entry() -> None:
    from engine.sim import reads

    first = read_strategy(D27, "loose", draws_left=2, since=3, aggressor=True)
    entries = reads._read_strategy.cache_info().currsize
    again = read_strategy(D27, "loose", position=0, aggressor=True, since=3, draws_left=2)
    assert again is first
    assert reads._read_strategy.cache_info().currsize == entries
