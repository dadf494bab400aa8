"""A real headless Chromium opens the Tournaments page on the corpus's summaries and the
2-7 single-draw sit-and-go's hands, and goes from a tournament to its hands in the replayer."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import BrowserContext, expect

from analysis.pipeline.importer import import_paths
from analysis.storage import db
from tests.browser.test_end_to_end import (  # noqa: F401  (fixtures)
    ROOT,
    _settle,
    _shot,
    _wait_healthy,
    browser,
    dashboard,
)
from tests.corpus import CORPUS

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def tournaments_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    home = tmp_path_factory.mktemp("tournaments")
    con = db.connect(home / "drawlab.duckdb")
    try:
        import_paths(con, [CORPUS.parent / "summaries", CORPUS / "summaries",
                           CORPUS / "tour" / "Stars" / "Draw"], workers=0)
    finally:
        con.close()
    with dashboard(home / "drawlab.duckdb", home / "streamlit.log") as url:
        yield url


def test_the_tournaments_page_in_the_browser(
    tournaments_server: str, browser: BrowserContext  # noqa: F811
) -> None:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{tournaments_server}/tournaments")
    expect(page.get_by_role("heading", name="Tournaments").first).to_be_visible()
    _settle(page)
    net = page.get_by_test_id("stMetric").filter(has_text="Net")
    expect(net).to_contain_text("-$3,285.77")
    expect(page.get_by_test_id("stMetric").filter(has_text="Tournaments")).to_contain_text("14")
    expect(page.get_by_test_id("stPlotlyChart")).to_have_count(2)
    expect(page.get_by_role("heading", name="By buy-in")).to_be_visible()
    _shot(page, "tournaments", readme=True)
    player = page.get_by_role("textbox", name="Player")
    player.fill("Hero")
    player.press("Enter")
    _settle(page)
    expect(page.get_by_test_id("stMetric").filter(has_text="Tournaments")).to_contain_text("9")
    # the sit-and-go with its hands stored: pick it, open its hands
    page.get_by_test_id("stSelectbox").filter(has_text="Tournament").last.click()
    page.keyboard.type("476454368")  # the list is long: typing narrows it
    page.get_by_role("option", name="PokerStars #476454368").click()
    _settle(page)
    page.get_by_role("button", name="Open its 1 hands in the replayer").click()
    expect(page.get_by_role("heading", name="Replayer")).to_be_visible(timeout=20_000)
    assert not errors
