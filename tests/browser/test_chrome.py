"""What a user sees around every page, in a real headless Chromium: the samples notice
while the bundled samples are stored, no Streamlit developer chrome (Deploy, the menu of
Rerun, Clear cache and Record screen) and no failed request.

Reuses the server of ``tests/browser/test_overview.py``, whose first start imported two
sample files: they are the bundled samples of that database.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import BrowserContext, Response, expect

from tests.browser.test_overview import _settle, browser, served  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

PAGES = ("", "replayer", "import", "drills", "review", "live", "hud")
NOTICE = "The database holds the 1,200 bundled sample hands: simulated, not yours"
# Opening a page's own address, Streamlit's frontend first looks for its server under that
# path, then at the root (streamlit/streamlit#7074): two 404s of its own, nothing missing.
PROBES = ("_stcore/health", "_stcore/host-config")


def _known_probe(failed: str, page_path: str) -> bool:
    return bool(page_path) and any(failed.endswith(f"/{page_path}/{p}") for p in PROBES)


@pytest.mark.parametrize("page_path", PAGES)
def test_every_page_says_the_samples_are_samples_and_shows_no_developer_chrome(
    served: tuple[str, object], browser: BrowserContext, page_path: str,  # noqa: F811
) -> None:
    url, _ = served
    page = browser.new_page()
    failed: list[str] = []

    def seen(response: Response) -> None:
        if response.status >= 400:
            failed.append(f"{response.status} {response.url}")

    page.on("response", seen)
    page.goto(f"{url}/{page_path}", wait_until="domcontentloaded")
    _settle(page)
    expect(page.get_by_test_id("stAlertContentInfo").filter(has_text=NOTICE)).to_be_visible()
    expect(page.get_by_test_id("stAppDeployButton")).to_have_count(0)
    expect(page.get_by_test_id("stMainMenu")).to_have_count(0)
    page.wait_for_timeout(500)
    assert [f for f in failed if not _known_probe(f, page_path)] == []
    page.close()
