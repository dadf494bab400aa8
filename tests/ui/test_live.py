"""AppTest of the Live session and HUD pages over a database another program writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.pipeline.importer import import_paths
from analysis.statistics import live
from analysis.storage import db, memory, settings
from tests.analysis.statistics.test_live import _dealt
from tests.app_support import app_for

BLUE, GREEN, RED = "#cfe2ff", "#d1e7dd", "#f8d7da"  # ui.hud_page.COLOURS: low, mid, high


def _import(path: Path, folder: Path, name: str, text: str) -> None:
    """What the watcher does, from outside the page: a short write, then let go."""
    (folder / name).write_text(text, encoding="utf-8")
    con = db.connect(path)
    try:
        import_paths(con, [folder / name], workers=0)
    finally:
        con.close()


def _metrics(at: object) -> dict[str, str]:
    return {str(m.label): str(m.value) for m in at.metric}  # type: ignore[attr-defined]


@pytest.mark.slow  # over 1.5 s: make test runs it
def test_live_page_shows_the_session_and_sees_new_hands_without_an_import_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "d.duckdb"
    _import(path, tmp_path, "old.txt", _dealt(40, 3))
    at = app_for(path, monkeypatch).run()
    at.switch_page("ui/live_page.py").run()
    assert not at.exception
    assert [t.value for t in at.title] == ["Live session"]
    assert _metrics(at)["Hands"] == "40"
    assert [s.value for s in at.success] == ["Live: hands are arriving."]
    assert len(at.dataframe[0].value) == 10  # the last ten hands
    _import(path, tmp_path, "new.txt", _dealt(25, 4, table="Merope"))
    at.run()
    assert not at.exception
    net = db.connect(path, read_only=True).execute(
        "SELECT sum(net) FROM player_hands WHERE player = 'Hero'").fetchall()[0][0]
    from ui.labels import money

    shown = {"Hands": "65", "Net": money(int(net), currency="USD"),
             "BB/100": _metrics(at)["BB/100"]}
    assert _metrics(at) == shown and shown["Net"].lstrip("-").startswith("$")
    table = at.dataframe[0].value
    assert "Merope" in set(table["table"])  # both tables, one session
    assert not table.isna().any().any()  # an empty cell reads "–", never a grey "None"
    assert "–" in set(table["final hand"])  # a hand folded before showing a final hand


def test_replay_button_opens_the_hand_in_the_replayer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "d.duckdb"
    _import(path, tmp_path, "old.txt", _dealt(12, 3))
    at = app_for(path, monkeypatch).run()
    at.switch_page("ui/live_page.py").run()
    first = at.selectbox(key="live_pick").value
    at.button(key="live_replay").click().run()
    assert not at.exception
    assert [t.value for t in at.title] == ["Replayer"]
    assert at.text_input(key="search_id").value == first


def test_hud_lists_each_opponent_with_figures_and_samples(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "d.duckdb"
    _import(path, tmp_path, "old.txt", _dealt(30, 3))
    at = app_for(path, monkeypatch).run()
    at.switch_page("ui/hud_page.py").run()
    assert not at.exception
    assert [t.value for t in at.title] == ["HUD"]
    assert [str(t.value).split(" · ")[:2] for t in at.text] == [["PokerStars", "table Alcyone"]]
    table = at.dataframe[0].value
    assert list(table.columns) == ["seat", "player", "hands", "VPIP", "PFR", "3B", "Steal",
                                   "FtS", "D1", "D2", "D3", "Pat", "Snow", "Brk", "WTSD"]
    con = db.connect(path, read_only=True)
    seated = con.execute(
        "SELECT player FROM seats WHERE hand = (SELECT max(id) FROM hands) "
        "AND player <> 'Hero' ORDER BY seat").fetchall()
    assert list(table["player"]) == [p for (p,) in seated] and len(seated) == 5
    first = seated[0][0]
    vpip = con.execute(
        "SELECT sum(vpip::INT), count(*) FROM player_hands WHERE player = ?", [first]
    ).fetchall()[0]
    assert table["hands"][0] == vpip[1]
    assert table["VPIP"][0] == f"{100 * vpip[0] / vpip[1]:.0f} ({vpip[1]})"


def test_hud_shows_the_users_note_beside_the_player(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "d.duckdb"
    _import(path, tmp_path, "old.txt", _dealt(30, 3))
    con = db.connect(path)
    seated = [str(p) for (p,) in con.execute(
        "SELECT player FROM seats WHERE hand = (SELECT max(id) FROM hands) "
        "AND player <> 'Hero' ORDER BY seat").fetchall()]
    memory.set_player_note(con, "PokerStars", seated[1], "<b>3-bets light</b>", "red")
    memory.set_player_note(con, "fulltilt", seated[0], "another site's player", None)
    memory.add_alias(con, "reg", "pokerstars", seated[2])
    con.close()
    at = app_for(path, monkeypatch).run()
    at.switch_page("ui/hud_page.py").run()
    assert not at.exception
    table = at.dataframe[0].value
    assert list(table.columns)[:4] == ["seat", "player", "note", "hands"]
    assert list(table["note"]) == ["", "[red] <b>3-bets light</b>", "", "", ""]
    assert list(table["player"]) == [*seated[:2], f"{seated[2]} (reg)", *seated[3:]]


def test_the_sessions_hands_show_the_users_tags(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "d.duckdb"
    _import(path, tmp_path, "old.txt", _dealt(20, 3))
    con = db.connect(path)
    latest = str(con.execute("SELECT key FROM hands ORDER BY time DESC, id DESC LIMIT 1")
                 .fetchall()[0][0])
    memory.add_tags(con, latest, ["good play"])
    con.close()
    at = app_for(path, monkeypatch).run()
    at.switch_page("ui/live_page.py").run()
    assert not at.exception
    assert list(at.dataframe[0].value["tags"]) == ["good play"] + [""] * 9


def test_a_person_picked_counts_the_session_of_every_name_at_every_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "d.duckdb"
    _import(path, tmp_path, "stars.txt", _dealt(30, 3))
    _import(path, tmp_path, "other.txt", _dealt(20, 4, table="Merope").replace("Hero", "Other"))
    con = db.connect(path)  # the second name's hands as another site's (a site's own file)
    other = "(SELECT hand FROM player_hands WHERE player = 'Other')"
    con.execute(f"UPDATE hands SET site = 'fulltilt' WHERE id IN {other}")
    con.execute(f"UPDATE player_hands SET site = 'fulltilt' WHERE hand IN {other}")
    memory.add_alias(con, "me", "pokerstars", "Hero")
    memory.add_alias(con, "me", "fulltilt", "Other")
    net = con.execute(
        "SELECT sum(net) FROM player_hands WHERE (site, player) IN "
        "(('pokerstars', 'Hero'), ('fulltilt', 'Other'))").fetchall()[0][0]
    con.close()
    at = app_for(path, monkeypatch).run()
    at.switch_page("ui/live_page.py").run()
    assert _metrics(at)["Hands"] == "30"  # the detected hero: one name at one site
    at.selectbox(key="live_player").set_value(("", "me")).run()
    assert not at.exception
    from ui.labels import money

    assert _metrics(at)["Hands"] == "50"
    assert _metrics(at)["Net"] == money(int(net), currency="USD")
    assert [str(t.value).split(",")[0] for t in at.text] == ["me"]
    assert len(at.dataframe[0].value) == 10


def _two_days(tmp_path: Path) -> Path:
    """Hero's 40 hands at Alcyone one day and 25 at Merope the next: two sessions."""
    path = tmp_path / "d.duckdb"
    _import(path, tmp_path, "old.txt", _dealt(40, 3))
    _import(path, tmp_path, "new.txt", _dealt(25, 4, day="2026/03/02", table="Merope"))
    return path


