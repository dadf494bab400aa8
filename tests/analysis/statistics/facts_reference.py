"""The facts as ``analysis.statistics.facts`` computed them before issue 19's speed-up (commit
3ada8e0): the plain walks, kept as the oracle ``test_facts_reference`` compares the fast
path with on corpus, dealt and generated hands.  Not imported by the product.

``hand_class`` and ``is_made`` are the old ones too (an ``lru_cache`` on the cards), and
the uncalled part comes from ``engine.pots.uncalled``, so the oracle shares no shortcut
with the code it checks.  Shared, as they were not changed: positions, the engine, the
row's labels (``stakes_label``, ``stored_time``,
``draws_in``); and, since issue 32, which fixed-limit bets and raises are full ones and
so make a betting level (``_full_raises``, checked on its own in test_facts).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from operator import attrgetter
from typing import Any

from analysis.statistics.facts import _full_raises, draws_in, stakes_label, stored_time
from analysis.statistics.hand_classes import _MADE, _MADE_LOW, _badugi_class, _five_card_class
from analysis.statistics.positions import BLIND_POSITIONS, STEAL_POSITIONS, positions_of
from engine.cards import Cards, format_card
from engine.pots import uncalled
from engine.ranking import Ranking, ranking_for
from engine.record import (
    Action,
    ActionKind,
    Collect,
    Draw,
    Game,
    Hand,
    Muck,
    Post,
    PostKind,
    Show,
    Uncalled,
)


@lru_cache(maxsize=1 << 16)
def hand_class(cards: Cards, game: Game) -> str | None:
    """``hand_classes.hand_class`` as it was."""
    ranking = ranking_for(game)
    if ranking is Ranking.BADUGI:
        return _badugi_class(cards)
    if len(cards) != 5 or len(set(cards)) != 5 or min(cards) < 0 or max(cards) > 51:
        return None
    return _five_card_class(cards, ranking)


def is_made(cards: Cards, game: Game) -> bool | None:
    """``hand_classes.is_made`` as it was."""
    cls = hand_class(cards, game)
    if cls is None:
        return None
    return cls in _MADE.get(ranking_for(game), _MADE_LOW)


ROUNDS = 4  # betting rounds kept per player: pre-draw and after each of three draws
DRAWS = 3

_BET, _RAISE, _CALL, _FOLD = ActionKind.BET, ActionKind.RAISE, ActionKind.CALL, ActionKind.FOLD
_BIG_BLIND, _BADUGI = PostKind.BIG_BLIND, Game.BADUGI  # an Enum's attribute is slow
_COUNTED = {ActionKind.BET: 0, ActionKind.RAISE: 1, ActionKind.CALL: 2, ActionKind.CHECK: 3}
"""Index of the kind in a player's counts: ``counts[kind * ROUNDS + round]``."""
_SEAT = attrgetter("seat")
_CARD_TEXT = tuple(format_card(c) for c in range(52))




@dataclass(slots=True)
class _Walk:
    """What the one walk over a hand's steps finds (``_walk``): every fact below is
    computed from it, so no fact walks the steps again."""

    named: set[str] = field(default_factory=set)  # every player a step names
    posts: list[Post] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    # each player's draws 1 to 3 of the first run (``drew[p][k - 1]``: the first draw k)
    drew: dict[str, list[Draw | None]] = field(default_factory=dict)
    last_draw: int = 0  # the last draw made (first run), 0 for none
    shown: dict[str, Cards] = field(default_factory=dict)  # first cards shown (first run)
    shown_open: set[str] = field(default_factory=set)  # showed without mucking
    put: dict[str, int] = field(default_factory=dict)  # posts and bets less uncalled returns
    got: dict[str, int] = field(default_factory=dict)  # collections
    big_blind: bool = False  # anyone posted a big blind


