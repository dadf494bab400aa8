"""Unknown hands: what an opponent may hold, given only how many cards they keep.

An opponent seen drawing two with three draws left holds one of the five-card hands their
strategy plays by keeping three.  That set (their "range") is found by asking the strategy
about all 2,598,960 hands once; each trial then deals every unknown player a hand from their
range, the hands sharing no card with each other or with the known cards.  Real deals are
uniform over such sets of hands, so the hands are dealt together and dealt again, all of
them, when two share a card (exact rejection sampling).  When that keeps failing (five unknown
players all on low cards), the remaining trials fall back to dealing one hand at a time
given the others (Gibbs sweeps): close to uniform, not exactly so.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.sim.batch import HandArray, all_hands
from engine.sim.strategy import Strategy

JOINT_ROUNDS = 60  # rounds of dealing all unknown hands together before falling back
MAX_REDEALS = 2_000  # rounds to deal one hand that shares no card with the others
GIBBS_SWEEPS = 4
_CACHE_SIZE = 8
ANY_KEEP = -1  # ``keeps`` of a player whose draw is not seen yet: any hand at all

BIT = np.array([1 << c for c in range(52)], dtype=np.uint64)
Masks = npt.NDArray[np.uint64]


def card_masks(hands: HandArray) -> Masks:
    """Each hand as a 52-bit set of its cards."""
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


_KEPT_COUNTS: dict[tuple[int, int], tuple[Strategy, npt.NDArray[np.int8]]] = {}
_RANGES: dict[tuple[int, int, int, int], tuple[Strategy, Range]] = {}
_BASE: dict[tuple[int, int, int], tuple[Strategy, Range]] = {}
_BASE_SIZE = 40  # ranges before known cards: every (strategy, draws left, keep) of a game


def _remember(cache: dict[Any, Any], key: Any, value: Any) -> None:
    if len(cache) >= _CACHE_SIZE:
        del cache[next(iter(cache))]
    cache[key] = value


def unknown_range(strategy: Strategy, draws_left: int, keeps: int, known: Collection[int]) -> Range:
    """Every hand free of the ``known`` cards that ``strategy`` plays by keeping exactly
    ``keeps`` cards with ``draws_left`` draws to come (cached: drills and reviews ask again
    and again).  ``ANY_KEEP``: every hand free of them (an opponent the hero has not seen
    draw yet)."""
    known_mask = mask_of(known)
    who = 0 if keeps == ANY_KEEP else id(strategy)
    range_key = (who, draws_left, keeps, known_mask)
    entry = _RANGES.get(range_key)
    if entry is not None and (who == 0 or entry[0] is strategy):
        return entry[1]
    base = base_range(strategy, draws_left, keeps)
    if not len(base.hands):
        raise ValueError(
            f"the strategy never keeps {keeps} cards with {draws_left} draws left: "
            f"{strategy.describe()}"
        )
    free = (base.masks & np.uint64(known_mask)) == 0
    found = Range(base.hands[free], base.masks[free])
    _remember(_RANGES, range_key, (strategy, found))
    return found


def base_range(strategy: Strategy, draws_left: int, keeps: int) -> Range:
    """The range before any card is known: filtered by the known cards' bit set after, a
    mask test per hand instead of a pass over every hand's five cards."""
    key = (0, 0, ANY_KEEP) if keeps == ANY_KEEP else (id(strategy), draws_left, keeps)
    entry = _BASE.get(key)
    if entry is not None and (keeps == ANY_KEEP or entry[0] is strategy):
        return entry[1]
    hands = all_hands()
    if keeps == ANY_KEEP:
        chosen = hands
    else:
        count_key = (id(strategy), draws_left)
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


def deal_ranges(
    ranges: Sequence[Range], trials: int, rng: np.random.Generator
) -> tuple[npt.NDArray[np.uint8], Masks]:
    """One hand per range per trial, sharing no card: hands (trials, len(ranges), 5) and the
    bit set of all the cards dealt in each trial."""
    k = len(ranges)
    picks = np.zeros((k, trials), dtype=np.int64)
    pending = np.arange(trials)
    for _ in range(JOINT_ROUNDS):
        used = np.zeros(len(pending), dtype=np.uint64)
        clash = np.zeros(len(pending), dtype=np.bool_)
        for s, r in enumerate(ranges):
            pick = rng.integers(len(r.hands), size=len(pending))
            picks[s, pending] = pick
            m = r.masks[pick]
            clash |= (used & m) != 0
            used |= m
        pending = pending[clash]
        if not len(pending):
            break
    if len(pending):
        _gibbs(ranges, picks, pending, rng)
    hands = np.stack([r.hands[picks[s]] for s, r in enumerate(ranges)], axis=1)
    used = np.zeros(trials, dtype=np.uint64)
    for s, r in enumerate(ranges):
        used |= r.masks[picks[s]]
    return hands, used


def _gibbs(
    ranges: Sequence[Range],
    picks: npt.NDArray[np.int64],
    rows: npt.NDArray[np.int64],
    rng: np.random.Generator,
) -> None:
    """Deal the ``rows`` one hand at a time given the others, then sweep again."""
    k = len(ranges)

    def others(s: int, placed: Sequence[int]) -> Masks:
        m = np.zeros(len(rows), dtype=np.uint64)
        for t in placed:
            if t != s:
                m |= ranges[t].masks[picks[t, rows]]
        return m

    def redeal(s: int, blocked: Masks) -> None:
        todo = np.arange(len(rows))
        for _ in range(MAX_REDEALS):
            pick = rng.integers(len(ranges[s].hands), size=len(todo))
            picks[s, rows[todo]] = pick
            todo = todo[(ranges[s].masks[pick] & blocked[todo]) != 0]
            if not len(todo):
                return
        raise ValueError("the unknown hands can hardly ever be dealt without sharing cards")

    for s in range(k):
        redeal(s, others(s, range(s)))
    for _ in range(GIBBS_SWEEPS):
        for s in range(k):
            redeal(s, others(s, range(k)))
