"""The review's fast paths keep the model: the choices simulated together on shared deals
(engine.sim.choice_sim) agree with the plain simulator, a stub that runs out is replayed with
the reshuffle, ranges dealt around the known cards stay uniform, the exact table for
several choices equals the count choice by choice, and spots equal up to a renaming of the
suits get the very same answer."""

from __future__ import annotations

import numpy as np
import pytest

from engine.cards import parse_cards as P
from engine.ranking import Ranking
from engine.sim import choice_sim
from engine.sim.batch import rank_batch
from engine.sim.choice_sim import choice_equities
from engine.sim.equity import Player, keep_equities
from engine.sim.exact_draw import equities_vs_pat_range, equity_vs_pat_range
from engine.sim.ranges import card_masks, deal_ranges, mask_of, unknown_range
from engine.sim.review import ReviewCache, Spot, alternatives, opponent_players, spot_key
from engine.sim.review import review as judge
from engine.sim.strategy import ThresholdStrategy, default_strategy

D27 = Ranking.DEUCE_SEVEN
A5 = Ranking.ACE_FIVE


def _agree(spot: Spot, trials: int) -> None:
    keeps = alternatives(spot.hand, spot.ranking, spot.draws_left, spot.hand[:3])
    opponents = opponent_players(spot)
    plain = keep_equities(
        spot.hand, keeps, opponents, spot.ranking, spot.draws_left,
        dead=spot.dead, trials=trials, seed=11,
    )  # fmt: skip
    shared = choice_equities(
        spot.hand, keeps, opponents, spot.ranking, spot.draws_left,
        dead=spot.dead, trials=trials, seed=12,
    )  # fmt: skip
    for (a, sa), (b, sb) in zip(plain, shared, strict=True):
        assert sa > 0 and sb > 0
        assert abs(a - b) < 4.5 * np.hypot(sa, sb), (a, b)


@pytest.mark.slow
def test_shared_deals_agree_with_the_plain_simulator() -> None:
    _agree(Spot(D27, P("9s 8d 6h 3c 2s"), 2, (1, 2), P("Kd Qd")), 12_000)


def test_a_stub_that_runs_out_is_replayed_with_the_reshuffle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    replayed: list[int] = []
    real = choice_sim._replay_shares

    def counting(*args: object, **kwargs: object) -> np.ndarray:
        out = real(*args, **kwargs)  # type: ignore[arg-type]
        replayed.append(len(out))
        return out

    monkeypatch.setattr(choice_sim, "_replay_shares", counting)
    # Five opponents who have not drawn yet and three draws: the stub often runs out.
    _agree(Spot(D27, P("Ks Qd Jh 3c 2s"), 3, (None,) * 5), 6_000)
    assert sum(replayed) > 1_000


def test_the_same_seed_gives_the_same_answer_in_any_order_of_the_choices() -> None:
    hand = P("8s 7d 4h 3c Kd")
    opponents = [Player.drawing(1), Player.drawing(2)]
    keeps = [hand[:4], hand, hand[:3]]
    first = choice_equities(hand, keeps, opponents, D27, 2, trials=900, seed=5)
    again = choice_equities(hand, keeps[::-1], opponents, D27, 2, trials=900, seed=5)
    assert first == again[::-1]
    assert first == choice_equities(hand, keeps, opponents, D27, 2, trials=900, seed=5)
    assert first != choice_equities(hand, keeps, opponents, D27, 2, trials=900, seed=6)


def test_a_settled_draw_stops_after_a_third_of_the_trials() -> None:
    hand = P("7s 5d 4h 3c 2s")  # a pat 7-5 against one drawing one: standing pat is clear
    settled = choice_equities(hand, [hand, ()], [Player.drawing(1)], D27, 1, trials=3_000)
    (pat, _), (snow, _) = settled
    assert pat > 0.99 and snow < 0.3
    # 3,000 and 3,001 trials share the first 1,000 deals and nothing after them.
    assert settled == choice_equities(hand, [hand, ()], [Player.drawing(1)], D27, 1, trials=3_001)
    close = [hand[:4], hand[1:]]  # breaking to 7-5-4-3 or to 7-5-4-2: close, both dealt on
    assert choice_equities(hand, close, [Player.drawing(1)], D27, 2, trials=3_000) != (
        choice_equities(hand, close, [Player.drawing(1)], D27, 2, trials=3_001)
    )


