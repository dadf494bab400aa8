"""A real headless Chromium answers Badugi drills on the Drills page: what to draw (a hand
set up on the page, scored exactly by equity) and which Badugi wins (read off the tiles).

Reuses the server and browser fixtures of ``tests/browser/test_end_to_end.py``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, expect

from engine.ranking import Ranking, winners
from tests.browser.test_drills import hands_on_screen
from tests.browser.test_end_to_end import _settle, _shot, browser, server  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser


def test_a_badugi_draw_is_answered_in_the_browser(server: str, browser: BrowserContext) -> None:  # noqa: F811
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/drills")
    expect(page.get_by_role("heading", name="Drills")).to_be_visible()
    _settle(page)
    page.get_by_text("What to draw", exact=True).click()
    _settle(page)
    page.get_by_test_id("stSelectbox").filter(has_text="Game").first.click()
    page.get_by_role("option", name="Badugi", exact=True).click()
    _settle(page)
    expect(page.get_by_text(re.compile(r"^Badugi · \d draws? left · against"))).to_be_visible()
    expect(page.get_by_test_id("stCheckbox").filter(has_text="Throw")).to_have_count(4)

    page.get_by_text("Set up a hand of your own").click()
    page.get_by_label("Your four cards").fill("2c 3d 4h 4s")
    page.get_by_label("Pat hand to beat (optional)").fill("Kc Qd Jh Ts")
    page.get_by_role("button", name="Drill this hand").click()
    _settle(page)
    expect(page.get_by_text("Badugi · 1 draw left · against a pat hand (shown below)",
                            exact=False)).to_be_visible()  # fmt: skip
    throw = page.get_by_test_id("stCheckbox").filter(has_text="Throw 4♠")
    for _ in range(3):  # a click on the last question's box, lingering in a redraw, is lost
        expect(throw).to_have_count(1)
        if throw.get_by_role("checkbox").is_checked():
            break
        throw.click()
        _settle(page)
    expect(throw.get_by_role("checkbox")).to_be_checked()
    page.get_by_role("button", name="Draw").click()
    _settle(page)
    expect(page.get_by_test_id("stAlertContentSuccess")).to_contain_text(
        re.compile(r"Right · \+\d+ points · streak 1")
    )
    expect(page.get_by_text("Best: keep 2♣ 3♦ 4♥, draw 1 (20.5% of the pot)")).to_be_visible()
    why = re.compile(r"^Keep 2♣ 3♦ 4♥, draw 1: 9 of the 44 unseen cards beat the pat "
                     r"K♣ Q♦ J♥ T♠ \(4-card K-high badugi\)")
    expect(page.get_by_text(why)).to_be_visible()
    _shot(page, "drills-badugi-draw")
    assert errors == []


def test_which_badugi_wins_is_answered_in_the_browser(server: str, browser: BrowserContext) -> None:  # noqa: F811
    page = browser.new_page()
    page.goto(f"{server}/drills")
    expect(page.get_by_role("heading", name="Drills")).to_be_visible()
    _settle(page)
    page.get_by_text("Which hand wins", exact=True).click()
    _settle(page)
    page.get_by_test_id("stSelectbox").filter(has_text="Game").first.click()
    page.get_by_role("option", name="Badugi", exact=True).click()
    _settle(page)
    hands = hands_on_screen(page, size=4)
    assert 2 <= len(hands) <= 6 and all(len(h) == 4 for h in hands)
    boxes = page.get_by_test_id("stCheckbox").filter(has_text="Wins")
    for i in winners(hands, Ranking.BADUGI):
        boxes.nth(i).click()
        _settle(page)
    page.get_by_role("button", name="Answer").click()
    _settle(page)
    expect(page.get_by_test_id("stAlertContentSuccess")).to_contain_text(
        re.compile(r"Right · \+\d+ points · streak 1")
    )
