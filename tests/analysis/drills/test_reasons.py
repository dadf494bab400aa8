"""The drill's reasons in words, checked claim by claim against ``rank`` on many pairs.

Every reason ``engine.explain.explain`` gives has one of a few shapes; this test reads the
shape back and checks each thing it claims (which hand is named the winner, the cards it
quotes, where the two hands first differ, which way the comparison points, and that "any X
beats any Y" holds over the whole rank table) with ``rank`` and the category tables alone.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence

import pytest

from analysis.drills import showdown
from engine.cards import RANK_CHARS, Cards
from engine.explain import explain
from engine.ranking import (
    CLASS_COUNT,
    FIVE_CARD_RANKINGS,
    Category,
    Ranking,
    categories_for,
    category,
    describe,
    rank,
)

GAME = {Ranking.DEUCE_SEVEN: "2-7", Ranking.ACE_FIVE: "A-5", Ranking.HIGH: "high poker"}
ORDINAL = ("first", "second", "third", "fourth", "fifth")
PLURAL = ("deuces", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
          "jacks", "queens", "kings", "aces")  # fmt: skip
SINGULAR = ("deuce", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
            "queen", "king", "ace")  # fmt: skip
NAMES = {
    "no-pair hand": Category.HIGH_CARD, "pair": Category.PAIR, "two pair": Category.TWO_PAIR,
    "three of a kind": Category.TRIPS, "straight": Category.STRAIGHT, "flush": Category.FLUSH,
    "full house": Category.FULL_HOUSE, "four of a kind": Category.QUADS,
    "straight flush": Category.STRAIGHT_FLUSH,
}  # fmt: skip
GROUP_AT = {"pair": 0, "top pair": 0, "trips": 0, "quads": 0, "second pair": 2}
GROUP_AT_FULL = {"trips": 0, "pair": 3}


def key(r: int, ranking: Ranking) -> int:
    return (r + 1) % 13 if ranking is Ranking.ACE_FIVE else r


def ordered(cards: Cards, ranking: Ranking) -> list[int]:
    ranks = [c >> 2 for c in cards]
    counts = Counter(ranks)
    return sorted(ranks, key=lambda r: (-counts[r], -key(r, ranking)))


def dashed(ranks: Sequence[int]) -> str:
    return "-".join(RANK_CHARS[r] for r in ranks)


def span(cat: Category, ranking: Ranking) -> tuple[int, int]:
    values = [v for v, c in enumerate(categories_for(ranking)) if c is cat]
    return min(values), max(values)


def every_beats(better: Category, worse: Category, ranking: Ranking) -> bool:
    """Every hand of ``better`` beats every hand of ``worse`` in this ranking."""
    return span(better, ranking)[1] < span(worse, ranking)[0]


def beats(w: int, lo: int, ranking: Ranking, word: str) -> bool:
    """``w`` is the better card as the reason says (``word``: lower or higher)."""
    if ranking is Ranking.HIGH:
        return word == "higher" and key(w, ranking) > key(lo, ranking)
    return word == "lower" and key(w, ranking) < key(lo, ranking)


def straight_top(cards: Cards) -> int:
    ranks = sorted(c >> 2 for c in cards)
    return 3 if ranks == [0, 1, 2, 3, 12] else ranks[-1]


def name_of(cards: Cards, ranking: Ranking) -> str:
    cat = category(cards, ranking)
    if ranking is Ranking.DEUCE_SEVEN and cat in (
        Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH
    ):  # fmt: skip
        return f"{dashed(ordered(cards, ranking))} {cat.label}"
    return describe(cards, ranking)


def verify(a: Cards, b: Cards, ranking: Ranking) -> str:
    """Check the reason for ``a`` against ``b``; returns its shape's name."""
    text = explain(a, b, ranking)
    assert explain(b, a, ranking) == text
    ra, rb = rank(a, ranking), rank(b, ranking)
    if ra == rb:
        assert text == f"both {describe(a, ranking)}: a tie, suits never break ties"
        return "tie"
    w, lo = (a, b) if ra < rb else (b, a)
    cw, cl = category(w, ranking), category(lo, ranking)
    ow, ol = ordered(w, ranking), ordered(lo, ranking)
    assert "tie" not in text
    if m := re.fullmatch(r"(\S+) is a straight: in 2-7 it loses to any no-pair hand", text):
        assert ranking is Ranking.DEUCE_SEVEN and cl is Category.STRAIGHT and cw is not cl
        assert m[1] == dashed(ol) and every_beats(Category.HIGH_CARD, cl, ranking)
        return "straight loses"
    if m := re.fullmatch(r"(\S+) is a flush: in 2-7 it loses to any straight or better", text):
        assert ranking is Ranking.DEUCE_SEVEN and cl is Category.FLUSH and cw is not cl
        assert m[1] == dashed(ol) and every_beats(Category.STRAIGHT, cl, ranking)
        assert rank(w, ranking) <= span(Category.STRAIGHT, ranking)[1]
        return "flush loses"
    if m := re.fullmatch(r"(.+) beats (.+): in (.+) any (.+) beats any (.+)", text):
        assert m[1] == name_of(w, ranking) and m[2] == name_of(lo, ranking)
        assert m[3] == GAME[ranking]
        assert NAMES[m[4]] is cw and NAMES[m[5]] is cl and every_beats(cw, cl, ranking)
        return "category"
    if m := re.fullmatch(r"both (straights|straight flushes); (\w)-high beats (\w)-high: "
                         r"the (lower|higher) one wins", text):  # fmt: skip
        assert cw is cl and cw in (Category.STRAIGHT, Category.STRAIGHT_FLUSH)
        tw, tl = straight_top(w), straight_top(lo)
        assert (m[2], m[3]) == (RANK_CHARS[tw], RANK_CHARS[tl])
        assert (tw < tl) if m[4] == "lower" else (tw > tl)
        assert (m[4] == "higher") == (ranking is Ranking.HIGH)
        return "straights"
    if m := re.fullmatch(
        r"(both flushes; )?(\S+) beats (\S+): the (lower|higher) top card "
        r"wins( \(A-5-4-3-2 is ace high in 2-7, not a straight\))?",
        text,
    ):
        assert cw is cl and cw in (Category.HIGH_CARD, Category.FLUSH)
        assert bool(m[1]) == (cw is Category.FLUSH)
        assert (m[2], m[3]) == (dashed(ow), dashed(ol))
        assert beats(ow[0], ol[0], ranking, m[4])
        wheel = ranking is Ranking.DEUCE_SEVEN and sorted(ol) == [0, 1, 2, 3, 12]
        assert bool(m[5]) == wheel
        return "top card"
    if m := re.fullmatch(r"both (.+); (\S+) beats (\S+) on the (\w+) card", text):
        assert cw is cl and cw in (Category.HIGH_CARD, Category.FLUSH)
        at = ORDINAL.index(m[4])
        assert at >= 1 and ow[:at] == ol[:at] and ow[at] != ol[at]
        assert (m[2], m[3]) == (dashed(ow[: at + 1]), dashed(ol[: at + 1]))
        assert beats(ow[at], ol[at], ranking, "higher" if ranking is Ranking.HIGH else "lower")
        if cw is Category.FLUSH:
            assert m[1] == "flushes"
        else:
            # the shared top card: "8-low", or in words in high poker ("ace high")
            top = f"{SINGULAR[ow[0]]} high" if ranking is Ranking.HIGH else (
                f"{RANK_CHARS[ow[0]]}-low")  # fmt: skip
            assert m[1] == top
        return "nth card"
    if m := re.fullmatch(r"both (one pair|two pair|three of a kind|full houses|four of a kind); "
                         r"(\w+) beat (\w+): the (lower|higher) ([a-z ]+) wins", text):  # fmt: skip
        assert cw is cl
        at = (GROUP_AT_FULL if cw is Category.FULL_HOUSE else GROUP_AT)[m[5]]
        assert ow[:at] == ol[:at] and ow[at] != ol[at]
        assert (m[2], m[3]) == (PLURAL[ow[at]], PLURAL[ol[at]])
        assert beats(ow[at], ol[at], ranking, m[4])
        return "group"
    if m := re.fullmatch(r"both (.+); kickers (\S+) beat (\S+) on the (\w+) kicker", text):
        assert cw is cl and m[1] == describe(w, ranking)
        start = 5 - len(m[2].split("-"))
        at = start + ORDINAL.index(m[4])
        assert ow[:at] == ol[:at] and ow[at] != ol[at]
        assert (m[2], m[3]) == (dashed(ow[start:]), dashed(ol[start:]))
        assert beats(ow[at], ol[at], ranking, "higher" if ranking is Ranking.HIGH else "lower")
        return "kicker"
    raise AssertionError(f"a reason of no known shape: {text!r}")


