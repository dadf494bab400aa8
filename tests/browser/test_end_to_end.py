"""End to end in a real headless Chromium: the dashboard as a user drives it.

Starts ``streamlit run app.py`` on a free loopback port over a fresh database, then with
Debian's ``chromium`` (``make browser`` installs it; a missing browser fails the test, it
is not skipped) uploads corpus files, reads the counts, replays a hand to its showdown,
checks that player names carrying links, markup and script show as plain text, and
answers a "which hand wins" drill with the winners our own ranking picks.
Screenshots go to ``test-artifacts/``; with ``DRAWLAB_README_SHOTS=1`` (``make screenshots``)
one per page also refreshes ``docs/screenshots/`` for the README, so a plain test run
leaves the tracked pictures alone.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, expect, sync_playwright

from analysis.pipeline.importer import import_bytes
from analysis.replayer.steps import ViewStep, hand_view
from analysis.statistics import figures as stats
from analysis.storage import db
from analysis.storage.filters import Filters
from engine.cards import RANK_CHARS, make_card
from engine.ranking import Ranking, winners
from engine.record import Hand
from parser.reader import read_path
from tests.app_support import (
    HOSTILE_HAND_ID,
    HOSTILE_NAMES,
    KINGS_RIT,
    ROOT,
    STARS,
    STARS_TRIPLE,
    hostile_history,
)
from tests.browser.serve import CHROMIUM, dashboard
from tests.browser.serve import free_port as _free_port  # noqa: F401  (the other tests')
from tests.browser.serve import settle as _settle  # the other tests' too
from tests.browser.serve import wait_healthy as _wait_healthy  # noqa: F401  (the other tests')
from ui.cards import SUIT_SYMBOLS

pytestmark = pytest.mark.browser

ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = ROOT / "test-artifacts"
SCREENSHOTS = ROOT / "docs" / "screenshots"
TIMEOUT_MS = 60_000
SAMPLE = ROOT / "sample_histories" / "pokerstars" / "27_triple_draw_fl_0.10-0.20_6max.txt"
SAMPLE_HANDS = 900  # dealt hands in that file, the hero in every one
expect.set_options(timeout=TIMEOUT_MS)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The dashboard on a fresh database; its first start imports one bundled sample file."""
    home = tmp_path_factory.mktemp("dash")
    samples = home / "samples"
    samples.mkdir()
    shutil.copyfile(SAMPLE, samples / SAMPLE.name)
    try:
        with dashboard(home / "drawlab.duckdb", home / "streamlit.log", str(samples)) as url:
            yield url  # the first start imports the one sample file (a smaller first start)
    finally:
        shutil.copyfile(home / "streamlit.log", _artifact("streamlit.log"))


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserContext]:
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} missing: run `make browser`"
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True, args=ARGS,
            viewport={"width": 1400, "height": 1000},
        )
        ctx.set_default_timeout(TIMEOUT_MS)
        try:
            yield ctx
        finally:
            ctx.close()


