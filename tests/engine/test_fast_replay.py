"""The one-pass replay of clean hands (``engine.fast_replay``) gives exactly what the general
path gives, or steps aside.

``replay_clean`` answers "clean, here is the result" or ``None``.  Every answer must be the
general path's verdict, final stacks and pots to the chip and the character: on every
corpus hand, on dealt hands of every game (fixed, pot and no limit, which it takes, and
the home games, which it must refuse), on dealt hands written out as PokerStars text and
read back (only the hero's cards known), and on hands mutated at random: illegal bets,
wrong turns, raises of every size, odd stacks and all-ins, misdeals and reshuffles, blinds
changed.  The general path here is ``replay`` with the one-pass way switched off.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine.replay as replay_module
from engine import problems as P
from engine.fast_replay import _reshuffled, replay_clean
from engine.profiles import PROFILES, SiteProfile
from engine.record import (
    MISDEAL_NOTE,
    Action,
    ActionKind,
    Collect,
    Draw,
    Game,
    Hand,
    HouseRules,
    Note,
    Post,
    PostKind,
    Seat,
    Show,
    Stakes,
    Step,
    Structure,
    Tournament,
    Uncalled,
)
from engine.replay import replay
from engine.rules import rules_for
from engine.sim.dealer import deal_hands
from engine.state import HandState
from parser.pokerstars_writer import write_pokerstars
from parser.reader import read_path, read_text
from tests.corpus import CORPUS
from tests.engine.test_verify import CASES
from tests.verify_hands import BASE_STEPS, draw, make_hand, with_step

Outcome = tuple[object, ...]


def _general(hand: Hand) -> Outcome:
    original = replay_module.replay_clean  # type: ignore[attr-defined]
    replay_module.replay_clean = lambda hand: None  # type: ignore[attr-defined]
    try:
        done = replay(hand)
    finally:
        replay_module.replay_clean = original  # type: ignore[attr-defined]
    return done.verdict, done.final, done.pots


def _fast(hand: Hand) -> Outcome:
    done = replay(hand)
    return done.verdict, done.final, done.pots


def _fixed_limit() -> list[Hand]:
    """Dealt fixed-limit hands of every game, cash and tournament, 2 to 6 players."""
    hands: list[Hand] = []
    fixed = Structure.FIXED
    for game in Game:
        for players in (2, 3, 4, 6):
            hands.extend(deal_hands(25, game, players, seed=300 + players, structure=fixed))
            hands.extend(
                deal_hands(12, game, players, seed=310 + players, structure=fixed, tournament=True)
            )
            hands.extend(
                deal_hands(8, game, players, seed=320 + players, structure=fixed, site="phh")
            )
    return hands


ANTES = Stakes(5, 10, 10, 20, 2)  # blinds and an ante, as FullTilt's NL single draw


def _is_ante(step: Step) -> bool:
    return isinstance(step, Post) and step.kind is PostKind.ANTE


def _big_bets() -> list[Hand]:
    """Dealt pot-limit and no-limit hands of every game, cash and tournament, 2 to 6
    players: raises of every size, all-ins for less, side pots."""
    hands: list[Hand] = []
    for game in Game:
        for structure in (Structure.POT, Structure.NO_LIMIT):
            for players in (2, 3, 6):
                seed = 330 + players
                hands.extend(deal_hands(15, game, players, seed=seed, structure=structure))
                hands.extend(
                    deal_hands(8, game, players, seed=seed, structure=structure, tournament=True)
                )
    return hands


def _with_antes() -> list[Hand]:
    """Dealt hands with blinds and an ante: cash hands of every game and form, and six-handed
    pot and no-limit sit-and-goes, which add antes from level IV."""
    hands: list[Hand] = []
    for game in Game:
        for structure in (Structure.POT, Structure.NO_LIMIT):
            dealt = deal_hands(60, game, 6, seed=336, structure=structure, tournament=True)
            hands.extend(h for h in dealt if any(_is_ante(s) for s in h.steps))
    for game in Game:
        for structure in Structure:
            for players in (2, 4, 6):
                seed = 350 + players
                hands.extend(
                    deal_hands(12, game, players, seed=seed, structure=structure, stakes=ANTES)
                )
    return hands


def _others() -> list[Hand]:
    """Dealt hands the one-pass way must leave to the general path: the home games."""
    hands: list[Hand] = []
    for house in (HouseRules(), HouseRules(wild="joker", high_low=True), HouseRules(shotgun=True)):
        hands.extend(deal_hands(10, Game.FIVE_CARD_DRAW, 4, seed=340, house=house))
    hands.extend(deal_hands(10, Game.FIVE_CARD_DRAW, 4, seed=341, home=True))
    return hands


def _written_and_read(hands: list[Hand]) -> list[Hand]:
    """The hands as a PokerStars file holds them: only the hero's cards known."""
    text = "".join(write_pokerstars(h) + "\n\n\n" for h in hands)
    return [h for _, h in read_text(text, "stars.txt") if isinstance(h, Hand)]


