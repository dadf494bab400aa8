"""AppTest of the app shell: routing between the pages and state kept across them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.app_support import (  # noqa: F401  (fixtures)
    STARS_TRIPLE,
    app_for,
    corpus_db_file_fixture,
    corpus_db_fixture,
    finish_import,
    texts,
)

PAGES = {
    "ui/overview_page.py": "Overview & statistics",
    "ui/replayer_page.py": "Replayer",
    "ui/import_page.py": "Import hand histories",
    "ui/drills_page.py": "Drills",
}


def test_every_page_opens_without_error(corpus_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = app_for(corpus_db, monkeypatch).run()
    for page, title in PAGES.items():
        at.switch_page(page).run()
        assert not at.exception, page
        assert [t.value for t in at.title] == [title]


def test_only_built_pages_are_routed(corpus_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = app_for(corpus_db, monkeypatch).run()
    with pytest.raises(ValueError, match="Could not find"):
        at.switch_page("ui/no_such_page.py")


def test_import_results_stay_when_coming_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "nosamples"
    empty.mkdir()
    monkeypatch.setattr("ui.state.SAMPLES", empty)
    at = app_for(tmp_path / "db.duckdb", monkeypatch).run()
    at.switch_page("ui/import_page.py").run()
    at.file_uploader(key="uploads").set_value(("t.txt", STARS_TRIPLE.read_bytes(), "text/plain"))
    at.run()
    finish_import(at.button(key="import_button").click().run())
    assert texts(at)[0] == "1 file: 1 new hand added, 0 already in the database."
    at.switch_page("ui/overview_page.py").run()
    assert [m.value for m in at.metric][:1] == ["1"]  # the overview sees the new hand
    at.switch_page("ui/import_page.py").run()
    assert texts(at)[0] == "1 file: 1 new hand added, 0 already in the database."


@pytest.mark.slow
def test_a_page_waits_for_another_program_to_let_the_database_go(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An import lets a waiting reader in once its transaction is done: the page waits
    for that (``OPEN_WAIT``, 30 s) instead of saying at once that the file is busy."""
    from ui import state

    assert state.OPEN_WAIT == 30.0
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time, duckdb; c = duckdb.connect(sys.argv[1]); print('held', flush=True);"
         " time.sleep(7)", str(corpus_db)],  # longer than the 5 s pages used to wait
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"held"
        at = app_for(corpus_db, monkeypatch).run()
        assert holder.poll() == 0  # the page got in after the holder let go
    finally:
        holder.kill()
        holder.wait()
    assert not at.exception and not at.error
    assert at.metric[0].value == "39"  # the overview as after a free open (40, one with errors)


@pytest.mark.slow  # over 1.5 s: make test runs it
def test_a_database_another_program_holds_is_explained_and_retried(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time, duckdb; c = duckdb.connect(sys.argv[1]); print('held', flush=True);"
         " time.sleep(120)", str(corpus_db)],
        stdout=subprocess.PIPE,
    )
    monkeypatch.setattr("ui.state.OPEN_WAIT", 1.0)  # a page waits 30 s before saying so
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"held"
        at = app_for(corpus_db, monkeypatch).run()
        assert not at.exception
        assert [e.value for e in at.error] == ["The database cannot be opened."]
        assert str(corpus_db) in at.code[0].value
        assert len(at.metric) == 0
    finally:
        holder.kill()
        holder.wait()
    at.button(key="db_retry").click().run()
    assert not at.exception and not at.error
    # the default view, Hero at Full Tilt in USD cash (the hero's most played since the Full
    # Tilt 10-game file is read; test_app_overview checks that default against the data)
    assert at.metric[0].value == "39"
