"""Deleting stored hands the user no longer wants, and everything that hangs on them.

One way to delete, whatever names the hands: an import (a row of ``import_batches``), a
file (or an archive, every member of it), a site, or the bundled samples
(``analysis.storage.samples``).  A ``Selection`` says which rows of ``hands`` and
``quarantine`` go (both carry ``batch``, ``file`` and ``site``), which tournament
summaries go with them, and which ``files`` records; ``delete`` removes, in one
transaction, the hands, every row of every table kept per hand (seats, actions, pots,
facts, reviewed draws...), the tags and notes of those hands, the unreadable texts, the
tournament rows their hands told (told again by the hands that stay) and the file
records, so the same files can be imported again; then the summed summaries are built
anew (``summaries.rebuild_all``).  The import history (``import_batches``) stays: it is what
happened, and a database with one is never taken for a new one.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from analysis.sites import site_name
from analysis.storage import summaries as summary_tables
from analysis.storage.db import Connection, one
from analysis.storage.transactions import rollback
from analysis.tournament_hands import results_from_hands


@dataclass(frozen=True)
class Where:
    """A condition in SQL and its parameters."""

    sql: str
    params: tuple[object, ...] = ()


NOTHING = Where("FALSE")


@dataclass(frozen=True)
class Selection:
    """Which stored rows a delete takes: ``rows`` over ``hands`` and ``quarantine``
    (columns ``batch``, ``file``, ``site``), ``summaries`` over the tournament rows read
    from summary files (``site``, ``file``), ``paths`` over ``files.path`` beyond the
    files of the rows deleted.  ``label`` names it for a person."""

    label: str
    rows: Where
    summaries: Where = NOTHING
    paths: Where = NOTHING


@dataclass(frozen=True)
class Doomed:
    """What a selection holds: the hands, the unreadable texts and the tournament
    summaries a delete removes."""

    hands: int
    texts: int
    summaries: int = 0
    watched: int = 0  # of the hands, those of files in a watched folder

    @property
    def empty(self) -> bool:
        return self.hands == 0 and self.texts == 0 and self.summaries == 0

    def text(self) -> str:
        """``300 hands``, ``1 hand and 2 unreadable texts``, ``0 hands and 1 tournament
        summary``."""
        parts = [f"{self.hands:,} hand{'' if self.hands == 1 else 's'}"]
        if self.texts:
            parts.append(f"{self.texts:,} unreadable text{'' if self.texts == 1 else 's'}")
        if self.summaries:
            kind = "summary" if self.summaries == 1 else "summaries"
            parts.append(f"{self.summaries:,} tournament {kind}")
        return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]


@dataclass
class Deleted:
    """What a delete removed."""

    hands: int = 0
    texts: int = 0
    tags: int = 0
    notes: int = 0
    tournaments: int = 0
    files: int = 0
    tournaments_told_again: list[str] = field(default_factory=list)


def of_batch(con: Connection, batch: int) -> Selection:
    """The hands one import stored from one file (``import_batches.id``)."""
    row = one(con, "SELECT file FROM import_batches WHERE id = ?", [batch])
    file = str(row[0]) if row else ""
    return Selection(
        label=f"import {batch}" + (f" ({file})" if file else ""),
        rows=Where("batch = ?", (batch,)),
        summaries=Where("file = ?", (file,)) if file else NOTHING,
        paths=Where("path = ?", (file,)) if file else NOTHING,
    )


def of_file(path: str) -> Selection:
    """A file's hands as stored under its name (``drawlab verify``'s), or an archive's:
    every member of it (``a.zip/member.txt``)."""
    path = path.rstrip("/")
    member = path + "/"
    return Selection(
        label=f"the file {path}",
        rows=Where("(file = ? OR starts_with(file, ?))", (path, member)),
        summaries=Where("(file = ? OR starts_with(file, ?))", (path, member)),
        paths=Where("(path = ? OR starts_with(path, ?))", (path, member)),
    )


def of_site(site: str) -> Selection:
    """Every hand of a site (as stored: ``analysis.sites.resolve_site`` finds it from what
    a person types), its tournaments' summaries too."""
    return Selection(
        label=f"the site {site_name(site)}",
        rows=Where("site = ?", (site,)),
        summaries=Where("site = ?", (site,)),
    )


