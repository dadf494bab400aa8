"""What each game is: how many draws, how betting is structured, what is forced, what wins.

One ``GameRules`` value per game and form, so that the state machine (``engine.state``)
holds no game-specific branches: it reads these numbers.  RULES.md is the authority; the
online forms are the defaults, and five-card draw also comes in the home forms of the
user's documents (antes, jacks or better to open, at most three cards drawn, four with an
ace shown) and with the house rules and variants of RULES.md "Home variants" (wild cards,
California high-low, shotgun, no replacement with 7-8 players, a fifth card with an ace),
each a setting here (``house_rules``), never a branch on a game's name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import NamedTuple

from engine.ranking import Category, Ranking, category, hand_size_of, ranking_for
from engine.record import Game, Hand, HouseRules, Structure
from engine.wild import HighCategory, Wild, category_high, deck_for, made_high, rank_high


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

    The home variants: ``wild`` names the wild cards (``None``: none) and ``deck_size``
    the cards in the deck (53 or 54 with jokers, ``engine.wild.deck_for``); ``low`` is the
    ranking of the other half of a split pot (``Ranking.ACE_FIVE`` in California high-low,
    ``None`` when the best hand takes it all); ``shotgun``: each first card is dealt face
    up; ``no_replacement``: the discards are shuffled into a new stub once, and when that
    is used up nobody is dealt another card; ``carry_antes``: the antes of a hand nobody
    opens (or a misdeal) stay in the pot for the next deal, ``ante_again``: everyone antes
    again on top of them; ``max_players`` is the most players the deck deals to.
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
    wild: Wild | None = None
    deck_size: int = 52
    low: Ranking | None = None
    shotgun: bool = False
    no_replacement: bool = False
    carry_antes: bool = False
    ante_again: bool = True
    max_players: int = 6

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



class FixedRaise(NamedTuple):
    """What one fixed-limit bet or raise makes of the betting round (``fixed_raise``)."""

    full: bool  # it reopens the betting for the players who already acted
    counts: bool  # it is one more bet toward the cap
    short_to: int  # the full bet or raise a short all-in fell short of, still to come; else 0
    short_counted: bool  # that level already counted toward the cap (a half-bet all-in)


def fixed_raise_to(current_bet: int, size: int, short_to: int) -> int:
    """Where a fixed-limit bet or raise goes now: one bet above the bet to call, or, after an
    all-in short of a full bet or raise, to the full one it fell short of (RULES.md,
    "Short all-ins in fixed limit": "raises 250 to 300" completes an all-in bet of 50)."""
    return short_to or current_bet + size


def fixed_raise(
    new_to: int,
    current_bet: int,
    size: int,
    *,
    short_to: int,
    short_counted: bool,
    casino: bool,
) -> FixedRaise:
    """The fixed-limit rule of short all-ins, written once for every engine.

    A bet or raise that reaches ``fixed_raise_to`` is full (a completion too).  Under the
    casino rule (``casino``, the site setting ``casino_short_all_ins``) an all-in short of
    it counts as full when it is at least half a bet above the level it builds on: it
    reopens the betting and counts toward the cap, and the next raise still goes to the
    level it would have made, which then does not count a second time; less than half a bet
    reopens nothing and counts for nothing, and the next player may complete it.  Without
    the casino rule (pokerkit's play) a short all-in never reopens and is never completed.
    """
    target = short_to or current_bet + size
    if new_to >= target:
        return FixedRaise(True, not short_counted, 0, False)
    if not casino:
        return FixedRaise(False, False, 0, False)
    half = 2 * (new_to - (target - size)) >= size
    return FixedRaise(half, half and not short_counted, target, short_counted or half)

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
    return house_rules(structure, HOUSE)


HOUSE = HouseRules()
"""The house rules of the user's documents, where a home hand states none."""

WILDS = tuple(w.value for w in Wild)
"""The wild-card settings, by their ``engine.wild.Wild`` values (``HouseRules.wild``)."""


def house_rules(structure: Structure, house: HouseRules) -> GameRules:
    """Five-card draw at home under ``house``: antes, carried when nobody opens; the draw
    limits, the opener, wild cards, high-low, shotgun and no replacement as the table
    agreed.  Made once per pair and shared (the rules are frozen)."""
    key = (structure, house)
    rules = _HOUSE_MADE.get(key)
    if rules is None:
        if house.wild and house.wild not in WILDS:
            raise ValueError(f"unknown wild cards {house.wild!r}: one of {', '.join(WILDS)}")
        wild = Wild(house.wild) if house.wild else None
        rules = replace(
            rules_for(Game.FIVE_CARD_DRAW, structure),
            forced=Forced.ANTES,
            opener=Opener.JACKS if house.jacks_to_open else Opener.ANY,
            max_discard=house.max_draw,
            max_discard_with_ace=house.max_draw_with_ace,
            wild=wild,
            deck_size=len(deck_for(wild)),
            low=Ranking.ACE_FIVE if house.high_low else None,
            shotgun=house.shotgun,
            no_replacement=house.no_replacement,
            carry_antes=True,
            ante_again=house.ante_again,
            max_players=8 if house.no_replacement else 6,
        )
        _HOUSE_MADE[key] = rules
    return rules


_HOUSE_MADE: dict[tuple[Structure, HouseRules], GameRules] = {}


def house_words(house: HouseRules) -> str:
    """The house rules as a player says them, for headers and the replayer: "jacks or
    better to open, draw 3 (4 with an ace shown), jokers wild, high-low, shotgun"."""
    words = ["jacks or better to open" if house.jacks_to_open else "anything opens"]
    draw = f"draw {house.max_draw}"
    if house.max_draw_with_ace is not None:
        draw += f" ({house.max_draw_with_ace} with an ace shown)"
    words.append(draw)
    if house.wild:
        words.append(_WILD_WORDS[house.wild])
    if house.high_low:
        words.append("high-low split")
    if house.shotgun:
        words.append("shotgun")
    if house.no_replacement:
        words.append("no replacement")
    if not house.ante_again:
        words.append("no new antes on a carried pot")
    return ", ".join(words)


def house_from_words(text: str) -> HouseRules | None:
    """``house_words`` read back: the house rules a history's line states, ``None`` when a
    part is not one of ``house_words``' phrases (the line is then not DrawLab's)."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if len(parts) < 2 or parts[0] not in ("jacks or better to open", "anything opens"):
        return None
    m = _DRAW_WORDS.fullmatch(parts[1])
    if m is None:
        return None
    wild = ""
    flags: set[str] = set()
    for part in parts[2:]:
        if part in _WILD_OF_WORDS and not wild:
            wild = _WILD_OF_WORDS[part]
        elif part in _FLAG_WORDS and part not in flags:
            flags.add(part)
        else:
            return None
    return HouseRules(
        jacks_to_open=parts[0] == "jacks or better to open",
        max_draw=int(m[1]),
        max_draw_with_ace=int(m[2]) if m[2] else None,
        no_replacement="no replacement" in flags,
        ante_again="no new antes on a carried pot" not in flags,
        wild=wild,
        high_low="high-low split" in flags,
        shotgun="shotgun" in flags,
    )


_DRAW_WORDS = re.compile(r"draw (\d)(?: \((\d) with an ace shown\))?")
_FLAG_WORDS = frozenset(
    ("high-low split", "shotgun", "no replacement", "no new antes on a carried pot")
)

_WILD_WORDS = {
    Wild.JOKER.value: "joker wild",
    Wild.TWO_JOKERS.value: "two jokers wild",
    Wild.DEUCES.value: "deuces wild",
    Wild.ONE_EYED_JACKS.value: "one-eyed jacks wild",
}
_WILD_OF_WORDS = {words: wild for wild, words in _WILD_WORDS.items()}


def rules_of(hand: Hand, home_site: bool) -> GameRules:
    """The rules ``hand`` was played under: its house rules where it states them, the
    documents' home game at a home site (``home_site``, the site profile's), else the
    game's online form."""
    if hand.game is Game.FIVE_CARD_DRAW:
        if hand.house is not None:
            return house_rules(hand.structure, hand.house)
        if home_site:
            return house_rules(hand.structure, HOUSE)
    return rules_for(hand.game, hand.structure)


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


def can_open(cards: tuple[int, ...], wild: Wild | None = None) -> bool:
    """Jacks or better: a pair of jacks or any better high hand (two pair, trips, ...),
    wild cards counted (a joker and a jack open)."""
    if wild is not None:
        value = rank_high(cards, wild)
        made = category_high(value)
        if made is not HighCategory.PAIR:
            return made is not HighCategory.HIGH_CARD
        made_ranks, _ = made_high(value)
        return max(r for r in made_ranks if made_ranks.count(r) == 2) >= 9  # jack
    cat = category(cards, Ranking.HIGH)
    if cat is not Category.PAIR:
        return cat > Category.PAIR
    ranks = [c >> 2 for c in cards]
    pair = max(r for r in ranks if ranks.count(r) == 2)
    return pair >= 9  # jack
