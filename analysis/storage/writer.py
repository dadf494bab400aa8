"""Bulk, all-or-nothing writes of imported rows, and the bookkeeping of what was read.

Each ``write`` is one transaction: the new hands with all their child rows, the
quarantined texts, and the ``import_batches`` and ``files`` rows that say how far each
source got.  A process killed at any moment therefore leaves whole batches only, and a
file is marked read only in the transaction that stores its last hand.

Rows go in as Arrow tables (one ``INSERT ... SELECT`` per table and batch), never one by
one: see ``benchmarks/bench_import.py``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np
import pyarrow as pa

from analysis.storage.db import Connection, append_arrow, has_player_hands, one
from analysis.storage.rows import CHILD_COLUMNS, ArrowRows
from analysis.storage.transactions import rollback
from engine.record import Game, Hand, Seat, Stakes, Structure, Tournament
from parser.sources import Source

STATUS_COLUMNS = ("ok", "invalid", "parse_error", "unsupported", "incomplete")
HELD = "+held"  # ends ``files.checksum`` while the file's last hand is held back unread


@dataclass(frozen=True)
class KnownFile:
    """A source's ``files`` row: how far an earlier read got.

    ``held``: that read held the file's last hand back (a watcher saw the client still
    writing it), so ``resume_line`` is that hand's first line and nothing of it is stored;
    ``hands`` counts the hand texts before it.  Otherwise ``resume_line`` is the first line
    of the last hand stored (read again when the file grows: it may have been cut).
    """

    size: int
    checksum: str
    resume_line: int
    hands: int
    held: bool


@dataclass
class FileState:
    """One source being imported: what the ``files`` and ``import_batches`` rows will say."""

    source: Source
    batch_id: int
    size: int
    checksum: str
    resume_from: int  # first line read (1 for the whole file)
    hands_before: int  # hand texts before ``resume_from``, known from earlier reads
    forgotten: int = 0  # rows of the last hand dropped to be read again (see forget_tail)
    chars_done: int = 0  # hand text handed on so far, for the progress bar
    chunks: int = 0
    last_chunk_line: int = 1
    counts: Counter[str] = field(default_factory=Counter)
    rejected: str | None = None
    done: bool = False
    held_line: int | None = None  # the last hand, still being written, left for later


class KeyIndex:
    """The hashes (DuckDB's 64-bit ``hash``) of the keys a table holds, sorted, in this
    process: what lets the key check of a long import skip reading every stored key.

    Eight bytes a stored hand (80 MB at ten million), read once per import.  A hash
    found here is only a maybe (a hand imported before, or two keys of one hash): the
    key is then looked up in the table; a hash not found is a key the table lacks.
    Rows deleted since (``forget_tail``) leave hashes behind, which only cost a lookup.
    """

    MERGE = 1 << 18  # hashes added before they are merged into the big sorted array

    def __init__(self, hashes: np.ndarray) -> None:
        self.sorted = np.sort(hashes)
        self.recent = np.zeros(0, dtype=np.uint64)  # added this import, sorted

    @classmethod
    def of(cls, db: Connection, table: str) -> KeyIndex:
        got = db.execute(f"SELECT hash(key) AS h FROM {table}").fetchnumpy()["h"]
        return cls(np.asarray(got, dtype=np.uint64))

    def may_hold(self, hashes: np.ndarray) -> np.ndarray:
        """A mask of the hashes this index holds."""
        found: np.ndarray = _in_sorted(self.sorted, hashes) | _in_sorted(self.recent, hashes)
        return found

    def add(self, hashes: np.ndarray) -> None:
        self.recent = _merged(self.recent, np.sort(hashes))
        if len(self.recent) >= self.MERGE:
            self.sorted = _merged(self.sorted, self.recent)
            self.recent = np.zeros(0, dtype=np.uint64)


def _merged(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Two sorted arrays as one: a stable sort (timsort) of the two runs side by side merges
    them in one pass, where sorting afresh cost 13 times as much at 5 M hashes (0.42 s,
    about 40 times in a ten-million import) and one more copy of the index in memory."""
    out = np.concatenate([a, b])
    out.sort(kind="stable")
    return out


def _in_sorted(values: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    if not len(values):
        return np.zeros(len(wanted), dtype=bool)
    at = np.searchsorted(values, wanted)
    at[at == len(values)] = 0
    return np.asarray(values[at] == wanted, dtype=bool)


def key_hashes(db: Connection, keys: pa.Table) -> np.ndarray:
    """DuckDB's hash of each key of table ``keys`` (column ``key``), in order."""
    db.register("_import_keys", keys)
    try:
        got = db.execute("SELECT hash(key) AS h FROM _import_keys").fetchnumpy()["h"]
    finally:
        db.unregister("_import_keys")
    return np.asarray(got, dtype=np.uint64)


class Store:
    def __init__(self, db: Connection, run: str) -> None:
        self.db = db
        self.run = run
        self.key_index: dict[str, KeyIndex] = {}
        self.key_checks: dict[str, int] = {}
        self.facts_columns: list[str] | None = None
        if has_player_hands(db):
            info = db.execute("SELECT * FROM player_hands LIMIT 0").description or []
            self.facts_columns = [d[0] for d in info]

    # -- what was read before

    def file_row(self, path: str) -> KnownFile | None:
        """How far an earlier read of the source got, if one read it to its end."""
        row = one(
            self.db, "SELECT size, checksum, resume_line, hands FROM files WHERE path = ?", [path]
        )
        if row is None:
            return None
        checksum = str(row[1])
        held = checksum.endswith(HELD)
        return KnownFile(
            int(row[0]), checksum.removesuffix(HELD), int(row[2]), int(row[3]), held
        )

    def hands_of_content(self, size: int, checksum: str) -> int | None:
        """The hand count of a source with these exact bytes read in full, if any."""
        row = one(
            self.db,
            "SELECT hands FROM files WHERE size = ? AND checksum = ? LIMIT 1",
            [size, checksum],
        )
        return None if row is None else int(row[0])

    def open_batch(self, file: str, size: int, checksum: str) -> int:
        """Record that this run started reading ``file``; its counts follow with each write."""
        self.db.execute("BEGIN TRANSACTION")
        try:
            row = one(self.db, "SELECT coalesce(max(id), 0) + 1 FROM import_batches")
            batch_id = int(row[0]) if row else 1
            self.db.execute(
                "INSERT INTO import_batches VALUES "
                "(?, ?, ?, ?, ?, 0, 0, 0, 0, 0, 0, 0, 0, NULL, ?, NULL)",
                [batch_id, self.run, file, size, checksum, datetime.now()],
            )
            self.db.execute("COMMIT")
        except BaseException:
            rollback(self.db)
            raise
        return batch_id

    def forget_tail(self, file: str, from_line: int) -> int:
        """Drop what an earlier read stored from ``file`` at or after ``from_line``.

        A grown file is read again from its last hand, which the earlier read may have
        seen half written (stored as a parse error or an incomplete hand); the bytes
        there are unchanged, so reading them again restores everything dropped here.
        """
        db = self.db
        doomed = "SELECT id FROM hands WHERE file = ? AND line >= ?"
        db.execute("BEGIN TRANSACTION")
        try:
            tables = [*CHILD_COLUMNS, *(["player_hands"] if self.facts_columns else [])]
            for table in tables:
                db.execute(f"DELETE FROM {table} WHERE hand IN ({doomed})", [file, from_line])
            dropped = 0
            for table in ("hands", "quarantine"):
                rows = db.execute(
                    f"DELETE FROM {table} WHERE file = ? AND line >= ? RETURNING id",
                    [file, from_line],
                ).fetchall()
                dropped += len(rows)
            db.execute("COMMIT")
        except BaseException:
            rollback(db)
            raise
        return dropped

    def last_hands_before(self, file: str, line: int) -> list[tuple[Hand, dict[str, int]]]:
        """For each table of ``file``, its last stored hand before ``line``, in file order:
        what the carry-over check needs to compare a resumed file's first hands with the
        ones before them (``last_hands``)."""
        return last_hands(self.db, "file = ? AND line < ?", [file, line])

    # -- the write

    def write(self, batches: Sequence[tuple[FileState, ArrowRows | None]]) -> tuple[int, int]:
        """Append what is new, in one transaction; returns (added, already present).

        ``batches`` are worker results in source order, ``None`` marking a source's end
        (the transaction that holds its last rows then also records it as read).
        """
        db = self.db
        parts = [(state, rows) for state, rows in batches if rows is not None]
        db.execute("BEGIN TRANSACTION")
        try:
            added = present = 0
            if parts:
                hand_ids, new_hands = self._append_keyed(
                    "hands", [(s, r.hands) for s, r in parts], [s.batch_id for s, _ in parts]
                )
                _, new_quarantine = self._append_keyed(
                    "quarantine",
                    [(s, r.quarantine) for s, r in parts],
                    [s.batch_id for s, _ in parts],
                )
                offsets = np.cumsum([0] + [r.hands.num_rows for _, r in parts])
                for name in CHILD_COLUMNS:
                    self._append_children(
                        name, [r.children[name] for _, r in parts], offsets, hand_ids
                    )
                if self.facts_columns is not None:
                    self._append_children(
                        "player_hands", [r.player_hands for _, r in parts], offsets, hand_ids
                    )
                for mask, tables in (
                    (new_hands, [r.hands for _, r in parts]),
                    (new_quarantine, [r.quarantine for _, r in parts]),
                ):
                    start = 0
                    for (state, _), table in zip(parts, tables, strict=True):
                        n_new = int(mask[start : start + table.num_rows].sum())
                        # hands dropped by forget_tail and read again were there before
                        again = min(state.forgotten, n_new)
                        state.forgotten -= again
                        added += n_new - again
                        present += table.num_rows - n_new + again
                        state.counts["added"] += n_new - again
                        state.counts["already_present"] += table.num_rows - n_new + again
                        start += table.num_rows
            seen: set[int] = set()
            for state, _ in batches:
                if id(state) not in seen:
                    seen.add(id(state))
                    self._record_state(state)
            db.execute("COMMIT")
        except BaseException:
            rollback(db)
            raise
        return added, present

    def _append_keyed(
        self, table: str, parts: list[tuple[FileState, pa.Table]], batch_ids: list[int]
    ) -> tuple[np.ndarray, np.ndarray]:
        """Append rows whose key is new with fresh ids: (id of each row or -1, new mask)."""
        rows = pa.concat_tables([t for _, t in parts])
        keys = rows.column("key").to_pylist()
        new = self._new_rows(table, keys)
        ids = np.full(len(keys), -1, dtype=np.int64)
        count = int(new.sum())
        if count == 0:
            return ids, new
        row = one(self.db, f"SELECT coalesce(max(id), 0) + 1 FROM {table}")
        first = int(row[0]) if row else 1
        ids[new] = np.arange(first, first + count, dtype=np.int64)
        batch = np.repeat(np.asarray(batch_ids, dtype=np.int64), [t.num_rows for _, t in parts])
        if count != len(keys):
            rows = rows.filter(pa.array(new))
        rows = rows.add_column(0, "id", pa.array(ids[new])).append_column(
            "batch", pa.array(batch[new])
        )
        self._insert(table, rows)
        return ids, new

    def _new_rows(self, table: str, keys: list[str]) -> np.ndarray:
        """A mask of the keys not stored yet and not repeated earlier in ``keys``.

        The first check of a table looks the keys up in one join with every stored key;
        from the second on (a long import), the table's ``KeyIndex`` rules out the keys
        it has never seen without reading the table, and only the rest (hands imported
        before, or a rare equal hash) are looked up: a check costs what its batch holds,
        not what the database holds.
        """
        if not keys:
            return np.zeros(0, dtype=bool)
        index = self.key_index.get(table)
        if index is None and self.key_checks.get(table, 0) >= 1:
            index = self.key_index[table] = KeyIndex.of(self.db, table)
        self.key_checks[table] = self.key_checks.get(table, 0) + 1
        batch = pa.table({"key": pa.array(keys, pa.string())})
        hashes = None if index is None else key_hashes(self.db, batch)
        lookup = batch if hashes is None or index is None else batch.filter(index.may_hold(hashes))
        present: set[str] = set()
        if lookup.num_rows:
            self.db.register("_import_keys", lookup)
            try:
                present = {
                    r[0]
                    for r in self.db.execute(
                        f"SELECT key FROM {table} WHERE key IN (SELECT key FROM _import_keys)"
                    ).fetchall()
                }
            finally:
                self.db.unregister("_import_keys")
        mask = np.zeros(len(keys), dtype=bool)
        for i, key in enumerate(keys):
            if key not in present:
                present.add(key)
                mask[i] = True
        if index is not None and hashes is not None:
            index.add(hashes[mask])  # kept if the write rolls back: only a lookup more
        return mask

    def _append_children(
        self, table: str, parts: list[pa.Table], offsets: np.ndarray, ids: np.ndarray
    ) -> None:
        """Append child rows of added hands, their batch positions swapped for hand ids."""
        nonempty = [(offsets[i], t) for i, t in enumerate(parts) if t.num_rows]
        if not nonempty:
            return
        rows = pa.concat_tables([t for _, t in nonempty])
        local = np.concatenate([t.column("hand").to_numpy() + base for base, t in nonempty])
        hand_ids = ids[local]
        keep = hand_ids >= 0
        if not keep.any():
            return
        rows = rows.set_column(0, "hand", pa.array(hand_ids))
        if not keep.all():
            rows = rows.filter(pa.array(keep))
        self._insert(table, rows)

    def _insert(self, table: str, rows: pa.Table) -> None:
        append_arrow(self.db, table, rows)

    def _record_state(self, state: FileState) -> None:
        c = state.counts
        total = sum(c[s] for s in STATUS_COLUMNS)
        self.db.execute(
            "UPDATE import_batches SET hands = ?, added = ?, already_present = ?, ok = ?, "
            "invalid = ?, parse_error = ?, unsupported = ?, incomplete = ?, rejected = ?, "
            "finished = ? WHERE id = ?",
            [
                total,
                c["added"],
                c["already_present"],
                *(c[s] for s in STATUS_COLUMNS),
                state.rejected,
                datetime.now() if state.done else None,
                state.batch_id,
            ],
        )
        if state.done and state.rejected is None:
            hands = state.hands_before + state.chunks
            checksum = state.checksum
            if state.held_line is not None:  # the next read starts with the held hand
                resume_line = state.held_line
                checksum += HELD  # not "read in full": this content still has a hand to give
            else:
                resume_line = state.last_chunk_line if state.chunks else state.resume_from
            self.db.execute(
                "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?)",
                [state.source.name, state.size, checksum, resume_line, hands, datetime.now()],
            )


def last_hands(
    db: Connection, where: str, params: Sequence[object]
) -> list[tuple[Hand, dict[str, int]]]:
    """For each table, its last replayed hand among those ``where`` picks, in the order
    they were read: as (the hand without its steps, each seat's final stack), rebuilt from
    the rows.  What the carry-over check needs to go on from there (a grown file, a
    stopped reverify) as if it had seen every hand before."""
    cur = db.execute(
        "SELECT id, site, hand_id, table_name, game, structure, small_blind, big_blind, "
        "small_bet, big_bet, ante, currency, time, button, file, line, tournament_id "
        f"FROM hands WHERE {where} AND status IN ('ok', 'invalid') "
        "QUALIFY row_number() OVER (PARTITION BY file, site, tournament_id, table_name "
        "ORDER BY id DESC) = 1 ORDER BY id",
        list(params),
    )
    rows = cur.fetchall()
    out: list[tuple[Hand, dict[str, int]]] = []
    for r in rows:
        seats = db.execute(
            "SELECT seat, player, stack, line, sitting_out FROM seats WHERE hand = ? "
            "ORDER BY seat",
            [r[0]],
        ).fetchall()
        moved = dict(
            db.execute(
                "SELECT player, sum(delta) FROM ("
                " SELECT player, -amount AS delta FROM actions WHERE hand = ?"
                " UNION ALL SELECT player, amount FROM payouts WHERE hand = ?"
                ") GROUP BY player",
                [r[0], r[0]],
            ).fetchall()
        )
        hand = Hand(
            site=r[1],
            hand_id=r[2] or "",
            table=r[3] or "",
            game=Game(r[4]),
            structure=Structure(r[5]),
            stakes=Stakes(r[6], r[7], r[8], r[9], r[10] or 0),
            currency=r[11] or "",
            time=r[12],
            button=r[13],
            seats=tuple(Seat(s[0], s[1], s[2], s[3], bool(s[4])) for s in seats),
            steps=(),
            file=r[14],
            line=r[15],
            tournament=Tournament(r[16]) if r[16] is not None else None,
        )
        final = {s[1]: int(s[2]) + int(moved.get(s[1], 0)) for s in seats}
        out.append((hand, final))
    return out
