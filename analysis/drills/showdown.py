"""The "which hand wins" drill: 2 to 6 five-card hands, the player names every winner.

The engine is the referee: the answer is ``engine.ranking.winners`` and the reason in words
is ``engine.explain.explain`` for the best hand against each other one.  Questions come from
random deals, from close calls built on purpose (one generator per topic, each building
hands from rank values, so a generator produces what its topic says by construction), and
from the player's own showdowns (``analysis.drills.own``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import cache

from engine import badugi
from engine.cards import CardError, Cards
from engine.explain import explain
from engine.ranking import (
    CLASS_COUNT,
    Category,
    Ranking,
    categories_for,
    example_hand,
    hand_size_of,
    rank,
    winners,
)

RANDOM = "random"
SAME_CATEGORY = "same_category"
SAME_TOP = "same_top"
WHEEL = "wheel"
LOOKS_GOOD = "looks_good"
TIE = "tie"
FOUR_VS_THREE = "four_vs_three"
OWN = "own"

TOPIC_LABELS = {
    RANDOM: "random deals",
    SAME_CATEGORY: "same category",
    SAME_TOP: "same top card",
    WHEEL: "wheel traps",
    LOOKS_GOOD: "straights and flushes that look good",
    TIE: "ties",
    FOUR_VS_THREE: "rough badugis against good three-card hands",
    OWN: "own showdowns",
}

# Generated topics per ranking (``OWN`` joins them when the database has showdowns).
TOPICS: dict[Ranking, tuple[str, ...]] = {
    Ranking.DEUCE_SEVEN: (RANDOM, SAME_CATEGORY, SAME_TOP, WHEEL, LOOKS_GOOD, TIE),
    Ranking.ACE_FIVE: (RANDOM, SAME_CATEGORY, SAME_TOP, LOOKS_GOOD, TIE),
    Ranking.HIGH: (RANDOM, SAME_CATEGORY, SAME_TOP, WHEEL, TIE),
    Ranking.BADUGI: (RANDOM, SAME_TOP, FOUR_VS_THREE, TIE),
}

# Hands per question at levels 1..5: (fewest, most).
HANDS_AT_LEVEL = ((2, 2), (2, 3), (3, 3), (3, 4), (4, 6))

WHEEL_RANKS = (12, 3, 2, 1, 0)  # A-5-4-3-2


def check_table(hands: Sequence[Cards], names: Sequence[str]) -> None:
    """What every showdown question needs, whatever ranks the hands: 2 to 6 named hands
    sharing no card."""
    if not 2 <= len(hands) <= 6:
        raise ValueError(f"2 to 6 hands, got {len(hands)}")
    if len(names) != len(hands):
        raise ValueError("one name per hand")
    used = [c for h in hands for c in h]
    if len(set(used)) != len(used):
        raise CardError("a card appears in two hands")


@dataclass(frozen=True)
class ShowdownQuestion:
    """Hands to compare.  ``names``: "Hand 1".. for generated questions, the players' names
    (untrusted text) for the player's own showdowns; ``source``: "generated" or where the
    hand came from."""

    ranking: Ranking
    topic: str
    hands: tuple[Cards, ...]
    names: tuple[str, ...]
    source: str = "generated"

    def __post_init__(self) -> None:
        check_table(self.hands, self.names)
        for h in self.hands:
            rank(h, self.ranking)  # five distinct cards or CardError

    @property
    def winners(self) -> frozenset[int]:
        return frozenset(winners(self.hands, self.ranking))


@dataclass(frozen=True)
class ShowdownFeedback:
    correct: bool
    winners: frozenset[int]
    picked: frozenset[int]
    reasons: tuple[str, ...]


def reasons(q: ShowdownQuestion) -> tuple[str, ...]:
    """One line per other hand: why the (first) best hand beats it, or ties with it."""
    values = [rank(h, q.ranking) for h in q.hands]
    order = sorted(range(len(q.hands)), key=lambda i: (values[i], i))
    best = order[0]
    out = []
    for i in order[1:]:
        link = "and" if values[i] == values[best] else "over"
        why = explain(q.hands[best], q.hands[i], q.ranking)
        out.append(f"{q.names[best]} {link} {q.names[i]}: {why}")
    return tuple(out)


def check(q: ShowdownQuestion, picked: Collection[int]) -> ShowdownFeedback:
    """Right when the picked hands are exactly the winners (every one of them on a tie)."""
    chosen = frozenset(picked)
    right = q.winners
    return ShowdownFeedback(chosen == right, right, chosen, reasons(q))


# --- rank values grouped for the generators -------------------------------------------


def _low(r: int, ranking: Ranking) -> int:
    """A rank in the order the ranking reads a no-pair hand (the ace lowest in A-5)."""
    return (r + 1) % 13 if ranking is Ranking.ACE_FIVE else r


@cache
def values_of(ranking: Ranking, cat: Category) -> tuple[int, ...]:
    """Every rank value of one category, best first."""
    cats = categories_for(ranking)
    return tuple(v for v in range(CLASS_COUNT[ranking]) if cats[v] is cat)


def top_of(value: int, ranking: Ranking) -> int:
    """The top card of a no-pair value, in the ranking's order (A-5: the ace is 0)."""
    ranks, _ = example_hand(value, ranking)
    return max(_low(r, ranking) for r in ranks)


