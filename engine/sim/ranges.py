"""Unknown hands: what an opponent may hold, given only how many cards they keep.

An opponent seen drawing two with three draws left holds one of the five-card hands their
strategy plays by keeping three.  That set (their "range") is found by asking the strategy
about all 2,598,960 hands once (all 270,725 four-card hands in Badugi); each trial then
deals every unknown player a hand from their range, the hands sharing no card with each
other or with the known cards.  Real deals are uniform over such sets of hands, so the
hands are dealt together and dealt again, all of them, when two share a card (exact
rejection sampling).  When that keeps failing (five unknown players all on low cards), the
remaining trials go to an exact dealer where the caller gives one (the review's
``engine.sim.rank_dealer``, by the ranges' ranks), else fall back to dealing one hand at a
time given the others (Gibbs sweeps): close to uniform, not exactly so.

The known cards can be left out two ways with the same result: filter the range first
(``unknown_range``), or deal from the unfiltered range and throw away a deal where a hand
holds a known card (``deal_ranges(..., known=...)``): rejection keeps the deal uniform over
the free hands, and skips a pass over a range of up to a million hands for every new set of
known cards (the review asks for a new set at nearly every draw it judges).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from engine.sim.batch import HandArray, all_hands, combinations_array
from engine.sim.strategy import Strategy

JOINT_ROUNDS = 60  # rounds of dealing all unknown hands together before falling back
TAIL_REDEALS = 40  # rounds before the last rows' hands are picked among those that fit
FIT_CANDIDATES = 8_192  # candidate hands a round of ``_fitting``
BATCH_BUDGET = 300  # candidate deals per trial before the Gibbs fallback (known cards)
FILTER_SHARE = 0.05  # filter a range once its draws in one call would be this share of it
# (a hand drawn by rejection costs about 7 of the range filtered, and a filter serves every
# block of the draw)
GIBBS_SWEEPS = 4
SWITCH_RATE = 0.01  # below this share of candidate deals fitting, the exact dealer deals
_CACHE_SIZE = 8
ANY_KEEP = -1  # ``keeps`` of a player whose draw is not seen yet: any hand at all

BIT = np.array([1 << c for c in range(54)], dtype=np.uint64)  # jokers 52, 53 included
Masks = npt.NDArray[np.uint64]


def card_masks(hands: HandArray) -> Masks:
    """Each hand as a 52-bit set of its cards (54 bits with the jokers)."""
    m = BIT[hands[:, 0]]
    for j in range(1, hands.shape[1]):
        m = m | BIT[hands[:, j]]
    return m


def mask_of(cards: Collection[int]) -> int:
    return sum(1 << c for c in set(cards))


@dataclass(frozen=True)
class Range:
    """The hands an unknown player may hold, and each as a card bit set."""

    hands: HandArray
    masks: Masks


_KEPT_COUNTS: dict[tuple[int, int, int, int], tuple[Strategy, npt.NDArray[np.int8]]] = {}
_RANGES: dict[tuple[int, int, int, int, int, int], tuple[Strategy, Range]] = {}
_BASE: dict[tuple[int, int, int, int, int], tuple[Strategy, Range]] = {}
_BASE_SIZE = 96  # ranges before known cards: every (strategy, draws left, keep) of a game,
# the strategies of every read of a profile (engine.sim.reads) included


class Dealer(Protocol):
    """Deals ``trials`` hands per range: (trials, ranges, size) and each trial's card set."""

    def __call__(
        self, trials: int, rng: np.random.Generator
    ) -> tuple[npt.NDArray[np.uint8], Masks]: ...


def _remember(cache: dict[Any, Any], key: Any, value: Any) -> None:
    if len(cache) >= _CACHE_SIZE:
        del cache[next(iter(cache))]
    cache[key] = value


