"""Shared set-up of the dashboard tests: databases built from the corpus, hostile names.

The corpus is read from ``../shared/corpus`` (or ``DRAWLAB_CORPUS``) and never copied
into the repository.  Databases are built once per run with the real importer (the
workers share them) and copied per test, so each test starts from the same known state.
"""

from __future__ import annotations

import fcntl
import io
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from analysis import review
from analysis.pipeline.importer import import_bytes, import_paths
from analysis.simulate import simulate
from analysis.storage import db
from engine.record import Game
from tests.corpus import CORPUS

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app.py"
CASH = CORPUS / "cash"
STARS = CASH / "Stars" / "Draw"
STARS_TRIPLE = STARS / "Triple Draw 2-7 Lowball-FL-USD-0.10-0.20-201106.sample.txt"
KINGS_RIT = CASH / "KingsClub" / "Draw" / "NL-2-7-SD-USD-125-250-202103.RIT.txt"
SUMMARIES = (CORPUS.parent / "summaries", CORPUS / "summaries")

HOSTILE_NAMES = {
    "Player1": "[x](https://evil.example/)",
    "Player2": ":red[alert] **bold** $x$",
    "Player3": "<script>window.pwned=1</script>",
    "Player4": '<img src=x onerror="window.pwned=2">',
}
HOSTILE_HAND_ID = "63845186999"


def hostile_history() -> str:
    """A real PokerStars triple-draw hand whose players carry links, markup and script."""
    text = STARS_TRIPLE.read_text(encoding="utf-8-sig").replace("63845186378", HOSTILE_HAND_ID)
    for plain, evil in HOSTILE_NAMES.items():
        text = text.replace(plain, evil)
    return text


def build_corpus_db(path: Path) -> Path:
    """Import the corpus's cash games into a new database file at ``path``."""
    con = db.connect(path)
    try:
        import_paths(con, [CASH], workers=0)
    finally:
        con.close()
    return path


def imported_one_by_one(path: Path, files: tuple[Path, ...]) -> Path:
    """A new database at ``path`` with each of ``files`` imported by a run of its own (one
    import, ``import_batches`` row, each: ids from 1 in this order)."""
    con = db.connect(path)
    try:
        for file in files:
            import_paths(con, [file], workers=0)
    finally:
        con.close()
    return path


def copy_db(source: Path, target_dir: Path) -> Path:
    target = target_dir / "drawlab.duckdb"
    shutil.copyfile(source, target)
    return target


def app_for(path: Path, monkeypatch: pytest.MonkeyPatch, timeout: float = 60) -> AppTest:
    """The whole app (``app.py``) on the database file ``path``; run it to start."""
    monkeypatch.setenv(db.ENV_VAR, str(path))
    return AppTest.from_file(APP, default_timeout=timeout)


def built_once_per_run(
    factory: pytest.TempPathFactory, name: str, build: Callable[[Path], object]
) -> Path:
    """The database file ``name``, built by ``build`` once for the whole run: under
    pytest-xdist the first worker to ask builds it while the others wait on a lock, then
    every worker reads the same file (pytest-xdist's documented way to share a session
    fixture).  Tests copy it before writing, or open it read-only."""
    root = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the run's folder, above each worker's own
    path = root / f"{name}.duckdb"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            building = factory.mktemp(name) / path.name
            build(building)
            building.replace(path)  # whole or absent, for a worker killed mid-build
    return path


def _import_summaries(path: Path) -> None:
    con = db.connect(path)
    try:
        import_paths(con, list(SUMMARIES), workers=0)
    finally:
        con.close()


def _reviewed(path: Path) -> None:
    out = io.StringIO()
    # seed 6: with the ranges widened by position (review-6) seed 3's hands held no mistake
    simulate(out, 24, Game.TRIPLE_DRAW_27, 3, 6)
    con = db.connect(path)
    try:
        import_bytes(con, "dealt.txt", out.getvalue().encode(), workers=0)
        review.run_review(con, "Hero", workers=1, trials=300)
    finally:
        con.close()


@pytest.fixture(scope="session", name="corpus_db_file")
def corpus_db_file_fixture(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The corpus's cash games, imported once per run."""
    return built_once_per_run(tmp_path_factory, "corpus", build_corpus_db)


@pytest.fixture(scope="session", name="summaries_db_file")
def summaries_db_file_fixture(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every tournament summary of the shared folder and the corpus, imported once per run:
    storing their thousands of finishes is the costly part."""
    return built_once_per_run(tmp_path_factory, "summaries", _import_summaries)


@pytest.fixture(scope="session", name="reviewed_db_file")
def reviewed_db_file_fixture(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """24 dealt triple-draw hands at three seats with the Hero's draws reviewed, once per
    run."""
    return built_once_per_run(tmp_path_factory, "reviewed", _reviewed)


@pytest.fixture(name="corpus_db")
def corpus_db_fixture(corpus_db_file: Path, tmp_path: Path) -> Path:
    """A private copy of the corpus database for one test."""
    return copy_db(corpus_db_file, tmp_path)


def finish_import(at: AppTest, timeout: float = 120) -> AppTest:
    """Wait for the import the page started on its own thread, then rerun the page."""
    if "import_job" in at.session_state:
        assert at.session_state["import_job"].wait(timeout)
        at.run()
    assert "import_job" not in at.session_state
    return at


def texts(at: AppTest) -> list[str]:
    return [str(t.value) for t in at.text]


def markdown_sources(at: AppTest) -> list[str]:
    """Every Markdown body on the page (captions, alerts and labels' own elements)."""
    out = [str(m.value) for m in at.markdown]
    out += [str(c.value) for c in at.caption]
    out += [str(e.value) for e in at.error]
    out += [str(w.value) for w in at.warning]
    out += [str(i.value) for i in at.info]
    out += [str(s.value) for s in at.success]
    return out
