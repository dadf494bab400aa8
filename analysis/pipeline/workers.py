"""Worker processes that survive a dead worker: the importer's, reverify's and verify's.

Kept apart from the importer so that a worker of ``drawlab verify`` does not import
DuckDB and Arrow only to get these few functions.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

WORKER_POLL_SECONDS = 1.0  # how often a wait for a worker checks that all are alive
T = TypeVar("T")


def worker_init() -> None:
    """Workers build and drop millions of small objects: collect garbage less often.

    The records hold no reference cycles worth chasing; with CPython's default threshold
    the collector ran often enough to cost a third of a worker's time.
    """
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)


def worker_result(future: Future[T], executor: ProcessPoolExecutor | None) -> T:
    """A worker's result, or BrokenProcessPool as soon as any worker has died.

    The executor notices a dead worker by itself most of the time, but a worker killed
    while it holds the shared task queue's lock leaves the pool waiting for ever (seen
    here under SIGKILL); so the import also watches the workers itself.
    """
    while True:
        try:
            return future.result(timeout=WORKER_POLL_SECONDS)
        except TimeoutError:
            processes = list(executor._processes.values()) if executor is not None else []
            if any(p.exitcode is not None for p in processes):
                raise BrokenProcessPool("a worker process died") from None


def kill_workers(executor: ProcessPoolExecutor) -> None:
    for process in list(executor._processes.values()):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            process.kill()


def mp_context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