@cache
def no_pair_by_top(ranking: Ranking) -> dict[int, tuple[int, ...]]:
    """No-pair rank values grouped by their top card."""
    groups: dict[int, list[int]] = {}
    for v in values_of(ranking, Category.HIGH_CARD):
        groups.setdefault(top_of(v, ranking), []).append(v)
    return {t: tuple(vs) for t, vs in groups.items()}


def value_of(ranks: Sequence[int], flush: bool, ranking: Ranking) -> int:
    """The rank value of five ranks, suited or not (a hand built to look it up)."""
    suits = [0] * 5 if flush else [0, 1, 2, 3, 0]
    if not flush and len(set(ranks)) < 5:
        suits = [0, 1, 2, 3, 1]  # paired ranks: suits chosen so no card repeats
        seen: dict[int, int] = {}
        for i, r in enumerate(ranks):
            suits[i] = seen.get(r, 0)
            seen[r] = suits[i] + 1
    return rank(tuple(r * 4 + s for r, s in zip(ranks, suits, strict=True)), ranking)


# --- generators -------------------------------------------------------------------------

Gen = Callable[[Ranking, int, random.Random], list[Cards]]


def hand_for(value: int, ranking: Ranking, rng: random.Random, used: Collection[int]) -> Cards:
    """A random hand of this rank value among the free cards; CardError when none is left.

    Like ``engine.ranking.random_hand`` but choosing among the free suits, so a crowded
    deck (six low hands) fails at once instead of after many random tries."""
    ranks, flush = example_hand(value, ranking)
    blocked = set(used)
    if flush and ranking is not Ranking.ACE_FIVE:
        suits = [s for s in range(4) if not {r * 4 + s for r in ranks} & blocked]
        if not suits:
            raise CardError(f"no free suit for a flush of rank {value}")
        suit = rng.choice(suits)
        cards = [r * 4 + suit for r in ranks]
    else:
        must_mix = len(set(ranks)) == 5 and ranking is not Ranking.ACE_FIVE
        for _ in range(20):
            cards = []
            for r in ranks:
                free = [r * 4 + s for s in range(4) if r * 4 + s not in blocked]
                free = [c for c in free if c not in cards]
                if not free:
                    raise CardError(f"no free {r} for a hand of rank {value}")
                cards.append(rng.choice(free))
            if not must_mix or len({c & 3 for c in cards}) > 1:
                break
        else:
            raise CardError(f"only a flush is free for rank {value}")
    rng.shuffle(cards)
    return tuple(cards)


