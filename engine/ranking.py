"""The three five-card rankings of RULES.md, as lookup tables built once, on first use.

A rank is a small int and SMALLER IS BETTER in every ranking (deuce-to-seven low, ace-to-five
low and high alike), so callers never need to know which way a game points: the winner is
the minimum.  Equal ranks tie: suits never break ties.

Why tables: ranking sits in the hot loops of the equity simulator and the drills.  A hand's
key is the sum of a per-card value (``CARD_KEY``): the rank part is a B5 set (every multiset
of five ranks has a different sum, so the sum identifies the rank multiset exactly) and the
suit part counts suits in base 6 (so "all five of one suit" is visible in the low bits).
``(rank multiset, flush)`` is then one index into a table holding the dense rank (0 = the
best hand of the ranking).  The numpy batch evaluator (engine/sim/batch.py) uses the same key.

Why on first use: building the tables costs about 0.4 s of processor time, and most commands
that import the engine (``drawlab stats``, the dashboard's statistics pages) never rank a
hand.  The hot path pays nothing for it: ``rank`` reads a plain dict that the first call
fills, and only a missing key (tables not yet built) takes the slow branch.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Sequence
from enum import IntEnum, StrEnum
from functools import cache
from itertools import combinations_with_replacement
from math import comb

from engine import badugi
from engine.cards import RANK_CHARS, CardError, Cards
from engine.record import Game


class Ranking(StrEnum):
    DEUCE_SEVEN = "27"
    ACE_FIVE = "a5"
    HIGH = "high"
    BADUGI = "badugi"


# The rankings of five-card hands (tables below); Badugi ranks four cards (engine/badugi.py).
FIVE_CARD_RANKINGS = (Ranking.DEUCE_SEVEN, Ranking.ACE_FIVE, Ranking.HIGH)


def hand_size_of(ranking: Ranking) -> int:
    """Cards in a hand under this ranking: four in Badugi, five elsewhere."""
    return badugi.HAND_SIZE if ranking is Ranking.BADUGI else 5


class Category(IntEnum):
    """Hand classes in high-poker order; each ranking orders them its own way."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    TRIPS = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    QUADS = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        return self.name.lower().replace("_", " ")


_RANKING_OF_GAME = {
    Game.TRIPLE_DRAW_27: Ranking.DEUCE_SEVEN,
    Game.SINGLE_DRAW_27: Ranking.DEUCE_SEVEN,
    Game.TRIPLE_DRAW_A5: Ranking.ACE_FIVE,
    Game.SINGLE_DRAW_A5: Ranking.ACE_FIVE,
    Game.FIVE_CARD_DRAW: Ranking.HIGH,
    Game.BADUGI: Ranking.BADUGI,
}


def ranking_for(game: Game) -> Ranking:
    return _RANKING_OF_GAME[game]


# Greedy B5 set over the 13 ranks (deuce..ace): all 6,175 multisets of five ranks (no rank
# more than four times) have distinct sums.  The table build below re-checks it.
RANK_WEIGHTS = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
SUIT_BITS = 11  # suit counts in base 6: at most 5 * 6**3 = 1080 < 2**11
SUIT_MASK = (1 << SUIT_BITS) - 1
SUIT_CODES = (1, 6, 36, 216)
FLUSH_SUIT_SUMS = frozenset(5 * code for code in SUIT_CODES)
MAX_RANK_SUM = 4 * RANK_WEIGHTS[12] + RANK_WEIGHTS[11]
TABLE_SIZE = 2 * (MAX_RANK_SUM + 1)  # index = rank_sum * 2 + flush

# A dict, not a tuple: a negative or too-large int is a KeyError, not a silent wrap-around.
CARD_KEY: dict[int, int] = {
    r * 4 + s: (RANK_WEIGHTS[r] << SUIT_BITS) + SUIT_CODES[s] for r in range(13) for s in range(4)
}

RankMultiset = tuple[int, ...]  # five ranks 0..12, descending


def _groups(ranks: Sequence[int]) -> tuple[int, ...]:
    """Ranks ordered as poker compares them: bigger groups first, then higher rank.

    Counted with ``list.count``, not ``Counter``: the tables below are built from every
    rank multiset at import, in every process, and ``Counter`` was half of that time.
    """
    count = list(ranks).count
    return tuple(sorted(ranks, key=lambda r: (-count(r), -r)))


