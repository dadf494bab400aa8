"""AppTest of the Overview & statistics page (the app's default page) on the corpus."""

from __future__ import annotations

import base64
import json
from dataclasses import replace
from datetime import UTC
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from analysis.pipeline.importer import import_paths
from analysis.statistics import figures as stats
from analysis.statistics.definitions import STATS, definitions, use_own
from analysis.statistics.hands_behind import Target
from analysis.statistics.own import facts
from analysis.storage import db, memory
from analysis.storage.filters import Filters
from cli import main
from tests.app_support import (  # noqa: F401  (fixtures)
    STARS_TRIPLE,
    app_for,
    corpus_db_file_fixture,
    corpus_db_fixture,
    markdown_sources,
)
from tests.corpus import CORPUS
from tests.paths import REPOSITORY

DEFS = definitions()
# the view checked, as the page shows it by default: the hands with errors left out
STARS_USD = Filters(valid_only=True, site="pokerstars", currency="USD", tournament=False)
TOURNAMENT = CORPUS / "tour" / "Stars" / "Draw"
SAMPLE_FILE = (REPOSITORY / "sample_histories" / "pokerstars"
               / "27_triple_draw_fl_0.50-1_headsup.txt")


def formats(element: object) -> dict[str, str | None]:
    """A table's number formats by column, as the browser's grid applies them to the
    cells (``st.column_config``): the page sends numbers, the browser writes them."""
    columns = json.loads(element.proto.columns)  # type: ignore[attr-defined]
    return {k: c.get("type_config", {}).get("format") for k, c in columns.items()}


TABLE_COLUMN = {"opponents": "vpip_d", "sessions_table": "start", "stakes_table": "stakes",
                "draw_table": "mean_cards"}  # a column only that table has


def table(at: AppTest, key: str) -> pd.DataFrame:
    """One of the page's tables (a plain ``st.dataframe`` carries no key to find it by)."""
    found = [d.value for d in at.dataframe if TABLE_COLUMN[key] in d.value.columns]
    assert len(found) == 1, key
    return found[0]


def opened(at: AppTest, section: str) -> AppTest:
    """The page with ``section`` open under the chart (one drawn at a time)."""
    at.session_state["details_shown"] = section
    at.run()
    assert not at.exception
    return at


def _metrics(at: object) -> dict[str, tuple[str, str]]:
    return {m.label: (m.value, m.help) for m in at.metric}  # type: ignore[attr-defined]


def stars_app(corpus_db: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """The page showing Hero at PokerStars in USD cash (``STARS_USD``), the view most tests
    check: the corpus's PokerStars hands have several games, positions and sessions. It is
    picked, not the default: since the Full Tilt 10-game file is read, Hero plays most at
    Full Tilt (the first test checks the default against the data)."""
    at = app_for(corpus_db, monkeypatch).run()
    at.selectbox(key="hero").set_value(("pokerstars", "Hero")).run()
    assert not at.exception
    return at


def _money(cents: int, symbol: str) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}{symbol}{abs(cents) / 100:,.2f}"


