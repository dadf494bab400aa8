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
(trial, choice) pairs are played again on the same shuffled stub, so they follow the same
cards up to that moment and the reshuffle after it: each is still a deal of the model, not
a new deal that would bias the rare long hands.  The rounds before the one where the stub
runs out are the fast path's own (the same places of the same stub), so the replay takes
up their hands, places and discards and plays only the rest, a round's draws in a few
passes for every player (``_Replay.play``), player after player only where the new stub
runs out too.

When to stop is ``engine.sim.stopping``'s: ``choice_equities`` looks once, after a third
of the trials, and plays no further a choice already far below the best; the review's
``simulate_choices(..., block=...)`` looks after every block of deals and stops as soon as
the verdict on the choice made is sure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from engine.cards import Cards, check_distinct
from engine.ranking import Ranking
from engine.sim.batch import rank_batch
from engine.sim.equity import Player
from engine.sim.ranges import ANY_KEEP, RangeDealer, base_range, mask_of
from engine.sim.rank_dealer import exact_dealer
from engine.sim.stopping import Simulated, Verdicts
from engine.sim.strategy import Strategy, default_strategy, keep_bits

TRASH = 52  # the replay's pile: where the slots not thrown write
FOLDED = 1 << 14  # a hand folded to the hero's bet ranks worse than any (ranks are below 8,192)
FIRST_SHARE = 3  # the first rule's look at the choices comes after 1/FIRST_SHARE of the trials
CHEAP_PLAYERS = 3  # opponents up to which the looks that cannot settle are skipped
HandRows = npt.NDArray[np.uint8]
Rows = npt.NDArray[np.int64]


class _Table:
    """What every block of trials of one draw shares: the unseen cards, the opponents dealt
    from a range and those dealt any hand, the ranges and, once the fallback has needed
    them, each range's hands free of the known cards."""

    def __init__(
        self,
        hand: Cards,
        dead: Cards,
        opponents: Sequence[Player],
        strategies: Sequence[Strategy],
        *,
        draws: int,
        ranking: Ranking,
    ) -> None:
        known = {*hand, *dead}
        self.known = mask_of(known)
        self.unseen = np.array([c for c in range(52) if c not in known], dtype=np.uint8)
        self.local = np.full(52, -1, dtype=np.int64)
        self.local[self.unseen] = np.arange(len(self.unseen))
        self.ranged = [i for i, p in enumerate(opponents) if p.keeps_unknown != ANY_KEEP]
        self.anyhand = [i for i, p in enumerate(opponents) if p.keeps_unknown == ANY_KEEP]
        ranges = [
            base_range(strategies[i], draws, int(opponents[i].keeps_unknown or 0))
            for i in self.ranged
        ]
        self.dealer = RangeDealer(ranges, self.known, exact_dealer(ranges, self.known, ranking))
        self.strategies = list(strategies)
        self.one_strategy = all(x is strategies[0] for x in strategies)
        self.draws = draws
        self.size = len(self.unseen) - 5 * len(self.ranged)
        if 5 * len(self.anyhand) > self.size:
            raise ValueError("the stub cannot deal every unknown hand")

    def keep_bits(self, hands: HandRows, draws_left: int) -> npt.NDArray[np.uint8]:
        """The opponents' kept slots as bits, (trials, opponents, 5) in, (trials, opponents)
        out: one call for all of them when they play one strategy (the review's case)."""
        n, players, _ = hands.shape
        if self.one_strategy:
            return keep_bits(self.strategies[0], hands.reshape(-1, 5), draws_left).reshape(
                n, players
            )
        return np.stack(
            [keep_bits(s, hands[:, i], draws_left) for i, s in enumerate(self.strategies)], 1
        )


class _Round(NamedTuple):
    """The opponents at the start of one round of draws (and, last, at the showdown)."""

    hands: HandRows  # (trials, opponents, 5)
    taken: Rows  # the cards drawn from the stub's bottom so far, per trial