def _walk(hand: Hand) -> _Walk:
    w = _Walk()
    named, posts, actions, drew = w.named, w.posts, w.actions, w.drew
    shown, shown_open, put, got = w.shown, w.shown_open, w.put, w.got
    for step in hand.steps:  # the commonest kinds first
        if isinstance(step, Action):
            p = step.player
            named.add(p)
            actions.append(step)
            put[p] = put.get(p, 0) + step.amount
        elif isinstance(step, Draw):
            p = step.player
            named.add(p)
            if step.run == 0 or step.run == 1:
                k = step.draw
                if k > w.last_draw:
                    w.last_draw = k
                if 1 <= k <= DRAWS:
                    slots = drew.get(p)
                    if slots is None:
                        drew[p] = slots = [None, None, None]  # DRAWS of them
                    if slots[k - 1] is None:
                        slots[k - 1] = step
        elif isinstance(step, Post):
            p = step.player
            named.add(p)
            posts.append(step)
            put[p] = put.get(p, 0) + step.amount
            if step.kind is _BIG_BLIND:
                w.big_blind = True
        elif isinstance(step, Show):
            p = step.player
            named.add(p)
            if (step.run == 0 or step.run == 1) and p not in shown:
                shown[p] = step.cards
            if not step.mucked:
                shown_open.add(p)
        elif isinstance(step, Collect):
            p = step.player
            named.add(p)
            got[p] = got.get(p, 0) + step.amount
        elif isinstance(step, Uncalled):
            p = step.player
            named.add(p)
            put[p] = put.get(p, 0) - step.amount
        elif isinstance(step, Muck):
            named.add(step.player)
    return w


def dealt_in(hand: Hand) -> list[str]:
    """Players dealt cards, in seat order (see the module note)."""
    return _dealt_in(hand, _walk(hand).named)


def _dealt_in(hand: Hand, named: set[str]) -> list[str]:
    if hand.hero is not None and hand.dealt is not None:
        named = named | {hand.hero}
    return [s.player for s in sorted(hand.seats, key=_SEAT) if s.player in named]


def money_flows(hand: Hand, players: list[str]) -> tuple[dict[str, int], dict[str, int], int]:
    """What each player put in and collected, and the rake the hand paid.

    A bet nobody called goes back to its maker.  Where the history has no uncalled line,
    the sites differ: some return the chips silently (the collections then add up to the
    pot without them), others add them to the player's collection.  The first is
    recognised by the collections, with the rake, not exceeding what was put in less the
    unmatched part; only then is the part taken off the bettor's investment.  A rake the
    site does not state is what the stated per-player results lose in all, or else what went
    in and did not come out, in hands that paid out.
    """
    w = _walk(hand)
    return _money_flows(hand, players, w.put, w.got)


def _money_flows(
    hand: Hand, players: list[str], put: dict[str, int], got: dict[str, int]
) -> tuple[dict[str, int], dict[str, int], int]:
    invested = {p: put.get(p, 0) for p in players}
    collected = {p: got.get(p, 0) for p in players}
    back = uncalled(invested)
    if back is not None:
        bettor, part = back
        if sum(collected.values()) + (hand.rake or 0) <= sum(invested.values()) - part:
            invested[bettor] -= part
    rake = hand.rake
    stated = dict(hand.net)
    if rake is None and stated and all(p in stated for p in players):
        rake = max(0, -sum(stated.values()))
    if rake is None:
        paid_out = sum(collected.values())
        rake = max(0, sum(invested.values()) - paid_out) if paid_out > 0 else 0
    return invested, collected, rake


def rake_shares(rake: int, collected: dict[str, int]) -> dict[str, int]:
    """``rake`` split over collectors in proportion to what they collected."""
    total = sum(v for v in collected.values() if v > 0)
    shares = {p: 0 for p in collected}
    if rake <= 0 or total <= 0:
        return shares
    winners = sorted((p for p, v in collected.items() if v > 0), key=lambda p: -collected[p])
    for p in winners:
        shares[p] = rake * collected[p] // total
    left = rake - sum(shares.values())
    for p in winners[:left]:
        shares[p] += 1
    return shares


