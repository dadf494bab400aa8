"""Badugi in PHH: pokerkit's fixed-limit Badugi ("FB") hands read, replayed and paid as
pokerkit paid them; our dealt Badugi hands through write_phh and back, and into pokerkit."""

from __future__ import annotations

import random
import warnings

from pokerkit import FixedLimitBadugi, HandHistory, Mode

from engine.record import Game, Structure
from engine.replay import run_with_stacks
from engine.sim.dealer import deal_hands
from parser.phh import VARIANTS, read_phh, write_phh
from tests.parser.test_phh_standard import _AUTOMATIONS, _DECK, _bet, _names
from tests.parser_corpus import without_position


def _played(stacks: tuple[int, ...], seed: int) -> tuple[str, tuple[int, ...]]:
    """A random legal pokerkit Badugi hand as PHH text, and its finishing stacks."""
    rng = random.Random(seed)
    game = FixedLimitBadugi(_AUTOMATIONS, True, 0, (1, 2), 2, 4, mode=Mode.CASH_GAME)
    deck = _DECK[:]
    rng.shuffle(deck)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        state = game(stacks, len(stacks))
        while state.status:
            if state.can_deal_hole():
                i = state.hole_dealee_index
                assert i is not None
                state.deal_hole("".join(deck.pop() for _ in range(4 - len(state.hole_cards[i]))))
            elif state.can_stand_pat_or_discard():
                i = state.stand_patter_or_discarder_index
                assert i is not None
                most = 4 if len(stacks) == 2 else 2  # the deck never runs out
                state.stand_pat_or_discard(
                    rng.sample(list(state.hole_cards[i]), rng.randint(0, most))
                )
            elif state.actor_index is not None:
                _bet(state, rng)
            else:
                break
        history = HandHistory.from_game_state(game, state, hand=seed, players=_names(len(stacks)))
        history.finishing_stacks = [int(s) for s in state.stacks]
        return history.dumps(), tuple(int(s) for s in state.stacks)


def test_fb_is_fixed_limit_badugi() -> None:
    assert VARIANTS["FB"] == (Game.BADUGI, Structure.FIXED)


def test_pokerkits_badugi_hands_verify_and_pay_what_pokerkit_paid() -> None:
    checked = 0
    for seed in range(30):
        stacks = (80, 120, 100)[: 2 + seed % 2]
        text, finishing = _played(stacks, seed)
        assert "variant = 'FB'" in text
        hand = read_phh(text, "fb.phh")
        assert hand.game is Game.BADUGI
        verdict, final = run_with_stacks(hand)
        assert verdict.problems == (), (seed, verdict.problems)
        assert tuple(final[p] for p in _names(len(stacks))) == tuple(f * 100 for f in finishing), (
            seed
        )
        checked += 1
    assert checked == 30


def test_dealt_badugi_hands_round_trip_through_phh_and_pokerkit_loads_them() -> None:
    for hand in deal_hands(40, Game.BADUGI, 4, seed=15):
        text = write_phh(hand)
        assert 'variant = "FB"' in text
        back = read_phh(text, "x.phh")
        assert without_position(back) == without_position(hand)
        HandHistory.loads(text)  # pokerkit reads our variant code and fields
