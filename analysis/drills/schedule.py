"""When a kind of question comes back, and how hard the next one is.

Spaced repetition is a Leitner schedule over *topics* (kinds of question, such as "wheel
traps in 2-7"), not over single questions: the questions are generated, so what the player
must see again is the kind they got wrong.  The clock is the number of answers given in the
drill, not the time of day, so a topic missed comes back after one other question whether
the player answers fast or slow, and the schedule is exact to test.

Levels adapt to accuracy *and* speed over the last answers at the current level: a player
who is right but slow stays, one who is right and fast moves up, one who is mostly wrong
moves down.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import median

BOXES = 5
INTERVALS = (1, 2, 4, 8, 16)  # answers until a topic in box 1..5 is due again
LEVELS = 5
WINDOW = 6  # answers at one level before it can change
UP_RIGHT = 5  # right answers out of WINDOW to move up (and fast enough)
DOWN_RIGHT = 2  # at most this many right out of WINDOW: move down
TARGET_SECONDS = (20.0, 15.0, 12.0, 10.0, 8.0)  # median answer time to move up, per level


@dataclass(frozen=True)
class TopicState:
    """A topic's Leitner box, the clock value from which it is due, and answers seen."""

    topic: str
    box: int = 1
    due: int = 0
    seen: int = 0


def review(state: TopicState, correct: bool, clock: int) -> TopicState:
    """The state after an answer; ``clock`` counts the answers given, this one included.

    Right: one box up (at most the last); wrong: back to the first box, due again after one
    other question.
    """
    box = min(state.box + 1, BOXES) if correct else 1
    return TopicState(state.topic, box, clock + INTERVALS[box - 1], state.seen + 1)


def pick_topic(
    topics: Sequence[str],
    states: Mapping[str, TopicState],
    clock: int,
    rng: random.Random,
) -> str:
    """The topic of the next question, ``clock`` answers into the drill.

    First a missed topic that is due again (box 1, the longest overdue first); then a topic
    never asked (at random), so every kind of question comes up early; then any due topic
    (lowest box, longest overdue, the order given); else the one due soonest.
    """
    if not topics:
        raise ValueError("no topic to choose from")
    order = {t: i for i, t in enumerate(topics)}
    known = [states[t] for t in topics if t in states]
    due = [s for s in known if s.due <= clock]
    missed = [s for s in due if s.box == 1]
    if missed:
        return min(missed, key=lambda s: (s.due, order[s.topic])).topic
    new = [t for t in topics if t not in states]
    if new:
        return rng.choice(new)
    if due:
        return min(due, key=lambda s: (s.box, s.due, order[s.topic])).topic
    return min(known, key=lambda s: (s.due, s.box, order[s.topic])).topic


@dataclass(frozen=True)
class Answer:
    correct: bool
    seconds: float


def next_level(level: int, recent: Sequence[Answer]) -> int:
    """The level after ``recent`` (the answers given at ``level``, oldest first).

    Judged on the last ``WINDOW`` once there are that many: up when at least ``UP_RIGHT``
    are right and the median time is within the level's target; down when at most
    ``DOWN_RIGHT`` are right.
    """
    if not 1 <= level <= LEVELS:
        raise ValueError(f"levels are 1 to {LEVELS}, not {level}")
    if len(recent) < WINDOW:
        return level
    last = recent[-WINDOW:]
    right = sum(a.correct for a in last)
    if right >= UP_RIGHT and median(a.seconds for a in last) <= TARGET_SECONDS[level - 1]:
        return min(level + 1, LEVELS)
    if right <= DOWN_RIGHT:
        return max(level - 1, 1)
    return level


def points(level: int, correct: bool, seconds: float) -> int:
    """Score of one answer: 10 per level when right, 5 more within the level's target time."""
    if not correct:
        return 0
    bonus = 5 if seconds <= TARGET_SECONDS[level - 1] else 0
    return 10 * level + bonus
