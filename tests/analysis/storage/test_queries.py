"""The query API the dashboard and exporter read hands back with."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import duckdb
import pytest

from analysis.pipeline.importer import ImportSummary, import_paths
from analysis.pipeline.verify_files import verify_paths
from analysis.storage import db as dbmod
from analysis.storage.filters import Filters
from analysis.storage.queries import (
    biggest_pots,
    count_hands,
    failed_hand_text,
    get_hand,
    hands_with_problems,
    list_hands,
    quarantined,
    status_counts,
)
from tests.store_data import CORPUS, STARS, STARS_TRIPLE


@pytest.fixture(scope="module")
def imported(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[duckdb.DuckDBPyConnection, ImportSummary]:
    c = dbmod.connect(tmp_path_factory.mktemp("q") / "q.duckdb")
    return c, import_paths(c, [CORPUS / "cash"], workers=0)


@pytest.fixture(scope="module")
def con(imported: tuple[duckdb.DuckDBPyConnection, ImportSummary]) -> duckdb.DuckDBPyConnection:
    return imported[0]


def test_status_counts_match_verify(
    imported: tuple[duckdb.DuckDBPyConnection, ImportSummary],
) -> None:
    con, summary = imported
    expected: dict[str, int] = dict.fromkeys(
        ("ok", "invalid", "parse_error", "unsupported", "incomplete"), 0
    )
    once = dict(expected)  # a hand the corpus holds twice is stored once
    seen: set[tuple[str, str]] = set()
    for r in verify_paths([CORPUS / "cash"]):
        expected[r.status] += 1
        key = (r.site, r.hand_id)
        if r.hand is None or key not in seen:
            once[r.status] += 1
        if r.hand is not None:
            seen.add(key)
    assert summary.statuses == expected
    # Merge game 33423082-14 is in the corpus alone and inside its session's file
    assert summary.already_present == sum(expected.values()) - sum(once.values()) == 1
    stored = status_counts(con)  # a source rejected whole is one verdict and no row
    stored["parse_error"] += len(summary.rejected)
    assert stored == once


def test_stored_hand_rebuilds_the_record_read_from_the_file(
    con: duckdb.DuckDBPyConnection,
) -> None:
    original = next(r.hand for r in verify_paths([STARS_TRIPLE]) if r.hand is not None)
    stored = get_hand(con, "pokerstars:63845186378")
    assert stored is not None
    assert stored.hand == original
    assert stored.row["total_pot"] == 135 and stored.row["rake"] == 6
    assert [s["player"] for s in stored.seats] == [
        "Player1",
        "Hero",
        "Player2",
        "Player3",
        "Player4",
    ]
    assert get_hand(con, stored.id) == stored
    assert get_hand(con, "pokerstars:0") is None


def test_list_hands_filters(con: duckdb.DuckDBPyConnection) -> None:
    stars = list_hands(con, Filters(site="pokerstars"), limit=1000)
    assert set(stars["site"]) == {"pokerstars"}
    assert len(stars) == count_hands(con, Filters(site="pokerstars"))
    day = list_hands(con, Filters(date_from=date(2011, 6, 26), date_to=date(2011, 6, 26)))
    assert "63845186378" in set(day["hand_id"])
    assert all(t.date() in (date(2011, 6, 26),) for t in day["time"])
    hero = count_hands(con, Filters(player="Hero"))
    seated = con.execute("SELECT count(DISTINCT hand) FROM seats WHERE player = 'Hero'").fetchall()[
        0
    ][0]
    assert hero == seated > 0
    newest = list_hands(con, limit=3)
    oldest = list_hands(con, limit=3, newest_first=False)
    assert newest["time"].iloc[0] >= oldest["time"].iloc[0]


def test_problems_and_biggest_pots(con: duckdb.DuckDBPyConnection) -> None:
    problems = hands_with_problems(con, limit=1000)
    invalid = count_hands(con, Filters(status="invalid"))
    assert set(problems["severity"]) == {"error"}
    assert problems["id"].nunique() == invalid
    pots = biggest_pots(con, limit=5)
    assert list(pots["total_pot"]) == sorted(pots["total_pot"], reverse=True)
    top = con.execute("SELECT max(total_pot) FROM hands").fetchall()[0][0]
    assert pots["total_pot"].iloc[0] == top


def test_quarantine_lists_unreadable_texts(tmp_path: Path) -> None:
    c = dbmod.connect(tmp_path / "x.duckdb")
    broken = tmp_path / "broken.txt"
    text = (STARS / "5-Carddraw-FL-USD-0.10-0.20-201106.Walked.txt").read_text("utf-8-sig")
    broken.write_text(text.replace("Seat 1:", "Seat one:"), encoding="utf-8")
    s = import_paths(c, [broken], workers=0)
    q = quarantined(c)
    assert s.statuses["parse_error"] == len(q) == 1
    assert q["file"].iloc[0] == str(broken) and q["line"].iloc[0] >= 1
    assert "Seat one:" in q["text"].iloc[0]
    assert failed_hand_text(c, str(broken), int(q["line"].iloc[0])) == q["text"].iloc[0]
    assert failed_hand_text(c, str(broken), int(q["line"].iloc[0]) + 1) is None


def test_the_text_of_a_hand_an_import_logged_as_failed(con: duckdb.DuckDBPyConnection) -> None:
    problems = hands_with_problems(con, severity=None, limit=10_000)
    assert len(problems) > 0
    for _, row in problems.iterrows():
        first = problems[(problems["file"] == row["file"]) & (problems["line"] == row["line"])]
        stored = get_hand(con, int(first["id"].min()))
        assert stored is not None
        assert failed_hand_text(con, str(row["file"]), int(row["line"])) == stored.text
    assert failed_hand_text(con, "no such file", 1) is None


def test_a_player_filter_guesses_its_way_from_the_cells_as_from_the_seats(
    con: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whether a player is common enough to look for among candidates is counted from
    the summed cells (not forty million seats) when they are current, with the same
    answer, and the list is the same either way."""
    from analysis.storage import queries, stat_cells

    assert stat_cells.current(con)
    players = [str(p) for (p,) in con.execute(
        "SELECT player FROM seats GROUP BY player ORDER BY count(*) DESC, player").fetchall()]
    cells = {p: queries._common(con, Filters(player=p)) for p in players}
    lists = {p: list_hands(con, Filters(player=p), limit=5)["id"].tolist() for p in players[:3]}
    with monkeypatch.context() as m:
        m.setattr(stat_cells, "current", lambda c: False)
        assert cells == {p: queries._common(con, Filters(player=p)) for p in players}
        assert lists == {p: list_hands(con, Filters(player=p), limit=5)["id"].tolist()
                         for p in players[:3]}
    assert cells[players[0]] and not cells[players[-1]]
