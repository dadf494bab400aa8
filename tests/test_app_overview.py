"""AppTest of the Overview & statistics page (the app's default page) on the corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis import db, stats
from analysis.stat_defs import STATS, definitions
from analysis.stats import Filters
from tests.app_support import (  # noqa: F401  (fixtures)
    STARS_TRIPLE,
    app_for,
    corpus_db_file_fixture,
    corpus_db_fixture,
    markdown_sources,
)

DEFS = definitions()


def _metrics(at: object) -> dict[str, tuple[str, str]]:
    return {m.label: (m.value, m.help) for m in at.metric}  # type: ignore[attr-defined]


def _money(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) / 100:,.2f}"


def test_overview_is_the_default_page_and_shows_the_detected_hero(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = app_for(corpus_db, monkeypatch).run()
    assert not at.exception
    assert [t.value for t in at.title] == ["Overview & statistics"]
    con = db.connect(corpus_db)
    hero = stats.hero_name(con)
    assert hero == "Hero"
    assert at.selectbox(key="hero").value == "Hero"
    res = stats.results(con, "Hero")
    m = _metrics(at)
    assert m["Hands"] == (f"{res.hands:,}", DEFS["hands"])
    assert m["Net won"][0] == _money(res.net)
    assert m["Showdown"][0] == _money(res.net_showdown)
    assert m["Non-showdown"][0] == _money(res.net_nonshowdown)
    assert res.hands == 57  # the corpus's cash hands where "Hero" is dealt in


def test_every_statistic_is_shown_with_its_definition_on_hover(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = app_for(corpus_db, monkeypatch).run()
    con = db.connect(corpus_db)
    values = {v.key: v for v in stats.player_stats(con, "Hero")}
    m = _metrics(at)
    for s in STATS:
        v = values[s.key]
        value, help_text = m[s.name]
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
    at.selectbox(key="hero").set_value("Player1").run()
    assert not at.exception
    res = stats.results(db.connect(corpus_db), "Player1")
    assert _metrics(at)["Hands"][0] == f"{res.hands:,}"
    assert res.hands != 57


def test_game_filter_restricts_the_figures(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = app_for(corpus_db, monkeypatch).run()
    games = at.selectbox(key="f_game").options
    assert "2-7 Triple Draw" in games and "Five-Card Draw" in games
    at.selectbox(key="f_game").set_value("27_triple_draw").run()
    assert not at.exception
    con = db.connect(corpus_db)
    hero = stats.hero_name(con, Filters(game="27_triple_draw"))
    assert at.selectbox(key="hero").value == hero
    res = stats.results(con, str(hero), Filters(game="27_triple_draw"))
    assert _metrics(at)["Hands"][0] == f"{res.hands:,}"


def test_opponents_table_leaves_out_the_hero_and_has_every_statistic(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = app_for(corpus_db, monkeypatch).run()
    table = at.dataframe[-1].value
    assert "Hero" not in set(table["player"])
    assert list(table.columns) == ["player", "hands", "net", "bb_per_100",
                                   *[s.key for s in STATS]]
    everyone = stats.summary(db.connect(corpus_db))
    assert sorted(table["player"]) == sorted(p for p in everyone["player"] if p != "Hero")


def test_four_charts_are_drawn(corpus_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = app_for(corpus_db, monkeypatch).run()
    assert len(at.get("plotly_chart")) == 4


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
    at = app_for(corpus_db, monkeypatch).run()
    shown = [str(t.value) for t in at.text]
    assert shown[0].startswith("Showing Hero over 63 hands, ")
    assert not any("Showing" in s for s in markdown_sources(at))


def test_mixed_currencies_are_flagged_and_one_can_be_picked(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = app_for(corpus_db, monkeypatch).run()
    currencies = at.selectbox(key="f_currency").options
    assert sorted(currencies) == ["(all)", "EUR", "USD", "play"]
    assert [w.value for w in at.warning] == [
        "These sums add money of several currencies together (cash, play money or "
        "tournament chips): pick one under Currency in the sidebar."
    ]
    at.selectbox(key="f_currency").set_value("USD").run()
    assert not at.exception
    assert [w.value for w in at.warning] == []
    con = db.connect(corpus_db)
    res = stats.results(con, "Hero", Filters(currency="USD"))
    m = _metrics(at)
    assert m["Hands"][0] == f"{res.hands:,}"
    assert m["Net won"][0] == _money(res.net)
    assert 0 < res.hands < 57
