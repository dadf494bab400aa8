"""The bundled samples in a database: marked, kept apart from the user's hands, removed."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.pipeline.importer import import_paths
from analysis.statistics import figures as stats
from analysis.storage import db, hand_scope, samples
from analysis.storage.filters import Filters
from cli import main
from tests.app_support import STARS_TRIPLE
from tests.paths import REPOSITORY

SAMPLE = REPOSITORY / "sample_histories" / "pokerstars" / "27_triple_draw_fl_0.50-1_headsup.txt"


def _both(path: Path) -> None:
    """The first start's samples, marked, then the user's own PokerStars "Hero" hand."""
    con = db.connect(path)
    try:
        import_paths(con, [SAMPLE], workers=0)
        samples.mark(con)
        import_paths(con, [STARS_TRIPLE], workers=0)
    finally:
        con.close()


def test_samples_and_own_hands_never_add_up(tmp_path: Path) -> None:
    path = tmp_path / "d.duckdb"
    _both(path)
    con = db.connect(path)
    assert (samples.count(con), samples.own_hands(con)) == (300, 1)
    mine = Filters(site="pokerstars", samples=False)
    theirs = Filters(site="pokerstars", samples=True)
    assert stats.results(con, "Hero", mine).hands == 1
    assert stats.results(con, "Hero", theirs).hands == 300
    assert stats.results(con, "Hero", Filters(site="pokerstars")).hands == 301
    assert hand_scope.plain(con, mine) == mine  # the samples are there: the filter counts


def test_removing_the_samples_leaves_the_users_hands_alone(tmp_path: Path) -> None:
    path = tmp_path / "d.duckdb"
    _both(path)
    con = db.connect(path)
    assert samples.remove(con) == 300
    assert samples.count(con) == 0
    assert stats.results(con, "Hero", Filters(site="pokerstars")).hands == 1
    left = con.execute("SELECT count(*) FROM seats WHERE hand NOT IN (SELECT id FROM hands)")
    assert left.fetchall() == [(0,)]
    assert hand_scope.plain(con, Filters(samples=False)) == Filters()
    # the file may be imported again: it is the user's now
    assert import_paths(con, [SAMPLE], workers=0).added == 300


def test_drawlab_samples_counts_and_removes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "d.duckdb"
    _both(path)
    assert main(["samples", "--db", str(path)]) == 0
    assert capsys.readouterr().out == "300 sample hands\n"
    assert main(["samples", "--remove", "--db", str(path)]) == 0
    assert capsys.readouterr().out == "removed 300 sample hands\n"
    assert main(["samples", "--db", str(path)]) == 0
    assert capsys.readouterr().out == "0 sample hands\n"
