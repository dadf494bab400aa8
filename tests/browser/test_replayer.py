"""The Replayer's table picture in a real headless Chromium: seats, bets, pot, winners, and
player names carrying markup and script that stay text.

Reuses the server and browser fixtures of ``tests/browser/test_end_to_end.py`` (the dashboard on a
fresh database).  The hands are uploaded on the Import page, then opened by id.  The
screenshot of a settled hand is the README's ``docs/screenshots/replayer-table.png``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.app_support import HOSTILE_HAND_ID, HOSTILE_NAMES, STARS_TRIPLE, hostile_history
from tests.browser.test_end_to_end import (  # noqa: F401  (fixtures)
    _settle,
    _shot,
    _upload,
    browser,
    server,
)

pytestmark = pytest.mark.browser


def _open(page: Page, url: str, hand_id: str) -> None:
    page.goto(f"{url}/replayer")
    expect(page.get_by_role("heading", name="Replayer")).to_be_visible()
    page.get_by_text("Search by id").click()
    _settle(page)
    page.get_by_label("Hand id").fill(hand_id)
    page.get_by_label("Hand id").press("Enter")
    _settle(page)
    expect(page.locator(".dl-table")).to_be_visible()


def _end(page: Page) -> None:
    page.locator(".st-key-b_end button").first.click()
    _settle(page)


def test_the_table_picture_in_the_browser(server: str, browser: BrowserContext) -> None:  # noqa: F811
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/import")
    expect(page.get_by_role("heading", name="Import hand histories")).to_be_visible()
    _upload(page, [("triple.txt", STARS_TRIPLE.read_bytes()),
                   ("hostile.txt", hostile_history().encode())])

    # step 0: the blinds in front of their seats, the pot they make in the middle
    _open(page, server, "63845186378")
    table = page.locator(".dl-table")
    expect(page.get_by_test_id("stText").first).to_have_text("the forced bets are posted")
    expect(table.locator(".dl-seat")).to_have_count(5)
    expect(table.locator(".dl-pot")).to_have_text("Pot 0.15")
    expect(table.locator(".dl-bet")).to_have_text(["0.05", "0.10"])
    expect(table.locator(".dl-button")).to_have_count(1)
    expect(table.locator(".dl-seat[data-seat='2'] .dl-card")).to_have_count(5)  # the hero's
    expect(table.locator(".dl-seat[data-seat='3'] .dl-card-back")).to_have_count(5)

    # the end: the winner's stack holds the pot, outlined, the pot empty, the rake apart
    _end(page)
    expect(page.get_by_test_id("stText").first).to_have_text(
        "the pots are settled: main pot 1.35 to Player1; rake 0.06")
    winner = table.locator(".dl-seat[data-seat='1']")
    expect(winner.locator(".dl-seat-stack")).to_have_text("stack 5.05")
    expect(winner).to_contain_text("wins 1.29")
    expect(table.locator(".dl-bet")).to_have_count(0)
    expect(table.locator(".dl-pot")).to_contain_text("Pot 0.00")  # the rake is no pot
    expect(table.locator(".dl-rake")).to_have_text("rake 0.06")
    table.evaluate("e => e.scrollIntoView({block: 'center'})")  # the whole picture in view
    _shot(page, "replayer-table", readme=True)

    # hostile names: each one the text of its seat, never a link, an element or a script
    _open(page, server, HOSTILE_HAND_ID)
    _end(page)
    names = page.locator(".dl-table .dl-seat-name")
    expect(names).to_have_count(5)
    shown = set(names.all_inner_texts())
    assert set(HOSTILE_NAMES.values()) <= shown
    for evil in HOSTILE_NAMES.values():
        expect(page.locator(".dl-seat", has_text=evil)).to_have_count(1)
    main = page.locator("[data-testid=stMain]")
    expect(main.locator("img[src=x]")).to_have_count(0)
    expect(main.locator("script")).to_have_count(0)
    expect(main.locator("a[href*='evil.example']")).to_have_count(0)
    expect(main.locator("b, strong", has_text="bold")).to_have_count(0)
    assert page.evaluate("typeof window.pwned") == "undefined"
    _shot(page, "replayer-hostile-names")
    assert errors == []


def test_the_step_controls_and_the_table_share_a_1280x720_screen(
    server: str, browser: BrowserContext  # noqa: F811
) -> None:
    page = browser.new_page()
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{server}/import")
    expect(page.get_by_role("heading", name="Import hand histories")).to_be_visible()
    _upload(page, [("triple.txt", STARS_TRIPLE.read_bytes())])
    _open(page, server, "63845186378")
    buttons = page.locator(".st-key-b_start")
    buttons.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)
    top = buttons.bounding_box()
    table = page.locator(".dl-table").bounding_box()
    assert top is not None and table is not None
    assert top["y"] >= 0  # the controls in view, and the whole table below them
    assert table["y"] + table["height"] <= 720, (top, table)
    page.close()
