"""AppTest of a hand's address and its texts: a URL naming a hand opens it at its step, the
URL follows the hand and step shown, and "Copy hand" holds the site's text and the PHH."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from analysis.storage import db, queries
from parser.phh import write_phh
from tests.app_support import STARS_TRIPLE, app_for, imported_one_by_one, texts
from tests.paths import REPOSITORY

CASH = REPOSITORY / "sample_histories" / "pokerstars" / "27_triple_draw_fl_0.50-1_headsup.txt"
KEY = "pokerstars:220001040098"  # a hand in the middle of CASH, far from the latest


@pytest.fixture(name="path")
def path_fixture(tmp_path: Path) -> Path:
    return imported_one_by_one(tmp_path / "d.duckdb", (CASH, STARS_TRIPLE))


def _stored(path: Path, key: str) -> queries.StoredHand:
    con = db.connect(path, read_only=True)
    try:
        stored = queries.get_hand(con, key)
    finally:
        con.close()
    assert stored is not None
    return stored


def _open(path: Path, monkeypatch: pytest.MonkeyPatch, **params: str) -> AppTest:
    at = app_for(path, monkeypatch).run()
    at.switch_page("ui/replayer_page.py")
    at.query_params.update(params)  # as a link or a bookmark opens the page
    return at.run()


def _url(at: AppTest) -> dict[str, str]:
    return {k: v[0] if isinstance(v, list) else v for k, v in at.query_params.items()}


def test_a_url_naming_a_hand_opens_it_at_its_step(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stored = _stored(path, KEY)
    at = _open(path, monkeypatch, hand=KEY, step="3")
    assert not at.exception
    assert at.selectbox(key="replay_hand").value == stored.id
    assert at.slider(key="replay_step").value == 3
    assert any(c.value.startswith("Step 3 of ") for c in at.caption)
    assert _url(at) == {"hand": KEY, "step": "3"}
    # the user steps back: the URL follows, and the old address is not applied again
    at = at.button(key="b_prev").click().run()
    assert at.slider(key="replay_step").value == 2
    assert _url(at) == {"hand": KEY, "step": "2"}
    at = at.button(key="b_prev").click().run()
    assert _url(at) == {"hand": KEY, "step": "1"}


def test_the_url_names_the_hand_picked_in_the_list(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = _open(path, monkeypatch)
    shown = int(at.selectbox(key="replay_hand").value)
    con = db.connect(path, read_only=True)
    key = str(con.execute("SELECT key FROM hands WHERE id = ?", [shown]).fetchall()[0][0])
    con.close()
    assert _url(at) == {"hand": key, "step": "0"}
    at = at.button(key="b_end").click().run()
    assert _url(at)["step"] == str(at.session_state["replay_step"])
    assert int(_url(at)["step"]) > 0


def test_copy_hand_holds_the_link_the_sites_text_and_the_phh(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stored = _stored(path, KEY)
    assert stored.hand is not None
    at = _open(path, monkeypatch, hand=KEY, step="2")
    copy = next(e for e in at.expander if e.label == "Copy hand")
    link, site, phh = (c.value for c in copy.code)
    assert link == "/replayer?hand=pokerstars%3A220001040098&step=2"
    assert site == stored.text.rstrip("\n")
    assert site.startswith("PokerStars Hand #220001040098:")
    assert phh == write_phh(stored.hand).rstrip("\n")
    assert phh.splitlines()[:3] == [
        'variant = "F2L3D"',
        "antes = [0, 0]",
        "blinds_or_straddles = [0.25, 0.5]",
    ]
    assert [c.value for c in copy.caption] == [
        "Link to this hand at this step",
        "As PokerStars wrote it",
        "As PHH (the poker hand history format)",
    ]


def test_an_address_of_no_stored_hand_says_so_and_the_page_still_works(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = _open(path, monkeypatch, hand="pokerstars:<b>nope</b>", step="x")
    assert not at.exception
    assert [w.value for w in at.warning][:1] == [
        "The address names no stored hand (deleted, or from another database):"
    ]
    assert "pokerstars:<b>nope</b>" in texts(at)
    assert at.selectbox(key="replay_hand").value is not None  # the latest hands, as ever
