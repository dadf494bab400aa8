"""AppTest of the Tournaments page: totals by currency, filters, groups, hands to the replayer."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.pipeline.importer import import_paths
from analysis.storage import db
from tests.app_support import app_for, copy_db, summaries_db_file_fixture  # noqa: F401
from tests.corpus import CORPUS

SNG = CORPUS / "tour" / "Stars" / "Draw"


@pytest.fixture(scope="module")
def db_file(summaries_db_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's summaries copied, and the PokerStars sit-and-gos' hands added."""
    path = copy_db(summaries_db_file, tmp_path_factory.mktemp("tours"))
    con = db.connect(path)
    try:
        import_paths(con, [SNG], workers=0)
    finally:
        con.close()
    return path


def _metrics(at: object) -> dict[str, str]:
    return {str(m.label): str(m.value) for m in at.metric}  # type: ignore[attr-defined]


def test_totals_in_the_most_played_currency_then_another(
    db_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = app_for(db_file, monkeypatch).run()
    at.switch_page("ui/tournaments_page.py").run()
    assert not at.exception
    assert [t.value for t in at.title] == ["Tournaments"]
    assert at.selectbox(key="t_currency").value == "USD"
    assert _metrics(at) == {
        "Tournaments": "14", "Cost": "$4,150.65", "Prizes": "$704.88", "Bounties": "$160.00",
        "Net": "-$3,285.77", "ROI": "-79.2%", "In the money": "42.9%",
        "Average finish": "230.6",
    }
    listed = at.dataframe[2].value
    assert len(listed) == 14 and listed["tournament"].iloc[0] == "2874010306"
    at.selectbox(key="t_currency").set_value("EUR").run()
    assert _metrics(at)["Net"] == "-€4.18"
    games = at.dataframe[0].value
    assert [tuple(row) for row in games[["game", "tournaments"]].values] == [
        ("–", 2), ("holdem-no-limit", 2), ("No Limit Hold'em", 1)]


def test_filters_by_kind_and_game(db_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = app_for(db_file, monkeypatch).run()
    at.switch_page("ui/tournaments_page.py").run()
    at.selectbox(key="t_kind").set_value("satellite").run()
    assert _metrics(at)["Tournaments"] == "1"
    at.selectbox(key="t_kind").set_value("(all)").run()
    at.selectbox(key="t_game").set_value("27_triple_draw").run()
    assert list(at.dataframe[2].value["tournament"]) == ["243560420", "211366000"]
    by_buy_in = at.dataframe[1].value
    assert list(by_buy_in["buy-in"]) == ["$10.00", "$31.50"]


def test_a_tournaments_hands_open_in_the_replayer(
    db_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = app_for(db_file, monkeypatch).run()
    at.switch_page("ui/tournaments_page.py").run()
    at.selectbox(key="t_game").set_value("27_single_draw").run()
    at.text_input(key="t_player").set_value("Hero").run()
    listed = at.dataframe[2].value
    assert list(listed["tournament"]) == ["476454368"]
    at.button(key="t_open").click().run()
    assert not at.exception
    assert [t.value for t in at.title] == ["Replayer"]
    assert len(at.session_state["replayer_hand_ids"]) == 1


def test_a_person_counts_the_tournaments_of_every_name_at_every_site(
    db_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    from analysis.storage import memory

    path = tmp_path / "t.duckdb"
    shutil.copy(db_file, path)
    con = db.connect(path)
    memory.add_alias(con, "reg", "pokerstars", "joiso")
    memory.add_alias(con, "reg", "fulltilt", "synthesiis")
    con.close()
    at = app_for(path, monkeypatch).run()
    at.switch_page("ui/tournaments_page.py").run()
    at.selectbox(key="t_person").set_value("reg").run()
    assert not at.exception
    assert at.text_input(key="t_player").disabled
    assert _metrics(at) == {  # joiso's $3,710.00 at PokerStars and synthesiis' $1.10
        "Tournaments": "2", "Cost": "$3,711.10", "Prizes": "$0.00", "Bounties": "$0.00",
        "Net": "-$3,711.10", "ROI": "-100.0%", "In the money": "0.0%",
        "Average finish": "29.0",
    }
    listed = at.dataframe[2].value
    assert [tuple(r) for r in listed[["site", "player", "cost"]].values] == [
        ("PokerStars", "joiso", "$3,710.00"), ("Full Tilt", "synthesiis", "$1.10")]
