"""Per-player, per-hand facts: the one table every statistic is computed from.

``hand_facts`` turns one site-neutral ``Hand`` into one frozen row per player dealt in,
holding every flag and count a statistic needs, so that statistics are plain sums over
rows (in DuckDB, table ``player_hands``) and never re-read a hand.  The row's fields and
``FACT_COLUMNS``, the single source of that table's columns, with their DuckDB types, are
in ``analysis.statistics.fact_row``; the store adds its own ``hand BIGINT`` (``hands.id``)
in front.  A row is built by column name (a dict per player), its values read out in the
table's order once at the end.  The betting statistics' columns are not written here one by
one: the walk describes each decision (``analysis.statistics.spots``) and sets the columns
of every declared statistic (``definitions.BETTING``) whose spot and event it is.

Definitions the flags follow (the statistics' texts in ``analysis.statistics.definitions``
repeat them):

- Dealt in: a seated player who appears in any post, action, draw, show, muck, uncalled
  bet or collection, or the hero when the history shows the hero's cards.
- Betting levels: round 0 is pre-draw.  The big blind counts as the first bet, so a raise
  over it is the 2-bet, a re-raise the 3-bet and the next the 4-bet, the cap in fixed
  limit (a bet and three raises).  Without a big blind the first bet is level 1.  In fixed
  limit only full bets and raises make a level (RULES.md, short all-ins): an all-in short of
  half a bet makes none and its completion is the full one; the raise to the level an
  all-in of half a bet made is no new level.
- Unopened pot: nobody has called, bet or raised before the player's first pre-draw action
  (posting blinds does not open it).  Raise first in = first action a raise in an unopened
  pot.  Steal attempt = raise first in from CO, BTN or SB; fold to steal = the blind's
  first action after such a raise, with only folds between, is a fold.  Fold to 3-bet:
  the player who made the first raise acts facing exactly one re-raise (opportunity) and
  folds (taken).
- VPIP / PFR: called or raised (VPIP), raised (PFR) pre-draw; the opportunity is having
  made any pre-draw decision (a walk gives the big blind none).
- Showdown: at the end of the hand two or more players have not folded; a player who did
  not fold then went to showdown.  Won = collected any chips (a split counts).
- Cards drawn: ``drawn_k`` is the number of cards taken on draw ``k``, 0 for standing pat,
  ``NULL`` where the player did not reach that draw or the history does not say.
- Made hand: see ``analysis.statistics.hand_classes`` (2-7: ten-low or better with no pair, straight
  or flush).  Snow opportunity = stood pat while the held five cards are known (the hero's,
  or a hand shown at the end after standing pat on every later draw); snowed = one such
  pat held a hand that was not made.  Break opportunity = held a known made hand before a
  draw; broke = discarded at least one card from it.
- Fold to pat: in a betting round after a draw, the player faced a bet or raise whose
  maker stood pat on that draw (opportunity), and folded to it (taken).
- Rake: as the site states it, else what the site's per-player results lose in all, else
  what went in and did not come out (hands that paid out).  Rake share: the hand's rake
  divided among the players who collected, in proportion to what they collected (whole
  hundredths, the remainder to the largest collector first).
- Time: UTC without a zone where the site gave a zone, else as written (as ``hands.time``).
- Money: ``invested`` = posts + bets - uncalled returns (stated, or recognised where the
  site returns them silently, see ``money_flows``); ``collected`` = collections;
  ``net`` is the site's own figure where it states one per player, else collected -
  invested.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import lru_cache
from operator import attrgetter, itemgetter
from typing import Any

from analysis.statistics import spots
from analysis.statistics.definitions import BETTING
from analysis.statistics.fact_row import (
    BETTING_COLUMNS,
    DRAWS,
    FACT_FIELDS,
    ROUNDS,
    PlayerHandFacts,
)
from analysis.statistics.hand_classes import hand_class_of, made_hand
from analysis.statistics.positions import BLIND_POSITIONS, STEAL_POSITIONS, positions_of
from engine.cards import Cards, format_card
from engine.money import format_money
from engine.pots import uncalled
from engine.profiles import profile_for
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
    Structure,
    Uncalled,
)
from engine.rules import fixed_raise, rules_of

_BET, _RAISE, _CALL, _FOLD = ActionKind.BET, ActionKind.RAISE, ActionKind.CALL, ActionKind.FOLD
_CHECK = ActionKind.CHECK
_BIG_BLIND, _BADUGI = PostKind.BIG_BLIND, Game.BADUGI  # an Enum's attribute is slow
_SEAT = attrgetter("seat")
_CARD_TEXT = {c: format_card(c) for c in range(52)}.__getitem__
"""A card's text; ``KeyError`` for a number that is no card of the deck (a joker)."""


