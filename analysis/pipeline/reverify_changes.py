"""Which hands of a reverify page the replay changed: its rows against the stored ones.

Most stored hands come out of a replay exactly as they were (the engine changed a little
or not at all), and rewriting them all cost reverify most of its main process: deleting a
page's rows of eight tables, appending them again and updating 27 columns of every hand
(DuckDB's deletes are costly, and each page grew the file until a checkpoint).  So the
replay's rows are compared with the stored rows first, exactly (every column, as a
multiset per table: a row stored twice and replayed once is a change), and only the
hands that differ anywhere are rewritten, which leaves the database as a full rewrite
would leave it.  The stored rows are read back in bulk, not trusted to a digest: rows
edited or lost behind DrawLab's back are found and restored as well.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pyarrow as pa

from analysis.storage.db import Connection


def changed_rows(
    db: Connection,
    span: Sequence[int],
    hands: pa.Table,
    children: Mapping[str, pa.Table],
    ids: str = "_page_ids",
) -> dict[str, set[int]]:
    """By table, the ids of the page's hands whose stored rows there differ from the
    replayed ones (a table whose rows of a hand are equal need not be rewritten: a hand
    whose verdict changed has new ``hands`` and ``problems`` rows, its seats stay).

    ``hands``: the replayed ``hands`` rows (``id`` and the columns a replay writes);
    ``children``: each child table's replayed rows, their ``hand`` the stored id; ``span``:
    the page's least and greatest id (the zone maps prune every table to it); ``ids``: a
    registered relation whose ``id`` column lists the page's hands (stored rows of other
    hands in the span, which a page never holds, are left alone).  One statement: each
    table's stored and replayed rows counted by their every column, and a row whose
    counts differ names its table and hand.
    """
    names = {"hands": "_replayed_hands", **{t: f"_replayed_{t}" for t in children}}
    parts = {"hands": hands, **children}
    try:
        for table, relation in names.items():
            db.register(relation, parts[table])
        sql = " UNION ".join(
            _differing(table, parts[table].column_names, names[table], ids) for table in names
        )
        changed: dict[str, set[int]] = {}
        for table, hand in db.execute(sql, list(span)).fetchall():
            changed.setdefault(str(table), set()).add(int(hand))
        return changed
    finally:
        for relation in names.values():
            db.unregister(relation)


def _differing(table: str, columns: Sequence[str], replayed: str, ids: str) -> str:
    """The hands of ``table`` (by its ``id`` or ``hand`` column, beside the table's name)
    with a row stored a different number of times than replayed (``$1``, ``$2``: the
    page's span)."""
    key = "id" if table == "hands" else "hand"
    cols = ", ".join(f'"{c}"' for c in columns)
    return (
        f"SELECT '{table}' AS _table, \"{key}\" FROM ("
        f'SELECT {cols}, 1 AS _side FROM {table} WHERE "{key}" BETWEEN $1 AND $2 '
        f'AND "{key}" IN (SELECT id FROM {ids}) '
        f"UNION ALL SELECT {cols}, -1 AS _side FROM {replayed}"
        f") GROUP BY {cols} HAVING sum(_side) <> 0"
    )
