"""What the player writes down: tags and a note on a hand, a note and a colour on a
player, the names that are one person, and filter sets saved by name.

A hand is known here by its ``hands.key`` (``site:hand_id``) and a player by (site, name),
never by a row id: reverify lays the hands out again and a re-import of the same text finds
the same key, so nothing written is lost or moved to another hand.  The command line and
the pages both come here; they parse and show, this module decides.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, fields, replace
from datetime import date
from typing import Any

from analysis.sites import SITE_NAMES, resolve_site
from analysis.storage.db import Connection, one
from analysis.storage.filters import Filters
from analysis.storage.queries import find_hands

TABLES = ("hand_tags", "hand_notes", "player_notes", "aliases", "saved_filters")
HAND_TABLES = ("hand_tags", "hand_notes")  # keyed by a hand's key
OFFERED_TAGS = ("review", "mistake", "bad beat", "good play")
COLOURS = ("red", "orange", "yellow", "green", "blue", "purple", "grey")


class MemoryInputError(ValueError):
    """What the user named cannot be written: an unknown site, hand or colour, an empty
    tag or name, a saved filter set that does not exist.  One sentence, for the user."""


@dataclass(frozen=True, slots=True)
class HandMemory:
    """A stored hand's tags and note, as ``tag list`` and the hand lists show them."""

    site: str
    hand_id: str
    key: str
    tags: tuple[str, ...]
    note: str

    def as_dict(self) -> dict[str, Any]:
        return {"site": self.site, "hand_id": self.hand_id, "tags": list(self.tags),
                "note": self.note}


@dataclass(frozen=True, slots=True)
class PlayerNote:
    site: str
    player: str
    note: str
    colour: str | None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def label(self) -> str:
        """The note as one line beside the player's name: ``[red] calls down light``."""
        return (f"[{self.colour}] " if self.colour else "") + self.note


@dataclass(frozen=True, slots=True)
class Alias:
    person: str
    site: str
    player: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


# --- names ---------------------------------------------------------------------------


def site_id(text: str) -> str:
    """The site id a user means: an id (``pokerstars``) or the site's name
    (``PokerStars``, ``full tilt``), in any case."""
    site = resolve_site(text, SITE_NAMES)
    if site is not None:
        return site
    known = ", ".join(sorted(SITE_NAMES))
    raise MemoryInputError(f"unknown site {text!r}; the sites are: {known}")


def tag_text(text: str) -> str:
    """A tag as stored: words separated by one space, in lower case, so "Bad  Beat" and
    "bad beat" are one tag."""
    tag = " ".join(text.split()).casefold()
    if not tag:
        raise MemoryInputError("a tag cannot be empty")
    return tag


def _name(text: str, what: str) -> str:
    name = text.strip()
    if not name:
        raise MemoryInputError(f"a {what} cannot be empty")
    return name


def hand_key(db: Connection, hand_id: str, site: str | None = None) -> str:
    """The key of the one stored hand a user's hand id names (as the replayer shows it,
    or ``site:hand_id``), within ``site`` when given."""
    found = find_hands(db, hand_id)
    if site is not None and found:
        wanted = site_id(site)
        ids = {int(r[0]) for r in db.execute(
            "SELECT id FROM hands WHERE site = ? AND id IN (SELECT unnest(?::BIGINT[]))",
            [wanted, [i for i, _ in found]]).fetchall()}
        found = [(i, k) for i, k in found if i in ids]
    if not found:
        raise MemoryInputError(f"{hand_id}: no such hand stored")
    if len(found) > 1:
        keys = ", ".join(k for _, k in found)
        raise MemoryInputError(f"{hand_id}: several hands have this id ({keys}); add --site")
    return found[0][1]


# --- hands ---------------------------------------------------------------------------


def add_tags(db: Connection, key: str, tags: Iterable[str]) -> tuple[str, ...]:
    """Tag a hand (a tag it has already is kept once); returns its tags."""
    for tag in {tag_text(t) for t in tags}:
        db.execute("INSERT OR IGNORE INTO hand_tags VALUES (?, ?, current_timestamp)", [key, tag])
    return tags_of(db, key)


def remove_tags(db: Connection, key: str, tags: Iterable[str]) -> tuple[str, ...]:
    """Take tags off a hand (one it does not have is no error); returns its tags."""
    for tag in {tag_text(t) for t in tags}:
        db.execute("DELETE FROM hand_tags WHERE key = ? AND tag = ?", [key, tag])
    return tags_of(db, key)


def tags_of(db: Connection, key: str) -> tuple[str, ...]:
    rows = db.execute("SELECT tag FROM hand_tags WHERE key = ? ORDER BY tag", [key]).fetchall()
    return tuple(str(r[0]) for r in rows)


