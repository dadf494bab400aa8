"""Statistics from the database: exact values on a small set of hands worked by hand; on
dealt hands and the corpus, the tables' paths agree with each other (one pass and separate
queries, the cube and direct queries, an import and the parsed hands' facts)."""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import date, datetime, timedelta
from itertools import chain

import duckdb
import pytest

from analysis.statistics import figures as stats
from analysis.statistics.definitions import STAT_BY_KEY, STATS, definitions
from analysis.statistics.fact_row import PlayerHandFacts
from analysis.storage.filters import NO_FILTERS, Filters
from engine.record import Game, Hand
from engine.sim.dealer import deal_hands
from tests.analysis.statistics.test_facts import SNOW, STARS_SAMPLE, STEAL_CAP, WALK
from tests.corpus import CORPUS
from tests.statsdb import database

T0 = datetime(2024, 3, 1, 20, 0)
DB = tuple[duckdb.DuckDBPyConnection, list[PlayerHandFacts]]


def small_set() -> list[Hand]:
    """The four hand-built hands, the hero H's two of them 20 minutes apart, then a third
    copy of the snow hand 50 minutes later (a new session for H)."""
    return [
        replace(STARS_SAMPLE, time=T0 - timedelta(days=1)),
        replace(STEAL_CAP, time=T0),
        replace(WALK, time=T0 + timedelta(minutes=5)),
        replace(SNOW, time=T0 + timedelta(minutes=20)),
        replace(SNOW, hand_id="2", time=T0 + timedelta(minutes=70)),
    ]


@pytest.fixture(scope="module")
def small() -> DB:
    return database(small_set())


def values(
    con: duckdb.DuckDBPyConnection, player: str, f: Filters = NO_FILTERS
) -> dict[str, tuple[int, int]]:
    return {s.key: (s.numerator, s.denominator) for s in stats.player_stats(con, player, f)}


def test_hero_is_the_player_dealt_to_most_often(small: DB) -> None:
    con, _ = small
    assert stats.hero_name(con) == "H"
    assert stats.hero_name(con, Filters(game="27_triple_draw")) in ("H", "Hero")
    assert stats.hero_name(con, Filters(site="nowhere")) is None
    players = stats.player_list(con)
    assert players.iloc[0].tolist() == ["H", 3, 3]
    assert len(players) == 11


def test_results_of_the_hero_worked_by_hand(small: DB) -> None:
    con, _ = small
    r = stats.results(con, "H")
    # STEAL_CAP -400 at a 2.00 big bet, SNOW -900 twice at a 1.00 big bet.
    assert (r.hands, r.net, r.rake) == (3, -2200, 0)
    assert r.net_bb == pytest.approx(-2 - 9 - 9)
    assert r.bb_per_100 == pytest.approx(-2000 / 3)
    assert (r.net_showdown, r.net_nonshowdown) == (-1800, -400)
    v = stats.results(con, "V")
    assert (v.hands, v.net, v.rake, v.net_showdown) == (2, 1764, 36, 1764)


def test_rates_of_the_hero_worked_by_hand(small: DB) -> None:
    con, _ = small
    v = values(con, "H")
    assert v["vpip"] == (3, 3)
    assert v["rfi"] == (2, 2)  # the two button raises in SNOW; STEAL_CAP was opened
    assert v["pfr"] == (3, 3)
    assert v["three_bet"] == (1, 1)
    assert v["cap"] == (0, 0)
    assert v["fold_to_three_bet"] == (0, 0)
    assert values(con, "A")["fold_to_three_bet"] == (0, 1)
    assert v["steal"] == (2, 2)
    assert v["fold_to_steal"] == (0, 1)
    assert v["wtsd"] == (2, 3)
    assert v["wsd"] == (0, 2)
    assert v["wwsf"] == (0, 3)
    assert v["af_0"] == (3, 1) and v["afq_0"] == (3, 4)
    assert v["af_1"] == (2, 0) and v["afq_1"] == (2, 4)
    assert v["drawn_1"] == (1, 3) and v["pat_1"] == (2, 3)
    assert v["drawn_2"] == (0, 0)
    assert v["snow"] == (2, 2) and v["break"] == (1, 1) and v["fold_to_pat"] == (1, 1)
    s = {x.key: x for x in stats.player_stats(con, "H")}
    assert s["afq_0"].value == pytest.approx(0.75)
    assert s["cap"].value is None
    assert s["drawn_1"].value == pytest.approx(1 / 3)
    assert s["vpip"].definition == STAT_BY_KEY["vpip"].definition


