"""The state machine's turns and legal amounts against pokerkit's, decision by decision.

pokerkit (tests only) is an independent engine: the same random betting is played on both
and at every decision the player to act, the amount to call and the smallest and largest
bet or raise must agree.  Stacks are deep so that nobody is all-in for less (where the two
differ by design: see tests/engine/test_pokerkit_crosscheck.py), and every draw stands pat.
"""

from __future__ import annotations

import random
import warnings
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import (
    Automation,
    BettingStructure,
    Deck,
    Mode,
    Opening,
    StandardLowHand,
    State,
    Street,
)

from engine.record import ActionKind, Game, PostKind, Stakes, Structure
from engine.rules import rules_for
from engine.state import HandState, Phase

_BETTING = {
    Structure.FIXED: BettingStructure.FIXED_LIMIT,
    Structure.POT: BettingStructure.POT_LIMIT,
    Structure.NO_LIMIT: BettingStructure.NO_LIMIT,
}
_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


def _pokerkit(game: Game, structure: Structure, stakes: Stakes, n: int, stack: int) -> State:
    rules = rules_for(game, structure)
    streets = []
    for street in range(rules.rounds):
        if structure is Structure.FIXED:
            size = stakes.big_bet if rules.big_bet_round(street) else stakes.small_bet
        else:
            size = stakes.big_blind
        streets.append(
            Street(False, (False,) * 5 if street == 0 else (), 0, street > 0, Opening.POSITION,
                   size, None)
        )  # fmt: skip
    # pokerkit's player 0 is the first seat left of the button, as ``order`` is: heads-up
    # that is the big blind, and pokerkit reads the blinds' tuple the other way round then
    blinds = [stakes.small_blind, stakes.big_blind] + [0] * (n - 2)
    return State(
        _AUTOMATIONS,
        Deck.STANDARD,
        (StandardLowHand,),
        tuple(streets),
        _BETTING[structure],
        True,
        (0,) * n,
        tuple(blinds),
        0,
        (stack,) * n,
        n,
        mode=Mode.CASH_GAME,
    )


@settings(max_examples=80, deadline=None)
@given(
    n=st.integers(2, 6),
    structure=st.sampled_from(list(Structure)),
    game=st.sampled_from([Game.TRIPLE_DRAW_27, Game.SINGLE_DRAW_27]),
    seed=st.integers(0, 2**32),
)
def test_turns_calls_and_raise_bounds_agree_with_pokerkit(
    n: int, structure: Structure, game: Game, seed: int
) -> None:
    rng = random.Random(seed)
    stakes = (
        Stakes(50, 100, 100, 200) if structure is Structure.FIXED else Stakes(50, 100, 100, 100)
    )
    stack = 1_000_000
    ours = HandState(
        rules_for(game, structure),
        stakes,
        [(i + 1, f"P{i}", stack) for i in range(n)],
        n,
    )
    order = list(ours.order)
    sb, bb = (order[1], order[0]) if n == 2 else (order[0], order[1])
    ours.apply_post(sb, PostKind.SMALL_BLIND, stakes.small_blind)
    ours.apply_post(bb, PostKind.BIG_BLIND, stakes.big_blind)
    ours.deal()
    ours.rules = replace(ours.rules, cap=None)  # pokerkit gets no cap either
    kit = _pokerkit(game, structure, stakes, n, stack)
    decisions = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        while kit.status and ours.phase in (Phase.BETTING, Phase.DRAW):
            if ours.phase is Phase.DRAW:
                turn = ours.draw_turn()
                assert turn is not None
                assert order[kit.stand_patter_or_discarder_index] == turn.player
                kit.stand_pat_or_discard()
                ours.apply_draw(turn.player, 0)
                continue
            legal = ours.legal_actions()
            assert legal is not None
            assert order[kit.actor_index] == legal.player
            assert kit.checking_or_calling_amount == legal.call
            assert kit.can_complete_bet_or_raise_to() == (legal.aggressive is not None)
            if legal.aggressive is not None:
                assert kit.min_completion_betting_or_raising_to_amount == legal.min_to
                assert kit.max_completion_betting_or_raising_to_amount == legal.max_to
            decisions += 1
            choice = rng.random()
            if choice < 0.15 and not legal.can_check:
                kit.fold()
                ours.apply_action(legal.player, ActionKind.FOLD)
            elif choice < 0.6 or legal.aggressive is None or decisions > 40:
                kit.check_or_call()
                kind = ActionKind.CHECK if legal.can_check else ActionKind.CALL
                ours.apply_action(legal.player, kind, legal.call)
            else:
                to = rng.randint(legal.min_to, min(legal.max_to, legal.min_to * 3))
                kit.complete_bet_or_raise_to(to)
                ours.apply_action(
                    legal.player, legal.aggressive, to - ours.street_bet[legal.player]
                )
    assert decisions >= 1