_SHAPES = {
    (1, 1, 1, 1, 1): Category.HIGH_CARD,
    (2, 1, 1, 1): Category.PAIR,
    (2, 2, 1): Category.TWO_PAIR,
    (3, 1, 1): Category.TRIPS,
    (3, 2): Category.FULL_HOUSE,
    (4, 1): Category.QUADS,
}


def _pattern_category(ranks: Sequence[int]) -> Category:
    count = list(ranks).count
    return _SHAPES[tuple(sorted((count(r) for r in set(ranks)), reverse=True))]


def _straight_top(ranks: Sequence[int], wheel: bool) -> int | None:
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return None
    if distinct[4] - distinct[0] == 4:
        return distinct[4]
    if wheel and distinct == [0, 1, 2, 3, 12]:
        return 3
    return None


def _high_key(ranks: RankMultiset, flush: bool, wheel: bool) -> tuple[Category, tuple[int, ...]]:
    """High-poker strength (bigger is stronger); ``wheel``: A-2-3-4-5 counts as a straight."""
    top = _straight_top(ranks, wheel)
    if top is not None:
        return (Category.STRAIGHT_FLUSH if flush else Category.STRAIGHT, (top,))
    if flush:
        return (Category.FLUSH, _groups(ranks))
    return (_pattern_category(ranks), _groups(ranks))


def _ace_five_key(ranks: RankMultiset) -> tuple[Category, tuple[int, ...]]:
    """Ace-to-five weakness (smaller is better): the ace is the lowest card, no straights or
    flushes, and pairs are bad."""
    low = [(r + 1) % 13 for r in ranks]  # ace 0, deuce 1, ... king 12
    return (_pattern_category(ranks), _groups(low))


def _classes() -> list[tuple[RankMultiset, bool]]:
    """Every (rank multiset, flush) a real five-card hand can have."""
    out: list[tuple[RankMultiset, bool]] = []
    for combo in combinations_with_replacement(range(12, -1, -1), 5):
        if combo.count(combo[2]) > 4:  # sorted: five of a rank would hold the middle one
            continue
        out.append((combo, False))
        if len(set(combo)) == 5:
            out.append((combo, True))
    return out


def _table_index(ranks: Iterable[int], flush: bool) -> int:
    return sum(RANK_WEIGHTS[r] for r in ranks) * 2 + int(flush)


class _Tables:
    """One ranking's tables: table index -> dense rank, dense rank -> category, and one
    (ranks, flush) of each rank."""

    def __init__(self, ranking: Ranking) -> None:
        classes = _checked_classes()
        if ranking is Ranking.HIGH:
            keyed = [(_high_key(r, f, wheel=True), r, f) for r, f in classes]
            keyed.sort(key=lambda k: k[0], reverse=True)
        elif ranking is Ranking.DEUCE_SEVEN:
            keyed = [(_high_key(r, f, wheel=False), r, f) for r, f in classes]
            keyed.sort(key=lambda k: k[0])
        else:
            keyed = [(_ace_five_key(r), r, f) for r, f in classes]
            keyed.sort(key=lambda k: k[0])
        table: dict[int, int] = {}
        categories: list[Category] = []
        examples: list[tuple[RankMultiset, bool]] = []
        previous: object = None
        for key, ranks, flush in keyed:
            if key != previous:
                categories.append(key[0])
                examples.append((ranks, flush))
                previous = key
            table[_table_index(ranks, flush)] = len(categories) - 1
        if len(categories) != CLASS_COUNT[ranking]:
            raise AssertionError(
                f"{len(categories)} {ranking} values, expected {CLASS_COUNT[ranking]}"
            )
        self.value = table
        self.category = categories
        self.example = examples


@cache
def _checked_classes() -> list[tuple[RankMultiset, bool]]:
    """``_classes``, made once, their table indices checked distinct."""
    classes = _classes()
    indices = [_table_index(ranks, flush) for ranks, flush in classes]
    if len(set(indices)) != len(indices):
        raise AssertionError("RANK_WEIGHTS is not a B5 set: two rank multisets collide")
    return classes


_BUILT: dict[Ranking, _Tables] = {}  # each ranking's tables, once something needs them
# ranking -> table index -> rank, and rank -> category: exact dicts (the interpreter's fast
# subscript), empty until _tables() fills them.
_VALUE: dict[Ranking, dict[int, int]] = {}
_CATEGORY: dict[Ranking, list[Category]] = {}


