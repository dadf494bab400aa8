"""Reviewing one of the hero's draws: the equity of what was done and of every sensible
alternative, as the hero could have known it at that moment.

The model (a stated assumption, changeable here and written in the README):

- Each opponent still in the hand holds a hand of their range: the strategy a named range
  profile plays (``engine.sim.reads``: tight, standard, loose) at the draw where their
  current count began (pat since the first draw is a tighter range than a late pat), one
  step tighter when they bet or raised just before the hero's draw.  Their count is the
  one on this draw for an opponent who drew before the hero, else their count on the
  previous draw (taken as what they will draw again), else (the first draw, acting after
  the hero) any hand.  The hero's own cards and the discards still out of the stub (all
  of them until a reshuffle brings them back) are out of every range.  Cards opponents
  show later are never used: no hindsight.
- After this draw everyone plays the strategy to the showdown.  When the hero bets after
  the last draw (``Spot.bet``), each opponent calls with the strongest share of their
  final hands the bet's price and the hero's count leave them (``engine.sim.reads``) and
  folds the rest, so a snow or a bluff draw is valued by the pots it takes.  The other
  bets after the draw are not modelled: the money figure is the share of the pot at the
  draw that the choice gives up in this model, not a bound of what it cost.
- Badugi's four-card spots are judged by the drill's engine (``engine.sim.draw_choice``),
  without folds.
- The last draw against one pat opponent is exact (``engine.sim.exact_draw``); otherwise the
  choices are simulated together on shared deals (``engine.sim.choice_sim``) with a seed
  fixed by the situation, so a re-run gives the same answer, in blocks until the verdict on
  what was done is sure (``engine.sim.stopping``).  A choice within three standard errors
  of the best is not a mistake (its loss counts as 0), the standard errors being those of
  the full ``TRIALS`` deals: the simulation's noise, not that of the deals it stopped at.

Situations that give the same answer share it (``spot_key``, and the keep made, which
decides how long the choices are dealt): the same cards held and dead up to a renaming of
the suits (suits are symmetric: spades and hearts swapped everywhere change no equity),
the opponents' reads, the profile, the hero's bet when opponents may fold to it and the
draws left.  Each situation is computed as its canonical
form (each suit renamed by what it holds, the opponents in order), so two equal
situations get the very same numbers whichever comes first.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import permutations
from typing import NamedTuple

import numpy as np

from engine.cards import Card, Cards, check_distinct
from engine.ranking import Ranking, hand_size_of
from engine.sim.batch import rank_batch
from engine.sim.choice_sim import simulate_choices
from engine.sim.draw_choice import DrawChoice, draw_equity, sensible_keeps
from engine.sim.equity import Player
from engine.sim.exact_draw import equities_vs_pat_range, feasible
from engine.sim.ranges import ANY_KEEP, Range, base_range, unknown_range
from engine.sim.rank_dealer import rank_order, rank_range
from engine.sim.reads import PROFILES, STANDARD, Read, defended, profile_strategy, read_strategy
from engine.sim.stopping import NOISE_SE
from engine.sim.strategy import Strategy, default_strategy

TRIALS = 3_000  # deals per choice when simulated, at most (as the drill)
BLOCK = 250  # deals between two looks at the choices (engine.sim.choice_sim)
UNSEEN = None  # an opponent's count the hero has not seen yet


@dataclass(frozen=True)
class Spot:
    """The hero about to draw: ``hand`` (five cards, four in Badugi), ``draws_left`` (this
    one included), each opponent's count as the hero saw it (``UNSEEN``: none yet) and the
    cards the hero knows are out of play (their own earlier discards, until a reshuffle
    brings them back).
    ``reads``: what else the hero saw of each opponent (``engine.sim.reads.Read``, in the
    order of ``opponents``; empty: each count as of this draw only), ``profile`` the range
    profile, ``bet`` the hero's bet after this draw as a share of the pot (0: no bet; the
    opponents fold to it after the last draw, ``engine.sim.reads.defended``)."""

    ranking: Ranking
    hand: Cards
    draws_left: int
    opponents: tuple[int | None, ...]
    dead: Cards = ()
    reads: tuple[Read, ...] = ()
    profile: str = STANDARD
    bet: float = 0.0

    def __post_init__(self) -> None:
        if len(self.hand) != self.size:
            raise ValueError(f"a hand to draw from is {self.size} cards, got {len(self.hand)}")
        check_distinct([*self.hand, *self.dead])
        if not 1 <= len(self.opponents) <= 5:
            raise ValueError(f"1 to 5 opponents, got {len(self.opponents)}")
        if not 1 <= self.draws_left <= 3:
            raise ValueError(f"1 to 3 draws left, not {self.draws_left}")
        if self.reads and [r.count for r in self.reads] != list(self.opponents):
            raise ValueError("one read per opponent, with the opponent's count")
        if self.profile not in PROFILES:
            raise ValueError(f"a range profile is one of {', '.join(PROFILES)}")

    @property
    def size(self) -> int:
        """Cards in a hand: four in Badugi, five elsewhere."""
        return hand_size_of(self.ranking)

    def all_reads(self) -> tuple[Read, ...]:
        """Each opponent's read: the given ones, else each count as begun on this draw."""
        return self.reads or tuple(Read(c, self.draws_left) for c in self.opponents)

    def folds(self) -> bool:
        """Whether the opponents may fold in this spot's model: the hero bets after the
        last draw (Badugi's simulator, ``engine.sim.draw_choice``, has no folds)."""
        return self.draws_left == 1 and self.bet > 0 and self.ranking is not Ranking.BADUGI

    def defend(self, keep: Cards) -> float:
        """The share of their final hands the opponents call with when the hero keeps
        ``keep`` (1.0 where nobody folds)."""
        if not self.folds():
            return 1.0
        return defended(self.bet, self.size - len(keep), self.profile)