FIXED = _fixed_limit()
BIG_BETS = _big_bets()
WITH_ANTES = _with_antes()
OTHERS = _others()
STARS_DEALT = [h for h in FIXED if h.game is Game.TRIPLE_DRAW_27 and h.site == "pokerstars"]
STARS = _written_and_read(STARS_DEALT)
STARS_BIG_BETS = _written_and_read(BIG_BETS[::2] + WITH_ANTES[::2])
CORPUS_HANDS = [h for _, h in read_path(CORPUS) if isinstance(h, Hand)]


def _agree(hands: list[Hand]) -> tuple[int, list[str]]:
    """How many hands the one-pass way took, and the hands where anything differs."""
    taken = 0
    differ: list[str] = []
    for hand in hands:
        general = _general(hand)
        clean = replay_clean(hand)
        if clean is not None:
            taken += 1
            if clean != general:
                differ.append(hand.hand_id)
        if _fast(hand) != general:
            differ.append(hand.hand_id)
    return taken, differ


def test_every_corpus_hand_replays_as_the_general_path_replays_it() -> None:
    taken, differ = _agree(CORPUS_HANDS)
    assert differ == []
    assert taken > len(CORPUS_HANDS) // 3  # real hands are its common case


def test_dealt_fixed_limit_hands_of_every_game_are_taken_and_agree() -> None:
    taken, differ = _agree(FIXED)
    assert differ == []
    for game in Game:  # every game's fixed-limit hands go the one-pass way
        of_game = [h for h in FIXED if h.game is game]
        took = sum(1 for h in of_game if replay_clean(h) is not None)
        assert took > len(of_game) * 9 // 10, game
    assert taken > len(FIXED) * 9 // 10


def test_hands_read_back_from_a_pokerstars_file_are_taken_and_agree() -> None:
    assert len(STARS) == len(STARS_DEALT) == 148
    taken, differ = _agree(STARS)
    assert differ == []
    assert taken > 140


def test_dealt_pot_and_no_limit_hands_of_every_game_are_taken_and_agree() -> None:
    taken, differ = _agree(BIG_BETS)
    assert differ == []
    for game in Game:
        for structure in (Structure.POT, Structure.NO_LIMIT):
            of_kind = [h for h in BIG_BETS if h.game is game and h.structure is structure]
            took = sum(1 for h in of_kind if replay_clean(h) is not None)
            assert took > len(of_kind) * 8 // 10, (game, structure)
    assert taken > len(BIG_BETS) * 9 // 10


def test_hands_with_antes_are_taken_and_agree() -> None:
    assert all(any(_is_ante(s) for s in h.steps) for h in WITH_ANTES)
    taken, differ = _agree(WITH_ANTES)
    assert differ == []
    tournaments = [h for h in WITH_ANTES if h.tournament is not None]
    assert len(tournaments) > 200
    assert taken > len(WITH_ANTES) * 9 // 10


def test_pot_and_no_limit_hands_read_back_from_a_pokerstars_file_agree() -> None:
    assert len(STARS_BIG_BETS) == len(BIG_BETS[::2] + WITH_ANTES[::2])
    taken, differ = _agree(STARS_BIG_BETS)
    assert differ == []
    assert taken > len(STARS_BIG_BETS) * 9 // 10


def test_home_hands_are_left_to_the_general_path() -> None:
    assert OTHERS and all(replay_clean(h) is None for h in OTHERS)
    assert _agree(OTHERS) == (0, [])


def test_a_replay_with_views_never_takes_the_one_pass_way() -> None:
    hand = FIXED[0]
    assert replay_clean(hand) is not None
    with_views = replay(hand, views=True)
    assert with_views.states  # the table after every step: the general path's
    assert (with_views.verdict, with_views.final, with_views.pots) == _general(hand)


# ---------------------------------------------------------------- mutated hands

