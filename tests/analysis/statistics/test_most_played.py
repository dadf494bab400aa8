"""Which currency (or which game's final hands) a page shows first: the most hands."""

from __future__ import annotations

import pandas as pd

from analysis.statistics.offers import most_played


def test_the_currency_with_the_most_hands_comes_first() -> None:
    counts = pd.DataFrame(
        {
            "site": ["pokerstars", "winamax", "pokerstars", "fulltilt"],
            "currency": ["USD", "EUR", "EUR", "USD"],
            "hands": [30, 25, 20, 1],
        }
    )  # 31 USD against 45 EUR: summed over the sites before ranking
    assert most_played(counts, "currency") == ("EUR", "USD")
    assert most_played(counts, "site") == ("pokerstars", "winamax", "fulltilt")


def test_nothing_counted_ranks_nothing() -> None:
    empty = pd.DataFrame({"game": pd.Series([], dtype=str), "hands": pd.Series([], dtype=int)})
    assert most_played(empty, "game") == ()