@dataclass(frozen=True)
class Reviewed:
    """One draw judged: the choice made and the best one, their equities, the loss (0 when
    within the noise, or when it was the best) and every choice considered, best first."""

    kept: Cards
    best_kept: Cards
    equity_chosen: float
    equity_best: float
    stderr: float
    loss: float
    exact: bool
    choices: tuple[DrawChoice, ...] = field(default=())

    @property
    def mistake(self) -> bool:
        return self.loss > 0


def _low_value(card: Card, ranking: Ranking) -> int:
    rank = card >> 2
    return (rank + 1) % 13 if ranking is Ranking.ACE_FIVE else rank


def best_order(hand: Cards, ranking: Ranking) -> list[Card]:
    """The hand's cards from most to least worth keeping: in the low games the lowest of
    each rank first (pairs' second cards last); in high poker paired ranks first (more of
    a kind first), then high cards."""
    if ranking is Ranking.HIGH:
        count = {c >> 2: sum(1 for d in hand if d >> 2 == c >> 2) for c in hand}
        return sorted(hand, key=lambda c: (-count[c >> 2], -(c >> 2), c))
    seen: set[int] = set()
    first: list[Card] = []
    second: list[Card] = []
    for c in sorted(hand, key=lambda c: (_low_value(c, ranking), c)):
        (second if c >> 2 in seen else first).append(c)
        seen.add(c >> 2)
    return first + second


def alternatives(hand: Cards, ranking: Ranking, draws_left: int, kept: Cards) -> list[Cards]:
    """The choices weighed: the best k cards for every k (standing pat is k = 5), the
    default strategy's keep, and what was really done."""
    return _distinct([*standard_keeps(hand, ranking, draws_left), tuple(kept)])


