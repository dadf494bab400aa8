"""One pass over a clean hand with blinds, or "not for me": the replay's shortcut for the
common hand.

Most hands a tracker reads are alike: a draw game with blinds (fixed, pot or no limit),
the small and the big blind posted from their seats, every action the one the player to
act may take, every draw in turn, the cards that are written consistent, the hands shown
in order.  For them the general replay (``engine.replay``) builds its state machine, card
tracker and views and asks each step "is anything wrong?" only to hear "no".  Here the
same rules run in one loop over the steps on a small table of lists indexed by position,
and the moment a step is anything but clean (a finding the general path would report, a
kind of step or rule this does not model: an ante not the stated one or all-in, dead
blinds, run it twice, a misdeal, the home games) it answers ``None`` and the general path
replays the hand from the start.

So this never reports a problem of its own: a hand it answers is one in which the general
path finds nothing up to the settlement, and the settlement is the general one
(``engine.settle.settle`` of the same table).  ``tests/engine/test_fast_replay.py`` checks
that it gives exactly the general path's verdict, final stacks and pots on every corpus
hand, on dealt hands of every game, and on hands corrupted at random.
"""

from __future__ import annotations

from bisect import bisect_right
from operator import attrgetter, itemgetter
from typing import NamedTuple

from engine.hand_value import high_value
from engine.pots import Pot, SettledPot, side_pots
from engine.profiles import SiteProfile, chip_unit, profile_for
from engine.record import (
    MISDEAL_NOTE,
    Action,
    ActionKind,
    Collect,
    Draw,
    Game,
    Hand,
    HouseRules,
    Muck,
    Note,
    Post,
    PostKind,
    Show,
    Stakes,
    Step,
    Structure,
    Uncalled,
)
from engine.rules import Forced, GameRules, Opener, fixed_raise, rules_of
from engine.settle import (
    Reported,
    Table,
    settle,
    sole_best,
    uncalled_as_returned,
    winner_collects_fit,
)
from engine.verdict import Verdict

Clean = tuple[Verdict, dict[str, int], tuple[SettledPot, ...]]
"""What ``engine.replay.Replay`` holds of a hand replayed without views: the verdict, the
final stacks and the settled pots."""

# phases, as small ints (``engine.state.Phase``: deal, betting, draw, showdown, won)
_DEAL, _BETTING, _DRAW, _SHOWDOWN, _WON = 0, 1, 2, 3, 4
_FOLD, _CHECK, _CALL = ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL
_BET, _RAISE = ActionKind.BET, ActionKind.RAISE
_SMALL_BLIND, _BIG_BLIND, _ANTE = PostKind.SMALL_BLIND, PostKind.BIG_BLIND, PostKind.ANTE
_STEP_TYPES = frozenset({Post, Action, Draw, Show, Muck, Uncalled, Collect, Note})
_PLAYER = attrgetter("player")
_SEAT = attrgetter("seat", "player", "stack")
_SEAT_NUMBER = attrgetter("seat")
_PLAYER_STACK = attrgetter("player", "stack")
_BY_SEAT = itemgetter(0)
_SECOND, _THIRD = itemgetter(1), itemgetter(2)  # of a seat's triple: its player, its stack


def _bits(positions: int) -> list[int]:
    """The positions of a bit set, lowest first."""
    return [j for j in range(positions.bit_length()) if positions >> j & 1]


_BIT_SETS = 1 << 10  # tables of up to ten players: each set's positions made once
_BITS = tuple(tuple(_bits(positions)) for positions in range(_BIT_SETS))

_Setup = tuple[SiteProfile, GameRules] | None
_SETUPS: dict[tuple[str, Game, Structure, HouseRules | None], _Setup] = {}


