"""``hand_cells``: the replayer's pot units and its lists in time order read from the
hands' counts and a few days' row groups (a player's hands looked for among candidates,
in their own seats) are exactly what counting, ordering and joining every hand gives,
under every filter the replayer sets, after imports in any order of time; and the counts
are never read stale."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

from analysis.pipeline.importer import import_paths
from analysis.storage import db, hand_cells, marks, queries, stat_cells, summaries
from analysis.storage.filters import NO_FILTERS, Filters
from tests.paths import REPOSITORY
from tests.store_data import CORPUS, stars_hand_texts
from tests.summary_support import redeclare

SAMPLES = REPOSITORY / "sample_histories"
_HEAD = re.compile(r"^(PokerStars (?:Game|Hand) #)(\d+)", re.MULTILINE)
_WHEN = re.compile(r"- \d{4}/\d{2}/\d{2} \d{1,2}:\d{2}:\d{2} \w+( \[[^\]]*\])?")
START = datetime(2021, 3, 1, 18, 30, 0)
LIMITS = (1, 3, 7, 40, 200)


def _parts(tmp: Path, n: int, parts: int) -> list[Path]:
    """``n`` hands a few hours apart in ``parts`` files, hand ``i`` in file ``i % parts``:
    each file spans the same days, so every import after the first lands between stored
    hands and the ids are not in time order."""
    base = stars_hand_texts()
    out = []
    for k in range(parts):
        texts = []
        for i in range(k, n, parts):
            text = _HEAD.sub(f"\\g<1>{810_000_000_000 + i}", base[i % len(base)], count=1)
            when = START + timedelta(hours=5 * i)
            texts.append(_WHEN.sub(f"- {when:%Y/%m/%d %H:%M:%S} ET", text, count=1))
        path = tmp / f"part{k}.txt"
        path.write_text("\n\n\n".join(texts) + "\n\n\n", encoding="utf-8")
        out.append(path)
    return out


def _general(monkeypatch: pytest.MonkeyPatch) -> None:
    """Count and order every hand, as before the cells, and join every hand with the
    seats and rows a filter asks about (no candidates, so no ``among``)."""
    monkeypatch.setattr(hand_cells, "current", lambda con: False)
    monkeypatch.setattr(queries, "_days_enough", lambda *args: None)
    monkeypatch.setattr(queries, "ROUNDS", 0)


def _filters(con: db.Connection) -> list[Filters]:
    """What the replayer sets (site, game, verdict, player), alone and together, and the
    other fields the cells answer or decline (days, money, problems, stakes)."""
    sites = [str(s) for (s,) in con.execute("SELECT DISTINCT site FROM hands ORDER BY 1")
             .fetchall()]
    games = [str(g) for (g,) in con.execute("SELECT DISTINCT game FROM hands ORDER BY 1")
             .fetchall()]
    players = [str(p) for (p,) in con.execute(
        "SELECT player FROM seats GROUP BY player ORDER BY count(*) DESC, player LIMIT 3"
    ).fetchall()]
    span = db.one(con, "SELECT min(time)::DATE, max(time)::DATE FROM hands")
    assert span is not None
    first, last = span
    middle = first + (last - first) / 2
    out = [NO_FILTERS, Filters(status="ok"), Filters(status="invalid"), Filters(valid_only=True),
           Filters(with_problems=True), Filters(with_problems=False), Filters(tournament=True),
           Filters(tournament=False), Filters(currency="USD"), Filters(date_to=middle),
           Filters(date_from=middle), Filters(date_from=middle, date_to=middle),
           Filters(stakes="0.10/0.20"), Filters(site="nowhere")]
    out += [Filters(site=s) for s in sites] + [Filters(game=g) for g in games]
    out += [Filters(site=sites[0], game=g, status="ok") for g in games]
    out += [Filters(player=p) for p in players]
    out += [Filters(player=p, game=g) for p in players[:2] for g in games]
    out += [Filters(player=players[0], status="ok"), Filters(player=players[0], position="BTN")]
    return out


def _check(con: db.Connection, monkeypatch: pytest.MonkeyPatch) -> int:
    """Every list and pot unit the cells answer equals the general path's; returns how
    many lists the cells' days answered (so a test can say the fast path ran)."""
    assert hand_cells.current(con) and stat_cells.current(con)
    filters = _filters(con)
    fast_lists = {}
    answered = 0
    for f in filters:
        for newest in (True, False):
            for limit in LIMITS:
                wanted = limit + (3 if limit == 7 else 0)
                answered += queries._days_enough(con, f, wanted, newest) is not None
                fast_lists[f, newest, limit] = queries.list_hands(
                    con, f, limit=limit, offset=wanted - limit, newest_first=newest)
    units = {f: queries.pot_units(con, f) for f in filters}
    with monkeypatch.context() as m:
        _general(m)
        for (f, newest, limit), got in fast_lists.items():
            offset = 3 if limit == 7 else 0
            want = queries.list_hands(con, f, limit=limit, offset=offset, newest_first=newest)
            assert got.equals(want), (f, newest, limit)
        for f, got_units in units.items():
            assert got_units == queries.pot_units(con, f), f
    return answered