def standard_keeps(hand: Cards, ranking: Ranking, draws_left: int) -> list[Cards]:
    """The choices weighed in every spot, whatever was done: the best k cards for every k
    and the default strategy's keep."""
    order = best_order(hand, ranking)
    keeps = [tuple(order[:k]) for k in range(5, -1, -1)]
    mask = default_strategy(ranking).keep(np.array([hand], dtype=np.uint8), draws_left)[0]
    keeps.append(tuple(c for c, k in zip(hand, mask, strict=True) if k))
    return _distinct(keeps)


def _distinct(keeps: Sequence[Cards]) -> list[Cards]:
    out: list[Cards] = []
    seen: set[tuple[int, ...]] = set()
    for k in keeps:
        if tuple(sorted(k)) not in seen:
            seen.add(tuple(sorted(k)))
            out.append(k)
    return out


def prepare(ranking: Ranking, draws: int = 3, profile: str = STANDARD) -> None:
    """Build every range the review deals in this game of ``draws`` draws under ``profile``
    (each read's strategy, each draw count on each draw), as a worker process does once:
    the first draws reviewed then cost no more than the rest."""
    strategies: dict[tuple[int, int], Strategy] = {}
    for draws_left in range(1, draws + 1):
        for since in range(draws_left, draws + 1):
            for aggressor in (False, True):
                for position in (-1, 0, 1):
                    s = read_strategy(
                        ranking,
                        profile,
                        draws_left=draws_left,
                        since=since,
                        aggressor=aggressor,
                        position=position,
                    )
                    strategies[(id(s), draws_left)] = s
    size = hand_size_of(ranking)
    for (_, draws_left), strategy in strategies.items():
        for keeps in range(size + 1):
            r = base_range(strategy, draws_left, keeps, size=size)
            if len(r.hands) and size == 5:
                rank_range(r, rank_order(ranking))


def read_strategy_of(spot: Spot, read: Read) -> Strategy:
    """The strategy (so the range) the spot's profile gives an opponent read so."""
    return read_strategy(
        spot.ranking,
        spot.profile,
        draws_left=spot.draws_left,
        since=read.since,
        aggressor=read.aggressor,
        position=read.position,
    )


def opponent_players(spot: Spot) -> list[Player]:
    """The opponents as the simulator deals them, each with the range their read and the
    profile give (``engine.sim.reads``); a count the strategy never plays (five drawn where
    it always keeps a card) falls back to any hand."""
    out = []
    size = spot.size
    for read in spot.all_reads():
        strategy = read_strategy_of(spot, read)
        count = read.count
        if count is UNSEEN or not len(
            base_range(strategy, spot.draws_left, size - count, size=size).hands
        ):
            anyone = profile_strategy(spot.ranking, spot.profile)
            out.append(Player((), anyone, keeps_unknown=ANY_KEEP, size=size))
        else:
            out.append(Player.drawing(count, strategy, size=size))
    return out


def _renamed(cards: Cards, suits: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted((c & ~3) | suits[c & 3] for c in cards))


@dataclass(frozen=True)
class Canonical:
    """A spot with its suits renamed to a canonical form: ``hand`` and ``dead`` sorted,
    ``renamings`` every renaming that gives it (more than one when suits are symmetric)."""

    hand: tuple[int, ...]
    dead: tuple[int, ...]
    renamings: tuple[tuple[int, ...], ...]

    def keep(self, keep: Cards) -> tuple[int, ...]:
        """The cards kept, renamed: the smallest of the forms, so that keeps the symmetry
        makes equal (either of two same-rank cards of symmetric suits) are one keep."""
        if len(self.renamings) == 1:
            return _renamed(keep, self.renamings[0])
        return min(_renamed(keep, suits) for suits in self.renamings)