class _Deals:
    """One block of trials: the opponents' hands as dealt, each trial's shuffled stub, the
    opponents played to the showdown from the stub's bottom."""

    def __init__(self, table: _Table, ranking: Ranking, trials: int, rng: np.random.Generator):
        players = len(table.strategies)
        unseen = table.unseen
        self.trials = trials
        self.start = np.zeros((trials, players, 5), dtype=np.uint8)
        keys = rng.random((trials, len(unseen)))
        if table.ranged:
            hands, _ = table.dealer.deal(trials, rng)
            self.start[:, table.ranged] = hands
            rows = np.arange(trials)[:, None]
            keys[rows, table.local[hands.reshape(trials, -1)]] = 2.0  # out of the stub
        self.stub: HandRows = unseen[np.argsort(keys, axis=1)]
        self.size = table.size
        bottom = 5 * len(table.anyhand)
        if bottom:  # any hand: five cards each off the stub's bottom
            cards = self.stub[:, self.size - bottom : self.size][:, ::-1]
            self.start[:, table.anyhand] = cards.reshape(trials, -1, 5)
        self.bottom0 = bottom
        # The opponents' draws from the bottom, in turn, the same for every choice.
        final = self.start.copy()
        taken = np.full(trials, bottom, dtype=np.int64)
        flat = self.stub.ravel()
        base = (np.arange(trials) * len(unseen) + self.size - 1)[:, None, None]
        self.rounds: list[_Round] = []
        for done in range(table.draws):
            self.rounds.append(_Round(hands=final, taken=taken.copy()))
            # A trial the opponents ran out (see below) holds copies of one card from here
            # on, which no strategy can be asked about (five copies of a card read as a
            # flush, and ranking it fails): its start hands stand in, as its share is
            # replaced anyway and its round of running out is already known.
            over = taken > self.size
            play = np.where(over[:, None, None], self.start, final) if over.any() else final
            need = 31 ^ table.keep_bits(play, table.draws - done)  # (trials, players)
            count = _COUNT[need][..., 0]
            before = np.cumsum(count, axis=1) - count  # drawn by the players before
            at = np.maximum(
                base - (taken[:, None] + before)[..., None] - _ORDER[need], base - self.size + 1
            )
            final = np.where(_NEED[need], flat[at], final)
            taken += count.sum(axis=1)
        self.rounds.append(_Round(hands=final, taken=taken))
        self.taken = taken
        # A trial whose stub the opponents run out by themselves holds cards taken twice
        # (the places past the stub's end read its first card): every choice of it is
        # replayed with the reshuffle and its share here replaced, but a hand of five
        # copies of one card has no rank at all, so its start hand is ranked instead.
        over = taken > self.size
        shown = np.where(over[:, None, None], self.start, final) if over.any() else final
        ranks = rank_batch(shown.reshape(-1, 5), ranking).reshape(trials, players)
        self.ranks = ranks
        self.best = ranks.min(axis=1)
        self.ties = (ranks == self.best[:, None]).sum(axis=1)

    def callers(self, defend: float) -> npt.NDArray[np.int64]:
        """Each opponent's worst final rank that still calls a bet when they call with the
        strongest ``defend`` share of their final hands (these deals' hands stand for
        their distribution; ties at the cut call): -1 where nobody calls."""
        if defend <= 0:
            return np.full(self.ranks.shape[1], -1, dtype=np.int64)
        cut = np.quantile(self.ranks, min(defend, 1.0), axis=0, method="inverted_cdf")
        return np.asarray(cut, dtype=np.int64)

    def showdown(self, cuts: npt.NDArray[np.int64] | None) -> tuple[Rows, Rows]:
        """The best final rank among the opponents who call (``cuts``: each one's worst
        calling rank, ``None``: everyone shows down; nobody calling leaves ``FOLDED``) and
        how many hold it, per trial."""
        if cuts is None:
            return self.best, self.ties
        ranks = np.where(self.ranks <= cuts[None, :], self.ranks, FOLDED)
        best = ranks.min(axis=1)
        return best, (ranks == best[:, None]).sum(axis=1)