def test_filters(small: DB) -> None:
    con, _ = small
    assert stats.results(con, "H", Filters(game="27_single_draw")).hands == 2
    assert stats.results(con, "H", Filters(position="SB")).net == -400
    assert stats.results(con, "H", Filters(players_min=3)).hands == 1
    assert stats.results(con, "H", Filters(players_max=2)).hands == 2
    assert stats.results(con, "P1", Filters(date_to=date(2024, 2, 29))).hands == 1
    assert stats.results(con, "P1", Filters(date_from=date(2024, 3, 1))).hands == 0
    assert stats.results(con, "H", Filters(stakes="1/1")).hands == 2
    assert stats.results(con, "H", Filters(site="pokerstars", currency="USD")).hands == 3
    assert stats.results(con, "H", Filters(site="winamax")).bb_per_100 is None


def test_sessions_split_on_gaps_over_thirty_minutes(small: DB) -> None:
    con, _ = small
    s = stats.sessions(con, "H")
    assert s[["session", "hands", "net"]].values.tolist() == [[1, 2, -1300], [2, 1, -900]]
    assert s["minutes"].tolist() == [20.0, 0.0]
    one = stats.sessions(con, "H", gap=timedelta(hours=2))
    assert one["hands"].tolist() == [3]


def test_cumulative_by_hand_and_by_date(small: DB) -> None:
    con, _ = small
    c = stats.cumulative_by_hand(con, "H")
    assert c["cum_net"].tolist() == [-400, -1300, -2200]
    assert c["cum_showdown"].tolist() == [0, -900, -1800]
    assert c["cum_nonshowdown"].tolist() == [-400, -400, -400]
    assert c["cum_net_bb"].tolist() == pytest.approx([-2, -11, -20])
    d = stats.cumulative_by_date(con, "P1")
    assert d[["hands", "net", "cum_net"]].values.tolist() == [[1, 69, 69]]


def test_days_and_sessions_of_hands_on_two_days() -> None:
    """A fourth hand for H the next day: a day and a session of its own."""
    con, _ = database([*small_set(), replace(SNOW, hand_id="3", time=T0 + timedelta(days=1))])
    d = stats.cumulative_by_date(con, "H")
    assert [(day.date(), int(h), int(n), int(c)) for day, h, n, c in
            d[["day", "hands", "net", "cum_net"]].values.tolist()] == [
        (date(2024, 3, 1), 3, -2200, -2200), (date(2024, 3, 2), 1, -900, -3100),
    ]
    s = stats.sessions(con, "H")
    assert s[["session", "hands", "net"]].values.tolist() == [
        [1, 2, -1300], [2, 1, -900], [3, 1, -900],
    ]


def test_by_position_in_acting_order(small: DB) -> None:
    con, _ = small
    p = stats.by_position(con, "H")
    assert p[["position", "hands", "net"]].values.tolist() == [
        ["BTN", 2, -1800], ["SB", 1, -400],
    ]
    assert p["vpip"].tolist() == [1.0, 1.0]


def test_draw_tables(small: DB) -> None:
    con, _ = small
    d = stats.draw_summary(con, "H")
    assert d[["draw", "position", "hands", "pats"]].values.tolist() == [
        [1, "ALL", 3, 2], [1, "BTN", 2, 2], [1, "SB", 1, 0],
    ]
    c = stats.draw_counts(con, "P1")
    assert c[["draw", "position", "cards", "hands"]].values.tolist() == [
        [1, "ALL", 2, 1], [1, "BTN", 2, 1], [2, "ALL", 0, 1], [2, "BTN", 0, 1],
        [3, "ALL", 0, 1], [3, "BTN", 0, 1],
    ]
    w = stats.first_draw_win_rate(con, "H")
    assert w[["cards", "hands", "net", "won"]].values.tolist() == [
        [0, 2, -1800, 0], [1, 1, -400, 0],
    ]
    assert w["bb_per_100"].tolist() == pytest.approx([-900.0, -200.0])


def test_showdown_hands(small: DB) -> None:
    con, _ = small
    everyone = stats.showdown_hands(con)
    assert everyone[["game", "final_class", "hands"]].values.tolist() == [
        ["27_single_draw", "8-low", 2], ["27_single_draw", "paired", 2],
        ["27_triple_draw", "9-low", 1], ["27_triple_draw", "paired", 1],
    ]
    assert everyone["share"].tolist() == [0.5, 0.5, 0.5, 0.5]
    assert stats.showdown_hands(con, player="H")["hands"].tolist() == [2]