def canonical(spot: Spot) -> Canonical:
    """Each suit is known by what it holds (its ranks in the hand, then among the dead
    cards), and the suits are renamed in the order of that: two spots are equal up to a
    renaming exactly when their suits hold the same, so they get the same form.  Suits
    that hold the same are symmetric: every order of them is one of the renamings."""
    held: list[list[int]] = [[], [], [], []]
    gone: list[list[int]] = [[], [], [], []]
    for c in spot.hand:
        held[c & 3].append(c >> 2)
    for c in spot.dead:
        gone[c & 3].append(c >> 2)
    signs = [
        (tuple(sorted(held[x], reverse=True)), tuple(sorted(gone[x], reverse=True)))
        for x in range(4)
    ]
    order = sorted(range(4), key=lambda x: signs[x], reverse=True)
    suits = [0, 0, 0, 0]
    for new, old in enumerate(order):
        suits[old] = new
    renamings = [tuple(suits)]
    if len(set(signs)) < 4:
        renamings = _symmetric(suits, order, signs)
    return Canonical(_renamed(spot.hand, suits), _renamed(spot.dead, suits), tuple(renamings))


def _symmetric(
    suits: Sequence[int], order: Sequence[int], signs: Sequence[object]
) -> list[tuple[int, ...]]:
    """Every renaming that gives the canonical form: the new names of suits that hold the
    same permuted among them."""
    out = []
    for p in permutations(range(4)):
        if all(signs[order[p[i]]] == signs[order[i]] for i in range(4)):
            out.append(tuple(p[suits[x]] for x in range(4)))
    return sorted(set(out))


def spot_key(spot: Spot) -> tuple[object, ...]:
    """What the answer depends on (see the module's notes): equal keys, equal answers."""
    return _key(spot, canonical(spot))


def _read_key(read: Read) -> tuple[int, int, bool, int]:
    return (-1 if read.count is UNSEEN else read.count, read.since, read.aggressor, read.position)


def _key(spot: Spot, form: Canonical) -> tuple[object, ...]:
    return (
        spot.ranking.value,
        spot.draws_left,
        form.hand,
        form.dead,
        tuple(sorted(_read_key(r) for r in spot.all_reads())),
        spot.profile,
        round(spot.bet, 3) if spot.folds() else 0.0,
    )


def keep_key(spot: Spot, keep: Cards) -> tuple[int, ...]:
    return canonical(spot).keep(keep)


def seed_of(key: tuple[object, ...]) -> int:
    """A seed fixed by the situation, the same in every process and every run."""
    return zlib.crc32(repr(key).encode()) & 0x7FFFFFFF


# One cached choice: equity, standard error, exact, and the standard error of the full
# trials (the noise the verdict is judged by: engine.sim.stopping).
class _Cached(NamedTuple):
    """One keep's answer: its equity, the standard error of this answer, whether it is
    exact, and the standard error the full trials have (what "as good as the best" uses)."""

    equity: float
    stderr: float
    exact: bool
    noise: float


_Known = dict[tuple[int, ...], _Cached]


@dataclass
class ReviewCache:
    """Answers by situation: for each ``spot_key``, keep made (by ``keep_key``) and number of
    trials, each choice's equity (by ``keep_key``).  The trials are part of the key: an
    answer simulated with fewer is a different, noisier answer."""

    entries: dict[tuple[object, ...], _Known] = field(default_factory=dict)
    hits: int = 0
    misses: int = 0


def review(
    spot: Spot, kept: Cards, *, trials: int = TRIALS, cache: ReviewCache | None = None
) -> Reviewed:
    """Judge keeping ``kept`` (a subset of ``spot.hand``) against the alternatives: the
    choices are simulated until the verdict on ``kept`` is sure (``engine.sim.stopping``),
    so the answer is the situation's and the keep's, cached under both."""
    if not set(kept) <= set(spot.hand):
        raise ValueError("the cards kept are not all in the hand")
    form = canonical(spot)
    key = _key(spot, form)
    mine = form.keep(kept)
    keeps = _real_alternatives(spot, form, kept)
    entry = (key, mine, trials)
    known = cache.entries.get(entry) if cache is not None else None
    if known is None:
        canon = list(dict.fromkeys(form.keep(k) for k in keeps))
        focus = canon.index(mine)
        known = _equities(spot, form, canon, focus=focus, trials=trials, seed=seed_of(key))
        if cache is not None:
            cache.misses += 1
            cache.entries[entry] = known
    elif cache is not None:
        cache.hits += 1
    return _judge(spot, kept, keeps, {k: known[form.keep(k)] for k in keeps})


