"""The Badugi ranking of RULES.md: four cards, the largest subset of distinct ranks and suits.

A hand plays its largest subset with no two cards of a rank and no two of a suit (four beats
three beats two beats one); within one size the subset's cards compare from the highest
down, lowest wins, aces low.  Suits never break ties.

As in engine/ranking.py a value is a small int and SMALLER IS BETTER (0 is A-2-3-4 of four
suits).  Why a table: the best subset is a small matching problem (a card joins a rank to a
suit), too slow to solve per hand in the equity loops, so every one of the 270,725 hands is
solved once, in numpy, on first use (about 30 ms; not at import, which the CLI and the
five-card games would pay for nothing).  A hand's slot is its colex index, the sum of
``C(card, k)`` over its sorted cards, so the pure Python path is a sort and four lookups
and the numpy batch path (engine/sim/batch.py) is the same arithmetic on columns.

A subset's *score* is ``(4 - size) << 13 | ace-low rank bits``: with distinct ranks,
comparing the bit masks as ints compares the ranks from the highest down, so the best
subset is the minimum score and the dense value is the score's place among all scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import chain, combinations
from math import comb
from typing import TYPE_CHECKING

from engine.cards import CardError, Cards

if TYPE_CHECKING:  # numpy is imported where the arrays are made: 0.1 s a process that
    # ranks no Badugi hand (``drawlab verify`` of 2-7 hands, whose workers fork from it)
    # would pay for nothing
    import numpy as np
    import numpy.typing as npt

HAND_SIZE = 4
HAND_COUNT = comb(52, HAND_SIZE)  # 270,725
SIZE_SHIFT = 13
# Distinct values: 715 badugis, 286 three-card, 78 two-card and 13 one-card hands.
CLASS_COUNT = comb(13, 4) + comb(13, 3) + comb(13, 2) + comb(13, 1)

# COLEX[k][card] = C(card, k + 1): a sorted hand's slot is one lookup per card.
COLEX: tuple[tuple[int, ...], ...] = tuple(
    tuple(comb(card, k + 1) for card in range(52)) for k in range(HAND_SIZE)
)
COLEX_1, COLEX_2, COLEX_3, COLEX_4 = COLEX


@cache
def colex_array() -> npt.NDArray[np.int32]:
    """``COLEX`` as an array of shape (4, 52), for the column arithmetic."""
    import numpy as np

    return np.array(COLEX, dtype=np.int32)


def scores(hands: npt.NDArray[np.integer]) -> npt.NDArray[np.int32]:
    """The best subset's score of each row of an (N, 4) array of card ints."""
    return best_subsets(hands)[0]


def best_subsets(
    hands: npt.NDArray[np.integer],
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int8]]:
    """Per row of an (N, 4) array of card ints: the best subset's score, and which columns
    it holds (bit i: column i; the first best subset found when several tie).

    Subsets are grown one card at a time (a subset's rank and suit masks are its smaller
    subset's plus one card), so each of the 15 costs two ANDs and two ORs on columns.
    """
    import numpy as np

    h = hands.astype(np.int32)
    low_bit = [np.left_shift(1, ((h[:, i] >> 2) + 1) % 13) for i in range(HAND_SIZE)]
    suit_bit = [np.left_shift(1, h[:, i] & 3) for i in range(HAND_SIZE)]
    empty = np.zeros(len(h), dtype=np.int32)
    rank_or = [empty]
    suit_or = [empty]
    valid = [np.ones(len(h), dtype=bool)]
    best = np.full(len(h), 1 << 20, dtype=np.int32)
    columns = np.zeros(len(h), dtype=np.int8)
    for mask in range(1, 1 << HAND_SIZE):
        top = mask.bit_length() - 1
        rest = mask ^ (1 << top)
        r, s = low_bit[top], suit_bit[top]
        ok = valid[rest] & ((rank_or[rest] & r) == 0) & ((suit_or[rest] & s) == 0)
        rank_or.append(rank_or[rest] | r)
        suit_or.append(suit_or[rest] | s)
        valid.append(ok)
        score = ((HAND_SIZE - mask.bit_count()) << SIZE_SHIFT) | rank_or[mask]
        better = ok & (score < best)
        best = np.where(better, score, best)
        columns = np.where(better, np.int8(mask), columns)
    return best, columns


