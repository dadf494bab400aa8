"""Hand histories from any site rewritten as PokerStars text or as PHH files.

Reading streams, so a large input is converted hand by hand.  PokerStars output keeps one
file per input file (hands apart by blank lines, as the client writes them); PHH holds
one hand per file, named after the input file and the hand id.  Hands that are skipped or
cannot be read are counted and listed, never silently dropped.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Literal

from parser.outcome import ParseError, Skipped
from parser.phh import write_phh
from parser.pokerstars_writer import write_pokerstars
from parser.reader import read_path

Format = Literal["phh", "pokerstars"]
FORMATS: tuple[Format, ...] = ("phh", "pokerstars")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass
class ConvertSummary:
    hands: int = 0
    files: list[Path] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    errors: list[ParseError] = field(default_factory=list)


def convert_paths(
    paths: Iterable[str | os.PathLike[str]],
    to: Format,
    out: str | os.PathLike[str],
    progress: Callable[[str], None] | None = None,
) -> ConvertSummary:
    """Convert every hand under ``paths`` into ``out`` (created if missing)."""
    if to not in FORMATS:
        raise ValueError(f"unknown format {to!r}: choose from {', '.join(FORMATS)}")
    target = Path(out)
    target.mkdir(parents=True, exist_ok=True)
    summary = ConvertSummary()
    taken: set[str] = set()
    for path in paths:
        current: str | None = None
        stream: IO[str] | None = None
        try:
            for chunk, outcome in read_path(path):
                if isinstance(outcome, ParseError):
                    summary.errors.append(outcome)
                    continue
                if isinstance(outcome, Skipped):
                    summary.skipped.append(outcome)
                    continue
                summary.hands += 1
                if to == "phh":
                    name = _unique(taken, f"{_stem(chunk.file)}-{_safe(outcome.hand_id)}", ".phh")
                    dest = target / name
                    dest.write_text(write_phh(outcome), encoding="utf-8")
                    summary.files.append(dest)
                    continue
                if chunk.file != current:
                    if stream is not None:
                        stream.close()
                    current = chunk.file
                    dest = target / _unique(taken, _stem(chunk.file), ".txt")
                    stream = dest.open("w", encoding="utf-8")
                    summary.files.append(dest)
                    if progress is not None:
                        progress(str(dest))
                else:
                    assert stream is not None
                    stream.write("\n\n")
                assert stream is not None
                stream.write(write_pokerstars(outcome))
        finally:
            if stream is not None:
                stream.close()
    return summary


def _stem(file: str) -> str:
    name = file.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    stem = name.rsplit(".", 1)[0] if "." in name else name
    return _safe(stem) or "hands"


def _safe(text: str) -> str:
    return _UNSAFE.sub("_", text).strip("._")[:120]


def _unique(taken: set[str], stem: str, suffix: str) -> str:
    name = stem + suffix
    n = 2
    while name in taken:
        name = f"{stem}-{n}{suffix}"
        n += 1
    taken.add(name)
    return name


def describe(summary: ConvertSummary) -> Iterator[str]:
    """Lines a command prints about a conversion."""
    yield (
        f"converted {summary.hands} hands into {len(summary.files)} files; "
        f"skipped {len(summary.skipped)}; unreadable {len(summary.errors)}"
    )
    for s in summary.skipped:
        yield f"skipped {s.file}:{s.line}: {s.kind}: {s.reason}"
    for e in summary.errors:
        yield f"error {e.file}:{e.line}:{e.column}: {e.message}"