def _artifact(name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / name


def _shot(page: Page, name: str, readme: bool = False) -> None:
    page.mouse.move(0, 0)  # no hover tooltip in the picture
    _settle(page)
    page.wait_for_timeout(800)  # let charts finish their transition
    page.screenshot(path=_artifact(f"{name}.png"), full_page=True)
    if readme and os.environ.get("DRAWLAB_README_SHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SCREENSHOTS / f"{name}.png", full_page=False)


def _stars_zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for p in sorted(STARS.glob("*.txt")):
            z.writestr(p.name, p.read_bytes())
    return buf.getvalue()


def _hero_hands(files: list[tuple[str, bytes]]) -> int:
    """Hands "Hero" is dealt into at PokerStars in USD cash in ``files``, those with errors
    left out (the overview's default view after these uploads), by an import of our own
    in memory."""
    con = db.connect(db.MEMORY)
    for name, data in files:
        import_bytes(con, name, data)
    return stats.results(con, "Hero", Filters(site="pokerstars", currency="USD",
                                              tournament=False, valid_only=True)).hands


def _added(files: list[tuple[str, bytes]]) -> int:
    """New hands an import of ``files`` adds, by an import of our own in memory."""
    con = db.connect(db.MEMORY)
    return sum(import_bytes(con, name, data).added for name, data in files)


def _states(path: Path) -> tuple[ViewStep, ...]:
    """The replayer's steps of the single hand in ``path``: the oracle of the steps."""
    [(_, hand)] = list(read_path(path))
    assert isinstance(hand, Hand)
    return hand_view(hand).steps


def _tile_cards(where: Locator) -> tuple[int, ...]:
    """The cards a block shows as tiles, read back from their rank letter and suit symbol."""
    out = []
    for label in where.locator(".dl-card").all_inner_texts():
        rank, suit = label.strip()[0], label.strip()[1]
        out.append(make_card(RANK_CHARS.index(rank), SUIT_SYMBOLS.index(suit)))
    return tuple(out)


def _upload(page: Page, files: list[tuple[str, bytes]]) -> None:
    page.locator("input[type=file]").set_input_files(
        [{"name": n, "mimeType": "text/plain", "buffer": b} for n, b in files]
    )
    button = page.get_by_role("button", name="Import", exact=True)
    for name, _ in files:
        expect(page.get_by_text(name, exact=True).first).to_be_visible()
    expect(button).to_be_enabled()
    button.click()
    _settle(page)


def test_dashboard_end_to_end(server: str, browser: BrowserContext) -> None:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    # the first start imported the sample: the overview shows the hero's hands
    page.goto(f"{server}/")
    hands = page.get_by_test_id("stMetric").filter(has_text="Hands").first
    expect(hands).to_contain_text(f"{SAMPLE_HANDS:,}")
    expect(page.locator(".js-plotly-plot")).to_have_count(1)  # one chart at a time
    _shot(page, "overview", readme=True)

    # import: a zip of PokerStars files, a single invalid hand, and hostile names
    page.goto(f"{server}/import")
    expect(page.get_by_role("heading", name="Import hand histories")).to_be_visible()
    uploads = [("stars.zip", _stars_zip()), ("rit.txt", KINGS_RIT.read_bytes()),
               ("hostile.txt", hostile_history().encode())]
    _upload(page, uploads)
    texts = page.get_by_test_id("stText")
    expect(texts.filter(has_text="already in the database")).to_have_text(
        f"3 files: {_added(uploads)} new hands added, 0 already in the database."
    )
    expect(page.get_by_text("Hands that failed")).to_be_visible()
    expect(page.get_by_test_id("stCode").first).to_contain_text("Hero")
    _shot(page, "import", readme=True)

    # the same file again, in a new session, adds nothing
    page.goto(f"{server}/import")
    expect(page.get_by_role("heading", name="Import hand histories")).to_be_visible()
    _upload(page, [("rit.txt", KINGS_RIT.read_bytes())])
    expect(texts.filter(has_text="already in the database")).to_have_text(
        "1 file: 0 new hands added, 1 already in the database."
    )
    _shot(page, "import-again")

    # overview with the imported hands
    page.goto(f"{server}/")
    expect(page.get_by_role("heading", name="Overview & statistics")).to_be_visible()
    # the user's own hands alone: the samples are kept apart, never added in
    expect(hands).to_have_text(re.compile(rf"Hands\s*{_hero_hands(uploads):,}$"))
    expect(page.locator(".js-plotly-plot")).to_have_count(1)  # one chart at a time
    _shot(page, "overview-after-import")

    # replayer: find the triple-draw sample by id and step to its showdown
    page.goto(f"{server}/replayer")
    expect(page.get_by_role("heading", name="Replayer")).to_be_visible()
    page.get_by_text("Search by id").click()
    _settle(page)
    page.get_by_label("Hand id").fill("63845186378")
    page.get_by_label("Hand id").press("Enter")
    _settle(page)
    step_text = page.get_by_test_id("stText").first
    expect(step_text).to_have_text("the forced bets are posted")
    states = _states(STARS_TRIPLE)
    showdown = next(i for i, s in enumerate(states) if " shows " in s.text)
    last = len(states) - 1
    for i in range(1, showdown + 1):
        page.locator(".st-key-b_next button").first.click()
        expect(page.get_by_text(f"Step {i} of {last} · source line {states[i].line}",
                                exact=True)).to_be_visible()
    expect(step_text).to_have_text(states[showdown].text)
    assert states[showdown].text == "Player3 shows 7d 2s 8d 5h 5c"
    expect(page.locator(".dl-card").first).to_be_visible()
    _shot(page, "replayer", readme=True)

    # hostile names: shown as text, never as a link, an element or a script
    page.get_by_label("Hand id").fill(HOSTILE_HAND_ID)
    page.get_by_label("Hand id").press("Enter")
    _settle(page)
    page.locator(".st-key-b_end button").first.click()
    _settle(page)
    for name in HOSTILE_NAMES.values():
        expect(page.get_by_test_id("stText").filter(has_text=name).first).to_be_visible()
    page.get_by_text("Original text").click()
    expect(page.get_by_test_id("stCode").last).to_contain_text(HOSTILE_NAMES["Player1"])
    app = page.locator("[data-testid=stMain]")
    expect(app.locator("a[href*='evil.example']")).to_have_count(0)
    expect(app.locator("script")).to_have_count(0)
    expect(app.locator("img[src=x]")).to_have_count(0)
    expect(app.locator("b", has_text="bold")).to_have_count(0)
    assert page.evaluate("typeof window.pwned") == "undefined"
    _shot(page, "hostile-names")

    # a hostile name as the hero: named in plain text, the figures are its own
    link_name = HOSTILE_NAMES["Player1"]
    page.goto(f"{server}/")
    page.locator(".st-key-hero input").click()
    page.keyboard.type("evil")
    page.get_by_role("option", name=f"{link_name} · PokerStars", exact=True).click()
    _settle(page)
    caption = page.get_by_test_id("stText").filter(has_text="Showing")
    expect(caption).to_contain_text(f"Showing {link_name} at PokerStars over")
    app = page.locator("[data-testid=stMain]")
    expect(app.locator("a[href*='evil.example']")).to_have_count(0)
    expect(page.get_by_test_id("stMetric").filter(has_text="Hands").first).to_contain_text("1")
    _shot(page, "hostile-hero")
    assert page.evaluate("typeof window.pwned") == "undefined"

    # a drill: tick exactly the hands our own ranking says win, and be told it is right
    page.goto(f"{server}/drills")
    expect(page.get_by_role("heading", name="Drills")).to_be_visible()
    boxes = page.get_by_role("checkbox", name="Wins")
    expect(boxes.first).to_be_visible()
    _settle(page)  # the question's hands appear one column at a time: count them all
    columns = page.get_by_test_id("stColumn").filter(has=page.get_by_text("Wins", exact=True))
    expect(columns).to_have_count(boxes.count())
    hands = [_tile_cards(columns.nth(i)) for i in range(columns.count())]
    assert len(hands) == boxes.count() >= 2
    for i in winners(hands, Ranking.DEUCE_SEVEN):
        columns.nth(i).get_by_text("Wins", exact=True).click()
        expect(boxes.nth(i)).to_be_checked()
        _settle(page)
    page.get_by_role("button", name="Answer").click()
    _settle(page)
    expect(page.get_by_test_id("stAlertContentSuccess")).to_contain_text("Right")
    _shot(page, "drills-answered")  # the README's drills.png is test_browser_drills.py's
    assert errors == []
