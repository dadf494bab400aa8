"""Replaying a dealt hand (engine.replay / engine.verify) gives exactly the dealer's result.

The dealer and the replay share the state machine but not the settlement: the dealer pays
the pots itself (engine.pots, engine.ranking), the replay works out the winners again
(engine.settle) and compares them with the collects the dealer wrote.  So "verdict ok"
means the replay agrees with every collect, the uncalled bets, the total pot and the rake;
the final table of the replay must also hold the dealer's stacks.
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.record import Collect, Game, Hand, Structure
from engine.replay import replay
from engine.sim.dealer import deal_hands
from engine.verify import verify
from tests.engine.sim.test_dealer import final_stacks

GAMES = [
    (Game.TRIPLE_DRAW_27, Structure.FIXED),
    (Game.TRIPLE_DRAW_27, Structure.POT),
    (Game.SINGLE_DRAW_27, Structure.NO_LIMIT),
    (Game.TRIPLE_DRAW_A5, Structure.FIXED),
    (Game.SINGLE_DRAW_A5, Structure.FIXED),
    (Game.FIVE_CARD_DRAW, Structure.FIXED),
    (Game.FIVE_CARD_DRAW, Structure.POT),
    (Game.FIVE_CARD_DRAW, Structure.NO_LIMIT),
]


def _contributions(hand: Hand) -> dict[str, int]:
    start = {s.player: s.stack for s in hand.seats}
    final = final_stacks(hand)
    won: dict[str, int] = {}
    for c in hand.collects:
        won[c.player] = won.get(c.player, 0) + c.amount
    return {p: start[p] - final[p] + won.get(p, 0) for p in start}


@pytest.mark.parametrize(("game", "structure"), GAMES)
@pytest.mark.parametrize("players", [2, 3, 6])
def test_dealt_hands_verify_ok_without_a_single_warning(
    game: Game, structure: Structure, players: int
) -> None:
    for hand in deal_hands(50, game, players, seed=players * 7 + 1, structure=structure):
        verdict = verify(hand)
        assert verdict.problems == (), (hand.hand_id, verdict.problems)


@pytest.mark.parametrize(("game", "structure"), GAMES)
def test_the_replay_ends_with_the_dealers_stacks_and_pot(game: Game, structure: Structure) -> None:
    for hand in deal_hands(40, game, 4, seed=99, structure=structure):
        result = replay(hand)
        assert result.verdict.ok
        last = result.states[-1]
        put = _contributions(hand)
        start = {s.player: s.stack for s in hand.seats}
        for seat in last.seats:
            assert seat.total == put[seat.player]
            assert seat.stack == start[seat.player] - put[seat.player]
        assert last.pot == hand.total_pot
        assert len(result.states) == len(hand.steps) + 1


def test_the_replay_rejects_a_dealt_hand_whose_pot_went_to_the_wrong_player() -> None:
    """The agreement above can fail: give a won showdown pot to a player who lost it."""
    hands = deal_hands(80, Game.TRIPLE_DRAW_27, 4, seed=5, structure=Structure.FIXED)
    hand = next(h for h in hands if len(h.shows) >= 2 and len(h.collects) == 1)
    loser = next(s.player for s in hand.shows if s.player != hand.collects[0].player)
    wrong = dataclasses.replace(
        hand,
        steps=tuple(
            dataclasses.replace(s, player=loser) if isinstance(s, Collect) else s
            for s in hand.steps
        ),
    )
    assert verify(hand).ok
    codes = {p.code for p in verify(wrong).errors}
    assert "WRONG_WINNER" in codes or "COLLECT_MISMATCH" in codes


def _hero_throw_shown_again(hand: Hand) -> set[int]:
    thrown = {c for d in hand.draws if d.player == hand.hero for c in d.discarded or ()}
    return thrown & {c for s in hand.shows if s.player != hand.hero for c in s.cards}


def _stub_ran_out(hand: Hand) -> bool:
    used = 5 * len(hand.seats)
    for d in hand.draws:
        if d.count > 52 - used:
            return True
        used += d.count
    return False


def test_a_card_thrown_and_shown_again_is_legal_only_after_the_stub_ran_out() -> None:
    hands = list(deal_hands(400, Game.TRIPLE_DRAW_27, 6, seed=101, structure=Structure.FIXED))
    again = [h for h in hands if _hero_throw_shown_again(h)]
    assert again, "the deck ran out and brought back a card the hero threw"
    for hand in again:
        assert _stub_ran_out(hand)
        assert verify(hand).problems == ()
    # the same sight without the stub running out is a duplicate card
    plain = next(
        h for h in hands
        if not _stub_ran_out(h) and any(s.player != h.hero and not s.mucked for s in h.shows)
        and any(d.player == h.hero and d.discarded for d in h.draws)
    )
    thrown = next(c for d in plain.draws if d.player == plain.hero for c in d.discarded or ())
    shower = next(s for s in plain.shows if s.player != plain.hero and not s.mucked)
    forged = dataclasses.replace(shower, cards=(thrown, *shower.cards[1:]))
    wrong = dataclasses.replace(
        plain, steps=tuple(forged if s is shower else s for s in plain.steps)
    )
    assert "DUPLICATE_CARD" in {p.code for p in verify(wrong).errors}
