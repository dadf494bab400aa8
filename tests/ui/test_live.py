"""AppTest of the Live session and HUD pages over a database another program writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.pipeline.importer import import_paths
from analysis.storage import db, memory
from tests.analysis.statistics.test_live import _dealt
from tests.app_support import app_for


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
