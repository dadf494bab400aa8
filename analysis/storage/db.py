"""Where a user's hands live: one embedded DuckDB file, created on first use.

The file is found, in order, from the ``path`` argument (the command line's ``--db``),
the environment variable ``DRAWLAB_DB``, or ``~/.drawlab/drawlab.duckdb``.  Opening it
brings its schema forward (see ``analysis.storage.schema``) and keeps ``player_hands`` in step
with the columns the statistics declare in ``analysis.statistics.fact_row.FACT_COLUMNS``
(a table laid out anew is marked stale; refilling it parses hands, which is the importer's
job, so this module imports nothing of the import pipeline).

DuckDB lets one process write a file at a time; readers in other processes must open it
``read_only`` while no writer holds it.  So every DrawLab program holds the file only
while it uses it (open, a short transaction or a read, close), and every open waits a
little for the lock (``wait``) instead of failing at once: see README, "One database,
several programs".
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import duckdb

from analysis.faults import Explained, is_lock, opening
from analysis.statistics.fact_row import FACT_COLUMNS
from analysis.storage.schema import CURRENT_VERSION, NewerSchema, migrate, stored_version
from analysis.storage.transactions import rollback

ENV_VAR = "DRAWLAB_DB"
MEMORY = ":memory:"
# seconds a command's open waits for another program to release the file: during the
# real import of ten million hands a reader waited 5 to 17 s (a transaction, its summed
# cells and a checkpoint run before the import looks for a waiting reader), and at 15 s one
# ``drawlab stats`` of 21 gave up (docs/scale.md, the eighth pass)
LOCK_WAIT = 30.0
_LOCK_POLL = 0.01  # first pause between tries; doubles up to _LOCK_POLL_MAX
_LOCK_POLL_MAX = 0.1
# DuckDB's own memory while a migration lays a table out again: its default (80 % of the
# machine) let version 7's copy of ten million hand texts reach 5.6 GB; bounded, it spills
# to disk (1 M hands: 1,011 MiB peak by default, 559 MiB bounded, 3.1 s -> 4.8 s).
MIGRATE_MEMORY_MB = 500

Connection = duckdb.DuckDBPyConnection


class DatabaseUnavailable(Explained):
    """The database file cannot be opened: locked by another process past the wait, not a
    database, damaged or not writable; the message is ``analysis.faults``' sentence."""


class DatabaseMissing(DatabaseUnavailable):
    """A read-only open of a database file that does not exist (nothing imported yet)."""


class SchemaOutdated(Explained):
    """A database whose layout is not this DrawLab's: a read-only open needs a writing
    open (which migrates it) first; when ``newer`` (any open), a newer DrawLab."""

    def __init__(self, message: str, *, newer: bool = False) -> None:
        super().__init__(message)
        self.newer = newer


def one(
    con: Connection, sql: str, params: Sequence[object] | None = None
) -> tuple[Any, ...] | None:
    """The first row of a query, reading the result to its end as DuckDB requires
    before the connection's next statement."""
    rows = (
        con.execute(sql, params).fetchall() if params is not None else con.execute(sql).fetchall()
    )
    return tuple(rows[0]) if rows else None


def append_arrow(con: Connection, table: str, rows: Any) -> None:
    """Append an Arrow table's rows to ``table``, column by name: one bulk insert."""
    cols = ", ".join(f'"{n}"' for n in rows.column_names)
    con.register("_append_rows", rows)
    try:
        con.execute(f"INSERT INTO {table} ({cols}) SELECT {cols} FROM _append_rows")
    finally:
        con.unregister("_append_rows")


def default_path() -> Path:
    return Path.home() / ".drawlab" / "drawlab.duckdb"


def resolve_path(path: str | os.PathLike[str] | None = None) -> str:
    """The database file this call means: argument, then ``DRAWLAB_DB``, then the default."""
    if path is not None and str(path):
        return str(path)
    env = os.environ.get(ENV_VAR, "")
    if env:
        return env
    return str(default_path())


def is_locked(exc: BaseException) -> bool:
    """DuckDB's error for a file another process holds (the only one worth waiting on)."""
    return is_lock(exc)


def waiting_reader_path(target: str) -> str:
    """The file a program waiting for the database touches: a long import releases the
    database at its next commit when it sees it newer than its last release (the name
    ends in ``.lock`` so that a watcher of the folder skips it)."""
    return f"{os.path.abspath(target)}.waiting.lock"


def reader_waiting_since(target: str, since: float) -> bool:
    """Whether a program said it waits (``waiting_reader_path``) after ``since`` (a
    ``time.time()``)."""
    try:
        return os.stat(waiting_reader_path(target)).st_mtime >= since
    except OSError:
        return False


