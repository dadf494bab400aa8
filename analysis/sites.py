"""The sites as people name them, and a site asked for by a person: "PokerStars",
"pokerstars" or "Full Tilt" are the stored ``pokerstars`` and ``fulltilt``.  The list
itself is the engine's (``engine.profiles.SITE_NAMES``), beside the sites' profiles."""

from __future__ import annotations

from collections.abc import Iterable

from engine.profiles import SITE_NAMES as SITE_NAMES


def site_name(site: object) -> str:
    return SITE_NAMES.get(str(site), str(site))


def _folded(text: str) -> str:
    return "".join(text.split()).casefold()


def resolve_site(asked: str, stored: Iterable[str]) -> str | None:
    """The stored site ``asked`` names (its id or display name, any case, spaces aside),
    or None when it names none of ``stored``."""
    wanted = _folded(asked)
    for site in stored:
        if wanted in (_folded(site), _folded(site_name(site))):
            return site
    return None
