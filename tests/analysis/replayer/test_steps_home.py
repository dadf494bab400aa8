"""The replayer on the home variants: the house rules and the carried pot in the header,
the shotgun's face-up cards at every seat, jokers drawn, and each half of a high-low pot
named with its winners to the chip."""

from __future__ import annotations

from itertools import pairwise

from analysis.replayer.steps import SETTLED, hand_view
from engine.pots import pot_halves
from engine.record import Game, Hand, HouseRules
from engine.sim.dealer import deal_hands
from ui.table_picture import header_html, table_html

HOUSE = HouseRules(wild="two-jokers", high_low=True, shotgun=True)


def _hands(n: int = 120) -> list[Hand]:
    return list(deal_hands(n, Game.FIVE_CARD_DRAW, 5, 7, house=HOUSE, misdeal_per_mille=50))


def test_the_header_says_the_house_rules_antes_and_the_pot_carried_in() -> None:
    hands = _hands()
    carried = next(h for h in hands if h.carried)
    view = hand_view(carried)
    rules = "jacks or better to open, draw 3 (4 with an ace shown), two jokers wild, "
    rules += "high-low split, shotgun"
    assert view.header.lines()[2:4] == [
        f"House rules: {rules}",
        f"Pot carried in from the last deal: {carried.carried / 100:.2f}",
    ]
    assert view.header.stakes == "0.10/0.20, ante 0.05 USD"
    assert "House rules" in header_html(view.header) and "Carried in" in header_html(view.header)
    assert view.steps[0].pot == carried.carried + sum(p.amount for p in carried.posts)
    assert view.steps[0].pots[0].amount == view.steps[0].pot


def test_every_seat_shows_its_face_up_card_from_the_first_step() -> None:
    hand = next(h for h in _hands() if h.up_cards)
    view = hand_view(hand)
    up = dict(hand.up_cards)
    first = view.steps[0]
    assert {s.player: s.up for s in first.seats} == up
    html = table_html(first, view.header, view.units, hand.hero)
    assert html.count('class="dl-card"') == 5 + 4  # the hero's five, one up card each other
    assert html.count('class="dl-card-back"') == 4 * 4


def test_a_high_low_split_names_each_half_and_its_winner_to_the_chip() -> None:
    for hand in _hands(200):
        takers = {c.player: c.amount for c in hand.collects}
        if len(takers) != 2 or len({c.pot for c in hand.collects}) != 1:
            continue
        last = hand_view(hand).steps[-1]
        pot = last.pots[0]
        high, low = pot_halves(pot.amount)
        assert {pot.high[0]: high, pot.low[0]: low} == takers
        assert last.text == (
            f"{SETTLED}: main pot {pot.amount / 100:.2f}: high {high / 100:.2f} to "
            f"{pot.high[0]}, low {low / 100:.2f} to {pot.low[0]}"
        )
        return
    raise AssertionError("no pot split between two hands")


def test_jokers_are_drawn_as_wild_jokers() -> None:
    hand = next(h for h in _hands() if any(c >= 52 for s in h.shows for c in s.cards))
    view = hand_view(hand)
    assert view.header.wild_cards == (52, 53)
    html = table_html(view.steps[-1], view.header, view.units, hand.hero)
    shown = sum(1 for s in hand.shows for c in s.cards if c >= 52)
    assert html.count('class="dl-card dl-wild"') == html.count(">Jk</span>") >= shown


def test_a_misdeal_then_its_redeal_replay_with_the_antes_carried() -> None:
    hands = _hands(200)
    before, after = next(
        (a, b) for a, b in pairwise(hands) if not a.collects and a.table == b.table and any(
            getattr(s, "kind", "") == "misdeal" for s in a.steps)
    )  # fmt: skip
    view = hand_view(before)
    assert view.steps[-2].text.startswith("Misdeal: the ")
    stays = f"{(before.total_pot or 0) / 100:.2f} stays in the pot for the next deal"
    assert view.steps[-1].text == (f"{SETTLED}: a misdeal, redealt by the same dealer; {stays}")
    assert hand_view(after).steps[0].pot == before.total_pot


def test_a_hand_nobody_opened_says_its_pot_waits_for_the_next_deal() -> None:
    dead = next(h for h in _hands() if not h.collects and h.actions)
    assert hand_view(dead).steps[-1].text == (
        f"{SETTLED}: nobody opened; {(dead.total_pot or 0) / 100:.2f} stays in the pot for "
        "the next deal"
    )