@pytest.mark.slow  # over 1.5 s: make test runs it
def test_the_live_page_lists_every_session_and_opens_a_past_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _two_days(tmp_path)
    at = app_for(path, monkeypatch).run()
    at.switch_page("ui/live_page.py").run()
    at.selectbox(key="display_zone").set_value("America/New_York").run()
    assert not at.exception
    assert at.selectbox(key="live_player").options == ["Hero · PokerStars"]
    picker = at.selectbox(key="live_session")
    # stored in UTC, 12:28 to 13:06 and 12:21 to 13:16: shown in New York's winter time
    assert picker.options == ["The latest: 2026-03-02 07:28 EST to 08:06 EST · 25 hands",
                              "2026-03-01 07:21 EST to 08:16 EST · 40 hands"]
    assert [t.value for t in at.text] == ["Hero, 2026-03-02 07:28 EST to 08:06 EST"]
    assert at.dataframe[0].value["time"][0] == "2026-03-02 08:06:34 EST"
    assert _metrics(at)["Hands"] == "25"
    picker.select_index(1).run()
    assert not at.exception
    assert _metrics(at)["Hands"] == "40"
    assert [c.value for c in at.caption][-1:] == ["A past session."]
    assert set(at.dataframe[0].value["table"]) == {"Alcyone"}
    at.number_input(key="live_gap").set_value(24 * 60 + 1).run()  # a day and a minute
    assert not at.exception
    assert at.selectbox(key="live_session").options == [  # one session, across two days
        "The latest: 2026-03-01 07:21 EST to 2026-03-02 08:06 EST · 65 hands"]
    assert _metrics(at)["Hands"] == "65"
    con = db.connect(path, read_only=True)
    assert settings.get(con, live.SESSION_GAP_SETTING, "") == "1441"  # remembered
    con.close()
    again = app_for(path, monkeypatch).run()
    again.switch_page("ui/live_page.py").run()
    assert again.number_input(key="live_gap").value == 1441


