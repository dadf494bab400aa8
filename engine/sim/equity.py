"""Draw equity: each player's share of the pot when everyone draws to a showdown.

Monte Carlo, vectorized over trials with numpy: every trial deals the remaining draws from a
stub that is shuffled lazily (a Fisher-Yates step per card drawn), so a trial costs only the
cards it uses.  Players draw in the order given (the first to act first) and follow their
stated strategies; nobody folds.  When the stub runs out the RULES.md rule applies: the
drawer takes what is left, then the discards so far are shuffled into a new stub, except the
cards this player has just thrown.  That reshuffle can never come up short: the stub and the
discard pile together hold every card not in a live hand, at least 52 - 6 * 5 = 22 of them,
minus at most 4 the drawer has already been given, and no draw needs more than 5.

The game is a ``Ranking`` or, for the home variants, a ``Scoring`` (engine/sim/scoring.py): wild
cards (a joker deck has 53 or 54 cards) and the high-low split, where a share is half of
each half won.

``exact_equity`` enumerates every deal instead, for small cases (and to check the simulator).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb, sqrt

import numpy as np
import numpy.typing as npt

from engine.cards import (
    JOKERS,
    CardError,
    Cards,
    check_distinct,
    format_cards,
    number_jokers,
    parse_cards,
)
from engine.ranking import Ranking
from engine.sim.ranges import ANY_KEEP, Range, deal_ranges, unknown_range
from engine.sim.scoring import Scoring, scoring_of
from engine.sim.strategy import STAND_PAT, Strategy
from engine.sim.wild_strategy import strategy_for
from engine.wild import Wild

MAX_DRAWS = 3
MAX_PLAYERS = 6
CHUNK = 16_384  # trials per numpy pass: bounds memory (two 52-byte rows per trial)
# most deals ``equity`` counts exactly rather than samples: a one-card draw against a pat
# hand (43 deals on the last draw, 1,232 with two draws left) and spots as small; counting
# costs about as much a deal as sampling a hundred (docs/equity.md has the figures)
EXACT_DEALS = 5_000


@dataclass(frozen=True)
class Player:
    """A player in the showdown-to-be.

    ``cards``: the five cards held (four in Badugi), or the cards kept (fewer): then the
    missing cards come on the next draw, and ``strategy`` decides the draws after it.
    ``discards``: cards this player is known to throw on the next draw (out of the stub; they
    can come back only through a reshuffle, and never to this player on this draw).
    ``strategy``: ``None`` is the game's default strategy (engine.sim.strategy).
    ``keeps_unknown``: an opponent whose cards are not known but who keeps this many on the
    next draw (``cards`` empty): each trial deals them a random hand among those their
    strategy would play that way (all kept: a random pat hand of that strategy);
    ``ANY_KEEP`` (``Player.unseen``): any hand, played by the strategy from this draw on.
    ``size``: the hand size ``keeps_unknown`` counts from (four in Badugi), so a count seen
    in one game is never read in another's terms.
    """

    cards: Cards
    strategy: Strategy | None = None
    discards: Cards = ()
    keeps_unknown: int | None = None
    size: int = 5

    @classmethod
    def drawing(cls, count: int, strategy: Strategy | None = None, size: int = 5) -> Player:
        """An opponent seen drawing ``count`` cards (0: standing pat) on the next draw, in a
        game of ``size``-card hands (``engine.ranking.hand_size_of``: four in Badugi)."""
        if not 0 <= count <= size:
            raise ValueError(f"a player draws 0 to {size} cards, not {count}")
        return cls((), strategy, keeps_unknown=size - count, size=size)

    @classmethod
    def unseen(cls, strategy: Strategy | None = None) -> Player:
        """An opponent still to draw whose count the hero has not seen yet (the first draw,
        acting after the hero): any hand, then the strategy's play."""
        return cls((), strategy, keeps_unknown=ANY_KEEP)

    def dealt_in_full(self, size: int = 5) -> bool:
        """Holds a whole hand of ``size`` cards before the next draw (known, or dealt by
        the simulator)."""
        return len(self.cards) == size or self.keeps_unknown is not None


@dataclass(frozen=True)
class EquityResult:
    """Share of the pot per player (ties shared) and its standard error; ``exact``: from a
    full enumeration (standard errors are then zero)."""

    equity: tuple[float, ...]
    stderr: tuple[float, ...]
    trials: int
    exact: bool = False


