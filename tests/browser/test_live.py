"""End to end, all at once on one database file: the dashboard open in Chromium on the
Live session page, ``drawlab import --watch`` on a folder (or the dashboard's own watcher
on a folder of its watch list), hands appended to a watched file, ``drawlab stats`` from a
terminal; the new hands appear on the page, no reload."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, expect

from analysis.pipeline import watched
from analysis.pipeline.importer import import_paths
from analysis.storage import db
from tests.analysis.pipeline.test_watch import WatcherProcess, _stats_json
from tests.analysis.statistics.test_live import _dealt
from tests.app_support import ROOT
from tests.browser.test_end_to_end import (  # noqa: F401  (fixture)
    _free_port,
    _wait_healthy,
    browser,
    dashboard,
)

pytestmark = pytest.mark.browser


@pytest.fixture(name="live_setup")
def live_setup_fixture(tmp_path: Path) -> Iterator[tuple[str, Path, Path, WatcherProcess]]:
    folder = tmp_path / "histories"
    folder.mkdir()
    path = tmp_path / "drawlab.duckdb"
    db.connect(path).close()
    watcher = WatcherProcess(path, folder)
    assert watcher.next_line().endswith("Ctrl-C stops")
    port = _free_port()
    env = {**os.environ, "DRAWLAB_DB": str(path), "DRAWLAB_SAMPLES": ""}
    log = (tmp_path / "streamlit.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--server.headless", "true", "--browser.gatherUsageStats", "false",
         "--server.fileWatcherType", "none"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc)
        yield url, path, folder, watcher
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        log.close()
        assert watcher.stop() == 0


def test_hands_a_watcher_imports_appear_on_the_open_dashboard(
    browser: BrowserContext,  # noqa: F811
    live_setup: tuple[str, Path, Path, WatcherProcess],
) -> None:
    url, path, folder, watcher = live_setup
    live = folder / "live.txt"
    live.write_text(_dealt(20, 3), encoding="utf-8")
    assert ": 20 hands added" in watcher.next_batch()
    page = browser.new_page()
    page.goto(f"{url}/live")
    hands = page.get_by_test_id("stMetric").filter(has_text="Hands").first
    expect(hands).to_contain_text("20")
    first, more = _dealt(20, 3), _dealt(30, 3)
    assert more.startswith(first)  # the same deal, ten hands further: the client wrote more
    with live.open("a", encoding="utf-8") as f:
        f.write(more[len(first):])
    assert ": 10 hands added" in watcher.next_batch()
    assert _stats_json(path)["players"]  # a terminal reads too, meanwhile
    # no reload: the fragment redraws within the 5 seconds of the commit
    expect(hands).to_contain_text("30", timeout=5_000)
    expect(page.get_by_text("Live: hands are arriving.")).to_be_visible()


@pytest.fixture(name="watched_setup")
def watched_setup_fixture(tmp_path: Path) -> Iterator[tuple[str, Path, Path]]:
    """The dashboard alone, with a folder on its watch list: its own watcher imports."""
    folder = tmp_path / "histories"
    folder.mkdir()
    (folder / "live.txt").write_text(_dealt(20, 3), encoding="utf-8")
    path = tmp_path / "drawlab.duckdb"
    con = db.connect(path)
    try:
        watched.add(con, folder)
    finally:
        con.close()
    port = _free_port()
    env = {**os.environ, "DRAWLAB_DB": str(path), "DRAWLAB_SAMPLES": ""}
    log = (tmp_path / "streamlit.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--server.headless", "true", "--browser.gatherUsageStats", "false",
         "--server.fileWatcherType", "none"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc)
        yield url, path, folder
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        log.close()


def test_hands_the_dashboards_own_watcher_imports_appear_without_a_reload(
    browser: BrowserContext,  # noqa: F811
    watched_setup: tuple[str, Path, Path],
) -> None:
    url, path, folder = watched_setup
    page = browser.new_page()
    page.goto(f"{url}/import")  # the dashboard's first run starts its watcher
    expect(page.get_by_text("Watching 1 path; the watcher is running.")).to_be_visible()
    table = page.get_by_test_id("stDataFrame").filter(has_text="hands in all")
    expect(table).to_be_visible()
    page.goto(f"{url}/live")
    hands = page.get_by_test_id("stMetric").filter(has_text="Hands").first
    expect(hands).to_contain_text("20", timeout=30_000)
    first, more = _dealt(20, 3), _dealt(30, 3)
    with (folder / "live.txt").open("a", encoding="utf-8") as f:
        f.write(more[len(first):])
    # the watcher sees the file grow (an event, or its scan within five seconds), imports,
    # and the page's fragment redraws from the new file: no reload
    expect(hands).to_contain_text("30", timeout=15_000)
    expect(page.get_by_text("Live: hands are arriving.")).to_be_visible()
    stats = _stats_json(path)  # a terminal reads the same file meanwhile
    assert isinstance(stats["players"], list) and max(p["hands"] for p in stats["players"]) == 30


def test_the_live_pages_steered_the_hud_widened_and_a_past_session_opened(
    browser: BrowserContext, tmp_path: Path,  # noqa: F811
) -> None:
    path = tmp_path / "drawlab.duckdb"
    (tmp_path / "old.txt").write_text(_dealt(40, 3), encoding="utf-8")
    (tmp_path / "new.txt").write_text(_dealt(25, 4, day="2026/03/02", table="Merope"),
                                      encoding="utf-8")
    con = db.connect(path)
    try:
        import_paths(con, [tmp_path / "old.txt", tmp_path / "new.txt"], workers=0)
    finally:
        con.close()
    with dashboard(path, tmp_path / "streamlit.log") as url:
        page = browser.new_page()
        page.goto(f"{url}/hud")
        expect(page.get_by_text("table Merope")).to_be_visible()
        expect(page.get_by_text("table Alcyone")).to_have_count(0)
        window = page.get_by_role("spinbutton", name="Tables played in the last (minutes)")
        window.fill("2880")
        window.press("Enter")
        expect(page.get_by_text("table Alcyone")).to_be_visible()
        expect(page.get_by_text("table Merope")).to_be_visible()
        page.goto(f"{url}/live")
        hands = page.get_by_test_id("stMetric").filter(has_text="Hands").first
        expect(hands).to_contain_text("25")
        page.get_by_test_id("stSelectbox").filter(has_text="Session").click()
        page.get_by_role("option").filter(has_text="40 hands").click()
        expect(hands).to_contain_text("40")
        expect(page.get_by_text("A past session.")).to_be_visible()
        page.close()