def _colours(frame: object) -> dict[tuple[int, int], str]:
    """The background of each styled cell of a data frame element, by (row, column)."""
    styles = str(frame.proto.arrow_data.styler.styles)  # type: ignore[attr-defined]
    out: dict[tuple[int, int], str] = {}
    for block in styles.split("}"):
        if "{" not in block:
            continue
        cells, css = block.split("{")
        colour = css.split("background-color:")[1].split(";")[0].strip()
        for name in cells.split(","):
            row, col = name.strip().split("_row")[1].split("_col")
            out[int(row), int(col)] = colour
    return out


@pytest.mark.slow  # over 1.5 s: make test runs it
def test_the_hud_shows_every_table_of_the_last_minutes_and_never_the_hero(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _two_days(tmp_path)
    at = app_for(path, monkeypatch).run()
    at.switch_page("ui/hud_page.py").run()
    assert not at.exception
    assert "Reading the tables…" not in [c.value for c in at.caption]  # gone once read
    assert [str(t.value).split(" · ")[1] for t in at.text] == ["table Merope"]
    at.selectbox(key="display_zone").set_value("Asia/Tokyo").run()
    assert [str(t.value).split(" · ")[-1] for t in at.text] == ["22:06:34 JST"]
    at.number_input(key="hud_window").set_value(2 * 24 * 60).run()
    assert not at.exception
    assert [str(t.value).split(" · ")[1] for t in at.text] == ["table Merope", "table Alcyone"]
    for frame in at.dataframe:
        assert "Hero" not in set(frame.value["player"]) and len(frame.value) == 5
    con = db.connect(path, read_only=True)
    assert settings.get(con, live.HUD_WINDOW_SETTING, "") == "2880"
    con.close()


def test_the_hud_shows_the_chosen_statistics_in_order_coloured_by_their_ranges(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "d.duckdb"
    _import(path, tmp_path, "old.txt", _dealt(30, 3))
    at = app_for(path, monkeypatch).run()
    at.switch_page("ui/hud_page.py").run()
    table = at.dataframe[0].value
    vpips = [int(v.split(" ")[0]) for v in table["VPIP"]]
    assert vpips == [67, 37, 80, 24, 90]  # the default ranges: under 25, over 45
    assert [_colours(at.dataframe[0])[r, 3] for r in range(5)] == [
        RED, GREEN, RED, BLUE, RED]
    at.multiselect(key="hud_stats_27_triple_draw").set_value(["wtsd", "vpip"]).run()
    at.number_input(key="hud_low_27_triple_draw_vpip").set_value(30.0)
    at.number_input(key="hud_high_27_triple_draw_vpip").set_value(70.0)
    at.number_input(key="hud_low_27_triple_draw_wtsd").set_value(0.0)
    at.number_input(key="hud_high_27_triple_draw_wtsd").set_value(100.0)
    at.button(key="hud_save").click().run()
    assert not at.exception
    shown = at.dataframe[0]
    assert list(shown.value.columns) == ["seat", "player", "hands", "WTSD", "VPIP"]
    colours = _colours(shown)
    assert [colours[r, 4] for r in range(5)] == [GREEN, GREEN, RED, BLUE, RED]
    assert [colours[r, 3] for r in range(5)] == [GREEN] * 5  # every WTSD within 0-100
    at.button(key="hud_reset").click().run()
    assert list(at.dataframe[0].value.columns)[3:5] == ["VPIP", "PFR"]


def test_the_replayer_shows_a_hand_written_in_eastern_time_in_the_zone_picked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "d.duckdb"
    stated = "2026/03/01 12:21:00 UTC [2026/03/01 7:21:00 ET]"
    _import(path, tmp_path, "et.txt", _dealt(1, 3).replace(stated, "2026/01/15 14:12:58 ET"))
    at = app_for(path, monkeypatch).run()
    at.switch_page("ui/replayer_page.py").run()
    for zone, clock in (("America/New_York", "14:12"), ("UTC", "19:12")):
        at.selectbox(key="display_zone").set_value(zone).run()
        assert not at.exception
        picker = at.selectbox(key="replay_hand")
        abbreviation = "EST" if zone != "UTC" else "UTC"
        assert f" · 2026-01-15 {clock} {abbreviation}" in picker.options[0]
        headers = [str(h.proto.body) for h in at.get("html")]
        assert any(f"2026-01-15 {clock}:58 {abbreviation}" in h for h in headers)
