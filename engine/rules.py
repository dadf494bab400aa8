"""What each game is: how many draws, how betting is structured, what is forced, what wins.

One ``GameRules`` value per game and form, so that the state machine (``engine.state``)
holds no game-specific branches: it reads these numbers.  RULES.md is the authority; the
online forms are the defaults, and five-card draw also comes in the home forms of the
user's documents (antes, jacks or better to open, at most three cards drawn, four with an
ace shown).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from engine.ranking import Category, Ranking, category, hand_size_of, ranking_for
from engine.record import Game, Structure


class Forced(StrEnum):
    """What is put in before the cards: blinds (online and casino) or antes only (home)."""

    BLINDS = "blinds"
    ANTES = "antes"


class Opener(StrEnum):
    """What the first bet needs: anything, or (home five-card draw) a pair of jacks or better."""

    ANY = "any"
    JACKS = "jacks"


@dataclass(frozen=True, slots=True)
class GameRules:
    """The fixed facts of one game in one form.

    ``cap`` counts the bet and the raises of one betting round (in the first round the big
    blind is the bet); ``None`` is no cap (pot and no limit).  ``max_discard_with_ace`` is the
    house rule of five-card draw: a player who shows an ace may draw one card more.
    ``reshuffle_live_hands`` is False everywhere: only discards go back into a new stub.
    """

    game: Game
    structure: Structure
    draws: int
    ranking: Ranking
    max_discard: int = 5
    max_discard_with_ace: int | None = None
    cap: int | None = 4
    forced: Forced = Forced.BLINDS
    opener: Opener = Opener.ANY
    hand_size: int = 5

    @property
    def rounds(self) -> int:
        """Betting rounds: one before the first draw and one after each draw."""
        return self.draws + 1

    def big_bet_round(self, street: int) -> bool:
        """Fixed limit: the second half of the rounds use the big bet (2-2 or 1-1)."""
        return street >= self.rounds // 2

    def discard_limit(self, shows_ace: bool) -> int:
        if shows_ace and self.max_discard_with_ace is not None:
            return self.max_discard_with_ace
        return self.max_discard


_DRAWS = {
    Game.TRIPLE_DRAW_27: 3,
    Game.SINGLE_DRAW_27: 1,
    Game.TRIPLE_DRAW_A5: 3,
    Game.SINGLE_DRAW_A5: 1,
    Game.FIVE_CARD_DRAW: 1,
    Game.BADUGI: 3,
}


def rules_for(game: Game, structure: Structure) -> GameRules:
    """The online form of ``game`` dealt with ``structure``: blinds, anything opens, draw 0-5
    (Badugi: four cards, draw 0-4).

    The cap is a bet and three raises in fixed limit; pot and no limit have none.  The
    rules are frozen, so each pair is made once and shared (the replay asks for every hand).
    """
    key = (game, structure)
    rules = _MADE.get(key)
    if rules is None:
        ranking = ranking_for(game)
        size = hand_size_of(ranking)
        rules = GameRules(
            game=game,
            structure=structure,
            draws=_DRAWS[game],
            ranking=ranking,
            max_discard=size,
            cap=4 if structure is Structure.FIXED else None,
            hand_size=size,
        )
        _MADE[key] = rules
    return rules


_MADE: dict[tuple[Game, Structure], GameRules] = {}


def home_five_card_draw(structure: Structure = Structure.FIXED) -> GameRules:
    """Five-card draw as the user's documents play it at home.

    Antes instead of blinds, jacks or better to open (a hand nobody opens is dead and the
    antes stay in for the next deal), at most three cards drawn, four when the player keeps
    an ace and shows it.
    """
    return replace(
        rules_for(Game.FIVE_CARD_DRAW, structure),
        forced=Forced.ANTES,
        opener=Opener.JACKS,
        max_discard=3,
        max_discard_with_ace=4,
    )


def game_name(game: Game | str) -> str:
    """The name a player reads, in messages and on the dashboard's pages; a value that is
    no game of ours (a site's own name for a game DrawLab does not replay) reads as it is."""
    try:
        return _NAMES[Game(game)]
    except ValueError:
        return str(game)


_NAMES = {
    Game.TRIPLE_DRAW_27: "2-7 Triple Draw",
    Game.SINGLE_DRAW_27: "2-7 Single Draw",
    Game.TRIPLE_DRAW_A5: "A-5 Triple Draw",
    Game.SINGLE_DRAW_A5: "A-5 Single Draw",
    Game.FIVE_CARD_DRAW: "Five-Card Draw",
    Game.BADUGI: "Badugi",
}


def can_open(cards: tuple[int, ...]) -> bool:
    """Jacks or better: a pair of jacks or any better high hand (two pair, trips, ...)."""
    cat = category(cards, Ranking.HIGH)
    if cat is not Category.PAIR:
        return cat > Category.PAIR
    ranks = [c >> 2 for c in cards]
    pair = max(r for r in ranks if ranks.count(r) == 2)
    return pair >= 9  # jack
