"""The drills' progress in DuckDB: answers, boxes, levels, score and streaks, round trip."""

from __future__ import annotations

import itertools
import random
from datetime import datetime, timedelta
from pathlib import Path

import duckdb
import pytest

from analysis.drills import progress, session, showdown
from analysis.drills.progress import SHOWDOWN, record
from analysis.drills.schedule import TopicState
from analysis.storage import db
from analysis.storage.schema import MIGRATIONS, migrate
from engine.ranking import Ranking

T0 = datetime(2026, 3, 1, 20, 0)


def answer(con: db.Connection, correct: bool, topic: str = "wheel", *, seconds: float = 5.0,
           drill: str = SHOWDOWN, at: int = 0, game: str = "27") -> progress.Recorded:  # fmt: skip
    return record(con, drill, game, topic, correct, seconds, {"q": at}, {"a": at},
                  now=T0 + timedelta(minutes=at))  # fmt: skip


def test_answers_boxes_and_levels_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "p.duckdb"
    con = db.connect(path)
    flags = [True, True, False, True, True, True, True, True, True]
    recs = [answer(con, c, at=i) for i, c in enumerate(flags)]
    assert [r.points for r in recs] == [15, 15, 0, 15, 15, 15, 25, 25, 25]
    assert [r.streak for r in recs] == [1, 2, 0, 1, 2, 3, 4, 5, 6]
    assert [r.box for r in recs] == [2, 3, 1, 2, 3, 4, 5, 5, 5]
    # level 1 -> 2 after six answers with five right and a median time under 20 s
    assert [(r.level_before, r.level_after) for r in recs][5:7] == [(1, 2), (2, 2)]
    con.close()

    con = db.connect(path)
    assert progress.level(con, SHOWDOWN) == 2
    assert progress.clock(con, SHOWDOWN) == 9
    assert progress.topic_states(con, SHOWDOWN) == {
        "27/wheel": TopicState("27/wheel", 5, 9 + 16, 9)
    }
    s = progress.summary(con)
    assert (s.answered, s.correct, s.score, s.streak, s.best_streak) == (9, 8, 150, 6, 6)
    assert s.accuracy == pytest.approx(8 / 9)
    rows = con.execute(
        "SELECT id, drill, topic, game, level, correct, seconds, question, answer "
        "FROM drill_answers ORDER BY id LIMIT 2"
    ).fetchall()
    assert rows == [
        (1, SHOWDOWN, "wheel", "27", 1, True, 5.0, '{"q": 0}', '{"a": 0}'),
        (2, SHOWDOWN, "wheel", "27", 1, True, 5.0, '{"q": 1}', '{"a": 1}'),
    ]
    con.close()


def test_level_drops_after_a_bad_window(tmp_path: Path) -> None:
    con = db.connect(tmp_path / "p.duckdb")
    con.execute("INSERT INTO drill_levels VALUES (?, 3, 0)", [SHOWDOWN])
    recs = [answer(con, i == 0, at=i) for i in range(6)]
    assert [r.level_after for r in recs] == [3, 3, 3, 3, 3, 2]
    # the window starts again at the new level
    recs = [answer(con, True, at=10 + i, seconds=30.0) for i in range(6)]
    assert [r.level_after for r in recs] == [2] * 6  # right but slower than 15 s: stays


def test_topics_by_drill_and_game_and_the_history(tmp_path: Path) -> None:
    con = db.connect(tmp_path / "p.duckdb")
    answer(con, True, "tie", at=0)
    answer(con, False, "tie", at=1, seconds=9.0)
    answer(con, False, "wheel", at=2)
    answer(con, True, "tie", at=3, game="a5")
    answer(con, True, "split", at=4, drill=progress.POTS)
    df = progress.by_topic(con, SHOWDOWN)
    got = [(r.game, r.topic, r.answered, r.correct, r.accuracy, r.median_seconds, r.box)
           for r in df.itertuples()]  # fmt: skip
    assert got == [("27", "wheel", 1, 0, 0.0, 5.0, 1), ("27", "tie", 2, 1, 0.5, 7.0, 1),
                   ("a5", "tie", 1, 1, 1.0, 5.0, 2)]  # fmt: skip
    hist = progress.history(con)
    assert list(hist["answer"]) == [1, 2, 3, 4, 5]
    assert list(hist["score"]) == [15, 15, 15, 30, 45]
    assert list(hist["rolling_accuracy"]) == pytest.approx([1.0, 0.5, 1 / 3, 0.5, 0.6])
    assert progress.summary(con, progress.POTS).answered == 1
    day = progress.by_day(con)
    assert list(day["answered"]) == [5] and list(day["points"]) == [45]


def test_the_schedule_brings_a_missed_topic_back(tmp_path: Path) -> None:
    con = db.connect(tmp_path / "p.duckdb")
    rng = random.Random(3)
    topics = showdown.TOPICS[Ranking.DEUCE_SEVEN]
    asked = []
    for _i in range(14):
        q = session.next_showdown(con, Ranking.DEUCE_SEVEN, rng, use_own=False)
        asked.append(q.topic)
        picked = set() if q.topic == showdown.WHEEL else q.winners  # always wrong on wheels
        session.answer_showdown(con, q, picked, 3.0)
    assert set(asked) == set(topics)  # every topic comes up
    wheel = [i for i, t in enumerate(asked) if t == showdown.WHEEL]
    # missed every time: back after one other question, until the end
    assert [b - a for a, b in itertools.pairwise(wheel)] == [2] * (len(wheel) - 1)
    assert wheel[-1] >= len(asked) - 2


def test_unknown_drill_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    con = db.connect(tmp_path / "p.duckdb")
    with pytest.raises(ValueError):
        record(con, "chess", "27", "x", True, 1.0, {}, {})
    assert progress.summary(con).answered == 0


def test_a_version_1_database_gains_the_drill_tables_and_keeps_its_hands(tmp_path: Path) -> None:
    path = tmp_path / "old.duckdb"
    raw = duckdb.connect(str(path))
    raw.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied TIMESTAMP "
                "NOT NULL)")  # fmt: skip
    for statement in MIGRATIONS[0]:
        raw.execute(statement)
    raw.execute("INSERT INTO schema_version VALUES (1, current_timestamp)")
    raw.execute("INSERT INTO meta VALUES ('kept', 'yes')")
    raw.close()
    con = db.connect(path)
    assert con.execute("SELECT value FROM meta WHERE name = 'kept'").fetchall() == [("yes",)]
    versions = con.execute("SELECT version FROM schema_version ORDER BY version").fetchall()
    assert versions == [(v,) for v in range(1, len(MIGRATIONS) + 1)]
    assert migrate(con) == len(MIGRATIONS)
    answer(con, True)
    assert progress.summary(con).score == 15