def test_a_far_worse_choice_stops_after_a_third_of_the_trials() -> None:
    hand = P("9s 8d 6h 3c 2s")
    keeps = [hand, hand[1:], ()]  # pat 9-8 and 8-6-3-2 are close; drawing five is not
    (a, a_se), (b, b_se), (snow, snow_se) = choice_equities(
        hand, keeps, [Player.drawing(2)], D27, 3, trials=3_000, seed=2
    )
    assert abs(a - b) < 6 * np.hypot(a_se, b_se) and snow < min(a, b) - 0.1
    # The close ones played 3,000 trials, drawing five only the first 1,000.
    assert a_se == pytest.approx(np.sqrt(a * (1 - a) / 2_999), rel=0.25)
    assert snow_se == pytest.approx(np.sqrt(snow * (1 - snow) / 999), rel=0.25)


def test_ranges_dealt_around_known_cards_are_uniform_over_the_free_hands() -> None:
    hero = P("7s 5d 4h 3c 2d")
    base = unknown_range(default_strategy(D27), 2, 4, ())
    free = unknown_range(default_strategy(D27), 2, 4, hero)
    rng = np.random.default_rng(3)
    hands, used = deal_ranges([base, base], 60_000, rng, mask_of(hero))
    assert ((used & np.uint64(mask_of(hero))) == 0).all()
    flat = np.sort(hands.reshape(len(hands), 10), axis=1)
    assert not (flat[:, 1:] == flat[:, :-1]).any()
    reference, _ = deal_ranges([free, free], 60_000, np.random.default_rng(4))
    for seat in (0, 1):
        a = ((hands[:, seat] >> 2) == 5).any(axis=1).mean()  # holds a seven
        b = ((reference[:, seat] >> 2) == 5).any(axis=1).mean()
        assert abs(a - b) < 4 * np.sqrt(0.5 / 60_000)
    assert (card_masks(hands[:, 0]) | card_masks(hands[:, 1]) == used).all()


@pytest.mark.parametrize("ranking", [D27, A5])
def test_the_exact_table_equals_the_count_choice_by_choice(ranking: Ranking) -> None:
    hand, dead = P("7s 5d 4h 3c Kd"), P("Qc 9h 8d")
    known = {*hand, *dead}
    unseen = [c for c in range(52) if c not in known]
    pat = unknown_range(default_strategy(ranking), 1, 5, known)
    keeps = [hand, hand[:4], hand[:3], hand[:2], (hand[1], hand[4])]
    together = equities_vs_pat_range(keeps, unseen, pat, ranking)
    alone = [equity_vs_pat_range(k, unseen, pat, ranking) for k in keeps]
    assert together == pytest.approx(alone, abs=1e-12)
    assert 0.0 < together[1] < 1.0


def test_spots_equal_up_to_suits_get_the_same_answer_from_the_cache() -> None:
    spot = Spot(D27, P("Ks 8d 4h 3c 2s"), 2, (2, 1), P("Qs 9d"))
    renamed = Spot(D27, P("Kh 8c 4s 3d 2h"), 2, (1, 2), P("Qh 9c"))  # s>h, d>c, h>s, c>d
    other = Spot(D27, P("Ks 8d 4h 3c 2s"), 2, (2, 1), P("Qd 9s"))  # dead suits swapped
    assert spot_key(spot) == spot_key(renamed) != spot_key(other)
    first = judge(spot, P("8d 4h 3c 2s"), trials=600)
    cache = ReviewCache()
    judge(renamed, P("8c 4s 3d 2h"), trials=600, cache=cache)
    again = judge(spot, P("8d 4h 3c 2s"), trials=600, cache=cache)
    assert (cache.hits, cache.misses) == (1, 1)
    assert again == first


def test_the_cache_keeps_answers_of_different_trials_apart() -> None:
    """An answer simulated with fewer trials is a noisier one: a review asked with other
    trials must not be served it (one process's cache outlives a review)."""
    spot = Spot(D27, P("Ks 8d 4h 3c 2s"), 2, (2, 1), P("Qs 9d"))
    kept = P("8d 4h 3c 2s")
    cache = ReviewCache()
    few = judge(spot, kept, trials=300, cache=cache)
    many = judge(spot, kept, trials=1200, cache=cache)
    assert (cache.hits, cache.misses) == (0, 2)
    assert many == judge(spot, kept, trials=1200)
    assert few == judge(spot, kept, trials=300)
    assert judge(spot, kept, trials=300, cache=cache) == few
    assert (cache.hits, cache.misses) == (1, 2)


