"""What every test shares: Hypothesis without its per-example deadline (speed is measured
in benchmarks/, not in tests, and a deadline only makes a correct test fail on a loaded
CI machine), a default database of its own, and no compiled module older than its source
(the Makefile's ``COMPILED``: Python imports a module's compiled file before its .py, so
a source edited since ``make compiled`` would not be what runs)."""

import itertools
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("drawlab", deadline=None)
settings.load_profile("drawlab")

_DEFAULT_DBS = itertools.count()
ROOT = Path(__file__).resolve().parents[1]


def stale_compiled(root: Path = ROOT) -> list[str]:
    """The packages' compiled modules whose source changed after they were compiled."""
    stale = []
    for package in ("engine", "parser", "analysis", "ui"):
        for built in sorted((root / package).rglob("*.so")):
            source = built.with_name(built.name.split(".", 1)[0] + ".py")
            if source.exists() and source.stat().st_mtime > built.stat().st_mtime:
                stale.append(str(source.relative_to(root)))
    return stale


def pytest_configure(config: pytest.Config) -> None:
    stale = stale_compiled()
    if stale:
        pytest.exit(
            f"{', '.join(stale)} changed after it was compiled: run `make compiled` "
            "(or `make pure` to run the modules as Python)",
            returncode=2,
        )


@pytest.fixture(autouse=True)
def _own_default_database(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every test that opens "the" database without naming one (the dashboard under
    AppTest, the CLI in a subprocess) gets a fresh file of its own, never the user's
    ``~/.drawlab/drawlab.duckdb``: a suite run from a newer checkout once upgraded that file
    to a schema the older checkout beside it refused."""
    folder: Path = tmp_path_factory.getbasetemp() / "default-dbs"
    folder.mkdir(exist_ok=True)
    monkeypatch.setenv("DRAWLAB_DB", str(folder / f"{next(_DEFAULT_DBS)}.duckdb"))
