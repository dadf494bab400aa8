"""What ``make check`` leaves to ``make test``: ``slow`` marks the tests that take over a
second and a half on a quiet machine, and a sweep's points beyond a few (docs/guide.md,
the quick loop)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest


def _arguments(point: Any) -> tuple[Any, ...]:
    """A sweep's point as a test's arguments: a tuple is several."""
    return point if isinstance(point, tuple) else (point,)


def sweep(points: Iterable[Any], quick: Iterable[Any]) -> list[Any]:
    """Every point of a parametrized sweep, for ``make test``; the quick loop tries only
    ``quick`` of them (one of each kind, the ends), the others are marked ``slow``."""
    every = [_arguments(point) for point in points]
    chosen = [_arguments(point) for point in quick]
    missing = [point for point in chosen if point not in every]
    assert not missing, f"quick points not in the sweep: {missing}"
    return [pytest.param(*point, marks=() if point in chosen else pytest.mark.slow)
            for point in every]
