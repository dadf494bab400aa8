"""One call to get the next question of a drill and one to answer it: what the page uses.

``next_*`` asks the schedule for the topic (``analysis.drills.progress.next_topic``) and the
drill's level for the size, then builds the question (generated, or from the player's own
hands where the topic is ``own``).  ``answer_*`` checks the answer with the engine and
records it.  The ``game`` stored with each answer is the ranking ("27", "a5", "high").
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from typing import Any

from analysis.drills import draws, own, pots, progress, showdown
from analysis.drills.progress import Recorded
from analysis.storage.db import Connection
from engine.cards import format_cards
from engine.ranking import Ranking


def showdown_topics(con: Connection, ranking: Ranking, use_own: bool = True) -> tuple[str, ...]:
    topics: tuple[str, ...] = showdown.TOPICS[ranking]
    if use_own and own.count_showdowns(con, ranking):
        topics = (*topics, showdown.OWN)
    return topics


def next_showdown(
    con: Connection, ranking: Ranking, rng: random.Random, *, use_own: bool = True
) -> showdown.ShowdownQuestion:
    topics = showdown_topics(con, ranking, use_own)
    topic = progress.next_topic(con, progress.SHOWDOWN, ranking.value, topics, rng)
    if topic == showdown.OWN:
        q = own.random_showdown(con, ranking, rng)
        if q is not None:
            return q
        topic = showdown.RANDOM
    n = showdown.hands_for_level(progress.level(con, progress.SHOWDOWN), rng)
    return showdown.generate(topic, ranking, n, rng)


def showdown_json(q: showdown.ShowdownQuestion) -> dict[str, Any]:
    return {"hands": [format_cards(h, "") for h in q.hands], "names": list(q.names),
            "source": q.source}  # fmt: skip


def answer_showdown(
    con: Connection, q: showdown.ShowdownQuestion, picked: Collection[int], seconds: float
) -> tuple[showdown.ShowdownFeedback, Recorded]:
    fb = showdown.check(q, picked)
    rec = progress.record(
        con, progress.SHOWDOWN, q.ranking.value, q.topic, fb.correct, seconds,
        showdown_json(q), {"picked": sorted(fb.picked), "winners": sorted(fb.winners)},
    )  # fmt: skip
    return fb, rec


def draw_topics(con: Connection, ranking: Ranking, use_own: bool = True) -> tuple[str, ...]:
    topics: tuple[str, ...] = draws.TOPICS
    if use_own and own.count_hero_draws(con, ranking):
        topics = (*topics, draws.OWN)
    if use_own and draws.costliest_questions(con, ranking, n=1):
        topics = (*topics, draws.COSTLIEST)  # the draw review found mistakes to drill
    return topics


def next_draw(
    con: Connection, ranking: Ranking, rng: random.Random, *, use_own: bool = True
) -> draws.DrawQuestion:
    topics = draw_topics(con, ranking, use_own)
    topic = progress.next_topic(con, progress.DRAW, ranking.value, topics, rng)
    if topic == draws.OWN:
        q = own.random_hero_draw(con, ranking, rng)
        if q is not None:
            return q
        topic = draws.PAT_TO_BEAT
    if topic == draws.COSTLIEST:
        spots = draws.costliest_questions(con, ranking)
        if spots:
            return rng.choice(spots)
        topic = draws.PAT_TO_BEAT
    return draws.generate(topic, ranking, progress.level(con, progress.DRAW), rng)


def draw_json(q: draws.DrawQuestion) -> dict[str, Any]:
    return {
        "hand": format_cards(q.hand, ""), "draws_left": q.draws_left,
        "pat": format_cards(q.pat, "") if q.pat else None, "drawing": list(q.drawing),
        "source": q.source, "taken": format_cards(q.taken, "") if q.taken is not None else None,
    }  # fmt: skip


def answer_draw(
    con: Connection,
    q: draws.DrawQuestion,
    discard: Collection[int],
    seconds: float,
    *,
    trials: int | None = None,
) -> tuple[draws.DrawFeedback, Recorded]:
    """ValueError (nothing recorded) when the engine cannot deal the situation, as with
    five unknown hands that can hardly ever be dealt without sharing cards."""
    fb = draws.check(q, discard, trials=trials or draws.trials_for(q))
    rec = progress.record(
        con, progress.DRAW, q.ranking.value, q.topic, fb.correct, seconds, draw_json(q),
        {"discard": format_cards(sorted(discard), ""), "equity": fb.chosen.equity,
         "best": format_cards(fb.best.keep, ""), "loss": fb.chosen.loss},
    )  # fmt: skip
    return fb, rec


def next_pot(con: Connection, ranking: Ranking, rng: random.Random) -> pots.PotQuestion:
    topic = progress.next_topic(con, progress.POTS, ranking.value, pots.TOPICS, rng)
    players = pots.players_for_level(progress.level(con, progress.POTS), rng)
    return pots.generate(topic, ranking, players, rng)


def pot_json(q: pots.PotQuestion) -> dict[str, Any]:
    return {
        "button": q.button,
        "seats": [
            {"name": s.name, "seat": s.seat, "put_in": s.put_in, "folded": s.folded,
             "cards": format_cards(s.cards, "") if s.cards else None}
            for s in q.seats
        ],
    }  # fmt: skip


def answer_pot(
    con: Connection, q: pots.PotQuestion, given: Mapping[str, int], seconds: float
) -> tuple[pots.PotFeedback, Recorded]:
    fb = pots.check(q, given)
    rec = progress.record(
        con, progress.POTS, q.ranking.value, q.topic, fb.correct, seconds, pot_json(q),
        {"given": fb.given, "expected": fb.expected},
    )  # fmt: skip
    return fb, rec