def test_overview_is_the_default_page_and_shows_the_detected_hero(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = app_for(corpus_db, monkeypatch).run()
    assert not at.exception
    assert [t.value for t in at.title] == ["Overview & statistics"]
    con = db.connect(corpus_db)
    assert stats.hero_name(con) == "Hero"
    # the default is the (site, money) with the most hands of the detected hero, counted
    # here from the stored rows: Hero at Full Tilt in USD cash (40 hands, more than the 29 at
    # PokerStars, since the Full Tilt 10-game file's 2-7 and Badugi Hero hands are read);
    # one hand of each has errors, left out of the figures by default
    most = con.execute(
        "SELECT site, tournament_id IS NOT NULL, currency, count(*) AS n FROM player_hands "
        "WHERE is_hero AND player = 'Hero' GROUP BY ALL ORDER BY n DESC LIMIT 2").fetchall()
    assert most == [("fulltilt", False, "USD", 40), ("pokerstars", False, "USD", 29)]
    assert at.selectbox(key="hero").value == ("fulltilt", "Hero")
    assert at.selectbox(key="f_money").value == (False, "USD")
    tilt = stats.results(con, "Hero", Filters(valid_only=True, site="fulltilt", currency="USD",
                                              tournament=False))
    assert _metrics(at)["Hands"][0] == "39" == f"{tilt.hands:,}"
    at.selectbox(key="hero").set_value(("pokerstars", "Hero")).run()
    assert not at.exception
    res = stats.results(con, "Hero", STARS_USD)
    m = _metrics(at)
    assert m["Hands"] == (f"{res.hands:,}", DEFS["hands"])
    assert m["Net won"][0] == _money(res.net, "$")
    assert m["Showdown"][0] == _money(res.net_showdown, "$")
    assert m["Non-showdown"][0] == _money(res.net_nonshowdown, "$")
    assert res.hands == 28  # of the corpus's 107 cash hands where "Hero" is dealt in


def test_every_statistic_is_shown_with_its_definition_on_hover(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = stars_app(corpus_db, monkeypatch)
    con = db.connect(corpus_db)
    values = {v.key: v for v in stats.player_stats(con, "Hero", STARS_USD)}
    shown: dict[str, tuple[str, str]] = {}
    for group in dict.fromkeys(s.group for s in STATS):  # one tab drawn at a time
        at.session_state["stat_group"] = group.capitalize()
        m = _metrics(at.run())
        assert not {s.name for s in STATS if s.group != group} & set(m)
        shown.update(m)
    for s in STATS:
        v = values[s.key]
        value, help_text = shown[s.name]
        assert help_text == f"{s.definition} Sample: {v.numerator} of {v.denominator}."
        if v.value is None:
            assert value == "–"
        elif s.kind == "rate":
            assert value == f"{100 * v.value:.1f}%"
        else:
            assert value == f"{v.value:.2f}"


def test_picking_another_hero_changes_the_figures(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = app_for(corpus_db, monkeypatch).run()
    at.selectbox(key="hero").set_value(("pokerstars", "Player1")).run()
    assert not at.exception
    res = stats.results(db.connect(corpus_db), "Player1", STARS_USD)
    assert _metrics(at)["Hands"][0] == f"{res.hands:,}"
    assert res.hands == 9  # and one hand with errors, left out


def test_game_filter_restricts_the_figures(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = stars_app(corpus_db, monkeypatch)
    games = at.selectbox(key="f_game").options
    assert "2-7 Triple Draw" in games and "Five-Card Draw" in games
    at.selectbox(key="f_game").set_value("27_triple_draw").run()
    assert not at.exception
    con = db.connect(corpus_db)
    assert at.selectbox(key="hero").value == ("pokerstars", "Hero")
    res = stats.results(con, "Hero", Filters(valid_only=True, site="pokerstars",
                                             game="27_triple_draw", currency="USD",
                                             tournament=False))
    assert _metrics(at)["Hands"][0] == f"{res.hands:,}"
    assert 0 < res.hands < 29
    # the line above the figures counts the same hands
    assert at.text[0].value.startswith(f"Showing Hero at PokerStars over {res.hands} hands, ")


def test_opponents_are_players_at_a_site_each_figure_beside_its_sample(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = opened(stars_app(corpus_db, monkeypatch), "Opponents")
    opponents = table(at, "opponents")
    pairs = list(zip(opponents["site"], opponents["player"], strict=True))
    assert ("PokerStars", "Hero") not in pairs  # the hero
    assert ("Full Tilt", "Hero") in pairs  # the same name at another site: another player
    assert list(opponents.columns) == ["site", "player", "hands", "net", "bb_per_100",
                                       *[c for s in STATS for c in (s.key, f"{s.key}_d")]]
    everyone = stats.summary(db.connect(corpus_db), STARS_USD.__class__(
        valid_only=True, currency="USD", tournament=False), by=("site",))
    assert len(opponents) == len(everyone) - 1
    row = opponents[(opponents["site"] == "PokerStars") & (opponents["player"] == "Player1")]
    mine = everyone[(everyone["site"] == "pokerstars") & (everyone["player"] == "Player1")]
    assert int(row["vpip_d"].iloc[0]) == int(mine["vpip_d"].iloc[0]) == 9
    [element] = [d for d in at.dataframe if "vpip_d" in d.value.columns]
    assert element.proto.placeholder == "–"  # an empty figure reads as a dash, not "None"
    assert opponents.isna().any().any()  # and there are empty figures
    shown = formats(element)
    assert shown["net"] == "dollar"  # USD as labels.money writes it: -$12.34
    assert shown["bb_per_100"] == "%.2f"
    for s in STATS:  # a rate in percent with one decimal, its sample a bare count
        assert shown[s.key] == ("%.1f%%" if s.kind == "rate" else "%.2f")
        assert shown[f"{s.key}_d"] is None
    # the cells are numbers (sorting sorts numbers); money in units, rates in percent
    assert int(row["net"].iloc[0] * 100) == int(mine["net"].iloc[0])
    assert row["vpip"].iloc[0] == pytest.approx(100 * mine["vpip"].iloc[0])


def test_minimum_hands_leaves_out_small_samples(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = opened(app_for(corpus_db, monkeypatch).run(), "Opponents")
    before = table(at, "opponents")
    at.number_input(key="min_hands").set_value(10).run()
    assert not at.exception
    after = table(at, "opponents")
    assert sorted(after["hands"]) == sorted(h for h in before["hands"] if h >= 10)
    assert 0 < len(after) < len(before)


@pytest.mark.slow  # over 1.5 s: make test runs it
def test_money_is_never_summed_across_currencies_or_with_chips(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    con = db.connect(corpus_db)
    import_paths(con, [TOURNAMENT], workers=0)
    con.close()
    at = stars_app(corpus_db, monkeypatch)
    # the hero's own hands of each kind at his site, his most played first: 28 in USD
    # cash (one more has errors), one tournament hand; never the database's counts
    options = at.selectbox(key="f_money").options
    assert options == ["Cash games in USD · 28 hands", "Tournaments (chips) · 1 hand"]
    assert [w.value for w in at.warning] == []
    at.selectbox(key="f_money").set_value((True, "chips")).run()
    assert not at.exception
    assert at.selectbox(key="hero").value == ("pokerstars", "Hero")
    res = stats.results(db.connect(corpus_db), "Hero",
                        Filters(valid_only=True, site="pokerstars", currency="chips",
                                tournament=True))
    assert res.hands == 1 and res.net % 100 == 0
    m = _metrics(at)
    assert m["Hands"][0] == "1"
    assert m["Net won"][0] == f"{res.net // 100:,}"  # whole chips, not money
    assert at.text[0].value.endswith("(Tournaments (chips)).")


def test_final_hand_chart_shows_one_game_at_a_time(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = stars_app(corpus_db, monkeypatch)
    at.session_state["chart_shown"] = "Final hands"
    at.run()
    shown = stats.showdown_hands(db.connect(corpus_db), Filters(
        site="pokerstars", currency="USD", tournament=False), "Hero")
    games = list(shown.groupby("game")["hands"].sum().sort_values(ascending=False).index)
    assert len(games) > 1
    assert at.selectbox(key="final_game").options == [
        {"27_triple_draw": "2-7 Triple Draw", "27_single_draw": "2-7 Single Draw",
         "five_card_draw": "Five-Card Draw"}[g] for g in games]
    for game in games:
        at.selectbox(key="final_game").set_value(game).run()
        chart = _chart(at, "chart_final")
        assert len(chart["data"]) == 1
        classes = list(shown[shown["game"] == game]["final_class"])
        assert _values(chart["data"][0]["x"]) == classes
        # "Hands behind" lists the showdown classes of the game drawn
        offered = at.selectbox(key="open_target").options
        assert [o for o in offered if o.startswith("Showdowns with ")] == [
            f"Showdowns with {c}" for c in classes]


def _chart(at: AppTest, key: str) -> Any:
    """The plotly figure the page sent under ``key``."""
    found = [c for c in at.get("plotly_chart") if c.proto.id.endswith(key)]
    assert len(found) == 1, key
    return json.loads(found[0].proto.spec)


def _values(packed: Any) -> list[Any]:
    """A trace's array as sent: a list, or plotly's ``{"dtype", "bdata"}`` binary form."""
    if isinstance(packed, dict):
        return list(np.frombuffer(base64.b64decode(packed["bdata"]), dtype=packed["dtype"]))
    return list(packed)


def test_results_by_hands_and_by_date(corpus_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = stars_app(corpus_db, monkeypatch)
    assert len(at.get("plotly_chart")) == 1  # one chart at a time: the results by hands
    assert len(_values(_chart(at, "chart_results")["data"][0]["x"])) == 28
    at.session_state["chart_shown"] = "Results by date"
    at.run()
    assert len(at.get("plotly_chart")) == 1
    days = stats.cumulative_by_date(db.connect(corpus_db), "Hero", STARS_USD)
    total = _chart(at, "chart_results_date")["data"][0]
    assert _values(total["x"]) == [f"{d:%Y-%m-%d}" for d in days["day"]]
    assert _values(total["y"]) == [v / 100 for v in days["cum_net"]]


@pytest.mark.slow  # over 1.5 s: make test runs it
def test_one_chart_at_a_time_its_pick_remembered_across_pages(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = stars_app(corpus_db, monkeypatch)
    drawn = {"Results by hands": "chart_results", "Results by date": "chart_results_date",
             "Win rate by position": "chart_positions", "Cards drawn": "chart_draws",
             "Final hands": "chart_final"}
    assert at.get("segmented_control")[0].options == list(drawn)
    for choice, key in drawn.items():
        at.session_state["chart_shown"] = choice
        [chart] = at.run().get("plotly_chart")
        assert chart.proto.id.endswith(key), choice
        # no click is wanted on the cards drawn: plotly.js draws a picture, no hover
        assert json.loads(chart.proto.config) == (
            {"displayModeBar": False, "staticPlot": True} if key == "chart_draws"
            else {"displayModeBar": False})
    at.switch_page("ui/review_page.py").run()
    at.switch_page("ui/overview_page.py").run()
    assert not at.exception
    [chart] = at.get("plotly_chart")
    assert chart.proto.id.endswith("chart_final")  # the last pick, kept for the session


def test_sessions_and_results_by_stakes(corpus_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = opened(stars_app(corpus_db, monkeypatch), "Stakes & sessions")
    con = db.connect(corpus_db)
    sessions = stats.sessions(con, "Hero", STARS_USD)
    shown = table(at, "sessions_table")
    assert list(shown["hands"]) == list(sessions["hands"])
    assert list(shown["net"]) == list(sessions["net"] / 100)
    assert int(shown["hands"].sum()) == 28
    at.selectbox(key="display_zone").set_value("Europe/Paris").run()  # UTC+1 in winter
    paris = [(t.replace(tzinfo=UTC).astimezone(ZoneInfo("Europe/Paris")))
             .strftime("%Y-%m-%d %H:%M %Z") for t in sessions["start"]]
    shown = table(at, "sessions_table")
    assert list(shown["start"]) == paris and paris[0].endswith(("CET", "CEST"))
    [element] = [d for d in at.dataframe if "start" in d.value.columns]
    assert formats(element)["net"] == "dollar" and formats(element)["minutes"] == "%.0f"
    stakes = table(at, "stakes_table")
    [element] = [d for d in at.dataframe if "stakes" in d.value.columns]
    assert {k: formats(element)[k] for k in ("net", "rake", "bb_per_100")} == {
        "net": "dollar", "rake": "dollar", "bb_per_100": "%.2f"}
    expected = stats.by_stakes(con, "Hero", STARS_USD)
    assert list(stakes["stakes"]) == list(expected["stakes"])
    assert list(stakes["hands"]) == list(expected["hands"])
    assert int(stakes["hands"].sum()) == 28


KEY_FIGURES = ["Hands", "Net won", "Big bets / 100", "Showdown", "Non-showdown", "Rake paid"]


def test_a_filter_change_with_the_statistics_open_draws_no_table(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One section under the chart at a time, the statistics first: a filter change
    draws the key figures and the open group of statistics, none of the four tables."""
    at = stars_app(corpus_db, monkeypatch)
    [picker] = [c for c in at.get("segmented_control") if c.key == "details_shown"]
    assert picker.options == ["Statistics", "Stakes & sessions", "Draws", "Opponents"]
    assert picker.value == "Statistics"
    first = [s.name for s in STATS if s.group == STATS[0].group]
    for position in ("BTN", "(all)"):
        at.selectbox(key="f_position").set_value(position).run()
        assert not at.exception
        assert len(at.dataframe) == 0
        labels = [m.label for m in at.metric]
        assert labels[:6] == KEY_FIGURES and sorted(labels[6:]) == sorted(first)
        assert [s.value for s in at.subheader] == ["Statistics"]
    assert _metrics(at)["Hands"][0] == "28"


@pytest.mark.slow  # over 1.5 s: make test runs it
def test_a_section_opened_draws_its_tables_alone_with_their_figures(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = stars_app(corpus_db, monkeypatch)
    con = db.connect(corpus_db)
    buttons = Filters(valid_only=True, site="pokerstars", currency="USD", tournament=False,
                      position="BTN")
    opened(at, "Stakes & sessions")
    assert [s.value for s in at.subheader] == ["Results by stakes", "Sessions"]
    assert [m.label for m in at.metric] == KEY_FIGURES  # no statistics drawn
    assert len(at.dataframe) == 2
    assert list(table(at, "stakes_table")["hands"]) == list(
        stats.by_stakes(con, "Hero", STARS_USD)["hands"])
    opened(at, "Draws")
    [drawn] = at.dataframe
    expected = stats.draw_summary(con, "Hero", STARS_USD)
    assert list(drawn.value["hands"]) == list(expected["hands"])
    assert list(drawn.value["pats"]) == list(expected["pats"])
    assert [s.value for s in at.subheader] == ["Draws by position"]
    opened(at, "Opponents")
    assert [s.value for s in at.subheader] == ["Opponents"]
    assert len(at.dataframe) == 1
    # the section stays open through a filter change, its figures the new filters'
    at.selectbox(key="f_position").set_value("BTN").run()
    assert not at.exception
    assert [s.value for s in at.subheader] == ["Opponents"]
    shown = table(at, "opponents")
    everyone = stats.summary(con, replace(buttons, site=None), by=("site",))
    row = shown[(shown["site"] == "PokerStars") & (shown["player"] == "Player1")]
    mine = everyone[(everyone["site"] == "pokerstars") & (everyone["player"] == "Player1")]
    assert int(row["hands"].iloc[0]) == int(mine["hands"].iloc[0])
    assert len(shown) == len(everyone) - 1  # every player but the hero
    # and for the session: another page and back, the opponents again
    at.switch_page("ui/review_page.py").run()
    at.switch_page("ui/overview_page.py").run()
    assert not at.exception
    assert [s.value for s in at.subheader] == ["Opponents"]
    assert len(at.dataframe) == 1


def test_position_filter(corpus_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = stars_app(corpus_db, monkeypatch)
    at.selectbox(key="f_position").set_value("BTN").run()
    assert not at.exception
    res = stats.results(db.connect(corpus_db), "Hero", Filters(
        site="pokerstars", currency="USD", tournament=False, position="BTN"))
    assert _metrics(at)["Hands"][0] == f"{res.hands:,}" == "5"


@pytest.mark.parametrize(("target", "behind"), [
    (Target("stat", "vpip", "hits"), {"stat": "vpip", "counted": "hits"}),
    (Target("stat", "vpip", "sample"), {"stat": "vpip", "counted": "sample"}),
    (Target("position", "BTN"), {"column": "position", "value": "BTN"}),
    (Target("all"), {}),
])
def test_the_hands_behind_a_figure_open_in_the_replayer(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch, target: Target,
    behind: dict[str, object],
) -> None:
    at = stars_app(corpus_db, monkeypatch)
    at.selectbox(key="open_target").set_value(target).run()
    at.button(key="open_replayer").click().run()
    assert not at.exception
    expected = stats.hand_ids(db.connect(corpus_db), "Hero", STARS_USD, **behind)  # type: ignore[arg-type]
    assert at.session_state["replayer_hand_ids"] == expected
    assert len(expected) == {"hits": 11, "sample": 27, "BTN": 5, "all": 28}[
        str(target.counted or target.value or target.kind)]
    assert [t.value for t in at.title] == ["Replayer"]
    # the replayer lists exactly those hands, in that order, and opens the first
    assert at.radio(key="finder").value == "Sent here"
    assert at.session_state["replay_ids"] == expected
    assert at.selectbox(key="replay_hand").value == expected[0]


def test_empty_database_points_to_the_import_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "samples"
    empty.mkdir()
    monkeypatch.setattr("ui.state.SAMPLES", empty)
    at = app_for(tmp_path / "empty.duckdb", monkeypatch).run()
    assert not at.exception
    assert [i.value for i in at.info] == [
        "The database holds no hands yet: import some on the Import page."
    ]


def test_first_start_imports_the_bundled_samples(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    samples = tmp_path / "samples"
    samples.mkdir()
    (samples / "one.txt").write_bytes(STARS_TRIPLE.read_bytes())
    monkeypatch.setattr("ui.state.SAMPLES", samples)
    path = tmp_path / "fresh.duckdb"
    at = app_for(path, monkeypatch).run()
    assert not at.exception
    assert _metrics(at)["Hands"][0] == "1"
    con = db.connect(path)
    assert stats.hero_name(con) == "Hero"


def test_the_hero_is_named_in_plain_text(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = stars_app(corpus_db, monkeypatch)
    at.selectbox(key="display_zone").set_value("UTC").run()  # the days are the zone's
    shown = [str(t.value) for t in at.text]
    assert shown[0] == ("Showing Hero at PokerStars over 28 hands, 2009-11-25 to 2016-05-11 "
                        "(UTC) (Cash games in USD).")
    assert not any("Showing" in s for s in markdown_sources(at))


def test_the_money_offered_is_the_heros_and_never_changes_the_hero(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = app_for(corpus_db, monkeypatch).run()
    at.selectbox(key="hero").set_value(("boss", "Hero")).run()
    assert not at.exception
    assert at.selectbox(key="f_money").options == ["Cash games in EUR · 15 hands"]
    assert at.selectbox(key="hero").value == ("boss", "Hero")
    con = db.connect(corpus_db)
    res = stats.results(con, "Hero", Filters(valid_only=True, site="boss", currency="EUR",
                                             tournament=False))
    m = _metrics(at)
    assert m["Hands"][0] == f"{res.hands:,}" == "15"
    assert m["Net won"][0] == _money(res.net, "$").replace("-", "-€") if res.net < 0 else \
        "€" + _money(res.net, "$")


@pytest.mark.slow  # over 1.5 s: make test runs it
def test_a_tag_filters_the_figures_and_a_player_note_joins_the_opponents(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    con = db.connect(corpus_db)
    hands = [int(r[0]) for r in con.execute(
        "SELECT DISTINCT hand FROM player_hands WHERE site = 'pokerstars' AND player = 'Hero' "
        "AND currency = 'USD' AND tournament_id IS NULL ORDER BY hand LIMIT 3").fetchall()]
    keys = [str(r[0]) for r in con.execute(
        "SELECT key FROM hands WHERE id IN (SELECT unnest(?::BIGINT[]))", [hands]).fetchall()]
    for key in keys:
        memory.add_tags(con, key, ["review"])
    memory.set_player_note(con, "pokerstars", "Player1", "[x](https://evil.example/)", "red")
    con.close()
    at = opened(stars_app(corpus_db, monkeypatch), "Opponents")
    opponents = table(at, "opponents")
    assert list(opponents.columns)[:4] == ["site", "player", "note", "hands"]
    noted = opponents[opponents["note"] != ""]
    assert list(zip(noted["player"], noted["note"], strict=True)) == [
        ("Player1", "[red] [x](https://evil.example/)")]
    assert at.selectbox(key="f_tag").options == ["(all)", "bad beat", "good play", "mistake",
                                                 "review"]
    at.selectbox(key="f_tag").set_value("review").run()
    assert not at.exception
    at.selectbox(key="hero").set_value(("pokerstars", "Hero")).run()
    assert _metrics(at)["Hands"][0] == "3"


def test_a_person_is_picked_as_the_hero_with_every_name(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    con = db.connect(corpus_db)
    memory.add_alias(con, "me", "pokerstars", "Hero")
    memory.add_alias(con, "me", "fulltilt", "Hero")
    both = stats.results(con, "me", Filters(valid_only=True, currency="USD", tournament=False,
                                            names=("fulltilt:Hero", "pokerstars:Hero")))
    stars = stats.results(con, "Hero", STARS_USD)
    con.close()
    at = app_for(corpus_db, monkeypatch).run()
    assert at.selectbox(key="hero").options[:2] == ["Hero · Full Tilt", "me · every name"]
    at.selectbox(key="hero").set_value(("", "me")).run()
    assert not at.exception
    assert both.hands > stars.hands > 0
    assert _metrics(at)["Hands"][0] == f"{both.hands:,}"
    assert any(str(t.value).startswith("Showing me (fulltilt:Hero, pokerstars:Hero) over ")
               for t in at.text)
    opened(at, "Opponents")
    pairs = set(zip(table(at, "opponents")["site"], table(at, "opponents")["player"],
                    strict=True))
    assert ("PokerStars", "Hero") not in pairs and ("Full Tilt", "Hero") not in pairs


@pytest.mark.slow  # over 1.5 s: make test runs it
def test_filters_are_saved_and_picked_again(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = stars_app(corpus_db, monkeypatch)
    at.selectbox(key="f_position").set_value("BTN").run()
    at.text_input(key="saved_filters_name").set_value("buttons").run()
    at.button(key="saved_filters_save").click().run()
    assert not at.exception
    assert [s.value for s in at.success] == ["Saved the filters as:"]
    assert "buttons" in [t.value for t in at.text]
    con = db.connect(corpus_db)
    saved = memory.saved_filters(con, "buttons")
    con.close()
    assert (saved.position, saved.currency, saved.tournament) == ("BTN", "USD", False)
    at.selectbox(key="f_position").set_value("(all)").run()
    at.selectbox(key="saved_filters_pick").set_value("buttons").run()
    assert not at.exception
    assert at.selectbox(key="f_position").value == "BTN"
    assert [s.value for s in at.success] == ["Applied the saved filters:"]


@pytest.mark.slow  # over 1.5 s: make test runs it
def test_hands_with_errors_are_left_out_by_one_remembered_switch(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    at = stars_app(corpus_db, monkeypatch)
    assert at.toggle(key="leave_out_errors").value is True  # the default: left out
    assert _metrics(at)["Hands"][0] == "28"
    assert "1 hand with errors left out of these figures" in next(c.value for c in at.caption)
    # the command line's --valid-only counts the same hands as the page
    assert main(["stats", "--db", str(corpus_db), "--player", "Hero", "--site", "pokerstars",
                 "--currency", "USD", "--kind", "cash", "--valid-only", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)["report"]
    assert report["results"]["hands"] == 28
    at.toggle(key="leave_out_errors").set_value(False).run()
    assert not at.exception
    assert _metrics(at)["Hands"][0] == "29"
    assert "These figures include 1 hand with errors" in next(c.value for c in at.caption)
    # remembered: a new visit (another session, a later start) finds the switch as left
    again = app_for(corpus_db, monkeypatch).run()
    assert again.toggle(key="leave_out_errors").value is False
    opponents = table(opened(again, "Opponents"), "opponents")
    tilt = opponents[(opponents["site"] == "Full Tilt") & (opponents["player"] == "Player1")]
    opened(at, "Opponents")
    left_out = table(at.toggle(key="leave_out_errors").set_value(True).run(), "opponents")
    tilt_valid = left_out[(left_out["site"] == "Full Tilt") & (left_out["player"] == "Player1")]
    assert int(tilt["hands"].iloc[0]) == int(tilt_valid["hands"].iloc[0]) + 1


def test_every_option_is_the_heros_stakes_with_their_money(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = stars_app(corpus_db, monkeypatch)
    con = db.connect(corpus_db)
    expected = stats.by_stakes(con, "Hero", STARS_USD)
    stakes = at.selectbox(key="f_stakes")
    assert stakes.options[1:] == [
        "$" + "/$".join(str(s).split("/")) for s in sorted(set(expected["stakes"]))]
    days = at.date_input(key="f_dates").value
    first = stats.cumulative_by_date(con, "Hero", STARS_USD)["day"]
    assert (days[0], days[-1]) == (first.iloc[0].date(), first.iloc[-1].date())


@pytest.mark.slow  # over 1.5 s: make test runs it
def test_a_pick_the_next_hero_lacks_is_dropped_and_the_hero_kept(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = stars_app(corpus_db, monkeypatch)
    at.selectbox(key="f_game").set_value("27_triple_draw").run()  # Boss deals 5-card draw
    at.selectbox(key="hero").set_value(("boss", "Hero")).run()
    assert not at.exception
    assert at.selectbox(key="hero").value == ("boss", "Hero")
    assert at.selectbox(key="f_game").value == "(all)"
    res = stats.results(db.connect(corpus_db), "Hero",
                        Filters(valid_only=True, site="boss", currency="EUR", tournament=False))
    assert _metrics(at)["Hands"][0] == f"{res.hands:,}"
    assert at.text[0].value.startswith("Showing Hero at Boss over ")


@pytest.mark.slow  # over 1.5 s: make test runs it
def test_samples_are_marked_kept_apart_and_removed_in_one_click(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "samples"
    folder.mkdir()
    (folder / "sample.txt").write_bytes(SAMPLE_FILE.read_bytes())
    monkeypatch.setattr("ui.state.SAMPLES", folder)
    path = tmp_path / "fresh.duckdb"
    at = app_for(path, monkeypatch).run()
    assert not at.exception
    notice = ("The database holds the 300 bundled sample hands: simulated, not yours, kept "
              "apart from the hands you import. Remove them on the Import page.")
    assert [i.value for i in at.info] == [notice]
    assert _metrics(at)["Hands"][0] == "300"
    assert at.text[0].value.endswith("(Cash games in USD, the bundled samples).")
    con = db.connect(path)
    import_paths(con, [STARS_TRIPLE], workers=0)  # the user's own "Hero" at PokerStars
    con.close()
    at = app_for(path, monkeypatch).run()
    assert [i.value for i in at.info] == [notice]
    assert at.radio(key="show_samples").value == "Your hands"
    assert _metrics(at)["Hands"][0] == "1"  # never the samples' 300 added in
    at.radio(key="show_samples").set_value("The bundled samples").run()
    assert _metrics(at)["Hands"][0] == "300"
    at.switch_page("ui/import_page.py").run()
    at.button(key="remove_samples").click().run()
    assert not at.exception
    assert [i.value for i in at.info] == []
    assert at.success[0].value.startswith("Removed the 300 sample hands")
    at.switch_page("ui/overview_page.py").run()
    assert _metrics(at)["Hands"][0] == "1"
    assert [r.key for r in at.radio] == []


def test_own_statistics_are_shown_beside_the_others_and_broken_files_named(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = corpus_db.parent / "statistics"
    folder.mkdir()
    (folder / "mine.toml").write_text(
        'name = "Pat *aggression*"\ndefinition = "Pat bets and check-raises, _per_ chance."\n'
        'value = "(pat_bet + check_raise) / (pat_bet_opp + check_raise_opp)"\n',
        encoding="utf-8")
    (folder / "broken.toml").write_text(
        'name = "Broken"\ndefinition = "Not a fact."\nvalue = "vpip / nothing"\n',
        encoding="utf-8")
    try:
        at = stars_app(corpus_db, monkeypatch)
        con = db.connect(corpus_db)
        mine = {v.key: v for v in stats.player_stats(con, "Hero", STARS_USD)}["mine"]
        con.close()
        at.session_state["stat_group"] = "Your own"  # its group's tab, drawn when open
        at.run()
        value, help_text = _metrics(at)[r"Pat \*aggression\*"]  # plain text, not Markdown
        assert help_text == (r"Pat \*aggression\*\: Pat bets and check\-raises, \_per\_ "
                             rf"chance\. Sample: {mine.numerator} of {mine.denominator}.")
        assert value == ("–" if mine.value is None else f"{100 * mine.value:.1f}%")
        assert "mine" in table(opened(at, "Opponents"), "opponents").columns
        assert [w.value for w in at.warning if "statistic file" in str(w.value)] == [
            "1 statistic file of yours could not be loaded:"]
        assert [t.value for t in at.text if "broken.toml" in str(t.value)] == [
            f"{folder / 'broken.toml'}, line 3: no fact named 'nothing'; the facts are "
            + ", ".join(sorted(facts()))]
    finally:
        use_own(())
