"""The user's notes in a real headless Chromium: tag the hand shown in the replayer and
write its note, find it again by the tag, and see a note on a player (written from a
terminal, ``drawlab note player``) beside him in the HUD."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, expect

from analysis.pipeline.importer import import_paths
from analysis.statistics import live
from analysis.storage import db, memory
from tests.app_support import ROOT
from tests.browser.test_end_to_end import (  # noqa: F401  (fixture)
    SAMPLE,
    _settle,
    _wait_healthy,
    browser,
    dashboard,
)

pytestmark = pytest.mark.browser
NOTE = "<b>check-raises</b> the **second** draw"


@pytest.fixture(name="noted")
def noted_fixture(tmp_path: Path) -> Iterator[tuple[str, Path, str]]:
    """The dashboard on a database of the sample file, and the opponent the HUD lists
    first, whom a terminal gives a note."""
    path = tmp_path / "drawlab.duckdb"
    con = db.connect(path)
    import_paths(con, [SAMPLE], workers=0)
    opponent = str(live.hud(con)[0].players["player"].iloc[0])
    con.close()
    env = {**os.environ, "DRAWLAB_DB": str(path), "DRAWLAB_SAMPLES": ""}
    wrote = subprocess.run(
        [sys.executable, str(ROOT / "cli.py"), "note", "player", "--colour", "red",
         "PokerStars", opponent, NOTE], env=env, capture_output=True, text=True, check=False)
    assert (wrote.returncode, wrote.stderr) == (0, "")
    with dashboard(path, tmp_path / "streamlit.log") as url:
        yield url, path, opponent


def test_tag_a_hand_find_it_by_the_tag_and_see_a_player_note_in_the_hud(
    browser: BrowserContext,  # noqa: F811
    noted: tuple[str, Path, str],
) -> None:
    url, path, opponent = noted
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{url}/replayer")
    expect(page.get_by_role("heading", name="Replayer")).to_be_visible()
    _settle(page)
    expect(page.get_by_text("No tags", exact=True)).to_be_visible()
    page.get_by_text("Tag this hand, write a note").click()
    tags = page.get_by_test_id("stMultiSelect").filter(has_text="Tags")
    tags.locator("input").click()
    page.keyboard.type("river mistake")
    page.get_by_role("option").filter(has_text="river mistake").first.click()
    expect(tags).to_contain_text("river mistake")  # picked, before the list is closed
    page.keyboard.press("Escape")
    expect(tags).to_contain_text("river mistake")
    page.get_by_label("Note").fill("folded the best draw")
    page.get_by_role("button", name="Save").click()
    _settle(page)
    expect(page.get_by_text("Tags: river mistake", exact=True)).to_be_visible()
    expect(page.get_by_test_id("stText").filter(has_text="folded the best draw")).to_be_visible()

    # found again by its tag: the only hand listed
    tag = page.get_by_test_id("stSelectbox").filter(has_text="Tag").first
    tag.locator("input").click()
    page.keyboard.type("river")
    page.get_by_role("option", name="river mistake", exact=True).click()
    _settle(page)
    page.get_by_test_id("stSelectbox").filter(has_text="Hand").first.locator("input").click()
    options = page.get_by_role("option")
    expect(options).to_have_count(1)
    label = options.first.inner_text()
    page.keyboard.press("Escape")
    con = db.connect(path, read_only=True, wait=db.LOCK_WAIT)  # the dashboard lets go
    tagged = memory.remembered_hands(con, "river mistake")
    con.close()
    assert [(h.tags, h.note) for h in tagged] == [(("river mistake",), "folded the best draw")]
    assert label.startswith(f"#{tagged[0].hand_id} · PokerStars · ")
    assert label.endswith(" · tags: river mistake")

    # the HUD: the note (markup as text) in the opponent's row
    page.goto(f"{url}/hud")
    expect(page.get_by_role("heading", name="HUD")).to_be_visible()
    grid = page.get_by_test_id("stDataFrame").first
    expect(grid).to_contain_text(opponent)
    expect(grid).to_contain_text(f"[red] {NOTE}")
    assert errors == []
