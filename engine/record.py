"""The site-neutral hand record: what happened at the table, in the order it happened.

Parsers build it from a site's text; the replay, the store and the statistics read it.
Nothing here knows any site's wording.  Money is an ``int`` in hundredths of the unit the
table plays for (cents for cash games, hundredths of a chip in tournaments) so that every
site, including those that write ``$0.05`` and those that write ``1,500``, fits exactly.

Every element carries ``line``: the 1-based line of the source file it came from, so that a
problem the replay finds can point at the text the user has.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import TypeAlias

from engine.cards import Cards
from engine.verdict import Problem


class Game(StrEnum):
    TRIPLE_DRAW_27 = "27_triple_draw"
    SINGLE_DRAW_27 = "27_single_draw"
    TRIPLE_DRAW_A5 = "a5_triple_draw"
    SINGLE_DRAW_A5 = "a5_single_draw"
    FIVE_CARD_DRAW = "five_card_draw"
    BADUGI = "badugi"


class Structure(StrEnum):
    FIXED = "fixed"
    POT = "pot"
    NO_LIMIT = "no_limit"


class PostKind(StrEnum):
    ANTE = "ante"
    SMALL_BLIND = "small_blind"
    BIG_BLIND = "big_blind"
    BOTH_BLINDS = "both_blinds"  # small and big together, after missing them
    EXTRA = "extra"  # any other post: missed blind, out-of-position big blind, straddle


class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"


@dataclass(frozen=True, slots=True)
class Stakes:
    """Blinds and bet sizes; for pot and no limit ``small_bet == big_bet == big_blind``."""

    small_blind: int
    big_blind: int
    small_bet: int
    big_bet: int
    ante: int = 0


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    player: str
    stack: int
    line: int
    sitting_out: bool = False


@dataclass(frozen=True, slots=True)
class Post:
    """Chips put in before the cards; ``dead`` is the part that does not count as a bet."""

    player: str
    kind: PostKind
    amount: int
    line: int
    dead: int = 0
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class Action:
    """A betting decision in betting round ``street`` (0 before the first draw).

    ``amount`` is the chips this action adds; ``to`` is the street total the site stated
    for a bet or raise ("raises to $3,000"), ``None`` where the site did not state one.
    """

    player: str
    street: int
    kind: ActionKind
    line: int
    amount: int = 0
    to: int | None = None
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw number ``draw`` (1-based).  ``count`` 0 is standing pat.

    ``discarded``, ``kept`` and ``received`` are the cards where the history shows them,
    ``None`` where it does not.  A run-it-twice draw is one ``Draw`` per run (``run`` 1, 2),
    each with the same discards; ``run`` 0 is the ordinary single run.
    """

    player: str
    draw: int
    count: int
    line: int
    discarded: Cards | None = None
    kept: Cards | None = None
    received: Cards | None = None
    run: int = 0
    # the cards shown to the table to be allowed a longer draw (the house rule's ace: kept
    # for a four-card draw, thrown with the rest for a five-card one), where it is written
    shown: Cards | None = None


@dataclass(frozen=True, slots=True)
class Show:
    """Cards revealed at the end: shown at showdown, or mucked but written in the summary."""

    player: str
    cards: Cards
    line: int
    mucked: bool = False
    run: int = 0


@dataclass(frozen=True, slots=True)
class Muck:
    """A player at showdown who threw the hand away without showing it."""

    player: str
    line: int


@dataclass(frozen=True, slots=True)
class Uncalled:
    player: str
    amount: int
    line: int


@dataclass(frozen=True, slots=True)
class Collect:
    """Chips a player took: ``pot`` 0 is the main pot, 1.. the side pots, ``None`` unsaid."""

    player: str
    amount: int
    line: int
    pot: int | None = None
    run: int = 0


@dataclass(frozen=True, slots=True)
class Note:
    """A line that carries no play (chat, joins, leaves, time-outs, sitting out).

    Kinds the replay acts on: ``"reshuffle"``, the dealer shuffling the discards into a
    new stub during a draw (PokerStars' "The deck is reshuffled"): after it, cards
    discarded earlier in the hand may be dealt again (RULES.md, the deck rule).
    """

    kind: str
    text: str
    line: int
    player: str | None = None
    # chips the line says ``player`` added for the next hand, where it says how many: a
    # cash top-up ("adds $5"), a tournament rebuy or add-on (kinds in ``TOP_UP_NOTES``)
    amount: int | None = None


