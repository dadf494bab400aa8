"""The dealer's deck: dealing order, stub counts and the deck-exhaustion rule of RULES.md."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.sim.deck import Deck


def _six_hands(seed: int) -> tuple[Deck, list[tuple[int, ...]]]:
    deck = Deck(random.Random(seed))
    return deck, deck.deal_round_robin(6)


def test_six_players_hold_thirty_cards_and_leave_a_stub_of_twenty_two() -> None:
    deck, hands = _six_hands(1)
    assert [len(h) for h in hands] == [5] * 6
    assert len({c for h in hands for c in h}) == 30
    assert deck.stub_size == 22
    assert deck.reshuffles == 0


def test_cards_are_dealt_one_at_a_time_round_the_table() -> None:
    cards = list(range(52))
    random.Random(3).shuffle(cards)
    top_first = cards[::-1]
    deck = Deck(random.Random(3))
    hands = deck.deal_round_robin(3)
    assert hands[0] == tuple(top_first[0:15:3])
    assert hands[1] == tuple(top_first[1:15:3])
    assert hands[2] == tuple(top_first[2:15:3])


def test_fifth_full_draw_runs_out_and_reshuffles_only_earlier_discards() -> None:
    deck, hands = _six_hands(7)
    received: list[tuple[int, ...]] = []
    for i in range(4):  # four players draw five: 22 -> 2 cards left
        got = deck.replace(hands[i])
        assert not got.reshuffled
        received.append(got.received)
    assert deck.stub_size == 2
    earlier_discards = {c for h in hands[:4] for c in h}
    got = deck.replace(hands[4])
    assert got.reshuffled and got.from_old_stub == 2
    assert deck.reshuffles == 1
    assert not set(got.received) & set(hands[4])  # never the cards just thrown
    assert len(set(got.received[2:]) & earlier_discards) == 3  # three from the reshuffled pile
    # the new stub is the 20 old discards less the 3 dealt; the pile is player 5's discards
    assert deck.stub_size == 17
    assert set(deck.discard_pile) == set(hands[4])
    got6 = deck.replace(hands[5])
    assert not got6.reshuffled and deck.stub_size == 12
    assert set(got6.received) <= earlier_discards


# No deadline on the properties: a loaded CI machine must not turn timing into failures.
@settings(deadline=None)
@given(st.integers(0, 10_000), st.lists(st.integers(0, 5), min_size=6, max_size=18))
def test_no_card_is_in_two_hands_at_once_through_any_sequence_of_draws(
    seed: int, counts: list[int]
) -> None:
    rng = random.Random(seed)
    deck = Deck(rng)
    hands = [list(h) for h in deck.deal_round_robin(6)]
    for i, count in enumerate(counts):
        hand = hands[i % 6]
        thrown = tuple(rng.sample(hand, count))
        got = deck.replace(thrown)
        assert len(got.received) == count
        assert not set(got.received) & set(thrown)
        hands[i % 6] = [c for c in hand if c not in thrown] + list(got.received)
        held = [c for h in hands for c in h]
        assert len(held) == len(set(held)) == 30
        # every card is held, in the stub or on the pile: 52 in all
        assert deck.stub_size + len(deck.discard_pile) == 22
