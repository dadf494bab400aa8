"""The choices of one draw against unknown opponents, simulated together on shared deals.

The review weighs six to eight ways of playing one hand against the same opponents, whose
cards are unknown (each dealt from a range, ``engine.sim.ranges``, or any hand).
``engine.sim.equity.keep_equities`` plays the whole deal once per choice, the opponents' draws
included, though the choice only changes which cards the hero gets.  Here each trial's
stub is shuffled once; the hero draws from its top and the opponents from its bottom.
Every card asked for is still uniform among the cards not given out yet, as when everyone
draws from the top, so the model (the same as ``keep_equities``': the hero draws first,
then each opponent in turn; everyone then plays the default strategy; nobody folds) is
unchanged; but the opponents' cards no longer depend on the hero's draw, so their play is
simulated once per trial for every choice, and every choice meets the same opponents'
hands (common random numbers: the differences between choices carry less noise than the
equities).

The exception is a trial whose stub runs out (more cards asked for than it holds: RULES.md
then reshuffles the discards, and the hero's choice reaches the opponents).  Those
(trial, choice) pairs are played again one card at a time on the same shuffled stub, so
they follow the same cards up to that moment and the reshuffle after it: each is still a
deal of the model, not a new deal that would bias the rare long hands.

A choice whose equity is already far below the best after a third of the trials (more than
``DROP_SE`` standard errors of the difference) is not simulated further: its equity and
standard error are those of the trials it had, which already mark it a mistake (the
review's test is three standard errors).  When every choice but the best is that far
below, the draw is settled and the other two thirds are not dealt at all.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from engine.cards import Cards, check_distinct
from engine.ranking import Ranking
from engine.sim.batch import rank_batch
from engine.sim.equity import Player
from engine.sim.ranges import ANY_KEEP, Range, base_range, deal_ranges, mask_of
from engine.sim.strategy import Strategy, default_strategy

DROP_SE = 4.5  # a choice this many standard errors below the best is not simulated further
FIRST_SHARE = 3  # the first look at the choices comes after 1/FIRST_SHARE of the trials
HandRows = npt.NDArray[np.uint8]
Rows = npt.NDArray[np.int64]


class _Deals:
    """One block of trials: the opponents' hands as dealt, each trial's shuffled stub, the
    opponents played to the showdown from the stub's bottom."""

    def __init__(
        self,
        hand: Cards,
        dead: Cards,
        opponents: Sequence[Player],
        strategies: Sequence[Strategy],
        ranking: Ranking,
        draws: int,
        trials: int,
        rng: np.random.Generator,
    ) -> None:
        known = {*hand, *dead}
        unseen = np.array([c for c in range(52) if c not in known], dtype=np.uint8)
        ranged = [i for i, p in enumerate(opponents) if p.keeps_unknown != ANY_KEEP]
        ranges: list[Range] = [
            base_range(strategies[i], draws, int(opponents[i].keeps_unknown or 0)) for i in ranged
        ]
        self.trials = trials
        self.start = np.zeros((trials, len(opponents), 5), dtype=np.uint8)
        keys = rng.random((trials, len(unseen)))
        if ranged:
            hands, _ = deal_ranges(ranges, trials, rng, mask_of(known))
            local = np.full(52, -1, dtype=np.int64)
            local[unseen] = np.arange(len(unseen))
            rows = np.arange(trials)[:, None]
            for s, i in enumerate(ranged):
                self.start[:, i] = hands[:, s]
                keys[rows, local[hands[:, s]]] = 2.0  # out of the stub: sorted last
        self.stub: HandRows = unseen[np.argsort(keys, axis=1)]
        self.size = len(unseen) - 5 * len(ranged)
        bottom = 0
        for i, p in enumerate(opponents):
            if p.keeps_unknown == ANY_KEEP:  # any hand: five cards off the stub
                if bottom + 5 > self.size:
                    raise ValueError("the stub cannot deal every unknown hand")
                self.start[:, i] = self.stub[:, self.size - bottom - 5 : self.size - bottom][
                    :, ::-1
                ]
                bottom += 5
        self.bottom0 = bottom
        # The opponents' draws from the bottom, the same for every choice.
        final = self.start.copy()
        taken = np.full(trials, bottom, dtype=np.int64)
        for done in range(draws):
            for i in range(len(opponents)):
                hand_i = final[:, i]
                need = ~strategies[i].keep(hand_i, draws - done)
                order = np.cumsum(need, axis=1)
                at = np.maximum(self.size - 1 - taken[:, None] - (order - 1), 0)
                final[:, i] = np.where(need, np.take_along_axis(self.stub, at, axis=1), hand_i)
                taken += order[:, -1]
        self.taken = taken
        ranks = rank_batch(final.reshape(-1, 5), ranking).reshape(trials, len(opponents))
        self.best = ranks.min(axis=1)
        self.ties = (ranks == self.best[:, None]).sum(axis=1)


