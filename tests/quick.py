"""What ``make check`` leaves to ``make test``: ``slow`` marks the tests that take over a
second and a half on a quiet machine, and a sweep's points beyond a few (docs/guide.md,
the quick loop)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest


def sweep(points: Iterable[Any], quick: Iterable[Any]) -> list[Any]:
    """Every point of a parametrized sweep, for ``make test``; the quick loop tries only
    ``quick`` of them (one of each kind, the ends), the others are marked ``slow``.  A
    point that is a tuple is a test's several arguments."""
    chosen = list(quick)

    def param(point: Any) -> Any:
        values = point if isinstance(point, tuple) else (point,)
        return pytest.param(*values, marks=() if point in chosen else pytest.mark.slow)

    found = [param(point) for point in points]
    missing = [q for q in chosen if not any(p.values == (q if isinstance(q, tuple) else (q,))
                                            for p in found)]
    assert not missing, f"quick points not in the sweep: {missing}"
    return found