def _threshold_rule(strategy: ThresholdStrategy, hands: np.ndarray, draws: int) -> np.ndarray:
    """The threshold rule written out slot by slot, as the table must answer it."""
    ace_low = strategy.ranking is A5
    keep_at = "23456789TJQKA".index(strategy.keep_up_to[draws])
    low = [((int(c) >> 2) + 1) % 13 if ace_low else int(c) >> 2 for c in range(52)]
    if ace_low:
        keep_at = (keep_at + 1) % 13
    pat = rank_batch(hands, strategy.ranking) <= strategy._pat_value[draws]
    out = np.zeros(hands.shape, dtype=np.bool_)
    for row, hand in enumerate(hands):
        if pat[row]:
            out[row] = True
            continue
        seen: set[int] = set()
        for slot, card in enumerate(hand):
            v = low[card]
            out[row, slot] = v <= keep_at and v not in seen
            seen.add(v)
        if out[row].all():
            out[row, max(range(5), key=lambda i: low[hand[i]])] = False
    return out


@pytest.mark.parametrize("ranking", [D27, A5])
def test_the_threshold_table_keeps_what_the_rule_keeps(ranking: Ranking) -> None:
    strategy = default_strategy(ranking)
    assert isinstance(strategy, ThresholdStrategy)
    rng = np.random.default_rng(8)
    hands = np.array([rng.permutation(52)[:5] for _ in range(6_000)], dtype=np.uint8)
    for draws in (1, 2, 3):
        assert (strategy.keep(hands, draws) == _threshold_rule(strategy, hands, draws)).all()


class _PileOrder:
    """A generator whose every reshuffle keeps the pile in its order: the replay's draws are
    then fixed by the cards alone, so two ways of playing them can be compared card for card."""

    def random(self, shape: tuple[int, int]) -> np.ndarray:
        return np.broadcast_to(np.arange(shape[1]) / shape[1], shape).copy()


@pytest.mark.parametrize(
    ("opponents", "dead", "seed"),
    [(5, (), 1), (4, P("9s"), 2), (5, P("9s 9d 8c 8h 7h 7s 6d"), 3)],
)
def test_a_round_played_at_once_is_the_players_draws_in_turn(
    opponents: int, dead: tuple[int, ...], seed: int
) -> None:
    """``_Replay.play`` (every player's draw of a round in a few passes, the stub running out
    and the pile reshuffled at most once a round, else player after player) gives the very
    cards ``_Replay.draw`` gives one player after another, on four rounds of random
    discards (most slots thrown, so stubs run out, some twice in a round)."""
    hand = P("Ks Qd Jh 3c 2s")
    strategy = default_strategy(D27)
    table = choice_sim._Table(hand, dead, [Player.unseen()] * opponents,
                              [strategy] * opponents, draws=3, ranking=D27)  # fmt: skip
    deals = choice_sim._Deals(table, D27, 300, np.random.default_rng(seed))
    rows = np.arange(deals.trials)
    plan = [np.random.default_rng(seed + 9).random((300, opponents + 1, 5)) < 0.85
            for _ in range(4)]  # fmt: skip
    found = []
    for at_once in (True, False):
        replay = choice_sim._Replay(deals, rows, rows, dead, _PileOrder())  # type: ignore[arg-type]
        hands = np.zeros((300, opponents + 1, 5), dtype=np.uint8)
        hands[:, 0] = hand
        hands[:, 1:] = deals.start
        for needs in plan:
            if at_once:
                replay.play(needs, hands)
            else:
                for i in range(opponents + 1):
                    hands[:, i] = replay.draw(needs[:, i], hands[:, i], i == 0)
        found.append([hands, replay.top, replay.bottom, replay.end, replay.piled])
        flat = np.sort(hands.reshape(300, -1), axis=1)
        assert not (flat[:, 1:] == flat[:, :-1]).any()  # no card twice
    assert (found[0][3] < deals.size).any()  # stubs did run out
    for a, b in zip(*found, strict=True):
        assert (a == b).all()