def test_every_statistic_has_a_definition_with_its_counts() -> None:
    d = definitions()
    for s in STATS:
        assert s.numerator and s.denominator and s.key in d
        assert s.name in d[s.key]
    assert "30 minutes" in d["session"]


def test_report_to_json_is_plain_data(small: DB) -> None:
    con, _ = small
    j = stats.player_report(con, "H").to_json()
    assert j["results"]["net"] == -2200
    assert [s["key"] for s in j["stats"]] == [s.key for s in STATS]
    assert j["sessions"][0]["hands"] == 2 and j["first_draw"][1]["cards"] == 1
    assert j["by_position"][0]["position"] == "BTN"
    assert [d["cum_net"] for d in j["by_date"]] == [-2200] and "by_hand" not in j
    report = stats.player_report(con, "H")
    assert report.by_hand["cum_net"].tolist() == [-400, -1300, -2200]


# --- the small set's tables for everyone, and dealt hands --------------------------------


def dealt() -> list[Hand]:
    return list(chain(
        deal_hands(500, Game.TRIPLE_DRAW_27, 6, seed=11),
        deal_hands(200, Game.TRIPLE_DRAW_27, 3, seed=12, start=datetime(2024, 5, 2, 9, 0)),
        deal_hands(150, Game.SINGLE_DRAW_27, 4, seed=13),
        deal_hands(150, Game.TRIPLE_DRAW_A5, 2, seed=14),
        deal_hands(150, Game.FIVE_CARD_DRAW, 5, seed=15),
    ))


@pytest.fixture(scope="module")
def big() -> DB:
    return database(dealt())


# player -> (hands, net, rake, net at showdown, net without showdown) in the small set
EVERYONE = {
    "A": (1, 500, 0, 0, 500), "C": (1, -100, 0, 0, -100), "H": (3, -2200, 0, -1800, -400),
    "Hero": (1, -5, 0, 0, -5), "P1": (1, 69, 6, 69, 0), "P2": (1, -10, 0, 0, -10),
    "P3": (1, -60, 0, -60, 0), "P4": (1, 0, 0, 0, 0), "V": (2, 1764, 36, 1764, 0),
    "X": (1, -50, 0, 0, -50), "Y": (1, 50, 0, 0, 50),
}
H_STEAL_CAP = (1, -400, 0, 0, -400)
H_SNOWS = (2, -1800, 0, -1800, 0)


def only(*players: str, **changed: tuple[int, int, int, int, int]
         ) -> dict[str, tuple[int, int, int, int, int]]:
    return {p: changed.get(p, EVERYONE[p]) for p in players}


SUMMARIES = [
    (Filters(), EVERYONE),
    # the snow hands are single draw
    (Filters(game="27_triple_draw"),
     only("A", "C", "H", "Hero", "P1", "P2", "P3", "P4", "X", "Y", H=H_STEAL_CAP)),
    (Filters(position="BTN"), only("A", "H", "P1", "X", H=H_SNOWS)),
    # the five-handed sample and the three-handed steal
    (Filters(players_min=3, players_max=5),
     only("A", "C", "H", "Hero", "P1", "P2", "P3", "P4", H=H_STEAL_CAP)),
    (Filters(date_from=date(2024, 3, 1)), only("A", "C", "H", "V", "X", "Y")),
]


@pytest.mark.parametrize(("f", "want"), SUMMARIES)
def test_summary_of_the_small_set_worked_by_hand(
    small: DB, f: Filters, want: dict[str, tuple[int, int, int, int, int]]
) -> None:
    """The table of every player under each filter: its money worked out from the hands,
    and each statistic's counts those of the player's own page (``player_stats``, whose
    values ``test_rates_of_the_hero_worked_by_hand`` and ``test_summed_statistics`` pin)."""
    con, _ = small
    got = stats.summary(con, f)
    money = ["hands", "net", "rake", "net_showdown", "net_nonshowdown"]
    assert {r["player"]: tuple(int(r[c]) for c in money)
            for r in got.to_dict(orient="records")} == want
    for row in got.to_dict(orient="records"):
        assert row["net_bb"] == pytest.approx(stats.results(con, row["player"], f).net_bb)
        for s in stats.player_stats(con, row["player"], f):
            assert (row[f"{s.key}_n"], row[f"{s.key}_d"]) == (
                pytest.approx(s.numerator), s.denominator), (row["player"], s.key)