def _check(
    players: Sequence[Player], draws: int, dead: Cards, size: int = 5, deck: int = 52
) -> None:
    """``size``: cards in a hand (four in Badugi); ``deck``: cards in the deck."""
    if not 2 <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"2 to {MAX_PLAYERS} players, got {len(players)}")
    if not 0 <= draws <= MAX_DRAWS:
        raise ValueError(f"0 to {MAX_DRAWS} draws left, got {draws}")
    known: list[int] = list(dead)
    for i, p in enumerate(players):
        if len(p.cards) > size:
            raise CardError(f"player {i} holds {len(p.cards)} cards: at most {size}")
        if p.keeps_unknown not in (None, ANY_KEEP) and p.size != size:
            raise ValueError(
                f"player {i} was seen drawing in a {p.size}-card game, this one deals {size}: "
                f"Player.drawing(count, size={size})"
            )
        if p.keeps_unknown is not None:
            if p.cards or p.discards or not ANY_KEEP <= p.keeps_unknown <= size:
                raise ValueError(
                    f"player {i}: unknown cards with 0 to {size} kept, nothing known "
                    f"(Player.drawing(count, size={size}) in a {size}-card game)"
                )
            if draws == 0:
                raise ValueError(f"player {i} keeps unknown cards and no draw is left")
        elif len(p.cards) < size and draws == 0:
            raise ValueError(f"player {i} holds {len(p.cards)} cards and no draw is left")
        if len(p.cards) + len(p.discards) > size:
            raise CardError(f"player {i}: kept and discarded cards make more than {size}")
        known.extend(p.cards)
        known.extend(p.discards)
    if any(not 0 <= c < deck for c in known):
        outside = sorted(c for c in known if not 0 <= c < deck)
        if deck == 52 and all(c in (52, 53) for c in outside):
            raise CardError(f"a joker ({format_cards(outside)}) in a game without jokers")
        raise CardError(f"not card numbers 0..{deck - 1}: {outside}")
    check_distinct(known)


def _strategies(players: Sequence[Player], scoring: Scoring) -> list[Strategy]:
    out: list[Strategy] = []
    for p in players:
        out.append(p.strategy if p.strategy is not None else strategy_for(scoring))
    return out


def _known(players: Sequence[Player], dead: Cards) -> set[int]:
    known = set(dead)
    for p in players:
        known.update(p.cards)
        known.update(p.discards)
    return known


def _ranges(
    players: Sequence[Player],
    strategies: Sequence[Strategy],
    draws: int,
    dead: Cards,
    *,
    deck: int = 52,
    size: int = 5,
) -> dict[int, Range]:
    known = _known(players, dead)
    return {
        i: unknown_range(strategies[i], draws, p.keeps_unknown, known, deck_size=deck, size=size)
        for i, p in enumerate(players)
        if p.keeps_unknown is not None and p.keeps_unknown != ANY_KEEP
    }