@pytest.mark.parametrize(
    ("hand", "opponents", "draws"),
    [
        (P("Ks Qd Jh 3c 2s"), (None,) * 5, 3),
        (P("Ks Qd Jh Tc 9s"), (3, 3, 2, None, None), 3),
        (P("Ks Qd Jh 3c 2s"), (3, 3, 3, 2, 3), 2),
    ],
)
def test_a_replay_taken_up_where_the_stub_runs_out_is_the_replay_from_the_start(
    hand: tuple[int, ...], opponents: tuple[int | None, ...], draws: int
) -> None:
    """The rows whose stub runs out are played again from that round on, taking up the fast
    path's hands, places and discards: with reshuffles that keep the pile's order, the
    very cards of playing them again from the first draw."""
    spot = Spot(D27, hand, draws, opponents)
    strategy = default_strategy(D27)
    players = opponent_players(spot)
    strategies = [strategy] * (len(players) + 1)
    table = choice_sim._Table(hand, (), players, strategies[1:], draws=draws, ranking=D27)
    deals = choice_sim._Deals(table, D27, 250, np.random.default_rng(4))
    keeps = alternatives(hand, D27, draws, hand[:2])
    throw = np.array([[c not in set(k) for c in hand] for k in keeps], dtype=np.bool_)
    _, short, start, seen = choice_sim._hero_shares(
        deals, hand, throw, strategy=strategy, ranking=D27, draws=draws
    )
    rerun = choice_sim._Rerun(
        deals=deals,
        seen=seen,
        dead=(),
        throw=throw,
        strategies=strategies,
        draws=draws,
        rng=_PileOrder(),  # type: ignore[arg-type]
    )
    assert len(short) > 100 and (start > 0).any()
    found = []
    for first in (start, np.zeros_like(start)):
        hands = np.zeros((len(short), len(strategies), 5), dtype=np.uint8)
        for s in np.unique(first):
            at = np.flatnonzero(first == s)
            hands[at] = choice_sim._replay_from(rerun, short[at], int(s))
        found.append(hands)
    assert (found[0] == found[1]).all()


class _DrawFive:
    """Throws every card on every draw: three such opponents run the stub out by
    themselves on the second draw, whatever the hero does."""

    def keep(self, hands: np.ndarray, draws_left: int) -> np.ndarray:
        return np.zeros(np.asarray(hands).shape, dtype=np.bool_)

    def describe(self) -> str:
        return "draws five"


def test_opponents_who_run_the_stub_out_by_themselves_are_replayed() -> None:
    # Before, the places past the stub's end read its first card five times over, and a
    # hand of five copies of one card has no rank (an IndexError in the ranking).
    hand = P("9s 8d 6h 3c 2s")
    keeps = [hand, hand[1:], hand[:3]]
    opponents = [Player.unseen(_DrawFive())] * 3
    plain = keep_equities(hand, keeps, opponents, D27, 3, trials=6_000, seed=3)
    shared = choice_equities(hand, keeps, opponents, D27, 3, trials=6_000, seed=4)
    for (a, sa), (b, sb) in zip(plain, shared, strict=True):
        assert sa > 0 and sb > 0
        assert abs(a - b) < 4.5 * np.hypot(sa, sb), (a, b)


class _FiveThenThreshold(ThresholdStrategy):
    """Throws every card on the first two of three draws, then plays the threshold
    strategy, which ranks a hand that looks suited: four such opponents run the stub out
    by themselves before the last draw is decided."""

    def keep_bits(self, hands: np.ndarray, draws_left: int) -> np.ndarray:
        if draws_left > 1:
            return np.zeros(len(hands), dtype=np.uint8)
        return super().keep_bits(hands, draws_left)


def test_a_strategy_is_never_asked_about_a_hand_of_copies_after_the_stub_ran_out() -> None:
    # Before, the trials run out on the second draw read the stub's first card five times
    # over, and the threshold strategy ranked that "flush" on the third: an IndexError that
    # stopped a review of 100,000 hands.
    base = default_strategy(D27)
    assert isinstance(base, ThresholdStrategy)
    strategy = _FiveThenThreshold(D27, base.keep_up_to, base.pat_up_to)
    hand = P("9s 8d 6h 3c 2s")
    players = [Player.unseen(strategy)] * 4
    table = choice_sim._Table(hand, (), players, [strategy] * 4, draws=3, ranking=D27)
    asked: list[np.ndarray] = []
    real = table.keep_bits

    def recording(hands: np.ndarray, draws_left: int) -> np.ndarray:
        asked.append(hands.reshape(-1, 5).copy())
        return real(hands, draws_left)

    table.keep_bits = recording  # type: ignore[method-assign]
    deals = choice_sim._Deals(table, D27, 400, np.random.default_rng(7))
    assert (deals.taken > deals.size).sum() == 400  # 20 dealt and 40 drawn of 47: all run out
    for hands in asked:
        assert (np.sort(hands, axis=1)[:, 1:] != np.sort(hands, axis=1)[:, :-1]).all()
    shares = choice_equities(hand, [hand, hand[:3]], players, D27, 3, trials=600, seed=2)
    assert all(0.0 <= e <= 1.0 and se > 0 for e, se in shares)
