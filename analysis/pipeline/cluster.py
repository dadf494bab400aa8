"""Histories to a Parquet dataset on a Dask cluster: ``drawlab bulk``.

Past what one machine's cores parse in reasonable time, the work that costs (reading
each hand, replaying it under the rules, computing its rows: nine tenths of an import's
CPU) goes to a Dask cluster's workers, and nothing else changes: the batches are the
importer's own (``analysis.pipeline.importer.parse_task`` on each batch of hand texts), so the
rows are made in one way only, and this process numbers them, drops the hands already
seen and checks the stacks carried from hand to hand exactly as ``drawlab import`` does,
into a scratch database beside the output that ``analysis.storage.dataset.write`` then turns into
the dataset.  ``drawlab import --parquet DIR`` loads it into any database; DuckDB,
Polars or Spark read it as it is.

The scratch database is an import like any other, so a bulk run that was stopped (a
killed client, a lost cluster) goes on where it stopped when run again: the files it
finished are not read again.  It is removed once the dataset is whole.

Dask is an optional extra (``pip install 'drawlab[cluster]'``): without it everything
else works, and ``bulk`` says how to install it.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from analysis.pipeline.importer import ImportSummary, ProgressFn, import_paths
from analysis.pipeline.workers import worker_init
from analysis.storage import dataset
from analysis.storage.db import connect

INSTALL = "pip install 'drawlab[cluster]'   (or: pip install 'dask[distributed]')"
SCRATCH = ".bulk-scratch.duckdb"  # a dot name: a dataset's folder may hold it meanwhile
CONNECT_SECONDS = 30  # how long to wait for a scheduler named by --scheduler
T = TypeVar("T")


class ClusterUnavailable(RuntimeError):
    """Dask is not installed, or the scheduler cannot be reached."""


def _distributed() -> Any:
    try:
        import distributed
    except ImportError as exc:
        raise ClusterUnavailable(
            f"drawlab bulk runs on Dask, which is not installed here; install it with:\n  {INSTALL}"
        ) from exc
    return distributed


class DaskTaskPool:
    """The importer's ``TaskPool`` on a Dask client: a batch is a Dask task.

    Dask itself moves a lost worker's tasks to the others; a task that killed worker
    after worker (``KilledWorker``) ends the pool, and the importer parses the rest here.
    """

    def __init__(self, client: Any) -> None:
        self.client = client
        threads = sum(client.nthreads().values()) or 1
        self.slots = max(2, 3 * threads)

    def submit(self, fn: Callable[..., T], /, *args: Any) -> Any:
        # pure=False: a batch is not hashed for a key (that would cost a pass over its text)
        return self.client.submit(fn, *args, pure=False)

    def result(self, handle: Any) -> Any:
        distributed = _distributed()
        try:
            return handle.result()
        except (distributed.KilledWorker, distributed.CancelledError, OSError) as exc:
            raise BrokenProcessPool(f"the cluster lost the task: {exc}") from exc

    def close(self, broken: bool) -> None:
        return None  # the client belongs to whoever made the pool (``dask_pool``)


@contextlib.contextmanager
def dask_pool(scheduler: str | None = None, workers: int | None = None) -> Iterator[DaskTaskPool]:
    """A pool on the cluster whose scheduler is at ``scheduler`` (``tcp://host:8786``), or
    without one on a local cluster of ``workers`` processes (default one per core), one
    thread each (parsing holds Python's lock: threads would take turns)."""
    distributed = _distributed()
    cluster: Any = None
    try:
        if scheduler:
            client = distributed.Client(scheduler, timeout=CONNECT_SECONDS)
        else:
            cluster = distributed.LocalCluster(
                n_workers=workers or os.cpu_count() or 1,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
            client = distributed.Client(cluster)
    except (OSError, TimeoutError) as exc:
        if cluster is not None:
            cluster.close()
        raise ClusterUnavailable(f"cannot reach the Dask scheduler {scheduler}: {exc}") from exc
    try:
        client.run(worker_init)  # the importer's workers' garbage-collector setting
        yield DaskTaskPool(client)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


@dataclass
class BulkSummary:
    imported: ImportSummary
    dataset: dataset.DatasetSummary
    workers: int


def bulk(
    paths: Iterable[str | os.PathLike[str]],
    out: str | os.PathLike[str],
    scheduler: str | None = None,
    workers: int | None = None,
    progress: ProgressFn | None = None,
) -> BulkSummary:
    """Parse and verify the histories under ``paths`` on a Dask cluster and write their
    rows as the Parquet dataset ``out`` (see the module's text)."""
    _distributed()  # before anything is written: without Dask, only the message
    folder = Path(out)
    dataset.check_writable(folder)
    sources = [str(p) for p in paths]
    with dask_pool(scheduler, workers) as pool:
        threads = sum(pool.client.nthreads().values())
        scratch = folder / SCRATCH
        con = connect(scratch)
        try:
            imported = import_paths(con, sources, progress=progress, pool=pool)
            written = dataset.write(con, folder)
        finally:
            con.close()
    for name in (SCRATCH, SCRATCH + ".wal"):
        (folder / name).unlink(missing_ok=True)
    return BulkSummary(imported, written, threads)