class _Deal:
    """The cards of a chunk of trials: hands, stub (lazily shuffled) and discard pile."""

    def __init__(
        self,
        players: Sequence[Player],
        dead: Cards,
        trials: int,
        rng: np.random.Generator,
        ranges: Mapping[int, Range],
        *,
        size: int = 5,
        deck: int = 52,
    ) -> None:
        self.rng = rng
        self.size = size
        self.hands = np.zeros((trials, len(players), size), dtype=np.uint8)
        for i, p in enumerate(players):
            self.hands[:, i, : len(p.cards)] = p.cards
        known = _known(players, dead)
        unseen = [c for c in range(deck) if c not in known]
        self.stub = np.zeros((trials, deck), dtype=np.uint8)
        self.stub[:, : len(unseen)] = unseen
        self.pos = np.zeros(trials, dtype=np.int64)
        self.end = np.full(trials, len(unseen), dtype=np.int64)
        if ranges:
            self._deal_unknown(ranges, unseen)
        self.pile = np.zeros((trials, deck), dtype=np.uint8)
        self.pile[:, : len(dead)] = list(dead)
        self.piled = np.full(trials, len(dead), dtype=np.int64)
        self.reshuffles = 0
        every = np.arange(trials)
        for i, p in enumerate(players):
            if p.keeps_unknown == ANY_KEEP:  # any hand: a hand's cards off the stub, uniform
                for slot in range(size):
                    self.hands[:, i, slot] = self.draw_one(every)

    def _deal_unknown(self, ranges: Mapping[int, Range], unseen: Sequence[int]) -> None:
        """Deal the unknown hands, then take their cards out of every trial's stub by moving
        them in front of ``pos`` (as if drawn: the stub's order does not matter)."""
        trials = self.hands.shape[0]
        hands, _ = deal_ranges(list(ranges.values()), trials, self.rng)
        where = np.zeros((trials, self.stub.shape[1]), dtype=np.int8)
        where[:, list(unseen)] = np.arange(len(unseen))
        rows = np.arange(trials)
        front = 0
        for s, i in enumerate(ranges):
            self.hands[:, i] = hands[:, s]
            for slot in range(self.size):
                card = hands[:, s, slot]
                at = where[rows, card]
                displaced = self.stub[:, front].copy()
                self.stub[rows, at] = displaced
                self.stub[:, front] = card
                where[rows, displaced] = at
                where[rows, card] = front
                front += 1
        self.pos[:] = front

    def _reshuffle(self, rows: npt.NDArray[np.int64]) -> None:
        # Order in the new stub does not matter: each draw picks uniformly from it.
        self.reshuffles += len(rows)
        self.stub[rows] = self.pile[rows]
        self.end[rows] = self.piled[rows]
        self.pos[rows] = 0
        self.piled[rows] = 0

    def draw_one(self, rows: npt.NDArray[np.int64]) -> npt.NDArray[np.uint8]:
        """One card for each trial in ``rows``, uniformly from its stub."""
        empty = self.pos[rows] >= self.end[rows]
        if empty.any():
            self._reshuffle(rows[empty])
        pos = self.pos[rows]
        left = self.end[rows] - pos
        pick = pos + (self.rng.random(len(rows)) * left).astype(np.int64)
        card = self.stub[rows, pick]
        self.stub[rows, pick] = self.stub[rows, pos]
        self.stub[rows, pos] = card
        self.pos[rows] = pos + 1
        return card

    def discard(self, rows: npt.NDArray[np.int64], cards: npt.NDArray[np.uint8]) -> None:
        at = self.piled[rows]
        self.pile[rows, at] = cards
        self.piled[rows] = at + 1

    def tiled(self, copies: int) -> _Deal:
        """The same deals ``copies`` times over, one block after another (a deal not yet
        played): each choice of ``keep_equities`` plays its block."""
        new = object.__new__(_Deal)
        new.rng = self.rng
        for name in ("hands", "stub", "pos", "end", "pile", "piled"):
            setattr(new, name, np.concatenate([getattr(self, name)] * copies))
        new.reshuffles = 0
        new.size = self.size
        return new

    def play(
        self,
        players: Sequence[Player],
        strategies: Sequence[Strategy],
        draws: int,
        first_need: npt.NDArray[np.bool_] | None = None,
    ) -> None:
        """Play the draws; ``first_need``: the cards the first player throws on this draw,
        row by row (its strategy decides the later draws)."""
        trials, size = self.hands.shape[0], self.size
        for done in range(draws):
            for i, player in enumerate(players):
                hand = self.hands[:, i]
                if done == 0 and i == 0 and first_need is not None:
                    need = first_need
                elif done == 0 and not player.dealt_in_full(size):
                    need = np.zeros((trials, size), dtype=np.bool_)
                    need[:, len(player.cards) :] = True
                else:
                    need = ~strategies[i].keep(hand, draws - done)
                thrown = hand.copy()
                for slot in range(size):
                    rows = np.flatnonzero(need[:, slot])
                    if len(rows):
                        self.hands[rows, i, slot] = self.draw_one(rows)
                # Only now do this player's discards reach the pile: never redealt to them
                # on the draw they were thrown.
                if done == 0 and player.discards:
                    for card in player.discards:
                        every = np.arange(trials)
                        self.discard(every, np.full(trials, card, dtype=np.uint8))
                for slot in range(size):
                    if done == 0 and not player.dealt_in_full(size) and slot >= len(player.cards):
                        continue  # an empty slot: nothing was thrown from it
                    rows = np.flatnonzero(need[:, slot])
                    if len(rows):
                        self.discard(rows, thrown[rows, slot])


def _setup(
    players: Sequence[Player], how: Ranking | Scoring, draws: int, dead: Cards
) -> tuple[Scoring, list[Strategy], dict[int, Range]]:
    """The checks, strategies and unknown ranges every entry point starts from."""
    scoring = scoring_of(how)
    deck = len(scoring.deck)
    _check(players, draws, dead, scoring.size, deck)
    strategies = _strategies(players, scoring)
    ranges = _ranges(players, strategies, draws, dead, deck=deck, size=scoring.size)
    return scoring, strategies, ranges


