"""The repository's root, for tests that run its files or read its folders.

One place, so a test file works from whichever folder of ``tests/`` it sits in.
"""

from __future__ import annotations

from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