@pytest.mark.slow
def test_the_counts_equal_every_hand_counted_and_ordered_on_the_corpus(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    con = db.connect(tmp_path / "c.duckdb")
    import_paths(con, [CORPUS], workers=0)
    import_paths(con, [SAMPLES], workers=0)  # tournaments, other sites, PHH home games
    assert _check(con, monkeypatch) > 100


@pytest.mark.slow
def test_the_counts_hold_after_imports_out_of_time_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each import lands between stored hands (``extend`` counts only the new ones), and
    the lists found within the last days are still the whole table's; repeated cells
    compacted at every import (``min_compact`` 0) count the same."""
    redeclare(monkeypatch, hand_cells, min_compact=0)
    con = db.connect(tmp_path / "o.duckdb")
    for path in _parts(tmp_path, 300, 3):
        import_paths(con, [path], workers=0)
        assert hand_cells.current(con)
        _check(con, monkeypatch)
    ids = [int(i) for i in queries.list_hands(con, limit=300)["id"]]
    assert ids != sorted(ids, reverse=True)  # ids are not time order: the order is time's
    row = db.one(con, f"SELECT sum(hands), count(*) FROM {hand_cells.TABLE}")
    mark = marks.read_mark(con, hand_cells.MARK)
    assert row is not None and int(row[0]) == 300
    assert mark is not None and 0 < int(mark["compacted"]) < int(row[1]) <= 2 * int(
        mark["compacted"])  # compacted once the cells doubled, the later ones appended


def test_the_newest_hands_read_only_their_days(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A list in time order reads the hands of the days the cells say hold enough:
    ``_top`` is asked with a condition on ``time`` that starts at the right day."""
    con = db.connect(tmp_path / "d.duckdb")
    import_paths(con, _parts(tmp_path, 120, 1), workers=0)
    days = hand_cells.days(con, NO_FILTERS, True)
    assert days is not None and days[0] == (date(2021, 3, 26), 4)  # hands 5 hours apart
    assert hand_cells.reach(days, 5) == date(2021, 3, 25)
    assert hand_cells.reach(days, 121) is None
    asked: list[tuple[str, list[object]]] = []
    real = queries._top

    def spy(db_: db.Connection, f: Filters, order: str, extra: str, params: list[object],
            limit: int, offset: int) -> object:
        asked.append((extra, params))
        return real(db_, f, order, extra, params, limit, offset)

    monkeypatch.setattr(queries, "_top", spy)
    got = queries.list_hands(con, limit=5)
    assert asked == [("h.time >= ?", [datetime(2021, 3, 25)])]
    assert len(got) == 5


def test_the_counts_are_never_read_stale(tmp_path: Path) -> None:
    """Hands added behind the cells' back, or the mark invalidated (``drawlab
    reverify`` rewriting hands in place), make them not current until ``extend``."""
    con = db.connect(tmp_path / "s.duckdb")
    import_paths(con, [CORPUS / "cash"], workers=0)
    assert hand_cells.current(con)
    summaries.invalidate(con)
    assert not hand_cells.current(con)
    assert hand_cells.pot_units(con, NO_FILTERS) is None
    summaries.extend(con)
    assert hand_cells.current(con)
    con.execute("INSERT INTO hands SELECT * REPLACE (id + 100000 AS id, key || '~' AS key) "
                "FROM hands WHERE id = (SELECT min(id) FROM hands)")
    assert not hand_cells.current(con)
    assert hand_cells.SUMMARY.extend(con) == 1 and hand_cells.current(con)
    total = db.one(con, "SELECT count(*) FROM hands")
    row = db.one(con, f"SELECT sum(hands) FROM {hand_cells.TABLE}")
    assert total is not None and row is not None and int(row[0]) == int(total[0])
    con.execute("UPDATE meta SET value = 'not json' WHERE name = ?", [hand_cells.MARK])
    assert not hand_cells.current(con)
    assert hand_cells.SUMMARY.extend(con) == int(total[0])  # a damaged mark: counted anew
    assert hand_cells.current(con)