def money_label(amount: int) -> str:
    """Hundredths as the sites write them: 10 -> "0.10", 200 -> "2", -10 -> "-0.10"."""
    return format_money(amount, thousands=False)


def stakes_label(hand: Hand) -> str:
    s = hand.stakes
    return _stakes_label(s.small_bet, s.big_bet)


@lru_cache(maxsize=4096)
def _stakes_label(small_bet: int, big_bet: int) -> str:
    return f"{money_label(small_bet)}/{money_label(big_bet)}"


def stored_time(time: datetime | None) -> datetime | None:
    """UTC without a zone where the site gave one, as written where it did not (as ``hands``)."""
    if time is None or time.tzinfo is None:
        return time
    return time.astimezone(UTC).replace(tzinfo=None)


def draws_in(game: Game) -> int:
    return 3 if game in _TRIPLE_DRAWS else 1


_TRIPLE_DRAWS = frozenset({Game.TRIPLE_DRAW_27, Game.TRIPLE_DRAW_A5, Game.BADUGI})


_NEW_ROW: dict[str, Any] = {
    **dict.fromkeys(FACT_FIELDS),
    **dict.fromkeys(BETTING_COLUMNS, False),
    **{f"{name}_{r}": 0 for name in ("bets", "raises", "calls", "checks") for r in range(ROUNDS)},
    **dict.fromkeys(("all_in", "snow_opp", "snowed", "break_opp", "broke"), False),
    "invested": 0,
}
"""A row before the walks, by column: the betting flags false and the counts zero, the
rest set per hand or player (``folded_round`` stays ``None`` for a player who never
folds)."""
_VALUES = itemgetter(*FACT_FIELDS)
"""A row's values in the table's column order."""
_COUNTED: dict[ActionKind, tuple[str, ...]] = {
    kind: tuple(f"{name}_{r}" for r in range(ROUNDS)) for kind, name in (
        (ActionKind.BET, "bets"), (ActionKind.RAISE, "raises"),
        (ActionKind.CALL, "calls"), (ActionKind.CHECK, "checks"),
    )
}  # fmt: skip
"""The column that counts a kind of action in each betting round."""
_ACTION_BIT = {
    ActionKind.FOLD: spots.FOLD, ActionKind.CHECK: spots.CHECK, ActionKind.CALL: spots.CALL,
    ActionKind.BET: spots.BET, ActionKind.RAISE: spots.RAISE,
}  # fmt: skip
_SPOTS = tuple((s.spot, s.event, s.key) for s in BETTING if s.spot is not None)
_HITS: dict[int, tuple[str, ...]] = {}
"""The betting columns a decision sets true, by the decision's mask (``_hits``): a hand's
decisions fall into a few hundred kinds, each matched against every spot once."""


def _hits(mask: int) -> tuple[str, ...]:
    """The columns a decision described by ``mask`` sets: each spot it is, and each event
    it is at such a spot."""
    found = _HITS.get(mask)
    if found is None:
        columns: list[str] = []
        for spot, event, key in _SPOTS:
            if spot.admits(mask):
                columns.append(spot.column)
                if mask & event:
                    columns.append(key)
        _HITS[mask] = found = tuple(columns)
    return found


_Walk = tuple[
    set[str],  # named: every player a step names
    list[Post],  # posts, in order
    list[Action],  # actions, in order
    dict[str, list[Draw | None]],  # drew[p][k - 1]: p's first draw k of the first run
    tuple[set[str], ...],  # pats[k]: who stood pat on that first draw k (1 to 3)
    int,  # the last draw made (first run), 0 for none
    dict[str, Cards],  # shown: first cards shown (first run)
    set[str],  # shown_open: showed without mucking
    dict[str, int],  # put: posts less uncalled returns (``_betting`` adds the bets)
    dict[str, int],  # got: collections
    bool,  # anyone posted a big blind
]
"""What the one walk over a hand's steps finds (``_walk``): every fact is computed from
it, so no fact walks the steps again.  A plain tuple: building a dataclass with eight
default factories per hand cost more than the walk's busiest branch."""