def _hero_shares(
    deals: _Deals,
    hand: Cards,
    throw: npt.NDArray[np.bool_],
    strategy: Strategy,
    ranking: Ranking,
    draws: int,
) -> tuple[npt.NDArray[np.float64], Rows]:
    """The hero's share in each (choice, trial) on these deals, and the rows (choice * trials
    + trial) whose stub ran out (their shares are to be replaced)."""
    n = deals.trials
    k = len(throw)
    trial = np.tile(np.arange(n), k)
    held = np.tile(np.asarray(hand, dtype=np.uint8), (k * n, 1))
    need = np.repeat(throw, n, axis=0)
    top = np.zeros(k * n, dtype=np.int64)
    last = deals.stub.shape[1] - 1
    for done in range(draws):
        if done:
            need = ~strategy.keep(held, draws - done)
        order = np.cumsum(need, axis=1)
        at = np.minimum(top[:, None] + order - 1, last)
        held = np.where(need, deals.stub[trial[:, None], at], held)
        top += order[:, -1]
    mine = rank_batch(held, ranking)
    best = deals.best[trial]
    share = np.where(mine < best, 1.0, np.where(mine == best, 1.0 / (deals.ties[trial] + 1), 0.0))
    out_of_cards = np.flatnonzero(top + deals.taken[trial] > deals.size)
    return share, out_of_cards


class _Replay:
    """The (trial, choice) pairs whose stub ran out, played one card at a time on the same
    shuffled stub (hero from the top, opponents from the bottom) and then with RULES.md's
    reshuffle: the drawer takes what is left, then draws from the discards so far, shuffled,
    without the cards they have just thrown."""

    def __init__(
        self, deals: _Deals, rows: Rows, trial: Rows, dead: Cards, rng: np.random.Generator
    ) -> None:
        r = len(rows)
        self.rng = rng
        self.stub = np.zeros((r, 52), dtype=np.uint8)
        self.stub[:, : deals.stub.shape[1]] = deals.stub[trial]
        self.top = np.zeros(r, dtype=np.int64)
        self.bottom = np.full(r, deals.bottom0, dtype=np.int64)
        self.end = np.full(r, deals.size, dtype=np.int64)
        self.pile = np.zeros((r, 52), dtype=np.uint8)
        self.pile[:, : len(dead)] = list(dead)
        self.piled = np.full(r, len(dead), dtype=np.int64)

    def take(self, rows: Rows, from_top: bool) -> HandRows:
        empty = self.top[rows] >= self.end[rows] - self.bottom[rows]
        if empty.any():
            self._reshuffle(rows[empty])
        if from_top:
            at = self.top[rows]
            self.top[rows] = at + 1
        else:
            at = self.end[rows] - 1 - self.bottom[rows]
            self.bottom[rows] += 1
        cards: HandRows = self.stub[rows, at]
        return cards

    def _reshuffle(self, rows: Rows) -> None:
        count = self.piled[rows]
        keys = self.rng.random((len(rows), 52))
        keys[np.arange(52)[None, :] >= count[:, None]] = 2.0
        self.stub[rows] = np.take_along_axis(self.pile[rows], np.argsort(keys, axis=1), axis=1)
        self.end[rows] = count
        self.top[rows] = 0
        self.bottom[rows] = 0
        self.piled[rows] = 0

    def discard(self, rows: Rows, cards: HandRows) -> None:
        at = self.piled[rows]
        self.pile[rows, at] = cards
        self.piled[rows] = at + 1