def _setup(site: str, hand: Hand) -> _Setup:
    """The site's profile and the hand's rules when they are ones this pass models: fixed
    limit with a cap, pot limit or no limit, blinds, anything opens, no wild card, no low
    half, no shotgun, no ace rule, the stub reshuffled as often as it runs out.  Made once
    per site, game, form and house."""
    key = (site, hand.game, hand.structure, hand.house)
    if key in _SETUPS:
        return _SETUPS[key]
    profile = profile_for(site)
    rules = rules_of(hand, profile.home_rules)
    structure = rules.structure
    fits = (
        (structure is not Structure.FIXED or rules.cap is not None)
        and rules.forced is Forced.BLINDS
        and rules.opener is Opener.ANY
        and rules.wild is None
        and rules.low is None
        and not rules.shotgun
        and not rules.no_replacement
        and not rules.carry_antes
        and rules.max_discard_with_ace is None
    )
    made: _Setup = (profile, rules) if fits else None
    if len(_SETUPS) < 256:  # a few sites and games, made once each (both are frozen)
        _SETUPS[key] = made
    return made


def replay_clean(hand: Hand) -> Clean | None:
    """The verdict, final stacks and pots of ``hand`` when it is clean (see the module's
    text), exactly as ``engine.replay.replay`` gives them; ``None`` when it is not, and
    then nothing was changed: the general path replays it."""
    setup = _setup(hand.site, hand)
    if setup is None:
        return None
    profile, rules = setup
    button = hand.button
    steps = hand.steps
    seats = hand.seats
    if button is None or hand.carried or hand.up_cards or not steps:
        return None
    kinds = set(map(type, steps))
    if not kinds <= _STEP_TYPES:
        return None
    # the players dealt in (``engine.replay._involved``): each must be seated, once
    if Note in kinds:
        names = {s.player for s in steps if type(s) is not Note}
    else:
        names = set(map(_PLAYER, steps))
    hero, dealt, others = hand.hero, hand.dealt, hand.dealt_others
    if hero is not None and dealt is not None:
        names.add(hero)
    if others:
        names.update(p for p, _ in others)
    seat_names = set(map(_PLAYER, seats))
    if len(seat_names) != len(seats):
        return None  # a name seated twice
    if seat_names == names:  # most hands: everyone seated is dealt in
        seated = list(map(_SEAT, seats))
    else:
        seated = [s for s in map(_SEAT, seats) if s[1] in names]
    n = len(seated)
    if n != len(names) or n < 2 or button not in map(_SEAT_NUMBER, seats):
        return None  # a player not seated, the button on an empty seat, nobody to play
    # positions: clockwise from the first seat left of the button (``HandState.order``)
    ordered = sorted(seated, key=_BY_SEAT)
    left = bisect_right(ordered, button, key=_BY_SEAT)  # the first seat past the button
    ordered = ordered[left:] + ordered[:left]
    order = list(map(_SECOND, ordered))
    index = {p: i for i, p in enumerate(order)}
    button_blinds = n == 2 and button in (seated[0][0], seated[1][0])
    # the cards: holder (card -> player), thrown (card -> reshuffles when thrown), hands
    size = rules.hand_size
    deck = rules.deck_size
    holder: dict[int, str] = {}
    hands: dict[str, list[int] | None] = {}
    if (
        hero is not None
        and dealt is not None
        and not _dealt(holder, hands, hero, dealt, size, deck)
    ):
        return None
    for p, cards in others:
        if not _dealt(holder, hands, p, cards, size, deck):
            return None
    played = _play(
        steps,
        index,
        list(map(_THIRD, ordered)),
        button_blinds,
        hand.stakes,
        rules,
        profile,
        holder,
        hands,
        seat_names,
    )
    if played is None:
        return None
    return _settled(hand, profile, order, seated, played)


def _dealt(
    holder: dict[int, str],
    hands: dict[str, list[int] | None],
    player: str,
    cards: tuple[int, ...],
    size: int,
    deck: int,
) -> bool:
    """Cards the history shows dealt: a whole hand, of the deck, none seen before."""
    if len(cards) != size:
        return False
    for c in cards:
        if c >= deck or c in holder:
            return False
        holder[c] = player
    hands[player] = list(cards)
    return True


class _Played(NamedTuple):
    """A clean hand's end, as settling reads it (by position)."""

    stack: list[int]
    total: list[int]
    returned: list[int]
    live: list[int]
    strengths: dict[int, dict[str, int]]
    forfeited: set[str]
    uncalled: list[Uncalled]
    collects: list[Collect]
    antes: list[int] | None  # each position's ante, None when nobody antes


