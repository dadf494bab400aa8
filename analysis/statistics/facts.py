"""Per-player, per-hand facts: the one table every statistic is computed from.

``hand_facts`` turns one site-neutral ``Hand`` into one frozen row per player dealt in,
holding every flag and count a statistic needs, so that statistics are plain sums over
rows (in DuckDB, table ``player_hands``) and never re-read a hand.  ``FACT_COLUMNS`` is
the single source of that table's columns, in order, with their DuckDB types; the store
adds its own ``hand BIGINT`` (``hands.id``) in front.

Definitions the flags follow (the statistics' texts in ``analysis.statistics.definitions``
repeat them):

- Dealt in: a seated player who appears in any post, action, draw, show, muck, uncalled
  bet or collection, or the hero when the history shows the hero's cards.
- Betting levels: round 0 is pre-draw.  The big blind counts as the first bet, so a raise
  over it is the 2-bet, a re-raise the 3-bet and the next the 4-bet, the cap in fixed
  limit (a bet and three raises).  Without a big blind the first bet is level 1.
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

from dataclasses import astuple, dataclass, fields
from datetime import UTC, datetime
from typing import Any

from analysis.statistics.hand_classes import hand_class, is_made
from analysis.statistics.positions import STEAL_POSITIONS, positions
from engine.cards import Cards, format_cards
from engine.money import format_money
from engine.pots import uncalled
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

ROUNDS = 4  # betting rounds kept per player: pre-draw and after each of three draws
DRAWS = 3

_AGGRESSIVE = (ActionKind.BET, ActionKind.RAISE)
_PLAYER_STEPS = (Post, Action, Draw, Show, Muck, Uncalled, Collect)
_COUNTED = {ActionKind.BET: 0, ActionKind.RAISE: 1, ActionKind.CALL: 2, ActionKind.CHECK: 3}
"""Index of the kind in a player's counts: ``counts[kind * ROUNDS + round]``."""
_VOLUNTARY = (ActionKind.CALL, ActionKind.BET, ActionKind.RAISE)


@dataclass(frozen=True, slots=True)
class PlayerHandFacts:
    # who and where
    site: str
    hand_id: str
    player: str
    seat: int
    is_hero: bool
    game: str
    structure: str
    currency: str
    stakes: str
    small_bet: int
    big_bet: int
    tournament_id: str | None
    time: datetime | None
    players: int
    position: str
    # money, int hundredths
    invested: int
    collected: int
    net: int
    rake_share: int
    net_showdown: int
    net_nonshowdown: int
    # how the hand ended for the player
    won: bool
    went_to_showdown: bool
    won_at_showdown: bool
    draws_seen: int
    saw_draw_1: bool
    won_saw_draw_1: bool
    folded_round: int | None
    all_in: bool
    # pre-draw
    predraw_acted: bool
    vpip: bool
    rfi_opp: bool
    rfi: bool
    pfr: bool
    three_bet_opp: bool
    three_bet: bool
    cap_opp: bool
    cap: bool
    steal_opp: bool
    steal: bool
    fold_to_steal_opp: bool
    fold_to_steal: bool
    # aggression per betting round
    bets_0: int
    bets_1: int
    bets_2: int
    bets_3: int
    raises_0: int
    raises_1: int
    raises_2: int
    raises_3: int
    calls_0: int
    calls_1: int
    calls_2: int
    calls_3: int
    checks_0: int
    checks_1: int
    checks_2: int
    checks_3: int
    # draws
    drawn_1: int | None
    drawn_2: int | None
    drawn_3: int | None
    pat_1: bool | None
    pat_2: bool | None
    pat_3: bool | None
    snow_opp: bool
    snowed: bool
    break_opp: bool
    broke: bool
    fold_to_pat_opp: bool
    fold_to_pat: bool
    # showdown
    cards_shown: bool
    final_cards: str | None
    final_class: str | None
    # added after the first layout (columns only ever appended)
    fold_to_three_bet_opp: bool
    fold_to_three_bet: bool

    def as_tuple(self) -> tuple[Any, ...]:
        return astuple(self)


_DUCK_TYPES = {
    "str": "VARCHAR",
    "str | None": "VARCHAR",
    "int": "BIGINT",
    "int | None": "BIGINT",
    "bool": "BOOLEAN",
    "bool | None": "BOOLEAN",
    "datetime | None": "TIMESTAMP",
}
_SMALL = {"seat", "players", "draws_seen", "folded_round"} | {
    f"{k}_{r}" for k in ("bets", "raises", "calls", "checks") for r in range(ROUNDS)
} | {f"drawn_{d}" for d in range(1, DRAWS + 1)}

