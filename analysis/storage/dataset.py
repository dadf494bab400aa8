"""The stored hands as a Parquet dataset: the exchange format past one machine.

A dataset is a folder with one sub-folder per table, each a Hive-partitioned Parquet
dataset by ``site``, ``game`` and ``month`` (``YYYY-MM`` of the hand's time)::

    DIR/drawlab.json                       what it holds (written last: no file, not done)
    DIR/hands/site=pokerstars/game=27_triple_draw/month=2024-01/data_0.parquet
    DIR/seats/site=.../game=.../month=.../data_0.parquet   (and actions, draws, shows,
    DIR/quarantine/data_0.parquet           payouts, problems, pots, player_hands)
    DIR/files/data_0.parquet

so DuckDB (``read_parquet('DIR/hands/**/*.parquet', hive_partitioning = true)``), Polars
(``pl.scan_parquet('DIR/hands/**/*.parquet', hive_partitioning=True)``) and Spark
(``spark.read.parquet('DIR/hands')``) read each table as it is, and a query on one site,
game or month reads only its folders.  The columns are the database's (``analysis.storage.schema``),
money in integer hundredths; ``hands.id`` and the ``hand`` of every other table are the
ids of the database the dataset came from, so the tables join as they do there.  A hand's
rows are all in its partition: the child tables take ``site``, ``game`` and ``month``
from their hand, and the files hold every other column (Hive keeps a partition's value in
its path only, so those columns are not repeated in the files).  A missing game or time
is Hive's ``__HIVE_DEFAULT_PARTITION__``, which Spark reads as null and ``attach`` too.
``quarantine`` (texts that did not read, kept whole) and ``files`` (what was read, so a
later plain import of the same files skips them) are small and not partitioned, as are
the user's tags and notes on hands (by hand key; with a filter, those of the hands
written), player notes, aliases and saved filters (``analysis.storage.memory``), which a
load merges into what the database holds.

``write`` makes a dataset from a database (``drawlab export --format parquet`` and, from
the scratch database it fills, ``drawlab bulk``); ``attach`` shows one as the database's
tables on a DuckDB connection, so every statistic runs on it unchanged; ``load`` adds one
to a database as an import would (``drawlab import --parquet``): hands already stored
(by key) are skipped, the new ones numbered after the stored ones in the dataset's order.
"""

from __future__ import annotations

import json
import os
import shutil
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from analysis.storage.db import (
    MEMORY,
    Connection,
    connect,
    fact_columns,
    memory_limited,
    one,
    player_hands_columns,
)
from analysis.storage.filters import NO_FILTERS, Filters
from analysis.storage.memory import HAND_TABLES
from analysis.storage.memory import TABLES as MEMORY_TABLES
from analysis.storage.schema import CURRENT_VERSION
from analysis.storage.transactions import rollback

FORMAT = "drawlab-parquet"
VERSION = 1
MANIFEST = "drawlab.json"
PARTITIONS = ("site", "game", "month")
NULL_PARTITION = "__HIVE_DEFAULT_PARTITION__"  # Hive's (and Spark's) name for a null value
CHILD_TABLES = ("seats", "actions", "draws", "shows", "payouts", "problems", "pots")
PARTITIONED = ("hands", *CHILD_TABLES, "player_hands")
UNPARTITIONED = ("quarantine", "files")
# what the user wrote down (``analysis.storage.memory``), keyed by hand keys and names: one
# flat file each, merged into a database on load (what it holds already is kept)
FLAT = (*UNPARTITIONED, *MEMORY_TABLES)
TABLES = (*PARTITIONED, *FLAT)
_ROW_GROUP = 122_880  # DuckDB's default row group: a partition of a busy month is a few
_MEMORY_MB = 1024  # DuckDB's memory while it writes or loads (it spills past it)


class DatasetError(Exception):
    """Not a DrawLab dataset, a half-written one, or a folder holding other files."""


