"""Summaries stored: once, the latest word on a running tournament, every player's result."""

from __future__ import annotations

import io
import zipfile
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import duckdb

from analysis.pipeline.importer import import_bytes, import_paths
from analysis.storage import db as dbmod
from analysis.storage.tournaments import results_of, store_summary
from engine.tournament import Finish, TournamentSummary
from tests.corpus import CORPUS

SUMMARIES = CORPUS.parent / "summaries"
RUNNING = "PokerStars Tournament #42, Badugi\nBuy-In: $10.00/$1.00 USD\n3 players\n" \
    "Tournament started 2024/03/01 20:00:00 ET\n" \
    "  1: Ann (France), still playing\n  2: Bob (Spain), still playing\n" \
    "  3: Hero (Peru),\n\nYou finished in 3rd place.\n"
FINISHED = RUNNING.replace("still playing", "$15.00 (50%)", 1).replace(
    "  2: Bob (Spain), still playing", "  2: Bob (Spain), $15.00 (50%)"
).replace("Tournament started 2024/03/01 20:00:00 ET\n",
          "Tournament started 2024/03/01 20:00:00 ET\nTournament finished 2024/03/01 21:00:00 ET\n")


def _db(tmp_path: Path) -> duckdb.DuckDBPyConnection:
    return dbmod.connect(tmp_path / "t.duckdb")


def _rows(con: duckdb.DuckDBPyConnection, sql: str) -> list[tuple[object, ...]]:
    return [tuple(r) for r in con.execute(sql).fetchall()]


def test_every_corpus_summary_imported_once(tmp_path: Path) -> None:
    con = _db(tmp_path)
    first = import_paths(con, [SUMMARIES, CORPUS / "summaries"], workers=0)
    assert (first.summaries, first.summaries_added, first.summary_errors) == (22, 22, [])
    assert first.hands == 1 and first.statuses["parse_error"] == 1  # the README, not a summary
    assert _rows(con, "SELECT site, count(*) FROM tournaments GROUP BY 1 ORDER BY 1") == [
        ("fulltilt", 8), ("pokerstars", 10), ("winamax", 4)]
    assert _rows(con, "SELECT count(*) FROM tournament_results WHERE source = 'summary'") == [
        (21,)]  # every file's own player but the 2-7 event's, whose file names none
    again = import_paths(con, [SUMMARIES, CORPUS / "summaries"], workers=0)
    assert (again.summaries, again.summaries_added) == (22, 0)
    assert _rows(con, "SELECT count(*) FROM tournaments") == [(22,)]


def test_re_entries_stored_as_one_result_of_two_entries(tmp_path: Path) -> None:
    con = _db(tmp_path)
    import_paths(con, [SUMMARIES / "Stars" / "NLSD-MTT-USD-1000-50-201609.reentry.txt"])
    assert _rows(con, "SELECT place, prize, entries, source FROM tournament_results "
                      "WHERE player = 'blanconegro'") == [(5, 1126710, 2, "listed")]
    assert _rows(con, "SELECT count(*), sum(entries) FROM tournament_results") == [(104, 145)]
    assert _rows(con, "SELECT game, started, finished FROM tournaments") == [
        ("27_single_draw", datetime(2016, 9, 6, 14, 10), datetime(2016, 9, 7, 17, 43, 46))]


def test_a_later_summary_of_a_running_tournament_replaces_it(tmp_path: Path) -> None:
    con = _db(tmp_path)
    import_bytes(con, "running.txt", RUNNING.encode())
    assert _rows(con, "SELECT running FROM tournaments") == [(True,)]
    assert _rows(con, "SELECT player, place FROM tournament_results ORDER BY player") == [
        ("Ann", None), ("Bob", None), ("Hero", 3)]
    later = import_bytes(con, "finished.txt", FINISHED.encode())
    assert later.summaries_added == 1
    assert _rows(con, "SELECT running, finished, file FROM tournaments") == [
        (False, datetime(2024, 3, 2, 2, 0), "finished.txt")]
    assert _rows(con, "SELECT player, place, prize FROM tournament_results ORDER BY player") == [
        ("Ann", 1, 1500), ("Bob", 2, 1500), ("Hero", 3, 0)]
    # the running summary read again does not take the finished tournament back
    stale = import_bytes(con, "running-again.txt", RUNNING.encode())
    assert (stale.summaries, stale.summaries_added) == (1, 0)
    assert _rows(con, "SELECT running, file FROM tournaments") == [(False, "finished.txt")]


def test_summaries_inside_a_zip_and_errors_with_file_and_line(tmp_path: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("a/good.txt", FINISHED)
        zf.writestr("a/bad.txt", "Winamax Poker - Tournament summary : X(7)\nBuy-In : 1,2,3€\n")
    s = import_bytes(_db(tmp_path), "upload.zip", buf.getvalue())
    assert (s.summaries, s.summaries_added) == (1, 1)
    assert s.summary_errors == ["upload.zip/a/bad.txt:2: not an amount: '1,2,3€': Buy-In : 1,2,3€"]
    assert s.hands == 0


def test_the_summarys_own_player_keeps_their_figures(tmp_path: Path) -> None:
    con = _db(tmp_path)
    base = TournamentSummary("pokerstars", "9", "f.txt", 1, buy_in=1000, currency="USD",
                             finishes=(Finish(4, "Hero", 0, 5), Finish(4, "Hero", 0, 6, entry=2)),
                             player="Hero", place=4, reentries=1, bounties_won=2500)
    assert [(r.player, r.entries, r.bounties_won, r.source) for r in results_of(base)] == [
        ("Hero", 2, 2500, "summary")]
    assert store_summary(con, base) == "added"
    assert store_summary(con, base) == "present"
    other = replace(base, file="g.txt", player="", place=None, reentries=0, bounties_won=0,
                    started=datetime(2024, 1, 1, tzinfo=UTC))
    assert store_summary(con, other) == "replaced"
    assert _rows(con, "SELECT entries, bounties_won, source FROM tournament_results") == [
        (2, 2500, "summary")]