def count(con: Connection, selection: Selection) -> Doomed:
    """How many hands, unreadable texts and tournament summaries ``delete`` would remove:
    what a confirmation says before anything goes."""
    where, summaries = selection.rows, selection.summaries
    hands = one(
        con,
        "SELECT count(*), count(*) FILTER (WHERE EXISTS (SELECT 1 FROM watched_folders w "
        "WHERE file = w.path OR starts_with(file, rtrim(w.path, '/') || '/'))) "
        f"FROM hands WHERE {where.sql}",
        list(where.params),
    )
    texts = one(con, f"SELECT count(*) FROM quarantine WHERE {where.sql}", list(where.params))
    told = one(
        con,
        f"SELECT count(*) FROM tournaments WHERE source = 'summary' AND {summaries.sql}",
        list(summaries.params),
    )
    return Doomed(
        hands=int(hands[0]) if hands else 0,
        texts=int(texts[0]) if texts else 0,
        summaries=int(told[0]) if told else 0,
        watched=int(hands[1]) if hands else 0,
    )


def per_hand_tables(con: Connection) -> list[str]:
    """Every table that keeps rows of a hand in a column ``hand`` (seats, actions,
    ``player_hands``, reviews...), whichever this version's schema and later ones add;
    not the summed cells, which are built anew."""
    rows = con.execute(
        "SELECT DISTINCT table_name FROM information_schema.columns "
        "WHERE column_name = 'hand' AND table_schema = current_schema() "
        "AND table_name NOT LIKE '%cells%' ORDER BY table_name"
    ).fetchall()
    return [str(r[0]) for r in rows]


def delete(con: Connection, selection: Selection) -> Deleted:
    """Delete the selected hands and unreadable texts and everything kept of them, in
    one transaction (all or nothing); then the summaries are built again and the
    tournaments the remaining hands tell are told again.  Returns what went."""
    deleted = Deleted()
    con.execute("BEGIN TRANSACTION")
    try:
        _mark_doomed(con, selection)
        _delete_marked(con, selection, deleted)
        summary_tables.invalidate(con)
        for table in ("_doomed", "_doomed_texts", "_doomed_tournaments"):
            con.execute(f"DROP TABLE {table}")  # a rollback takes them away too
        con.execute("COMMIT")
    except BaseException:
        rollback(con)
        raise
    if deleted.tournaments_told_again:
        results_from_hands(con, tournaments=deleted.tournaments_told_again)
    summary_tables.rebuild_all(con)
    return deleted


def _mark_doomed(con: Connection, selection: Selection) -> None:
    """The rows to delete, in temporary tables, so each table's delete reads a list."""
    rows, summaries = selection.rows, selection.summaries
    con.execute(
        "CREATE OR REPLACE TEMP TABLE _doomed AS SELECT id, key, file, site, "
        f"tournament_id FROM hands WHERE {rows.sql}",
        list(rows.params),
    )
    con.execute(
        "CREATE OR REPLACE TEMP TABLE _doomed_texts AS SELECT id, file FROM "
        f"quarantine WHERE {rows.sql}",
        list(rows.params),
    )
    # a summary read from a file that goes, and a tournament that only its hands told
    # (``analysis.tournament_hands``) when some of those hands go
    con.execute(
        "CREATE OR REPLACE TEMP TABLE _doomed_tournaments AS "
        "SELECT site, tournament_id, file FROM tournaments "
        f"WHERE source = 'summary' AND {summaries.sql} "
        "UNION SELECT site, tournament_id, file FROM tournaments WHERE source = 'hands' "
        "AND (site, tournament_id) IN (SELECT site, tournament_id FROM _doomed "
        "WHERE tournament_id IS NOT NULL)",
        list(summaries.params),
    )


def _deleted_rows(con: Connection, sql: str, params: list[object] | None = None) -> int:
    return len(con.execute(sql + " RETURNING 1", params or []).fetchall())


