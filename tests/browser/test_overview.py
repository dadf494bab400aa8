"""The overview in a real headless Chromium, started as a user starts it: ``drawlab app``.

One sample cash file and one sit-and-go file: the overview opens on the cash hands (the
hero's most played money), offers the tournament chips apart, and a click on a bar of
the position chart opens that position's hands in the replayer.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect, sync_playwright

from analysis.pipeline.importer import import_paths
from analysis.statistics import figures as stats
from analysis.storage import db
from analysis.storage.filters import Filters
from tests.app_support import ROOT
from tests.browser.serve import settle as _settle  # test_chrome's too
from tests.ui.test_serve import free_port, listening

pytestmark = pytest.mark.browser

CHROMIUM = os.environ.get("DRAWLAB_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TIMEOUT_MS = 60_000
SAMPLES = ROOT / "sample_histories" / "pokerstars"
CASH = SAMPLES / "27_triple_draw_fl_0.10-0.20_6max.txt"
SIT_AND_GO = SAMPLES / "27_triple_draw_fl_sit_and_go_6max.txt"
ARTIFACTS = ROOT / "test-artifacts"
expect.set_options(timeout=TIMEOUT_MS)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    home = tmp_path_factory.mktemp("overview")
    samples = home / "samples"
    samples.mkdir()
    for path in (CASH, SIT_AND_GO):
        shutil.copyfile(path, samples / path.name)
    port = free_port()
    path = home / "drawlab.duckdb"
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys, cli; sys.exit(cli.main(sys.argv[1:]))", "app",
         "--db", str(path), "--port", str(port)],
        cwd=home, env={**os.environ, "DRAWLAB_SAMPLES": str(samples)},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc)
        yield url, path
    finally:
        assert listening(port) == {"127.0.0.1"}
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise AssertionError(f"the dashboard did not answer at {url}")


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserContext]:
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} missing: run `make browser`"
    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("profile")), executable_path=CHROMIUM, headless=True,
            args=ARGS, viewport={"width": 1400, "height": 1000},
        )
        ctx.set_default_timeout(TIMEOUT_MS)
        try:
            yield ctx
        finally:
            ctx.close()


def _shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.wait_for_timeout(800)
    page.screenshot(path=ARTIFACTS / f"{name}.png", full_page=True)


def _overview(browser: BrowserContext, url: str) -> tuple[Page, list[str]]:
    """A new tab on the overview, settled, and the list its script errors go to."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url, wait_until="domcontentloaded")
    expect(page.get_by_role("heading", name="Overview & statistics")).to_be_visible()
    _settle(page)
    return page, errors


def test_overview_one_money_kind_and_a_bar_opens_its_hands(
    served: tuple[str, Path], browser: BrowserContext
) -> None:
    url, _ = served
    page, errors = _overview(browser, url)
    hands = page.get_by_test_id("stMetric").filter(has_text="Hands").first
    expect(hands).to_contain_text("900")  # the cash hands only: chips are not added in
    expect(page.get_by_test_id("stText").filter(has_text="Showing")).to_contain_text(
        "Showing Hero at PokerStars over 900 hands")
    expect(page.get_by_role("combobox", name="Money")).to_have_value(
        "Cash games in USD · 900 hands")  # the hero's hands, not the 5,400 players' rows
    _shot(page, "overview-drawlab-app")

    con = db.connect(db.MEMORY)  # the server holds its file: the same import, in memory
    try:
        import_paths(con, [CASH, SIT_AND_GO], workers=0)
        cash = Filters(site="pokerstars", currency="USD", tournament=False)
        positions = stats.by_position(con, "Hero", cash)
        first = str(positions["position"].iloc[0])
        expected = stats.hand_ids(con, "Hero", cash, column="position", value=first)
    finally:
        con.close()

    _chart(page, "Win rate by position")
    bar = page.locator(".st-key-chart_positions .js-plotly-plot g.point path").first
    bar.scroll_into_view_if_needed()
    box = bar.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # plotly's own
    _settle(page)
    expect(page.get_by_role("combobox", name="Hands behind")).to_have_value(
        f"Position {first} ({len(expected):,} hands)")
    page.get_by_role("button", name="Open in the replayer").click()
    _settle(page)
    expect(page.get_by_role("heading", name="Replayer")).to_be_visible()
    assert len(expected) == int(positions["hands"].iloc[0])
    assert errors == []


def _chart(page: Page, name: str) -> None:
    """Pick the chart ``name`` (one is drawn at a time) and let it settle."""
    page.locator(".st-key-chart_shown button").filter(has_text=name).click()
    _settle(page)


def test_one_chart_and_one_group_drawn_another_on_a_click(
    served: tuple[str, Path], browser: BrowserContext
) -> None:
    """One chart at a time (the results by hands first) and one group of statistics:
    each is drawn when picked (a rerun of its fragment), never before."""
    url, _ = served
    page, errors = _overview(browser, url)
    expect(page.locator(".js-plotly-plot")).to_have_count(1)
    expect(page.locator(".st-key-chart_results .js-plotly-plot")).to_have_count(1)
    metrics = page.get_by_test_id("stMetric")
    expect(metrics.filter(has_text="VPIP")).to_have_count(1)
    expect(metrics.filter(has_text="Went to showdown")).to_have_count(0)

    for name, key in (("Results by date", "chart_results_date"),
                      ("Cards drawn", "chart_draws"), ("Final hands", "chart_final")):
        _chart(page, name)
        expect(page.locator(f".st-key-{key} .js-plotly-plot")).to_have_count(1)
        expect(page.locator(".js-plotly-plot")).to_have_count(1)
    page.get_by_role("tab", name="Showdown").click()
    _settle(page)
    expect(metrics.filter(has_text="Went to showdown")).to_have_count(1)
    expect(metrics.filter(has_text="VPIP")).to_have_count(0)
    expect(page.get_by_test_id("stText").filter(has_text="Showing")).to_contain_text(
        "Showing Hero at PokerStars over 900 hands")  # the page around them unchanged
    assert errors == []


def test_the_tables_are_drawn_when_their_section_is_opened(
    served: tuple[str, Path], browser: BrowserContext
) -> None:
    """The statistics open first, no table drawn; a section picked draws its tables
    alone, and stays open through a filter change."""
    url, _ = served
    page, errors = _overview(browser, url)
    grids = page.get_by_test_id("stDataFrame")
    metrics = page.get_by_test_id("stMetric")
    expect(metrics.filter(has_text="VPIP")).to_have_count(1)
    expect(grids).to_have_count(0)
    for name, shown in (("Stakes & sessions", 2), ("Draws", 1), ("Opponents", 1)):
        page.locator(".st-key-details_shown button").filter(has_text=name).click()
        _settle(page)
        expect(grids).to_have_count(shown)
        expect(metrics.filter(has_text="VPIP")).to_have_count(0)
    expect(page.get_by_role("heading", name="Opponents")).to_be_visible()
    page.get_by_role("combobox", name="Position").click()
    page.get_by_role("option", name="BTN", exact=True).click()
    _settle(page)
    expect(page.get_by_role("combobox", name="Position")).to_have_value("BTN")
    expect(grids).to_have_count(1)  # the opponents, under the new filters
    expect(page.get_by_role("heading", name="Opponents")).to_be_visible()
    expect(metrics.filter(has_text="VPIP")).to_have_count(0)
    assert errors == []