def _walk(hand: Hand) -> _Walk:
    named: set[str] = set()
    posts: list[Post] = []
    actions: list[Action] = []
    drew: dict[str, list[Draw | None]] = {}
    pats: tuple[set[str], ...] = (set(), set(), set(), set())  # index 0 unused
    shown: dict[str, Cards] = {}
    shown_open: set[str] = set()
    put: dict[str, int] = {}
    got: dict[str, int] = {}
    last_draw = 0
    big_blind = False
    add = named.add
    for step in hand.steps:  # the commonest kinds first; ``type() is`` as no kind is subclassed
        if type(step) is Action:
            p = step.player
            add(p)
            actions.append(step)
        elif type(step) is Draw:
            p = step.player
            add(p)
            if step.run == 0 or step.run == 1:
                k = step.draw
                if k > last_draw:
                    last_draw = k
                if 1 <= k <= DRAWS:
                    slots = drew.get(p)
                    if slots is None:
                        drew[p] = slots = [None, None, None]  # DRAWS of them
                    if slots[k - 1] is None:
                        slots[k - 1] = step
                        if step.count == 0:
                            pats[k].add(p)
        elif type(step) is Post:
            p = step.player
            add(p)
            posts.append(step)
            put[p] = put.get(p, 0) + step.amount
            if step.kind is _BIG_BLIND:
                big_blind = True
        elif type(step) is Show:
            p = step.player
            add(p)
            if (step.run == 0 or step.run == 1) and p not in shown:
                shown[p] = step.cards
            if not step.mucked:
                shown_open.add(p)
        elif type(step) is Collect:
            p = step.player
            add(p)
            got[p] = got.get(p, 0) + step.amount
        elif type(step) is Uncalled:
            p = step.player
            add(p)
            put[p] = put.get(p, 0) - step.amount
        elif type(step) is Muck:
            add(step.player)
    return named, posts, actions, drew, pats, last_draw, shown, shown_open, put, got, big_blind


def dealt_in(hand: Hand) -> list[str]:
    """Players dealt cards, in seat order (see the module note)."""
    return _dealt_in(hand, _walk(hand)[0])


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
    put = dict(w[8])
    for a in w[2]:
        put[a.player] = put.get(a.player, 0) + a.amount
    return _money_flows(hand, players, {p: put.get(p, 0) for p in players}, w[9])


def _money_flows(
    hand: Hand, players: list[str], invested: dict[str, int], got: dict[str, int]
) -> tuple[dict[str, int], dict[str, int], int]:
    """``money_flows`` given what each player put in before uncalled returns the history
    does not state (``invested``, changed in place)."""
    collected = {p: got.get(p, 0) for p in players}
    paid_out = sum(collected.values())
    back = uncalled(invested)
    if back is not None and paid_out + (hand.rake or 0) <= sum(invested.values()) - back.amount:
        invested[back.player] -= back.amount
    rake = hand.rake
    if rake is None and hand.net:
        stated = dict(hand.net)
        if all(p in stated for p in players):
            rake = max(0, -sum(stated.values()))
    if rake is None:
        rake = max(0, sum(invested.values()) - paid_out) if paid_out > 0 else 0
    return invested, collected, rake


def rake_shares(rake: int, collected: dict[str, int]) -> dict[str, int]:
    """``rake`` split over collectors in proportion to what they collected."""
    shares = dict.fromkeys(collected, 0)
    if rake <= 0:
        return shares
    winners = [p for p, v in collected.items() if v > 0]
    if not winners:
        return shares
    if len(winners) == 1:  # the common case: one collector pays it all
        shares[winners[0]] = rake
        return shares
    total = sum(collected[p] for p in winners)
    winners.sort(key=lambda p: -collected[p])
    for p in winners:
        shares[p] = rake * collected[p] // total
    left = rake - sum(shares.values())
    for p in winners[:left]:
        shares[p] += 1
    return shares


