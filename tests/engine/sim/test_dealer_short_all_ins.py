"""The dealer deals short all-ins in fixed-limit tournaments, and every betting round it
deals replays clean under the casino rule (RULES.md, "Short all-ins in fixed limit"):
all-in bets and raises short of a full one, the raises that complete them, and the
PokerStars text of those hands read back."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.record import Action, ActionKind, Game, Hand, Structure
from engine.replay import replay
from engine.sim.dealer import deal_hands
from parser.phh import write_phh
from parser.pokerstars_writer import write_pokerstars
from parser.reader import read_text

_FIXED_GAMES = [Game.TRIPLE_DRAW_27, Game.TRIPLE_DRAW_A5, Game.BADUGI, Game.FIVE_CARD_DRAW]


def _short_all_ins(hand: Hand) -> int:
    return sum(
        1
        for s in hand.steps
        if isinstance(s, Action) and s.all_in and s.kind in (ActionKind.BET, ActionKind.RAISE)
    )


def _completions(hand: Hand) -> int:
    return sum("completes to" in s.text for s in replay(hand, views=True).states)


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 100_000),
    game=st.sampled_from(_FIXED_GAMES),
    players=st.integers(2, 6),
)
def test_every_fixed_limit_round_the_dealer_deals_replays_clean(
    seed: int, game: Game, players: int
) -> None:
    hands = list(
        deal_hands(40, game, players, seed=seed, structure=Structure.FIXED, tournament=True)
    )
    text = "\n\n\n".join(write_pokerstars(h) for h in hands)
    read = [out for _, out in read_text(text, "dealt.txt")]
    assert len(read) == len(hands)
    for hand, back in zip(hands, read, strict=True):
        assert replay(hand).verdict.problems == (), hand.hand_id
        assert isinstance(back, Hand) and replay(back).verdict.problems == (), hand.hand_id
        [(_, phh)] = list(read_text(write_phh(hand), "dealt.phh"))
        assert isinstance(phh, Hand) and replay(phh).verdict.problems == (), hand.hand_id


def test_fixed_limit_sit_and_goes_deal_short_all_ins_and_their_completions() -> None:
    short = completed = 0
    for game in _FIXED_GAMES:
        for players in (3, 6):
            for hand in deal_hands(
                150, game, players, seed=32, structure=Structure.FIXED, tournament=True
            ):
                short += _short_all_ins(hand)
                completed += _completions(hand)
    assert (short, completed) == (40, 2)