@dataclass(slots=True)
class _Betting:
    """What one walk over the actions learns about one player."""

    acted_0: bool = False
    vpip: bool = False
    rfi_opp: bool = False
    rfi: bool = False
    pfr: bool = False
    three_bet_opp: bool = False
    three_bet: bool = False
    cap_opp: bool = False
    cap: bool = False
    steal_opp: bool = False
    steal: bool = False
    fold_to_steal_opp: bool = False
    fold_to_steal: bool = False
    fold_to_pat_opp: bool = False
    fold_to_pat: bool = False
    fold_to_three_bet_opp: bool = False
    fold_to_three_bet: bool = False
    folded_round: int | None = None
    all_in: bool = False


def _walk_betting(
    w: _Walk,
    players: list[str],
    pos: dict[str, str],
    pats: dict[int, set[str]],
    full: list[bool] | None = None,
) -> tuple[dict[str, _Betting], dict[str, list[int]], int]:
    """Each player's betting flags, action counts per kind and round, and the last round
    anyone acted in: one walk over the hand's actions, in order."""
    bet = {p: _Betting() for p in players}
    counts = {p: [0] * (len(_COUNTED) * ROUNDS) for p in players}
    for post in w.posts:
        if post.all_in and post.player in bet:
            bet[post.player].all_in = True
    last_street = 0
    level = 1 if w.big_blind else 0
    opened = False
    steal_by: str | None = None  # a steal raise that only folds have followed so far
    two_bettor: str | None = None  # who made the first raise pre-draw
    street = 0
    aggressor: str | None = None  # last bettor or raiser of the current round
    no_pats: set[str] = set()
    for index, step in enumerate(w.actions):
        p = step.player
        b = bet.get(p)
        if b is None:
            continue
        kind, on = step.kind, step.street
        if on != street:
            street, aggressor = on, None
        if step.all_in:
            b.all_in = True
        if on > last_street:
            last_street = on
        aggressive = kind is _BET or kind is _RAISE
        full_raise = aggressive if full is None else full[index]
        fold = kind is _FOLD
        if 0 <= on < ROUNDS:
            index = _COUNTED.get(kind)
            if index is not None:
                counts[p][index * ROUNDS + on] += 1
        if fold and b.folded_round is None:
            b.folded_round = on
        if on == 0:
            first = not b.acted_0
            b.acted_0 = True
            voluntary = aggressive or kind is _CALL
            if voluntary:
                b.vpip = True
            if aggressive:
                b.pfr = True
            if first and not opened:
                b.rfi_opp = True
                b.rfi = aggressive
                if pos.get(p) in STEAL_POSITIONS:
                    b.steal_opp, b.steal = True, aggressive
            if level == 2:
                b.three_bet_opp = True
                b.three_bet = b.three_bet or full_raise
            elif level == 3:
                b.cap_opp = True
                b.cap = b.cap or full_raise
                if p == two_bettor:
                    b.fold_to_three_bet_opp = True
                    b.fold_to_three_bet = fold
            if full_raise and level == 1:
                two_bettor = p
            if steal_by is not None and p != steal_by:
                if pos.get(p) in BLIND_POSITIONS:
                    b.fold_to_steal_opp = True
                    b.fold_to_steal = fold
                if not fold:
                    steal_by = None
            if aggressive and not opened and pos.get(p) in STEAL_POSITIONS:
                steal_by = p
            if voluntary:
                opened = True
            if full_raise:
                level += 1
        elif (
            aggressor is not None
            and aggressor != p
            and (kind is _CALL or kind is _RAISE or fold)
            and aggressor in pats.get(on, no_pats)
        ):
            b.fold_to_pat_opp = True
            if fold:
                b.fold_to_pat = True
        if aggressive:
            aggressor = p
    return bet, counts, last_street


def _cards_text(cards: Cards) -> str | None:
    """The cards as text, ``None`` when one is not a card of the deck (a joker)."""
    if not all(0 <= c < 52 for c in cards):
        return None
    return "".join([_CARD_TEXT[c] for c in cards])


def _after_draw(before: Cards | None, d: Draw) -> Cards | None:
    if d.count == 0:
        return before
    kept, received = d.kept, d.received
    if received is None:
        return None
    if kept is not None:
        return kept + received
    if before is not None and d.discarded is not None:
        gone = set(d.discarded)
        return tuple(c for c in before if c not in gone) + received
    return None