def _full_raises(hand: Hand, actions: list[Action], posts: list[Post]) -> list[bool] | None:
    """Which of ``actions`` are full bets or raises, by the engine's rule of short fixed-limit
    all-ins (``engine.rules.fixed_raise``): an all-in short of half a bet is none, and the
    raise to the level an all-in of half a bet already made is none either.  None (every
    bet and raise is full) in the common hand: no all-in bet or raise, or not fixed limit."""
    if hand.structure is not Structure.FIXED or not any(
        a.all_in and (a.kind is _BET or a.kind is _RAISE) for a in actions
    ):
        return None
    profile = profile_for(hand.site)
    rules = rules_of(hand, profile.home_rules)
    stakes = hand.stakes
    bets: dict[str, int] = {}
    for post in posts:
        if post.kind is not PostKind.ANTE:
            bets[post.player] = bets.get(post.player, 0) + post.amount - post.dead
    current = max(bets.values(), default=0)
    street, short_to, short_counted = 0, 0, False
    out: list[bool] = []
    for a in actions:
        if a.street != street:
            street, bets, current, short_to, short_counted = a.street, {}, 0, 0, False
        mine = bets.get(a.player, 0) + a.amount
        bets[a.player] = mine
        counts = False
        if (a.kind is _BET or a.kind is _RAISE) and mine > current:
            size = stakes.big_bet if rules.big_bet_round(street) else stakes.small_bet
            rule = fixed_raise(
                mine,
                current,
                size,
                short_to=short_to,
                short_counted=short_counted,
                casino=profile.casino_short_all_ins,
            )
            counts, short_to, short_counted = rule.counts, rule.short_to, rule.short_counted
        out.append(counts)
        current = max(current, mine)
    return out


class _Predraw:
    """The pre-draw round as the walk goes through it, and what each decision in it faced:
    the betting level (the big blind is the first bet), whether the pot is open, a steal
    raise only folds have followed, the first raiser, who has acted."""

    def __init__(self, big_blind: bool) -> None:
        self.level = 1 if big_blind else 0
        self.opened = False
        self.steal_by: str | None = None
        self.two_bettor: str | None = None
        self.acted: set[str] = set()

    def decision(
        self, p: str, position: str | None, kind: ActionKind, raises_level: bool
    ) -> int:
        """The ``spots`` bits of what ``p`` faced at this decision; then the round moves on
        by it."""
        mask = spots.PREDRAW
        if p not in self.acted:
            self.acted.add(p)
            mask |= spots.FIRST_PREDRAW
        if not self.opened:
            mask |= spots.UNOPENED
        if position in STEAL_POSITIONS:
            mask |= spots.STEAL_SEAT
        if position in BLIND_POSITIONS:
            mask |= spots.BLIND_SEAT
        level = self.level
        if level == 2:
            mask |= spots.ONE_RAISE
        elif level == 3:
            mask |= spots.THREE_BET
        if p == self.two_bettor:
            mask |= spots.FIRST_RAISER
        if raises_level and level == 1:
            self.two_bettor = p
        steal_by = self.steal_by
        if steal_by is not None and p != steal_by:
            mask |= spots.FACING_STEAL
            if kind is not _FOLD:
                self.steal_by = None
        aggressive = kind is _BET or kind is _RAISE
        if aggressive and not self.opened and position in STEAL_POSITIONS:
            self.steal_by = p
        if aggressive or kind is _CALL:
            self.opened = True
        if raises_level:
            self.level = level + 1
        return mask


