"""The server's own first visit (``ui.server``): before any browser, the overview's first
run has filled the caches a browser's first run reads, it is not made once a browser
came, over an empty database it does no harm, and a failure of it is one line while the
server goes on.

Streamlit's ``/_stcore/metrics`` counts each cached function's hits and misses: the
server's visit is the one miss of each, and a later visit of the default page only hits.
"""

from __future__ import annotations

import logging
import re
import shutil
import threading
import time
import urllib.request
from pathlib import Path

import duckdb
import pytest

from analysis.storage import db
from tests.browser.serve import dashboard, free_port
from tests.browser.test_end_to_end import SAMPLE, SAMPLE_HANDS
from ui import server, state

LOOKUP = re.compile(
    r'cache_lookups_total\{cache="ui\.data\.(\w+)",cache_type="st_cache_data",'
    r'result="(hit|miss)"\} (\d+)'
)
# what the overview's first run reads: its slow queries among them
SLOW = (
    "filter_options",
    "site_players",
    "money_kinds",
    "offers",
    "results",
    "curves",
    "player_stats",
    "by_position",
    "showdown_hands",
    "by_stakes",
    "site_summary",
)


def lookups(url: str) -> dict[tuple[str, str], int]:
    """(function, "hit" or "miss") -> count, for every function of ``ui.data``."""
    with urllib.request.urlopen(url + "/_stcore/metrics", timeout=10) as answer:
        text = answer.read().decode()
    return {(name, kind): int(n) for name, kind, n in LOOKUP.findall(text)}


def visited(url: str, name: str, seconds: float = 180) -> dict[tuple[str, str], int]:
    """The lookups once ``name`` was looked up (the server's visit got that far)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        seen = lookups(url)
        if seen.get((name, "miss"), 0) + seen.get((name, "hit"), 0):
            time.sleep(2)  # the run's last reads after it
            return lookups(url)
        time.sleep(0.5)
    raise AssertionError(f"ui.data.{name} never looked up: {lookups(url)}")


def hands(database: Path) -> int:
    con = duckdb.connect(str(database), read_only=True)
    try:
        row = con.execute("SELECT count(*) FROM hands").fetchone()
    finally:
        con.close()
    return int(row[0]) if row else -1


@pytest.mark.slow
def test_the_server_runs_the_overview_before_any_browser_and_a_visit_only_hits(
    tmp_path: Path,
) -> None:
    samples = tmp_path / "samples"
    samples.mkdir()
    shutil.copyfile(SAMPLE, samples / SAMPLE.name)
    database, log = tmp_path / "drawlab.duckdb", tmp_path / "server.log"
    with dashboard(database, log, str(samples)) as url:  # a first start: no file yet
        assert server.run_page(url, 180, lambda: False) is True  # the browser imports
        time.sleep(3)
        assert server.connects(url) == 1  # no visit of the server's own
    assert hands(database) == SAMPLE_HANDS
    with dashboard(database, log, str(samples)) as url:  # a later start
        before = visited(url, "site_summary")
        assert {name: before[(name, "miss")] for name in SLOW} == dict.fromkeys(SLOW, 1)
        assert all(before[(name, "hit")] == 0 for name in SLOW)
        assert server.connects(url) == 1  # the server's own visit, no browser yet
        # a browser's first run: the same keys, all cached
        assert server.run_page(url, 180, lambda: False) is True
        after = lookups(url)
        assert server.connects(url) == 2
        assert server.first_visit(url, str(database)) is False  # someone came: no visit
        assert server.connects(url) == 2
    missed = {
        name
        for (name, kind), n in after.items()
        if kind == "miss" and n != before.get((name, "miss"), 0)
    }
    assert missed == set()
    assert {name: after[(name, "hit")] for name in SLOW} == dict.fromkeys(SLOW, 1)
    assert "failed" not in log.read_text()


@pytest.mark.slow
def test_over_an_empty_database_the_visit_reads_it_and_leaves_it_empty(tmp_path: Path) -> None:
    database, log = tmp_path / "drawlab.duckdb", tmp_path / "server.log"
    db.connect(database).close()  # a database, no hands in it
    with dashboard(database, log, "") as url:  # no samples: nothing to import
        seen = visited(url, "filter_options")
        assert server.run_page(url, 180, lambda: False) is True  # and serves a visit
        again = lookups(url)
    assert seen[("filter_options", "miss")] == 1
    assert again[("filter_options", "hit")] == 1
    assert seen.get(("offers", "miss"), 0) == 0  # no hands: no hero, no figures
    assert "failed" not in log.read_text()
    assert hands(database) == 0


def test_a_failed_visit_is_one_line_and_never_raises(caplog: pytest.LogCaptureFixture) -> None:
    port = free_port()  # nobody listens there
    with caplog.at_level(logging.WARNING, logger="drawlab.server"):
        server.start(["run", "app.py", "--server.port", str(port)], ready_seconds=1.0)
    assert [r.getMessage() for r in caplog.records if r.name == "drawlab.server"] == [
        "DrawLab: the overview's first run before any browser failed (TimeoutError: "
        f"http://127.0.0.1:{port} did not answer in 1 s); the first visit will run it."
    ]


def test_the_address_visited_is_the_one_served() -> None:
    assert (
        server.address(["run", "app.py", "--server.address", "127.0.0.1", "--server.port", "8600"])
        == "http://127.0.0.1:8600"
    )
    assert (
        server.address(["run", "app.py", "--server.address", "0.0.0.0", "--server.port", "9"])
        == "http://127.0.0.1:9"
    )
    assert server.address(["run", "app.py", "--server.address", "::"]) == "http://[::1]:8501"
    assert server.address(["run", "app.py"]) == "http://127.0.0.1:8501"


def test_first_runs_at_once_over_a_new_file_all_get_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server's visit and a browser's first run at once: both used to create the new
    file's tables, and DuckDB refused the second (a write-write conflict on the page)."""
    monkeypatch.setenv("DRAWLAB_DB", str(tmp_path / "new.duckdb"))
    monkeypatch.setenv("DRAWLAB_SAMPLES", "")
    start = threading.Barrier(4)
    got: list[state.Shared] = []
    failed: list[BaseException] = []

    def first_run() -> None:
        start.wait()
        try:
            got.append(state.shared())
        except BaseException as exc:  # the test reports it
            failed.append(exc)

    runs = [threading.Thread(target=first_run) for _ in range(4)]
    for run in runs:
        run.start()
    for run in runs:
        run.join()
    assert failed == []
    assert len(got) == 4 and len({id(s) for s in got}) == 1
    assert hands(tmp_path / "new.duckdb") == 0


@pytest.mark.slow  # over 1.5 s: make test runs it
def test_a_run_waiting_for_another_first_open_says_why_each_reason_once() -> None:
    """A second tab (or a browser come during the server's own visit) waits for the open
    under way, showing first that another window opens the file, then that open's refill
    notice once it is given (an older file: minutes), each once; then it has the lock."""
    path, notice = "/tmp/older.duckdb", "Updating this database's statistics: once"
    shown: list[str] = []
    assert state._opening.acquire(timeout=5)
    holder_done = threading.Event()

    def the_other_open() -> None:  # the session making the first open
        time.sleep(4 * state.WAIT_POLL)
        state._busy[path] = notice
        time.sleep(4 * state.WAIT_POLL)
        state._busy.pop(path)
        state._opening.release()
        holder_done.set()

    other = threading.Thread(target=the_other_open)
    other.start()
    state.await_opening(path, shown.append)
    try:
        assert holder_done.is_set()
        assert shown == [state.OPENING, notice]
    finally:
        state._opening.release()
        other.join()