def unknown_range(
    strategy: Strategy,
    draws_left: int,
    keeps: int,
    known: Collection[int],
    *,
    deck_size: int = 52,
    size: int = 5,
) -> Range:
    """Every hand of ``size`` cards (4 in Badugi) free of the ``known`` cards that
    ``strategy`` plays by keeping exactly ``keeps`` cards with ``draws_left`` draws to come
    (cached: drills and reviews ask again and again).  ``ANY_KEEP``: every hand free of them
    (an opponent the hero has not seen draw yet).  ``deck_size``: 53 or 54 in a joker game
    (engine/wild.py)."""
    known_mask = mask_of(known)
    who = 0 if keeps == ANY_KEEP else id(strategy)
    range_key = (who, draws_left, keeps, known_mask, deck_size, size)
    entry = _RANGES.get(range_key)
    if entry is not None and (who == 0 or entry[0] is strategy):
        return entry[1]
    base = base_range(strategy, draws_left, keeps, deck_size, size)
    if not len(base.hands):
        raise ValueError(
            f"the strategy never keeps {keeps} cards with {draws_left} draws left: "
            f"{strategy.describe()}"
        )
    free = (base.masks & np.uint64(known_mask)) == 0
    found = Range(base.hands[free], base.masks[free])
    _remember(_RANGES, range_key, (strategy, found))
    return found


def base_range(
    strategy: Strategy, draws_left: int, keeps: int, deck_size: int = 52, size: int = 5
) -> Range:
    """The range before any card is known: filtered by the known cards' bit set after, a
    mask test per hand instead of a pass over every hand's cards."""
    who = 0 if keeps == ANY_KEEP else id(strategy)
    key = (who, 0 if who == 0 else draws_left, keeps, deck_size, size)
    entry = _BASE.get(key)
    if entry is not None and (keeps == ANY_KEEP or entry[0] is strategy):
        return entry[1]
    hands = all_hands() if (deck_size, size) == (52, 5) else combinations_array(deck_size, size)
    if keeps == ANY_KEEP:
        chosen = hands
    else:
        count_key = (id(strategy), draws_left, deck_size, size)
        cached = _KEPT_COUNTS.get(count_key)
        if cached is not None and cached[0] is strategy:
            counts = cached[1]
        else:
            counts = strategy.keep(hands, draws_left).sum(axis=1).astype(np.int8)
            _remember(_KEPT_COUNTS, count_key, (strategy, counts))
        chosen = hands[counts == keeps]
    found = Range(chosen, card_masks(chosen))
    if len(_BASE) >= _BASE_SIZE:
        del _BASE[next(iter(_BASE))]
    _BASE[key] = (strategy, found)
    return found


def _free_hands(r: Range, known: int) -> npt.NDArray[np.int64]:
    return np.flatnonzero((r.masks & np.uint64(known)) == 0)


