"""A hand to share: its address (the replayer's URL names it) and its texts to copy.

A hand is named in an address by its ``key`` (``site:hand_id`` for most hands; see
``analysis.storage.schema``), not by ``hands.id``: the key survives ``drawlab reverify``
and a delete and import again, so a bookmark keeps opening the same hand.  The texts are
the hand as its site wrote it (the stored text) and as PHH, written by the parser's PHH
writer from the hand's record, as ``drawlab export --format phh`` writes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from analysis.storage.db import Connection, one
from analysis.storage.export import writer_for
from analysis.storage.queries import StoredHand

HAND = "hand"  # the address's parameters: the hand's key and the step shown
STEP = "step"


@dataclass(frozen=True)
class Address:
    """What a replayer URL names: a hand by its key, and the step to show (0: the first)."""

    key: str
    step: int = 0


@dataclass(frozen=True)
class HandTexts:
    """A hand as text to copy: as its site wrote it, and as PHH (None, and why, when the
    hand has no record to write from or the writer fails on it); without the line breaks
    that end them, as a copied block holds them."""

    site: str
    phh: str | None
    phh_missing: str = ""


def address_of(params: dict[str, str]) -> Address | None:
    """The hand and step a URL's query names, or None when it names no hand; a step that
    is not a number is the first step."""
    key = params.get(HAND, "").strip()
    if not key:
        return None
    step = params.get(STEP, "0").strip()
    return Address(key, int(step) if step.isdigit() else 0)


def params_of(address: Address) -> dict[str, str]:
    """The URL's query for ``address``."""
    return {HAND: address.key, STEP: str(address.step)}


def hand_id_of(db: Connection, key: str) -> int | None:
    """The stored hand (``hands.id``) of a key, or None when no stored hand has it."""
    row = one(db, "SELECT id FROM hands WHERE key = ?", [key])
    return None if row is None else int(row[0])


def hand_texts(stored: StoredHand) -> HandTexts:
    """The stored hand's texts to copy."""
    site = stored.text.rstrip("\n")
    if stored.hand is None:
        return HandTexts(site, None, stored.note or "the hand has no record to write from")
    try:
        phh = writer_for("phh")(stored.hand).rstrip("\n")
    except Exception as exc:  # a writer's bug: the site's text is still there to copy
        return HandTexts(site, None, f"the PHH writer failed: {type(exc).__name__}: {exc}")
    return HandTexts(site, phh)


def link(page_url: str, address: Address) -> str:
    """The address as a link to paste: the replayer page's URL (its own query dropped)
    with the hand and the step."""
    return f"{page_url.split('?')[0]}?{urlencode(params_of(address))}"
