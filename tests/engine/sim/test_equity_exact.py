"""``equity`` counts small spots exactly and samples the rest: an independent engine
(poker-equity, which walks every deal of a single draw) agrees exactly with the counted
figures on random one-draw spots, and with the sampled ones within their errors."""

from __future__ import annotations

import random
import time

import poker_equity as pe
import pytest

from engine.cards import format_cards, parse_cards
from engine.ranking import Ranking
from engine.sim.draw_choice import draw_equity
from engine.sim.equity import EXACT_DEALS, Player, equity, exact_equity, players_from_text
from engine.sim.strategy import STAND_PAT

VARIANTS = {Ranking.DEUCE_SEVEN: "deuce_seven", Ranking.HIGH: "five_card_draw",
            Ranking.BADUGI: "badugi"}  # fmt: skip
SIZES = {Ranking.DEUCE_SEVEN: 5, Ranking.HIGH: 5, Ranking.BADUGI: 4}


def _spot(rng: random.Random) -> tuple[Ranking, list[str], str]:
    """A random one-draw spot: two or three players, each pat or keeping all but one to
    three cards, and a few dead cards (discards seen)."""
    ranking = rng.choice(list(VARIANTS))
    size = SIZES[ranking]
    deck = list(range(52))
    rng.shuffle(deck)
    hands = []
    for _ in range(rng.choice((2, 2, 3))):
        kept = size - rng.choice((0, 0, 1, 1, 1, 2, 3))
        hands.append(format_cards(deck[:kept], ""))
        del deck[:kept]
    dead = format_cards(deck[: rng.choice((0, 2, 4))], "")
    return ranking, hands, dead


def _oracle(ranking: Ranking, hands: list[str], dead: str) -> list[float] | None:
    found = pe.exact_from_text(VARIANTS[ranking], hands, "", dead)
    return None if found is None else [float(p["equity"]) for p in found["players"]]


@pytest.mark.slow  # over 1.5 s: make test runs it
def test_random_one_draw_spots_agree_with_poker_equity() -> None:
    rng = random.Random(38)
    counted = sampled = 0
    for i in range(40):
        ranking, hands, dead = _spot(rng)
        want = _oracle(ranking, hands, dead)
        if want is None:  # too many deals for the oracle to walk
            continue
        players = players_from_text(hands, SIZES[ranking])
        got = equity(players, ranking, 1, dead=parse_cards(dead),
                     trials=20_000, seed=i)  # fmt: skip
        if got.exact:
            counted += 1
            assert got.trials <= EXACT_DEALS
            assert got.equity == pytest.approx(want, abs=1e-12), (ranking, hands, dead)
            assert got.stderr == (0.0,) * len(hands)
        else:
            sampled += 1
            assert got.trials == 20_000
            for share, error, exact in zip(got.equity, got.stderr, want, strict=True):
                assert abs(share - exact) <= 4.5 * error + 1e-9, (ranking, hands, dead)
    assert (counted, sampled) == (18, 18)  # both ways taken, 4 spots too big to walk


def test_a_one_card_draw_against_a_pat_hand_is_exact_and_instant() -> None:
    players = players_from_text(["7s 5d 4h 3c", "8s6d4c3h2d"])
    equity(players, Ranking.DEUCE_SEVEN, 1)  # the strategies' tables, once per process
    start = time.process_time()
    got = equity(players, Ranking.DEUCE_SEVEN, 1)
    seconds = time.process_time() - start
    assert got.exact and got.trials == 43
    assert got.equity == pytest.approx((3 / 43, 40 / 43), abs=1e-12)
    assert seconds < 0.01  # CPU: 0.2 ms; sampling 100,000 deals took 13 ms (docs/equity.md)
    two_draws = equity(players, Ranking.DEUCE_SEVEN, 2)
    assert two_draws.exact and two_draws.trials == 1_232
    assert two_draws == exact_equity(players, Ranking.DEUCE_SEVEN, 2)


def test_a_spot_with_too_many_deals_is_sampled() -> None:
    # a one-card draw against a pat hand with three draws left: 43 x 42 x 41 paths at most
    players = players_from_text(["7s 5d 4h 3c", "8s6d4c3h2d"])
    got = equity(players, Ranking.DEUCE_SEVEN, 3, trials=40_000, seed=1)
    assert not got.exact and got.trials == 40_000
    exact = exact_equity(players, Ranking.DEUCE_SEVEN, 3)
    assert exact.trials == 38_876
    assert abs(got.equity[0] - exact.equity[0]) <= 4 * got.stderr[0]
    # a limit stops the count before it builds more deals than allowed
    assert equity(players, Ranking.DEUCE_SEVEN, 3, trials=100, seed=1, exact_limit=10**6).exact


def test_what_to_draw_with_two_draws_left_against_a_pat_hand_counts_the_one_card_draws() -> None:
    hand = parse_cards("Kd 7s 5d 4h 3c")
    pat = Player(parse_cards("8s 6d 4c 3h 2d"), STAND_PAT)
    keeps = [parse_cards("7s 5d 4h 3c"), parse_cards("7s 5d 4h"), hand]
    choices = {c.keep: c for c in draw_equity(hand, 2, Ranking.DEUCE_SEVEN, [pat], keeps=keeps)}
    one = choices[keeps[0]]
    want = exact_equity([Player(keeps[0], discards=parse_cards("Kd")), pat], Ranking.DEUCE_SEVEN, 2)
    assert (one.exact, one.stderr, one.equity) == (True, 0.0, want.equity[0])
    assert not choices[keeps[1]].exact  # two cards twice: 451,290 deals, sampled
    assert not choices[hand].exact  # standing pat now, the strategy after: sampled
