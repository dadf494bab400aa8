"""The live session and the HUD (``analysis.statistics.live``) over dealt hands with known times."""

from __future__ import annotations

import io
import itertools
import shutil
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import duckdb
import pandas as pd
import pytest

from analysis.pipeline.importer import import_paths
from analysis.simulate import simulate
from analysis.statistics.figures import summary, timeline_figures
from analysis.statistics.live import (
    HUD_KEYS,
    HudColumn,
    HudTable,
    current_session,
    hud,
    hud_columns,
    player_figures,
    player_sessions,
    session_hands,
    set_hud_columns,
)
from analysis.storage import db, memory
from analysis.storage.filters import Filters
from engine.record import Game


def _dealt(n: int, seed: int, day: str | None = None, table: str | None = None) -> str:
    out = io.StringIO()
    simulate(out, n, Game.TRIPLE_DRAW_27, 6, seed)
    text = out.getvalue()
    if day is not None:  # the same deal a day later: another session
        text = text.replace("2026/03/01", day)
    if table is not None:
        text = text.replace("Table 'Alcyone'", f"Table '{table}'")
    return text


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two days of dealt hands imported once per module; each test writes to a copy."""
    folder = tmp_path_factory.mktemp("live")
    (folder / "old.txt").write_text(_dealt(40, 3), encoding="utf-8")
    (folder / "new.txt").write_text(_dealt(25, 4, day="2026/03/02", table="Merope"),
                                    encoding="utf-8")
    con = db.connect(folder / "d.duckdb")
    import_paths(con, [folder / "old.txt", folder / "new.txt"], workers=0)
    con.close()
    return folder / "d.duckdb"


@pytest.fixture(name="con")
def con_fixture(imported: Path, tmp_path: Path) -> duckdb.DuckDBPyConnection:
    return db.connect(shutil.copyfile(imported, tmp_path / "d.duckdb"))


def test_the_current_session_is_the_latest_run_of_hands(con: duckdb.DuckDBPyConnection) -> None:
    s = current_session(con, now=datetime.now())
    assert s is not None
    assert s.player == "Hero"
    assert s.hands == 25  # the second day's hands only: a gap of a day ends a session
    assert s.start.date().isoformat() == "2026-03-02" and s.end.date() == s.start.date()
    net = con.execute(
        "SELECT sum(net), sum(net::DOUBLE / big_bet) FROM player_hands "
        "WHERE player = 'Hero' AND time >= '2026-03-02'"
    ).fetchall()[0]
    assert s.net == net[0]
    assert s.bb_per_100 == pytest.approx(100 * net[1] / 25)
    assert s.currencies == ("USD",)
    assert s.live  # just imported
    later = current_session(con, now=datetime.now() + timedelta(hours=1))
    assert later is not None and not later.live


def test_session_hands_are_the_latest_first(con: duckdb.DuckDBPyConnection) -> None:
    s = current_session(con)
    assert s is not None
    last = session_hands(con, s, limit=5)
    assert len(last) == 5
    expected = con.execute(
        "SELECT hand_id FROM hands WHERE time >= '2026-03-02' ORDER BY time DESC, id DESC "
        "LIMIT 5"
    ).fetchall()
    assert list(last["hand_id"]) == [e[0] for e in expected]
    assert list(last["table_name"]) == ["Merope"] * 5


def test_the_hud_shows_each_opponent_of_the_recent_table(
    con: duckdb.DuckDBPyConnection,
) -> None:
    tables = hud(con)
    assert [(t.site, t.table) for t in tables] == [("pokerstars", "Merope")]  # old is a day off
    players = tables[0].players
    seated = con.execute(
        "SELECT seat, player FROM seats WHERE hand = (SELECT max(id) FROM hands) "
        "AND player <> 'Hero' ORDER BY seat"
    ).fetchall()
    assert list(zip(players["seat"], players["player"], strict=True)) == seated
    everyone = summary(con).set_index("player")
    for row in players.to_dict("records"):
        full = everyone.loc[row["player"]]
        assert row["hands"] == full["hands"]  # over all their hands, both tables
        for key in HUD_KEYS:
            assert row[f"{key}_d"] == full[f"{key}_d"]
            assert row[key] == pytest.approx(full[key], nan_ok=True)
    wide = hud(con, window=timedelta(days=2))
    assert [t.table for t in wide] == ["Merope", "Alcyone"]


def test_player_figures_of_nobody_is_empty(con: duckdb.DuckDBPyConnection) -> None:
    assert player_figures(con, []).empty
    assert hud(db.connect(db.MEMORY)) == []
    assert current_session(db.connect(db.MEMORY)) is None


def test_a_person_in_the_hud_counts_every_name_of_theirs(
    con: duckdb.DuckDBPyConnection,
) -> None:
    before = hud(con)[0].players
    first, second = (str(p) for p in before["player"].iloc[:2])
    memory.add_alias(con, "reg", "pokerstars", first)
    memory.add_alias(con, "reg", "pokerstars", second)
    players = hud(con)[0].players
    assert list(players["person"]) == ["reg", "reg", *[None] * (len(players) - 2)]
    everyone = summary(con).set_index("player")
    both = everyone.loc[[first, second]]
    for at in (0, 1):
        row = players.iloc[at]
        assert row["hands"] == both["hands"].sum()
        for key in HUD_KEYS:
            assert row[f"{key}_d"] == both[f"{key}_d"].sum()
    assert players.iloc[2:].drop(columns="person").equals(before.iloc[2:].drop(columns="person"))


def test_the_heros_other_names_are_no_opponents_in_the_hud(
    con: duckdb.DuckDBPyConnection,
) -> None:
    before = list(hud(con)[0].players["player"])
    memory.add_alias(con, "me", "pokerstars", "Hero")
    memory.add_alias(con, "me", "pokerstars", before[1])  # the hero under another name
    assert list(hud(con)[0].players["player"]) == [before[0], *before[2:]]


def test_a_hand_with_errors_is_neither_the_huds_table_nor_in_its_figures(
    con: duckdb.DuckDBPyConnection,
) -> None:
    latest = con.execute("SELECT max(id) FROM hands").fetchall()[0][0]
    con.execute("UPDATE hands SET status = 'invalid' WHERE id = ?", [latest])
    assert [t.table for t in hud(con)] == ["Merope"]
    valid = hud(con, filters=Filters(valid_only=True))
    assert [t.table for t in valid] == ["Merope"]
    first = str(valid[0].players["player"].iloc[0])
    everyone = summary(con, Filters(valid_only=True)).set_index("player")
    assert valid[0].players["hands"].iloc[0] == everyone.loc[first, "hands"]
    assert hud(con)[0].players["hands"].iloc[0] == everyone.loc[first, "hands"] + 1
    # a table whose every recent hand has errors is no table of the HUD's: the latest
    # valid hand, a day before at the other table, is
    con.execute("UPDATE hands SET status = 'invalid' WHERE table_name = 'Merope'")
    assert [t.table for t in hud(con, filters=Filters(valid_only=True))] == ["Alcyone"]


def test_a_tournament_table_is_titled_by_tournament_table_and_hand() -> None:
    empty = pd.DataFrame()
    assert HudTable("pokerstars", "99 19", "5", None, empty, "99").title == (
        "tournament 99, table 19 · hand 5")
    assert HudTable("pokerstars", "Alcyone", "7", None, empty).title == "table Alcyone · hand 7"


def test_the_session_leaves_out_the_hands_with_errors_when_asked(
    con: duckdb.DuckDBPyConnection,
) -> None:
    con.execute("UPDATE hands SET status = 'invalid' WHERE id = (SELECT max(id) FROM hands)")
    lost = con.execute(
        "SELECT net FROM player_hands WHERE player = 'Hero' "
        "AND hand = (SELECT max(id) FROM hands)").fetchall()[0][0]
    every = current_session(con)
    valid = current_session(con, filters=Filters(valid_only=True))
    assert every is not None and valid is not None
    assert (every.hands, valid.hands) == (25, 24)
    assert valid.net == every.net - lost


def test_every_session_of_a_player_newest_first_split_by_the_gap(
    con: duckdb.DuckDBPyConnection,
) -> None:
    found = player_sessions(con)
    assert [(s.start.date().isoformat(), s.hands, s.live) for s in found] == [
        ("2026-03-02", 25, True), ("2026-03-01", 40, False)]
    first_day = con.execute(
        "SELECT min(time), max(time), sum(net) FROM player_hands "
        "WHERE player = 'Hero' AND time < '2026-03-02'").fetchall()[0]
    assert (found[1].start, found[1].end, found[1].net) == first_day
    current = current_session(con)
    assert current is not None and current == found[0]
    times = [t for (t,) in con.execute(
        "SELECT time FROM player_hands WHERE player = 'Hero' ORDER BY time").fetchall()]
    gaps = sum(1 for a, b in itertools.pairwise(times) if b - a > timedelta(minutes=2))
    short = player_sessions(con, gap=timedelta(minutes=2))
    assert len(short) == gaps + 1 and 2 < len(short) < 65
    assert sum(s.hands for s in short) == 65
    assert player_sessions(con, "Hero", Filters(site="fulltilt")) == []
    assert [s.hands for s in player_sessions(con, "Hero", Filters(site="pokerstars"))] == [25, 40]


def test_the_hud_never_lists_the_player_the_hand_was_dealt_to(
    con: duckdb.DuckDBPyConnection,
) -> None:
    tables = hud(con, hero="somebody else", window=timedelta(days=2))
    assert [t.table for t in tables] == ["Merope", "Alcyone"]
    for t in tables:
        assert "Hero" not in set(t.players["player"]) and len(t.players) == 5


def test_hud_columns_default_per_game_and_kept_as_the_user_chose(
    con: duckdb.DuckDBPyConnection,
) -> None:
    triple = hud_columns(con, "27_triple_draw")
    assert [c.key for c in triple] == list(HUD_KEYS)
    assert (triple[0].low, triple[0].high) == (25.0, 45.0)
    single = [c.key for c in hud_columns(con, "27_single_draw")]
    assert "drawn_2" not in single and single[:2] == ["vpip", "pfr"]
    chosen = [HudColumn("wtsd", 30.0, None), HudColumn("vpip", 20.0, 40.0)]
    set_hud_columns(con, "27_triple_draw", chosen)
    assert list(hud_columns(con, "27_triple_draw")) == chosen
    assert hud_columns(con, "badugi") == triple  # another game keeps its default
    assert list(hud(con)[0].players.columns) == [
        "seat", "player", "hands", "wtsd", "wtsd_d", "vpip", "vpip_d", "person"]
    set_hud_columns(con, "27_triple_draw", None)
    assert hud_columns(con, "27_triple_draw") == triple
    con.execute("INSERT OR REPLACE INTO meta VALUES ('setting:hud_columns:badugi', 'nonsense')")
    assert hud_columns(con, "badugi") == triple  # a setting that does not read: the default


def test_a_figure_is_coloured_by_the_band_it_falls_in() -> None:
    vpip, drawn = HudColumn("vpip", 20.0, 40.0), HudColumn("drawn_1", 1.0, 2.0)
    assert [vpip.band(v) for v in (0.19, 0.20, 0.40, 0.41, None, float("nan"))] == [
        "low", "mid", "mid", "high", None, None]
    assert [drawn.band(v) for v in (0.5, 1.5, 2.5)] == ["low", "mid", "high"]  # cards, no %
    assert HudColumn("vpip").band(0.3) is None  # no range: no colour
    assert HudColumn("snow", None, 10.0).band(0.05) == "mid"


def test_the_days_of_the_graph_by_date_are_the_display_zones(
    con: duckdb.DuckDBPyConnection,
) -> None:
    utc = timeline_figures(con, "Hero").by_date
    assert [f"{d:%Y-%m-%d}" for d in utc["day"]] == ["2026-03-01", "2026-03-02"]
    assert list(utc["hands"]) == [40, 25]
    # Noumea is UTC+11 all year: each session, 12:21-13:16 and 12:28-13:06 UTC, passes
    # its midnight, so the hands before 13:00 UTC fall on one day and the rest on the next
    early = [n for (n,) in con.execute(
        "SELECT count(*) FILTER (WHERE time::TIME < '13:00') FROM player_hands "
        "WHERE player = 'Hero' GROUP BY time::DATE ORDER BY time::DATE").fetchall()]
    noumea = timeline_figures(con, "Hero", zone=ZoneInfo("Pacific/Noumea")).by_date
    assert [f"{d:%Y-%m-%d}" for d in noumea["day"]] == ["2026-03-01", "2026-03-02",
                                                        "2026-03-03"]
    assert list(noumea["hands"]) == [early[0], 40 - early[0] + early[1], 25 - early[1]]
    assert 0 < early[0] < 40 and 0 < early[1] < 25
    assert int(noumea["cum_net"].iloc[-1]) == int(utc["cum_net"].iloc[-1])


def test_the_hud_shows_a_players_own_statistic_chosen_for_it(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    from analysis.statistics.definitions import use_own
    from analysis.statistics.own import load

    folder = tmp_path / "statistics"
    folder.mkdir()
    (folder / "vpip_twice.toml").write_text(
        'name = "VPIP twice"\ndefinition = "Twice the hands played voluntarily."\n'
        'value = "2 * vpip / hands"\nformat = "number"\n')
    use_own(load(folder).stats)
    try:
        chosen = [HudColumn("vpip_twice", None, 1.0), HudColumn("vpip", 20.0, 40.0)]
        set_hud_columns(con, "27_triple_draw", chosen)
        assert list(hud_columns(con, "27_triple_draw")) == chosen
        players = hud(con)[0].players
        assert list(players.columns) == [
            "seat", "player", "hands", "vpip_twice", "vpip_twice_d", "vpip", "vpip_d", "person"]
        assert list(players["vpip_twice_d"]) == list(players["hands"])
        twice = [round(t * n) for t, n in zip(players["vpip_twice"], players["hands"], strict=True)]
        played = [round(2 * v * n) for v, n in zip(players["vpip"], players["vpip_d"], strict=True)]
        assert twice == played and min(played) > 0
    finally:
        use_own(())
    # the file gone: its column is dropped, the rest of the choice kept
    assert list(hud_columns(con, "27_triple_draw")) == chosen[1:]
