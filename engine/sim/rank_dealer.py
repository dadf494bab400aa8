"""Ranged opponents dealt by their ranks first: exactly uniform over the deals that fit, at
a fraction of the whole-deal rejection's cost where the ranges crowd each other.

Several opponents seen drawing one or two all hold low cards, so a deal of independent
hands from their ranges shares a card far more often than not (one in 150 fits with four of
them), and ``RangeDealer`` throws whole deals away until one fits.  The threshold
strategies' ranges have a structure that avoids most of that work: whether a hand belongs
depends on its ranks (and, in 2-7, on whether it is a flush), so a range is a list of rank
multisets, each with all its suitings (``ALL``), all but the flushes (``NONFLUSH``), or only
its flushes (kept as the hands themselves).  A deal is then made in two steps:

1. Each opponent's rank multiset is drawn independently, weighted by its suitings free of
   the known cards (its share of the free range), and the candidate is accepted with
   probability ``P / bound``, where ``P`` is the exact chance that independent suitings of
   those ranks share no card (a product over the ranks of falling factorials) and
   ``bound`` is an upper bound of ``P`` over every candidate (below).
2. The suits are dealt rank by rank, a random order of the free suits of each rank cut
   among the opponents holding it: uniform over the suitings that share no card.  A
   ``NONFLUSH`` hand dealt a flush throws the deal back to step 1.

Whole-deal rejection accepts the same candidates with probability ``P``; dividing by the
bound changes no probability between deals (only how many candidates are drawn), so the
deals are exactly as uniform as before, and no fallback to Gibbs sweeps is needed.  Where
every candidate crowds the ranks (``P`` tiny for all of them) the bound is tiny too, and
most candidates are kept.

The bound: each opponent's hand holds at least ``k(v)`` distinct ranks among the ``v+1``
lowest (``k`` read off the range), and the chance that suits avoid each other only grows
when a hand is cut down to one card of each of some of its ranks; so ``P`` is at most the
largest ``prod_r g(a_r, t_r)`` over counts ``t_r`` of opponents per rank whose lowest
``v+1`` ranks add up to at least the sum of the ``k(v)``, where ``g(a, t)`` is the chance
that ``t`` single cards of one rank with ``a`` free suits differ.  A small program over the
13 ranks finds it.  A flush hand (a specific hand, weight ``FLUSH_WEIGHT`` instead of 1)
counts as one card of each of its ranks; two or more of them at one rank can make ``P`` up
to ``(a^f / a!/(a-f)!)`` larger, at most ``FLUSH_WEIGHT`` per flush hand dealt, which
its weight pays for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import log, perm

import numpy as np
import numpy.typing as npt

from engine.ranking import Ranking
from engine.sim.ranges import Dealer, Masks, Range, card_masks

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

# Over all flush hands: a^f / (a!/(a-f)!) is at most (4^4/4!) per four cards at one rank, so
# at most (256/24)^(5/4) per flush hand of five cards (see the module's notes).
FLUSH_WEIGHT = 20.0  # above (256 / 24) ** 1.25 = 19.27
ROUND_FLOOR = 64  # fewest candidates a round
# A candidate's cards of each rank so far, packed in one integer, FIELD_BITS a rank: a
# candidate is added to only while every card of it finds a free suit, so a field holds at
# most a rank's 4 suits.
FIELD_BITS = 4
_FIELD = np.arange(13, dtype=np.int64) * FIELD_BITS
_FIELD_MASK = (1 << FIELD_BITS) - 1
GUIDE_PER_MEMBER = 4  # guide table entries per member: a draw from a range takes ~1 step
GUIDE_STEPS = 2  # steps from the guide before a binary search finishes the few left


def _falling(a: int, n: int) -> float:
    return float(perm(a, n)) if 0 <= n <= a else 0.0


# _FALL[a, n]: a!/(a-n)! (0 when n > a), for a free suits and n cards of a rank.
_FALL = np.array([[_falling(a, n) for n in range(26)] for a in range(5)])
_FACTORIAL = np.array([1.0, 1.0, 2.0, 6.0, 24.0])
_SUITINGS = np.array([1, 4, 6, 4, 1], dtype=np.int64)  # ways to hold m of a rank's four cards


@dataclass(frozen=True)
class RankRange:
    """A range as rank multisets: ``counts`` (members, 13) cards of each rank, ``slots``
    (members, 5) each card's rank and ``nth`` (members, 5) which card of its rank it is,
    ``nonflush`` whether the member's flushes are out of the range; ``flushes`` the range's
    flush hands that are members by themselves, ``least`` (13,) the fewest distinct ranks a
    member holds among the v+1 lowest (by ``order``, the ranks from lowest up)."""

    counts: npt.NDArray[np.uint8]
    slots: npt.NDArray[np.uint8]
    nth: npt.NDArray[np.uint8]
    nonflush: npt.NDArray[np.bool_]
    flushes: npt.NDArray[np.uint8]
    flush_masks: npt.NDArray[np.uint64]
    flush_counts: npt.NDArray[np.uint8]
    least: Ints


_BY_RANGE: dict[int, tuple[Range, RankRange | None]] = {}


def rank_range(r: Range, order: Sequence[int]) -> RankRange | None:
    """``r`` as rank multisets, or ``None`` when its members are not all of one of the
    three kinds (five-card draw's four-flush draws): then the whole-deal dealer deals it.
    Cached by range (the base ranges live for the process)."""
    entry = _BY_RANGE.get(id(r))
    if entry is not None and entry[0] is r:
        return entry[1]
    found = _build(r, order)
    _BY_RANGE[id(r)] = (r, found)
    return found


def _build(r: Range, order: Sequence[int]) -> RankRange | None:
    hands = r.hands
    if hands.shape[1] != 5 or not len(hands) or int(hands.max()) >= 52:
        return None
    ranks = np.sort(hands >> 2, axis=1).astype(np.int64)
    key = ranks @ (13 ** np.arange(4, -1, -1))
    suits = hands & 3
    flush = (suits == suits[:, :1]).all(axis=1)
    groups, first, inverse, sizes = np.unique(
        key, return_index=True, return_inverse=True, return_counts=True
    )
    flushed = np.bincount(inverse, weights=flush, minlength=len(groups)).astype(np.int64)
    counts = np.zeros((len(groups), 13), dtype=np.int64)
    rows = np.repeat(np.arange(len(groups)), 5)
    np.add.at(counts, (rows, ranks[first].ravel()), 1)
    full = np.prod(_SUITINGS[counts], axis=1)
    distinct = (counts > 0).sum(axis=1) == 5
    whole = sizes == full
    nonflush = distinct & (sizes == full - 4) & (flushed == 0)
    only_flush = distinct & (sizes == 4) & (flushed == 4)
    if not (whole | nonflush | only_flush).all():
        return None
    members = np.flatnonzero(whole | nonflush)
    slots = ranks[first[members]]
    nth = np.zeros_like(slots)
    for j in range(1, 5):
        nth[:, j] = np.where(slots[:, j] == slots[:, j - 1], nth[:, j - 1] + 1, 0)
    flush_rows = np.flatnonzero(only_flush[inverse] & flush)
    flush_hands = hands[flush_rows]
    flush_counts = np.zeros((len(flush_rows), 13), dtype=np.uint8)
    for j in range(5):
        np.add.at(flush_counts, (np.arange(len(flush_rows)), flush_hands[:, j] >> 2), 1)
    lowest = np.zeros(13, dtype=np.int64)
    held = counts > 0
    prefix = np.zeros(len(groups), dtype=np.int64)
    for v, rank in enumerate(order):
        prefix = prefix + held[:, rank]
        lowest[v] = int(prefix.min())
    return RankRange(
        counts[members].astype(np.uint8),
        slots.astype(np.uint8),
        nth.astype(np.uint8),
        nonflush[members],
        flush_hands,
        r.masks[flush_rows],
        flush_counts,
        lowest,
    )


def _bound(free: Ints, order: Sequence[int], need: Ints, players: int) -> float:
    """The largest ``prod_r g(a_r, t_r)`` over ``t_r`` (0 to ``players``) whose sums over
    the v+1 lowest ranks reach ``need[v]`` (the module's notes): a program over the ranks
    from lowest up, the state the cards placed so far (more than the last need is as
    good as it)."""
    top = int(need[-1])
    best = np.full(top + 1, -np.inf)
    best[0] = 0.0
    for v, rank in enumerate(order):
        a = int(free[rank])
        step = [log(_falling(a, t) / a**t) if _falling(a, t) else -np.inf
                for t in range(min(players, a) + 1)]  # fmt: skip
        nxt = np.full(top + 1, -np.inf)
        for t, gain in enumerate(step):
            if gain == -np.inf:
                continue
            moved = np.full(top + 1, -np.inf)
            moved[min(t, top) :] = best[: top + 1 - min(t, top)]
            moved[top] = max(moved[top], best[max(top - t, 0) :].max())
            nxt = np.maximum(nxt, moved + gain)
        nxt[: int(need[v])] = -np.inf
        best = nxt
    return float(np.exp(best[top])) if best[top] > -np.inf else 0.0


class RankDealer:
    """Deals one hand per range per trial around fixed known cards, exactly uniform over
    the deals that fit (the module's notes), block after block of one draw.

    A candidate's ``P`` is built opponent by opponent, each one's factor the chance that
    its suits avoid the cards of the ranks already held (at most 1), so a candidate is
    dropped as soon as what it has left cannot reach the acceptance mark it drew."""

    def __init__(self, ranges: Sequence[RankRange], known: int, order: Sequence[int]) -> None:
        self.ranges = list(ranges)
        taken = np.zeros((13, 4), dtype=np.bool_)
        for c in range(52):
            if known >> c & 1:
                taken[c >> 2, c & 3] = True
        self.open = ~taken  # (13, 4): the suits of each rank still free
        self.free = self.open.sum(axis=1).astype(np.int64)
        self.cumulative: list[Floats] = []
        self.members: list[int] = []
        self.spread: list[Floats] = []  # 1 / each member's falling factorials of its ranks
        self.room: list[Ints] = []  # each member's card's free suits, less its rank's earlier
        self.guide: list[Ints] = []
        self.packed: list[Ints] = []  # each member's counts by rank, FIELD_BITS a rank
        self.shift: list[Ints] = []  # each member's card's rank field: where its count is
        for rr in self.ranges:
            slot_free = np.maximum(self.free[rr.slots] - rr.nth, 0).astype(np.int64)
            spread = np.prod(slot_free, axis=1).astype(np.float64)
            self.room.append(slot_free)
            self.packed.append((rr.counts.astype(np.int64) << _FIELD).sum(axis=1))
            self.shift.append(rr.slots.astype(np.int64) * FIELD_BITS)
            flush_ok = (rr.flush_masks & np.uint64(known)) == 0
            both = np.concatenate([spread / np.prod(_FACTORIAL[rr.counts], axis=1),
                                   FLUSH_WEIGHT * flush_ok])  # fmt: skip
            total = np.cumsum(both)
            if not len(total) or total[-1] <= 0:
                raise ValueError("every hand of the range holds a known card")
            cumulative = total / total[-1]
            self.cumulative.append(cumulative)
            self.members.append(len(spread))
            self.spread.append(1.0 / np.maximum(spread, 1.0))
            bins = np.arange(GUIDE_PER_MEMBER * len(total)) / (GUIDE_PER_MEMBER * len(total))
            self.guide.append(np.searchsorted(cumulative, bins, side="right"))
        need = np.sum([rr.least for rr in self.ranges], axis=0)
        self.bound = _bound(self.free, order, need, len(self.ranges))
        if self.bound <= 0:
            raise ValueError("the unknown hands can hardly ever be dealt without sharing cards")
        self.tried = 8.0  # candidates drawn, and of them kept (a prior of 30%): their ratio
        self.kept = 2.4  # sizes the next round

    def deal(self, trials: int, rng: np.random.Generator) -> tuple[npt.NDArray[np.uint8], Masks]:
        k = len(self.ranges)
        hands = np.zeros((trials, k, 5), dtype=np.uint8)
        filled = 0
        while filled < trials:
            want = trials - filled
            m = int(max(ROUND_FLOOR, 1.2 * want * self.tried / self.kept))
            got = self._round(m, rng)
            self.tried += m
            self.kept += len(got)
            n = min(len(got), want)
            hands[filled : filled + n] = got[:n]
            filled += n
        return hands, card_masks(hands.reshape(trials, -1))

    def _pick(self, i: int, u: Floats) -> Ints:
        """The members drawn for uniforms ``u``: the first whose cumulative weight passes
        ``u`` (as a binary search finds it), from the guide table's start a few steps on."""
        c = self.cumulative[i]
        guide = self.guide[i]
        picks: Ints = guide[(u * len(guide)).astype(np.int64)]
        last = len(c) - 1
        for _ in range(GUIDE_STEPS):
            short = (c[np.minimum(picks, last)] <= u) & (picks < last)
            if not short.any():
                return picks
            picks = picks + short
        rest = np.flatnonzero((c[np.minimum(picks, last)] <= u) & (picks < last))
        picks[rest] = np.minimum(np.searchsorted(c, u[rest], side="right"), last)
        return picks

    def _round(self, m: int, rng: np.random.Generator) -> npt.NDArray[np.uint8]:
        """``m`` candidates through both steps; the deals kept, (kept, k, 5)."""
        k = len(self.ranges)
        mark = rng.random(m) * self.bound  # accepted when P reaches it
        share = np.ones(m)  # P so far
        load = np.zeros(m, dtype=np.int64)  # cards of each rank held so far, packed
        rows = np.arange(m)  # the candidates still alive
        picks = np.zeros((k, m), dtype=np.int64)
        flushed = np.zeros(m, dtype=np.bool_)
        uniforms = rng.random((k, m))
        for i in range(k):
            pick = self._pick(i, uniforms[i, : len(rows)])
            picks[i, rows] = pick
            ranked = pick < self.members[i]
            if not ranked.all():
                flushed[rows[~ranked]] = True
                mark[~ranked] *= FLUSH_WEIGHT
                pick = np.where(ranked, pick, 0)
            if i:
                held = (load[:, None] >> self.shift[i][pick]) & _FIELD_MASK
                room = np.maximum(self.room[i][pick] - held, 0)
                factor = np.prod(room, axis=1) * self.spread[i][pick]
                share = share * np.where(ranked, factor, 1.0)
                alive = share >= mark
                if not alive.all():
                    rows, share, mark, load = rows[alive], share[alive], mark[alive], load[alive]
                    ranked, pick = ranked[alive], pick[alive]
            counts = self.packed[i][pick]
            load += counts if ranked.all() else counts * ranked
        if flushed[rows].any():
            unpacked = (load[:, None] >> _FIELD) & _FIELD_MASK
            share, mark = self._fixed(rows, picks, share, mark, unpacked)
            alive = share >= mark
            rows = rows[alive]
        return self._suits(picks[:, rows], rng)

    def _fixed(
        self, rows: Ints, picks: Ints, share: Floats, mark: Floats, load: Ints
    ) -> tuple[Floats, Floats]:
        """The flush hands' part of ``P`` for the candidates holding one: the others' suits
        avoid their cards (the falling factorials of the free suits less theirs), and two
        flush hands share no card."""
        share = share.copy()
        fixed = np.zeros((len(rows), 13), dtype=np.int64)
        used = np.zeros(len(rows), dtype=np.uint64)
        clash = np.zeros(len(rows), dtype=np.bool_)
        for i, rr in enumerate(self.ranges):
            pick = picks[i, rows]
            at = np.flatnonzero(pick >= self.members[i])
            if not len(at):
                continue
            f = pick[at] - self.members[i]
            fixed[at] += rr.flush_counts[f]
            clash[at] |= (used[at] & rr.flush_masks[f]) != 0
            used[at] |= rr.flush_masks[f]
        some = np.flatnonzero(fixed.any(axis=1))
        held = load[some].astype(np.int64)
        free = self.free[None, :]
        less = np.minimum(fixed[some], free)
        share[some] *= np.prod(_FALL[free - less, held] / _FALL[free, held], axis=1)
        share[clash] = 0.0
        return share, mark

    def _suits(self, picks: Ints, rng: np.random.Generator) -> npt.NDArray[np.uint8]:
        """Step 2 for the accepted candidates (``picks``: (k, n)): each rank's free suits in
        a random order, cut among its holders; a ``NONFLUSH`` hand dealt a flush drops its
        deal."""
        k, n = picks.shape
        open_ = np.broadcast_to(self.open, (n, 13, 4))
        out = np.zeros((n, k, 5), dtype=np.uint8)
        for i, rr in enumerate(self.ranges):
            fl = np.flatnonzero(picks[i] >= self.members[i])
            if len(fl):
                hands = rr.flushes[picks[i, fl] - self.members[i]]
                out[fl, i] = hands
                open_ = open_.copy() if not open_.flags.writeable else open_
                open_[fl[:, None], hands >> 2, hands & 3] = False
        keys = rng.random((n, 13, 4)) + (~open_) * 2.0
        shuffled = np.argsort(keys, axis=2)
        start = np.zeros((n, 13), dtype=np.int64)
        bad = np.zeros(n, dtype=np.bool_)
        at = np.arange(n)[:, None]
        for i, rr in enumerate(self.ranges):
            ranked = picks[i] < self.members[i]
            member = np.where(ranked, picks[i], 0)
            slot_ranks = rr.slots[member].astype(np.int64)
            place = np.minimum(start[at, slot_ranks] + rr.nth[member], 3)
            suit = shuffled[at, slot_ranks, place]
            rows = np.flatnonzero(ranked)
            out[rows, i] = ((slot_ranks << 2) | suit)[rows]
            start += np.where(ranked[:, None], rr.counts[member], 0)
            bad |= ranked & rr.nonflush[member] & (suit == suit[:, :1]).all(axis=1)
        kept: npt.NDArray[np.uint8] = out[~bad]
        return kept


def rank_order(ranking: Ranking) -> list[int]:
    """The ranks from lowest up as the ranking reads them (the ace first in A-5)."""
    return [12, *range(12)] if ranking is Ranking.ACE_FIVE else list(range(13))


def exact_dealer(ranges: Sequence[Range], known: int, ranking: Ranking) -> Dealer | None:
    """A ``RankDealer`` of ``ranges`` around the ``known`` cards, built when first asked
    (most draws never need it), or ``None`` where a range is not made of rank multisets."""
    order = rank_order(ranking)
    ranked = [rank_range(r, order) for r in ranges]
    if not ranked or any(r is None for r in ranked):
        return None
    found: list[RankDealer] = []

    def deal(trials: int, rng: np.random.Generator) -> tuple[npt.NDArray[np.uint8], Masks]:
        if not found:
            found.append(RankDealer([r for r in ranked if r is not None], known, order))
        return found[0].deal(trials, rng)

    return deal
