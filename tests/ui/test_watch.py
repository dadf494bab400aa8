"""AppTest of the Import page's watched folders: add one, a hand appended to a watched
file arrives through the dashboard's own watcher, suggestions of the clients' folders,
remove, and a path that is not there."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from analysis.pipeline import watched
from analysis.storage import db
from tests.app_support import app_for, texts
from tests.store_data import stars_history


@pytest.fixture(name="home")
def home_fixture(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake home folder: the suggestions look only there."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("WINEPREFIX", raising=False)
    monkeypatch.setenv("USER", "ann")
    return home


@pytest.fixture(name="dbpath")
def dbpath_fixture(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "d.duckdb"
    db.connect(path).close()  # imported before: the samples are not imported on start
    con = db.connect(path)
    con.execute("INSERT INTO meta VALUES ('note', 'x')")
    con.close()
    yield path
    from ui import watching

    watching._watcher(str(path)).stop()  # the thread ends with its test


def _page(path: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("DRAWLAB_SAMPLES", "")
    at = app_for(path, monkeypatch).run()
    return at.switch_page("ui/import_page.py").run()


def _table(at: AppTest) -> pd.DataFrame:
    frame = next(d for d in at.dataframe if "hands in all" in d.value.columns)
    return frame.value


def _wait_for(at: AppTest, hands: int, timeout: float = 60) -> pd.DataFrame:
    """Rerun the page until the watched folder's row counts ``hands`` and its read is noted
    (the watcher works on its own thread; a busy machine may take a few seconds)."""
    deadline = time.monotonic() + timeout
    while True:
        at.run()
        assert not at.exception
        table = _table(at)
        if (len(table) and int(table["hands in all"].iloc[0]) >= hands
                and table["last read"].iloc[0] != "not yet"):  # the read noted after the commit
            return table
        assert time.monotonic() < deadline, table.to_dict("records")
        time.sleep(0.3)


@pytest.mark.slow  # over 1.5 s: make test runs it
def test_a_watched_folder_imports_the_hands_appended_to_its_file(
    tmp_path: Path, dbpath: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "histories"
    folder.mkdir()
    live = folder / "table.txt"
    whole = stars_history(5)
    cut = whole.index("*** SUMMARY ***", whole.index("PokerStars ", 10))  # in the 2nd hand
    live.write_text(whole[:cut], encoding="utf-8")
    at = _page(dbpath, monkeypatch)
    assert "No folder is watched yet." in [c.value for c in at.caption]
    at.text_input(key="watch_path").input(str(folder)).run()
    at.button(key="watch_add").click().run()
    assert not at.exception
    assert [s.value for s in at.success] == ["Watching the folder below; its files are read now."]
    assert str(folder) in texts(at)
    table = _wait_for(at, 1)
    from ui import watching

    assert table.to_dict("records")[0] | {"last checked": "", "last read": ""} == {
        "folder": str(folder), "state": "watching", "last checked": "", "last read": "",
        "files": 1, "hands added": 1, "problems": 0, "hands in all": 1,
    }  # the whole first hand; the cut second one is held back until it is whole
    from ui import state

    def statuses() -> list[tuple[str, int]]:
        with state._shared(str(dbpath)).reading() as con:
            return [(str(a), int(b)) for a, b in con.execute(
                "SELECT status, count(DISTINCT key) FROM hands GROUP BY 1 ORDER BY 1").fetchall()]

    assert statuses() == [("ok", 1)]  # never stored as incomplete meanwhile
    assert [b.summary.held for b in watching._watcher(str(dbpath)).batches if b.summary] == [
        [str(live)]
    ]
    with live.open("a", encoding="utf-8") as f:
        f.write(whole[cut:])
    _wait_for(at, 5)
    w = watching._watcher(str(dbpath))
    deadline = time.monotonic() + 30
    while sum(b.summary.added for b in w.batches if b.summary) < 5:  # its read noted too
        assert time.monotonic() < deadline
        time.sleep(0.1)
    row = _wait_for(at, 5).to_dict("records")[0]
    batches = list(w.batches)  # the append may come in two reads
    assert all(b.summary is not None and b.summary.problems == 0 for b in batches)
    assert sum(b.summary.added for b in batches if b.summary) == 5
    last = batches[-1].summary
    assert last is not None
    assert (row["files"], row["hands added"], row["problems"], row["hands in all"]) == (
        1, last.added, 0, 5,
    )  # fmt: skip
    assert row["last read"] != "not yet"
    assert row["last checked"] == "just now" or row["last checked"].endswith(" s ago")
    assert any(t.startswith("Watching 1 path; the watcher is running") for t in texts(at))
    assert statuses() == [("ok", 5)]  # the cut hand completed, none twice


def test_suggested_client_folders_are_one_click_away(
    dbpath: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stars = home / "Library" / "Application Support" / "PokerStars" / "HandHistory"
    wine_tilt = home / ".wine" / "drive_c" / "Program Files" / "Full Tilt Poker" / "HandHistory"
    wine_tilt.mkdir(parents=True)
    stars.mkdir(parents=True)  # a macOS folder: not suggested on this Linux machine
    at = _page(dbpath, monkeypatch)
    assert f"Full Tilt (Wine): {wine_tilt}" in texts(at)
    assert not any(str(stars) in t for t in texts(at))
    at.button(key="watch_suggested_0").click().run()
    assert not at.exception
    at.run()
    assert list(_table(at)["folder"]) == [str(wine_tilt)]
    assert f"Full Tilt (Wine): {wine_tilt}" not in texts(at)  # watched: no longer suggested

    at.selectbox(key="watch_remove_pick").select(str(wine_tilt)).run()
    at.button(key="watch_remove").click().run()
    assert not at.exception
    assert "No folder is watched yet." in [c.value for c in at.caption]
    assert f"Full Tilt (Wine): {wine_tilt}" in texts(at)
    from ui import state

    with state._shared(str(dbpath)).reading() as con:
        assert watched.folders(con) == []


def test_a_path_that_is_not_there_is_refused_with_why(
    tmp_path: Path, dbpath: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = _page(dbpath, monkeypatch)
    at.text_input(key="watch_path").input(str(tmp_path / "nowhere")).run()
    at.button(key="watch_add").click().run()
    assert not at.exception
    assert [e.value for e in at.error] == ["That folder cannot be watched:"]
    assert f"{tmp_path / 'nowhere'} does not exist" in texts(at)
