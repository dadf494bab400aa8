"""The equity simulator against exact enumeration, the published J-low figure, and the
deck-exhaustion rule of RULES.md."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import CardError, parse_cards
from engine.ranking import Category, Ranking, category, rank
from engine.sim.batch import all_hands, rank_batch
from engine.sim.equity import (
    Player,
    equity,
    exact_deals,
    exact_equity,
    players_from_text,
    shares,
    simulate,
)
from engine.sim.strategy import STAND_PAT, ThresholdStrategy, default_strategy

D27, A5 = Ranking.DEUCE_SEVEN, Ranking.ACE_FIVE


def P(text: str) -> tuple[int, ...]:
    return parse_cards(text)


SIX = ("2c3c4c5c6c", "2d3d4d5d6d", "2h3h4h5h6h", "2s3s4s5s6s", "7c8c9cTcJc", "7d8d9dTdJd")


class ThrowAll:
    """A strategy that draws five every time: the fastest way to run the stub out."""

    def keep(self, hands: npt.NDArray[np.uint8], draws_left: int) -> npt.NDArray[np.bool_]:
        return np.zeros(np.shape(hands), dtype=np.bool_)

    def describe(self) -> str:
        return "draws five"


def close(mc: float, exact: float, se: float) -> bool:
    """Within four standard errors (a false alarm about once in 16,000 runs)."""
    return abs(mc - exact) <= 4 * se + 1e-12


def _j_low_or_better_limit() -> int:
    """Worst 2-7 rank that is still jack-low: J-T-9-8-6 (J-T-9-8-7 is a straight)."""
    return rank(P("Js Td 9h 8c 6s"), D27)


def test_dealt_jack_low_or_better_is_the_published_9_65_percent() -> None:
    ranks = rank_batch(all_hands(), D27)
    count = int((ranks <= _j_low_or_better_limit()).sum())
    # 246 rank sets (5 of the ten ranks 2..J, less six straights) x 1,020 non-flush suitings
    assert count == 246 * 1020 == 250_920
    assert Fraction(count, 2_598_960) == Fraction(10455, 108290)
    assert round(count / 2_598_960, 4) == 0.0965


def test_simulated_deals_match_the_jack_low_figure() -> None:
    # A player holding nothing with one draw left is dealt five random cards.
    hands = simulate([Player(()), Player(())], D27, 1, trials=200_000, seed=11)
    made = (rank_batch(hands.reshape(-1, 5), D27) <= _j_low_or_better_limit()).mean()
    se = np.sqrt(0.0965 * 0.9035 / 400_000)
    assert close(float(made), 250_920 / 2_598_960, float(se))


def test_one_card_draw_against_a_pat_hand_is_three_outs_in_42() -> None:
    # 7-5-4-3 against pat 8-6-4-3-2: only a deuce wins (a 6 makes a straight, an 8 loses to
    # 8-6); three deuces left among 42 unseen cards (the discarded king is known).
    players = [Player(P("7s5d4h3c"), discards=P("Kd")), Player(P("8s6d4c3h2d"), STAND_PAT)]
    exact = exact_equity(players, D27, 1)
    assert exact.equity[0] == pytest.approx(3 / 42, abs=1e-15)
    assert exact.trials == 42
    mc = equity(players, D27, 1, trials=100_000, seed=5)
    assert close(mc.equity[0], 3 / 42, mc.stderr[0])
    assert mc.equity[0] + mc.equity[1] == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("ranking", "hands", "draws"),
    [
        (D27, ["7s5d4h3c", "8s6d4c2d"], 1),
        (D27, ["7s5d4h3c", "8s6d4c3h2d", "9s7c6h3d2c"], 1),
        (D27, ["8s6d4h3c", "7c6c4c3h2h"], 2),
        (A5, ["As2d3h4c", "Ac3s4h5c6s"], 1),
        (A5, ["As2d3h", "Ac3s4d5c6s"], 1),
    ],
)
def test_monte_carlo_matches_exact_enumeration(
    ranking: Ranking, hands: list[str], draws: int
) -> None:
    players = players_from_text(hands)
    exact = exact_equity(players, ranking, draws)
    assert sum(exact.equity) == pytest.approx(1.0)
    mc = equity(players, ranking, draws, trials=60_000, seed=17)
    for i in range(len(players)):
        assert close(mc.equity[i], exact.equity[i], mc.stderr[i]), (i, mc, exact)


def test_exact_deals_probabilities_sum_to_one_and_hold_no_card_twice() -> None:
    players = [Player(P("8s6d4h3c")), Player(P("7c6c4c3h2h"))]
    total = 0.0
    for weight, hands in exact_deals(players, D27, 2):
        cards = [c for h in hands for c in h]
        assert len(set(cards)) == 10
        total += weight
    assert total == pytest.approx(1.0)


def test_identical_pat_hands_split_the_pot() -> None:
    players = [Player(P("8s6d4h3c2s"), STAND_PAT), Player(P("8h6c4d3s2h"), STAND_PAT)]
    result = equity(players, D27, 3, trials=1000, seed=1)
    assert result.equity == (0.5, 0.5)
    assert result.stderr == (0.0, 0.0)


def test_shares_split_ties_and_sum_to_one() -> None:
    hands = np.array([[P("7s5d4h3c2s"), P("7h5c4d3s2h"), P("8s6d4c3h2d")]], dtype=np.uint8)
    assert shares(hands, D27).tolist() == [[0.5, 0.5, 0.0]]


def test_no_trial_ever_holds_a_card_twice_even_when_the_stub_runs_out() -> None:
    # Six players drawing five each: 22 cards in the stub, 30 wanted on the first draw.
    players = [Player(P(h), ThrowAll()) for h in SIX]
    hands = simulate(players, D27, 3, trials=3000, seed=2)
    flat = hands.reshape(3000, 30)
    assert all(len(set(row.tolist())) == 30 for row in flat)


def test_reshuffle_never_returns_a_players_own_fresh_discards() -> None:
    # Five pat hands, dead cards fill the rest of the deck: the stub is empty, so the sixth
    # player's five cards come from the reshuffled dead cards, never from his own discards.
    pats = ["2c3c4c5c6c", "2d3d4d5d6d", "2h3h4h5h6h", "2s3s4s5s6s", "7c8c9cTcJc"]
    thrown = P("7d8d9dTdJd")
    used = {c for h in pats for c in P(h)} | set(thrown)
    dead = tuple(c for c in range(52) if c not in used)
    players = [Player(P(h), STAND_PAT) for h in pats] + [Player((), discards=thrown)]
    hands = simulate(players, D27, 1, dead=dead, trials=4000, seed=3)
    got = hands[:, 5].ravel()
    assert set(got.tolist()) == set(dead)  # every dead card comes back, nothing else
    counts = np.bincount(got, minlength=52)[list(dead)]
    expected = 4000 * 5 / 22  # uniform over the 22 reshuffled cards
    assert (np.abs(counts - expected) < 5 * np.sqrt(expected)).all()


def _own_cards_back(draws: int) -> int:
    """Six players who throw all five on every draw: trials where someone ends holding a card
    they were dealt."""
    players = [Player(P(h), ThrowAll()) for h in SIX]
    hands = simulate(players, D27, draws, trials=3000, seed=6)
    dealt = np.array([P(h) for h in SIX], dtype=np.uint8)
    back = (hands[:, :, :, None] == dealt[None, :, None, :]).any(axis=(2, 3)).any(axis=1)
    return int(back.sum())


def test_discards_come_back_only_on_a_later_draw() -> None:
    # First draw: the stub runs out during the fifth player's draw; the reshuffle holds the
    # first four players' discards, never the drawer's own.  Second draw: everyone's.
    assert _own_cards_back(1) == 0
    assert _own_cards_back(2) > 1000


def test_default_strategy_keeps() -> None:
    s = default_strategy(D27)

    def kept(text: str, draws_left: int) -> str:
        cards = P(text)
        mask = s.keep(np.array([cards], dtype=np.uint8), draws_left)[0]
        return " ".join(t for t, k in zip(text.split(), mask, strict=True) if k)

    assert kept("7s 5d 4h 3c 2s", 3) == "7s 5d 4h 3c 2s"  # the nuts: pat
    assert kept("6s 5d 4h 3c 2s", 3) == "5d 4h 3c 2s"  # a straight: break the top
    assert kept("Ks 8d 8h 3c 2s", 3) == "8d 3c 2s"  # no pair, no king
    assert kept("Ts 7d 5h 3c 2s", 3) == "7d 5h 3c 2s"  # T-low: draw with three left
    assert kept("Ts 7d 5h 3c 2s", 1) == "Ts 7d 5h 3c 2s"  # ... pat on the last draw
    assert kept("As 5d 4h 3c 2s", 3) == "5d 4h 3c 2s"  # the ace is high in 2-7
    a5 = default_strategy(A5)
    mask = a5.keep(np.array([P("Ks 8d 8h Ac 2s")], dtype=np.uint8), 3)[0]
    assert mask.tolist() == [False, False, False, True, True]  # the ace is low in A-5


def test_strategy_is_changeable() -> None:
    # One draw left with 9-low against T-low: the default stands pat on the 9 (and wins);
    # a strategy that only stands pat on 8-low breaks it and sometimes loses.
    nine, ten = P("9s7d5h3c2s"), P("Td8c6h4s3d")
    assert category(nine, D27) is Category.HIGH_CARD
    players = [Player(nine), Player(ten, STAND_PAT)]
    assert equity(players, D27, 1, trials=2000, seed=1).equity == (1.0, 0.0)
    tight = ThresholdStrategy(D27, {1: "8"}, {1: "8"})
    result = equity([Player(nine, tight), Player(ten, STAND_PAT)], D27, 1, trials=20000, seed=1)
    exact = exact_equity([Player(nine, tight), Player(ten, STAND_PAT)], D27, 1)
    assert exact.equity[0] < 1.0
    assert close(result.equity[0], exact.equity[0], result.stderr[0])


def test_bad_situations_are_refused() -> None:
    with pytest.raises(CardError):
        equity([Player(P("7s5d")), Player(P("7s6d"))], D27, 3)
    with pytest.raises(ValueError, match="no draw is left"):
        equity([Player(P("7s5d")), Player(P("8s6d"))], D27, 0)
    with pytest.raises(ValueError, match="2 to 6 players"):
        equity([Player(P("7s5d"))], D27, 3)
    with pytest.raises(ValueError, match="draws left"):
        equity([Player(P("7s5d")), Player(P("8s6d"))], D27, 4)
    with pytest.raises(CardError):
        equity([Player(P("7s5d")), Player(P("8s6d"))], D27, 3, dead=P("5d"))
    with pytest.raises(ValueError, match="2 to 6 hands"):
        players_from_text(["7s5d"] * 7)


def test_seeded_runs_repeat_exactly() -> None:
    players = players_from_text(["7s5d4h", "8s6d", "-"])
    a = equity(players, D27, 3, trials=5000, seed=9)
    b = equity(players, D27, 3, trials=5000, seed=9)
    assert a == b
    assert sum(a.equity) == pytest.approx(1.0)


def test_unknown_pat_hand_is_a_random_hand_the_strategy_stands_pat_on() -> None:
    # One draw left, the opponent stands pat with unknown cards: under the default strategy
    # that is any T-low or better.  Exact answer: count those hands among the unseen cards.
    mine = P("8s6d4c3h2d")
    unseen = np.array([c for c in range(52) if c not in mine], dtype=np.uint8)
    hands = all_hands()
    pool = hands[(hands < len(unseen)).all(axis=1)]  # 5-subsets of 47 positions
    ranks = rank_batch(unseen[pool], D27)
    pat = ranks <= rank(P("Ts9d8h7c5s"), D27)  # worst T-low (T-9-8-7-6 is a straight)
    mine_rank = rank(mine, D27)
    exact_loss = float(((ranks < mine_rank) & pat).sum() / pat.sum())
    ties = float(((ranks == mine_rank) & pat).sum() / pat.sum())
    result = equity([Player(mine, STAND_PAT), Player.drawing(0)], D27, 1, trials=40_000, seed=8)
    assert close(result.equity[1], exact_loss + ties / 2, result.stderr[1])


def test_unknown_drawing_hand_keeps_what_its_strategy_keeps() -> None:
    hands = simulate(
        [Player(P("7s5d4h3c2d"), STAND_PAT), Player.drawing(1)], D27, 1, trials=5000, seed=9
    )
    low = hands[:, 1] >> 2
    # it kept four cards of different ranks, nine or lower, and drew one
    for row in low.tolist():
        small = {r for r in row if r <= 7}
        assert len(small) >= 4
    assert Player.drawing(1).keeps_unknown == 4


def test_unknown_hands_are_refused_where_they_cannot_work() -> None:
    with pytest.raises(ValueError, match="no draw is left"):
        equity([Player(P("7s5d4h3c2d"), STAND_PAT), Player.drawing(1)], D27, 0)
    with pytest.raises(ValueError, match="known cards only"):
        exact_equity([Player(P("7s5d4h3c2d"), STAND_PAT), Player.drawing(1)], D27, 1)
    with pytest.raises(ValueError, match="0 to 5 cards"):
        Player.drawing(6)
    with pytest.raises(ValueError, match="never keeps"):
        never = ThresholdStrategy(D27, {1: "2"}, {1: "2"})  # keeps at most one deuce
        equity([Player(P("7s5d4h3c2d"), STAND_PAT), Player.drawing(0, never)], D27, 1, trials=50)


def test_dead_cards_leave_the_stub() -> None:
    # Two of the three live deuces are known dead: one out among 40 unseen cards.
    players = [Player(P("7s5d4h3c"), discards=P("Kd")), Player(P("8s6d4c3h2d"), STAND_PAT)]
    dead = P("2c 2h")
    assert exact_equity(players, D27, 1, dead=dead).equity[0] == pytest.approx(1 / 40)
    mc = equity(players, D27, 1, dead=dead, trials=100_000, seed=12)
    assert close(mc.equity[0], 1 / 40, mc.stderr[0])
    hands = simulate(players, D27, 1, dead=dead, trials=2000, seed=1)
    assert not np.isin(hands[:, 0], np.array(dead)).any()


@settings(max_examples=25, deadline=None)
@given(
    st.permutations(list(range(52))),
    st.integers(3, 4),
    st.integers(4, 5),
    st.sampled_from([D27, A5]),
)
def test_random_one_draw_situations_match_exact_enumeration(
    deck: list[int], kept_a: int, kept_b: int, ranking: Ranking
) -> None:
    a = Player(tuple(deck[: kept_a if kept_b == 5 else 4]))  # two drawers: one card each
    b_cards = tuple(deck[10 : 10 + kept_b])
    b = Player(b_cards, STAND_PAT) if kept_b == 5 else Player(b_cards)
    exact = exact_equity([a, b], ranking, 1)
    mc = equity([a, b], ranking, 1, trials=20_000, seed=deck[0])
    assert abs(mc.equity[0] - exact.equity[0]) <= 4.5 * mc.stderr[0] + 1e-12


def test_threshold_strategy_refuses_nonsense() -> None:
    with pytest.raises(ValueError, match="rank like"):
        ThresholdStrategy(D27, {3: "10"}, {3: "9"})
    with pytest.raises(ValueError, match="at least one draw"):
        ThresholdStrategy(D27, {}, {3: "9"})
    with pytest.raises(ValueError, match="2-7 or A-5"):
        ThresholdStrategy(Ranking.HIGH, {3: "8"}, {3: "9"})
    assert "pat 9-low, keep to 8" in default_strategy(D27).describe()


@pytest.mark.parametrize(
    ("worst", "rank_sets", "percent"),
    [
        ("7s6d5h4c2s", 4, 0.157),  # 7-5-4-3-2, 7-6-4-3-2, 7-6-5-3-2, 7-6-5-4-2
        ("8s7d6h5c3s", 18, 0.706),  # 21 sets of ranks 2..8, less 3 straights
        ("9s8d7h6c4s", 52, 2.041),
        ("Ts9d8h7c5s", 121, 4.749),
        ("Js Td 9h 8c 6s", 246, 9.655),
    ],
)
def test_dealt_lows_in_deuce_to_seven(worst: str, rank_sets: int, percent: float) -> None:
    ranks = rank_batch(all_hands(), D27)
    count = int((ranks <= rank(P(worst), D27)).sum())
    assert count == rank_sets * 1020  # 4**5 suitings less the 4 flushes
    assert round(100 * count / 2_598_960, 3) == percent


@pytest.mark.parametrize("stub", ["5h 8d 7d", "Ac 6h 2h", "Tc Qc 9h Qs", "Ks 5h Th Ah"])
def test_simulated_reshuffles_match_exact_enumeration(stub: str) -> None:
    # Dead cards fill the deck but for a tiny stub, so the stub runs out on the first draw
    # and the second: the simulator's reshuffles against the plain enumeration of them.
    a = Player(P("7s5d4h3c"), discards=P("Kd"))
    b = Player(P("8s6d4c"), discards=P("Qh Jh"))
    known = set(P("7s5d4h3cKd8s6d4cQhJh")) | set(P(stub))
    dead = tuple(c for c in range(52) if c not in known)
    exact = exact_equity([a, b], D27, 2, dead=dead)
    assert sum(exact.equity) == pytest.approx(1.0)
    mc = equity([a, b], D27, 2, dead=dead, trials=60_000, seed=21)
    assert close(mc.equity[0], exact.equity[0], mc.stderr[0])


def test_exact_reshuffle_never_gives_back_fresh_discards() -> None:
    pats = ["2c3c4c5c6c", "2d3d4d5d6d", "2h3h4h5h6h", "2s3s4s5s6s", "7c8c9cTcJc"]
    thrown = P("7d8d9dTdJd")
    used = {c for h in pats for c in P(h)} | set(thrown)
    rest = tuple(c for c in range(52) if c not in used)
    dead, stub = rest[:19], rest[19:]  # three cards in the stub for a five-card draw
    players = [Player(P(h), STAND_PAT) for h in pats] + [Player((), discards=thrown)]
    total, deals = 0.0, 0
    for weight, hands in exact_deals(players, D27, 1, dead=dead):
        assert set(stub) <= set(hands[5])  # the whole stub, then two reshuffled dead cards
        assert not set(hands[5]) & set(thrown)
        total, deals = total + weight, deals + 1
    assert deals == 19 * 18 // 2
    assert total == pytest.approx(1.0)