@dataclass
class DatasetSummary:
    """What a write or a load did: rows per table, and (a load) hands added or present."""

    path: str
    rows: dict[str, int] = field(default_factory=dict)
    added: int = 0
    already_present: int = 0
    quarantined: int = 0
    facts_stale: bool = False  # a load of another version's facts: the caller refills them

    def as_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "rows": dict(self.rows),
            "added": self.added,
            "already_present": self.already_present,
            "quarantined": self.quarantined,
        }


def _columns(db: Connection, table: str) -> list[str]:
    info = db.execute(f"SELECT * FROM {table} LIMIT 0").description or []
    return [str(d[0]) for d in info]


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(path: Path | str) -> str:
    return "'" + str(path).replace("'", "''") + "'"


def _partition_sql(alias: str) -> str:
    """The partition columns of a hand ``alias`` (DuckDB writes a null as Hive does)."""
    return f"{alias}.site AS site, {alias}.game AS game, strftime({alias}.time, '%Y-%m') AS month"


def write(
    db: Connection, out: str | os.PathLike[str], filters: Filters = NO_FILTERS
) -> DatasetSummary:
    """Write the hands matching ``filters`` (default: all, and the quarantine and files
    with them) as a dataset in folder ``out``, replacing the dataset already there.

    A folder holding anything else is refused rather than overwritten.
    """
    folder = Path(out)
    _prepare(folder)
    where, params = filters.where_hands("h")
    summary = DatasetSummary(str(folder))
    with memory_limited(db, _MEMORY_MB):
        db.execute("SET preserve_insertion_order = false")  # lets COPY stream, not buffer
        try:
            selected = f"SELECT h.id FROM hands h WHERE {where}"
            for table in PARTITIONED:
                cols = [c for c in _columns(db, table) if c not in PARTITIONS]
                body = ", ".join(f"t.{_quote(c)}" for c in cols)
                if table == "hands":
                    source = (
                        f"SELECT {body}, {_partition_sql('t')} FROM hands t "
                        f"WHERE t.id IN ({selected})"
                    )
                else:
                    source = (
                        f"SELECT {body}, {_partition_sql('h')} FROM {table} t "
                        f"JOIN hands h ON h.id = t.hand WHERE t.hand IN ({selected})"
                    )
                summary.rows[table] = _copy(db, source, params, folder / table, partitioned=True)
            everything = filters == NO_FILTERS
            for table in UNPARTITIONED:
                source = f"SELECT * FROM {table}" + ("" if everything else " WHERE FALSE")
                summary.rows[table] = _copy(db, source, [], folder / table, partitioned=False)
            for table in MEMORY_TABLES:
                source, used = f"SELECT * FROM {table}", []
                if table in HAND_TABLES and not everything:
                    source += f" WHERE key IN (SELECT h.key FROM hands h WHERE {where})"
                    used = params
                summary.rows[table] = _copy(db, source, used, folder / table, partitioned=False)
        finally:
            db.execute("RESET preserve_insertion_order")
    _write_manifest(db, folder, summary)
    return summary


def check_writable(folder: Path) -> None:
    """``folder`` exists (made if need be) and holds nothing but a dataset, if anything: a
    folder holding anything else is refused rather than overwritten."""
    folder.mkdir(parents=True, exist_ok=True)  # a failure is the command's fault sentence
    entries = list(folder.iterdir())
    ours = {MANIFEST, *TABLES}
    strangers = [e.name for e in entries if e.name not in ours and not e.name.startswith(".")]
    if strangers:
        raise DatasetError(
            f"{folder} holds other files ({', '.join(sorted(strangers)[:3])}): "
            "write a dataset into an empty folder or over an earlier one"
        )


def _prepare(folder: Path) -> None:
    """An empty folder to write into: created, or emptied of an earlier dataset only."""
    check_writable(folder)
    # an earlier dataset, or a write of one cut short: not a dataset until whole again
    (folder / MANIFEST).unlink(missing_ok=True)
    for name in TABLES:
        shutil.rmtree(folder / name, ignore_errors=True)


