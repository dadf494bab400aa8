"""A real headless Chromium opens a hand by its address (the replayer's URL names the hand
and step, and follows the steps taken), and deletes a file's hands from the Import page (the
confirmation says how many go, nothing goes before the second click)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, expect

from analysis.storage import db
from tests.app_support import KINGS_RIT, imported_one_by_one
from tests.browser.test_end_to_end import (  # noqa: F401  (fixtures)
    ROOT,
    _settle,
    _shot,
    browser,
    dashboard,
)

pytestmark = pytest.mark.browser

CASH = ROOT / "sample_histories" / "pokerstars" / "27_triple_draw_fl_0.50-1_headsup.txt"


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("share_delete")
    return imported_one_by_one(home / "drawlab.duckdb", (CASH, KINGS_RIT))


@pytest.fixture(scope="module")
def server(database: Path) -> Iterator[str]:
    with dashboard(database, database.parent / "streamlit.log") as url:
        yield url


def _hands_of(database: Path, file: Path) -> int:
    con = db.connect(database, read_only=True, wait=10)
    try:
        row = con.execute("SELECT count(*) FROM hands WHERE file = ?", [str(file)]).fetchall()
    finally:
        con.close()
    return int(row[0][0])


def test_an_address_opens_its_hand_at_its_step_and_follows_the_steps(
    server: str,
    browser: BrowserContext,  # noqa: F811
) -> None:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/replayer?hand=kingsclub%3A3857875&step=6")
    expect(page.get_by_role("heading", name="Replayer")).to_be_visible()
    _settle(page)
    expect(page.get_by_text("Step 6 of 17", exact=False)).to_be_visible()
    expect(page.get_by_test_id("stText").filter(has_text="Hero calls 7,800")).to_be_visible()
    page.get_by_role("button", name="Next").click()
    _settle(page)
    expect(page.get_by_text("Step 7 of 17", exact=False)).to_be_visible()
    page.wait_for_url(re.compile(r"/replayer\?hand=kingsclub%3A3857875&step=7$"))
    page.get_by_text("Copy hand").click()
    copy = page.get_by_test_id("stExpander").filter(has_text="Copy hand")
    expect(copy.get_by_test_id("stCode").first).to_contain_text(
        "/replayer?hand=kingsclub%3A3857875&step=7"
    )
    _shot(page, "replayer-address")
    assert not errors


def test_deleting_a_file_asks_with_its_count_then_deletes(
    server: str,
    database: Path,
    browser: BrowserContext,  # noqa: F811
) -> None:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/import")
    expect(page.get_by_role("heading", name="Delete hands")).to_be_visible()
    _settle(page)
    page.get_by_text("A file", exact=True).click()
    _settle(page)
    page.get_by_test_id("stSelectbox").filter(has_text="Which").click()
    page.get_by_role("option", name=f"{CASH} — 300 hands").click()
    _settle(page)
    page.get_by_role("button", name="Delete…").click()
    _settle(page)
    warning = page.get_by_test_id("stAlert").filter(has_text="This deletes")
    expect(warning).to_contain_text(  # after the icon's name
        "This deletes 300 hands and everything stored of them. It cannot be undone."
    )
    expect(page.get_by_text(f"300 hands of the file {CASH}", exact=True)).to_be_visible()
    _shot(page, "delete-confirmation")
    assert _hands_of(database, CASH) == 300  # asked, not yet deleted
    page.get_by_role("button", name="Yes, delete 300 hands").click()
    _settle(page)
    expect(page.get_by_test_id("stAlert").filter(has_text="Deleted")).to_contain_text(
        "Deleted 300 hands."
    )
    expect(page.get_by_role("button", name="Yes, delete 300 hands")).to_have_count(0)
    assert _hands_of(database, CASH) == 0
    assert not errors
