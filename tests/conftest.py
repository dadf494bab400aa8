"""What every test shares: Hypothesis without its per-example deadline (speed is measured
in benchmarks/, not in tests, and a deadline only makes a correct test fail on a loaded
CI machine) and a default database of its own.

``make check`` sets ``DRAWLAB_HYPOTHESIS=check``: the quick loop tries fewer examples where
a test leaves the count to the profile; ``make test`` keeps Hypothesis's full count."""

import itertools
import os
import time
from pathlib import Path

import pytest
from hypothesis import settings

# "this computer's zone" (the display zone's default, the CLI's days) is UTC for every test
# and every process a test starts, wherever the suite runs: the expected days are UTC's
os.environ["TZ"] = "UTC"
time.tzset()

settings.register_profile("drawlab", deadline=None)
settings.register_profile("check", settings.get_profile("drawlab"), max_examples=20)
settings.load_profile(os.environ.get("DRAWLAB_HYPOTHESIS", "drawlab"))

_DEFAULT_DBS = itertools.count()


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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The dashboard's tests first: theirs are the longest files, and the two workers that
    take whole files in turn (``--dist loadfile``) end together when the short ones come
    last instead of one waiting while the other runs the overview's file."""
    items.sort(key=lambda item: not item.nodeid.startswith("tests/ui/"))