def simulate(
    players: Sequence[Player],
    ranking: Ranking | Scoring,
    draws: int,
    *,
    dead: Cards = (),
    trials: int = 10_000,
    seed: int | None = None,
) -> npt.NDArray[np.uint8]:
    """The final hands of ``trials`` random deals, shape (trials, players, 5) ((..., 4) in
    Badugi)."""
    scoring, strategies, ranges = _setup(players, ranking, draws, dead)
    size, deck = scoring.size, len(scoring.deck)
    rng = np.random.default_rng(seed)
    out = np.empty((trials, len(players), size), dtype=np.uint8)
    for start in range(0, trials, CHUNK):
        n = min(CHUNK, trials - start)
        deal = _Deal(players, dead, n, rng, ranges, size=size, deck=deck)
        deal.play(players, strategies, draws)
        out[start : start + n] = deal.hands
    return out


def shares(
    final_hands: npt.NDArray[np.uint8], ranking: Ranking | Scoring
) -> npt.NDArray[np.float64]:
    """Each player's share of the pot in each trial: 1 to the winner, 1/k each on a k-way
    tie; in high-low half of that for each half."""
    return scoring_of(ranking).shares(final_hands)


def equity(
    players: Sequence[Player],
    ranking: Ranking | Scoring,
    draws: int,
    *,
    dead: Cards = (),
    trials: int = 100_000,
    seed: int | None = None,
    exact_limit: int = EXACT_DEALS,
) -> EquityResult:
    """Each player's share of the pot: exact when every hand is known and the deals to
    count are at most ``exact_limit`` (a one-card draw against a pat hand, a last draw:
    instant, with standard errors of zero); else Monte Carlo over ``trials`` deals, with
    standard errors."""
    if trials < 2:
        raise ValueError("at least 2 trials are needed for a standard error")
    found = counted(players, ranking, draws, dead=dead, limit=exact_limit)
    if found is not None:
        return found
    scoring, strategies, ranges = _setup(players, ranking, draws, dead)
    size, deck = scoring.size, len(scoring.deck)
    rng = np.random.default_rng(seed)
    total = np.zeros(len(players))
    total_sq = np.zeros(len(players))
    for start in range(0, trials, CHUNK):
        n = min(CHUNK, trials - start)
        deal = _Deal(players, dead, n, rng, ranges, size=size, deck=deck)
        deal.play(players, strategies, draws)
        share = scoring.shares(deal.hands)
        total += share.sum(axis=0)
        total_sq += (share * share).sum(axis=0)
    mean = total / trials
    variance = np.maximum(total_sq / trials - mean * mean, 0.0) * trials / (trials - 1)
    stderr = np.sqrt(variance / trials)
    return EquityResult(tuple(float(x) for x in mean), tuple(float(x) for x in stderr), trials)


