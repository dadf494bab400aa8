"""The importer's sources: ``parser.sources``, the one reading pipeline, under its old name.

Kept so that ``from analysis.sources import ...`` goes on working; new code imports
``parser.sources``.
"""

from __future__ import annotations

from parser.sources import (
    ARCHIVE_SEP,
    MAX_ARCHIVE_BYTES,
    MAX_LINE_CHARS,
    MAX_MEMBER_RATIO,
    Opened,
    Rejected,
    Source,
    bytes_sources,
    iter_sources,
    open_lines,
    site_reader,
)

__all__ = [
    "ARCHIVE_SEP",
    "MAX_ARCHIVE_BYTES",
    "MAX_LINE_CHARS",
    "MAX_MEMBER_RATIO",
    "Opened",
    "Rejected",
    "Source",
    "bytes_sources",
    "iter_sources",
    "open_lines",
    "site_reader",
]
