"""A disk file cut into runs of about so many hands, each run read by a worker process.

The importer's main process used to read, decode and cut every file into hand texts and
send them to its workers (a third of a core at two workers); now a worker opens the file
and reads its run of hands itself, as ``drawlab verify``'s workers read the parts of
``parser.ranges``, which says when a file may be cut and reads a part exactly as the
whole file would be read.

``parser.ranges`` cuts about every megabyte; the importer counts its batches in hands (a
transaction, a step of the progress bar, a release of the database file fall between
batches of ``TASK_HANDS`` hands, as when this process cut the files), so a file of a few
batches is cut at every hand's start and its hands grouped, and a bigger one about every
``hands`` x ``HAND_BYTES`` bytes.
"""

from __future__ import annotations

import codecs
from dataclasses import replace

from parser.ranges import Part, parts
from parser.sources import Source

HAND_BYTES = 1 << 10  # a hand's bytes, about: a part of n hands is about n x this
FINE_BYTES = 1 << 21  # a file below this is cut at every hand (a few thousand at most)


def hand_parts(source: Source, hands: int) -> list[Part] | None:
    """The parts of a disk file, of about ``hands`` hands each, in order (one part when
    it is small or cannot be cut); None for a source that is not a plain file on disk
    (an archive member, an upload), which only this process can open."""
    path = source.disk_path
    if path is None:
        return None
    size = max(1, hands) * HAND_BYTES
    if source.size <= size:
        return [Part(path, source.name)]
    if source.size >= FINE_BYTES:
        return parts(source, size)
    every = parts(source, 1)  # at every hand's start
    if every is None or len(every) == 1:
        return every
    return _grouped(every, max(1, hands))


def _grouped(every: list[Part], hands: int) -> list[Part]:
    """Consecutive parts of one hand each, ``hands`` at a time.

    The first group is read as the later ones are (``parser.sources.open_range``, with
    the encoding the whole file's head gave): read as the whole file is, its encoding
    would be told from its own first bytes, fewer than the file's first block when it is
    short, and could differ.  A UTF-8 file's byte-order mark is decoded away there, as
    reading the whole file does."""
    later = every[1]
    encoding = later.encoding
    if encoding == "utf-8":
        with open(later.path, "rb") as f:
            if f.read(len(codecs.BOM_UTF8)) == codecs.BOM_UTF8:
                encoding = "utf-8-sig"
    out: list[Part] = []
    for i in range(0, len(every), hands):
        group = replace(every[i], end=every[min(i + hands, len(every)) - 1].end)
        if i == 0:
            group = replace(group, encoding=encoding, site=later.site)
        out.append(group)
    return out
