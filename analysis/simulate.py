"""Dealt hands as text a user could have saved: what ``drawlab simulate`` writes, and the
bundled ``sample_histories/`` (``python -m analysis.simulate [DIR]`` or ``make samples``
regenerates them, byte for byte).

The dealer (``engine.sim.dealer``) knows nothing of text and the writers (``parser``) nothing of
dealing; this joins the two.  Output is deterministic: the same arguments give the same
bytes, which is what lets the committed sample histories be regenerated and compared.

PokerStars text: hands one after another with a blank line between them, as the client
saves them.  PHH: one hand is a plain PHH file; several hands are written in PHH's
multi-hand form (``.phhs``: each hand a TOML table ``[1]``, ``[2]``...), which pokerkit's
``HandHistory.loads_all`` reads.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final, TextIO

from engine.pots import RakeRule
from engine.record import Game, Hand, Stakes, Structure
from engine.sim.dealer import deal_hands, default_stakes
from parser.phh import write_phh
from parser.pokerstars_writer import write_pokerstars

FORMATS: Final = ("pokerstars", "phh")


def texts(hands: Iterable[Hand], fmt: str) -> Iterator[str]:
    """Each hand's text in ``fmt``, the separators included, ready to be written in order."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: one of {', '.join(FORMATS)}")
    items = iter(hands)
    first = next(items, None)
    if first is None:
        return
    second = next(items, None)
    if fmt == "pokerstars":
        yield write_pokerstars(first)
        for hand in _chain(second, items):
            yield "\n" + write_pokerstars(hand)
        return
    if second is None:
        yield write_phh(first)
        return
    for number, hand in enumerate(_chain(first, _chain(second, items)), start=1):
        yield ("" if number == 1 else "\n") + f"[{number}]\n" + write_phh(hand)


def _chain(head: Hand | None, rest: Iterator[Hand]) -> Iterator[Hand]:
    if head is not None:
        yield head
    yield from rest


def simulate(
    out: TextIO,
    hands: int,
    game: Game,
    players: int,
    seed: int,
    fmt: str = "pokerstars",
    *,
    structure: Structure | None = None,
    stakes: Stakes | None = None,
    rake: RakeRule | None = None,
    hero: str | None = "Hero",
    first_hand_id: int | None = None,
    tournament: bool = False,
    home: bool = False,
) -> int:
    """Deal ``hands`` hands at one table and write them to ``out``; returns how many."""
    dealt = deal_hands(
        hands,
        game,
        players,
        seed,
        structure=structure,
        stakes=stakes,
        rake=rake,
        hero=hero,
        first_hand_id=first_hand_id,
        tournament=tournament,
        home=home,
    )
    count = 0

    def counted() -> Iterator[Hand]:
        nonlocal count
        for hand in dealt:
            count += 1
            yield hand

    for text in texts(counted(), fmt):
        out.write(text)
    return count


# --- the bundled sample histories -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SampleSet:
    """One file of ``sample_histories/``: one table session dealt from a fixed seed."""

    file: str
    game: Game
    structure: Structure
    players: int
    hands: int
    big_blind: int
    seed: int
    fmt: str = "pokerstars"
    tournament: bool = False
    home: bool = False