def _copy(
    db: Connection, source: str, params: list[Any], target: Path, *, partitioned: bool
) -> int:
    """One table's rows into Parquet files under ``target``; returns the rows written."""
    count = one(db, f"SELECT count(*) FROM ({source})", params)
    rows = int(count[0]) if count else 0
    if rows == 0:
        return 0  # no folder: ``attach`` and ``load`` see an empty table
    options = f"FORMAT PARQUET, COMPRESSION ZSTD, ROW_GROUP_SIZE {_ROW_GROUP}"
    if partitioned:
        target.mkdir(parents=True, exist_ok=True)
        options += f", PARTITION_BY ({', '.join(PARTITIONS)}), OVERWRITE_OR_IGNORE"
        db.execute(f"COPY ({source}) TO {_literal(target)} ({options})", params)
    else:
        target.mkdir(parents=True, exist_ok=True)
        db.execute(f"COPY ({source}) TO {_literal(target / 'data_0.parquet')} ({options})", params)
    return rows


def _write_manifest(db: Connection, folder: Path, summary: DatasetSummary) -> None:
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "schema_version": CURRENT_VERSION,
        "player_hands_columns": player_hands_columns(fact_columns()),
        "partitions": list(PARTITIONS),
        "tables": summary.rows,
        "written": datetime.now().isoformat(timespec="seconds"),
        "id": uuid.uuid4().hex,
    }
    text = json.dumps(manifest, indent=1)
    partial = folder / (MANIFEST + ".partial")
    partial.write_text(text + "\n", encoding="utf-8")
    partial.replace(folder / MANIFEST)