def _delete_marked(con: Connection, selection: Selection, deleted: Deleted) -> None:
    for table in per_hand_tables(con):
        con.execute(f"DELETE FROM {table} WHERE hand IN (SELECT id FROM _doomed)")
    deleted.tags = _deleted_rows(
        con, "DELETE FROM hand_tags WHERE key IN (SELECT key FROM _doomed)"
    )
    deleted.notes = _deleted_rows(
        con, "DELETE FROM hand_notes WHERE key IN (SELECT key FROM _doomed)"
    )
    deleted.hands = _deleted_rows(con, "DELETE FROM hands WHERE id IN (SELECT id FROM _doomed)")
    deleted.texts = _deleted_rows(
        con, "DELETE FROM quarantine WHERE id IN (SELECT id FROM _doomed_texts)"
    )
    doomed = "(site, tournament_id) IN (SELECT site, tournament_id FROM _doomed_tournaments)"
    con.execute(f"DELETE FROM tournament_results WHERE {doomed}")
    deleted.tournaments = _deleted_rows(con, f"DELETE FROM tournaments WHERE {doomed}")
    told = con.execute(
        "SELECT DISTINCT site || ':' || tournament_id FROM hands WHERE tournament_id IS NOT "
        "NULL AND (site, tournament_id) IN (SELECT site, tournament_id FROM _doomed "
        "UNION SELECT site, tournament_id FROM _doomed_tournaments) ORDER BY 1"
    ).fetchall()
    deleted.tournaments_told_again = [str(r[0]) for r in told]
    paths = selection.paths
    deleted.files = _deleted_rows(
        con,
        "DELETE FROM files WHERE path IN (SELECT file FROM _doomed UNION SELECT file FROM "
        f"_doomed_texts UNION SELECT file FROM _doomed_tournaments) OR {paths.sql}",
        list(paths.params),
    )


@dataclass(frozen=True)
class Stored:
    """One thing a user can delete (an import, a file, a site) and what it holds."""

    value: str  # what names it: the import's id, the file's path, the site's name
    label: str
    held: Doomed


def _stored(con: Connection, sql: str) -> list[Stored]:
    return [
        Stored(str(value), str(label), Doomed(int(hands), int(texts), int(summaries)))
        for value, label, hands, texts, summaries in con.execute(sql).fetchall()
    ]


def _holding(key: str, summaries: bool = True) -> str:
    """The hands, unreadable texts and tournament summaries of each ``key`` (a column of
    the three tables; ``summaries=False`` for one ``tournaments`` has not)."""
    told = (
        f" UNION ALL SELECT {key}, 's' FROM tournaments WHERE source = 'summary'"
        if summaries
        else ""
    )
    return (
        f"SELECT {key} AS key, count(*) FILTER (WHERE kind = 'h') AS hands, "
        "count(*) FILTER (WHERE kind = 'q') AS texts, count(*) FILTER (WHERE kind = 's') "
        f"AS summaries FROM (SELECT {key}, 'h' AS kind FROM hands UNION ALL SELECT {key}, "
        f"'q' FROM quarantine{told}) GROUP BY ALL"
    )


def imports(con: Connection) -> list[Stored]:
    """The imports (one file read by one run) that still hold hands, newest first."""
    return _stored(
        con,
        "SELECT b.id, '#' || b.id || ' · ' || strftime(b.started, '%Y-%m-%d %H:%M') || ' · ' "
        f"|| b.file, h.hands, h.texts, 0 FROM import_batches b JOIN "
        f"({_holding('batch', summaries=False)}) h ON h.key = b.id ORDER BY b.id DESC",
    )


def files(con: Connection) -> list[Stored]:
    """The files that hands, unreadable texts or tournament summaries were stored from."""
    return _stored(
        con,
        f"SELECT key, key, hands, texts, summaries FROM ({_holding('file')}) "
        "WHERE key IS NOT NULL ORDER BY key",
    )


def sites(con: Connection) -> list[Stored]:
    """The sites of the stored hands and tournament summaries, by name."""
    stored = _stored(
        con,
        f"SELECT key, key, hands, texts, summaries FROM ({_holding('site')}) "
        "WHERE key IS NOT NULL ORDER BY key",
    )
    return [replace(s, label=site_name(s.value)) for s in stored]


def what_goes(doomed: Doomed, selection: Selection) -> str:
    """What a confirmation asks about: how many hands (and unreadable texts) of what."""
    return f"{doomed.text()} of {selection.label}"


def watched_warning(doomed: Doomed) -> str:
    """What a confirmation adds when some of the hands come from a watched folder: the
    watcher would import them again (their file records go with them)."""
    if not doomed.watched:
        return ""
    many = (
        f"{doomed.watched:,} of these hands are" if doomed.watched != 1 else ("1 of these hands is")
    )
    return (
        f"{many} in a watched folder: the watcher imports them again unless the folder "
        "is no longer watched."
    )