def _play(
    steps: tuple[Step, ...],
    index: dict[str, int],
    stack: list[int],
    button_blinds: bool,
    stakes: Stakes,
    rules: GameRules,
    profile: SiteProfile,
    holder: dict[int, str],
    hands: dict[str, list[int] | None],
    seat_names: set[str],
) -> _Played | None:
    """Every step of the hand in one loop, the table kept in locals: ``HandState``'s
    ``act_if_legal`` and ``draw_if_legal``, its rounds opening and closing, and the card
    tracker's clean draws, written out once.  ``None`` at the first step that is not clean.

    Players are positions 0..n-1; ``pending``, ``live`` and ``all_in`` are bit sets of
    positions (the active players are ``live & ~all_in``).  In fixed limit a bet or raise
    is the bet exactly, or all-in for less; in pot and no limit at least the last full
    raise (``last_raise``) or all-in, at most the pot in pot limit.  An all-in short of a
    full raise does not reopen the betting for those who acted since the last full one
    (``closed``, a bit set: ``HandState.closed``), and only a full raise counts towards the
    cap and makes its player the aggressor."""
    n = len(stack)
    everyone = (1 << n) - 1
    total = [0] * n
    bet = [0] * n
    returned = [0] * n
    live = everyone
    all_in = 0
    live_n = n
    phase = _DEAL
    street = draw_number = 0
    to_act = -1
    current_bet = bets = 0
    pending = 0
    aggressor = -1
    small = big = -1
    queue: list[int] = []
    small_blind, big_blind = stakes.small_blind, stakes.big_blind
    ante = stakes.ante
    antes: list[int] | None = None  # made at the first ante: dead money, in no level
    small_bet, big_bet = stakes.small_bet, stakes.big_bet
    fixed = rules.structure is Structure.FIXED
    pot_limit = rules.structure is Structure.POT
    size = small_bet if fixed else big_blind  # ``HandState.bet_size``
    last_raise = 0  # the last full bet or raise of the round (pot and no limit)
    closed = 0  # acted since the last full raise: may not raise an all-in for less
    short_to, short_counted = 0, False  # ``HandState._short_to``, ``_short_counted``
    big_from = rules.rounds // 2
    draws = rules.draws
    cap = rules.cap if rules.cap is not None else 1 << 30
    cap_heads_up = profile.cap_heads_up
    casino_short = profile.casino_short_all_ins
    max_discard = rules.max_discard
    hand_size = rules.hand_size
    deck = rules.deck_size
    stub = deck
    pile = reshuffles = 0
    stated = False  # the site wrote that the deck is reshuffled before the next draw
    thrown: dict[int, int] = {}
    strengths: dict[int, dict[str, int]] = {}
    shown_order: list[str] = []
    forfeited: set[str] = set()
    uncalled: list[Uncalled] = []
    collects: list[Collect] = []
    closing = False  # the betting round just ended: what comes next is settled below
    for step in steps:
        if type(step) is Action:
            if phase != _BETTING:
                if phase != _DEAL or big < 0:
                    return None
                # the deal: the first round begins left of the big blind (no one is
                # all-in yet: every blind left chips behind)
                stub = deck - hand_size * n
                phase = _BETTING
                pending = everyone
                if current_bet:
                    aggressor = big
                to_act = big + 1 if big + 1 < n else 0
                if fixed:
                    size = big_bet if big_from <= 0 else small_bet
            if step.street > street:
                return None
            i = index[step.player]
            if i != to_act:
                return None
            amount = step.amount
            have = stack[i]
            if amount > have or (step.all_in and amount < have):
                return None
            bit = 1 << i
            if not live & ~all_in & bit:
                return None  # folded or all-in: never the player to act, but as the state says
            kind = step.kind
            if kind is _FOLD:
                live &= ~bit
                live_n -= 1
                pending &= ~bit
            elif kind is _CHECK:
                if amount or current_bet > bet[i]:
                    return None
                pending &= ~bit
                closed |= bit
            elif kind is _CALL:
                owed = current_bet - bet[i]
                if owed <= 0 or amount != (owed if owed < have else have):
                    return None
                stack[i] = have - amount
                total[i] += amount
                if have <= amount and amount > 0:
                    all_in |= bit
                bet[i] += amount
                pending &= ~bit
                closed |= bit
            elif kind is _BET or kind is _RAISE:
                mine = bet[i]
                owed = current_bet - mine
                new_to = mine + amount
                to = step.to
                if (
                    amount <= owed
                    or (to is not None and to != new_to)
                    or not (live & ~all_in & ~bit)
                    or (owed > 0 and closed & bit)  # an all-in for less did not reopen it
                ):
                    return None
                increase = new_to - current_bet
                if fixed:
                    # one bet more or the completion of a short all-in, or all-in for less
                    # (``HandState._raise_bounds``)
                    target = short_to or current_bet + size  # ``rules.fixed_raise_to``
                    if (new_to != target and (amount != have or new_to > target)) or (
                        bets >= cap and (cap_heads_up or live_n > 2)
                    ):
                        return None
                    if short_to or new_to != target:  # a short all-in or its completion
                        rule = fixed_raise(
                            new_to, current_bet, size, short_to, short_counted, casino_short
                        )
                        full, counts = rule.full, rule.counts
                        short_to, short_counted = rule.short_to, rule.short_counted
                    else:  # one bet more, nothing short before it: full, as the rule has it
                        full = counts = True
                else:
                    least = max(last_raise, size) if current_bet else size
                    # (``HandState._raise_bounds``: a raise under the least is all-in)
                    if increase < least and amount != have:
                        return None
                    if pot_limit and new_to > current_bet + sum(total) + owed:
                        return None  # over the pot (or a least raise past it): the general way
                    full = counts = increase >= least
                    if full:
                        last_raise = max(increase, last_raise) if current_bet else increase
                stack[i] = have - amount
                total[i] += amount
                if have <= amount and amount > 0:
                    all_in |= bit
                bet[i] = new_to
                current_bet = new_to
                bets += counts
                if full:
                    aggressor = i
                    closed = bit
                else:
                    closed |= bit
                pending = live & ~all_in & ~bit
            else:
                return None
            # whose turn next (``HandState._advance``)
            if live_n == 1:
                back = _give_back(total, stack, returned, antes)
                if back >= 0:
                    all_in &= ~(1 << back)
                phase = _WON
                to_act = -1
                continue
            active = live & ~all_in
            if pending and (
                pending & (pending - 1)
                or not active
                or active & (active - 1)
                or bet[active.bit_length() - 1] < current_bet
            ):  # (not ``HandState._nobody_to_decide``: one player left to bet, matched)
                later = pending >> (i + 1)
                if later:
                    to_act = i + (later & -later).bit_length()
                else:
                    to_act = (pending & -pending).bit_length() - 1
                continue
            pending = 0
            closing = True
        elif type(step) is Draw:
            if phase != _DRAW or step.draw != draw_number or step.run or step.shown is not None:
                return None
            i = index[step.player]
            count = step.count
            if (
                not queue
                or queue[0] != i
                or count < 0
                or count > max_discard
                or count > stub + pile
            ):
                return None
            if stated:  # the site says where it reshuffles: there, not by the count
                stated = False
                stub += pile
                pile = 0
                reshuffles += 1
            if count <= stub:
                stub -= count
                pile += count
            else:
                stub, pile = _reshuffled(stub, pile, count)
                reshuffles += 1
            player = step.player
            discarded, kept, received = step.discarded, step.kept, step.received
            if discarded is None and kept is None and received is None:
                if count and hands.get(player) is not None:
                    hands[player] = None  # cards unseen in, unseen out
            elif not _drawn(
                holder,
                thrown,
                hands,
                player,
                count,
                discarded,
                kept,
                received,
                reshuffles,
                hand_size,
                deck,
            ):
                return None
            del queue[0]
            if queue:
                continue
            # the draw is over: the next betting round (``HandState._next_street``)
            street += 1
            phase = _BETTING
            bet = [0] * n
            current_bet = bets = last_raise = closed = short_to = 0
            short_counted = False
            if fixed:
                size = big_bet if street >= big_from else small_bet
            aggressor = -1
            active = live & ~all_in
            pending = active
            if active & (active - 1):  # (two to bet: the bets are all 0 here)
                to_act = (active & -active).bit_length() - 1
                continue
            pending = 0
            closing = True
        elif type(step) is Post:
            amount = step.amount
            i = index[step.player]
            if phase != _DEAL or step.dead or amount >= stack[i] or amount < 0:
                return None  # dead blinds, all-in blinds and antes: the general way
            post = step.kind
            if post is _ANTE:  # the stated ante, once a player (``HandState.apply_post``)
                if antes is None:
                    antes = [0] * n
                if not ante or amount != ante or antes[i]:
                    return None
                antes[i] = amount
                stack[i] -= amount
                total[i] += amount
                continue
            if post is _SMALL_BLIND:
                if small >= 0 or i != (n - 1 if button_blinds else 0):
                    return None
                if amount != small_blind and not (
                    fixed and 3 * big_blind <= 10 * amount <= 6 * big_blind
                ):
                    return None  # fixed-limit sites round half a small bet their own way
                small = i
            elif post is _BIG_BLIND:
                if big >= 0 or amount != big_blind:
                    return None
                if small >= 0:
                    if i != (small + 1) % n:
                        return None
                elif (button_blinds and i != 0) or (not button_blinds and i > 1):
                    return None
                big = i
                bets = 1
                last_raise = big_blind
            else:
                return None
            stack[i] -= amount
            total[i] += amount
            bet[i] += amount
            if bet[i] > current_bet:
                current_bet = bet[i]
            continue
        elif type(step) is Uncalled:
            uncalled.append(step)
            continue
        elif type(step) is Collect:
            if phase < _SHOWDOWN:
                return None
            collects.append(step)
            continue
        elif type(step) is Show:
            if phase < _SHOWDOWN or step.run:
                return None
            player, cards = step.player, step.cards
            if not _shown(holder, thrown, hands, player, cards, reshuffles, hand_size, deck):
                return None
            if live >> index[player] & 1 and len(set(cards)) == hand_size and max(cards) < deck:
                strengths.setdefault(0, {})[player] = high_value(cards, rules)
            if not step.mucked:
                shown_order.append(player)
            continue
        elif type(step) is Muck:
            if phase < _SHOWDOWN:
                return None
            forfeited.add(step.player)
            continue
        elif type(step) is Note:
            note = step.kind
            if note == "reshuffle":
                stated = True
            elif note == MISDEAL_NOTE or (
                "summary" in note and step.player and step.player not in seat_names
            ):
                return None  # a misdeal, or a summary naming somebody not seated
            continue
        else:
            return None
        if closing:  # the round closes (``HandState._close_round``)
            closing = False
            to_act = -1
            back = _give_back(total, stack, returned, antes)
            if back >= 0:
                all_in &= ~(1 << back)
            if live_n <= 1:
                phase = _WON
            elif street >= draws:
                phase = _SHOWDOWN
            else:
                phase = _DRAW
                draw_number = street + 1
                queue = list(_BITS[live]) if live < _BIT_SETS else _bits(live)
    # the end: the betting and the draws all closed, the hands shown in order
    if phase < _SHOWDOWN:
        return None
    order = list(index)
    if profile.checks_show_order and phase == _SHOWDOWN and shown_order:
        in_hand = [order[j] for j in range(n) if live >> j & 1]
        first = in_hand.index(order[aggressor]) if aggressor >= 0 and live >> aggressor & 1 else 0
        rotated = in_hand[first:] + in_hand[:first]
        shown = set(shown_order)
        want = [p for p in rotated if p in shown]
        got = [p for p in shown_order if p in want]
        if got != want[: len(got)]:
            return None  # ``SHOWDOWN_ORDER``: the general path words it
    return tuple.__new__(  # (the fields in order: the generated ``__new__``'s frame less)
        _Played,
        (
            stack,
            total,
            returned,
            list(_BITS[live]) if live < _BIT_SETS else _bits(live),
            strengths,
            forfeited,
            uncalled,
            collects,
            antes,
        ),
    )