POOL = (
    FIXED[::3]
    + STARS[::2]
    + CORPUS_HANDS[::4]
    + BIG_BETS[::3]
    + WITH_ANTES[::3]
    + STARS_BIG_BETS[::3]
)
KINDS = list(ActionKind)


@st.composite
def _mutated(draw: st.DrawFn) -> Hand:
    """A hand of the pool with one to three slips a site, a reader or a cheat could make."""
    hand = draw(st.sampled_from(POOL))
    steps = list(hand.steps)
    seats = list(hand.seats)
    players = [s.player for s in seats]
    button = hand.button
    for _ in range(draw(st.integers(1, 3))):
        if not steps:
            break
        i = draw(st.integers(0, len(steps) - 1))
        step = steps[i]
        what = draw(st.integers(0, 11))
        if what == 0:  # a step lost
            del steps[i]
        elif what == 1:  # a step twice
            steps.insert(i, step)
        elif what == 2:  # two steps swapped: a wrong turn
            j = draw(st.integers(0, len(steps) - 1))
            steps[i], steps[j] = steps[j], steps[i]
        elif what == 3 and isinstance(step, Action | Post | Collect | Uncalled):
            change = draw(st.sampled_from([-10, -5, -1, 1, 5, 10, 20, 1000]))
            steps[i] = replace(step, amount=max(0, step.amount + change))  # an illegal size
        elif what == 4 and isinstance(step, Action):
            steps[i] = replace(step, kind=draw(st.sampled_from(KINDS)))
        elif what == 5 and isinstance(step, Draw):
            steps[i] = replace(step, count=draw(st.integers(-1, 6)))
        elif what == 6 and isinstance(step, Show | Draw | Action | Post) and players:
            steps[i] = replace(step, player=draw(st.sampled_from([*players, "Nobody"])))
        elif what == 7 and seats:  # an odd stack: short (all-ins) or empty
            k = draw(st.integers(0, len(seats) - 1))
            stack = draw(st.sampled_from([0, 1, 5, 10, 15, 25, 40, seats[k].stack + 7]))
            seats[k] = replace(seats[k], stack=stack)
        elif what == 8:  # a misdeal called, or the deck said to be reshuffled
            kind = draw(st.sampled_from([MISDEAL_NOTE, "reshuffle", "chat", "seat_summary"]))
            who = draw(st.sampled_from([None, *players, "Nobody"]))
            steps.insert(i, Note(kind, "a line", step.line, who))
        elif what == 9 and isinstance(step, Action):
            to = draw(st.sampled_from([None, 0, 20]))
            steps[i] = replace(step, all_in=not step.all_in, to=to)
        elif what == 10 and isinstance(step, Post):
            kind = draw(st.sampled_from(list(PostKind)))
            steps[i] = replace(step, kind=kind, dead=draw(st.sampled_from([0, 0, 5])))
        elif what == 11:  # the button moved, or lost
            button = draw(st.sampled_from([None, *(s.seat for s in seats), 99]))
        elif isinstance(step, Action):
            steps[i] = replace(step, street=step.street + 1)
    return replace(hand, steps=tuple(steps), seats=tuple(seats), button=button)


@pytest.mark.slow
@settings(max_examples=1500, suppress_health_check=[HealthCheck.too_slow])
@given(_mutated())
def test_a_mutated_hand_gives_the_general_result_or_steps_aside(hand: Hand) -> None:
    general = _general(hand)
    clean = replay_clean(hand)
    assert clean is None or clean == general
    assert _fast(hand) == general


@pytest.mark.parametrize("seed", [1, 2])
def test_many_small_slips_in_dealt_hands_agree(seed: int) -> None:
    """A fixed draw of slips over the whole pool: both ways are taken often enough that
    the comparison means something."""
    rng = random.Random(seed)
    taken = refused = 0
    for _ in range(1500):
        hand = rng.choice(POOL)
        steps = list(hand.steps)
        i = rng.randrange(len(steps))
        step = steps[i]
        if isinstance(step, Action) and rng.random() < 0.5:
            steps[i] = replace(step, amount=step.amount + rng.choice([-5, 5, 10]))
        elif rng.random() < 0.5:
            j = rng.randrange(len(steps))
            steps[i], steps[j] = steps[j], steps[i]
        else:
            seats = list(hand.seats)
            k = rng.randrange(len(seats))
            seats[k] = replace(seats[k], stack=rng.choice([1, 10, 25, 60]))
            hand = replace(hand, seats=tuple(seats))
        hand = replace(hand, steps=tuple(steps))
        general = _general(hand)
        clean = replay_clean(hand)
        if clean is None:
            refused += 1
        else:
            taken += 1
            assert clean == general, hand.hand_id
        assert _fast(hand) == general, hand.hand_id
    assert taken > 200 and refused > 200


