"""What the hero has read of each opponent, and the range profiles that turn it into a range.

A strong 2-7 player does not range an opponent by their last draw count alone.  A player
pat since the first draw stood pat when the thresholds were tightest (a 9 or better in the
standard profile), one who stands pat only on the last draw may hold a 10; a player who
has drawn one card twice started drawing one when only the good draws were kept (7s and
8s), not "anything to a 9".  So an opponent's range here is the one their profile plays at
the draw where their current count began (``Read.since``), one step tighter when they bet
or raised in the round before the hero's draw, and one step wider or tighter by the
position of their first voluntary action (``position_step``).  The draws after this one are
played with the profile's own thresholds.

Position (one rule, ``position_step``): a triple draw regular opens many more hands from the
cutoff, button or small blind, where only the blinds are left to act and a steal often takes
the blinds at once, than under the gun, where five players may wake up behind; and a blind
facing such a steal defends wide, since the steal is wide and the blind has money in.  So an
opponent who raised first in pre-draw from CO, BTN or SB is ranged one rank wider, one who
raised first in from UTG to UTG+4 one rank tighter (MP keeps the profile's own), and a blind
still in after a steal by another player one rank wider; callers of an early open, limped
pots and unknown positions keep the profile's own.

Card removal is the simulator's: every range is dealt free of the cards the hero holds and
knows are out.

Three named profiles (``PROFILES``): ``standard`` is the game's default strategy
(``engine.sim.strategy.default_strategy``), ``tight`` keeps and stands pat one rank
lower, ``loose`` one rank higher.  They change the ranges of the threshold games (2-7,
A-5); five-card draw's and Badugi's strategies have no thresholds to move, so a profile
changes only how often their players call there.

Folding (after the last draw, when the hero bets): each opponent calls with the strongest
share of their final hands that the bet's price asks them to defend, ``pot / (pot + bet)``
(the share that keeps a bluff from profiting at once), scaled by how strongly the hero's
count represents a made hand (``CREDIT``: a bettor who stood pat or drew one is credited
with a made hand, and called less, than one who drew two or more) and by the profile
(``CALLS``).  The rest fold, so a snow or a bluff draw wins the pot that often.  These
shares are the model's stated assumptions, not measured frequencies.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.cards import RANK_CHARS
from engine.ranking import Ranking
from engine.sim.strategy import Strategy, ThresholdStrategy, at_draw, default_strategy

STANDARD = "standard"
EARLY = frozenset({"UTG", "UTG+1", "UTG+2", "UTG+3", "UTG+4"})  # an open here: a rank tighter
LATE = frozenset({"CO", "BTN", "SB"})  # an open here is a steal: a rank wider
BLINDS = frozenset({"SB", "BB"})  # still in after another player's steal: a rank wider
PROFILES = ("tight", STANDARD, "loose")
_STEP = {"tight": -1, STANDARD: 0, "loose": 1}  # ranks the thresholds move
CALLS = {"tight": 0.85, STANDARD: 1.0, "loose": 1.15}  # the share defended, scaled
CREDIT = {0: 0.8, 1: 0.8}  # the share defended against a bettor who drew 0 or 1 (else 1)


@dataclass(frozen=True)
class Read:
    """One opponent as the hero has seen them before this draw: ``count`` (what they draw
    now, or ``None`` not seen yet), ``since`` (the draws left, this one counted, when they
    first drew that many in a row: 3 for pat since the first draw of three) and
    ``aggressor`` (they bet or raised in the betting round just before this draw) and
    ``position`` (the ranks their pre-draw position moves the range, ``position_step``)."""

    count: int | None
    since: int
    aggressor: bool = False
    position: int = 0


def position_step(position: str | None, opener: str | None) -> int:
    """The ranks an opponent's range moves by the position of their first voluntary action
    (see the module's notes): ``position`` is theirs, ``opener`` the position of the player
    who raised first in pre-draw (``None`` when nobody did: a limped or unknown pot).  An
    opponent still in the hand is the opener, or called or raised after the open."""
    if position is None or opener is None:
        return 0
    if position == opener:
        return 1 if position in LATE else -1 if position in EARLY else 0
    return 1 if position in BLINDS and opener in LATE else 0


def _moved(char: str, step: int) -> str:
    at = min(max(RANK_CHARS.index(char) + step, 0), len(RANK_CHARS) - 1)
    return RANK_CHARS[at]


@cache
def _thresholds(ranking: Ranking) -> tuple[dict[int, str], dict[int, str]] | None:
    base = default_strategy(ranking)
    if not isinstance(base, ThresholdStrategy):
        return None
    return dict(base.keep_up_to), dict(base.pat_up_to)


@cache
def profile_strategy(ranking: Ranking, profile: str) -> Strategy:
    """The profile's strategy for the whole hand (one object per profile: the ranges are
    cached by the strategy's identity)."""
    return read_strategy(ranking, profile, draws_left=1, since=1, aggressor=False)


def read_strategy(
    ranking: Ranking,
    profile: str,
    *,
    draws_left: int,
    since: int,
    aggressor: bool,
    position: int = 0,
) -> Strategy:
    """The strategy an opponent read as ``Read(count, since, aggressor, position)`` plays
    with ``draws_left`` draws to come: on this draw the profile's thresholds of the draw
    their count began at (one rank tighter for an aggressor, ``position`` ranks wider),
    after it the profile's own.  The cache keys positional and keyword calls apart, so
    every call reaches it through this one positional call."""
    return _read_strategy(ranking, profile, draws_left, since, aggressor, position)


@cache
def _read_strategy(
    ranking: Ranking, profile: str, draws_left: int, since: int, aggressor: bool, position: int
) -> Strategy:
    if profile not in _STEP:
        raise ValueError(f"a range profile is one of {', '.join(PROFILES)}, not {profile!r}")
    tables = _thresholds(ranking)
    if tables is None:
        return default_strategy(ranking)
    keep, pat = tables
    step = _STEP[profile]
    keep_at = {d: _moved(c, step) for d, c in keep.items()}
    pat_at = {d: _moved(c, step) for d, c in pat.items()}
    now = max(since, draws_left)
    read_step = step - (1 if aggressor else 0) + position
    keep_at[draws_left] = _moved(at_draw(keep, now), read_step)
    pat_at[draws_left] = _moved(at_draw(pat, now), read_step)
    return _strategy(ranking, tuple(sorted(keep_at.items())), tuple(sorted(pat_at.items())))


@cache
def _strategy(
    ranking: Ranking, keep: tuple[tuple[int, str], ...], pat: tuple[tuple[int, str], ...]
) -> Strategy:
    """One object per set of thresholds, the default strategy itself where they are its
    own: the ranges are built once per strategy object, and the default's are prepared."""
    base = default_strategy(ranking)
    if _thresholds(ranking) == (dict(keep), dict(pat)):
        return base
    return ThresholdStrategy(ranking, dict(keep), dict(pat))


def defended(bet: float, hero_count: int, profile: str) -> float:
    """The share of their final hands each opponent calls the hero's bet of ``bet`` times
    the pot with (the strongest ones), facing a hero who drew ``hero_count`` cards."""
    if bet <= 0:
        return 1.0
    share = 1.0 / (1.0 + bet) * CREDIT.get(hero_count, 1.0) * CALLS[profile]
    return min(1.0, max(0.0, share))