def _fitting(
    r: Range,
    among: npt.NDArray[np.int64] | None,
    blocked: Masks,
    rng: np.random.Generator,
    share: float,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """For each row, a hand of ``r`` (of ``among``, or of all) sharing no card with the
    row's ``blocked`` cards, and whether one was found: several candidates a row at once
    (about three times as many as the ``share`` of hands expected to fit says are needed),
    the first that fits taken, which is still a uniform pick among the hands that fit
    (rejection, in fewer numpy passes)."""
    rows = len(blocked)
    per = int(min(max(1, FIT_CANDIDATES // max(rows, 1)), np.ceil(3.0 / max(share, 1e-3))))
    size = len(r.hands) if among is None else len(among)
    drawn = rng.integers(size, size=(rows, per))
    candidates = drawn if among is None else among[drawn]
    fits = (r.masks[candidates] & blocked[:, None]) == 0
    first = fits.argmax(axis=1)
    return candidates[np.arange(rows), first], fits[np.arange(rows), first]


def deal_ranges(
    ranges: Sequence[Range], trials: int, rng: np.random.Generator, known: int = 0
) -> tuple[npt.NDArray[np.uint8], Masks]:
    """One hand per range per trial, sharing no card with each other or with the ``known``
    cards (a bit set, see ``mask_of``): hands (trials, len(ranges), size) and the bit set of
    all the cards dealt in each trial."""
    if known:
        return RangeDealer(ranges, known).deal(trials, rng)
    k = len(ranges)
    picks = np.zeros((k, trials), dtype=np.int64)
    pending = np.arange(trials)
    for _ in range(JOINT_ROUNDS):
        used = np.zeros(len(pending), dtype=np.uint64)
        clash = np.zeros(len(pending), dtype=np.bool_)
        for s, r in enumerate(ranges):
            picks[s, pending] = rng.integers(len(r.hands), size=len(pending))
            m = r.masks[picks[s, pending]]
            clash |= (used & m) != 0
            used |= m
        pending = pending[clash]
        if not len(pending):
            break
    if len(pending):
        _gibbs(ranges, picks, pending, rng)
    return _hands_of(ranges, picks)


def _hands_of(
    ranges: Sequence[Range], picks: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.uint8], Masks]:
    hands = np.stack([r.hands[picks[s]] for s, r in enumerate(ranges)], axis=1)
    used = np.zeros(picks.shape[1], dtype=np.uint64)
    for s, r in enumerate(ranges):
        used |= r.masks[picks[s]]
    return hands, used


class RangeDealer:
    """Deals one hand per range per trial around fixed known cards, block after block (the
    review simulates a draw in blocks of deals, all around the same known cards).

    Each range's hands are drawn free of the known cards by rejection (uniform over the
    free hands), or from the free hands themselves once rejection would cost more than
    finding them; then whole deals whose hands share a card are thrown away, so the deals
    kept are uniform over the deals that fit.  How often a hand avoids the known cards and
    how often a deal fits is learned as it goes, and sizes each batch of candidates, so a
    spot where one deal in a hundred fits costs a few large numpy passes, not many small
    ones.  After ``BATCH_BUDGET`` candidate deals a trial, the trials still unfilled fall
    back to Gibbs sweeps (close to uniform, not exactly), or to ``exact``, another dealer
    of the same ranges exactly uniform over the deals that fit (``engine.sim.rank_dealer``),
    which also takes every trial once fewer than ``SWITCH_RATE`` of the candidates fit: each
    deal is a draw from the same distribution whichever dealer made it."""

    def __init__(self, ranges: Sequence[Range], known: int, exact: Dealer | None = None) -> None:
        self.ranges = list(ranges)
        self.known = np.uint64(known)
        self.exact = exact
        k = len(self.ranges)
        self.free: list[npt.NDArray[np.int64] | None] = [None] * k
        self.free_masks: list[Masks] = [np.zeros(0, dtype=np.uint64)] * k
        self.drawn = [2] * k  # hands drawn, and of them free of the known cards (a prior)
        self.kept = [1] * k
        self.tried = 2  # candidate deals, and of them fitting (a prior)
        self.fitted = 2 * 0.5**k

    def deal(self, trials: int, rng: np.random.Generator) -> tuple[npt.NDArray[np.uint8], Masks]:
        k = len(self.ranges)
        picks = np.zeros((k, trials), dtype=np.int64)
        filled = 0
        budget = BATCH_BUDGET * trials
        spent = 0
        if self.exact is not None and self.fitted < SWITCH_RATE * self.tried:
            budget = 0
        while filled < trials and spent < budget:
            want = trials - filled
            rate = self.fitted / self.tried
            m = int(min(budget - spent, max(64.0, 1.2 * want / rate)))
            candidates = np.empty((k, m), dtype=np.int64)
            alive = np.arange(m)
            used = np.zeros(m, dtype=np.uint64)
            for s in range(k):
                pick, masks = self._free_picks(s, len(alive), rng)
                fits = (used & masks) == 0
                alive = alive[fits]
                used = (used | masks)[fits]
                candidates[s, alive] = pick[fits]
            spent += m
            self.tried += m
            self.fitted += len(alive)
            n = min(len(alive), want)
            picks[:, filled : filled + n] = candidates[:, alive[:n]]
            filled += n
            if self.exact is not None and self.fitted < SWITCH_RATE * self.tried:
                break
        if filled < trials and self.exact is not None:
            hands, used = _hands_of(self.ranges, picks[:, :filled])
            rest, rest_used = self.exact(trials - filled, rng)
            return np.concatenate([hands, rest]), np.concatenate([used, rest_used])
        if filled < trials:
            rows = np.arange(filled, trials)
            _gibbs(self.ranges, picks, rows, rng, known=int(self.known), filtered=self.free)
        return _hands_of(self.ranges, picks)

    def _free_picks(
        self, s: int, m: int, rng: np.random.Generator
    ) -> tuple[npt.NDArray[np.int64], Masks]:
        """``m`` hands of range ``s`` (indices, and their card sets), each uniform over the
        hands free of the known cards."""
        r = self.ranges[s]
        out = np.empty(m, dtype=np.int64)
        out_masks = np.empty(m, dtype=np.uint64)
        got = 0
        while got < m:
            free = self.free[s]
            if free is not None:
                if not len(free):
                    raise ValueError("every hand of the range holds a known card")
                at = rng.integers(len(free), size=m - got)
                out[got:] = free[at]
                out_masks[got:] = self.free_masks[s][at]
                return out, out_masks
            rate = self.kept[s] / self.drawn[s]
            if (m - got) / rate > FILTER_SHARE * len(r.hands):
                self.free[s] = _free_hands(r, int(self.known))
                self.free_masks[s] = r.masks[self.free[s]]
                continue
            pick = rng.integers(len(r.hands), size=int(1.1 * (m - got) / rate) + 16)
            masks = r.masks[pick]
            fits = (masks & self.known) == 0
            ok = pick[fits]
            self.drawn[s] += len(pick)
            self.kept[s] += len(ok)
            n = min(len(ok), m - got)
            out[got : got + n] = ok[:n]
            out_masks[got : got + n] = masks[fits][:n]
            got += n
        return out, out_masks


def _gibbs(
    ranges: Sequence[Range],
    picks: npt.NDArray[np.int64],
    rows: npt.NDArray[np.int64],
    rng: np.random.Generator,
    *,
    known: int = 0,
    filtered: Sequence[npt.NDArray[np.int64] | None] = (),
) -> None:
    """Deal the ``rows`` one hand at a time given the others (and the ``known`` cards),
    then sweep again.  Each hand comes from its range's hands free of the known cards
    (``filtered`` where already found, else filtered here: a fallback this rare can
    afford the pass)."""
    k = len(ranges)
    free = [
        f if f is not None else (_free_hands(r, known) if known else np.arange(len(r.hands)))
        for r, f in zip(ranges, [*filtered, *[None] * (k - len(filtered))], strict=True)
    ]

    def others(s: int, placed: Sequence[int]) -> Masks:
        m = np.full(len(rows), known, dtype=np.uint64)
        for t in placed:
            if t != s:
                m |= ranges[t].masks[picks[t, rows]]
        return m

    def redeal(s: int, blocked: Masks) -> None:
        todo = np.arange(len(rows))
        share = 0.5
        for _ in range(TAIL_REDEALS):
            pick, hit = _fitting(ranges[s], free[s], blocked[todo], rng, share)
            picks[s, rows[todo[hit]]] = pick[hit]
            share = min(share, max(float(hit.mean()), 1e-3)) / 2  # the rows left fit less
            todo = todo[~hit]
            if not len(todo):
                return
        # The few rows left can hardly take a hand at random: pick from the hands they can
        # take (the same uniform choice, without the thousands of rounds).
        masks = ranges[s].masks[free[s]]
        for t in todo:
            fits = np.flatnonzero((masks & blocked[t]) == 0)
            if not len(fits):
                raise ValueError("the unknown hands can hardly ever be dealt without sharing cards")
            picks[s, rows[t]] = free[s][fits[rng.integers(len(fits))]]

    for s in range(k):
        redeal(s, others(s, range(s)))
    for _ in range(GIBBS_SWEEPS):
        for s in range(k):
            redeal(s, others(s, range(k)))