def _betting(
    actions: list[Action],
    row_of: dict[str, dict[str, Any]],
    posts: list[Post],
    big_blind: bool,
    pos: dict[str, str],
    pats: tuple[set[str], ...],
    n_draws: int,
    full: list[bool] | None = None,
) -> tuple[int, int]:
    """Each player's action counts per kind and round, chips bet and betting statistics,
    written into their rows (``row_of``): one walk over the hand's actions, in order,
    describing each decision by what the player faced and did (``spots``) and setting the
    columns of every statistic whose spot it is (``_hits``).  ``full``: which actions are
    full bets or raises (``_full_raises``; None: every bet and raise), the only ones that
    make a betting level (a completion is no 3-bet).
    Returns the last round anyone acted in and how many rows had a fold."""
    for post in posts:
        if post.all_in:
            r = row_of.get(post.player)
            if r is not None:
                r["all_in"] = True
    last_street = folds = 0
    predraw = _Predraw(big_blind)
    street = 0
    aggressor: str | None = None  # last bettor or raiser of the current round
    checked: set[str] = set()  # who checked in the current round
    for index, step in enumerate(actions):
        p = step.player
        r = row_of.get(p)
        if r is None:
            continue
        kind, on = step.kind, step.street
        if on != street:
            street, aggressor, checked = on, None, set()
        r["invested"] += step.amount  # the row's sum of bets until the money is worked out
        if step.all_in:
            r["all_in"] = True
        if on > last_street:
            last_street = on
        aggressive = kind is _BET or kind is _RAISE
        fold = kind is _FOLD
        raises_level = aggressive if full is None else full[index]
        counted = _COUNTED.get(kind)
        if counted is not None and 0 <= on < ROUNDS:
            r[counted[on]] += 1
        if fold and r["folded_round"] is None:
            r["folded_round"] = on
            folds += 1
        mask = _ACTION_BIT.get(kind, 0) | (spots.FULL if raises_level else 0)
        if aggressor is not None and aggressor != p:
            mask |= spots.FACING_BET
        elif aggressor is None and checked and (p not in checked or len(checked) > 1):
            mask |= spots.CHECKED_TO
        if p in checked:
            mask |= spots.CHECKED_BEFORE
        if on == 0:
            mask |= predraw.decision(p, pos.get(p), kind, raises_level)
        elif 0 < on <= n_draws:
            mask |= spots.AFTER_DRAW
            if on == n_draws:
                mask |= spots.LAST_ROUND
            if p in pats[on]:
                mask |= spots.STOOD_PAT
            if mask & spots.FACING_BET and aggressor in pats[on]:
                mask |= spots.FACING_PAT_BET
        hits = _HITS.get(mask)
        for column in _hits(mask) if hits is None else hits:
            r[column] = True
        if aggressive:
            aggressor = p
        elif kind is _CHECK:
            checked.add(p)
    return last_street, folds


def _cards_text(cards: Cards) -> str | None:
    """The cards as text, ``None`` when one is not a card of the deck (a joker)."""
    try:
        return "".join(map(_CARD_TEXT, cards))
    except KeyError:
        return None


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


def hand_facts(hand: Hand) -> list[PlayerHandFacts]:
    """One row per player dealt in, in seat order; never raises on odd records."""
    return [PlayerHandFacts.of(dict(zip(FACT_FIELDS, values, strict=True)))
            for values in hand_fact_rows(hand)]