def _hands_of(values: Sequence[int], ranking: Ranking, rng: random.Random) -> list[Cards]:
    """One random hand per value, no card twice."""
    used: list[int] = []
    out: list[Cards] = []
    for v in values:
        h = hand_for(v, ranking, rng, used)
        used.extend(h)
        out.append(h)
    return out


def _window(values: Sequence[int], n: int, rng: random.Random, width: int = 24) -> list[int]:
    """``n`` distinct values close together (neighbours in ``values``), when there are."""
    if len(values) <= n:
        return [rng.choice(values) for _ in range(n)]
    start = rng.randrange(0, max(1, len(values) - width))
    window = values[start : start + width]
    return rng.sample(list(window), n) if len(window) >= n else list(window)[:n]


def gen_random(ranking: Ranking, n: int, rng: random.Random) -> list[Cards]:
    size = hand_size_of(ranking)
    cards = rng.sample(range(52), size * n)
    return [tuple(cards[size * i : size * i + size]) for i in range(n)]


_CATEGORY_WEIGHTS = {
    Ranking.DEUCE_SEVEN: {Category.HIGH_CARD: 8, Category.PAIR: 3, Category.TWO_PAIR: 1,
                          Category.STRAIGHT: 1, Category.FLUSH: 1},
    Ranking.ACE_FIVE: {Category.HIGH_CARD: 8, Category.PAIR: 3, Category.TWO_PAIR: 1,
                       Category.TRIPS: 1},
    Ranking.HIGH: {Category.HIGH_CARD: 3, Category.PAIR: 3, Category.TWO_PAIR: 2,
                   Category.TRIPS: 1, Category.STRAIGHT: 2, Category.FLUSH: 2,
                   Category.FULL_HOUSE: 1},
}  # fmt: skip


def gen_same_category(ranking: Ranking, n: int, rng: random.Random) -> list[Cards]:
    """Every hand of one category, with rank values close together."""
    weights = _CATEGORY_WEIGHTS[ranking]
    cat = rng.choices(list(weights), weights=list(weights.values()))[0]
    values = values_of(ranking, cat)
    if cat is Category.HIGH_CARD and ranking is not Ranking.HIGH:
        values = values[:600]  # the lows players actually compare (to about a queen)
    width = 24 if n <= 3 else len(values)  # many hands of one pair rank cannot exist
    return _hands_of(_window(values, n, rng, width=width), ranking, rng)


def gen_same_top(ranking: Ranking, n: int, rng: random.Random) -> list[Cards]:
    """No-pair hands (never a flush: that is another category) that share their top card,
    so the decision comes further down (Badugi: hands of one size and one top card)."""
    if ranking is Ranking.BADUGI:
        return _badugi_hands(_window(_badugi_same_top(n, rng), n, rng, width=12), rng)
    groups = {t: vs for t, vs in no_pair_by_top(ranking).items() if len(vs) >= n}
    if ranking is not Ranking.HIGH:
        groups = {t: vs for t, vs in groups.items() if t <= 10}  # 7-low .. queen-low
    top = rng.choice(sorted(groups))
    return _hands_of(_window(groups[top], n, rng, width=12), ranking, rng)


def gen_wheel(ranking: Ranking, n: int, rng: random.Random) -> list[Cards]:
    """A-5-4-3-2 (not suited) against hands near it: in 2-7 it is ace high, so king-high and
    queen-high lows beat it and pairs lose to it; in high poker it is the smallest straight."""
    wheel = value_of(WHEEL_RANKS, False, ranking)
    others: list[int] = []
    for _ in range(n - 1):
        if ranking is Ranking.DEUCE_SEVEN:
            if rng.random() < 0.6:
                top = rng.choice((10, 11))  # queen- or king-high
                pool = list(no_pair_by_top(ranking)[top])
            else:
                pool = list(values_of(ranking, Category.PAIR)[:300])  # low pairs
        else:
            cat = rng.choice((Category.STRAIGHT, Category.TRIPS, Category.TWO_PAIR))
            pool = [v for v in values_of(ranking, cat) if v != wheel]  # one wheel only
        others.append(rng.choice(pool))
    return _hands_of([wheel, *others], ranking, rng)


