"""The "what to draw" drill: a hand, the draws left, the opponents; the player picks the
discards (or stands pat) and ``engine.sim.draw_choice.draw_equity`` scores every choice.

The referee's answer is a ranked list of choices by equity with the loss of each against
the best.  An answer counts as right when ``as_good_as_best`` (within the simulation's noise
of the best; exactly the best when the answer is exact).  Opponents are a pat hand to beat
(shown) or players known only by how many cards they draw, as at the table.

The home variants of five-card draw are drilled too: wild cards (a setting drawn per
question, named on the page) and California high-low, where a choice's equity is its
expected share of the pot, half for each half won (``engine.sim.scoring``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from analysis.statistics.hand_classes import is_made
from engine.cards import CardError, Cards, format_cards, number_jokers, parse_cards
from engine.ranking import (
    Category,
    Ranking,
    category_of_rank,
    describe,
    example_hand,
    hand_size_of,
    rank,
    ranking_for,
)
from engine.record import Game
from engine.sim.draw_choice import DrawChoice, draw_equity, sensible_keeps
from engine.sim.equity import Player
from engine.sim.scoring import WILD_WORDS, Scoring
from engine.sim.strategy import STAND_PAT, default_strategy
from engine.sim.wild_strategy import strategy_for
from engine.wild import (
    HIGH_CATEGORIES,
    HighCategory,
    Wild,
    category_high,
    describe_high,
    describe_low,
    rank_high,
    rank_low,
)

PAT_TO_BEAT = "pat_to_beat"
DRAW_COUNTS = "draw_counts"
OWN = "own"
CUSTOM = "custom"
COSTLIEST = "costliest"  # the player's own costliest draws, from the draw review

TOPIC_LABELS = {
    PAT_TO_BEAT: "one draw against a pat hand",
    DRAW_COUNTS: "opponents known by their draws",
    OWN: "own draws",
    CUSTOM: "a hand you set up",
    COSTLIEST: "your costliest draws",
}
TOPICS = (PAT_TO_BEAT, DRAW_COUNTS)
# the draw games with a default strategy (five-card draw: engine.sim.strategy.HighDrawStrategy,
# Badugi: engine.sim.strategy.BadugiStrategy)
RANKINGS = (Ranking.DEUCE_SEVEN, Ranking.ACE_FIVE, Ranking.HIGH, Ranking.BADUGI)

TRIALS = 3_000  # deals per choice when simulated: a second or two for a whole answer
_WORDS = {4: "four", 5: "five"}

# The home variants' games (progress keys): five-card draw with wild cards, and high-low.
WILD_DRAW = "high-wild"
HIGH_LOW_DRAW = "high-low"
VARIANT_LABELS = {WILD_DRAW: "Five-card draw, wild cards",
                  HIGH_LOW_DRAW: "Five-card draw, high-low"}  # fmt: skip


def trials_for(q: DrawQuestion) -> int:
    """Deals per choice: fewer when many unknown hands make each deal dear (their noise is
    allowed for: a choice within three standard errors of the best counts as right)."""
    unknown = len(q.drawing)
    return TRIALS if unknown <= 2 else TRIALS * 2 // unknown


@dataclass(frozen=True)
class DrawQuestion:
    """``pat``: an opponent's pat hand, shown; ``drawing``: opponents' draw counts (0 is a
    pat hand not shown).  ``taken``: for the player's own hands, the keep they chose.
    ``unseen``: opponents still to draw whose count was not seen yet (any hand);
    ``dead``: cards known out of play (the player's earlier discards)."""

    ranking: Ranking
    topic: str
    hand: Cards
    draws_left: int
    pat: Cards | None = None
    drawing: tuple[int, ...] = ()
    source: str = "generated"
    taken: Cards | None = None
    seed: int = 0
    unseen: int = 0
    dead: Cards = ()
    wild: Wild | None = None
    high_low: bool = False

    def __post_init__(self) -> None:
        if self.ranking not in RANKINGS:
            raise ValueError("what to draw is drilled in 2-7, A-5, five-card draw and Badugi")
        size = self.size
        if len(self.hand) != size or len(set(self.hand)) != size:
            raise CardError(f"a hand to draw from is {_WORDS[size]} distinct cards")
        deck = set(self.scoring.deck)  # ValueError for wild cards where none play
        seen = (*self.hand, *(self.pat or ()), *self.dead)
        if not set(seen) <= deck:
            raise CardError("a joker in a game whose deck has none (or not that many)")
        if not 1 <= self.draws_left <= 3:
            raise ValueError(f"1 to 3 draws left, not {self.draws_left}")
        if self.ranking is Ranking.HIGH and self.draws_left != 1:
            raise ValueError("five-card draw has one draw")
        if self.pat is None and not self.drawing and not self.unseen:
            raise ValueError("at least one opponent")
        if set(self.dead) & set(self.hand) or len(set(self.dead)) != len(self.dead):
            raise CardError("a dead card is in the hand or twice")
        if self.pat is not None and set(self.pat) & set(self.hand):
            raise CardError("the pat hand shares a card with the hand")
        if self.pat is not None and len(set(self.pat)) != size:
            raise CardError(f"a pat hand is {_WORDS[size]} distinct cards")
        if any(not 0 <= d <= size for d in self.drawing):
            raise ValueError(f"opponents draw 0 to {size} cards")
        if self.taken is not None and not set(self.taken) <= set(self.hand):
            raise CardError("the keep taken is not part of the hand")

    @property
    def scoring(self) -> Scoring:
        return Scoring(self.ranking, self.wild, self.high_low)

    @property
    def game(self) -> str:
        """The game the drill's progress counts this question under."""
        if self.high_low:
            return HIGH_LOW_DRAW
        if self.wild is not None:
            return WILD_DRAW if self.ranking is Ranking.HIGH else f"{self.ranking}-wild"
        return self.ranking.value

    @property
    def size(self) -> int:
        """Cards in a hand: five, four in Badugi."""
        return hand_size_of(self.ranking)

    def opponents(self) -> list[Player]:
        out = [Player(self.pat, STAND_PAT)] if self.pat is not None else []
        out.extend(Player.drawing(d, size=self.size) for d in self.drawing)
        out.extend(Player.unseen() for _ in range(self.unseen))
        return out

    @property
    def exact(self) -> bool:
        return self.draws_left == 1 and not self.drawing


@dataclass(frozen=True)
class DrawFeedback:
    correct: bool
    chosen: DrawChoice
    best: DrawChoice
    choices: tuple[DrawChoice, ...]  # best first
    taken: DrawChoice | None = None  # own hands: what the player really did
    notes: tuple[str, ...] = field(default=())


def keep_of(hand: Cards, discard: Collection[int]) -> Cards:
    """The cards kept when ``discard`` is thrown (hand order)."""
    if not set(discard) <= set(hand):
        raise CardError(f"cannot discard {format_cards(sorted(discard))}: not in the hand")
    return tuple(c for c in hand if c not in set(discard))


def _same(a: Cards, b: Cards) -> bool:
    return sorted(a) == sorted(b)


def evaluate(
    q: DrawQuestion, extra: Sequence[Cards] = (), trials: int = TRIALS
) -> list[DrawChoice]:
    """Every sensible choice (no pair kept) plus ``extra`` keeps, best first."""
    keeps = sensible_keeps(q.hand, q.ranking)
    for k in (*extra, *((q.taken,) if q.taken is not None else ())):
        if not any(_same(k, x) for x in keeps):
            keeps.append(tuple(k))
    return draw_equity(
        q.hand, q.draws_left, q.scoring, q.opponents(), keeps=keeps, trials=trials, seed=q.seed,
        dead=q.dead,
    )


def find(choices: Sequence[DrawChoice], keep: Cards) -> DrawChoice:
    return next(c for c in choices if _same(c.keep, keep))


def check(
    q: DrawQuestion,
    discard: Collection[int],
    *,
    trials: int = TRIALS,
    choices: Sequence[DrawChoice] | None = None,
) -> DrawFeedback:
    """Score the discards ``discard`` (empty: stand pat) against every other choice."""
    keep = keep_of(q.hand, discard)
    ranked = list(choices) if choices is not None else evaluate(q, [keep], trials)
    if not any(_same(c.keep, keep) for c in ranked):
        ranked = evaluate(q, [keep], trials)
    chosen = find(ranked, keep)
    taken = find(ranked, q.taken) if q.taken is not None else None
    notes = []
    if not all(c.exact for c in ranked):
        notes.append(
            f"simulated: {trials:,} deals per choice; choices within three standard errors "
            "of the best count as right"
        )
    return DrawFeedback(chosen.as_good_as_best, chosen, ranked[0], tuple(ranked), taken,
                        tuple(notes))  # fmt: skip


# --- generated questions ----------------------------------------------------------------


def _high_hand(rng: random.Random, avoid: Collection[int] = ()) -> Cards:
    """Five-card draw: a random deal (most hold a pair or a draw: a real choice)."""
    return tuple(rng.sample([c for c in range(52) if c not in set(avoid)], 5))


def _low_ranks(ranking: Ranking) -> list[int]:
    """The ranks a low player keeps: deuce to eight in 2-7, ace to eight in A-5."""
    return list(range(7)) if ranking is Ranking.DEUCE_SEVEN else [12, *range(7)]


def _badugi_hand(rng: random.Random, avoid: Collection[int] = ()) -> Cards:
    """Four cards holding two or three low cards (ace to eight) of distinct ranks and suits
    and others that pair or suit them, or a high badugi: whether to draw to the low cards,
    keep a rough card or stand pat is a real decision."""
    free = [c for c in range(52) if c not in set(avoid)]
    k = rng.choice((2, 3, 3, 3))
    ranks = rng.sample(_low_ranks(Ranking.ACE_FIVE), k)
    suits = rng.sample(range(4), k)
    cards = [r << 2 | s for r, s in zip(ranks, suits, strict=True) if r << 2 | s in free]
    rest = [c for c in free if c not in cards]
    cards.extend(rng.sample(rest, 4 - len(cards)))
    rng.shuffle(cards)
    return tuple(cards)


def drawing_hand(ranking: Ranking, rng: random.Random, avoid: Collection[int] = ()) -> Cards:
    """Five cards with two to four low cards of different ranks and rough others: a hand
    with a real decision (how many to keep, whether to break).  High: a random deal.
    Badugi: four cards around a low two- or three-card subset (``_badugi_hand``)."""
    if ranking is Ranking.HIGH:
        return _high_hand(rng, avoid)
    if ranking is Ranking.BADUGI:
        return _badugi_hand(rng, avoid)
    free = [c for c in range(52) if c not in set(avoid)]
    lows = _low_ranks(ranking)
    k = rng.choice((2, 3, 3, 4, 4, 4))
    ranks = rng.sample(lows, k)
    cards = [rng.choice([c for c in free if c >> 2 == r]) for r in ranks]
    rest = [c for c in free if c not in cards]
    cards.extend(rng.sample(rest, 5 - k))
    rng.shuffle(cards)
    return tuple(cards)


def pat_hand(ranking: Ranking, rng: random.Random, avoid: Collection[int]) -> Cards:
    """A random hand the default strategy stands pat on with one draw left."""
    free = [c for c in range(52) if c not in set(avoid)]
    strategy = default_strategy(ranking)
    size = hand_size_of(ranking)
    while True:  # about one deal in six is pat (one in nine in Badugi): a handful of tries
        hand = tuple(rng.sample(free, size))
        if strategy.keep(np.array([hand], dtype=np.uint8), 1).all():
            return hand


def generate(topic: str, ranking: Ranking, level: int, rng: random.Random) -> DrawQuestion:
    """A question of ``topic``; the level sets the draws left and the number of opponents."""
    seed = rng.randrange(2**31)
    if topic == PAT_TO_BEAT:
        hand = drawing_hand(ranking, rng)
        pat = pat_hand(ranking, rng, hand)
        return DrawQuestion(ranking, topic, hand, 1, pat=pat, seed=seed)
    if topic == DRAW_COUNTS:
        draws_left = 1 if ranking is Ranking.HIGH else rng.randint(1, min(3, max(1, level)))
        opponents = rng.randint(1, min(3, max(1, level - 1)))
        counts = tuple(rng.choice((0, 1, 1, 2, 2, 3)) for _ in range(opponents))
        hand = drawing_hand(ranking, rng)
        return DrawQuestion(ranking, topic, hand, draws_left, drawing=counts, seed=seed)
    raise ValueError(f"no generated topic {topic!r}")


def _variant_scoring(variant: str, rng: random.Random) -> Scoring:
    if variant not in VARIANT_LABELS:
        raise ValueError(f"no variant {variant!r}: one of {', '.join(VARIANT_LABELS)}")
    wild = rng.choice(list(Wild)) if variant == WILD_DRAW else None
    return Scoring(Ranking.HIGH, wild, high_low=variant == HIGH_LOW_DRAW)


def _variant_pat(scoring: Scoring, rng: random.Random, avoid: Collection[int]) -> Cards:
    """A random hand the variant's default play stands pat on with one draw left."""
    free = [c for c in scoring.deck if c not in set(avoid)]
    strategy = strategy_for(scoring)
    for _ in range(200):  # 256 deals a try: pat hands are one deal in ten to forty
        deals = np.array([rng.sample(free, 5) for _ in range(256)], dtype=np.uint8)
        pat = strategy.keep(deals, 1).all(axis=1)
        if pat.any():
            return tuple(int(c) for c in deals[int(np.argmax(pat))])
    raise RuntimeError("no pat hand found")  # pragma: no cover


def generate_variant(variant: str, topic: str, level: int, rng: random.Random) -> DrawQuestion:
    """A five-card draw question of a home variant (``WILD_DRAW``: the wild cards drawn at
    random; ``HIGH_LOW_DRAW``), one draw left; the level sets the number of opponents."""
    scoring = _variant_scoring(variant, rng)
    seed = rng.randrange(2**31)
    hand = tuple(rng.sample(list(scoring.deck), 5))
    if topic == PAT_TO_BEAT:
        pat = _variant_pat(scoring, rng, hand)
        return DrawQuestion(Ranking.HIGH, topic, hand, 1, pat=pat, seed=seed, wild=scoring.wild,
                            high_low=scoring.high_low)  # fmt: skip
    if topic == DRAW_COUNTS:
        opponents = rng.randint(1, min(3, max(1, level - 1)))
        counts = tuple(rng.choice((0, 1, 1, 2, 2, 3)) for _ in range(opponents))
        return DrawQuestion(Ranking.HIGH, topic, hand, 1, drawing=counts, seed=seed,
                            wild=scoring.wild, high_low=scoring.high_low)  # fmt: skip
    raise ValueError(f"no generated topic {topic!r}")


def custom(
    ranking: Ranking,
    hand: str,
    draws_left: int,
    pat: str = "",
    drawing: str = "",
    *,
    wild: Wild | None = None,
    high_low: bool = False,
) -> DrawQuestion:
    """A situation the player sets up: ``hand`` and ``pat`` as card text (``pat`` may be
    empty), ``drawing`` the opponents' draw counts ("1 2", may be empty); ``wild`` and
    ``high_low`` for the home variants (a joker is ``Jk``).  CardError or ValueError, with
    the reason, for anything that is not a situation."""
    cards = parse_cards(hand)
    size = hand_size_of(ranking)
    pat_cards = parse_cards(pat) if pat.strip() else None
    if pat_cards is not None:
        cards, pat_cards = number_jokers([cards, pat_cards])
    if pat_cards is not None and len(pat_cards) != size:
        raise CardError(f"a pat hand is {_WORDS[size]} cards, got {len(pat_cards)}")
    counts: list[int] = []
    for token in drawing.replace(",", " ").split():
        if not token.isdigit():
            raise ValueError(f"a draw count is a number 0 to {size}, not {token!r}")
        counts.append(int(token))
    if len(counts) + (pat_cards is not None) > 5:
        raise ValueError("at most five opponents")
    return DrawQuestion(ranking, CUSTOM, cards, draws_left, pat=pat_cards,
                        drawing=tuple(counts), source="your own set-up", wild=wild,
                        high_low=high_low)  # fmt: skip


# --- why: outs and what beats what --------------------------------------------------------

OUTS_UP_TO = 2  # cards drawn whose every draw is counted (47 choose 2 is 1,081 hands)
_GAMES = {
    Ranking.DEUCE_SEVEN: Game.TRIPLE_DRAW_27,
    Ranking.ACE_FIVE: Game.TRIPLE_DRAW_A5,
    Ranking.HIGH: Game.FIVE_CARD_DRAW,
    Ranking.BADUGI: Game.BADUGI,
}
_RANK_WORDS = ("2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "tens", "jacks", "queens",
               "kings", "aces")


def _ranks_text(cards: Collection[int], unseen: Collection[int],
                show: Callable[[Sequence[int]], str] = format_cards) -> str:
    """``the 3s, 6s and 8s``: the outs low to high, a rank by its name where every unseen
    card of it is an out, else card by card (Badugi's outs are of one suit: ``the 3♦, 4♦
    and 6♦``, never "the 3s", which would be every three)."""
    words: list[str] = []
    for r in sorted({c >> 2 for c in cards}):
        mine = sorted(c for c in cards if c >> 2 == r)
        if len(mine) == sum(1 for c in unseen if c >> 2 == r):
            words.append(_RANK_WORDS[r])
        else:
            words += [show((c,)) for c in mine]
    if len(words) > 1:
        words = [*words[:-2], f"{words[-2]} and {words[-1]}"]
    return "the " + ", ".join(words)


def hand_words(q: DrawQuestion, cards: Cards) -> str:
    """The hand in a player's words under the question's game."""
    sc = q.scoring
    if sc.plain:
        return describe(cards, q.ranking)
    if sc.high_low:
        return f"{describe_high(cards, sc.wild)} for the high, {describe_low(cards, sc.wild)} low"
    if q.ranking is Ranking.HIGH:
        return describe_high(cards, sc.wild)
    return describe_low(cards, sc.wild)


def game_label(q: DrawQuestion) -> str:
    """"Five-card draw, deuces wild, high-low split" and the like, for the page."""
    if q.scoring.plain:
        plain = {Ranking.DEUCE_SEVEN: "2-7", Ranking.ACE_FIVE: "A-5", Ranking.BADUGI: "Badugi"}
        return plain.get(q.ranking, "High")
    parts = ["Five-card draw" if q.ranking is Ranking.HIGH else "A-5"]
    if q.wild is not None:
        parts.append(WILD_WORDS[q.wild])
    if q.high_low:
        parts.append("high-low split")
    return ", ".join(parts)


def _ten_low_or_better(value: int) -> bool:
    """An ace-to-five value that is a ten-low or better without a pair."""
    if category_of_rank(value, Ranking.ACE_FIVE) is not Category.HIGH_CARD:
        return False
    ranks, _ = example_hand(value, Ranking.ACE_FIVE)
    return max((r + 1) % 13 for r in ranks) <= 9


def _variant_why(q: DrawQuestion, choice: DrawChoice, show: Callable[[Sequence[int]], str]) -> str:
    """``why`` for the home variants: each half counted on its own in high-low."""
    sc, keep, n = q.scoring, choice.keep, len(choice.discard)
    if n == 0:
        held = f"Standing pat holds {hand_words(q, q.hand)}"
        if q.pat is None:
            return held + "."
        return f"{held}; the pat {show(q.pat)} holds {hand_words(q, q.pat)}."
    head = _capital(choice_label(choice, show))
    if n > OUTS_UP_TO:
        return f"{head}: {n} new cards rarely all fit; its share comes from the deals."
    unseen = [c for c in sc.deck if c not in set(q.hand) | set(q.pat or ())]
    draws = list(combinations(unseen, n))
    halves: list[tuple[str, Callable[[Cards], bool]]] = []
    high = sc.ranking is Ranking.HIGH
    if q.pat is not None:
        pat_high, pat_low = rank_high(q.pat, sc.wild), rank_low(q.pat, sc.wild)
        if high:
            halves.append(("beat its high", lambda h: rank_high(h, sc.wild) < pat_high))
        if sc.high_low or not high:
            halves.append(("beat its low", lambda h: rank_low(h, sc.wild) < pat_low))
    else:
        if high:
            halves.append(("make a straight or better", lambda h: HIGH_CATEGORIES.index(
                category_high(rank_high(h, sc.wild))) >= HIGH_CATEGORIES.index(
                HighCategory.STRAIGHT)))  # fmt: skip
        if sc.high_low or not high:
            halves.append(("make a ten-low or better without a pair",
                           lambda h: _ten_low_or_better(rank_low(h, sc.wild))))  # fmt: skip
    parts = []
    for aim, good in halves:
        count = sum(1 for d in draws if good((*keep, *d)))
        parts.append(f"{count:,} {aim} ({100 * count / len(draws):.0f}%)")
    what = "unseen cards" if n == 1 else "two-card draws"
    return f"{head}: of the {len(draws):,} {what}, " + "; ".join(parts) + " this draw."


def why(q: DrawQuestion, choice: DrawChoice, show: Callable[[Sequence[int]], str]) -> str:
    """One sentence on a choice: what standing pat holds and what it beats, or how many
    cards (outs) of those unseen make the hand: against the pat hand shown, cards that make
    a better hand than it; against players drawing, cards that make a made hand (a ten-low
    or better without a pair, and in 2-7 no straight or flush; in Badugi a badugi).
    ``show`` writes cards as the page shows them."""
    if not q.scoring.plain:
        return _variant_why(q, choice, show)
    ranking, keep, n = q.ranking, choice.keep, len(choice.discard)
    pat_words = ""
    if q.pat is not None:
        pat_words = f"the pat {show(q.pat)} ({describe(q.pat, ranking)})"
    if n == 0:
        held = f"Standing pat holds {describe(q.hand, ranking)}"
        if q.pat is None:
            return held + "."
        verdict = "beats" if rank(q.hand, ranking) < rank(q.pat, ranking) else "does not beat"
        return f"{held}, which {verdict} {pat_words}."
    head = _capital(choice_label(choice, show))
    if n > OUTS_UP_TO:
        return f"{head}: {n} new cards rarely all fit; its share comes from the deals."
    unseen = [c for c in range(52) if c not in set(q.hand) | set(q.pat or ())]
    draws = list(combinations(unseen, n))
    if q.pat is not None:
        target = rank(q.pat, ranking)
        good = [d for d in draws if rank((*keep, *d), ranking) < target]
        aim = f"beat {pat_words}"
    else:
        game = _GAMES[ranking]
        good = [d for d in draws if is_made((*keep, *d), game)]
        if ranking is Ranking.HIGH:
            aim = "make a straight or better"
        elif ranking is Ranking.BADUGI:
            aim = "make a badugi (four ranks, four suits)"
        else:
            aim = "make a ten-low or better without a pair" + (
                ", straight or flush" if ranking is Ranking.DEUCE_SEVEN else "")
    if n == 1:
        outs = [d[0] for d in good]
        which = f": {_ranks_text(outs, unseen, show)}" if outs else ""
        return (f"{head}: {len(outs)} of the {len(unseen)} unseen cards {aim}{which} "
                f"({100 * len(outs) / len(unseen):.0f}% this draw).")
    return (f"{head}: {len(good):,} of the {len(draws):,} two-card draws {aim} "
            f"({100 * len(good) / len(draws):.0f}% this draw).")


def _capital(text: str) -> str:
    """The first letter up, the rest as written (str.capitalize would write "keep kh")."""
    return text[:1].upper() + text[1:]


def choice_label(choice: DrawChoice, show: Callable[[Sequence[int]], str]) -> str:
    """``keep 7♠ 5♦ 4♥ 2♣, draw 1`` with the page's way of writing cards."""
    if not choice.discard:
        return "stand pat"
    return f"keep {show(choice.keep) or 'nothing'}, draw {len(choice.discard)}"


def reasons(q: DrawQuestion, fb: DrawFeedback,
            show: Callable[[Sequence[int]], str]) -> tuple[str, ...]:
    """Why the best choice is best and what the answer given does instead."""
    lines = [why(q, fb.best, show)]
    if not _same(fb.chosen.keep, fb.best.keep):
        lines.append(why(q, fb.chosen, show))
    return tuple(lines)


# --- the player's costliest draws (the draw review) --------------------------------------


def question_of_review(spot: Mapping[str, Any], seed: int = 0) -> DrawQuestion:
    """A stored review row (``analysis.review.decision_rows``) as a drill question: the
    hand held, the draws left, the opponents as the player saw them, the keep taken."""
    hand = parse_cards(str(spot["held"]))
    counts = [t for t in str(spot["opponents"]).split(",") if t]
    game = Game(str(spot["game"]))
    return DrawQuestion(
        ranking_for(game), COSTLIEST, hand, int(spot["draws_left"]),
        drawing=tuple(int(t) for t in counts if t != "?"),
        source=f"{spot['site']} hand {spot['hand_id']}, draw {spot['draw']}",
        taken=parse_cards(str(spot["kept"])) if spot["kept"] else (), seed=seed,
        unseen=sum(1 for t in counts if t == "?"),
        dead=parse_cards(str(spot["dead"])) if spot.get("dead") else (),
    )  # fmt: skip


def costliest_questions(
    con: Any, ranking: Ranking, player: str | None = None, n: int = 20
) -> list[DrawQuestion]:
    """The player's ``n`` costliest reviewed draws of the ranking's games, costliest first,
    as questions for the drill (``topic`` ``COSTLIEST``); rows that do not make a valid
    question are passed over."""
    from analysis.review import costliest

    out = []
    for spot in costliest(con, player, n=4 * n):
        if ranking_for(Game(str(spot["game"]))) is not ranking:
            continue
        try:
            out.append(question_of_review(spot, seed=int(spot["hand"])))
        except (CardError, ValueError):
            continue
        if len(out) == n:
            break
    return out
