"""Table positions (BTN, SB, BB, UTG ... CO) for the players dealt into one hand.

Positions are counted back from the big blind, because the blind posts are what every
history states reliably, while the button seat may be empty (a dead button) or point at a
player who sat the hand out.  The rules:

- The big blind is the first player who posted ``BIG_BLIND``; without one, the second
  player dealt in clockwise after the button (the first one heads-up).
- Heads-up the other player is ``BTN`` (it posts the small blind and acts first pre-draw).
- Three or more: the player just before the big blind is ``SB`` if it posted the small
  blind; the next one back is ``BTN`` (with no small blind posted, the player just before
  the big blind is ``BTN``).  The players between the big blind and the button, first to
  act first, are ``UTG``; ``UTG``, ``CO``; ``UTG``, ``MP``, ``CO``; and for bigger tables
  ``UTG``, ``UTG+1``, ..., ``MP``, ``CO``.
- A hand without blinds (antes only) counts from the button: the players after it, first
  to act first, get ``UTG`` ... ``CO`` as above and the button ``BTN``.
- A hand with one player dealt in (everyone else sitting out) gives that player ``BB``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.record import Hand, Post, PostKind

POSITIONS: tuple[str, ...] = (
    "UTG", "UTG+1", "UTG+2", "UTG+3", "UTG+4", "MP", "CO", "BTN", "SB", "BB",
)
"""Every label, in order of acting pre-draw (for sorting tables of results)."""

STEAL_POSITIONS = frozenset({"CO", "BTN", "SB"})
BLIND_POSITIONS = frozenset({"SB", "BB"})
_BIG_BLIND, _SMALL_BLIND = PostKind.BIG_BLIND, PostKind.SMALL_BLIND  # an Enum's attribute is slow


@lru_cache(maxsize=64)
def middle_labels(k: int) -> tuple[str, ...]:
    """Labels for the ``k`` players between the big blind and the button, first to act first."""
    if k <= 0:
        return ()
    if k == 1:
        return ("CO",)
    if k == 2:
        return ("UTG", "CO")
    return ("UTG", *(f"UTG+{i}" for i in range(1, k - 2)), "MP", "CO")


def clockwise_after(players: Sequence[tuple[int, str]], seat: int | None) -> list[str]:
    """Players (seat, name) in dealing order: first the one after ``seat``, clockwise."""
    ordered = sorted(players)
    if seat is None:
        return [p for _, p in ordered]
    after = [p for s, p in ordered if s > seat]
    before = [p for s, p in ordered if s <= seat]
    return after + before


def positions(hand: Hand, dealt_in: Sequence[str]) -> dict[str, str]:
    """Position label of each player in ``dealt_in`` (names of players dealt cards)."""
    return positions_of(hand, dealt_in, [s for s in hand.steps if isinstance(s, Post)])


def positions_of(hand: Hand, dealt_in: Sequence[str], posts: Sequence[Post]) -> dict[str, str]:
    """``positions`` given the hand's posts in order: the facts find them in their one walk
    over the steps, so that this does not walk them again."""
    live = set(dealt_in)
    seated = [(s.seat, s.player) for s in hand.seats if s.player in live]
    order = clockwise_after(seated, hand.button)
    n = len(order)
    if n == 0:
        return {}
    if n == 1:
        return {order[0]: "BB"}
    posts = [p for p in posts if p.player in live]
    big = next((p.player for p in posts if p.kind is _BIG_BLIND), None)
    small = {p.player for p in posts if p.kind is _SMALL_BLIND}
    button = next((p for s, p in seated if s == hand.button), None)
    if big is None and not small and button is not None:  # antes only: act after the button
        return dict(zip(order, (*middle_labels(n - 1), "BTN"), strict=True))
    if big is None:
        big = order[0] if n == 2 else order[1 if small else 0]
    i = order.index(big)
    cycle = order[i + 1:] + order[:i]  # everyone else, first to act pre-draw first
    labels = {big: "BB"}
    if n == 2:
        labels[cycle[0]] = "BTN"
        return labels
    if cycle[-1] in small:
        labels[cycle.pop()] = "SB"
    if cycle:
        labels[cycle.pop()] = "BTN"
    labels.update(zip(cycle, middle_labels(len(cycle)), strict=True))
    return labels