def _replay_shares(
    deals: _Deals,
    rows: Rows,
    hand: Cards,
    dead: Cards,
    throw: npt.NDArray[np.bool_],
    strategies: Sequence[Strategy],
    ranking: Ranking,
    draws: int,
    rng: np.random.Generator,
) -> npt.NDArray[np.float64]:
    n = deals.trials
    trial, choice = rows % n, rows // n
    replay = _Replay(deals, rows, trial, dead, rng)
    hands = np.zeros((len(rows), len(strategies), 5), dtype=np.uint8)
    hands[:, 0] = hand
    hands[:, 1:] = deals.start[trial]
    for done in range(draws):
        for i, strategy in enumerate(strategies):
            held = hands[:, i]
            need = throw[choice] if done == 0 and i == 0 else ~strategy.keep(held, draws - done)
            thrown = held.copy()
            for slot in range(5):
                sub = np.flatnonzero(need[:, slot])
                if len(sub):
                    hands[sub, i, slot] = replay.take(sub, i == 0)
            for slot in range(5):  # only now: never redealt to this player on this draw
                sub = np.flatnonzero(need[:, slot])
                if len(sub):
                    replay.discard(sub, thrown[sub, slot])
    ranks = rank_batch(hands.reshape(-1, 5), ranking).reshape(len(rows), len(strategies))
    won = ranks == ranks.min(axis=1, keepdims=True)
    share: npt.NDArray[np.float64] = won[:, 0] / won.sum(axis=1)
    return share


def choice_equities(
    hand: Cards,
    keeps: Sequence[Cards],
    opponents: Sequence[Player],
    ranking: Ranking,
    draws: int,
    *,
    dead: Cards = (),
    trials: int = 3_000,
    seed: int = 0,
) -> list[tuple[float, float]]:
    """(share, standard error) of each way of playing ``hand`` on this draw (keep those
    cards, draw the rest, then the default strategy) against ``opponents``, each unknown
    (``Player.drawing`` or ``Player.unseen``), the hero drawing first: the model of
    ``engine.sim.equity.keep_equities``, simulated as the module's notes say.  A fixed ``seed``
    gives the same answer, and the same deals whatever the choices asked."""
    if len(hand) != 5 or not keeps:
        raise ValueError("five cards and at least one choice")
    if not 1 <= len(opponents) <= 5 or not 1 <= draws <= 3 or trials < 2 * FIRST_SHARE:
        raise ValueError("1 to 5 opponents, 1 to 3 draws and enough trials")
    if any(p.cards or p.discards or p.keeps_unknown is None for p in opponents):
        raise ValueError("the opponents' cards are unknown here")
    check_distinct([*hand, *dead])
    strategy = default_strategy(ranking)
    strategies = [strategy, *(p.strategy or strategy for p in opponents)]
    throw = np.array([[c not in set(k) for c in hand] for k in keeps], dtype=np.bool_)
    deal_rng = np.random.default_rng([seed, 0])
    reshuffle_rng = np.random.default_rng([seed, 1])
    k = len(keeps)
    total = np.zeros(k)
    total_sq = np.zeros(k)
    played = np.zeros(k, dtype=np.int64)
    live = np.arange(k)
    first = trials // FIRST_SHARE
    for block in (first, trials - first):
        deals = _Deals(hand, dead, opponents, strategies[1:], ranking, draws, block, deal_rng)
        share, short = _hero_shares(deals, hand, throw[live], strategy, ranking, draws)
        if len(short):
            share[short] = _replay_shares(
                deals, short, hand, dead, throw[live], strategies, ranking, draws, reshuffle_rng
            )
        per = share.reshape(len(live), block)
        total[live] += per.sum(axis=1)
        total_sq[live] += (per * per).sum(axis=1)
        played[live] += block
        mean = total / np.maximum(played, 1)
        var = np.maximum(total_sq / np.maximum(played, 1) - mean * mean, 0.0)
        se = np.sqrt(var * played / np.maximum(played - 1, 1) / np.maximum(played, 1))
        lead = live[np.argmax(mean[live])]
        gap = mean[lead] - mean[live]
        live = live[gap <= DROP_SE * np.hypot(se[live], se[lead])]
        if k > 1 and len(live) == 1:
            break  # every other choice is far below: the best is known, its loss is 0
    return [(float(m), float(e)) for m, e in zip(mean, se, strict=True)]
