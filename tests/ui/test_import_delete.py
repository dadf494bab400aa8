"""AppTest of the Import page's delete: pick an import, a file or a site, see how many
hands go, cancel or confirm; the pages read the database anew after it."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from analysis.storage import db
from tests.app_support import KINGS_RIT, STARS_TRIPLE, app_for, imported_one_by_one, texts
from tests.paths import REPOSITORY

CASH = REPOSITORY / "sample_histories" / "pokerstars" / "27_triple_draw_fl_0.50-1_headsup.txt"


@pytest.fixture(name="path")
def path_fixture(tmp_path: Path) -> Path:
    return imported_one_by_one(tmp_path / "d.duckdb", (CASH, STARS_TRIPLE, KINGS_RIT))


def _page(path: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    at = app_for(path, monkeypatch).run()
    return at.switch_page("ui/import_page.py").run()


def _sites(path: Path) -> list[tuple[str, int]]:
    con = db.connect(path, read_only=True)
    try:
        rows = con.execute("SELECT site, count(*) FROM hands GROUP BY 1 ORDER BY 1").fetchall()
    finally:
        con.close()
    return [(str(s), int(n)) for s, n in rows]


def _pick(at: AppTest, kind: str, label_start: str) -> AppTest:
    at.radio(key="delete_kind").set_value(kind).run()
    box = at.selectbox(key="delete_pick")
    index = next(i for i, o in enumerate(box.options) if o.startswith(label_start))
    return box.set_value(index).run()


def test_a_file_is_deleted_after_the_confirmation_says_how_many_hands_go(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = _page(path, monkeypatch)
    assert at.radio(key="delete_kind").options == ["An import", "A file", "A site"]
    at = _pick(at, "A file", str(CASH))
    box = at.selectbox(key="delete_pick")  # files by name (where the checkout is decides)
    assert box.options == sorted(box.options)
    assert box.options[box.value] == f"{CASH} — 300 hands"
    assert not [b for b in at.button if b.key == "delete_confirm"]
    at = at.button(key="delete_ask").click().run()
    assert [w.value for w in at.warning] == [
        "This deletes 300 hands and everything stored of them. It cannot be undone."
    ]
    assert f"300 hands of the file {CASH}" in texts(at)
    assert at.button(key="delete_confirm").label == "Yes, delete 300 hands"
    at = at.button(key="delete_cancel").click().run()
    assert not [b for b in at.button if b.key == "delete_confirm"]
    assert _sites(path) == [("kingsclub", 1), ("pokerstars", 301)]
    at = at.button(key="delete_ask").click().run()
    at = at.button(key="delete_confirm").click().run()
    assert [s.value for s in at.success] == ["Deleted 300 hands."]
    assert not at.exception
    assert _sites(path) == [("kingsclub", 1), ("pokerstars", 1)]
    assert [o.split(" — ")[0] for o in at.selectbox(key="delete_pick").options] == [
        str(KINGS_RIT),
        str(STARS_TRIPLE),
    ]


def test_a_site_and_an_import_are_deleted(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = _page(path, monkeypatch)
    at = _pick(at, "A site", "KingsClub")
    at = at.button(key="delete_ask").click().run()
    assert at.button(key="delete_confirm").label == "Yes, delete 1 hand"
    assert "1 hand of the site KingsClub" in texts(at)
    at = at.button(key="delete_confirm").click().run()
    assert [s.value for s in at.success] == ["Deleted 1 hand."]
    assert _sites(path) == [("pokerstars", 301)]
    at = _pick(at, "An import", "#1 · ")
    at = at.button(key="delete_ask").click().run()
    assert f"300 hands of import 1 ({CASH})" in texts(at)
    at = at.button(key="delete_confirm").click().run()
    assert _sites(path) == [("pokerstars", 1)]
    assert [o.split(" · ")[0] for o in at.selectbox(key="delete_pick").options] == ["#2"]


def test_changing_the_pick_drops_the_question(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = _page(path, monkeypatch)
    at = _pick(at, "A site", "KingsClub")
    at = at.button(key="delete_ask").click().run()
    at = _pick(at, "A site", "PokerStars")
    assert not [b for b in at.button if b.key == "delete_confirm"]
    assert _sites(path) == [("kingsclub", 1), ("pokerstars", 301)]