def _reshuffled(stub: int, pile: int, count: int) -> tuple[int, int]:
    """The stub runs out in a draw of ``count`` (``HandState.apply_draw``): the discards so
    far are shuffled into a new stub, which deals the rest of the draw; the stub and the
    discard pile after it."""
    return max(0, pile - (count - stub)), count


def _give_back(
    total: list[int], stack: list[int], returned: list[int], antes: list[int] | None
) -> int:
    """``HandState._return_uncalled``: chips above what anyone else could match go back
    (the antes, dead money, match nothing); the position they went back to (no longer
    all-in), or -1.  (The round is over when it is called: its bets are not read again, so
    they are left as they are.)"""
    top = -1
    first = second = 0
    levels = total if antes is None else [t - a for t, a in zip(total, antes, strict=True)]
    for j, level in enumerate(levels):
        if top < 0 or level > first:
            top, first, second = j, level, (first if top >= 0 else 0)
        elif level > second:
            second = level
    excess = first - second
    if top < 0 or excess <= 0:
        return -1
    total[top] -= excess
    stack[top] += excess
    returned[top] += excess
    return top


def _drawn(
    holder: dict[int, str],
    thrown: dict[int, int],
    hands: dict[str, list[int] | None],
    player: str,
    count: int,
    discarded: tuple[int, ...] | None,
    kept: tuple[int, ...] | None,
    received: tuple[int, ...] | None,
    reshuffles: int,
    hand_size: int,
    deck: int,
) -> bool:
    """``CardTracker.draw`` finding nothing: the counts agree with the cards written, what
    is thrown and kept is the player's (of a hand known), what comes in is new (a card
    thrown before the last reshuffle may come back, never one of this draw's discards)."""
    if (
        (discarded is not None and len(discarded) != count)
        or (received is not None and len(received) != count)
        or (kept is not None and received is not None and len(kept) + count != hand_size)
    ):
        return False
    held = hands.get(player)
    if held is not None:
        if discarded is None or kept is None or received is None:
            return False  # a known hand's draw partly written: the general way
        for c in discarded:
            if holder.get(c) != player or c not in held:
                return False
        for c in kept:
            if c not in held:
                return False
    throw = discarded or ()
    for c in throw:
        owner = holder.get(c)
        if owner == player:
            del holder[c]
        elif owner is not None:
            return False
        thrown[c] = reshuffles
    if received:
        for c in received:
            if c >= deck or c in throw or c in holder:
                return False
            then = thrown.get(c)
            if then is not None and then >= reshuffles:
                return False
            holder[c] = player
            thrown.pop(c, None)
    if received is None:
        hands[player] = None
    elif kept is not None:
        hands[player] = [*kept, *received]
    elif count == hand_size:
        hands[player] = list(received)
    else:
        hands[player] = None
    return True


