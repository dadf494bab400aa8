"""A real headless Chromium answers a "which hand wins" drill on the Drills page.

Reuses the server and browser fixtures of ``tests/browser/test_end_to_end.py`` (the dashboard on a
fresh database whose first start imports one bundled sample).  The hands are read back from
the card tiles on the screen, the engine names the winners, the browser ticks them and
answers; the page must say it was right and count the points.  The screenshot of the answered
question is the README's ``docs/screenshots/drills.png``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from engine.cards import RANK_CHARS
from engine.ranking import Ranking, winners
from tests.browser.test_end_to_end import _settle, _shot, browser, server  # noqa: F401  (fixtures)
from ui.cards import SUIT_SYMBOLS

pytestmark = pytest.mark.browser


def hands_on_screen(page: Page, tries: int = 100, size: int = 5) -> list[tuple[int, ...]]:
    """The hands as the page draws them, once drawn whole: the same in two reads 0.2 s
    apart, ``size`` cards each (four in Badugi), one per "Wins" box.  (A busy machine may
    still be drawing them when the script run looks finished; reading then gave one column
    of two.)"""
    last: list[tuple[int, ...]] = []
    for _ in range(tries):
        hands = _drawn_hands(page)
        boxes = page.get_by_test_id("stCheckbox").filter(has_text="Wins").count()
        whole = all(len(h) == size for h in hands) and len(hands) == boxes
        if hands and whole and hands == last:
            return hands
        last = hands
        page.wait_for_timeout(200)
    return last


def _drawn_hands(page: Page) -> list[tuple[int, ...]]:
    """One ``.dl-cards`` group of tiles per hand, as the page shows them now."""
    out = []
    groups = page.locator("[data-testid=stMain] .dl-cards")
    for g in range(groups.count()):
        # one read of all the tiles: counting them and then reading each by index failed
        # when a rerun redrew the group in between (waiting on a tile that was gone)
        texts = groups.nth(g).locator(".dl-card").all_inner_texts()
        cards = [RANK_CHARS.index(t.strip()[0]) * 4 + SUIT_SYMBOLS.index(t.strip()[1])
                 for t in texts]  # fmt: skip
        out.append(tuple(cards))
    return out


def test_answering_a_drill_in_the_browser(server: str, browser: BrowserContext) -> None:  # noqa: F811
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/drills")
    expect(page.get_by_role("heading", name="Drills")).to_be_visible()
    _settle(page)
    score = page.get_by_test_id("stMetric").filter(has_text="Score").first
    expect(score).to_contain_text("0")

    hands = hands_on_screen(page)
    assert 2 <= len(hands) <= 6 and all(len(h) == 5 for h in hands)
    boxes = page.get_by_test_id("stCheckbox").filter(has_text="Wins")
    expect(boxes).to_have_count(len(hands))
    for i in winners(hands, Ranking.DEUCE_SEVEN):
        boxes.nth(i).click()
        _settle(page)
    page.get_by_role("button", name="Answer").click()
    _settle(page)
    # 10 points at level 1, 15 within the target time (20 s: a slow machine may miss it)
    expect(page.get_by_test_id("stAlertContentSuccess")).to_contain_text(
        re.compile(r"Right · \+1[05] points · streak 1")
    )
    expect(score).to_contain_text(re.compile(r"1[05]"))
    streak = page.get_by_test_id("stMetric").filter(has_text="Streak").first
    expect(streak).to_contain_text("1")
    expect(page.locator(".js-plotly-plot")).to_have_count(1)
    _shot(page, "drills", readme=True)

    # the next question is a fresh one, with nothing ticked
    page.get_by_role("button", name="Next question").click()
    _settle(page)
    expect(page.get_by_role("button", name="Answer")).to_be_visible()
    fresh = page.get_by_test_id("stCheckbox").filter(has_text="Wins")
    expect(fresh).to_have_count(len(hands_on_screen(page)))
    for i in range(fresh.count()):
        expect(fresh.nth(i).locator("input")).not_to_be_checked()
    assert errors == []
