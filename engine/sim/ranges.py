"""Unknown hands: what an opponent may hold, given only how many cards they keep.

An opponent seen drawing two with three draws left holds one of the five-card hands their
strategy plays by keeping three.  That set (their "range") is found by asking the strategy
about all 2,598,960 hands once (all 270,725 four-card hands in Badugi); each trial then
deals every unknown player a hand from their range, the hands sharing no card with each
other or with the known cards.  Real deals are uniform over such sets of hands, so the
hands are dealt together and dealt again, all of them, when two share a card (exact
rejection sampling).  When that keeps failing (five unknown players all on low cards), the
remaining trials fall back to dealing one hand at a time given the others (Gibbs sweeps):
close to uniform, not exactly so.

The known cards can be left out two ways with the same result: filter the range first
(``unknown_range``), or deal from the unfiltered range and deal again a hand that holds a
known card (``deal_ranges(..., known=...)``): rejection keeps the draw uniform over the free
hands, and skips a pass over a range of up to a million hands for every new set of known
cards (the review asks for a new set at nearly every draw it judges).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.sim.batch import HandArray, all_hands, combinations_array
from engine.sim.strategy import Strategy

JOINT_ROUNDS = 60  # rounds of dealing all unknown hands together before falling back
TAIL_REDEALS = 40  # rounds before the last rows' hands are picked among those that fit
FIT_CANDIDATES = 8_192  # candidate hands a round of ``_fitting``
BATCH_BUDGET = 60  # candidate deals per trial before the Gibbs fallback (known cards)
FILTER_COST = 0.15  # a hand dealt by rejection costs about 7 hands of the range filtered
GIBBS_SWEEPS = 4
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
_BASE_SIZE = 40  # ranges before known cards: every (strategy, draws left, keep) of a game


def _remember(cache: dict[Any, Any], key: Any, value: Any) -> None:
    if len(cache) >= _CACHE_SIZE:
        del cache[next(iter(cache))]
    cache[key] = value


def unknown_range(
    strategy: Strategy,
    draws_left: int,
    keeps: int,
    known: Collection[int],
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


def _pick_free(
    r: Range,
    known: int,
    picks: npt.NDArray[np.int64],
    rows: npt.NDArray[np.int64],
    rng: np.random.Generator,
    free: list[npt.NDArray[np.int64] | None],
    s: int,
) -> None:
    """``picks[rows]``: uniform over the hands of ``r`` free of the ``known`` cards; by
    rejection, or, once the known cards have blocked too many, from the range filtered
    (``free[s]``, kept for the rest of the deal)."""
    found = free[s]
    if found is not None:
        if not len(found):
            raise ValueError("every hand of the range holds a known card")
        picks[rows] = found[rng.integers(len(found), size=len(rows))]
        return
    pick = rng.integers(len(r.hands), size=len(rows))
    picks[rows] = pick
    if not known:
        return
    blocked = np.uint64(known)
    todo = rows[(r.masks[pick] & blocked) != 0]
    share = 1.0 - len(todo) / max(len(rows), 1)  # of the range free: rejection costs 1/share
    if len(rows) > FILTER_COST * share * len(r.hands):
        free[s] = _free_hands(r, known)
        _pick_free(r, known, picks, todo, rng, free, s)
        return
    for _ in range(TAIL_REDEALS):
        if not len(todo):
            return
        blocks = np.full(len(todo), blocked, dtype=np.uint64)
        pick, hit = _fitting(r, None, blocks, rng, share)
        picks[todo[hit]] = pick[hit]
        todo = todo[~hit]
        share /= 2  # the rows left are no harder, but a slow start should not repeat
    if len(todo):
        free[s] = _free_hands(r, known)
        _pick_free(r, known, picks, todo, rng, free, s)


def deal_ranges(
    ranges: Sequence[Range], trials: int, rng: np.random.Generator, known: int = 0
) -> tuple[npt.NDArray[np.uint8], Masks]:
    """One hand per range per trial, sharing no card with each other or with the ``known``
    cards (a bit set, see ``mask_of``): hands (trials, len(ranges), size) and the bit set of
    all the cards dealt in each trial."""
    k = len(ranges)
    picks = np.zeros((k, trials), dtype=np.int64)
    free: list[npt.NDArray[np.int64] | None] = [None] * k
    if known:
        pending = _deal_batches(ranges, known, picks, rng, free)
    else:
        pending = np.arange(trials)
        for _ in range(JOINT_ROUNDS):
            used = np.zeros(len(pending), dtype=np.uint64)
            clash = np.zeros(len(pending), dtype=np.bool_)
            for s, r in enumerate(ranges):
                _pick_free(r, known, picks[s], pending, rng, free, s)
                m = r.masks[picks[s, pending]]
                clash |= (used & m) != 0
                used |= m
            pending = pending[clash]
            if not len(pending):
                break
    if len(pending):
        _gibbs(ranges, picks, pending, rng, known, free)
    hands = np.stack([r.hands[picks[s]] for s, r in enumerate(ranges)], axis=1)
    used = np.zeros(trials, dtype=np.uint64)
    for s, r in enumerate(ranges):
        used |= r.masks[picks[s]]
    return hands, used


def _deal_batches(
    ranges: Sequence[Range],
    known: int,
    picks: npt.NDArray[np.int64],
    rng: np.random.Generator,
    free: list[npt.NDArray[np.int64] | None],
) -> npt.NDArray[np.int64]:
    """Fill ``picks`` (ranges x trials) with hands sharing no card by rejection in large
    batches: as many candidate deals at once as the acceptance seen so far says are needed,
    so a spot where one deal in a hundred fits costs a few numpy passes, not thousands of
    small ones.  Returns the trials still unfilled after ``BATCH_BUDGET`` candidates per
    trial (the Gibbs fallback's)."""
    k, trials = picks.shape
    pending = np.arange(trials)
    budget = BATCH_BUDGET * trials
    spent = 0
    rate = 0.5**k
    while len(pending) and spent < budget:
        m = int(min(budget - spent, max(64.0, 1.25 * len(pending) / rate)))
        candidates = np.zeros((k, m), dtype=np.int64)
        good = np.arange(m)  # the candidates still fitting: the others are not dealt on
        used = np.zeros(m, dtype=np.uint64)
        for s, r in enumerate(ranges):
            _pick_free(r, known, candidates[s], good, rng, free, s)
            masks = r.masks[candidates[s, good]]
            fits = (used & masks) == 0
            good, used = good[fits], (used | masks)[fits]
        spent += m
        rate = max(len(good), 0.5) / m
        n = min(len(good), len(pending))
        picks[:, pending[:n]] = candidates[:, good[:n]]
        pending = pending[n:]
    return pending


def _gibbs(
    ranges: Sequence[Range],
    picks: npt.NDArray[np.int64],
    rows: npt.NDArray[np.int64],
    rng: np.random.Generator,
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