_is_made = lru_cache(maxsize=1 << 16)(is_made)
"""``is_made`` of (cards, game) remembered: a hand's held cards before each draw of each
player are looked up, and the classes of a few thousand values cover every hand."""
_NO_DRAWS: tuple[Draw | None, ...] = (None, None, None)  # DRAWS of them


def hand_facts(hand: Hand) -> list[dict[str, Any]]:
    """One row per player dealt in, in seat order, by column; never raises on odd records."""
    return [dict(zip(FACT_FIELDS, values, strict=True)) for values in hand_fact_rows(hand)]


FACT_FIELDS: tuple[str, ...] = (
    "site", "hand_id", "player", "seat", "is_hero", "game", "structure", "currency",
    "stakes", "small_bet", "big_bet", "tournament_id", "time", "players", "position",
    "invested", "collected", "net", "rake_share", "net_showdown", "net_nonshowdown", "won",
    "went_to_showdown", "won_at_showdown", "draws_seen", "saw_draw_1", "won_saw_draw_1",
    "folded_round", "all_in", "predraw_acted", "vpip", "rfi_opp", "rfi", "pfr",
    "three_bet_opp", "three_bet", "cap_opp", "cap", "steal_opp", "steal",
    "fold_to_steal_opp", "fold_to_steal", "bets_0", "bets_1", "bets_2", "bets_3",
    "raises_0", "raises_1", "raises_2", "raises_3", "calls_0", "calls_1", "calls_2",
    "calls_3", "checks_0", "checks_1", "checks_2", "checks_3", "drawn_1", "drawn_2",
    "drawn_3", "pat_1", "pat_2", "pat_3", "snow_opp", "snowed", "break_opp", "broke",
    "fold_to_pat_opp", "fold_to_pat", "cards_shown", "final_cards", "final_class",
    "fold_to_three_bet_opp", "fold_to_three_bet",
)  # fmt: skip
"""The names of ``hand_fact_rows``' values, in order: the columns of commit 3ada8e0's
table (the facts compare with it by name; statistics declared since have their own
tests)."""