def _say_waiting(target: str) -> None:
    try:
        with open(waiting_reader_path(target), "a"):
            pass
        os.utime(waiting_reader_path(target))
    except OSError:  # a folder we may not write to: the writer's release by time still comes
        pass


def _open(target: str, read_only: bool, wait: float) -> Connection:
    """``duckdb.connect``, trying again for up to ``wait`` seconds while the file is
    locked by another program (which, in DrawLab, holds it only for a short write, or, a
    long import, until it sees this program waiting)."""
    deadline = time.monotonic() + wait
    pause = _LOCK_POLL
    said_waiting = False
    while True:
        try:
            return duckdb.connect(target, read_only=read_only)
        except duckdb.IOException as exc:
            if not is_locked(exc) or time.monotonic() + pause > deadline:
                raise
            if not said_waiting and target != MEMORY:
                _say_waiting(target)
                said_waiting = True
        time.sleep(pause)
        pause = min(_LOCK_POLL_MAX, pause * 2)


def connect(
    path: str | os.PathLike[str] | None = None,
    *,
    read_only: bool = False,
    wait: float = 0.0,
) -> Connection:
    """Open (creating if need be) the database and bring its schema to the current version.

    ``read_only`` opens an existing, current database without writing a byte (no DDL, so
    another process may read it at the same time): a missing file is ``DatabaseMissing``,
    one an older or newer DrawLab laid out is ``SchemaOutdated``.  ``wait``: seconds to
    keep trying while another program holds the file (``LOCK_WAIT`` suits a command).
    """
    target = resolve_path(path)
    if target != MEMORY:
        target = str(Path(target).expanduser())
        if read_only and not Path(target).exists():
            raise DatabaseMissing(
                f"no database at {target}; import hands first with `drawlab import`"
            )
        if not read_only:
            try:
                Path(target).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:  # a folder that cannot be written
                raise _unavailable(target, exc, 0.0) from exc
    try:
        con = _open(target, read_only, wait)
    except duckdb.Error as exc:  # locked past the wait, not a database, cut short
        raise _unavailable(target, exc, wait) from exc
    try:
        if read_only:
            _check_current(con, target)
        else:
            _migrate_bounded(con)
            sync_player_hands(con)  # a re-created table is marked stale; the importer refills it
    except NewerSchema as exc:
        con.close()
        raise SchemaOutdated(_newer(target, exc.found), newer=True) from exc
    except duckdb.Error as exc:  # a damaged file found by the first reads, a log not written
        con.close()
        raise _unavailable(target, exc, 0.0) from exc
    except BaseException:
        con.close()
        raise
    return con


def _unavailable(target: str, exc: BaseException, wait: float) -> DatabaseUnavailable:
    return DatabaseUnavailable(opening(target, exc, wait))


def _newer(target: str, found: int) -> str:
    return (
        f"{target} was written by a newer DrawLab (database schema version {found}, this one "
        f"knows up to {CURRENT_VERSION}): nothing was changed; upgrade DrawLab to open it"
    )


def _migrate_bounded(con: Connection) -> None:
    """``migrate`` under ``MIGRATE_MEMORY_MB``: a database from an older DrawLab is brought
    up to date by the first program that opens it for writing, which may be the dashboard
    on a small machine."""
    if stored_version(con) == CURRENT_VERSION:
        return  # nothing to lay out: every page run of the dashboard opens the file
    with memory_limited(con, MIGRATE_MEMORY_MB):
        migrate(con)  # refuses a newer database


def _check_current(con: Connection, target: str) -> None:
    """Refuse, saying how to fix it, a database a read-only connection cannot use as is."""
    found = stored_version(con)
    if found > CURRENT_VERSION:
        raise SchemaOutdated(_newer(target, found), newer=True)
    if found != CURRENT_VERSION:
        raise SchemaOutdated(
            f"{target}: schema version {found}, this DrawLab needs {CURRENT_VERSION}; "
            "open it once for writing (e.g. `drawlab import`) to migrate it"
        )
    row = one(con, "SELECT value FROM meta WHERE name = 'player_hands_layout'")
    if row is None or row[0] != player_hands_layout():
        raise SchemaOutdated(
            f"{target}: the statistics table has the columns of another DrawLab version; "
            "open it once for writing (e.g. `drawlab import`) to rebuild it"
        )


# --- player_hands: columns owned by analysis.statistics.facts -------------------------------------


def fact_columns() -> dict[str, str]:
    """``FACT_COLUMNS`` from ``analysis.statistics.facts``: the statistics own the table's
    layout."""
    return dict(FACT_COLUMNS)