def test_summary_rates_of_the_hero(small: DB) -> None:
    con, _ = small
    (h,) = [r for r in stats.summary(con).to_dict(orient="records") if r["player"] == "H"]
    assert (h["vpip_n"], h["vpip_d"], h["wtsd_n"], h["wtsd_d"]) == (3, 3, 2, 3)
    assert h["wtsd"] == pytest.approx(2 / 3)
    assert math.isnan(h["cap"])  # a ratio without a sample


def test_money_is_conserved_over_the_dealt_hands(big: DB) -> None:
    con, rows = big
    got = con.execute("SELECT sum(net) + sum(rake_share) FROM player_hands").fetchone()
    assert got is not None and got[0] == 0
    assert sum(r.net for r in rows) == -sum(r.rake_share for r in rows)


def test_filter_choices_list_what_the_database_holds(small: DB) -> None:
    con, _ = small
    c = stats.filter_choices(con)
    assert c["site"] == ["pokerstars"]
    assert c["game"] == ["27_single_draw", "27_triple_draw"]
    assert c["stakes"] == ["0.10/0.20", "1/1", "1/2"]
    assert c["position"] == ["UTG", "CO", "BTN", "SB", "BB"]
    assert c["players"] == [2, 3, 5]
    assert c["dates"] == [date(2024, 2, 29), date(2024, 3, 1)]


def test_cash_and_tournament_filters(small: DB) -> None:
    con, _ = small
    assert stats.results(con, "H", Filters(tournament=False)).hands == 3
    assert stats.results(con, "H", Filters(tournament=True)).hands == 0


# --- through the real import: the same statistics as the parsed hands' facts ----------



@pytest.mark.slow
def test_imported_corpus_statistics_equal_a_direct_pass_over_the_parsed_hands() -> None:
    import pandas as pd

    from analysis.pipeline.importer import import_paths
    from analysis.pipeline.verify_files import verify_paths
    from analysis.statistics.facts import hand_facts
    from analysis.storage.db import connect
    from analysis.storage.rows import hand_key

    con = connect(":memory:")
    import_paths(con, [CORPUS], workers=0)
    # a hand the corpus holds in two files (Merge's game 33423082-14, alone and in its
    # session) is stored once, as the importer stores the same hand once: so is it here
    seen: set[str] = set()
    results = []
    for res in verify_paths([CORPUS]):
        if res.hand is not None:
            key = hand_key(res.hand.site, res.hand.hand_id, res.hand.table, res.hand.time, res.text)
            if key in seen:
                continue
            seen.add(key)
        results.append(res)
    rows = [r for res in results if res.hand is not None for r in hand_facts(res.hand)]
    assert len(rows) >= 200
    direct, _ = database(res.hand for res in results if res.hand is not None)
    pd.testing.assert_frame_equal(stats.summary(con), stats.summary(direct))
    pd.testing.assert_frame_equal(stats.showdown_hands(con), stats.showdown_hands(direct))
    assert len(stats.summary(con)) >= 20
    assert stats.hero_name(con) == "Hero"
    ok = [r for res in results if res.status == "ok" and res.hand is not None
          for r in hand_facts(res.hand)]
    valid = stats.summary(con, Filters(valid_only=True))
    assert int(valid["hands"].sum()) == len(ok) < len(rows)
    assert int(valid["net"].sum()) == sum(r.net for r in ok)


def test_summary_by_more_columns_without_statistics(small: DB) -> None:
    con, _ = small
    df = stats.summary(con, by=("game", "stakes"), stats=())
    assert list(df.columns) == [
        "player", "game", "stakes", "hands", "net", "net_bb", "rake", "net_showdown",
        "net_nonshowdown", "bb_per_100",
    ]
    h = df[df["player"] == "H"][["game", "stakes", "hands", "net"]].values.tolist()
    assert h == [["27_single_draw", "1/1", 2, -1800], ["27_triple_draw", "1/2", 1, -400]]


def test_report_splits_money_by_currency() -> None:
    from analysis.statistics.text import render_report

    con, _ = database([SNOW, replace(SNOW, hand_id="9", currency="EUR")])
    report = stats.player_report(con, "H")
    assert report.by_currency[["currency", "hands", "net"]].values.tolist() == [
        ["EUR", 1, -900], ["USD", 1, -900],
    ]
    text = render_report(report)
    assert "  the sums above mix currencies; by currency:" in text.splitlines()
    one, _ = database([SNOW])
    assert "mix currencies" not in render_report(stats.player_report(one, "H"))


