"""The shared corpus as the parser tests see it: hand-history files, read once.

Files are read from ``../shared/corpus`` (or ``$DRAWLAB_CORPUS``), never copied here.
The side files (``.hp``, ``.hands``, ``.gt``), the README and the manifest are not hand
histories and are left out.
"""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path
from typing import Any

from parser.outcome import HandText, Outcome
from parser.reader import read_path
from tests.corpus import CORPUS

SIDECARS = (".hp", ".hands", ".gt", ".md", ".tsv")


def hand_files() -> list[Path]:
    return sorted(p for p in CORPUS.rglob("*") if p.is_file() and not p.name.endswith(SIDECARS))


@functools.cache
def results() -> tuple[tuple[Path, HandText, Outcome], ...]:
    """Every chunk of every corpus hand file with its outcome, in file order."""
    return tuple(
        (path, chunk, outcome) for path in hand_files() for chunk, outcome in read_path(path)
    )


def without_position(value: Any) -> Any:
    """A record as nested tuples, minus ``file`` and every ``line``: where it stood in a file."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = tuple(
            (f.name, without_position(getattr(value, f.name)))
            for f in dataclasses.fields(value)
            if f.name not in ("file", "line")
        )
        return (type(value).__name__, *fields)
    if isinstance(value, tuple):
        return tuple(without_position(v) for v in value)
    return value