def test_an_all_in_for_less_is_followed_as_the_general_path_follows_it() -> None:
    """A short stack calls all-in: side pots, the draws still run, the rounds close by
    themselves (``_nobody_to_decide``)."""
    seen = taken = 0
    for hand in FIXED:
        if any(isinstance(s, Action) and s.all_in for s in hand.steps):
            seen += 1
            clean = replay_clean(hand)
            taken += clean is not None
            assert clean in (None, _general(hand))
            assert _fast(hand) == _general(hand)
    assert seen == 25 and taken == 25  # four of them bet or raise all-in for less


def test_an_all_in_raise_for_less_reopens_the_betting_as_the_site_has_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fixed-limit all-in of half a bet or more reopens the betting under the casino rule
    (the default), never at a site that plays without it (``casino_short_all_ins``): the
    hands whose short stacks bet or raise all-in, at such a site and at one without the
    cap heads-up."""
    short = [
        h
        for h in FIXED
        if any(
            isinstance(s, Action) and s.all_in and s.kind in (ActionKind.BET, ActionKind.RAISE)
            for s in h.steps
        )
    ]
    assert len(short) == 9
    monkeypatch.setitem(PROFILES, "uncapped", SiteProfile("uncapped", cap_heads_up=False))
    monkeypatch.setitem(PROFILES, "strict", SiteProfile("strict", casino_short_all_ins=False))
    flagged = 0
    for hand in short:
        there = replace(hand, site="uncapped")
        clean = replay_clean(there)
        assert clean is not None and clean == _general(there), hand.hand_id
        # without the casino rule a raise it allowed is flagged, by both engines alike
        there = replace(hand, site="strict")
        clean = replay_clean(there)
        general = _general(there)
        assert clean is None or clean == general, hand.hand_id
        flagged += not general[0].ok
    assert flagged == 2  # two of them complete a short all-in bet (to 0.20, not 0.30)


def test_a_seat_the_steps_never_name_is_not_dealt_in() -> None:
    hand = FIXED[0]
    extra = Seat(9, "Watcher", 500, hand.line)
    watched = replace(hand, seats=(*hand.seats, extra))
    clean = replay_clean(watched)
    assert clean is not None and clean == _general(watched)
    assert clean[1]["Watcher"] == 500  # seated, never dealt in: the stack is untouched


def test_a_big_blind_from_the_wrong_seat_steps_aside() -> None:
    hand = next(h for h in FIXED if len(h.seats) >= 3)
    posts = [i for i, s in enumerate(hand.steps) if isinstance(s, Post)]
    steps = list(hand.steps)
    big = steps[posts[1]]
    assert isinstance(big, Post) and big.kind is PostKind.BIG_BLIND
    wrong = next(p for p in (s.player for s in hand.seats) if p not in (big.player,))
    steps[posts[1]] = replace(big, player=wrong)
    bad = replace(hand, steps=tuple(steps))
    assert replay_clean(bad) is None
    assert not replay(bad).verdict.ok


def _bet_of(hand: Hand, street: int) -> int:
    draws = 1 if hand.game in (Game.SINGLE_DRAW_27, Game.FIVE_CARD_DRAW) else 3
    draws = 1 if hand.game is Game.SINGLE_DRAW_A5 else draws
    big = street >= (draws + 1) // 2
    return hand.stakes.big_bet if big else hand.stakes.small_bet


def test_each_action_made_one_bet_bigger_or_smaller_agrees() -> None:
    """Every call made a raise of one bet more, every check a bet, every bet or raise a
    call of one bet less: raises past the cap, raises by a player the betting was not
    reopened for, bets of the wrong size and late streets' small bets all come up."""
    changed = refused = 0
    for hand in FIXED[::4] + STARS[::3]:
        for i, step in enumerate(hand.steps):
            if not isinstance(step, Action) or step.kind is ActionKind.FOLD:
                continue
            bet = _bet_of(hand, step.street)
            if step.kind is ActionKind.CALL:
                other = replace(step, kind=ActionKind.RAISE, amount=step.amount + bet, to=None)
            elif step.kind is ActionKind.CHECK:
                other = replace(step, kind=ActionKind.BET, amount=bet, to=None)
            else:
                other = replace(step, kind=ActionKind.CALL, amount=max(0, step.amount - bet))
            mutated = replace(hand, steps=(*hand.steps[:i], other, *hand.steps[i + 1 :]))
            general = _general(mutated)
            clean = replay_clean(mutated)
            changed += 1
            refused += clean is None
            assert clean is None or clean == general, (hand.hand_id, i)
            assert _fast(mutated) == general, (hand.hand_id, i)
    assert changed > 2000 and refused > 500


