"""The "what to draw" drill: a hand, the draws left, the opponents; the player picks the
discards (or stands pat) and ``engine.sim.draw_choice.draw_equity`` scores every choice.

The referee's answer is a ranked list of choices by equity with the loss of each against
the best.  An answer counts as right when ``as_good_as_best`` (within the simulation's noise
of the best; exactly the best when the answer is exact).  Opponents are a pat hand to beat
(shown) or players known only by how many cards they draw, as at the table.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from analysis.statistics.hand_classes import is_made
from engine.cards import CardError, Cards, format_cards, parse_cards
from engine.ranking import Ranking, describe, rank, ranking_for
from engine.record import Game
from engine.sim.draw_choice import DrawChoice, draw_equity, sensible_keeps
from engine.sim.equity import Player
from engine.sim.strategy import STAND_PAT, default_strategy

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
# the draw games with a default strategy (five-card draw: engine.sim.strategy.HighDrawStrategy)
RANKINGS = (Ranking.DEUCE_SEVEN, Ranking.ACE_FIVE, Ranking.HIGH)

TRIALS = 3_000  # deals per choice when simulated: a second or two for a whole answer


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

    def __post_init__(self) -> None:
        if self.ranking not in RANKINGS:
            raise ValueError("what to draw is drilled in 2-7 and A-5")
        if len(self.hand) != 5 or len(set(self.hand)) != 5:
            raise CardError("a hand to draw from is five distinct cards")
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
        if any(not 0 <= d <= 5 for d in self.drawing):
            raise ValueError("opponents draw 0 to 5 cards")
        if self.taken is not None and not set(self.taken) <= set(self.hand):
            raise CardError("the keep taken is not part of the hand")

    def opponents(self) -> list[Player]:
        out = [Player(self.pat, STAND_PAT)] if self.pat is not None else []
        out.extend(Player.drawing(d) for d in self.drawing)
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
        q.hand, q.draws_left, q.ranking, q.opponents(), keeps=keeps, trials=trials, seed=q.seed,
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


def drawing_hand(ranking: Ranking, rng: random.Random, avoid: Collection[int] = ()) -> Cards:
    """Five cards with two to four low cards of different ranks and rough others: a hand
    with a real decision (how many to keep, whether to break).  High: a random deal."""
    if ranking is Ranking.HIGH:
        return _high_hand(rng, avoid)
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
    while True:  # about one deal in six is pat: a handful of tries
        hand = tuple(rng.sample(free, 5))
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


def custom(
    ranking: Ranking, hand: str, draws_left: int, pat: str = "", drawing: str = ""
) -> DrawQuestion:
    """A situation the player sets up: ``hand`` and ``pat`` as card text (``pat`` may be
    empty), ``drawing`` the opponents' draw counts ("1 2", may be empty).  CardError or
    ValueError, with the reason, for anything that is not a situation."""
    cards = parse_cards(hand)
    pat_cards = parse_cards(pat) if pat.strip() else None
    if pat_cards is not None and len(pat_cards) != 5:
        raise CardError(f"a pat hand is five cards, got {len(pat_cards)}")
    counts: list[int] = []
    for token in drawing.replace(",", " ").split():
        if not token.isdigit():
            raise ValueError(f"a draw count is a number 0 to 5, not {token!r}")
        counts.append(int(token))
    if len(counts) + (pat_cards is not None) > 5:
        raise ValueError("at most five opponents")
    return DrawQuestion(ranking, CUSTOM, cards, draws_left, pat=pat_cards,
                        drawing=tuple(counts), source="your own set-up")  # fmt: skip


# --- why: outs and what beats what --------------------------------------------------------

OUTS_UP_TO = 2  # cards drawn whose every draw is counted (47 choose 2 is 1,081 hands)
_GAMES = {
    Ranking.DEUCE_SEVEN: Game.TRIPLE_DRAW_27,
    Ranking.ACE_FIVE: Game.TRIPLE_DRAW_A5,
    Ranking.HIGH: Game.FIVE_CARD_DRAW,
}
_RANK_WORDS = ("2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "tens", "jacks", "queens",
               "kings", "aces")


def _ranks_text(cards: Collection[int]) -> str:
    """``the 3s, 6s and 8s``: the ranks among ``cards``, low to high."""
    words = [_RANK_WORDS[r] for r in sorted({c >> 2 for c in cards})]
    if len(words) > 1:
        words = [*words[:-2], f"{words[-2]} and {words[-1]}"]
    return "the " + ", ".join(words)


def why(q: DrawQuestion, choice: DrawChoice, show: Callable[[Sequence[int]], str]) -> str:
    """One sentence on a choice: what standing pat holds and what it beats, or how many
    cards (outs) of those unseen make the hand: against the pat hand shown, cards that make
    a better hand than it; against players drawing, cards that make a made hand (a ten-low
    or better without a pair, and in 2-7 no straight or flush).  ``show`` writes cards as
    the page shows them."""
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
    head = f"{choice_label(choice, show).capitalize()}"
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
        else:
            aim = "make a ten-low or better without a pair" + (
                ", straight or flush" if ranking is Ranking.DEUCE_SEVEN else "")
    if n == 1:
        outs = [d[0] for d in good]
        which = f": {_ranks_text(outs)}" if outs else ""
        return (f"{head}: {len(outs)} of the {len(unseen)} unseen cards {aim}{which} "
                f"({100 * len(outs) / len(unseen):.0f}% this draw).")
    return (f"{head}: {len(good):,} of the {len(draws):,} two-card draws {aim} "
            f"({100 * len(good) / len(draws):.0f}% this draw).")


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
