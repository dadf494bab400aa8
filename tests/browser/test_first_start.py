"""The first start and every later one show words at once (issue 34, item 5): in a real
headless Chromium, the app's own first message ("Starting DrawLab…", then the database
being opened and, on a first start, the samples imported) is on the page within a second
of the Streamlit frontend's start, never a blank page while the imports and the first
read run.

What comes before that second is Streamlit's: the page's first response, then its
frontend's script loaded and started (that part is printed, not asserted: it is the
browser's work on the bundle, the same for any Streamlit app on this machine).
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.test_end_to_end import (  # noqa: F401  (fixture)
    SAMPLE,
    browser,
    dashboard,
)

pytestmark = pytest.mark.browser

WITHIN = 1.0  # seconds from the frontend's start to the app's first words
FIRST_WORDS = """() => {
    const main = document.querySelector('[data-testid="stMain"]');
    return main !== null && /Starting DrawLab…|Opening the database|Overview/.test(main.innerText);
}"""


def _waits(page: Page, url: str) -> tuple[float, float]:
    """Seconds from the first response to the frontend's start, and from there to the
    app's first words (both timed to 20 ms)."""
    page.goto(url, wait_until="commit")  # returns at the first response
    first = time.monotonic()
    page.wait_for_selector('[data-testid="stApp"]', state="attached")
    started = time.monotonic()
    page.wait_for_function(FIRST_WORDS, polling=20, timeout=10_000)
    return started - first, time.monotonic() - started


def test_the_first_start_and_a_later_one_show_words_within_a_second(
    browser: BrowserContext, tmp_path: Path,  # noqa: F811
) -> None:
    samples = tmp_path / "samples"
    samples.mkdir()
    shutil.copyfile(SAMPLE, samples / SAMPLE.name)
    # the best of two rounds, each on a new database: the machine running the suite is
    # shared, and a blank app (the imports and the first read before any word) is blank
    # in both, where a busy moment is not
    waited: dict[str, list[float]] = {"first": [], "later": []}
    for round_ in range(2):
        database = tmp_path / f"drawlab{round_}.duckdb"  # empty: the first start imports
        for start in ("first", "later"):
            log = tmp_path / f"{start}{round_}.log"
            with dashboard(database, log, str(samples)) as url:
                page = browser.new_page()
                frontend, words = _waits(page, url)
                print(f"{start} start: frontend {frontend:.2f} s, then words {words:.2f} s")
                waited[start].append(words)
                # and the page does come, over the samples the first start imported
                expect(page.get_by_text("bundled sample hands").first).to_be_visible(
                    timeout=120_000)
                page.close()
    for start, words in waited.items():
        assert min(words) <= WITHIN, f"{start} start: {min(words):.2f} s of a blank app"