def _suited_hand(ranks: Sequence[int], rng: random.Random, avoid: Collection[int]) -> Cards:
    """These five ranks all in one suit that avoids the used cards."""
    suits = [s for s in range(4) if not {r * 4 + s for r in ranks} & set(avoid)]
    if not suits:
        raise CardError("no suit is free for that flush")
    s = rng.choice(suits)
    return tuple(r * 4 + s for r in ranks)


def gen_looks_good(ranking: Ranking, n: int, rng: random.Random) -> list[Cards]:
    """2-7: a smooth straight or flush (it loses to any pair) against rough lows and pairs.
    A-5: a suited or straight low (which counts as a plain low there) against lows and pairs."""
    if ranking is Ranking.DEUCE_SEVEN:
        if rng.random() < 0.5:
            top = rng.randrange(4, 8)  # 6-high .. 9-high straight
            pool = [value_of(tuple(range(top, top - 5, -1)), False, ranking)]
        else:
            pool = [v for v in values_of(ranking, Category.FLUSH) if top_of(v, ranking) <= 8]
        trap = rng.choice(pool)
        others = []
        for _ in range(n - 1):
            if rng.random() < 0.6:
                top = rng.choice((9, 10, 11))  # jack- to king-high
                others.append(rng.choice(no_pair_by_top(ranking)[top]))
            else:
                others.append(rng.choice(values_of(ranking, Category.PAIR)))
        return _hands_of([trap, *others], ranking, rng)
    # build the trap by hand (random_hand ignores suits there)
    if rng.random() < 0.5:
        ranks: tuple[int, ...] = rng.choice((WHEEL_RANKS, (4, 3, 2, 1, 0)))
        trap_cards = _suited_hand(ranks, rng, ()) if rng.random() < 0.5 else None
        if trap_cards is None:
            trap_cards = hand_for(value_of(ranks, False, ranking), ranking, rng, ())
    else:
        lows = [12, *range(7)]  # ace..8 as 2-7 ranks
        picked = sorted(rng.sample(lows, 5), key=lambda r: -_low(r, ranking))
        trap_cards = _suited_hand(picked, rng, ())
    used = list(trap_cards)
    hands = [trap_cards]
    for _ in range(n - 1):
        if rng.random() < 0.7:
            top = rng.choice((6, 7, 8, 9, 10))  # 7- to jack-low
            v = rng.choice(no_pair_by_top(ranking)[top])
        else:
            v = rng.choice(values_of(ranking, Category.PAIR))
        h = hand_for(v, ranking, rng, used)
        used.extend(h)
        hands.append(h)
    return hands


