"""Hand histories for the store's tests and benchmark, built from the shared corpus.

Large PokerStars files are made by repeating the corpus's PokerStars hands with fresh hand
ids (and so fresh keys), which the importer must then treat as distinct hands.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from tests.corpus import CORPUS

STARS = CORPUS / "cash" / "Stars" / "Draw"
STARS_TRIPLE = STARS / "Triple Draw 2-7 Lowball-FL-USD-0.10-0.20-201106.sample.txt"
_HEAD = re.compile(r"^(PokerStars (?:Game|Hand) #)(\d+)", re.MULTILINE)


def stars_files() -> list[Path]:
    """The corpus's PokerStars hand-history files (not the side files)."""
    return sorted(p for p in STARS.glob("*.txt"))


@cache
def stars_hand_texts() -> tuple[str, ...]:
    """Each PokerStars corpus hand that has a hand id, as text without a BOM."""
    texts = []
    for path in stars_files():
        text = path.read_text(encoding="utf-8-sig")
        for part in re.split(r"\n\s*\n\s*\n", text):
            part = part.strip("\n")
            if _HEAD.search(part) and "*** SUMMARY ***" in part and "cancelled" not in part:
                texts.append(part)
    return tuple(texts)


def stars_history(n: int, first_id: int = 900_000_000_000) -> str:
    """``n`` PokerStars hands, the corpus's repeated with ids ``first_id``, ``first_id+1``..."""
    base = stars_hand_texts()
    hands = [_HEAD.sub(f"\\g<1>{first_id + i}", base[i % len(base)], count=1) for i in range(n)]
    return "\n\n\n".join(hands) + "\n\n\n"


def write_history(path: Path, n: int, first_id: int = 900_000_000_000) -> Path:
    path.write_text(stars_history(n, first_id), encoding="utf-8")
    return path