def _shown(
    holder: dict[int, str],
    thrown: dict[int, int],
    hands: dict[str, list[int] | None],
    player: str,
    cards: tuple[int, ...],
    reshuffles: int,
    hand_size: int,
    deck: int,
) -> bool:
    """``CardTracker.show`` finding nothing: the hand known to be the player's, or cards
    nobody holds, none thrown since the last reshuffle."""
    if len(cards) != hand_size:
        return False
    held = hands.get(player)
    if held is not None:
        return sorted(held) == sorted(cards)
    if len(set(cards)) != len(cards):
        return False
    for c in cards:
        owner = holder.get(c)
        if owner == player:
            continue
        if c >= deck or owner is not None:
            return False
        then = thrown.get(c)
        if then is not None and then >= reshuffles:
            return False
    for c in cards:
        holder[c] = player
        thrown.pop(c, None)
    hands[player] = list(cards)
    return True


def _settled(
    hand: Hand,
    profile: SiteProfile,
    order: list[str],
    seated: list[tuple[int, str, int]],
    played: _Played,
) -> Clean:
    """The settlement and the final stacks (``_Replayer.final_stacks``): one player's
    (``_one_taker``), or ``engine.settle.settle`` of the table the general path would
    hand it."""
    collects = played.collects
    pots = _one_taker(hand, profile, order, played)
    if pots is not None:
        final = dict(map(_PLAYER_STACK, hand.seats))
        final.update(zip(order, played.stack, strict=True))
        for c in collects:
            if c.player in final:
                final[c.player] += c.amount
        return Verdict(hand.warnings), final, pots
    if collects:
        end_line = collects[0].line
    else:
        end_line = max(hand.line, max([s.line for s in hand.steps], default=hand.line))
    table = Table(
        total=dict(zip(order, played.total, strict=True)),
        returned=dict(zip(order, played.returned, strict=True)),
        live=[order[j] for j in played.live],
        seat_of={p: s for s, p, _ in seated},
        button=hand.button,
        dead_hand=False,
        strengths=played.strengths,
        low_strengths=None,
        carried=0,
        forfeited=played.forfeited,
        unit=chip_unit(hand, profile),
        dead=_dead(order, played.antes),
    )
    reported = Reported(
        uncalled=played.uncalled,
        collects=collects,
        rake=hand.rake,
        total_pot=hand.total_pot,
        net=hand.net,
        tournament=hand.tournament is not None,
        end_line=end_line,
    )
    settled = settle(table, reported, profile)
    final = dict(map(_PLAYER_STACK, hand.seats))
    final.update(zip(order, played.stack, strict=True))
    for c in collects:
        if c.player in final:
            final[c.player] += c.amount
    for p, amount in settled.returned_in_collect.items():
        final[p] -= amount
    problems = settled.problems
    verdict = Verdict((*hand.warnings, *problems) if problems else hand.warnings)
    return verdict, final, settled.pots


