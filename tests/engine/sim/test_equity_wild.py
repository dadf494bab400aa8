"""Equity with wild cards and the high-low split (engine/sim/scoring.py, wild_strategy.py)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.cards import parse_cards
from engine.ranking import Ranking
from engine.sim.equity import Player, equity, exact_equity, game_setup, keep_equities, simulate
from engine.sim.ranges import base_range
from engine.sim.scoring import Scoring
from engine.sim.strategy import STAND_PAT
from engine.sim.wild_strategy import strategy_for
from engine.wild import Wild

JOKER_HIGH = Scoring(Ranking.HIGH, Wild.JOKER)
HIGH_LOW = Scoring(Ranking.HIGH, high_low=True)


def cards(text: str) -> tuple[int, ...]:
    return parse_cards(text)


def test_a_joker_draw_against_a_full_house_is_exact() -> None:
    # A-K-Q of hearts and the joker, one card to come against tens full: only Jh and Th
    # (a royal flush) beat it, of the 44 cards unseen; the aces make only three aces.
    hero = Player(cards("Jk Ah Kh Qh"))
    pat = Player(cards("Tc Td Ts 4c 4d"), STAND_PAT)
    result = exact_equity([hero, pat], JOKER_HIGH, 1)
    assert result.trials == 44
    assert result.equity[0] == pytest.approx(2 / 44)
    assert result.equity[1] == pytest.approx(42 / 44)


def test_high_low_equity_is_half_for_each_half_won() -> None:
    # A-2-3-4 drawing one against a pair of kings (one five dead in it): a five makes the
    # wheel and an ace a pair of aces, both halves (3 + 3 cards); any other card wins the
    # low half only (37 cards: a pair of deuces to fours is still the better low).
    hero = Player(cards("Ah 2h 3c 4d"))
    pat = Player(cards("Kc Kd 5s 8h 6c"), STAND_PAT)
    result = exact_equity([hero, pat], HIGH_LOW, 1)
    assert result.trials == 43
    assert result.equity[0] == pytest.approx((6 + 37 / 2) / 43)
    assert sum(result.equity) == pytest.approx(1.0)


def test_high_low_pat_hands_split_or_scoop() -> None:
    low_and_high = [Player(cards("Ah 2h 3c 4d 5s"), STAND_PAT), Player(cards("Kc Kd Ks 7h 2c"))]
    assert exact_equity(low_and_high, HIGH_LOW, 0).equity == (1.0, 0.0)  # the wheel scoops
    split = [Player(cards("Ah 2h 3c 4d 9s"), STAND_PAT), Player(cards("Kc Kd Ks 7h 2c"))]
    assert exact_equity(split, HIGH_LOW, 0).equity == (0.5, 0.5)
    tie_low = [
        Player(cards("Ah 2h 3c 4d 9s")),
        Player(cards("Ac 2d 3h 4s 9c")),
        Player(cards("Qc Qd 8s 7h 6c")),
    ]
    assert exact_equity(tie_low, HIGH_LOW, 0).equity == (0.25, 0.25, 0.5)


def test_simulation_agrees_with_enumeration_with_two_jokers() -> None:
    scoring = Scoring(Ranking.HIGH, Wild.TWO_JOKERS)
    # Three nines drawing two against aces full: quads or five nines win.
    players = [Player(cards("Jk 9h 9c")), Player(cards("Ah Ad Ac Ks Kd"), STAND_PAT)]
    exact = exact_equity(players, scoring, 1)
    assert exact.trials == 1_035  # 46 unseen cards (a joker among them), two drawn
    assert 0.05 < exact.equity[0] < 0.5
    sim = equity(players, scoring, 1, trials=40_000, seed=16, exact_limit=0)  # sampled
    assert not sim.exact and equity(players, scoring, 1) == exact  # counted by default
    assert abs(sim.equity[0] - exact.equity[0]) < 4 * sim.stderr[0]


def test_joker_decks_deal_the_jokers() -> None:
    scoring = Scoring(Ranking.HIGH, Wild.TWO_JOKERS)
    finals = simulate([Player(()), Player(())], scoring, 1, trials=4_000, seed=3)
    dealt = np.bincount(finals.reshape(-1), minlength=54)
    assert dealt.shape == (54,) and dealt[52] > 0 and dealt[53] > 0
    # a wild card is never thrown: every joker dealt before the draw is still held after
    first = simulate([Player(cards("Jk 7c 2d 9s 4h")), Player(())], Scoring(Ranking.HIGH,
                     Wild.JOKER), 1, trials=500, seed=4)  # fmt: skip
    assert (first[:, 0] == 52).any(axis=1).all()


def test_wild_high_strategy_keeps_wild_cards() -> None:
    strategy = strategy_for(JOKER_HIGH)
    hands = np.array(
        [
            cards("Jk 7c 2d 9s 4h"),  # the joker and the nine: draw three to a pair of nines
            cards("Jk 7c 7d 9s 4h"),  # the joker and the sevens: three sevens, draw two
            cards("Jk 7h 2h 9h 4c"),  # a four-flush with the joker: draw one
            cards("Jk 8c 9d Ts Jh"),  # a straight: pat
            cards("As Kd 9h 4c 4d"),  # no joker: the pair of fours (five-card draw's play)
        ],
        dtype=np.uint8,
    )
    assert strategy.keep(hands, 1).tolist() == [
        [True, False, False, True, False],
        [True, True, True, False, False],
        [True, True, True, True, False],
        [True, True, True, True, True],
        [False, False, False, True, True],
    ]


def test_wild_low_and_high_low_strategies() -> None:
    low = strategy_for(Scoring(Ranking.ACE_FIVE, Wild.JOKER))
    hands = np.array([cards("Jk 2c 3d Kh Qs"), cards("Jk 2c 3d 4h 7s")], dtype=np.uint8)
    assert low.keep(hands, 1).tolist() == [
        [True, True, True, False, False],
        [True, True, True, True, True],  # 7-4-3-2-A with the joker as the ace: pat
    ]
    split = strategy_for(HIGH_LOW)
    hands = np.array([cards("As 2c 3d Kh Qs"), cards("Kc Kd 3d 4h 7s")], dtype=np.uint8)
    assert split.keep(hands, 1).tolist() == [
        [True, True, True, False, False],  # three cards to the low
        [True, True, False, False, False],  # a pair of kings: for the high
    ]


@pytest.mark.slow
def test_opponents_known_by_their_draw_in_a_joker_deck() -> None:
    strategy = strategy_for(JOKER_HIGH)
    pat = base_range(strategy, 1, 5, 53)
    assert (pat.hands == 52).any() and len(pat.hands) > 0
    hero = cards("Ah Ad Kc Ks 4d")
    result = keep_equities(hero, [hero, hero[:4]], [Player.drawing(1)], JOKER_HIGH, 1,
                           trials=2_000, seed=5)  # fmt: skip
    assert len(result) == 2 and all(0 < share < 1 for share, _ in result)


def test_game_setup_of_the_variants() -> None:
    assert game_setup("high") == (Ranking.HIGH, 1)
    assert game_setup("high-low") == (HIGH_LOW, 1)
    assert game_setup("high-low", wild=Wild.DEUCES) == (
        Scoring(Ranking.HIGH, Wild.DEUCES, high_low=True),
        1,
    )
    assert game_setup("a5", wild=Wild.JOKER) == (Scoring(Ranking.ACE_FIVE, Wild.JOKER), 3)
    with pytest.raises(ValueError, match="wild cards play in high and ace-to-five"):
        game_setup("27", wild=Wild.DEUCES)
    with pytest.raises(ValueError, match="a joker"):
        equity([Player(cards("Jk 7c 2d 9s 4h")), Player(())], Ranking.HIGH, 1, trials=10)