def _tables(ranking: Ranking) -> _Tables:
    """A ranking's tables, built by the first caller that needs them: only that ranking's
    (a third of the 0.13 s all three took, which every worker of ``drawlab verify`` paid
    at its first showdown, though a file of 2-7 hands needs one)."""
    built = _BUILT.get(ranking)
    if built is None:
        built = _BUILT[ranking] = _Tables(ranking)
        _VALUE[ranking] = built.value
        _CATEGORY[ranking] = built.category
    return built


# Number of distinct rank values, known without the tables: every multiset of five of the 13
# ranks but five of a kind (which cannot be dealt) is one A-5 value (no flushes or straights
# there), and 2-7 and high add one value per flush of five distinct ranks: high 7462,
# 2-7 7462, A-5 6175; Badugi 1092 four-card values.  ``_tables`` checks them.
_RANK_MULTISETS = comb(13 + 5 - 1, 5) - 13
CLASS_COUNT: dict[Ranking, int] = {
    Ranking.DEUCE_SEVEN: _RANK_MULTISETS + comb(13, 5),
    Ranking.ACE_FIVE: _RANK_MULTISETS,
    Ranking.HIGH: _RANK_MULTISETS + comb(13, 5),
    Ranking.BADUGI: badugi.CLASS_COUNT,
}


def table_for(ranking: Ranking) -> dict[int, int]:
    """The raw table (index ``rank_sum * 2 + flush`` -> rank, for every index a hand can
    have), for the batch evaluator."""
    return dict(_tables(ranking).value)


def categories_for(ranking: Ranking) -> list[Category]:
    """Rank value -> its category, for the batch evaluator and the drills."""
    return list(_tables(ranking).category)


def rank(cards: Cards | Sequence[int], ranking: Ranking) -> int:
    """The rank of five distinct cards (four in Badugi): smaller is better, equal is a tie."""
    if len(cards) != 5 or len(set(cards)) != 5 or ranking is Ranking.BADUGI:
        if ranking is Ranking.BADUGI:
            return badugi.rank(cards)
        raise CardError(f"a hand is five distinct cards, got {len(cards)}: {list(cards)}")
    try:
        total = (
            CARD_KEY[cards[0]]
            + CARD_KEY[cards[1]]
            + CARD_KEY[cards[2]]
            + CARD_KEY[cards[3]]
            + CARD_KEY[cards[4]]
        )
    except (KeyError, TypeError):
        raise CardError(f"not card numbers 0..51: {list(cards)}") from None
    index = (total >> SUIT_BITS) * 2 + ((total & SUIT_MASK) in FLUSH_SUIT_SUMS)
    try:
        return _VALUE[ranking][index]
    except KeyError:  # the first hand ranked: no tables yet (every real index is in them)
        return _tables(ranking).value[index]


def category(cards: Cards | Sequence[int], ranking: Ranking) -> Category:
    """The hand's class as this ranking sees it (A-5 knows no straights or flushes).

    Badugi has no five-card classes: ValueError (``engine.badugi.size_of`` says how many
    cards a Badugi hand plays)."""
    if ranking is Ranking.BADUGI:
        raise ValueError("Badugi hands have no five-card category: see engine.badugi.size_of")
    value = rank(cards, ranking)
    try:
        return _CATEGORY[ranking][value]
    except KeyError:  # no tables yet
        return _tables(ranking).category[value]


def category_of_rank(value: int, ranking: Ranking) -> Category:
    try:
        return _CATEGORY[ranking][value]
    except KeyError:  # no tables yet
        return _tables(ranking).category[value]


def winners(hands: Sequence[Cards | Sequence[int]], ranking: Ranking) -> list[int]:
    """0-based indices of the best hand(s), all of them when they tie."""
    if not hands:
        return []
    values = [rank(h, ranking) for h in hands]
    best = min(values)
    return [i for i, v in enumerate(values) if v == best]


def example_hand(value: int, ranking: Ranking) -> tuple[RankMultiset, bool]:
    """One (ranks high to low, flush) that has this rank value: for tests and drills."""
    return _tables(ranking).example[value]