def keep_equities(
    hand: Cards,
    keeps: Sequence[Cards],
    opponents: Sequence[Player],
    ranking: Ranking | Scoring,
    draws: int,
    *,
    dead: Cards = (),
    trials: int = 10_000,
    seed: int | None = None,
) -> list[tuple[float, float]]:
    """(share, standard error) of each way of playing ``hand`` on this draw (keep those
    cards, draw the rest, then the default strategy), against the same deals: the
    opponents' hands and the stub are dealt once and every choice plays a copy, so the
    dear part (dealing unknown hands from their ranges) is paid once, and the choices are
    compared on matched deals."""
    if trials < 2:
        raise ValueError("at least 2 trials are needed for a standard error")
    size = scoring_of(ranking).size
    if len(hand) != size or not keeps:
        raise ValueError(f"{size} cards and at least one choice")
    players = [Player(tuple(hand)), *opponents]
    scoring, strategies, ranges = _setup(players, ranking, draws, dead)
    deck = len(scoring.deck)
    if draws < 1:
        raise ValueError("no draw is left to choose")
    rng = np.random.default_rng(seed)
    k = len(keeps)
    throw = np.array([[c not in set(keep) for c in hand] for keep in keeps], dtype=np.bool_)
    total = np.zeros(k)
    total_sq = np.zeros(k)
    step = max(1, CHUNK // k)
    for start in range(0, trials, step):
        n = min(step, trials - start)
        deal = _Deal(players, dead, n, rng, ranges, size=size, deck=deck).tiled(k)
        deal.play(players, strategies, draws, np.repeat(throw, n, axis=0))
        share = scoring.shares(deal.hands)[:, 0].reshape(k, n)
        total += share.sum(axis=1)
        total_sq += (share * share).sum(axis=1)
    mean = total / trials
    variance = np.maximum(total_sq / trials - mean * mean, 0.0) * trials / (trials - 1)
    stderr = np.sqrt(variance / trials)
    return [(float(m), float(e)) for m, e in zip(mean, stderr, strict=True)]


# --- exact enumeration ----------------------------------------------------------------------

# weight, hands, stub, discard pile
_State = tuple[float, tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]


def _keep_one(strategy: Strategy, hand: tuple[int, ...], draws_left: int) -> tuple[int, ...]:
    mask = strategy.keep(np.array([hand], dtype=np.uint8), draws_left)[0]
    return tuple(c for c, k in zip(hand, mask, strict=True) if k)


def _without(cards: tuple[int, ...], taken: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(c for c in cards if c not in taken)


def _split(cards: tuple[int, ...], at: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The cards at the (increasing) positions ``at``, and the others in order: slices,
    not a test of every card, as a deal of the enumeration is made."""
    rest: tuple[int, ...] = ()
    start = 0
    for j in at:
        rest += cards[start:j]
        start = j + 1
    return tuple(cards[j] for j in at), rest + cards[start:]


def counted(
    players: Sequence[Player],
    ranking: Ranking | Scoring,
    draws: int,
    *,
    dead: Cards = (),
    limit: int = EXACT_DEALS,
) -> EquityResult | None:
    """The exact equity when every hand is known and the deals to count are at most
    ``limit`` (``_deals_estimate``, then ``exact_equity`` with the limit as a guard);
    None when the spot is for sampling."""
    if not limit or any(p.keeps_unknown is not None for p in players):
        return None
    scoring, strategies, _ = _setup(players, ranking, draws, dead)
    if _deals_estimate(players, strategies, draws, dead, scoring) > limit:
        return None
    try:
        return exact_equity(players, ranking, draws, dead=dead, limit=limit)
    except TooManyDeals:
        return None


def _deals_estimate(
    players: Sequence[Player],
    strategies: Sequence[Strategy],
    draws: int,
    dead: Cards,
    scoring: Scoring,
) -> float:
    """How many deals ``exact_deals`` would build if every player drew on each draw what
    they draw on this one: exact for the last draw, and what a drawer against pat hands
    comes to before it (a made hand stands pat after)."""
    stub = len(scoring.deck) - len(_known(players, dead))
    deals = 1
    for _ in range(draws):
        for p, strategy in zip(players, strategies, strict=True):
            hand = tuple(p.cards)
            kept = hand if len(hand) < scoring.size else _keep_one(strategy, hand, draws)
            need = scoring.size - len(kept)
            if need > stub:
                return float("inf")
            deals *= comb(stub, need)
            stub -= need
    return deals


class TooManyDeals(ValueError):
    """An exact enumeration would weigh more deals than it was allowed."""


def exact_deals(
    players: Sequence[Player],
    ranking: Ranking | Scoring,
    draws: int,
    *,
    dead: Cards = (),
    limit: int | None = None,
) -> Iterator[tuple[float, tuple[tuple[int, ...], ...]]]:
    """Every way the draws can fall, with its probability: (probability, final hands).

    The same rules as the simulator, written the plain way (it checks the simulator): draws
    in the order given, and when the stub runs out the drawer takes what is left, then the
    rest from the discards so far (dead cards included) without their own fresh discards.
    For small cases only: the count of deals is a product of binomials and grows fast, so
    with ``limit`` it raises ``TooManyDeals`` before building more than that many (each
    draw's count is known before its deals are built).  A player's keep is asked of the
    strategy once per hand and draw: a pat hand meets every deal of the others unchanged.
    """
    if any(p.keeps_unknown is not None for p in players):
        raise ValueError("exact enumeration takes known cards only (no keeps_unknown)")
    scoring, strategies, _ = _setup(players, ranking, draws, dead)
    size = scoring.size
    stub = tuple(c for c in scoring.deck if c not in _known(players, dead))
    start = tuple(tuple(p.cards) for p in players)
    states: list[_State] = [(1.0, start, stub, tuple(dead))]
    keeps: dict[tuple[int, tuple[int, ...], int], tuple[int, ...]] = {}
    for done in range(draws):
        for i, player in enumerate(players):
            nxt: list[_State] = []
            for weight, hands, left, pile in states:
                hand = hands[i]
                partial = done == 0 and len(player.cards) < size
                kept = keeps.get((i, hand, draws - done)) if not partial else hand
                if kept is None:
                    kept = keeps[i, hand, draws - done] = _keep_one(
                        strategies[i], hand, draws - done
                    )
                thrown = _without(hand, kept) + (player.discards if done == 0 else ())
                need = size - len(kept)
                if need == 0:
                    nxt.append((weight, hands, left, pile + thrown))
                    continue
                from_stub = need <= len(left)
                ways = comb(len(left), need) if from_stub else comb(len(pile), need - len(left))
                if limit is not None and len(nxt) + ways > limit:
                    raise TooManyDeals(f"more than {limit:,} deals")
                w = weight / ways
                if from_stub:
                    piled = pile + thrown
                    for at in combinations(range(len(left)), need):
                        got, rest = _split(left, at)
                        new_hands = (*hands[:i], kept + got, *hands[i + 1 :])
                        nxt.append((w, new_hands, rest, piled))
                    continue
                # The stub runs out: all of it, then the rest from the reshuffled discards.
                for at in combinations(range(len(pile)), need - len(left)):
                    got, rest = _split(pile, at)
                    new_hands = (*hands[:i], kept + left + got, *hands[i + 1 :])
                    nxt.append((w, new_hands, rest, thrown))
            states = nxt
    for weight, hands, _, _ in states:
        yield weight, hands


def exact_equity(
    players: Sequence[Player],
    ranking: Ranking | Scoring,
    draws: int,
    *,
    dead: Cards = (),
    limit: int | None = None,
) -> EquityResult:
    """The exact share of the pot of each player, by enumerating every deal (at most
    ``limit`` of them: ``TooManyDeals`` beyond)."""
    weights: list[float] = []
    finals: list[tuple[tuple[int, ...], ...]] = []
    for weight, hands in exact_deals(players, ranking, draws, dead=dead, limit=limit):
        weights.append(weight)
        finals.append(hands)
    share = scoring_of(ranking).shares(np.array(finals, dtype=np.uint8))
    totals = np.array(weights) @ share
    return EquityResult(
        tuple(float(x) for x in totals), (0.0,) * len(players), len(weights), exact=True
    )


def players_from_text(texts: Sequence[str], size: int = 5) -> list[Player]:
    """``drawlab equity`` hands: five cards (``size``: four in Badugi) stand pat on every
    draw; fewer (``-`` or an empty text for none) are the cards kept: they draw the rest
    now, then play the default."""
    if not 2 <= len(texts) <= MAX_PLAYERS:
        raise ValueError(f"expected 2 to {MAX_PLAYERS} hands, got {len(texts)}")
    players = []
    read = [() if text.strip() == "-" else parse_cards(text) for text in texts]
    if any(c in JOKERS for cards in read for c in cards):
        read = number_jokers(read)
    for text, cards in zip(texts, read, strict=True):
        if len(cards) > size:
            words = "five" if size == 5 else str(size)
            raise CardError(
                f"a hand is at most {words} cards, got {len(cards)} in {text.strip()!r}"
            )
        players.append(Player(cards, STAND_PAT if len(cards) == size else None))
    return players


GAME_CHOICES = (
    "27", "a5", "27_triple_draw", "27_single_draw", "a5_triple_draw", "a5_single_draw", "badugi",
    "high", "five_card_draw", "high-low",
)  # fmt: skip


def game_setup(
    name: str, draws: int | None = None, wild: Wild | None = None
) -> tuple[Ranking | Scoring, int]:
    """``drawlab equity --game``: a ranking ("27", "a5", three draws left unless told) or a
    game ("27_single_draw": one draw left unless told); "high" (five-card draw, one draw)
    and "high-low" (California high-low); ``wild`` cards in high, a5 and high-low."""
    if name not in GAME_CHOICES:
        raise ValueError(f"unknown game {name!r}: one of {', '.join(GAME_CHOICES)}")
    if name == "badugi":
        ranking = Ranking.BADUGI
    elif name in ("high", "five_card_draw", "high-low"):
        ranking = Ranking.HIGH
    else:
        ranking = Ranking.ACE_FIVE if name.startswith("a5") else Ranking.DEUCE_SEVEN
    if draws is None:
        one = name.endswith("single_draw") or ranking is Ranking.HIGH
        draws = 1 if one else MAX_DRAWS
    scoring = Scoring(ranking, wild, high_low=name == "high-low")
    return (ranking if scoring.plain else scoring), draws


def standard_error(p: float, trials: int) -> float:
    """Standard error of a Monte Carlo frequency p over ``trials``."""
    return sqrt(p * (1 - p) / trials)
