"""A summary's declaration changed for one test: a lower compaction threshold, smaller
passes, a spied step, in its module and in the registry's loop alike."""

from __future__ import annotations

from dataclasses import replace
from types import ModuleType
from typing import Any

import pytest

from analysis.storage import summaries
from analysis.storage.marks import Summary


def redeclare(monkeypatch: pytest.MonkeyPatch, module: ModuleType, **changes: Any) -> Summary:
    """``module.SUMMARY`` with ``changes`` (``marks.Summary`` fields), until the test ends."""
    old: Summary = module.SUMMARY
    new = replace(old, **changes)
    monkeypatch.setattr(module, "SUMMARY", new)
    monkeypatch.setattr(
        summaries, "SUMMARIES", tuple(new if s is old else s for s in summaries.SUMMARIES)
    )
    return new


def spy_rebuilds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of each summary rebuilt from now on, in order."""
    rebuilt: list[str] = []
    real = Summary.rebuild

    def spy(self: Summary, con: Any) -> None:
        rebuilt.append(self.name)
        real(self, con)

    monkeypatch.setattr(Summary, "rebuild", spy)
    return rebuilt