def weigh(spot: Spot, keeps: Sequence[Cards], *, trials: int = TRIALS) -> tuple[DrawChoice, ...]:
    """The spot's standard choices and every keep of ``keeps`` judged together on the same
    deals, best first, until every verdict is sure: a drill question from the review asks
    about any keep the player picks, and the keep they really made, in the review's model."""
    if not keeps or any(not set(k) <= set(spot.hand) for k in keeps):
        raise ValueError("keeps of cards in the hand")
    form = canonical(spot)
    every = _distinct([*_real_alternatives(spot, form, keeps[0]), *keeps])
    canon = list(dict.fromkeys(form.keep(k) for k in every))
    seed = seed_of(_key(spot, form))
    known = _equities(spot, form, canon, focus=None, trials=trials, seed=seed)
    return _judge(spot, keeps[0], every, {k: known[form.keep(k)] for k in every}).choices


def _real_alternatives(spot: Spot, form: Canonical, kept: Cards) -> list[Cards]:
    """The alternatives chosen in the canonical spot and named in the real suits.  Chosen
    in the real ones, ties (which of two cards of a rank is kept first) would fall by suit
    number, so two equal situations could weigh keeps that differ up to the renaming, and
    the one cached first would lack the other's."""
    suits = form.renamings[0]
    back = [0, 0, 0, 0]
    for old, new in enumerate(suits):
        back[new] = old
    if spot.ranking is Ranking.BADUGI:  # every keep that can play (engine.sim.draw_choice)
        canon = _distinct([*sensible_keeps(form.hand, spot.ranking), _renamed(kept, suits)])
    else:
        canon = alternatives(form.hand, spot.ranking, spot.draws_left, _renamed(kept, suits))
    return [tuple((c & ~3) | back[c & 3] for c in k) for k in canon]


def _equities(
    spot: Spot,
    form: Canonical,
    keeps: Sequence[tuple[int, ...]],
    *,
    focus: int | None,
    trials: int,
    seed: int,
) -> _Known:
    """Each (canonical) keep's equity in the canonical spot: exact against one pat hand on
    the last draw where the draw is small enough to count, else simulated (against the
    best counted exactly, if any) until the verdict on ``keeps[focus]`` is sure (on every
    keep's when ``focus`` is ``None``)."""
    reads = tuple(sorted(spot.all_reads(), key=_read_key))
    same = replace(
        spot, hand=form.hand, dead=form.dead,
        opponents=tuple(r.count for r in reads), reads=reads,
    )  # fmt: skip
    out: _Known = {}
    if spot.ranking is Ranking.BADUGI:
        return _badugi_equities(same, keeps, trials, seed)
    simulated = list(keeps)
    reference = None
    if spot.draws_left == 1 and [r.count for r in reads] == [0]:
        known = {*form.hand, *form.dead}
        unseen = [c for c in range(52) if c not in known]
        exact = [k for k in keeps if feasible(len(unseen), 5 - len(k))]
        if exact:
            pat = unknown_range(read_strategy_of(same, reads[0]), 1, 5, known)
            values = _exact_values(same, exact, unseen, pat)
            out.update(
                (k, _Cached(v, 0.0, exact=True, noise=0.0))
                for k, v in zip(exact, values, strict=True)
            )
            reference = max(values)
        simulated = [k for k in keeps if k not in out]
    if simulated:
        mine = [] if focus is None else [i for i, k in enumerate(simulated) if k == keeps[focus]]
        found = simulate_choices(
            form.hand, simulated, opponent_players(same), spot.ranking,
            spot.draws_left, dead=form.dead, trials=trials, seed=seed, block=BLOCK,
            reference=reference, focus=mine or None,
            defend=[same.defend(k) for k in simulated] if same.folds() else None,
        )  # fmt: skip
        out.update(
            (k, _Cached(r.equity, r.stderr, exact=False, noise=r.noise(trials)))
            for k, r in zip(simulated, found, strict=True)
        )
    return out