TOP_UP_NOTES = frozenset({"add_on", "rebuy"})
"""Note kinds whose ``amount`` is chips added to the player's stack for the next hand."""


MISDEAL_NOTE = "misdeal"
"""Note kind of a deal voided by a card exposed while dealing: the same dealer deals again
(the next hand at the table, with the same button and this one's antes in its pot)."""


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The house rules a home game of five-card draw was dealt under, as the table agreed
    them (RULES.md, "Home variants"): what a history must carry for its hands to be judged,
    since the same site deals many home games.  ``engine.rules.house_rules`` turns them into
    the ``GameRules`` the replay reads.

    ``max_draw_with_ace``: how many cards a player showing an ace may draw (4, or 5 in the
    houses that allow it; ``None``: no ace rule).  ``no_replacement``: 7-8 players, and once
    the stub and the shuffled discards are used up nobody gets a card.  ``ante_again``:
    after a hand nobody opened, everyone antes again on top of the carried pot.  ``wild``:
    which cards are wild ("" none; else an ``engine.wild.Wild`` value: "joker",
    "two-jokers", "deuces", "one-eyed-jacks").  ``high_low``: California high-low, each
    pot split between the best high and the best ace-to-five low.  ``shotgun``: each
    player's first card is dealt face up (``Hand.up_cards``).
    """

    jacks_to_open: bool = True
    max_draw: int = 3
    max_draw_with_ace: int | None = 4
    no_replacement: bool = False
    ante_again: bool = True
    wild: str = ""
    high_low: bool = False
    shotgun: bool = False


Step: TypeAlias = Post | Action | Draw | Show | Muck | Uncalled | Collect | Note


@dataclass(frozen=True, slots=True)
class Tournament:
    tournament_id: str
    buy_in: int | None = None
    fee: int | None = None
    level: str | None = None
    bounty: int | None = None  # the knockout part of the buy-in, where the site states one
    currency: str | None = None  # of the buy-in ("USD"); the hand's money is chips


@dataclass(frozen=True, slots=True)
class Hand:
    """One complete hand as the site recorded it, facts only and unjudged."""

    site: str
    hand_id: str
    table: str
    game: Game
    structure: Structure
    stakes: Stakes
    currency: str
    time: datetime | None
    button: int | None
    seats: tuple[Seat, ...]
    steps: tuple[Step, ...]
    file: str
    line: int
    hero: str | None = None
    dealt: Cards | None = None  # the hero's first cards (five, four in Badugi), where known
    dealt_others: tuple[tuple[str, Cards], ...] = ()  # other players' known hole cards
    max_seats: int | None = None
    rake: int | None = None
    total_pot: int | None = None
    tournament: Tournament | None = None
    # per-player results where the site states them
    net: tuple[tuple[str, int], ...] = field(default=())
    # the house rules of a home game (``None``: the site's own game; a "home" site hand
    # without them is played under ``HouseRules()``)
    house: HouseRules | None = None
    # chips already in the pot when the hand begins: the antes of the hand before, which
    # nobody opened or which was misdealt (RULES.md, "Home variants")
    carried: int = 0
    # shotgun: each player's first card, dealt face up and known to all
    up_cards: tuple[tuple[str, int], ...] = ()
    # what the reader noticed while reading tolerantly (a line it could not place, a draw
    # it inferred): warnings, positioned, which the replay puts in the hand's verdict
    warnings: tuple[Problem, ...] = ()

    def seat_of(self, player: str) -> Seat | None:
        for s in self.seats:
            if s.player == player:
                return s
        return None

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(s.player for s in self.seats)

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(s for s in self.steps if isinstance(s, Action))

    @property
    def posts(self) -> tuple[Post, ...]:
        return tuple(s for s in self.steps if isinstance(s, Post))

    @property
    def draws(self) -> tuple[Draw, ...]:
        return tuple(s for s in self.steps if isinstance(s, Draw))

    @property
    def shows(self) -> tuple[Show, ...]:
        return tuple(s for s in self.steps if isinstance(s, Show))

    @property
    def collects(self) -> tuple[Collect, ...]:
        return tuple(s for s in self.steps if isinstance(s, Collect))

    @property
    def is_tournament(self) -> bool:
        return self.tournament is not None
