"""An older database's facts are refilled on its first open (minutes at a million
hands): the dashboard and the command line say why, once, before the refill starts."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from analysis.pipeline.importer import import_paths, open_database
from analysis.storage import db
from analysis.storage.player_facts import refill_words
from cli import main
from tests.app_support import app_for
from tests.store_data import write_history

NOTICE = ("Updating this database's statistics to this version of DrawLab: once, "
          "under a minute for 12 hands.")


def _older(path: Path) -> Path:
    """A database of twelve hands whose statistics table another DrawLab laid out."""
    con = db.connect(path)
    import_paths(con, [write_history(path.with_suffix(".txt"), 12)], workers=0)
    con.execute("UPDATE meta SET value = 'older' WHERE name = 'player_hands_layout'")
    con.close()
    return path


def test_the_notice_estimates_the_minutes_by_the_hands() -> None:
    assert refill_words(12) == NOTICE
    assert refill_words(1_000_000) == (
        "Updating this database's statistics to this version of DrawLab: once, "
        "about 12 minutes for 1,000,000 hands.")


def test_the_first_open_says_it_once_and_refills(tmp_path: Path) -> None:
    path = _older(tmp_path / "old.duckdb")
    said: list[str] = []
    con = open_database(path, told=said.append)
    rows = con.execute("SELECT count(DISTINCT hand) FROM player_hands").fetchone()
    con.close()
    assert (said, rows) == ([NOTICE], (12,))
    open_database(path, told=said.append).close()
    assert said == [NOTICE]  # current now: nothing more to say


def test_drawlab_stats_says_it_on_standard_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _older(tmp_path / "old.duckdb")
    assert main(["stats", "--db", str(path)]) == 0
    assert capsys.readouterr().err.splitlines() == [NOTICE]
    assert main(["stats", "--db", str(path)]) == 0
    assert capsys.readouterr().err == ""


def test_the_dashboard_says_it_on_the_page_that_opens_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _older(tmp_path / "old.duckdb")
    monkeypatch.setattr("ui.state.SAMPLES", tmp_path / "no-samples")
    at: AppTest = app_for(path, monkeypatch).run()
    assert not at.exception
    assert [i.value for i in at.info if "Updating" in str(i.value)] == [NOTICE]
    at.run()
    assert not [i for i in at.info if "Updating" in str(i.value)]