def _badugi_equities(
    spot: Spot, keeps: Sequence[tuple[int, ...]], trials: int, seed: int
) -> _Known:
    """Badugi's keeps by the drill's engine (``engine.sim.draw_choice``: exact against one
    pat hand on the last draw where it can count, else ``trials`` deals a choice, all of
    them: their standard errors are the noise the verdict is judged by)."""
    found = draw_equity(
        spot.hand, spot.draws_left, spot.ranking, opponent_players(spot), dead=spot.dead,
        keeps=list(keeps), trials=trials, seed=seed,
    )  # fmt: skip
    by_keep = {tuple(sorted(c.keep)): c for c in found}
    out: _Known = {}
    for k in keeps:
        c = by_keep[tuple(sorted(k))]
        out[k] = _Cached(c.equity, c.stderr, exact=c.exact, noise=c.stderr)
    return out


def _exact_values(
    spot: Spot, keeps: Sequence[tuple[int, ...]], unseen: Sequence[int], pat: Range
) -> list[float]:
    """Each keep's exact share against one pat hand of ``pat``: at showdown, or, when the
    hero bets after this last draw, the pot whenever the pat hand folds (it calls with the
    strongest ``spot.defend(keep)`` share of the range, ties at the cut calling) and the
    showdown against the hands that call."""
    if not spot.folds():
        return equities_vs_pat_range(keeps, unseen, pat, spot.ranking)
    ranks = rank_batch(pat.hands, spot.ranking)
    order = np.sort(ranks)
    out = [0.0] * len(keeps)
    for share in sorted({spot.defend(k) for k in keeps}):
        at = [i for i, k in enumerate(keeps) if spot.defend(k) == share]
        calling = int(np.ceil(share * len(order)))
        if calling == 0:
            for i in at:
                out[i] = 1.0
            continue
        called = ranks <= order[calling - 1]
        callers = Range(pat.hands[called], pat.masks[called])
        part = float(called.mean())
        values = equities_vs_pat_range([keeps[i] for i in at], unseen, callers, spot.ranking)
        for i, v in zip(at, values, strict=True):
            out[i] = (1.0 - part) + part * v
    return out


def _judge(
    spot: Spot, kept: Cards, keeps: Sequence[Cards], known: dict[Cards, _Cached]
) -> Reviewed:
    """The choices best first; a choice within ``NOISE_SE`` standard errors (of the full
    trials) of the best is as good as the best, and its loss counts as 0."""
    rows = sorted(keeps, key=lambda k: (-known[k].equity, -len(k)))
    best = rows[0]
    top = known[best]
    best_eq = top.equity
    choices = []
    for k in rows:
        c = known[k]
        discard = tuple(card for card in spot.hand if card not in k)
        loss = best_eq - c.equity
        within = loss <= NOISE_SE * (c.noise * c.noise + top.noise * top.noise) ** 0.5 + 1e-12
        choices.append(
            DrawChoice(
                tuple(k),
                discard,
                c.equity,
                c.stderr,
                loss=loss,
                exact=c.exact,
                as_good_as_best=within,
            )
        )
    chosen = next(c for c in choices if sorted(c.keep) == sorted(kept))
    loss = 0.0 if chosen.as_good_as_best else chosen.loss
    return Reviewed(
        kept=tuple(kept),
        best_kept=tuple(best),
        equity_chosen=chosen.equity,
        equity_best=best_eq,
        stderr=chosen.stderr,
        loss=loss,
        exact=chosen.exact,
        choices=tuple(choices),
    )