def hand_fact_rows(hand: Hand, lead: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """``hand_facts`` as plain tuples in the table's column order (``FACT_FIELDS``), each
    after the values ``lead`` (the importer's row number): the importer's path, which only
    turns each row into a tuple again."""
    return fact_rows(hand, lead, stored_time(hand.time))


def fact_rows(hand: Hand, lead: tuple[Any, ...], time: datetime | None) -> list[tuple[Any, ...]]:
    """``hand_fact_rows`` given the hand's ``stored_time``, which the importer has
    already: it converts a hand's time once for its row, its facts and its stack check."""
    named, posts, actions, drew, pats, last_draw, shown, shown_open, put, got, big_blind = (
        _walk(hand)
    )
    players = _dealt_in(hand, named)
    if not players:
        return []
    pos = positions_of(hand, players, posts)
    game_kind = hand.game
    n_draws = draws_in(game_kind)
    stakes = hand.stakes
    tournament = hand.tournament
    base = _NEW_ROW | {  # the hand's values, shared by its players' rows
        "site": hand.site,
        "hand_id": hand.hand_id,
        "game": str(game_kind),
        "structure": str(hand.structure),
        "currency": hand.currency,
        "stakes": _stakes_label(stakes.small_bet, stakes.big_bet),
        "small_bet": stakes.small_bet,
        "big_bet": stakes.big_bet,
        "tournament_id": None if tournament is None else tournament.tournament_id,
        "time": time,
        "players": len(players),
    }
    row_of = {p: base.copy() for p in players}
    full = _full_raises(hand, actions, posts)
    last_street, folds = _betting(actions, row_of, posts, big_blind, pos, pats, n_draws, full)

    invested = {p: put.get(p, 0) + row_of[p]["invested"] for p in players}
    invested, collected, rake_paid = _money_flows(hand, players, invested, got)
    stated = dict(hand.net) if hand.net else {}
    rake = rake_shares(rake_paid, collected)

    if len(row_of) == len(players):
        showdown = len(players) - folds >= 2
    else:  # a name on two seats: each seat counts
        showdown = sum(1 for p in players if row_of[p]["folded_round"] is None) >= 2
    # the draws reached: 1 .. reached (a draw was made, or a later round was bet)
    reached = min(n_draws, max(last_draw, last_street))
    known_start = dict(hand.dealt_others) if hand.dealt_others else {}
    hero = hand.hero
    if hero is not None and hand.dealt is not None:
        known_start[hero] = hand.dealt
    seat_of = {s.player: s.seat for s in hand.seats}
    ranking = ranking_for(game_kind)
    hand_size = 4 if game_kind is _BADUGI else 5
    rows: list[tuple[Any, ...]] = []
    for p in players:
        r = row_of[p]
        folded = r["folded_round"]
        seen = reached if folded is None else min(reached, folded)
        if seen < 0:
            seen = 0
        went = showdown and folded is None
        cur = _draw_facts(r, drew.get(p), known_start.get(p), shown.get(p), n_draws, ranking)
        final = shown.get(p)
        if final is None and went and cur is not None and len(cur) == hand_size:
            final = cur
        won = collected[p] > 0
        net = stated.get(p, collected[p] - invested[p])
        r["player"], r["seat"], r["is_hero"] = p, seat_of[p], p == hero
        r["position"] = pos.get(p, "?")
        r["invested"], r["collected"], r["net"] = invested[p], collected[p], net
        r["rake_share"] = rake.get(p, 0)
        r["net_showdown"], r["net_nonshowdown"] = (net, 0) if went else (0, net)
        r["won"], r["went_to_showdown"], r["won_at_showdown"] = won, went, went and won
        r["draws_seen"], r["saw_draw_1"], r["won_saw_draw_1"] = seen, seen >= 1, seen >= 1 and won
        r["cards_shown"] = p in shown_open
        r["final_cards"] = None if final is None else _cards_text(final)
        r["final_class"] = hand_class_of(final, ranking) if final is not None and went else None
        rows.append(lead + _VALUES(r))
    return rows


def _draw_facts(
    r: dict[str, Any],
    mine: list[Draw | None] | None,
    cur: Cards | None,
    shown: Cards | None,
    n_draws: int,
    ranking: Ranking,
) -> Cards | None:
    """A player's draws written into their row ``r`` (cards drawn, pats, snows and
    breaks), from the cards known at the start (``cur``); returns the cards held after
    the last draw, where they are known."""
    if mine is None:
        return cur
    snow_opp = snowed = break_opp = broke = False
    first, second, third = mine
    d1 = None if first is None else first.count
    d2 = None if second is None else second.count
    d3 = None if third is None else third.count
    for k in range(n_draws):
        d = mine[k]
        if d is None:
            break
        count = d.count
        held = cur
        if (
            held is None
            and count == 0
            and shown is not None
            and all(x is None or x.count == 0 for x in mine[k:n_draws])
        ):
            held = shown
        if held is not None:
            made = made_hand(held, ranking)
            if made is not None:
                if count == 0:
                    snow_opp = True
                    snowed = snowed or not made
                if made:
                    break_opp = True
                    broke = broke or count > 0
        if count != 0:
            cur = _after_draw(cur, d)
    r["drawn_1"], r["drawn_2"], r["drawn_3"] = d1, d2, d3
    r["pat_1"] = None if d1 is None else d1 == 0
    r["pat_2"] = None if d2 is None else d2 == 0
    r["pat_3"] = None if d3 is None else d3 == 0
    r["snow_opp"], r["snowed"], r["break_opp"], r["broke"] = snow_opp, snowed, break_opp, broke
    return cur