@pytest.mark.parametrize("f", [Filters(), Filters(game="27_triple_draw"), Filters(site="none")])
def test_overview_in_one_pass_equals_the_separate_queries(big: DB, f: Filters) -> None:
    import pandas as pd

    con, _ = big
    for player in ("Hero", "deuce7"):
        totals, values, positions = stats.overview(con, player, f)
        alone = stats.results(con, player, f)
        assert replace(totals, net_bb=0, bb_per_100=0) == replace(alone, net_bb=0, bb_per_100=0)
        assert totals.net_bb == pytest.approx(alone.net_bb)
        assert values == stats.player_stats(con, player, f)
        pd.testing.assert_frame_equal(positions, stats.by_position(con, player, f),
                                      check_dtype=False)
    assert stats.overview(con, "Hero", Filters(site="none"))[0].hands == 0


def test_untimed_hands_count_by_hand_but_not_in_sessions_or_days() -> None:
    con, _ = database([*small_set(), replace(SNOW, hand_id="77", time=None)])
    assert stats.results(con, "H").hands == 4
    assert stats.cumulative_by_hand(con, "H")["cum_net"].tolist() == [-400, -1300, -2200, -3100]
    assert stats.sessions(con, "H")["hands"].tolist() == [2, 1]
    assert stats.cumulative_by_date(con, "H")["hands"].tolist() == [3]


def test_a_player_without_hands_gets_empty_tables_not_errors(small: DB) -> None:
    con, _ = small
    report = stats.player_report(con, "nobody")
    assert report.results.hands == 0 and report.results.bb_per_100 is None
    assert all(s.denominator == 0 and s.value is None for s in report.stats)
    for df in (report.sessions, report.draws, report.draw_counts, report.first_draw,
               report.showdown, report.by_position, stats.cumulative_by_hand(con, "nobody"),
               stats.cumulative_by_date(con, "nobody")):
        assert df.empty
    assert list(report.sessions.columns)[:4] == ["session", "start", "end", "hands"]


def test_draw_tables_for_everyone(small: DB) -> None:
    con, _ = small
    c = stats.draw_counts(con, None)
    assert c[["draw", "position", "cards", "hands"]].values.tolist() == [
        # draw 1: pats by A and H (twice), H's one card, P1, P3 and V (twice) take two, P2
        # three
        [1, "ALL", 0, 3], [1, "ALL", 1, 1], [1, "ALL", 2, 4], [1, "ALL", 3, 1],
        [1, "UTG", 2, 1], [1, "BTN", 0, 3], [1, "BTN", 2, 1], [1, "SB", 1, 1],
        [1, "BB", 2, 2], [1, "BB", 3, 1],
        # the sample's P1 (pat) and P3 (two, then one) on the later draws
        [2, "ALL", 0, 1], [2, "ALL", 2, 1], [2, "UTG", 2, 1], [2, "BTN", 0, 1],
        [3, "ALL", 0, 1], [3, "ALL", 1, 1], [3, "UTG", 1, 1], [3, "BTN", 0, 1],
    ]
    w = stats.first_draw_win_rate(con, None)
    assert w[["cards", "hands", "net", "won"]].values.tolist() == [
        [0, 3, 500 - 1800, 1], [1, 1, -400, 0], [2, 4, -60 + 69 + 1764, 3], [3, 1, -10, 0],
    ]
    s = stats.draw_summary(con, None, Filters(game="27_triple_draw"))
    first = s[(s["draw"] == 1) & (s["position"] == "ALL")].iloc[0]
    # P1, P2, P3 of the sample and A, H of the steal: 2 + 3 + 2 + 0 + 1 cards
    assert (int(first["hands"]), int(first["pats"])) == (5, 1)
    assert first["mean_cards"] == pytest.approx(8 / 5)


def test_report_tables_rolled_up_from_the_cube_equal_direct_queries(big: DB) -> None:
    import pandas as pd

    con, _ = big
    report = stats.player_report(con, "Hero")
    direct = stats.summary(con, player="Hero", by=("currency",), stats=()).drop(columns="player")
    pd.testing.assert_frame_equal(report.by_currency, direct, check_dtype=False)
    got = report.showdown[["game", "final_class", "hands"]].values.tolist()
    want = con.execute(
        "SELECT game, final_class, count(*) FROM player_hands WHERE player = 'Hero' "
        "AND final_class IS NOT NULL GROUP BY ALL"
    ).fetchall()
    assert sorted(map(tuple, got)) == sorted(want)


def test_summary_groups_only_by_table_columns(small: DB) -> None:
    con, _ = small
    with pytest.raises(ValueError, match="not a player_hands column: x; DROP"):
        stats.summary(con, by=("x; DROP",))