FACT_COLUMNS: dict[str, str] = {
    f.name: ("SMALLINT" if f.name in _SMALL else _DUCK_TYPES[str(f.type)])
    for f in fields(PlayerHandFacts)
}
"""Column name -> DuckDB type of table ``player_hands``, in the row's field order."""


def money_label(amount: int) -> str:
    """Hundredths as the sites write them: 10 -> "0.10", 200 -> "2", -10 -> "-0.10"."""
    return format_money(amount, thousands=False)


def stakes_label(hand: Hand) -> str:
    s = hand.stakes
    return f"{money_label(s.small_bet)}/{money_label(s.big_bet)}"


def stored_time(time: datetime | None) -> datetime | None:
    """UTC without a zone where the site gave one, as written where it did not (as ``hands``)."""
    if time is None or time.tzinfo is None:
        return time
    return time.astimezone(UTC).replace(tzinfo=None)


def draws_in(game: Game) -> int:
    return 3 if game in (Game.TRIPLE_DRAW_27, Game.TRIPLE_DRAW_A5, Game.BADUGI) else 1


def dealt_in(hand: Hand) -> list[str]:
    """Players dealt cards, in seat order (see the module note)."""
    named: set[str] = set()
    for step in hand.steps:
        if isinstance(step, _PLAYER_STEPS):
            named.add(step.player)
    if hand.hero is not None and hand.dealt is not None:
        named.add(hand.hero)
    return [s.player for s in sorted(hand.seats, key=lambda s: s.seat) if s.player in named]


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
    invested = dict.fromkeys(players, 0)
    collected = dict.fromkeys(players, 0)
    for step in hand.steps:
        if isinstance(step, (Post, Action)) and step.player in invested:
            invested[step.player] += step.amount
        elif isinstance(step, Uncalled) and step.player in invested:
            invested[step.player] -= step.amount
        elif isinstance(step, Collect) and step.player in collected:
            collected[step.player] += step.amount
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


@dataclass
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
    hand: Hand, players: list[str], pos: dict[str, str], pats: dict[int, set[str]]
) -> tuple[dict[str, _Betting], dict[str, list[int]], int]:
    """Each player's betting flags, action counts per kind and round, and the last round
    anyone acted in."""
    bet = {p: _Betting() for p in players}
    counts = {p: [0] * (len(_COUNTED) * ROUNDS) for p in players}
    last_street = 0
    has_big_blind = any(
        isinstance(s, Post) and s.kind is PostKind.BIG_BLIND for s in hand.steps
    )
    level = 1 if has_big_blind else 0
    opened = False
    steal_by: str | None = None  # a steal raise that only folds have followed so far
    two_bettor: str | None = None  # who made the first raise pre-draw
    street = 0
    aggressor: str | None = None  # last bettor or raiser of the current round
    for step in hand.steps:
        if isinstance(step, Post):
            if step.player in bet and step.all_in:
                bet[step.player].all_in = True
            continue
        if not isinstance(step, Action) or step.player not in bet:
            continue
        p, kind, b = step.player, step.kind, bet[step.player]
        if step.street != street:
            street, aggressor = step.street, None
        if step.all_in:
            b.all_in = True
        last_street = max(last_street, step.street)
        if 0 <= step.street < ROUNDS:
            index = _COUNTED.get(kind)
            if index is not None:
                counts[p][index * ROUNDS + step.street] += 1
        if kind is ActionKind.FOLD and b.folded_round is None:
            b.folded_round = step.street
        if step.street == 0:
            first = not b.acted_0
            b.acted_0 = True
            aggressive = kind in _AGGRESSIVE
            if kind in _VOLUNTARY:
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
                b.three_bet = b.three_bet or aggressive
            elif level == 3:
                b.cap_opp = True
                b.cap = b.cap or aggressive
                if p == two_bettor:
                    b.fold_to_three_bet_opp = True
                    b.fold_to_three_bet = kind is ActionKind.FOLD
            if aggressive and level == 1:
                two_bettor = p
            if steal_by is not None and p != steal_by and pos.get(p) in ("SB", "BB"):
                b.fold_to_steal_opp = True
                b.fold_to_steal = kind is ActionKind.FOLD
            if steal_by is not None and kind is not ActionKind.FOLD and p != steal_by:
                steal_by = None
            if aggressive and not opened and pos.get(p) in STEAL_POSITIONS:
                steal_by = p
            if kind in _VOLUNTARY:
                opened = True
            if aggressive:
                level += 1
        else:
            facing = aggressor is not None and aggressor != p
            answers = kind in (ActionKind.CALL, ActionKind.RAISE, ActionKind.FOLD)
            if facing and answers and aggressor in pats.get(step.street, set()):
                b.fold_to_pat_opp = True
                if kind is ActionKind.FOLD:
                    b.fold_to_pat = True
        if kind in _AGGRESSIVE:
            aggressor = p
    return bet, counts, last_street