def gen_tie(ranking: Ranking, n: int, rng: random.Random) -> list[Cards]:
    """Two (sometimes three) hands of the same rank value that win, the others close behind."""
    if ranking is Ranking.BADUGI:
        at = rng.randrange(300)  # badugis and good three-card hands: what players compare
        tied = 3 if n >= 4 and rng.random() < 0.3 else 2
        behind = rng.sample(range(at + 1, at + 200), n - tied)
        return _badugi_hands([at] * tied + behind, rng)
    pool = values_of(ranking, Category.HIGH_CARD)  # ties of paired hands rarely fit a deck
    if ranking is not Ranking.HIGH:
        pool = pool[:1000]
    at = rng.randrange(len(pool) // 2)
    best = pool[at]
    tied = 3 if n >= 4 and rng.random() < 0.3 else 2
    behind = rng.sample(pool[at + 1 :], n - tied)  # anywhere behind: top cards run out
    return _hands_of([best] * tied + behind, ranking, rng)


# --- Badugi: hands built from a value's played ranks ------------------------------------


def _badugi_same_top(n: int, rng: random.Random) -> list[int]:
    """The values of one size (four or three cards) and one top card, best first."""
    size = rng.choice((4, 4, 3))
    top = rng.randrange(5 if size == 4 else 4, 12)  # a 6- to queen-high (ace 0)
    return [
        v
        for v in range(badugi.CLASS_COUNT)
        if badugi.size_of(v) == size and badugi.low_ranks_of(v)[0] == top
    ]


def gen_four_vs_three(ranking: Ranking, n: int, rng: random.Random) -> list[Cards]:
    """A rough four-card badugi (ten- to king-high) against smooth three-card hands (to the
    5): the badugi wins, however bad it looks."""
    rough = [v for v in range(badugi.CLASS_COUNT) if badugi.size_of(v) == 4]
    rough = [v for v in rough if badugi.low_ranks_of(v)[0] >= 9]
    smooth = [
        v
        for v in range(badugi.CLASS_COUNT)
        if badugi.size_of(v) == 3 and badugi.low_ranks_of(v)[0] <= 4
    ]
    return _badugi_hands([rng.choice(rough), *rng.sample(smooth, n - 1)], rng)


def badugi_hand_for(value: int, rng: random.Random, used: Collection[int]) -> Cards:
    """A random four-card hand of this Badugi value among the free cards: the played ranks
    in distinct suits, filled with random free cards, each candidate checked by ``rank``
    (a filler that would play is drawn again).  CardError when none is found."""
    ranks = [(r - 1) % 13 for r in badugi.low_ranks_of(value)]  # ace low back to card ranks
    blocked = set(used)
    free = [c for c in range(52) if c not in blocked]
    for _ in range(40):
        suits = rng.sample(range(4), len(ranks))
        played = [r * 4 + s for r, s in zip(ranks, suits, strict=True)]
        if blocked.intersection(played):
            continue
        fillers = [c for c in free if c not in played]
        for _ in range(20):
            cards = played + rng.sample(fillers, badugi.HAND_SIZE - len(played))
            if rank(cards, Ranking.BADUGI) == value:
                rng.shuffle(cards)
                return tuple(cards)
    raise CardError(f"no free Badugi hand of value {value}")


def _badugi_hands(values: Sequence[int], rng: random.Random) -> list[Cards]:
    used: list[int] = []
    out: list[Cards] = []
    for v in values:
        h = badugi_hand_for(v, rng, used)
        used.extend(h)
        out.append(h)
    return out


GENERATORS: dict[str, Gen] = {
    RANDOM: gen_random,
    SAME_CATEGORY: gen_same_category,
    SAME_TOP: gen_same_top,
    WHEEL: gen_wheel,
    LOOKS_GOOD: gen_looks_good,
    TIE: gen_tie,
    FOUR_VS_THREE: gen_four_vs_three,
}


def hands_for_level(level: int, rng: random.Random) -> int:
    low, high = HANDS_AT_LEVEL[max(1, min(level, len(HANDS_AT_LEVEL))) - 1]
    return rng.randint(low, high)


def generate(topic: str, ranking: Ranking, n: int, rng: random.Random) -> ShowdownQuestion:
    """A question of ``topic`` with ``n`` hands, in random order."""
    if topic not in TOPICS[ranking]:
        raise ValueError(f"no generated topic {topic!r} in {ranking}")
    if not 2 <= n <= 6:
        raise ValueError(f"2 to 6 hands, not {n}")
    if topic == SAME_TOP:
        n = min(n, 4)  # a top card has four suits
    for _ in range(50):
        try:
            hands = GENERATORS[topic](ranking, n, rng)
        except CardError:
            continue  # the cards drawn so far blocked a class: draw again
        rng.shuffle(hands)
        names = tuple(f"Hand {i + 1}" for i in range(n))
        return ShowdownQuestion(ranking, topic, tuple(hands), names)
    raise RuntimeError(f"could not build a {topic} question")  # pragma: no cover
