"""A real headless Chromium answers a "which hand wins" drill with wild cards.

The same server and browser as tests/browser/test_end_to_end.py.  The page is switched to the
"High, wild cards" game; the wild cards are read from the question's caption and the hands
from the card tiles (``Jk`` a joker: the first on the screen is card 52, the next 53); the
engine names the winners, the browser ticks them and answers, and the page must say it was
right and show the made hands.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from engine.cards import JOKER_TEXT, JOKERS, RANK_CHARS
from engine.sim.scoring import WILD_WORDS
from engine.wild import Wild, describe_high, wild_cards, winners_high
from tests.browser.test_end_to_end import _settle, _shot, browser, server  # noqa: F401  (fixtures)
from ui.cards import SUIT_SYMBOLS

pytestmark = pytest.mark.browser


def wild_hands(page: Page, tries: int = 100) -> list[tuple[int, ...]]:
    """The hands on the screen once drawn whole (read twice alike, five cards a hand, one
    per "Wins" box), jokers numbered in screen order."""
    last: list[tuple[int, ...]] = []
    for _ in range(tries):
        jokers = iter(JOKERS)
        hands = []
        groups = page.locator("[data-testid=stMain] .dl-cards")
        for g in range(groups.count()):
            tiles = groups.nth(g).locator(".dl-card")
            cards = []
            for t in range(tiles.count()):
                text = tiles.nth(t).inner_text().strip()
                if text == JOKER_TEXT:
                    cards.append(next(jokers))
                else:
                    cards.append(RANK_CHARS.index(text[0]) * 4 + SUIT_SYMBOLS.index(text[1]))
            hands.append(tuple(cards))
        boxes = page.get_by_test_id("stCheckbox").filter(has_text="Wins").count()
        if hands and hands == last and len(hands) == boxes and all(len(h) == 5 for h in hands):
            return hands
        last = hands
        page.wait_for_timeout(200)
    return last


def the_wild_cards(page: Page) -> Wild:
    caption = page.get_by_test_id("stCaptionContainer").filter(has_text="wild").first
    text = caption.inner_text()
    found = [w for w, words in WILD_WORDS.items() if f"High, {words}:" in text]
    assert len(found) == 1, text
    return found[0]


def test_answering_a_wild_card_drill(server: str, browser: BrowserContext) -> None:  # noqa: F811
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/drills")
    expect(page.get_by_role("heading", name="Drills")).to_be_visible()
    _settle(page)
    page.locator(".st-key-drill_game_showdown").click()
    page.get_by_role("option", name="High, wild cards", exact=True).click()
    _settle(page)

    wild = the_wild_cards(page)
    hands = wild_hands(page)
    assert 2 <= len(hands) <= 6
    assert sum(c in JOKERS for h in hands for c in h) <= (2 if wild is Wild.TWO_JOKERS else
                                                          1 if wild is Wild.JOKER else 0)
    gold = page.locator("[data-testid=stMain] .dl-cards .dl-wild")
    expect(gold).to_have_count(sum(c in wild_cards(wild) for h in hands for c in h))
    boxes = page.get_by_test_id("stCheckbox").filter(has_text="Wins")
    for i in winners_high(hands, wild):
        boxes.nth(i).click()
        _settle(page)
    page.get_by_role("button", name="Answer").click()
    _settle(page)
    expect(page.get_by_test_id("stAlertContentSuccess")).to_contain_text(
        re.compile(r"Right · \+1[05] points · streak 1")
    )
    for i, hand in enumerate(hands):
        line = page.get_by_test_id("stText").filter(has_text=f"Hand {i + 1}: ")
        expect(line.first).to_contain_text(describe_high(hand, wild))
    _shot(page, "drills-wild")
    assert errors == []
