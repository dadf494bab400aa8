"""Fault injection: a full disk at every write of an import, a reverify, an export and a
review, each followed by the same work run again, which must leave the database equal to
a clean run (every hand once, what was committed before the fault kept).

The faults are injected without privileges (``tests.fault_injection.Faulty``: DuckDB's own
errors for a full disk, at the n-th statement of a kind; an ``OSError`` at the n-th file
write of an export).  Fault points tried: every ``COMMIT``, every other ``INSERT`` and the
``CHECKPOINT`` of an import of two files (25), every ``COMMIT`` and ``DELETE`` and every
other ``INSERT`` of a reverify in pages of 200 hands (17), every ``COPY`` of a Parquet
export (10), three file writes of a text export, the ``COMMIT`` of a review: 56 runs, each
with its re-run.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import pytest

from analysis import review
from analysis.faults import sentence
from analysis.pipeline.importer import import_paths
from analysis.pipeline.reverify import reverify
from analysis.storage import dataset, export
from analysis.storage import db as dbmod
from tests.fault_injection import FULL, Faulty, snapshot, whole
from tests.quick import sweep
from tests.store_data import write_history

HANDS = 300  # per file, two files
BATCH = 100
PAGE = 200  # hands a reverify replays in one transaction (5,000 by default)
IMPORT_POINTS = [("COMMIT", n) for n in range(1, 9)] + [("INSERT", n) for n in range(1, 32, 2)]
IMPORT_POINTS.append(("CHECKPOINT", 1))
REVERIFY_POINTS = (
    [("COMMIT", n) for n in range(1, 7)]
    + [("DELETE", n) for n in range(1, 5)]
    + [("INSERT", n) for n in range(1, 14, 2)]
)


@pytest.fixture(scope="module")
def histories(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("faults")
    return [
        write_history(folder / "a.txt", HANDS),
        write_history(folder / "b.txt", HANDS, first_id=910_000_000_000),
    ]


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory, histories: list[Path]) -> Path:
    """A clean import of the histories: what every faulted run must end equal to."""
    path = tmp_path_factory.mktemp("clean") / "clean.duckdb"
    con = dbmod.connect(path)
    import_paths(con, histories, workers=0, batch_hands=BATCH)
    con.close()
    return path


@pytest.fixture(scope="module")
def reference(clean: Path) -> dict[str, Any]:
    con = dbmod.connect(clean, read_only=True)
    try:
        return snapshot(con)
    finally:
        con.close()


def _full_disk(raised: BaseException, command: str, path: Path) -> None:
    """The failure is the full disk itself, once (no second exception over it), and it
    reads as one sentence."""
    assert isinstance(raised, duckdb.IOException | duckdb.TransactionException)
    assert FULL in str(raised)
    assert raised.__context__ is None
    assert sentence(raised, command, str(path)).startswith(f"the disk holding {path} is full: ")


@pytest.mark.slow  # an import faulted at each of its writes in turn: make test runs it
@pytest.mark.parametrize(("kind", "n"), IMPORT_POINTS)
def test_a_full_disk_anywhere_in_an_import_loses_and_doubles_nothing(
    tmp_path: Path, histories: list[Path], reference: dict[str, Any], kind: str, n: int
) -> None:
    path = tmp_path / "x.duckdb"
    con = dbmod.connect(path)
    faulty = Faulty(con, kind, n, str(path))
    if kind == "CHECKPOINT":  # the import's last checkpoint: the log keeps the commits
        summary = import_paths(faulty, histories, workers=0, batch_hands=BATCH)
        assert faulty.fired and summary.added == 2 * HANDS
    else:
        with pytest.raises(duckdb.Error) as failed:
            import_paths(faulty, histories, workers=0, batch_hands=BATCH)
        assert faulty.fired
        _full_disk(failed.value, "import", path)
    whole(con)
    stored = len(snapshot(con)["hands"])
    con.close()

    con = dbmod.connect(path)  # the same import, run again once there is room
    again = import_paths(con, histories, workers=0, batch_hands=BATCH)
    assert (again.added, again.already_present) == (2 * HANDS - stored, stored)
    assert snapshot(con) == reference
    con.close()


@pytest.mark.parametrize(
    ("kind", "n"), sweep(REVERIFY_POINTS, [("COMMIT", 1), ("DELETE", 2), ("INSERT", 13)])
)
def test_a_full_disk_anywhere_in_a_reverify_loses_nothing(
    tmp_path: Path, clean: Path, reference: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
    kind: str, n: int,
) -> None:
    monkeypatch.setattr("analysis.pipeline.reverify.PAGE", PAGE)  # pages committed apart
    path = tmp_path / "x.duckdb"
    path.write_bytes(clean.read_bytes())
    con = dbmod.connect(path)
    faulty = Faulty(con, kind, n, str(path))
    with pytest.raises(duckdb.Error) as failed:
        reverify(faulty, workers=0)
    assert faulty.fired
    _full_disk(failed.value, "reverify", path)
    whole(con)
    assert snapshot(con) == reference  # a page is rewritten whole or not at all
    con.close()

    con = dbmod.connect(path)
    again = reverify(con, workers=0)
    assert again.hands <= 2 * HANDS  # goes on after the last page done
    assert snapshot(con) == reference
    con.close()


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


@pytest.mark.parametrize("n", sweep(list(range(1, 11)), [1, 10]))
def test_a_full_disk_in_a_parquet_export_is_written_whole_by_the_next(
    tmp_path: Path, clean: Path, n: int
) -> None:
    con = dbmod.connect(clean, read_only=True)
    try:
        expected = dataset.write(con, tmp_path / "clean").rows
        faulty = Faulty(con, "COPY", n, str(tmp_path / "out"))
        with pytest.raises(duckdb.IOException) as failed:
            dataset.write(faulty, tmp_path / "out")
        assert faulty.fired
        assert failed.value.__context__ is None
        assert sentence(failed.value, "export", str(clean)) == (
            f"the disk holding {tmp_path / 'out'} is full: the database is unchanged, but "
            "the files written so far may be incomplete; free some space on it, then run "
            "the same command again (it writes them whole)"
        )
        assert dataset.write(con, tmp_path / "out").rows == expected
        assert dbmod.one(con, "SELECT count(*) FROM hands") == (2 * HANDS,)
    finally:
        con.close()
    loaded = dbmod.connect(tmp_path / "loaded.duckdb")
    try:
        assert dataset.load(loaded, tmp_path / "out").added == 2 * HANDS
    finally:
        loaded.close()


def _failing_append(n: int) -> Callable[..., None]:
    real = export._append
    calls = [0]

    def append(files: Any, folder: Path, name: str, text: str, summary: Any) -> None:
        calls[0] += 1
        if calls[0] == n:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(folder / name))
        real(files, folder, name, text, summary)

    return append


@pytest.mark.parametrize("n", [1, HANDS, 2 * HANDS])
def test_a_full_disk_in_a_text_export_is_written_whole_by_the_next(
    tmp_path: Path, clean: Path, monkeypatch: pytest.MonkeyPatch, n: int
) -> None:
    con = dbmod.connect(clean, read_only=True)
    try:
        export.export_hands(con, tmp_path / "clean", "pokerstars")
        with monkeypatch.context() as m:
            m.setattr(export, "_append", _failing_append(n))
            with pytest.raises(OSError) as failed:
                export.export_hands(con, tmp_path / "out", "pokerstars")
        assert failed.value.errno == errno.ENOSPC and failed.value.__context__ is None
        assert sentence(failed.value, "export", str(clean)).startswith(
            f"the disk holding {failed.value.filename} is full: the database is unchanged"
        )
        export.export_hands(con, tmp_path / "out", "pokerstars")
    finally:
        con.close()
    assert _files(tmp_path / "out") == _files(tmp_path / "clean")


@pytest.mark.slow
def test_a_full_disk_while_storing_reviews_keeps_the_reviews_before_it(
    tmp_path: Path, histories: list[Path]
) -> None:
    path = tmp_path / "x.duckdb"
    con = dbmod.connect(path)
    import_paths(con, histories[:1], workers=0)
    hero = "Hero"
    faulty = Faulty(con, "COMMIT", 1, str(path))
    with pytest.raises(duckdb.TransactionException) as failed:
        review.run_review(faulty, hero, None, workers=0)
    _full_disk(failed.value, "review", path)
    assert dbmod.one(con, "SELECT count(*) FROM decisions") == (0,)
    review.run_review(con, hero, None, workers=0)
    done = con.execute("SELECT * FROM decisions ORDER BY ALL").fetchall()
    con.close()

    con = dbmod.connect(tmp_path / "clean.duckdb")
    import_paths(con, histories[:1], workers=0)
    review.run_review(con, hero, None, workers=0)
    assert con.execute("SELECT * FROM decisions ORDER BY ALL").fetchall() == done
    assert done
    con.close()