@pytest.mark.slow
def test_each_pot_and_no_limit_raise_resized_agrees() -> None:
    """Every bet and raise of the pot and no-limit hands made a chip or a blind bigger or
    smaller, doubled or halved, every call a raise of one or two blinds: raises under the
    least, over the pot, all-ins for less that reopen the betting or do not, and raises by
    a player they did not reopen it for all come up."""
    changed = refused = 0
    for hand in BIG_BETS[::3] + STARS_BIG_BETS[::4]:
        blind = hand.stakes.big_blind
        for i, step in enumerate(hand.steps):
            if not isinstance(step, Action) or step.kind in (ActionKind.FOLD, ActionKind.CHECK):
                continue
            if step.kind is ActionKind.CALL:
                others = [
                    replace(step, kind=ActionKind.RAISE, amount=step.amount + k * blind, to=None)
                    for k in (1, 2)
                ]
            else:
                a = step.amount
                sizes = {a - 1, a + 1, a - blind, a + blind, 2 * a, a // 2}
                others = [replace(step, amount=x, to=None) for x in sorted(sizes) if x > 0]
            for other in others:
                mutated = replace(hand, steps=(*hand.steps[:i], other, *hand.steps[i + 1 :]))
                general = _general(mutated)
                clean = replay_clean(mutated)
                changed += 1
                refused += clean is None
                assert clean is None or clean == general, (hand.hand_id, i)
                assert _fast(mutated) == general, (hand.hand_id, i)
    assert changed > 1500 and 300 < refused < changed - 300


def test_every_problem_the_verify_tests_plant_is_the_general_path_s() -> None:
    """One corrupted step in an otherwise clean hand, for every problem code: the one-pass
    way must step aside wherever the replay itself finds the problem."""
    for code, (make, _, _) in CASES.items():
        hand = make()
        general = _general(hand)
        assert replay_clean(hand) in (None, general), code
        assert _fast(hand) == general, code


def test_a_card_thrown_comes_back_only_after_the_stub_ran_out() -> None:
    # C receives the king A threw in the first draw, with 42 cards still in the stub
    hand = make_hand(with_step(19, draw("C", 2, 1, received="Kd")))
    assert replay_clean(hand) is None
    verdict = replay(hand).verdict
    assert [p.code for p in verdict.problems] == [P.DUPLICATE_CARD]
    assert _fast(hand) == _general(hand)


def test_a_reshuffle_where_the_site_writes_it_agrees() -> None:
    """The deck reshuffled before C's second draw: the stub is rebuilt there, and A's king,
    thrown before it, may come back to C."""
    steps = with_step(19, draw("C", 2, 1, received="Kd"))
    steps.insert(19 - 6, Note("reshuffle", "The deck is reshuffled", 0))
    hand = make_hand(steps)
    clean = replay_clean(hand)
    assert clean is not None and clean == _general(hand)


def test_the_stub_runs_out_as_the_state_machine_has_it() -> None:
    """Every stub, discard pile and draw that runs the stub out: the same new stub and pile
    as ``HandState.apply_draw``."""
    rules = rules_for(Game.TRIPLE_DRAW_27, Structure.FIXED)
    checked = 0
    for stub in range(0, 8):
        for pile in range(0, 30):
            for count in range(stub + 1, 6):
                state = HandState(rules, Stakes(5, 10, 10, 20), [(1, "A", 100), (2, "B", 100)], 1)
                state.deal()  # (a draw before the deal deals first)
                state.stub, state.pile = stub, pile
                assert state.apply_draw("A", count)
                assert _reshuffled(stub, pile, count) == (state.stub, state.pile)
                checked += 1
    assert checked == 30 * sum(5 - s for s in range(0, 5))


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"rake": None, "total_pot": None}, P.COLLECT_MISMATCH),  # 80 of 180 missing
        ({"rake": 9, "total_pot": None}, P.COLLECT_MISMATCH),  # 100 + 9 is not 180
        ({"rake": None, "total_pot": 180}, P.COLLECT_MISMATCH),
    ],
)
def test_a_collect_short_of_the_pot_is_settled_the_general_way(
    changes: dict[str, object], code: str
) -> None:
    short = replace(BASE_STEPS[-1], amount=100)
    hand = make_hand(with_step(31, short), **changes)  # type: ignore[arg-type]
    general = _general(hand)
    assert code in [p.code for p in general[0].problems]  # type: ignore[attr-defined]
    assert replay_clean(hand) == general  # the play is clean: the settlement says it
    assert _fast(hand) == general


