"""Stored hands written back out: as PokerStars text, as PHH, or as the text we were given.

A hand is exported from its record, rebuilt by parsing its stored text again
(``analysis.storage.queries.rebuild``), through the writers in ``parser``.  Hands that have no
record (the site's text could not be read, or is of a game or kind we do not replay)
cannot be converted: they are counted and named in the summary, and ``original`` writes
every stored text as it came, so nothing is ever out of reach.

Layout of ``out``: ``pokerstars`` and ``original`` write one file per source file (named
after its path), hands separated by blank lines as PokerStars does; ``phh`` one ``.phh``
file per hand (PHH holds one hand a file); ``original`` also writes ``quarantine.txt``
with the unreadable texts when no filter is given.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from analysis.storage.db import Connection
from analysis.storage.filters import NO_FILTERS, Filters
from analysis.storage.queries import rebuild
from engine.record import Hand
from parser.phh import write_phh
from parser.pokerstars_writer import write_pokerstars

FORMATS = ("pokerstars", "phh", "original")
PAGE = 2000
_SEPARATOR = "\n\n\n"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


class ExportError(Exception):
    """The export cannot start (unknown format, writer missing); a folder or disk that
    cannot be written is an ``OSError``, worded by ``analysis.faults``."""


@dataclass
class ExportSummary:
    format: str
    out: str
    hands: int = 0  # hands written
    files: int = 0  # files written
    not_converted: Counter[str] = field(default_factory=Counter)  # by status, no record
    failed: list[str] = field(default_factory=list)  # hands a writer could not write
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "out": self.out,
            "hands": self.hands,
            "files": self.files,
            "not_converted": dict(self.not_converted),
            "failed": len(self.failed),
        }

    def text(self) -> str:
        lines = [f"wrote {self.hands:,} hands in {self.files:,} files to {self.out}"]
        if self.not_converted:
            detail = ", ".join(f"{n:,} {s}" for s, n in sorted(self.not_converted.items()))
            lines.append(
                f"not converted (no record to write from): {detail}; "
                "`--format original` writes their stored text"
            )
        if self.failed:
            lines.append(f"{len(self.failed):,} hands could not be written (see above)")
        return "\n".join(lines)


def writer_for(fmt: str) -> Callable[[Hand], str]:
    """The record-to-text writer of a format, from ``parser``."""
    writers: dict[str, Callable[[Hand], str]] = {
        "pokerstars": write_pokerstars,
        "phh": write_phh,
    }
    return writers[fmt]


def export_hands(
    db: Connection,
    out: str | os.PathLike[str],
    fmt: str,
    filters: Filters | None = None,
) -> ExportSummary:
    """Write the hands matching ``filters`` into folder ``out`` in format ``fmt``."""
    if fmt not in FORMATS:
        raise ExportError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    filters = filters or NO_FILTERS
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)  # a failure is the command's fault sentence
    summary = ExportSummary(fmt, str(folder))
    if fmt == "original":
        _export_original(db, folder, filters, summary)
        return summary
    writer = writer_for(fmt)
    files: dict[str, IO[str]] = {}
    try:
        for row in _stored(db, filters):
            hand, _ = rebuild(row["site"], row["file"] or "", row["line"] or 1, row["text"])
            if hand is None:
                summary.not_converted[row["status"]] += 1
                continue
            try:
                text = writer(hand).rstrip("\n") + "\n"
            except Exception as exc:  # a writer's bug names the hand, the export goes on
                summary.failed.append(f"{row['key']}: {type(exc).__name__}: {exc}")
                summary.notes.append(f"cannot write {row['key']}: {type(exc).__name__}: {exc}")
                continue
            if fmt == "phh":
                name = _UNSAFE.sub("_", f"{hand.site}-{hand.hand_id or row['id']}") + ".phh"
                (folder / name).write_text(text, encoding="utf-8")
                summary.files += 1
            else:
                _append(files, folder, _out_name(row["file"], ".txt"), text, summary)
            summary.hands += 1
    finally:
        for f in files.values():
            f.close()
    return summary


def _export_original(
    db: Connection, folder: Path, filters: Filters, summary: ExportSummary
) -> None:
    files: dict[str, IO[str]] = {}
    try:
        for row in _stored(db, filters):
            name = _out_name(row["file"], ".txt")
            _append(files, folder, name, row["text"], summary)
            summary.hands += 1
        if filters == NO_FILTERS:
            last = 0
            while True:
                rows = db.execute(
                    "SELECT id, text FROM quarantine WHERE id > ? ORDER BY id LIMIT ?",
                    [last, PAGE],
                ).fetchall()
                if not rows:
                    break
                for qid, text in rows:
                    _append(files, folder, "quarantine.txt", text, summary)
                    summary.hands += 1
                    last = qid
    finally:
        for f in files.values():
            f.close()


def _append(
    files: dict[str, IO[str]], folder: Path, name: str, text: str, summary: ExportSummary
) -> None:
    f = files.get(name)
    if f is None:
        f = files[name] = (folder / name).open("w", encoding="utf-8")
        summary.files += 1
    else:
        f.write(_SEPARATOR)
    f.write(text.rstrip("\n") + "\n")


def _out_name(source: str | None, suffix: str) -> str:
    """One output file per source file, so hands that shared a file (a table's session)
    share one again and hands of different files are never taken as consecutive."""
    name = _UNSAFE.sub("_", (source or "unknown").lstrip("/"))[-150:].strip("_.")
    name = name or "unknown"
    return name if name.endswith(suffix) else name + suffix


def _stored(db: Connection, filters: Filters) -> Iterator[dict[str, Any]]:
    """Matching hands in import order, a page at a time so memory stays flat."""
    where, params = filters.where_hands()
    last = 0
    while True:
        cur = db.execute(
            "SELECT id, key, site, status, file, line, text FROM hands h "
            f"WHERE {where} AND h.id > ? ORDER BY h.id LIMIT ?",
            [*params, last, PAGE],
        )
        names = [d[0] for d in cur.description or []]
        rows = cur.fetchall()
        if not rows:
            return
        for r in rows:
            row = dict(zip(names, r, strict=True))
            last = row["id"]
            yield row