def _dead(order: list[str], antes: list[int] | None) -> dict[str, int]:
    """Each player's chips in no level of the pots (``HandState.pot_dead``): the antes."""
    if antes is None:
        return dict.fromkeys(order, 0)
    return dict(zip(order, antes, strict=True))


def _one_taker(
    hand: Hand, profile: SiteProfile, order: list[str], played: _Played
) -> tuple[SettledPot, ...] | None:
    """The pots when one player takes them all with every figure the site wrote agreeing
    (then settling finds nothing), ``None`` otherwise (the general settlement decides)."""
    collects = played.collects
    if hand.net or not collects or profile.chip_unit is not None:
        return None  # (a unit below a cent only comes from a profile's own)
    uncalled = played.uncalled
    returned = played.returned
    if len(uncalled) == 1 and uncalled[0].player in order:
        # ``uncalled_as_returned`` of one report (the common case), on the positions:
        # exactly what it says came back to that player, and nothing to anyone else
        amount = uncalled[0].amount
        if returned[order.index(uncalled[0].player)] != amount or sum(returned) != amount:
            return None
    elif uncalled:
        if not uncalled_as_returned(uncalled, dict(zip(order, returned, strict=True))):
            return None
    elif any(returned):
        return None  # (the dict of what came back is built only when there is a report)
    total = played.total
    pot = sum(total)
    live = played.live
    antes = played.antes
    pots: tuple[Pot, ...] = ()
    if len(live) == 1:
        winner = order[live[0]]
    else:
        shown = played.strengths.get(0)
        if shown is None:
            return None
        best_shown = sole_best(shown, [order[j] for j in live], played.forfeited)
        if best_shown is None:
            return None
        winner = best_shown
        level = total[live[0]]
        if (
            antes is None
            and level > 0
            and all(total[j] == level for j in live)
            and max(total) == level
        ):
            pots = (Pot(pot, tuple(order[j] for j in live)),)  # ``side_pots``: one pot
        else:
            contributions = dict(zip(order, total, strict=True))
            in_hand = {order[j] for j in live}
            pots = side_pots(contributions, in_hand, _dead(order, antes))
        for each in pots:
            if each.amount and winner not in each.eligible:
                return None
    if not winner_collects_fit(
        collects,
        winner,
        pot,
        hand.rake,
        hand.tournament is not None,
        hand.total_pot,
        profile,
    ):
        return None
    if len(live) == 1:  # the one pot, its one player
        return (SettledPot(pot, (winner,), (winner,)),) if pot else ()
    if len(pots) == 1:
        only = pots[0]
        return (SettledPot(only.amount, only.eligible, (winner,)),) if only.amount else ()
    return tuple(SettledPot(p.amount, p.eligible, (winner,)) for p in pots if p.amount)
