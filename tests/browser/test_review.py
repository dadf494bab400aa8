"""A real headless Chromium opens the Review page on a reviewed database.

Its own server (the shared one of ``tests/browser/test_end_to_end.py`` imports 900 hands,
too many to review in a browser test): dealt hands reviewed beforehand with few trials.  The
page must show the summary, both charts and the costliest spots; the screenshot is the
README's ``docs/screenshots/review.png``.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from playwright.sync_api import BrowserContext, expect

from analysis import review
from analysis.pipeline.importer import import_bytes
from analysis.simulate import simulate
from analysis.storage import db
from engine.record import Game
from tests.browser.test_end_to_end import (  # noqa: F401  (fixtures)
    ROOT,
    _settle,
    _shot,
    _wait_healthy,
    browser,
    dashboard,
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def review_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    home = tmp_path_factory.mktemp("review")
    out = io.StringIO()
    simulate(out, 60, Game.TRIPLE_DRAW_27, 6, 17)
    con = db.connect(home / "drawlab.duckdb")
    try:
        import_bytes(con, "dealt.txt", out.getvalue().encode(), workers=0)
        review.run_review(con, "Hero", workers=1, trials=400)
    finally:
        con.close()
    with dashboard(home / "drawlab.duckdb", home / "streamlit.log") as url:
        yield url


def test_the_review_page_in_the_browser(review_server: str, browser: BrowserContext) -> None:  # noqa: F811
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{review_server}/review")
    expect(page.get_by_role("heading", name="Review")).to_be_visible()
    _settle(page)
    expect(page.get_by_test_id("stMetric").filter(has_text="Draws reviewed")).to_be_visible()
    expect(page.get_by_test_id("stPlotlyChart")).to_have_count(2)
    expect(page.get_by_role("heading", name="The costliest spots")).to_be_visible()
    _shot(page, "review", readme=True)
    assert not errors