def _hero_shares(
    deals: _Deals,
    hand: Cards,
    throw: npt.NDArray[np.bool_],
    *,
    strategy: Strategy,
    ranking: Ranking,
    draws: int,
    cuts: npt.NDArray[np.int64] | None = None,
) -> tuple[npt.NDArray[np.float64], Rows, Rows, list[HandRows]]:
    """The hero's share in each (choice, trial) on these deals; the rows (choice * trials +
    trial) whose stub ran out (their shares are to be replaced), the round it ran out in
    for each of them, and the hero's hands at the start of every round (rows as above).
    ``cuts``: each choice's opponents' worst calling ranks (``_Deals.callers``) when the
    hero bets after the last draw; ``None``: everyone shows down."""
    n = deals.trials
    k = len(throw)
    width = deals.stub.shape[1]
    trial = np.tile(np.arange(n), k)
    base = (trial * width)[:, None]
    flat = deals.stub.ravel()
    held = np.tile(np.asarray(hand, dtype=np.uint8), (k * n, 1))
    thrown = (throw.astype(np.uint8) << np.arange(5, dtype=np.uint8)).sum(axis=1, dtype=np.uint8)
    need = np.repeat(thrown, n)
    top = np.zeros((k * n, 1), dtype=np.int64)
    seen = [held]
    ran_out = np.full(k * n, draws, dtype=np.int64)
    for done in range(draws):
        if done:
            need = 31 ^ keep_bits(strategy, held, draws - done)
        at = np.minimum(top + _ORDER[need], width - 1)
        held = np.where(_NEED[need], flat[base + at], held)
        top += _COUNT[need]
        seen.append(held)
        short = (top[:, 0] + deals.rounds[done + 1].taken[trial] > deals.size) & (ran_out == draws)
        ran_out[short] = done
    mine = rank_batch(held, ranking)
    if cuts is None:
        best, ties = deals.best[trial], deals.ties[trial]
    else:
        each = [deals.showdown(c) for c in cuts]
        best = np.concatenate([b for b, _ in each])
        ties = np.concatenate([t for _, t in each])
    share = np.where(mine < best, 1.0, np.where(mine == best, 1.0 / (ties + 1), 0.0))
    out_of_cards = np.flatnonzero(ran_out < draws)
    return share, out_of_cards, ran_out[out_of_cards], seen


def _bit_tables() -> tuple[npt.NDArray[np.bool_], Rows, Rows]:
    """For each of the 32 sets of slots (bits): the slots as a mask, each slot's place among
    the cards drawn (0-based: the n-th card drawn is the stub's n-th), and how many."""
    bits = np.arange(32)[:, None] >> np.arange(5) & 1
    place = np.cumsum(bits, axis=1) - 1
    return bits == 1, place, bits.sum(axis=1)[:, None]