def random_hand(
    value: int, ranking: Ranking, rng: random.Random, avoid: Collection[int] = ()
) -> Cards:
    """A random five-card hand with this rank value, none of its cards in ``avoid``: for
    drills that want a given class ("a rough 8-low", "a wheel in 2-7").  CardError when the
    avoided cards leave no such hand."""
    ranks, flush = example_hand(value, ranking)
    flush = flush and ranking is not Ranking.ACE_FIVE  # A-5 ignores suits altogether
    blocked = set(avoid)
    distinct = len(set(ranks)) == 5
    for _ in range(200):
        if flush:
            suit = rng.randrange(4)
            suits = [suit] * 5
        else:
            suits = []
            for i, r in enumerate(ranks):
                taken = {suits[j] for j in range(i) if ranks[j] == r}
                suits.append(rng.choice([s for s in range(4) if s not in taken]))
            if distinct and ranking is not Ranking.ACE_FIVE and len(set(suits)) == 1:
                continue  # that would be the flush of these ranks, another class
        cards = tuple(r * 4 + s for r, s in zip(ranks, suits, strict=True))
        if not blocked.intersection(cards):
            order = list(cards)
            rng.shuffle(order)
            return tuple(order)
    raise CardError(f"no hand of rank {value} avoids {sorted(blocked)}")


# --- descriptions ---------------------------------------------------------------------------

_SINGULAR = (
    "deuce",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)
_PLURAL = (
    "deuces",
    "threes",
    "fours",
    "fives",
    "sixes",
    "sevens",
    "eights",
    "nines",
    "tens",
    "jacks",
    "queens",
    "kings",
    "aces",
)


def _dashed(ranks: Iterable[int], ace_low: bool = False) -> str:
    ordered = sorted(ranks, key=lambda r: (r + 1) % 13 if ace_low else r, reverse=True)
    return "-".join("A" if ace_low and r == 12 else RANK_CHARS[r] for r in ordered)


def _made_hand(cat: Category, ranks: Sequence[int]) -> str:
    """Pairs and up, said the same way in every ranking."""
    g = _groups(ranks)
    if cat is Category.PAIR:
        return f"pair of {_PLURAL[g[0]]}"
    if cat is Category.TWO_PAIR:
        return f"two pair, {_PLURAL[g[0]]} and {_PLURAL[g[2]]}"
    if cat is Category.TRIPS:
        return f"three {_PLURAL[g[0]]}"
    if cat is Category.FULL_HOUSE:
        return f"{_PLURAL[g[0]]} full of {_PLURAL[g[3]]}"
    return f"four {_PLURAL[g[0]]}"


def describe(cards: Cards | Sequence[int], ranking: Ranking) -> str:
    """A player's words for the hand: "8-7-5-4-3", "pair of deuces", "7-5-4-3-2: the nuts",
    "straight: loses in 2-7"; in Badugi "4-card 6-high badugi", "three-card 5-4-2"."""
    if ranking is Ranking.BADUGI:
        return badugi.describe(cards)
    value = rank(cards, ranking)
    cat = category_of_rank(value, ranking)
    ranks = [c >> 2 for c in cards]
    if ranking is Ranking.ACE_FIVE:
        if cat is Category.HIGH_CARD:
            text = _dashed(ranks, ace_low=True)
            return f"{text}: the nuts" if value == 0 else text
        return _made_hand(cat, ranks)
    if ranking is Ranking.DEUCE_SEVEN:
        if cat is Category.HIGH_CARD:
            text = _dashed(ranks)
            if value == 0:
                return f"{text}: the nuts"
            if sorted(ranks) == [0, 1, 2, 3, 12]:
                return f"{text}: ace high, not a straight in 2-7"
            return text
        if cat in (Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH):
            return f"{cat.label}: loses in 2-7"
        return _made_hand(cat, ranks)
    top = _straight_top(ranks, wheel=True)
    if cat is Category.STRAIGHT_FLUSH:
        return "royal flush" if top == 12 else f"straight flush, {_SINGULAR[top or 0]} high"
    if cat is Category.STRAIGHT:
        return f"straight, {_SINGULAR[top or 0]} high"
    if cat is Category.FLUSH:
        return f"flush, {_dashed(ranks)}"
    if cat is Category.HIGH_CARD:
        return f"{_SINGULAR[max(ranks)]} high, {_dashed(ranks)}"
    return _made_hand(cat, ranks)
