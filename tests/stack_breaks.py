"""Dealt PokerStars hands at one table with stacks that do not follow: the carry-over
findings the importer and reverify must report where a page or a task is cut."""

from __future__ import annotations

import re


def stacks_changed(n: int, changed: tuple[int, ...], seed: int) -> list[str]:
    """``n`` dealt 2-7 triple draw hands written as PokerStars texts, four players, in
    the hands ``changed`` the first seat showing up with 1,000.00 more than the hand
    before left them."""
    from engine.record import Game
    from engine.sim.dealer import deal_hands
    from parser.pokerstars_writer import write_pokerstars

    texts = [write_pokerstars(h) for h in deal_hands(n, Game.TRIPLE_DRAW_27, 4, seed=seed)]
    for i in changed:
        texts[i] = re.sub(
            r"^(Seat \d+: .+? \(\$)([\d,.]+)( in chips)",
            lambda m: f"{m.group(1)}{float(m.group(2).replace(',', '')) + 1000:.2f}{m.group(3)}",
            texts[i],
            count=1,
            flags=re.MULTILINE,
        )
    return texts