_NEED, _ORDER, _COUNT = _bit_tables()


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
        self.pile = np.zeros((r, TRASH + 1), dtype=np.uint8)  # the last column: a trash
        self.pile[:, : len(dead)] = list(dead)
        self.piled = np.full(r, len(dead), dtype=np.int64)

    def play(self, needs: npt.NDArray[np.bool_], hands: HandRows) -> None:
        """One draw of every player in turn on every row (``needs``: (rows, players, 5) the
        slots thrown, the hero first; ``hands`` updated in place), as ``draw`` player after
        player would make it, in a few passes for all of them: the cards drawn in turn are
        consecutive places of the stub (the hero's from its top, the others' from its
        bottom), so each slot's place follows from the counts drawn before it.  A row whose
        stub runs out at one player's draw takes what is left, the discards so far (that
        player's own not yet) are reshuffled and the rest of the draw, that player's and the
        next players', comes from the new stub; a row where even that runs out is played by
        ``draw``, player after player."""
        r, players, _ = needs.shape
        count = needs.sum(axis=2, dtype=np.int64)
        order = np.cumsum(
            needs, axis=2, dtype=np.int64
        )  # each slot's place among the player's cards drawn
        before = np.cumsum(count, axis=1) - count  # cards drawn this round before the player
        total = count.sum(axis=1)
        avail = self.end - self.top - self.bottom
        over = before + count > avail[:, None]
        short = over.any(axis=1)
        q = np.where(short, over.argmax(axis=1), players)  # who finds the stub short
        at_q = np.minimum(q, players - 1)[:, None]
        before_q = np.take_along_axis(before, at_q, axis=1)[:, 0]
        left = np.where(short, avail - before_q, 0)  # what that player still finds
        size = self.piled + np.where(short, before_q, 0)  # the pile reshuffled
        slow = short & (total - avail > size)  # the new stub runs out too
        player = np.arange(players)[None, :, None]
        ahead = player < q[:, None, None]  # the players who find the stub as it is
        old = needs & (ahead | ((player == q[:, None, None]) & (order <= left[:, None, None])))
        old &= ~slow[:, None, None]
        # Places in the stub as it is: the hero's from the top, the others' from the bottom.
        hero_drawn = count[:, :1]
        place = np.where(
            player == 0,
            self.top[:, None, None] + order - 1,
            (self.end - self.bottom)[:, None, None] - (before - hero_drawn)[..., None] - order,
        )
        flat = (r, 5 * players)
        place = np.clip(place, 0, 51).reshape(flat)
        found = self.stub.ravel()[place + (np.arange(r) * 52)[:, None]]
        got = np.where(old, found.reshape(hands.shape), hands)
        # The discards of the players before the one who finds the stub short (all of them
        # where nobody does) go on the pile, in turn; the other slots write to its trash.
        piling = needs & ahead & ~slow[:, None, None]
        pile_at = self.piled[:, None, None] + before[..., None] + order - 1
        pile_at = np.where(piling, pile_at, TRASH).reshape(flat)
        self.pile.ravel()[pile_at + (np.arange(r) * (TRASH + 1))[:, None]] = hands.reshape(flat)
        reshuffled = np.flatnonzero(short & ~slow)
        if len(reshuffled):
            self._new_stub(
                reshuffled,
                needs,
                hands,
                got,
                size=size,
                count=count,
                order=order,
                before=before,
                left=left,
                q=q,
            )
        plain = ~short
        self.top[plain] += count[plain, 0]
        self.bottom[plain] += total[plain] - count[plain, 0]
        self.piled[plain] += total[plain]
        hands[...] = got
        if slow.any():
            masked = needs & slow[:, None, None]
            for i in range(players):
                hands[:, i] = self.draw(masked[:, i], hands[:, i], i == 0)

    def _new_stub(
        self,
        rows: Rows,
        needs: npt.NDArray[np.bool_],
        hands: HandRows,
        got: HandRows,
        *,
        size: Rows,
        count: Rows,
        order: Rows,
        before: Rows,
        left: Rows,
        q: Rows,
    ) -> None:
        """``play``'s rows whose stub runs out at player ``q``'s draw: the pile reshuffled,
        then the rest of the round from the new stub (into ``got``), and the discards from
        ``q`` on start the new pile."""
        players = needs.shape[1]
        self._reshuffle_to(rows, size[rows])
        q, left, before, order, count = q[rows], left[rows], before[rows], order[rows], count[rows]
        needs, hands = needs[rows], hands[rows]
        hero_short = q == 0
        before_q = before[np.arange(len(rows)), q]
        # The hero's rest from the new stub's top; the others' from its bottom, after what
        # was drawn from it before them this round.
        taken = np.where(
            hero_short[:, None], before - count[:, :1], before - (before_q + left)[:, None]
        )
        player = np.arange(players)[None, :, None]
        place = np.where(
            player == 0,
            order - left[:, None, None] - 1,
            self.end[rows][:, None, None] - taken[..., None] - order,
        )
        flat = (len(rows), 5 * players)
        new = needs & ((player > q[:, None, None]) | (
            (player == q[:, None, None]) & (order > left[:, None, None])
        ))  # fmt: skip
        found = self.stub.ravel()[np.clip(place, 0, 51).reshape(flat) + (rows * 52)[:, None]]
        got[rows] = np.where(new, found.reshape(hands.shape), got[rows])
        piling = needs & (player >= q[:, None, None])
        pile_at = np.where(piling, (before - before_q[:, None])[..., None] + order - 1, TRASH)
        at = pile_at.reshape(flat) + (rows * (TRASH + 1))[:, None]
        self.pile.ravel()[at] = hands.reshape(flat)
        drawn = count.sum(axis=1) - before_q - left  # cards from the new stub
        hero_rest = np.where(hero_short, count[:, 0] - left, 0)
        self.top[rows] = hero_rest
        self.bottom[rows] = drawn - hero_rest
        self.piled[rows] = count.sum(axis=1) - before_q

    def discard(self, needs: npt.NDArray[np.bool_], hands: HandRows) -> None:
        """The discards of a round already drawn (``needs``: (rows, players, 5) the slots
        thrown, ``hands`` before the draw) onto the pile, in turn, as ``play`` puts them."""
        r, players, _ = needs.shape
        count = needs.sum(axis=2, dtype=np.int64)
        order = np.cumsum(needs, axis=2, dtype=np.int64)
        before = np.cumsum(count, axis=1) - count
        pile_at = self.piled[:, None, None] + before[..., None] + order - 1
        pile_at = np.where(needs, pile_at, TRASH).reshape(r, 5 * players)
        at = pile_at + (np.arange(r) * (TRASH + 1))[:, None]
        self.pile.ravel()[at] = hands.reshape(r, 5 * players)
        self.piled += count.sum(axis=1)

    def draw(self, need: npt.NDArray[np.bool_], held: HandRows, from_top: bool) -> HandRows:
        """One player's draw on every row (``need``: the slots thrown): a row whose stub
        holds enough takes its cards in one pass; a row whose stub runs out takes what is
        left, reshuffles the discards and takes the rest from the new stub (card by card
        only where even that runs out); then the thrown cards go on the pile."""
        count = need.sum(axis=1)
        order: Rows = np.cumsum(need, axis=1, dtype=np.int64)
        left = self.end - self.top - self.bottom
        fast = count <= left
        new = np.where(need & fast[:, None], self._cards(order, from_top), held)
        (self.top if from_top else self.bottom)[fast] += count[fast]
        slow = np.flatnonzero(~fast)
        if len(slow):
            self._run_out(
                slow,
                need[slow],
                order[slow],
                left=left[slow],
                count=count[slow],
                new=new,
                from_top=from_top,
            )
        rows, slots = np.nonzero(need)  # only now: never redealt to this player on this draw
        self.pile[rows, self.piled[rows] + order[rows, slots] - 1] = held[rows, slots]
        self.piled += count
        return new

    def _cards(self, order: Rows, from_top: bool, rows: Rows | None = None) -> HandRows:
        """The cards the slots' places in the draw (``order``, 1-based) find in the stub."""
        top, end, bottom = self.top, self.end, self.bottom
        stub = self.stub
        if rows is not None:
            top, end, bottom, stub = top[rows], end[rows], bottom[rows], stub[rows]
        at = top[:, None] + order - 1 if from_top else end[:, None] - bottom[:, None] - order
        got: HandRows = np.take_along_axis(stub, np.clip(at, 0, 51), axis=1)
        return got

    def _run_out(
        self,
        rows: Rows,
        need: npt.NDArray[np.bool_],
        order: Rows,
        *,
        left: Rows,
        count: Rows,
        new: HandRows,
        from_top: bool,
    ) -> None:
        """The rows whose stub runs out during this draw: the first ``left`` cards from the
        stub, then the reshuffle, then the rest from the new stub."""
        before = need & (order <= left[:, None])
        new[rows] = np.where(before, self._cards(order, from_top, rows), new[rows])
        self._reshuffle(rows)
        rest = count - left
        enough = rest <= self.end[rows]
        after = need & ~before & enough[:, None]
        again = order - left[:, None]
        new[rows] = np.where(after, self._cards(again, from_top, rows), new[rows])
        done = np.flatnonzero(enough)
        (self.top if from_top else self.bottom)[rows[done]] += rest[done]
        short = np.flatnonzero(~enough)  # the new stub runs out too: card by card
        for slot in range(5):
            sub = short[need[short, slot] & ~before[short, slot]]
            if len(sub):
                new[rows[sub], slot] = self.take(rows[sub], from_top)

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

    def _reshuffle_to(self, rows: Rows, count: Rows) -> None:
        """The first ``count`` cards of each row's pile, shuffled, are its new stub."""
        keys = self.rng.random((len(rows), 52))
        keys[np.arange(52)[None, :] >= count[:, None]] = 2.0
        self.stub[rows] = np.take_along_axis(self.pile[rows, :52], np.argsort(keys, axis=1), 1)
        self.end[rows] = count
        self.top[rows] = 0
        self.bottom[rows] = 0
        self.piled[rows] = 0

    def _reshuffle(self, rows: Rows) -> None:
        self._reshuffle_to(rows, self.piled[rows])


