"""Which way worker processes start: forked only where nothing can hold a lock across it."""

from __future__ import annotations

import sys
import threading

import pytest

from analysis.pipeline.workers import mp_context, quick_context


def test_a_process_alone_forks_its_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "duckdb", raising=False)
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    assert quick_context().get_start_method() == "fork"


def test_another_thread_means_the_forkserver(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "duckdb", raising=False)
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert quick_context().get_start_method() == mp_context().get_start_method()
    assert quick_context().get_start_method() == "forkserver"


def test_duckdb_loaded_means_the_forkserver(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "duckdb", sys)  # its native threads may run
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    assert quick_context().get_start_method() == "forkserver"