def player_hands_columns(facts: dict[str, str]) -> dict[str, str]:
    """The table's columns: ``hand`` (``hands.id``) first, then the facts' own."""
    cols = {"hand": "BIGINT NOT NULL"}
    for name, sql_type in facts.items():
        if name != "hand":
            cols[name] = sql_type
    return cols


def _layout_digest(cols: dict[str, str]) -> str:
    text = ";".join(f"{k} {v}" for k, v in cols.items())
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def player_hands_layout() -> str:
    """The digest of this DrawLab's ``player_hands`` columns (``meta`` row
    ``player_hands_layout`` names the stored table's)."""
    return _layout_digest(player_hands_columns(fact_columns()))


def sync_player_hands(con: Connection) -> bool:
    """Create or re-create ``player_hands`` when the facts' columns changed.

    Returns True when the table is (now) out of date with the hands stored, that is when
    it was re-created over a database that already holds hands: the stored hand texts
    refill it (``analysis.pipeline.importer.open_database``, which programs that write call).
    """
    facts = fact_columns()
    if facts is None:
        return False
    cols = player_hands_columns(facts)
    digest = _layout_digest(cols)
    row = one(con, "SELECT value FROM meta WHERE name = 'player_hands_layout'")
    if row is not None and row[0] == digest:
        return facts_stale(con)
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute("DROP TABLE IF EXISTS player_hands")
        body = ", ".join(f'"{name}" {sql_type}' for name, sql_type in cols.items())
        con.execute(f"CREATE TABLE player_hands ({body})")
        con.execute("INSERT OR REPLACE INTO meta VALUES ('player_hands_layout', ?)", [digest])
        has_hands = one(con, "SELECT count(*) > 0 FROM hands")
        stale = bool(has_hands and has_hands[0])
        con.execute(
            "INSERT OR REPLACE INTO meta VALUES ('player_hands_stale', ?)",
            ["1" if stale else "0"],
        )
        con.execute("COMMIT")
    except BaseException:
        rollback(con)
        raise
    return stale


def replay_suggested(con: Connection) -> bool:
    """The stored hands were replayed by an older DrawLab than their tables need (a
    migration says so): ``drawlab reverify`` or the Import page's replay brings them up."""
    row = one(con, "SELECT count(*) FROM meta WHERE name = 'replay_suggested'")
    return bool(row and row[0])


def set_facts_stale(con: Connection, stale: bool) -> None:
    con.execute(
        "INSERT OR REPLACE INTO meta VALUES ('player_hands_stale', ?)", ["1" if stale else "0"]
    )


def facts_stale(con: Connection) -> bool:
    row = one(con, "SELECT value FROM meta WHERE name = 'player_hands_stale'")
    return row is not None and row[0] == "1"


def table_exists(con: Connection, table: str) -> bool:
    row = one(con, "SELECT count(*) FROM duckdb_tables() WHERE table_name = ?", [table])
    return bool(row and row[0])


def has_player_hands(con: Connection) -> bool:
    return table_exists(con, "player_hands")


@contextlib.contextmanager
def memory_limited(con: Connection, megabytes: int) -> Iterator[None]:
    """DuckDB's own memory held to ``megabytes`` for the statements inside (a bulk copy
    that would otherwise cache up to 80 % of the machine), the limit before given back
    however they end.  A lower limit already set (an import's, around the cells it sums)
    stays: this only ever narrows."""
    before = one(con, "SELECT current_setting('memory_limit')")
    now = None if before is None else setting_bytes(str(before[0]))
    if now is not None and now <= megabytes * 10**6:
        yield
        return
    con.execute(f"SET memory_limit = '{megabytes}MB'")
    try:
        yield
    finally:
        if before is not None:
            restore_memory_limit(con, str(before[0]))


_UNITS = {"bytes": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40, "PiB": 2**50}


def setting_bytes(text: str) -> float | None:
    """A size as DuckDB shows a setting ("305.1 MiB"), in bytes; None if not one."""
    number, _, unit = text.strip().partition(" ")
    try:
        return float(number) * _UNITS[unit]
    except (KeyError, ValueError):
        return None


def restore_memory_limit(con: Connection, before: str) -> None:
    """Give back the memory limit an import or an export narrowed.  DuckDB shows it
    rounded ("953.6 MiB"), so setting it from that text would shave a little off at every
    import: the default comes back exactly by RESET, another limit as closely as DuckDB
    writes it."""
    con.execute("RESET memory_limit")
    now = one(con, "SELECT current_setting('memory_limit')")
    if now is None or str(now[0]) != before:
        con.execute(f"SET memory_limit = '{before}'")