def test_a_tournament_pot_with_chips_missing_is_settled_the_general_way() -> None:
    hand = replace(make_hand(list(BASE_STEPS), rake=None, total_pot=None), currency="chips")
    hand = replace(hand, tournament=Tournament("T1"))
    steps = list(hand.steps)
    steps[-1] = replace(steps[-1], amount=179)  # one chip short, no rake in a tournament
    hand = replace(hand, steps=tuple(steps))
    general = _general(hand)
    assert [p.code for p in general[0].problems] == [P.COLLECT_MISMATCH]  # type: ignore[attr-defined]
    assert replay_clean(hand) == general


def test_each_uncalled_bet_reported_otherwise_agrees() -> None:
    """Every uncalled bet reported one chip more or less, to another player, twice, or
    not at all, and one reported where none was: the one-report shortcut of the one-pass
    settlement declines exactly where ``uncalled_as_returned`` does."""
    changed = taken = 0
    for hand in FIXED[::3] + STARS:
        players = [s.player for s in hand.seats]
        at = [i for i, s in enumerate(hand.steps) if isinstance(s, Uncalled)]
        variants: list[tuple[Step, ...]] = []
        for i in at:
            u = hand.steps[i]
            assert isinstance(u, Uncalled)
            before, after = hand.steps[:i], hand.steps[i + 1 :]
            other = next(p for p in players if p != u.player)
            variants += [
                (*before, replace(u, amount=u.amount + 1), *after),
                (*before, replace(u, amount=u.amount - 1), *after),
                (*before, replace(u, player=other), *after),
                (*before, replace(u, player="nobody seated"), *after),
                (*before, u, u, *after),
                (*before, *after),
            ]
        if not at:
            first_collect = next(i for i, s in enumerate(hand.steps) if isinstance(s, Collect))
            wrong = Uncalled(players[0], hand.stakes.small_bet, hand.steps[first_collect].line)
            variants.append((*hand.steps[:first_collect], wrong, *hand.steps[first_collect:]))
        for steps in variants:
            mutated = replace(hand, steps=steps)
            general = _general(mutated)
            clean = replay_clean(mutated)
            changed += 1
            taken += clean is not None
            assert clean is None or clean == general, hand.hand_id
            assert _fast(mutated) == general, hand.hand_id
    assert changed > 1500 and taken > 1000  # (settled the general way when declined)


def test_the_uncalled_excess_is_the_state_machine_s() -> None:
    """``_give_back`` against the loop it replaced (``HandState._return_uncalled``'s way):
    every vector of two to four players' totals of up to three chips."""
    from itertools import product

    from engine.fast_replay import _BITS, _bits, _give_back

    def looped(total: list[int]) -> tuple[int, int]:
        top, first, second = -1, 0, 0
        for j, level in enumerate(total):
            if top < 0 or level > first:
                top, first, second = j, level, (first if top >= 0 else 0)
            elif level > second:
                second = level
        return (top, first - second) if first - second > 0 else (-1, 0)

    for n in (2, 3, 4):
        for total in product(range(4), repeat=n):
            mine, stack, back = list(total), [10] * n, [0] * n
            top, excess = looped(list(total))
            assert _give_back(mine, stack, back, None) == top, total
            if top >= 0:
                want = (total[top] - excess, 10 + excess, excess)
                assert (mine[top], stack[top], back[top]) == want
            assert sum(mine) + sum(back) == sum(total)
    assert [_bits(m) for m in range(64)] == [list(b) for b in _BITS[:64]]
    assert _BITS[0b101101] == (0, 2, 3, 5) and _bits(1 << 12 | 1) == [0, 12]
