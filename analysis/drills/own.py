"""Drills from the player's own hands in the database: real showdowns to judge, and the
hero's real discards replayed as "what to draw" questions.

Everything read here came from a file anyone could write: names stay plain text for the
page to show safely, and a row whose cards do not make sense (a card twice, four cards) is
passed over, never raised.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from analysis.drills import draws, showdown
from analysis.storage.db import Connection, one
from engine.cards import CardError, Cards, parse_cards
from engine.ranking import Ranking, ranking_for
from engine.record import Game

TRIPLE = {Game.TRIPLE_DRAW_27, Game.TRIPLE_DRAW_A5, Game.BADUGI}


def games_of(ranking: Ranking) -> list[str]:
    return [g.value for g in Game if ranking_for(g) is ranking]


def _cards(text: object) -> Cards | None:
    if not isinstance(text, str):
        return None
    try:
        cards = parse_cards(text)
    except CardError:
        return None
    return cards


# --- showdowns --------------------------------------------------------------------------

_SHOWDOWNS = """
    SELECT s.hand, s.run
    FROM shows s JOIN hands h ON h.id = s.hand
    WHERE s.cards IS NOT NULL AND h.game IN ({games})
    GROUP BY s.hand, s.run
    HAVING count(*) BETWEEN 2 AND 6
"""


def count_showdowns(con: Connection, ranking: Ranking) -> int:
    games = games_of(ranking)
    marks = ", ".join("?" * len(games))
    row = one(con, f"SELECT count(*) FROM ({_SHOWDOWNS.format(games=marks)})", games)
    return int(row[0]) if row else 0


def showdown_at(con: Connection, ranking: Ranking, index: int) -> showdown.ShowdownQuestion | None:
    """The ``index``-th stored showdown of the ranking's games (newest first), as a question
    with the players' names; ``None`` when its shown cards do not make a valid question."""
    games = games_of(ranking)
    marks = ", ".join("?" * len(games))
    row = one(
        con,
        f"SELECT hand, run FROM ({_SHOWDOWNS.format(games=marks)}) "
        "ORDER BY hand DESC, run LIMIT 1 OFFSET ?",
        [*games, index],
    )
    if row is None:
        return None
    hand, run = int(row[0]), int(row[1])
    head = one(con, "SELECT site, hand_id FROM hands WHERE id = ?", [hand])
    shown = con.execute(
        "SELECT player, cards FROM shows WHERE hand = ? AND run = ? AND cards IS NOT NULL "
        "ORDER BY idx",
        [hand, run],
    ).fetchall()
    names: list[str] = []
    hands: list[Cards] = []
    for player, text in shown:
        cards = _cards(text)
        if cards is None or len(cards) != 5 or str(player) in names:
            return None
        names.append(str(player))
        hands.append(cards)
    where = f"{head[0]} hand {head[1]}" if head else f"hand {hand}"
    try:
        return showdown.ShowdownQuestion(
            ranking, showdown.OWN, tuple(hands), tuple(names), source=where
        )
    except (CardError, ValueError):
        return None


def random_showdown(
    con: Connection, ranking: Ranking, rng: random.Random
) -> showdown.ShowdownQuestion | None:
    """A random one of the stored showdowns that makes a valid question, if any."""
    total = count_showdowns(con, ranking)
    for _ in range(min(total, 20)):
        q = showdown_at(con, ranking, rng.randrange(total))
        if q is not None:
            return q
    return None


# --- the hero's draws -------------------------------------------------------------------


@dataclass(frozen=True)
class HeroDraw:
    """One real draw of the hero: the five cards held, the keep taken, the opponents still
    in and how many cards each drew on that draw."""

    hand_id: int
    where: str
    game: str
    draw: int
    hand: Cards
    kept: Cards
    opponents: tuple[int, ...]


_HERO_DRAWS = """
    SELECT d.hand, d.draw, d.kept, d.discarded, h.game, h.site, h.hand_id
    FROM draws d JOIN hands h ON h.id = d.hand
    WHERE d.player = h.hero AND d.run = 0 AND d.kept IS NOT NULL AND h.game IN ({games})
"""


def count_hero_draws(con: Connection, ranking: Ranking) -> int:
    games = games_of(ranking)
    marks = ", ".join("?" * len(games))
    row = one(con, f"SELECT count(*) FROM ({_HERO_DRAWS.format(games=marks)})", games)
    return int(row[0]) if row else 0


def hero_draw_at(con: Connection, ranking: Ranking, index: int) -> HeroDraw | None:
    """The ``index``-th stored draw of the hero (newest hand first); ``None`` when its cards
    are not five known cards or nobody else was still drawing."""
    games = games_of(ranking)
    marks = ", ".join("?" * len(games))
    row = one(
        con,
        f"{_HERO_DRAWS.format(games=marks)} ORDER BY d.hand DESC, d.draw LIMIT 1 OFFSET ?",
        [*games, index],
    )
    if row is None:
        return None
    hand, draw, kept_text, thrown_text, game, site, hand_id = row
    kept = _cards(kept_text) if kept_text else ()
    thrown = _cards(thrown_text) if thrown_text else ()
    if kept is None or thrown is None or len(kept) + len(thrown) != 5:
        return None
    held = (*kept, *thrown)
    if len(set(held)) != 5:
        return None
    others = con.execute(
        "SELECT d.count FROM draws d JOIN hands h ON h.id = d.hand "
        "WHERE d.hand = ? AND d.draw = ? AND d.run = 0 AND d.player <> h.hero ORDER BY d.idx",
        [hand, draw],
    ).fetchall()
    counts = tuple(int(c) for (c,) in others if c is not None and 0 <= int(c) <= 5)
    if not 1 <= len(counts) <= 5:
        return None
    return HeroDraw(int(hand), f"{site} hand {hand_id}", str(game), int(draw), held, kept, counts)


def draws_in(game: str) -> int:
    return 3 if Game(game) in TRIPLE else 1


def question_of(hd: HeroDraw, seed: int = 0) -> draws.DrawQuestion:
    """The hero's draw as a drill: opponents known by the counts they drew on that draw
    (those acting after the hero too: the drill knows what the hero did not yet)."""
    ranking = ranking_for(Game(hd.game))
    left = draws_in(hd.game) - hd.draw + 1
    return draws.DrawQuestion(
        ranking, draws.OWN, tuple(sorted(hd.hand, reverse=True)), left,
        drawing=hd.opponents, source=hd.where, taken=hd.kept, seed=seed,
    )  # fmt: skip


def random_hero_draw(
    con: Connection, ranking: Ranking, rng: random.Random
) -> draws.DrawQuestion | None:
    total = count_hero_draws(con, ranking)
    for _ in range(min(total, 20)):
        hd = hero_draw_at(con, ranking, rng.randrange(total))
        if hd is not None and 1 <= draws_in(hd.game) - hd.draw + 1 <= 3:
            return question_of(hd, rng.randrange(2**31))
    return None