def _first_draws(hand: Hand) -> dict[tuple[str, int], Draw]:
    """Each player's draw ``k`` (the first run's where the hand was run twice)."""
    out: dict[tuple[str, int], Draw] = {}
    for d in hand.steps:
        if isinstance(d, Draw) and d.run in (0, 1):
            out.setdefault((d.player, d.draw), d)
    return out


def _cards_text(cards: Cards | None) -> str | None:
    if cards is None or not all(0 <= c < 52 for c in cards):
        return None
    return format_cards(cards, "")


def _after_draw(before: Cards | None, d: Draw) -> Cards | None:
    if d.count == 0:
        return before
    if d.kept is not None and d.received is not None:
        return d.kept + d.received
    if before is not None and d.discarded is not None and d.received is not None:
        gone = set(d.discarded)
        return tuple(c for c in before if c not in gone) + d.received
    return None


def hand_facts(hand: Hand) -> list[PlayerHandFacts]:
    """One row per player dealt in, in seat order; never raises on odd records."""
    return [PlayerHandFacts(*values) for values in hand_fact_rows(hand)]


FACT_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(PlayerHandFacts))
"""The names of ``hand_fact_rows``' values, in order."""


def hand_fact_rows(hand: Hand, lead: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """``hand_facts`` as plain tuples in field order (``FACT_FIELDS``), each after the
    values ``lead`` (the importer's row number): the importer's path, which only turns
    each row into a tuple again; building 80 frozen fields a row cost a quarter of the
    facts' time."""
    players = dealt_in(hand)
    if not players:
        return []
    seat_of = {s.player: s.seat for s in hand.seats}
    pos = positions(hand, players)
    n_draws = draws_in(hand.game)
    draws = _first_draws(hand)
    pats = {
        k: {p for p in players if (d := draws.get((p, k))) is not None and d.count == 0}
        for k in range(1, n_draws + 1)
    }
    betting, counts, last_street = _walk_betting(hand, players, pos, pats)

    invested, collected, rake_paid = money_flows(hand, players)
    stated = dict(hand.net)
    net = {p: stated.get(p, collected[p] - invested[p]) for p in players}
    rake = rake_shares(rake_paid, collected)

    unfolded = [p for p in players if betting[p].folded_round is None]
    showdown = len(unfolded) >= 2
    last_draw = max((d.draw for d in draws.values()), default=0)
    reached = {k for k in range(1, n_draws + 1) if k <= last_draw or k <= last_street}
    shown: dict[str, Cards] = {}
    shown_open: set[str] = set()
    for step in hand.steps:
        if isinstance(step, Show):
            if step.run in (0, 1) and step.player not in shown:
                shown[step.player] = step.cards
            if not step.mucked:
                shown_open.add(step.player)
    known_start = dict(hand.dealt_others)
    hand_size = 4 if hand.game is Game.BADUGI else 5
    if hand.hero is not None and hand.dealt is not None:
        known_start[hand.hero] = hand.dealt

    time = stored_time(hand.time)
    game, structure, stakes = str(hand.game), str(hand.structure), stakes_label(hand)
    tournament = hand.tournament.tournament_id if hand.tournament else None
    rows: list[tuple[Any, ...]] = []
    for p in players:
        b, c = betting[p], counts[p]
        folded = b.folded_round
        seen = sum(1 for k in reached if folded is None or folded >= k)
        went = showdown and folded is None
        drawn = [
            d.count if (d := draws.get((p, k))) is not None else None
            for k in range(1, DRAWS + 1)
        ]
        snow_opp = snowed = break_opp = broke = False
        cur = known_start.get(p)
        for k in range(1, n_draws + 1):
            d = draws.get((p, k))
            if d is None:
                break
            held = cur
            if held is None and d.count == 0 and p in shown:
                later = [draws.get((p, j)) for j in range(k, n_draws + 1)]
                if all(x is None or x.count == 0 for x in later):
                    held = shown[p]
            made = is_made(held, hand.game) if held is not None else None
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
        final_class = hand_class(final, hand.game) if final is not None and went else None
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
                c[0],  # bets_0
                c[1],  # bets_1
                c[2],  # bets_2
                c[3],  # bets_3
                c[4],  # raises_0
                c[5],  # raises_1
                c[6],  # raises_2
                c[7],  # raises_3
                c[8],  # calls_0
                c[9],  # calls_1
                c[10],  # calls_2
                c[11],  # calls_3
                c[12],  # checks_0
                c[13],  # checks_1
                c[14],  # checks_2
                c[15],  # checks_3
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
                _cards_text(final),  # final_cards
                final_class,  # final_class
                b.fold_to_three_bet_opp,  # fold_to_three_bet_opp
                b.fold_to_three_bet,  # fold_to_three_bet
            )
        )
    return rows