def manifest(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The dataset's description, or DatasetError saying why ``path`` is not a whole one."""
    folder = Path(path)
    file = folder / MANIFEST
    if not folder.is_dir():
        raise DatasetError(f"{folder}: no such folder")
    if not file.exists():
        raise DatasetError(
            f"{folder} is not a whole DrawLab dataset (no {MANIFEST}: not one, or its "
            "writing was cut short; write it again)"
        )
    try:
        data: dict[str, Any] = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DatasetError(f"{file}: cannot be read: {exc}") from exc
    if data.get("format") != FORMAT or not isinstance(data.get("tables"), dict):
        raise DatasetError(f"{file}: not a DrawLab dataset description")
    if int(data.get("version", 0)) > VERSION:
        raise DatasetError(
            f"{file}: dataset version {data.get('version')} is newer than this DrawLab"
        )
    return data


def _scan(folder: Path, table: str) -> str | None:
    """The SQL that reads one table of a dataset, ``None`` when it holds no rows."""
    where = folder / table
    if not where.is_dir() or not any(where.rglob("*.parquet")):
        return None
    if table in FLAT:
        return f"read_parquet({_literal(where / '*.parquet')})"
    types = "{" + ", ".join(f"'{p}': VARCHAR" for p in PARTITIONS) + "}"
    return (
        f"read_parquet({_literal(where / '**' / '*.parquet')}, hive_partitioning = true, "
        f"hive_types = {types}, union_by_name = true)"
    )


def _select(db: Connection, folder: Path, table: str, columns: list[str]) -> str | None:
    """The table's rows with the database's columns in its order: a partition column that
    is one of the table's own comes back from the path, null where Hive wrote none."""
    scan = _scan(folder, table)
    if scan is None:
        return None
    parts: list[str] = []
    for c in columns:
        if c in PARTITIONS and table in PARTITIONED:
            parts.append(f"nullif({_quote(c)}, '{NULL_PARTITION}') AS {_quote(c)}")
        else:
            parts.append(_quote(c))
    return f"SELECT {', '.join(parts)} FROM {scan}"


def attach(path: str | os.PathLike[str], db: Connection | None = None) -> Connection:
    """A DuckDB connection whose tables ``hands``, ``seats``... ``player_hands`` are views
    of the dataset: the statistics, queries and pages read it as they read the database.

    Without ``db``, a new in-memory database laid out as DrawLab's (so the tables the
    dataset does not hold, and a table without rows, are there and empty).
    """
    folder = Path(path)
    data = manifest(folder)
    con = db if db is not None else connect(MEMORY)
    _check_facts(data)
    for table in TABLES:
        columns = _columns(con, table)
        select = _select(con, folder, table, columns)
        if select is None:
            continue  # an empty table of the layout stands for it
        con.execute(f"DROP TABLE IF EXISTS {table}")
        con.execute(f"CREATE OR REPLACE VIEW {table} AS {select}")
    return con


def _check_facts(data: dict[str, Any]) -> None:
    wanted = player_hands_columns(fact_columns())
    if data.get("player_hands_columns") != wanted:
        raise DatasetError(
            "the dataset's statistics columns are another DrawLab version's: "
            "load it with `drawlab import --parquet` (which recomputes them)"
        )


def load(db: Connection, path: str | os.PathLike[str], run: str | None = None) -> DatasetSummary:
    """Add a dataset's hands to the database, as importing their files would have.

    One transaction: hands whose key is stored already (or repeated earlier in the
    dataset) are skipped with their rows, the new ones get ids after the database's in
    the dataset's order (its ids: the order its files were read in), so a database built
    from a dataset holds what a plain import of the same files holds.  Files already
    recorded keep their row.  Statistics columns of another DrawLab version are not
    loaded: ``player_hands`` is marked stale (``facts_stale``), for the caller to refill
    from the hands' texts (``analysis.storage.player_facts.rebuild_player_hands``).
    """
    folder = Path(path)
    data = manifest(folder)
    same_facts = data.get("player_hands_columns") == player_hands_columns(fact_columns())
    summary = DatasetSummary(str(folder))
    with memory_limited(db, _MEMORY_MB):
        db.execute("BEGIN TRANSACTION")
        try:
            batch = _open_batch(db, folder, run or uuid.uuid4().hex[:12])
            hands = _select(db, folder, "hands", [c for c in _columns(db, "hands") if c != "batch"])
            if hands is not None:
                db.execute(f"CREATE TEMP TABLE _dataset_hands AS {hands}")
                _number(db, "hands", "_dataset_hands", "_dataset_ids")
                summary.rows["hands"] = _count(db, "_dataset_hands")
                summary.added = _count(db, "_dataset_ids")
                summary.already_present = summary.rows["hands"] - summary.added
                cols = [c for c in _columns(db, "hands") if c not in ("id", "batch")]
                body = ", ".join(f"d.{_quote(c)}" for c in cols)
                db.execute(
                    f"INSERT INTO hands (id, {', '.join(map(_quote, cols))}, batch) "
                    f"SELECT m.new, {body}, ? FROM _dataset_hands d JOIN _dataset_ids m "
                    "ON m.old = d.id ORDER BY m.new",
                    [batch],
                )
                children = [*CHILD_TABLES, *(["player_hands"] if same_facts else [])]
                for table in children:
                    summary.rows[table] = _load_children(db, folder, table)
            quarantine = _select(
                db, folder, "quarantine", [c for c in _columns(db, "quarantine") if c != "batch"]
            )
            if quarantine is not None:
                db.execute(f"CREATE TEMP TABLE _dataset_quarantine AS {quarantine}")
                _number(db, "quarantine", "_dataset_quarantine", "_dataset_qids")
                cols = [c for c in _columns(db, "quarantine") if c not in ("id", "batch")]
                body = ", ".join(f"d.{_quote(c)}" for c in cols)
                db.execute(
                    f"INSERT INTO quarantine (id, {', '.join(map(_quote, cols))}, batch) "
                    f"SELECT m.new, {body}, ? FROM _dataset_quarantine d JOIN _dataset_qids m "
                    "ON m.old = d.id ORDER BY m.new",
                    [batch],
                )
                summary.rows["quarantine"] = _count(db, "_dataset_quarantine")
                summary.quarantined = _count(db, "_dataset_qids")
            files = _select(db, folder, "files", _columns(db, "files"))
            if files is not None:
                db.execute(
                    f"INSERT INTO files SELECT * FROM ({files}) f "
                    "WHERE f.path NOT IN (SELECT path FROM files)"
                )
            for table in MEMORY_TABLES:
                memory = _select(db, folder, table, _columns(db, table))
                if memory is not None:
                    summary.rows[table] = _count(db, f"({memory})")
                    db.execute(f"INSERT OR IGNORE INTO {table} {memory}")
            _close_batch(db, batch, summary)
            if not same_facts:
                db.execute("INSERT OR REPLACE INTO meta VALUES ('player_hands_stale', '1')")
            db.execute("COMMIT")
        except BaseException:
            rollback(db)
            raise
        finally:
            for temp in ("_dataset_hands", "_dataset_ids", "_dataset_quarantine", "_dataset_qids"):
                db.execute(f"DROP TABLE IF EXISTS {temp}")
    summary.facts_stale = not same_facts
    return summary


def _number(db: Connection, table: str, staged: str, ids: str) -> None:
    """Table ``ids`` (old, new): the staged rows whose key is new, numbered after
    ``table``'s ids in the staged ids' order; a key repeated keeps its first row."""
    db.execute(
        f"CREATE TEMP TABLE {ids} AS "
        f"SELECT id AS old, (SELECT coalesce(max(id), 0) FROM {table}) "
        "+ row_number() OVER (ORDER BY id) AS new FROM ("
        f"  SELECT id, key FROM {staged} d WHERE NOT EXISTS "
        f"  (SELECT 1 FROM {table} t WHERE t.key = d.key) "
        "  QUALIFY row_number() OVER (PARTITION BY key ORDER BY id) = 1)"
    )


def _load_children(db: Connection, folder: Path, table: str) -> int:
    select = _select(db, folder, table, _columns(db, table))
    if select is None:
        return 0
    cols = _columns(db, table)
    body = ", ".join("m.new" if c == "hand" else f"d.{_quote(c)}" for c in cols)
    before = _count(db, table)
    db.execute(
        f"INSERT INTO {table} ({', '.join(map(_quote, cols))}) SELECT {body} "
        f"FROM ({select}) d JOIN _dataset_ids m ON m.old = d.hand ORDER BY m.new"
    )
    return _count(db, table) - before


def _count(db: Connection, table: str) -> int:
    row = one(db, f"SELECT count(*) FROM {table}")
    return int(row[0]) if row else 0


def _open_batch(db: Connection, folder: Path, run: str) -> int:
    """The ``import_batches`` row of this load, named after the dataset's folder."""
    row = one(db, "SELECT coalesce(max(id), 0) + 1 FROM import_batches")
    batch = int(row[0]) if row else 1
    db.execute(
        "INSERT INTO import_batches VALUES "
        "(?, ?, ?, NULL, NULL, 0, 0, 0, 0, 0, 0, 0, 0, NULL, ?, NULL)",
        [batch, run, str(folder), datetime.now()],
    )
    return batch


def _close_batch(db: Connection, batch: int, summary: DatasetSummary) -> None:
    counts = dict.fromkeys(("ok", "invalid", "parse_error", "unsupported", "incomplete"), 0)
    for status, n in db.execute(
        "SELECT status, count(*) FROM hands WHERE batch = ? GROUP BY status", [batch]
    ).fetchall():
        counts[str(status)] = int(n)
    counts["parse_error"] += summary.quarantined
    db.execute(
        "UPDATE import_batches SET hands = ?, added = ?, already_present = ?, ok = ?, "
        "invalid = ?, parse_error = ?, unsupported = ?, incomplete = ?, finished = ? "
        "WHERE id = ?",
        [
            summary.rows.get("hands", 0) + summary.rows.get("quarantine", 0),
            summary.added,
            summary.already_present,
            *counts.values(),
            datetime.now(),
            batch,
        ],
    )
