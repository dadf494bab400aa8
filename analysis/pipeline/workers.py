"""Worker processes that survive a dead worker: the importer's, reverify's and verify's.

Kept apart from the importer so that a worker of ``drawlab verify`` does not import
DuckDB and Arrow only to get these few functions.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol, TypeVar

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


def quick_context() -> Any:
    """Fork when nothing makes it unsafe, so workers start with this process's modules.

    A forkserver worker imports every reader and builds the grammars and ranking tables
    again before its first hand: 0.7 s of a 4 s ``drawlab verify --workers 2``.  Forking
    copies a process that already has them; it is safe only while no other thread (of
    Python, or DuckDB's native pool) may hold a lock the child would inherit taken, so
    anywhere else (the dashboard, an import with its database open) this is
    ``mp_context``.
    """
    alone = threading.active_count() == 1 and "duckdb" not in sys.modules
    if alone and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return mp_context()


class TaskPool(Protocol):
    """Where the importer's batches are parsed: this machine's worker processes
    (``ProcessTaskPool``) or a Dask cluster's (``analysis.pipeline.cluster.DaskTaskPool``).

    ``slots`` is how many batches to keep in flight (enough to keep every worker busy,
    few enough that memory does not grow with the input); ``submit`` and ``result``
    raise ``BrokenProcessPool`` once the pool cannot run tasks any more, and the importer
    then parses the rest itself.
    """

    slots: int

    def submit(self, fn: Callable[..., T], /, *args: Any) -> Any: ...

    def result(self, handle: Any) -> Any: ...

    def close(self, broken: bool) -> None: ...


class ProcessTaskPool:
    """Worker processes of this machine, watched for one that died (``worker_result``)."""

    def __init__(self, workers: int) -> None:
        self.slots = max(2, 3 * workers)
        self.executor = ProcessPoolExecutor(
            max_workers=workers, mp_context=mp_context(), initializer=worker_init
        )

    def submit(self, fn: Callable[..., T], /, *args: Any) -> Future[T]:
        return self.executor.submit(fn, *args)

    def result(self, handle: Future[T]) -> T:
        return worker_result(handle, self.executor)

    def close(self, broken: bool) -> None:
        if broken:  # its queues may be wedged: waiting could hang
            kill_workers(self.executor)
        self.executor.shutdown(wait=not broken, cancel_futures=True)
