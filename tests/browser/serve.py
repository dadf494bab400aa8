"""The dashboard served for a real browser: one start-up and stop for the browser tests
and the browser benchmark (``benchmarks/bench_browser.py``).

Started as a user starts it, ``drawlab app`` (``cli.py app``), on a free loopback port
over the database named, its output to a log; ``root`` is the folder whose ``cli.py`` and
``app.py`` are served (the benchmark serves an untouched copy of another commit to compare
with, started its own way).
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.paths import REPOSITORY

CHROMIUM = os.environ.get("DRAWLAB_CHROMIUM", "/usr/bin/chromium")
SETTLE_MS = 60_000
# the app's run state, as Streamlit's own browser tests read it: "initial" before the
# first run, "running" or "rerunRequested" while one is under way, "notRunning" after
APP = '[data-testid="stApp"]'
RUN_STATE = "data-test-script-state"
# what a finished run may still show for a moment: an element of the run before, a spinner
BUSY = '[data-stale="true"], [data-testid="stSpinner"], [data-testid="stSkeleton"]'
# an action's rerun request may leave a moment after the action (a debounced widget, a
# keyboard shortcut): time for it to be sent before the run state is read
REQUEST_MS = 300


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_healthy(url: str, proc: subprocess.Popen[bytes], seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"streamlit did not answer {url}/_stcore/health in {seconds}s")


@contextlib.contextmanager
def dashboard(
    database: Path,
    log: Path,
    samples: str = "",
    root: Path = REPOSITORY,
    port: int | None = None,
) -> Iterator[str]:
    """The dashboard of ``root`` served over ``database`` (its output in ``log``) on
    ``port``, a free one by default, its address while the block runs, stopped after it:
    one way for every browser test and the browser benchmark (``drawlab app`` replaces
    its process by the server, so stopping the process stops the server)."""
    env = dict(os.environ, DRAWLAB_SAMPLES=samples)
    port = port or free_port()
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, str(root / "cli.py"), "app", "--db", str(database),
             "--port", str(port)],
            cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        try:
            wait_healthy(url, proc)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()


def settle(page: Page) -> None:
    """Wait until the script run the last action started (or the page's first run) is
    over and its elements drawn.  The status widget cannot say so: ``toolbarMode =
    "minimal"`` never draws it, and a test waiting on it picked a tag in the replayer while
    the page's first run was still under way; the app's run state on ``stApp`` is what the
    frontend itself goes by."""
    page.wait_for_timeout(REQUEST_MS)
    expect(page.locator(APP)).to_have_attribute(RUN_STATE, "notRunning", timeout=SETTLE_MS)
    expect(page.locator(BUSY)).to_have_count(0, timeout=SETTLE_MS)