def set_hand_note(db: Connection, key: str, text: str) -> None:
    """The hand's note, replacing the one before; an empty text removes it."""
    db.execute("DELETE FROM hand_notes WHERE key = ?", [key])
    if text.strip():
        db.execute("INSERT INTO hand_notes VALUES (?, ?, current_timestamp)", [key, text.strip()])


def note_of(db: Connection, key: str) -> str:
    row = one(db, "SELECT note FROM hand_notes WHERE key = ?", [key])
    return "" if row is None else str(row[0])


def all_tags(db: Connection) -> list[str]:
    """Every tag in use and the offered ones, in order: to pick from."""
    used = [str(r[0]) for r in db.execute("SELECT DISTINCT tag FROM hand_tags").fetchall()]
    return sorted({*OFFERED_TAGS, *used})


def remembered_hands(db: Connection, tag: str | None = None,
                     noted: bool = False) -> list[HandMemory]:
    """Stored hands with a tag (``tag``: that one), or with a note too when ``noted``,
    newest first, each with all its tags and its note."""
    having = "TRUE" if tag is None else "list_contains(t.tags, ?)"
    which = "t.tags IS NOT NULL" + (" OR n.note IS NOT NULL" if noted else "")
    rows = db.execute(
        "WITH t AS (SELECT key, list(tag ORDER BY tag) AS tags FROM hand_tags GROUP BY key) "
        "SELECT h.site, h.hand_id, h.key, coalesce(t.tags, []), coalesce(n.note, '') "
        "FROM hands h LEFT JOIN t ON t.key = h.key LEFT JOIN hand_notes n ON n.key = h.key "
        f"WHERE ({which}) AND {having} ORDER BY h.time DESC NULLS LAST, h.id DESC",
        [] if tag is None else [tag_text(tag)],
    ).fetchall()
    return [HandMemory(str(s), "" if i is None else str(i), str(k), tuple(map(str, t)), str(n))
            for s, i, k, t, n in rows]


def hand_memory(db: Connection, ids: Sequence[int]) -> dict[int, HandMemory]:
    """The tags and note of each of these stored hands (``hands.id``) that has any: for
    the hand lists."""
    if not ids:
        return {}
    rows = db.execute(
        "WITH t AS (SELECT key, list(tag ORDER BY tag) AS tags FROM hand_tags GROUP BY key) "
        "SELECT h.id, h.site, h.hand_id, h.key, coalesce(t.tags, []), coalesce(n.note, '') "
        "FROM hands h LEFT JOIN t ON t.key = h.key LEFT JOIN hand_notes n ON n.key = h.key "
        "WHERE h.id IN (SELECT unnest(?::BIGINT[])) AND (t.tags IS NOT NULL OR n.note IS NOT NULL)",
        [list(ids)],
    ).fetchall()
    return {int(h): HandMemory(str(s), "" if i is None else str(i), str(k),
                               tuple(map(str, t)), str(n))
            for h, s, i, k, t, n in rows}


# --- players -------------------------------------------------------------------------


def set_player_note(db: Connection, site: str, player: str, text: str,
                    colour: str | None = None) -> PlayerNote | None:
    """A player's note and colour label, replacing what was there; no text and no colour
    removes them.  Returns what is now stored."""
    site, player = site_id(site), _name(player, "player's name")
    if colour is not None and colour.strip():
        colour = colour.strip().casefold()
        if colour not in COLOURS:
            raise MemoryInputError(f"unknown colour {colour!r}; the colours are: "
                                   f"{', '.join(COLOURS)}")
    else:
        colour = None
    db.execute("DELETE FROM player_notes WHERE site = ? AND player = ?", [site, player])
    if not text.strip() and colour is None:
        return None
    db.execute("INSERT INTO player_notes VALUES (?, ?, ?, ?, current_timestamp)",
               [site, player, text.strip(), colour])
    return PlayerNote(site, player, text.strip(), colour)


def player_notes(db: Connection, site: str | None = None) -> list[PlayerNote]:
    """Every player note (of one site id), by site and name."""
    rows = db.execute(
        "SELECT site, player, note, colour FROM player_notes "
        "WHERE ? IS NULL OR site = ? ORDER BY site, player", [site, site]
    ).fetchall()
    return [PlayerNote(str(s), str(p), str(n), None if c is None else str(c))
            for s, p, n, c in rows]


def notes_by_player(db: Connection, site: str | None = None) -> dict[tuple[str, str], PlayerNote]:
    """The player notes keyed by (site, name): what the HUD and the tables look up."""
    return {(n.site, n.player): n for n in player_notes(db, site)}


def note_labels(db: Connection, site: str | None = None) -> dict[tuple[str, str], str]:
    """Each player note as the line shown beside the name (``PlayerNote.label``)."""
    return {k: n.label() for k, n in notes_by_player(db, site).items()}


