"""Why one hand beats another, in a player's words: the referee's reason in the drills.

"both 8-low; 8-6 beats 8-7 on the second card", "6-5-4-3-2 is a straight: in 2-7 it loses to
any no-pair hand".  Built on the rank tables, so the reason always agrees with ``rank``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine import badugi
from engine.cards import RANK_CHARS
from engine.ranking import Category, Ranking, category, describe, rank

_ORDINAL = ("first", "second", "third", "fourth", "fifth")
_PLURAL = ("deuces", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines",
           "tens", "jacks", "queens", "kings", "aces")  # fmt: skip
_SINGULAR = ("deuce", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
             "jack", "queen", "king", "ace")  # fmt: skip
_GAME = {Ranking.DEUCE_SEVEN: "2-7", Ranking.ACE_FIVE: "A-5", Ranking.HIGH: "high poker"}


def _order(ranks: Sequence[int], ranking: Ranking) -> list[int]:
    """Ranks as the comparison reads them: bigger groups first, then from the top (the ace
    at the bottom in A-5)."""

    def key(r: int) -> int:
        return (r + 1) % 13 if ranking is Ranking.ACE_FIVE else r

    counts = Counter(ranks)
    return sorted(ranks, key=lambda r: (-counts[r], -key(r)))


_BOTH = {
    Category.PAIR: "one pair",
    Category.TWO_PAIR: "two pair",
    Category.TRIPS: "three of a kind",
    Category.FULL_HOUSE: "full houses",
    Category.QUADS: "four of a kind",
    Category.FLUSH: "flushes",
    Category.STRAIGHT: "straights",
    Category.STRAIGHT_FLUSH: "straight flushes",
}
_DIFFERENT = {
    Category.HIGH_CARD: "no-pair hand",
    Category.PAIR: "pair",
    Category.TWO_PAIR: "two pair",
    Category.TRIPS: "three of a kind",
    Category.STRAIGHT: "straight",
    Category.FLUSH: "flush",
    Category.FULL_HOUSE: "full house",
    Category.QUADS: "four of a kind",
    Category.STRAIGHT_FLUSH: "straight flush",
}


def _dashed(ranks: Sequence[int]) -> str:
    return "-".join(RANK_CHARS[r] for r in ranks)


def _straight_top(ranks: Sequence[int]) -> int:
    s = sorted(ranks)
    return 3 if s == [0, 1, 2, 3, 12] else s[-1]


def _group_of(cat: Category, at: int) -> tuple[str, int]:
    """What the ``at``-th rank of the ordered hand is, and where its group starts."""
    layout = {
        Category.PAIR: [("pair", 0)] * 2 + [("kicker", 2)] * 3,
        Category.TWO_PAIR: [("top pair", 0)] * 2 + [("second pair", 2)] * 2 + [("kicker", 4)],
        Category.TRIPS: [("trips", 0)] * 3 + [("kicker", 3)] * 2,
        Category.FULL_HOUSE: [("trips", 0)] * 3 + [("pair", 3)] * 2,
        Category.QUADS: [("quads", 0)] * 4 + [("kicker", 4)],
    }[cat]
    return layout[at]


def _name(cards: Sequence[int], ordered: Sequence[int], ranking: Ranking) -> str:
    """``describe``, but naming a 2-7 straight or flush by its cards (the reason says why
    it loses)."""
    cat = category(cards, ranking)
    if ranking is Ranking.DEUCE_SEVEN and cat in (
        Category.STRAIGHT,
        Category.FLUSH,
        Category.STRAIGHT_FLUSH,
    ):
        return f"{_dashed(ordered)} {cat.label}"
    return describe(cards, ranking)


def explain(first: Sequence[int], second: Sequence[int], ranking: Ranking) -> str:
    """Why the better of two hands wins (or why they tie) under ``ranking``."""
    a, b = tuple(first), tuple(second)
    if rank(a, ranking) > rank(b, ranking):
        a, b = b, a
    if rank(a, ranking) == rank(b, ranking):
        return f"both {describe(a, ranking)}: a tie, suits never break ties"
    if ranking is Ranking.BADUGI:
        return _explain_badugi(rank(a, ranking), rank(b, ranking))
    ca, cb = category(a, ranking), category(b, ranking)
    oa, ob = _order([c >> 2 for c in a], ranking), _order([c >> 2 for c in b], ranking)
    low = ranking is not Ranking.HIGH
    side = "lower" if low else "higher"
    if ca is not cb:
        if ranking is Ranking.DEUCE_SEVEN and cb is Category.STRAIGHT:
            return f"{_dashed(ob)} is a straight: in 2-7 it loses to any no-pair hand"
        if ranking is Ranking.DEUCE_SEVEN and cb is Category.FLUSH:
            return f"{_dashed(ob)} is a flush: in 2-7 it loses to any straight or better"
        return (
            f"{_name(a, oa, ranking)} beats {_name(b, ob, ranking)}: "
            f"in {_GAME[ranking]} any {_DIFFERENT[ca]} beats any {_DIFFERENT[cb]}"
        )
    if ca in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        ta, tb = _straight_top(oa), _straight_top(ob)
        return (
            f"both {_BOTH[ca]}; {RANK_CHARS[ta]}-high beats {RANK_CHARS[tb]}-high: "
            f"the {side} one wins"
        )
    at = next(i for i in range(5) if oa[i] != ob[i])
    if ca in (Category.HIGH_CARD, Category.FLUSH):
        note = ""
        if ranking is Ranking.DEUCE_SEVEN and sorted(ob) == [0, 1, 2, 3, 12]:
            note = " (A-5-4-3-2 is ace high in 2-7, not a straight)"
        if at == 0:
            both = f"both {_BOTH[ca]}; " if ca is Category.FLUSH else ""
            return f"{both}{_dashed(oa)} beats {_dashed(ob)}: the {side} top card wins{note}"
        if ca is Category.FLUSH:
            both = "flushes"
        else:
            both = f"{RANK_CHARS[oa[0]]}-low" if low else f"{_SINGULAR[oa[0]]} high"
        return (
            f"both {both}; {_dashed(oa[: at + 1])} beats {_dashed(ob[: at + 1])} "
            f"on the {_ORDINAL[at]} card"
        )
    name, start = _group_of(ca, at)
    if name != "kicker":
        return f"both {_BOTH[ca]}; {_PLURAL[oa[at]]} beat {_PLURAL[ob[at]]}: the {side} {name} wins"
    return (
        f"both {describe(a, ranking)}; kickers {_dashed(oa[start:])} beat "
        f"{_dashed(ob[start:])} on the {_ORDINAL[at - start]} kicker"
    )


_LOW_CHARS = "A23456789TJQK"
_CARD_WORDS = {4: "four-card", 3: "three-card", 2: "two-card", 1: "one-card"}


def _explain_badugi(better: int, worse: int) -> str:
    """Badugi: more cards playing wins outright; the same number compare from the top."""
    oa, ob = badugi.low_ranks_of(better), badugi.low_ranks_of(worse)
    da, db = badugi.describe_value(better), badugi.describe_value(worse)
    if len(oa) != len(ob):
        return (
            f"{da} beats {db}: in Badugi any {_CARD_WORDS[len(oa)]} hand beats any "
            f"{_CARD_WORDS[len(ob)]} hand"
        )
    at = next(i for i in range(len(oa)) if oa[i] != ob[i])

    def dashed(ranks: Sequence[int]) -> str:
        return "-".join(_LOW_CHARS[r] for r in ranks)

    if at == 0:
        return f"{dashed(oa)} beats {dashed(ob)}: the lower top card wins"
    return (
        f"both {_LOW_CHARS[oa[0]]}-high {_CARD_WORDS[len(oa)]}; {dashed(oa[: at + 1])} beats "
        f"{dashed(ob[: at + 1])} on the {_ORDINAL[at]} card"
    )