# Mostly fixed-limit 2-7 triple draw with the hero at tables of several sizes and stakes,
# then some of every other game and structure, two sit-and-go sessions (``big_blind`` 0:
# the tournament's own levels); a few single hands in PHH.
SAMPLES: Final = (
    SampleSet("pokerstars/27_triple_draw_fl_0.10-0.20_6max.txt",
              Game.TRIPLE_DRAW_27, Structure.FIXED, 6, 900, 10, 101),
    SampleSet("pokerstars/27_triple_draw_fl_1-2_5max.txt",
              Game.TRIPLE_DRAW_27, Structure.FIXED, 5, 600, 100, 102),
    SampleSet("pokerstars/27_triple_draw_fl_10-20_3handed.txt",
              Game.TRIPLE_DRAW_27, Structure.FIXED, 3, 400, 1000, 103),
    SampleSet("pokerstars/27_triple_draw_fl_0.50-1_headsup.txt",
              Game.TRIPLE_DRAW_27, Structure.FIXED, 2, 300, 50, 104),
    SampleSet("pokerstars/27_triple_draw_pl_0.05-0.10_6max.txt",
              Game.TRIPLE_DRAW_27, Structure.POT, 6, 250, 10, 105),
    SampleSet("pokerstars/27_single_draw_nl_0.25-0.50_6max.txt",
              Game.SINGLE_DRAW_27, Structure.NO_LIMIT, 6, 200, 50, 106),
    SampleSet("pokerstars/a5_triple_draw_fl_0.50-1_6max.txt",
              Game.TRIPLE_DRAW_A5, Structure.FIXED, 6, 200, 50, 107),
    SampleSet("pokerstars/a5_single_draw_fl_1-2_4max.txt",
              Game.SINGLE_DRAW_A5, Structure.FIXED, 4, 120, 100, 108),
    SampleSet("pokerstars/five_card_draw_fl_0.10-0.20_6max.txt",
              Game.FIVE_CARD_DRAW, Structure.FIXED, 6, 150, 10, 109),
    SampleSet("pokerstars/five_card_draw_pl_0.50-1_5max.txt",
              Game.FIVE_CARD_DRAW, Structure.POT, 5, 120, 100, 110),
    SampleSet("pokerstars/five_card_draw_nl_0.25-0.50_6max.txt",
              Game.FIVE_CARD_DRAW, Structure.NO_LIMIT, 6, 120, 50, 111),
    SampleSet("pokerstars/27_triple_draw_fl_sit_and_go_6max.txt",
              Game.TRIPLE_DRAW_27, Structure.FIXED, 6, 300, 0, 112, tournament=True),
    SampleSet("pokerstars/27_single_draw_nl_sit_and_go_headsup.txt",
              Game.SINGLE_DRAW_27, Structure.NO_LIMIT, 2, 120, 0, 113, tournament=True),
    SampleSet("pokerstars/badugi_fl_0.50-1_6max.txt",
              Game.BADUGI, Structure.FIXED, 6, 150, 50, 114),
    *(
        SampleSet(f"phh/{game.value}_{structure.value}.phh", game, structure, players, 1, bb,
                  seed, "phh")
        for game, structure, players, bb, seed in (
            (Game.TRIPLE_DRAW_27, Structure.FIXED, 6, 10, 201),
            (Game.TRIPLE_DRAW_27, Structure.POT, 4, 10, 202),
            (Game.SINGLE_DRAW_27, Structure.NO_LIMIT, 3, 50, 203),
            (Game.TRIPLE_DRAW_A5, Structure.FIXED, 5, 50, 204),
            (Game.SINGLE_DRAW_A5, Structure.FIXED, 2, 100, 205),
            (Game.FIVE_CARD_DRAW, Structure.FIXED, 6, 10, 206),
            (Game.FIVE_CARD_DRAW, Structure.POT, 3, 100, 207),
            (Game.FIVE_CARD_DRAW, Structure.NO_LIMIT, 4, 50, 208),
            (Game.BADUGI, Structure.FIXED, 4, 50, 209),
        )
    ),
    # the user's home game (antes, jacks or better to open): single hands somebody opened
    *(
        SampleSet(f"phh/five_card_draw_home_{structure.value}.phh", Game.FIVE_CARD_DRAW,
                  structure, players, 1, 10, seed, "phh", home=True)
        for structure, players, seed in (
            (Structure.FIXED, 5, 306),
            (Structure.POT, 4, 314),
        )
    ),
)  # fmt: skip


def write_sample(sample: SampleSet, folder: Path) -> Path:
    """Deal and write one sample file under ``folder``; the same bytes every time."""
    path = folder / sample.file
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as out:
        simulate(
            out,
            sample.hands,
            sample.game,
            sample.players,
            sample.seed,
            sample.fmt,
            structure=sample.structure,
            stakes=default_stakes(sample.structure, sample.big_blind),
            first_hand_id=220_000_000_000 + sample.seed * 10_000,
            tournament=sample.tournament,
            home=sample.home,
        )
    return path


def regenerate_samples(folder: Path) -> list[Path]:
    """Every file of ``sample_histories/`` written anew under ``folder``."""
    return [write_sample(sample, folder) for sample in SAMPLES]


def main(argv: list[str]) -> int:
    folder = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent / (
        "sample_histories"
    )
    paths = regenerate_samples(folder)
    size = sum(p.stat().st_size for p in paths)
    print(f"{len(paths)} files, {size:,} bytes, in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
