"""The drills' memory in the database: every answer, each topic's Leitner box, each drill's
level, and the score, streak, accuracy by topic and progress read back from them.

Tables ``drill_answers``, ``drill_boxes`` and ``drill_levels`` (schema version 2, see
``analysis.storage.schema``).  Score and streaks are not stored but summed from the answers, so they
can never disagree with them.  The schedule key of a topic is ``game/topic``: a kind of
question missed in 2-7 comes back in 2-7.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import pandas as pd

from analysis.drills.schedule import Answer, TopicState, next_level, pick_topic, points, review
from analysis.storage.db import Connection, one
from analysis.storage.transactions import rollback

SHOWDOWN = "showdown"
DRAW = "draw"
POTS = "pots"
DRILLS = (SHOWDOWN, DRAW, POTS)
ROLLING = 20  # answers in the rolling accuracy of the progress chart


def schedule_key(game: str, topic: str) -> str:
    return f"{game}/{topic}"


@dataclass(frozen=True)
class Recorded:
    """What one answer changed: its points, the level before and after, the streak now."""

    id: int
    points: int
    level_before: int
    level_after: int
    streak: int
    box: int


@dataclass(frozen=True)
class Summary:
    answered: int
    correct: int
    score: int
    streak: int
    best_streak: int

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.answered if self.answered else None


def level(con: Connection, drill: str) -> int:
    row = one(con, "SELECT level FROM drill_levels WHERE drill = ?", [drill])
    return int(row[0]) if row else 1


def clock(con: Connection, drill: str) -> int:
    """Answers given in the drill so far: the schedule's clock."""
    row = one(con, "SELECT count(*) FROM drill_answers WHERE drill = ?", [drill])
    return int(row[0]) if row else 0


def topic_states(con: Connection, drill: str) -> dict[str, TopicState]:
    rows = con.execute(
        "SELECT topic, box, due, seen FROM drill_boxes WHERE drill = ?", [drill]
    ).fetchall()
    return {str(t): TopicState(str(t), int(b), int(d), int(s)) for t, b, d, s in rows}


def next_topic(
    con: Connection, drill: str, game: str, topics: Sequence[str], rng: random.Random
) -> str:
    """The topic the schedule brings next for this drill and game."""
    keys = [schedule_key(game, t) for t in topics]
    chosen = pick_topic(keys, topic_states(con, drill), clock(con, drill), rng)
    return topics[keys.index(chosen)]


def _streak(correct: Sequence[bool]) -> tuple[int, int]:
    """(current streak, best streak) of right answers, oldest first."""
    best = run = 0
    for c in correct:
        run = run + 1 if c else 0
        best = max(best, run)
    return run, best


def record(
    con: Connection,
    drill: str,
    game: str,
    topic: str,
    correct: bool,
    seconds: float,
    question: Mapping[str, Any],
    answer: Mapping[str, Any],
    *,
    now: datetime | None = None,
) -> Recorded:
    """Store one answer and move the topic's box and the drill's level, in one transaction."""
    if drill not in DRILLS:
        raise ValueError(f"unknown drill {drill!r}")
    seconds = max(0.0, float(seconds))
    con.execute("BEGIN TRANSACTION")
    try:
        before = level(con, drill)
        row = one(con, "SELECT coalesce(max(id), 0) FROM drill_answers")
        new_id = int(row[0]) + 1 if row else 1
        gained = points(before, correct, seconds)
        con.execute(
            "INSERT INTO drill_answers VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [new_id, now or datetime.now(), drill, topic, game, before, correct, seconds,
             gained, json.dumps(question, sort_keys=True), json.dumps(answer, sort_keys=True)],
        )  # fmt: skip
        key = schedule_key(game, topic)
        state = topic_states(con, drill).get(key, TopicState(key))
        moved = review(state, correct, clock(con, drill))
        con.execute(
            "INSERT OR REPLACE INTO drill_boxes VALUES (?, ?, ?, ?, ?)",
            [drill, key, moved.box, moved.due, moved.seen],
        )
        since_row = one(con, "SELECT since FROM drill_levels WHERE drill = ?", [drill])
        since = int(since_row[0]) if since_row else 0
        recent = [
            Answer(bool(c), float(s or 0.0))
            for c, s in con.execute(
                "SELECT correct, seconds FROM drill_answers WHERE drill = ? AND id > ? ORDER BY id",
                [drill, since],
            ).fetchall()
        ]
        after = next_level(before, recent)
        if after != before:
            con.execute(
                "INSERT OR REPLACE INTO drill_levels VALUES (?, ?, ?)", [drill, after, new_id]
            )
        con.execute("COMMIT")
    except BaseException:
        rollback(con)
        raise
    return Recorded(new_id, gained, before, after, summary(con, drill).streak, moved.box)


def summary(con: Connection, drill: str | None = None) -> Summary:
    """Answers, right answers, score and streaks, of one drill or of all of them."""
    where, params = ("WHERE drill = ?", [drill]) if drill else ("", [])
    rows = con.execute(
        f"SELECT correct, points FROM drill_answers {where} ORDER BY id", params
    ).fetchall()
    flags = [bool(c) for c, _ in rows]
    streak, best = _streak(flags)
    return Summary(len(rows), sum(flags), sum(int(p) for _, p in rows), streak, best)


def by_topic(con: Connection, drill: str | None = None) -> pd.DataFrame:
    """Accuracy per drill, game and topic, with the topic's Leitner box."""
    where, params = ("WHERE a.drill = ?", [drill]) if drill else ("", [])
    return con.execute(
        f"""
        SELECT a.drill, a.game, a.topic, count(*)::BIGINT AS answered,
               count_if(a.correct)::BIGINT AS correct,
               count_if(a.correct) / count(*) AS accuracy,
               median(a.seconds) AS median_seconds,
               any_value(b.box) AS box
        FROM drill_answers a
        LEFT JOIN drill_boxes b ON b.drill = a.drill AND b.topic = a.game || '/' || a.topic
        {where}
        GROUP BY a.drill, a.game, a.topic
        ORDER BY a.drill, a.game, accuracy, a.topic
        """,
        params,
    ).df()


def history(con: Connection, drill: str | None = None) -> pd.DataFrame:
    """Every answer in order with the running score and the rolling accuracy of the last
    ``ROLLING`` answers: the progress chart."""
    where, params = ("WHERE drill = ?", [drill]) if drill else ("", [])
    df = con.execute(
        f"SELECT id, time, drill, game, topic, level, correct, seconds, points "
        f"FROM drill_answers {where} ORDER BY id",
        params,
    ).df()
    df.insert(0, "answer", range(1, len(df) + 1))
    df["score"] = df["points"].cumsum()
    df["rolling_accuracy"] = df["correct"].astype(float).rolling(ROLLING, min_periods=1).mean()
    return df


def by_day(con: Connection, drill: str | None = None) -> pd.DataFrame:
    """Answers, accuracy and points per day."""
    where, params = ("WHERE drill = ?", [drill]) if drill else ("", [])
    return con.execute(
        f"""
        SELECT time::DATE AS day, count(*)::BIGINT AS answered,
               count_if(correct) / count(*) AS accuracy, sum(points)::BIGINT AS points
        FROM drill_answers {where} GROUP BY day ORDER BY day
        """,
        params,
    ).df()