def pairs(ranking: Ranking, rng: random.Random) -> list[tuple[Cards, Cards]]:
    """Random deals, plus close calls from the drill's own generators (most shapes need
    hands of one category)."""
    out = []
    for _ in range(1500):
        cards = rng.sample(range(52), 10)
        out.append((tuple(cards[:5]), tuple(cards[5:])))
    for topic in showdown.TOPICS[ranking]:
        for _ in range(250):
            h = showdown.generate(topic, ranking, 2, rng).hands
            out.append((h[0], h[1]))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("ranking", list(FIVE_CARD_RANKINGS))
def test_every_reason_agrees_with_rank(ranking: Ranking) -> None:
    rng = random.Random(2026)
    shapes = Counter(verify(a, b, ranking) for a, b in pairs(ranking, rng))
    expected = {"tie", "category", "top card", "nth card", "group", "kicker"}
    if ranking is Ranking.DEUCE_SEVEN:
        expected |= {"straight loses", "flush loses", "straights"}
    if ranking is Ranking.HIGH:
        expected |= {"straights"}
    assert set(shapes) >= expected, shapes


@pytest.mark.parametrize("ranking", list(FIVE_CARD_RANKINGS))
def test_every_category_pair_is_explained(ranking: Ranking) -> None:
    """One hand of each category against one of each other: all shapes hold."""
    cats = categories_for(ranking)
    rng = random.Random(5)
    firsts: dict[Category, int] = {}
    for v in range(CLASS_COUNT[ranking]):
        firsts.setdefault(cats[v], v)
    hands = [showdown.hand_for(v, ranking, rng, ()) for v in firsts.values()]
    for a in hands:
        for b in hands:
            if not set(a) & set(b):
                verify(a, b, ranking)


def test_the_issue_examples() -> None:
    from engine.cards import parse_cards

    d27 = Ranking.DEUCE_SEVEN
    assert explain(parse_cards("8s6d4h3c2s"), parse_cards("8h7c4d3s2h"), d27) == (
        "both 8-low; 8-6 beats 8-7 on the second card"
    )
    assert explain(parse_cards("6s5d4h3c2s"), parse_cards("KsQdJh9c8s"), d27) == (
        "6-5-4-3-2 is a straight: in 2-7 it loses to any no-pair hand")  # fmt: skip