def hand_fact_rows(hand: Hand, lead: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """``hand_facts`` as plain tuples in field order (``FACT_FIELDS``), each after the
    values ``lead`` (the importer's row number): the importer's path, which only turns
    each row into a tuple again; building 80 frozen fields a row cost a quarter of the
    facts' time."""
    return fact_rows(hand, lead, stored_time(hand.time))


def fact_rows(hand: Hand, lead: tuple[Any, ...], time: datetime | None) -> list[tuple[Any, ...]]:
    """``hand_fact_rows`` given the hand's ``stored_time``, which the importer has
    already: it converts a hand's time once for its row, its facts and its stack check."""
    w = _walk(hand)
    players = _dealt_in(hand, w.named)
    if not players:
        return []
    seat_of = {s.player: s.seat for s in hand.seats}
    pos = positions_of(hand, players, w.posts)
    game_kind = hand.game
    n_draws = draws_in(game_kind)
    drew = w.drew
    pats = {
        k: {
            p
            for p in players
            if (m := drew.get(p)) is not None and (d := m[k - 1]) is not None and d.count == 0
        }
        for k in range(1, n_draws + 1)
    }
    full = _full_raises(hand, w.actions, w.posts)
    betting, counts, last_street = _walk_betting(w, players, pos, pats, full)

    invested, collected, rake_paid = _money_flows(hand, players, w.put, w.got)
    stated = dict(hand.net)
    net = {p: stated.get(p, collected[p] - invested[p]) for p in players}
    rake = rake_shares(rake_paid, collected)

    showdown = sum(1 for p in players if betting[p].folded_round is None) >= 2
    last_draw = w.last_draw
    # the draws reached: 1 .. reached (a draw was made, or a later round was bet)
    reached = min(n_draws, max(last_draw, last_street))
    shown, shown_open = w.shown, w.shown_open
    known_start = dict(hand.dealt_others)
    hand_size = 4 if game_kind is _BADUGI else 5
    if hand.hero is not None and hand.dealt is not None:
        known_start[hand.hero] = hand.dealt

    game, structure, stakes = str(game_kind), str(hand.structure), stakes_label(hand)
    tournament = hand.tournament.tournament_id if hand.tournament else None
    rows: list[tuple[Any, ...]] = []
    for p in players:
        b, c = betting[p], counts[p]
        folded = b.folded_round
        seen = reached if folded is None else min(reached, folded)
        if seen < 0:
            seen = 0
        went = showdown and folded is None
        mine: Sequence[Draw | None] = drew.get(p) or _NO_DRAWS
        drawn = [None if d is None else d.count for d in mine]
        snow_opp = snowed = break_opp = broke = False
        cur = known_start.get(p)
        for k in range(n_draws):
            d = mine[k]
            if d is None:
                break
            held = cur
            if (
                held is None
                and d.count == 0
                and p in shown
                and all(x is None or x.count == 0 for x in mine[k:n_draws])
            ):
                held = shown[p]
            made = _is_made(held, game_kind) if held is not None else None
            if made is not None:
                if d.count == 0:
                    snow_opp = True
                    snowed = snowed or not made
                if made:
                    break_opp = True
                    broke = broke or d.count > 0
            cur = _after_draw(cur, d)
        final = shown.get(p)
        if final is None and went and cur is not None and len(cur) == hand_size:
            final = cur
        final_class = hand_class(final, game_kind) if final is not None and went else None
        won = collected[p] > 0
        rows.append(
            (  # in field order
                *lead,
                hand.site,  # site
                hand.hand_id,  # hand_id
                p,  # player
                seat_of[p],  # seat
                p == hand.hero,  # is_hero
                game,  # game
                structure,  # structure
                hand.currency,  # currency
                stakes,  # stakes
                hand.stakes.small_bet,  # small_bet
                hand.stakes.big_bet,  # big_bet
                tournament,  # tournament_id
                time,  # time
                len(players),  # players
                pos.get(p, "?"),  # position
                invested[p],  # invested
                collected[p],  # collected
                net[p],  # net
                rake.get(p, 0),  # rake_share
                net[p] if went else 0,  # net_showdown
                0 if went else net[p],  # net_nonshowdown
                won,  # won
                went,  # went_to_showdown
                went and won,  # won_at_showdown
                seen,  # draws_seen
                seen >= 1,  # saw_draw_1
                seen >= 1 and won,  # won_saw_draw_1
                folded,  # folded_round
                b.all_in,  # all_in
                b.acted_0,  # predraw_acted
                b.vpip,  # vpip
                b.rfi_opp,  # rfi_opp
                b.rfi,  # rfi
                b.pfr,  # pfr
                b.three_bet_opp,  # three_bet_opp
                b.three_bet,  # three_bet
                b.cap_opp,  # cap_opp
                b.cap,  # cap
                b.steal_opp,  # steal_opp
                b.steal,  # steal
                b.fold_to_steal_opp,  # fold_to_steal_opp
                b.fold_to_steal,  # fold_to_steal
                *c,  # bets_0..3, raises_0..3, calls_0..3, checks_0..3 (_COUNTED)
                drawn[0],  # drawn_1
                drawn[1],  # drawn_2
                drawn[2],  # drawn_3
                None if drawn[0] is None else drawn[0] == 0,  # pat_1
                None if drawn[1] is None else drawn[1] == 0,  # pat_2
                None if drawn[2] is None else drawn[2] == 0,  # pat_3
                snow_opp,  # snow_opp
                snowed,  # snowed
                break_opp,  # break_opp
                broke,  # broke
                b.fold_to_pat_opp,  # fold_to_pat_opp
                b.fold_to_pat,  # fold_to_pat
                p in shown_open,  # cards_shown
                None if final is None else _cards_text(final),  # final_cards
                final_class,  # final_class
                b.fold_to_three_bet_opp,  # fold_to_three_bet_opp
                b.fold_to_three_bet,  # fold_to_three_bet
            )
        )
    return rows