@dataclass(frozen=True, slots=True, eq=False)
class _Rerun:
    """What every replay of one block's run-out rows takes up from the fast path and
    shares: its deals, the hero's hands at the start of each round (``seen``, rows as
    ``_hero_shares``'), the dead cards, each choice's slots thrown, every player's strategy
    (the hero first), the draws and the reshuffles' generator."""

    deals: _Deals
    seen: Sequence[HandRows]
    dead: Cards
    throw: npt.NDArray[np.bool_]
    strategies: Sequence[Strategy]
    draws: int
    rng: np.random.Generator


def _replay_shares(
    rerun: _Rerun,
    rows: Rows,
    start: Rows,
    ranking: Ranking,
    cuts: npt.NDArray[np.int64] | None = None,
) -> npt.NDArray[np.float64]:
    """The hero's share on each of ``rows`` played again from the round its stub runs out in
    (``start``): the rounds before it are the fast path's own cards (the same places of the
    same stub), so each row takes up its hands, the places drawn so far and the discards
    on the pile from the fast path (``rerun.seen``: the hero's hands at the start of each
    round) and only the rest is played one player after another.  ``cuts``: as
    ``_hero_shares``'."""
    players = len(rerun.strategies)
    hands = np.zeros((len(rows), players, 5), dtype=np.uint8)
    for first in np.unique(start):
        at = np.flatnonzero(start == first)
        hands[at] = _replay_from(rerun, rows[at], int(first))
    ranks = rank_batch(hands.reshape(-1, 5), ranking).reshape(len(rows), players)
    if cuts is not None:
        mine = cuts[rows // rerun.deals.trials]
        ranks[:, 1:] = np.where(ranks[:, 1:] <= mine, ranks[:, 1:], FOLDED)
    won = ranks == ranks.min(axis=1, keepdims=True)
    share: npt.NDArray[np.float64] = won[:, 0] / won.sum(axis=1)
    return share


def _replay_from(rerun: _Rerun, rows: Rows, first: int) -> HandRows:
    """The final hands of ``rows`` played again from round ``first`` (``_replay_shares``)."""
    deals, seen, strategies, draws = rerun.deals, rerun.seen, rerun.strategies, rerun.draws
    n = deals.trials
    trial, choice = rows % n, rows // n
    replay = _Replay(deals, rows, trial, rerun.dead, rerun.rng)
    players = len(strategies)
    hands = np.zeros((len(rows), players, 5), dtype=np.uint8)
    for done in range(first):  # the fast path's rounds: their discards go on the pile
        hands[:, 0] = seen[done][rows]
        hands[:, 1:] = deals.rounds[done].hands[trial]
        after = hands.copy()
        after[:, 0] = seen[done + 1][rows]
        after[:, 1:] = deals.rounds[done + 1].hands[trial]
        replay.discard(hands != after, hands)
        replay.top += (seen[done] != seen[done + 1])[rows].sum(axis=1)
    hands[:, 0] = seen[first][rows]
    hands[:, 1:] = deals.rounds[first].hands[trial]
    replay.bottom[:] = deals.rounds[first].taken[trial]
    one = all(x is strategies[0] for x in strategies)
    for done in range(first, draws):
        if one:  # every player's keep at once: a hand does not change before its draw
            needs = ~strategies[0].keep(hands.reshape(-1, 5), draws - done).reshape(hands.shape)
        else:
            needs = np.stack(
                [~x.keep(hands[:, i], draws - done) for i, x in enumerate(strategies)], 1
            )
        if done == 0:
            needs[:, 0] = rerun.throw[choice]
        replay.play(needs, hands)
    return hands


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
    ``engine.sim.equity.keep_equities``, simulated as the module's notes say, with one look
    at the choices after a third of the ``trials``.  A fixed ``seed`` gives the same
    answer, and the same deals whatever the choices asked."""
    found = simulate_choices(
        hand, keeps, opponents, ranking, draws, dead=dead, trials=trials, seed=seed
    )
    return [(r.equity, r.stderr) for r in found]


def simulate_choices(
    hand: Cards,
    keeps: Sequence[Cards],
    opponents: Sequence[Player],
    ranking: Ranking,
    draws: int,
    *,
    dead: Cards = (),
    trials: int = 3_000,
    seed: int = 0,
    block: int | None = None,
    reference: float | None = None,
    focus: Sequence[int] | None = None,
    defend: Sequence[float] | None = None,
) -> list[Simulated]:
    """``choice_equities`` with each choice's deals.  ``block``: ``None`` looks once, after
    a third of the ``trials``; a number of deals looks after every ``block`` of them and
    stops as soon as the verdicts of the ``focus`` choices (indices into ``keeps``; all of
    them by default) are sure (``engine.sim.stopping``), ``trials`` at most.
    ``reference``: the equity of another choice, counted exactly, that these are judged
    against as well.  ``defend``: the hero bets after this, the last draw, and each
    opponent calls with the strongest ``defend[i]`` share of their final hands when the
    hero plays ``keeps[i]`` (``_Deals.callers``); the others fold and lose the pot."""
    if len(hand) != 5 or not keeps:
        raise ValueError("five cards and at least one choice")
    least = 2 if block is not None else 2 * FIRST_SHARE
    if not 1 <= len(opponents) <= 5 or not 1 <= draws <= 3 or trials < least:
        raise ValueError("1 to 5 opponents, 1 to 3 draws and enough trials")
    if block is not None and block < 2:
        raise ValueError("a block is at least two deals")
    if any(p.cards or p.discards or p.keeps_unknown is None for p in opponents):
        raise ValueError("the opponents' cards are unknown here")
    if defend is not None and len(defend) != len(keeps):
        raise ValueError("one share defended per choice")
    check_distinct([*hand, *dead])
    strategy = default_strategy(ranking)
    strategies = [strategy, *(p.strategy or strategy for p in opponents)]
    table = _Table(hand, dead, opponents, strategies[1:], draws=draws, ranking=ranking)
    throw = np.array([[c not in set(k) for c in hand] for k in keeps], dtype=np.bool_)
    deal_rng = np.random.default_rng([seed, 0])
    reshuffle_rng = np.random.default_rng([seed, 1])
    verdicts = Verdicts(len(keeps), trials, reference=reference, focus=focus)
    first = trials // FIRST_SHARE
    # Where a deal costs little beside a block's fixed work, the looks that could not
    # settle anything are skipped (``Verdicts.next_block``); where deals are dear (four or
    # five opponents: crowded ranges, replays) a look after every block stops soonest.
    cheap = len(opponents) <= CHEAP_PLAYERS
    played = 0
    size = first if block is None else min(block, trials)
    while played < trials:
        live = verdicts.live
        deals = _Deals(table, ranking, size, deal_rng)
        cuts = None if defend is None else np.stack([deals.callers(defend[int(i)]) for i in live])
        share, short, start, seen = _hero_shares(
            deals, hand, throw[live], strategy=strategy, ranking=ranking, draws=draws, cuts=cuts
        )
        if len(short):
            rerun = _Rerun(
                deals=deals,
                seen=seen,
                dead=dead,
                throw=throw[live],
                strategies=strategies,
                draws=draws,
                rng=reshuffle_rng,
            )
            share[short] = _replay_shares(rerun, short, start, ranking, cuts)
        verdicts.add(share.reshape(len(live), size))
        played += size
        if block is None:
            if verdicts.thirds_rule():
                break
            size = trials - played
        elif verdicts.sequential_rule():
            break
        else:
            size = verdicts.next_block(block) if cheap else min(block, trials - played)
    return verdicts.results()