# --- people --------------------------------------------------------------------------


def add_alias(db: Connection, person: str, site: str, player: str) -> Alias:
    """Say that ``player`` at ``site`` is ``person``; a name belongs to one person, so
    naming it again for another moves it."""
    alias = Alias(_name(person, "person"), site_id(site), _name(player, "player's name"))
    db.execute("DELETE FROM aliases WHERE site = ? AND player = ?", [alias.site, alias.player])
    db.execute("INSERT INTO aliases VALUES (?, ?, ?)", [alias.person, alias.site, alias.player])
    return alias


def remove_alias(db: Connection, person: str, site: str, player: str) -> bool:
    """Whether the name was one of the person's (and is no longer)."""
    params = [person.strip(), site_id(site), player.strip()]
    found = one(db, "SELECT 1 FROM aliases WHERE person = ? AND site = ? AND player = ?", params)
    db.execute("DELETE FROM aliases WHERE person = ? AND site = ? AND player = ?", params)
    return found is not None


def aliases(db: Connection) -> list[Alias]:
    rows = db.execute(
        "SELECT person, site, player FROM aliases ORDER BY person, site, player"
    ).fetchall()
    return [Alias(str(p), str(s), str(n)) for p, s, n in rows]


def people(db: Connection) -> list[str]:
    return sorted({a.person for a in aliases(db)})


def names_of(db: Connection, person: str) -> list[tuple[str, str]]:
    """The (site, name) pairs of a person; empty when ``person`` is no person."""
    return [(a.site, a.player) for a in aliases(db) if a.person == person]


# --- saved filters -------------------------------------------------------------------


def filters_json(filters: Filters) -> str:
    """A filter set as JSON: its fields that restrict (not at their default; a
    ``tournament`` of ``False``, cash only, is kept), days as ISO dates.  Not the zone:
    the days are read in the display zone of whoever uses the set."""
    data: dict[str, Any] = {}
    for f in fields(Filters):
        value = getattr(filters, f.name)
        if value == f.default or f.name == "zone":  # the display zone's, not the set's
            continue
        data[f.name] = value.isoformat() if isinstance(value, date) else value
    return json.dumps(data, sort_keys=True)


def filters_from_json(text: str) -> Filters:
    """The filter set ``filters_json`` wrote; fields this DrawLab does not know (a newer
    one's) are left out rather than refused."""
    data = json.loads(text)
    known = {f.name for f in fields(Filters)}
    values: dict[str, Any] = {}
    for name, value in data.items():
        if name not in known:
            continue
        if name.startswith("date_"):
            value = date.fromisoformat(value)
        values[name] = tuple(value) if isinstance(value, list) else value
    return Filters(**values)


def save_filters(db: Connection, name: str, filters: Filters) -> None:
    """Keep a filter set under a name, replacing one saved under it before."""
    name = _name(name, "filter set's name")
    db.execute("DELETE FROM saved_filters WHERE name = ?", [name])
    db.execute("INSERT INTO saved_filters VALUES (?, ?, current_timestamp)",
               [name, filters_json(filters)])


def saved_filters(db: Connection, name: str) -> Filters:
    row = one(db, "SELECT filters FROM saved_filters WHERE name = ?", [name])
    if row is None:
        known = ", ".join(saved_filter_names(db)) or "none saved yet"
        raise MemoryInputError(f"no saved filters named {name!r} ({known})")
    return filters_from_json(str(row[0]))


def saved_filter_names(db: Connection) -> list[str]:
    return [str(r[0]) for r in db.execute("SELECT name FROM saved_filters ORDER BY name")
            .fetchall()]


def delete_filters(db: Connection, name: str) -> None:
    db.execute("DELETE FROM saved_filters WHERE name = ?", [name])


def overlay(saved: Filters, given: Filters) -> Filters:
    """A saved filter set with the fields ``given`` sets (another site, a day) put over
    it: what ``--filters NAME --site X`` means."""
    return replace(saved, **{f.name: getattr(given, f.name) for f in fields(Filters)
                             if getattr(given, f.name) != f.default})


def person_filters(db: Connection, person: str, filters: Filters) -> Filters | None:
    """``filters`` counting every name of ``person`` as the one player asked about
    (``Filters.names``), or ``None`` when no name is that person's."""
    names = person_names(db, person)
    return None if names is None else replace(filters, names=names)


def person_names(db: Connection, person: str) -> tuple[str, ...] | None:
    """A person's names as ``Filters.names`` and ``TournamentFilters.names`` take them,
    each "site:name", or ``None`` when no name is that person's."""
    names = names_of(db, person)
    return tuple(f"{site}:{name}" for site, name in names) if names else None
