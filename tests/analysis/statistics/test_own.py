"""The player's own statistics: files that load, files refused with their line and reason
(the others still load), and the values they give from the rows and from the cells."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from analysis.statistics import figures
from analysis.statistics.definitions import all_stats, catalog, definitions, use_own
from analysis.statistics.own import FOLDER, Loaded, Refusal, facts, folder_of, load
from analysis.storage import stat_cells
from analysis.storage.filters import Filters
from tests.analysis.statistics.test_figures import small_set
from tests.statsdb import database

GOOD = """\
name = "Pat aggression"
definition = "How often a pat hand bets when checked to or check-raises when it can."
value = "(pat_bet + check_raise) / (pat_bet_opp + check_raise_opp)"
"""


@pytest.fixture(autouse=True)
def no_own_statistics_after() -> Iterator[None]:
    yield
    use_own(())


def write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def refused(tmp_path: Path, text: str) -> Refusal:
    folder = write(tmp_path / FOLDER, {"bad.toml": text, "good.toml": GOOD})
    loaded = load(folder)
    assert [s.key for s in loaded.stats] == ["good"]  # the rest still load
    (refusal,) = loaded.refusals
    assert refusal.file == str(folder / "bad.toml")
    return refusal


def test_a_statistic_file_loads_with_its_key_from_the_file_name(tmp_path: Path) -> None:
    loaded = load(write(tmp_path, {"pat-aggression.toml": GOOD}))
    assert loaded.refusals == ()
    (stat,) = loaded.stats
    assert (stat.key, stat.name, stat.group, stat.kind) == (
        "pat_aggression", "Pat aggression", "your own", "rate")
    assert stat.definition == (
        "Pat aggression: How often a pat hand bets when checked to or check-raises when it can.")
    assert stat.num_sql == ("(coalesce(coalesce(count_if(pat_bet), 0), 0) + "
                            "coalesce(coalesce(count_if(check_raise), 0), 0))")
    assert stat.cell_den == ('(coalesce(sum("pat_bet_d"), 0) + '
                             'coalesce(sum("check_raise_d"), 0))')


def test_a_file_written_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    (tmp_path / "bom.toml").write_bytes(GOOD.encode("utf-8-sig"))
    assert [s.name for s in load(tmp_path).stats] == ["Pat aggression"]


def test_a_folder_that_cannot_be_listed_is_one_refusal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def denied(self: Path, pattern: str) -> list[Path]:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "glob", denied)
    assert load(tmp_path) == Loaded((), (
        Refusal(str(tmp_path), 1, "cannot be read: [Errno 13] Permission denied"),))


def test_the_folder_is_beside_the_database() -> None:
    assert folder_of("/home/p/.drawlab/drawlab.duckdb") == Path("/home/p/.drawlab/statistics")
    assert folder_of(":memory:") is None
    assert load(None).stats == () and load(Path("/nonexistent/statistics")).stats == ()


@pytest.mark.parametrize(("text", "line", "reason"), [
    ('name = "X"\ndefinition = "Y"\n\nvalue = "vpip / nonsense"\n', 4,
     "no fact named 'nonsense'; the facts are "),
    ('name = "X"\ndefinition = "Y"\nvalue = "(vpip + / hands"\n', 3,
     "the value does not parse: invalid syntax"),
    ('name = "X"\ndefinition = "Y"\nvalue = "vpip + pfr"\n', 3,
     "the value must be a ratio, numerator / denominator"),
    ('name = "X"\ndefinition = "Y"\nvalue = "(vpip / pfr) / hands"\n', 3,
     "a division cannot be part of a count"),
    ('name = "X"\ndefinition = "Y"\nvalue = "__import__(\'os\').getcwd() / hands"\n', 3,
     "call (__import__('os').getcwd()) cannot be part of a count"),
    ('name = "X"\ndefinition = "Y"\nvalue = "vpip.real / hands"\n', 3,
     "attribute (vpip.real) cannot be part of a count"),
    ('name = "X"\ndefinition = "Y"\nvalue = "vpip * 1.5 / hands"\n', 3,
     "constant (1.5) cannot be part of a count"),
    ('name = "X"\nvalue = "vpip / hands"\n', 1, "no definition"),
    ('name = "X"\ndefinition = "Y"\nvalue = "vpip / hands"\nkey = "vpip"\n', 4,
     "the key 'vpip' is another statistic's"),
    ('name = "X"\ndefinition = "Y"\nvalue = vpip / hands\n', 3, "not TOML: "),
    ('name = "X"\ndefinition = "Y"\nvalue = 3\n', 3, "value must be text in quotes"),
    ('name = "X"\ndefinition = "Y"\nvalue = "vpip / hands"\nformat = "odd"\n', 4,
     'format must be "percent" or "number"'),
])
def test_a_broken_file_is_refused_with_its_line_and_reason(
    tmp_path: Path, text: str, line: int, reason: str
) -> None:
    refusal = refused(tmp_path, text)
    assert refusal.line == line
    assert refusal.reason.startswith(reason), refusal.reason
    assert str(refusal) == f"{refusal.file}, line {line}: {refusal.reason}"


def test_the_facts_are_the_ones_the_statistics_count() -> None:
    known = facts()
    assert known["vpip"].cells == "vpip_n" and known["predraw_acted"].cells == "vpip_d"
    assert known["pat_bet_opp"].rows == "coalesce(count_if(pat_bet_opp), 0)"
    assert known["calls_1"].rows == "sum(calls_1)"
    assert known["hands"].cells == "hands"
    assert "went_to_showdown AND saw_draw_1" not in known


def test_an_own_statistic_is_shown_beside_the_built_in_ones_from_rows_and_cells(
    tmp_path: Path,
) -> None:
    text = GOOD.replace("(pat_bet + check_raise) / (pat_bet_opp + check_raise_opp)",
                        "(snowed + 2 * vpip - 1) / hands")
    use_own(load(write(tmp_path, {"mine.toml": text})).stats)
    assert [s.key for s in all_stats()][-1] == "mine"
    assert catalog()[-1].label == "Pat aggression" and "mine" in definitions()
    con, rows = database(small_set())
    mine = [r for r in rows if r.player == "H"]
    expected = (sum(r.snowed for r in mine) + 2 * sum(r.vpip for r in mine) - 1, len(mine))
    from_rows = {s.key: s for s in figures.player_stats(con, "H")}["mine"]
    assert (from_rows.numerator, from_rows.denominator) == expected == (7, 3)
    stat_cells.SUMMARY.rebuild(con)
    assert stat_cells.current(con)
    assert figures._rows(con, Filters(), "H").cells  # the overview below sums the cells
    _, from_cells, _ = figures.overview(con, "H")
    assert {s.key: s for s in from_cells}["mine"] == from_rows
    table = figures.summary(con)
    assert table.loc[table["player"] == "H", "mine"].tolist() == [7 / 3]


def test_the_catalog_lists_every_statistic_for_any_page() -> None:
    info = {i.key: i for i in catalog()}
    assert list(info) == [s.key for s in all_stats()]
    assert {"fold_after_last_draw", "check_raise", "pat_bet", "vpip"} <= set(info)
    assert (info["three_bet"].label, info["three_bet"].group) == ("3B", "pre-draw")
    assert info["rfi"].label == "Raise first in"  # no short label: the name
    assert info["pat_bet"].definition.startswith("Bet when checked to after standing pat: ")