class _Table:
    """Slot (colex index) -> dense value, and value -> the score it stands for."""

    def __init__(self) -> None:
        import numpy as np

        flat = np.fromiter(
            chain.from_iterable(combinations(range(52), HAND_SIZE)),
            dtype=np.uint8,
            count=HAND_COUNT * HAND_SIZE,
        )
        hands = flat.reshape(HAND_COUNT, HAND_SIZE)
        hand_scores = scores(hands)
        distinct = np.unique(hand_scores)
        if len(distinct) != CLASS_COUNT:
            raise AssertionError(f"{len(distinct)} Badugi values, expected {CLASS_COUNT}")
        slots = colex_array()[np.arange(HAND_SIZE), hands].sum(axis=1)
        values = np.empty(HAND_COUNT, dtype=np.int16)
        values[slots] = np.searchsorted(distinct, hand_scores)
        self.array = values
        self.score: tuple[int, ...] = tuple(int(s) for s in distinct)
        shared = list(range(CLASS_COUNT))  # one int object per value, not one per slot
        self.values: list[int] = [shared[v] for v in values.tolist()]


@cache
def table() -> _Table:
    return _Table()


_VALUES: list[int] = []  # table().values, bound on first use: the hot path skips the cache call


def rank(cards: Cards | Sequence[int]) -> int:
    """The value of four distinct cards: smaller is better, equal is a tie."""
    if len(cards) != HAND_SIZE:
        raise CardError(f"a Badugi hand is four distinct cards, got {len(cards)}: {list(cards)}")
    values = _VALUES or _bind()
    try:
        a, b, c, d = sorted(cards)
        if 0 <= a < b < c < d < 52:
            return values[COLEX_1[a] + COLEX_2[b] + COLEX_3[c] + COLEX_4[d]]
    except TypeError:
        pass  # not ints (a float index, a string): worded below
    raise CardError(f"a Badugi hand is four distinct cards 0..51: {list(cards)}")


def _bind() -> list[int]:
    _VALUES.extend(table().values)
    return _VALUES


def size_of(value: int) -> int:
    """How many cards the hand of this value plays (4 for a badugi)."""
    return HAND_SIZE - (table().score[value] >> SIZE_SHIFT)


def low_ranks_of(value: int) -> tuple[int, ...]:
    """The ranks the hand plays, ace-low (ace 0 .. king 12), highest first."""
    bits = table().score[value] & ((1 << SIZE_SHIFT) - 1)
    return tuple(r for r in range(12, -1, -1) if bits >> r & 1)


def playing_cards(cards: Cards | Sequence[int]) -> Cards:
    """The cards of the best subset (one of them when several tie), highest first."""
    value = rank(cards)
    size = size_of(value)
    for subset in combinations(cards, size):
        if (
            len({c >> 2 for c in subset}) == size
            and len({c & 3 for c in subset}) == size
            and sorted(((c >> 2) + 1) % 13 for c in subset) == sorted(low_ranks_of(value))
        ):
            return tuple(sorted(subset, key=lambda c: ((c >> 2) + 1) % 13, reverse=True))
    raise AssertionError(f"no subset plays value {value}")  # the table says one does


_LOW_CHARS = "A23456789TJQK"
_SIZE_WORDS = {3: "three-card", 2: "two-card", 1: "one-card"}


def describe_value(value: int) -> str:
    """A player's words: "4-card 6-high badugi", "three-card 5-4-2", the nuts said so."""
    ranks = low_ranks_of(value)
    if len(ranks) == HAND_SIZE:
        text = f"4-card {_LOW_CHARS[ranks[0]]}-high badugi"
        return f"{text}: the nuts" if value == 0 else text
    return f"{_SIZE_WORDS[len(ranks)]} " + "-".join(_LOW_CHARS[r] for r in ranks)


def describe(cards: Cards | Sequence[int]) -> str:
    return describe_value(rank(cards))


BATCH_CHUNK = 1 << 16  # rows per pass: the column temporaries stay in cache


def rank_batch(hands: npt.NDArray[np.integer]) -> npt.NDArray[np.int16]:
    """Values of the rows of an (N, 4) array of distinct card ints (not checked: hot path).

    The colex slot needs each row sorted: a five-exchange sorting network on the columns
    (``np.minimum``/``np.maximum``) does it about four times faster than ``np.sort`` along
    rows of four, measured.
    """
    import numpy as np

    values = table().array
    c1, c2, c3, c4 = colex_array()
    out = np.empty(len(hands), dtype=np.int16)
    for start in range(0, len(hands), BATCH_CHUNK):
        h = hands[start : start + BATCH_CHUNK]
        a, b, c, d = h[:, 0], h[:, 1], h[:, 2], h[:, 3]
        a, b = np.minimum(a, b), np.maximum(a, b)
        c, d = np.minimum(c, d), np.maximum(c, d)
        a, c = np.minimum(a, c), np.maximum(a, c)
        b, d = np.minimum(b, d), np.maximum(b, d)
        b, c = np.minimum(b, c), np.maximum(b, c)
        out[start : start + len(h)] = values[c1[a] + c2[b] + c3[c] + c4[d]]
    return out
