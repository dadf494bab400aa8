"""Where the real hand histories are: ``$DRAWLAB_CORPUS``, else ``../shared/corpus`` beside
the repository, never a machine's absolute path and never a copy in the repository.

A missing corpus is an error at collection, not a reason to skip: the corpus tests are
the product's contact with real sites' files, and CI must fail without them.
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.paths import REPOSITORY


def corpus_dir() -> Path:
    named = os.environ.get("DRAWLAB_CORPUS")
    found = Path(named) if named else REPOSITORY.parent / "shared" / "corpus"
    if not (found / "MANIFEST.tsv").is_file():
        raise RuntimeError(
            f"the hand-history corpus is not at {found} (no MANIFEST.tsv): put the shared "
            "folder beside the repository or name the corpus in DRAWLAB_CORPUS"
        )
    return found


CORPUS = corpus_dir()
