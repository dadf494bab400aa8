"""``drawlab bulk`` on a Dask cluster of two worker processes gives the dataset, and the
database, that a plain ``drawlab import`` gives; without Dask it says how to get it."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cli
from analysis.pipeline.importer import import_paths
from analysis.statistics.figures import hero_name, player_report, summary
from analysis.storage import db as dbmod
from tests.analysis.storage.test_dataset import histories, same, snapshot


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    import logging

    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    ) as c:
        yield c


@pytest.mark.slow
def test_bulk_on_two_dask_workers_equals_a_plain_import(
    cluster: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = histories(tmp_path)
    plain = dbmod.connect(str(tmp_path / "plain.duckdb"))
    imported = import_paths(plain, paths, workers=0)
    want = snapshot(plain)
    out = tmp_path / "ds"
    args = ["bulk", "--scheduler", cluster.scheduler_address, "--out", str(out), "--json",
            *map(str, paths)]
    assert cli.main(args) == 0
    body = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["summary"]
    assert body["workers"] == 2
    for key in ("files", "hands", "added", "ok", "invalid", "parse_error", "incomplete"):
        assert body[key] == imported.as_dict()[key], key
    assert body["dataset"]["rows"]["hands"] == len(want["hands"])
    assert not (out / ".bulk-scratch.duckdb").exists()
    # the batches were parsed by the cluster's two workers, not here
    prefix = cluster.scheduler.task_prefixes["parse_task"]
    assert prefix.all_durations["compute"] > 0
    target = tmp_path / "loaded.duckdb"
    assert cli.main(["import", "--db", str(target), "--parquet", str(out), "--quiet"]) == 0
    loaded = dbmod.connect(str(target))
    assert snapshot(loaded) == want
    assert summary(loaded).equals(summary(plain))
    hero = hero_name(plain)
    assert hero is not None
    assert same(player_report(loaded, hero).to_json(), player_report(plain, hero).to_json())
    loaded.close()
    plain.close()


@pytest.mark.slow
def test_bulk_run_again_reads_nothing_new_and_writes_the_same_dataset(
    cluster: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = [str(p) for p in histories(tmp_path)]
    out = tmp_path / "ds"
    args = ["bulk", "--scheduler", cluster.scheduler_address, "--out", str(out), "--json"]
    assert cli.main([*args, *paths]) == 0
    first = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["summary"]
    assert cli.main([*args, *paths]) == 0  # a new scratch database: every file read again
    again = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["summary"]
    assert again["dataset"]["rows"] == first["dataset"]["rows"]
    assert again["added"] == first["added"] > 0


def test_without_dask_bulk_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    code = cli.main(["bulk", "--out", str(tmp_path / "ds"), str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2
    assert "error: drawlab bulk runs on Dask, which is not installed here" in err
    assert "pip install 'drawlab[cluster]'" in err
    assert not (tmp_path / "ds").exists()


def test_an_unreachable_scheduler_is_an_error_not_a_hang(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from analysis.pipeline import cluster as cluster_mod

    monkeypatch.setattr(cluster_mod, "CONNECT_SECONDS", 0.5)
    code = cli.main(["bulk", "--scheduler", "tcp://127.0.0.1:9", "--out",
                     str(tmp_path / "ds"), str(tmp_path)])
    assert code == 2
    assert "cannot reach the Dask scheduler tcp://127.0.0.1:9" in capsys.readouterr().err
