"""Drills from the player's own hands: stored showdowns and the hero's real draws, checked
against the hand records the parser makes of the same file."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from analysis.drills import draws, own, session, showdown
from analysis.pipeline.importer import import_paths
from analysis.storage import db
from engine.ranking import Ranking, winners
from engine.record import Collect, Draw, Hand, Show
from parser.reader import read_path
from tests.paths import REPOSITORY

ROOT = REPOSITORY
SAMPLE = ROOT / "sample_histories" / "pokerstars" / "27_triple_draw_fl_0.50-1_headsup.txt"
D27 = Ranking.DEUCE_SEVEN


@pytest.fixture(scope="module")
def sample_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("own") / "own.duckdb"
    con = db.connect(path)
    import_paths(con, [SAMPLE], workers=0)
    con.close()
    return path


@pytest.fixture(name="con")
def con_fixture(sample_db: Path, tmp_path: Path) -> db.Connection:
    copy = tmp_path / "own.duckdb"
    shutil.copyfile(sample_db, copy)
    return db.connect(copy)


@pytest.fixture(scope="module")
def records() -> dict[str, Hand]:
    return {h.hand_id: h for _, h in read_path(SAMPLE) if isinstance(h, Hand)}


def test_every_stored_showdown_is_the_records_showdown(
    con: db.Connection, records: dict[str, Hand]
) -> None:
    total = own.count_showdowns(con, D27)
    expected = sum(1 for h in records.values()
                   if sum(isinstance(s, Show) for s in h.steps) >= 2)  # fmt: skip
    assert total == expected > 20
    assert own.count_showdowns(con, Ranking.ACE_FIVE) == 0
    for index in range(total):
        q = own.showdown_at(con, D27, index)
        assert q is not None and q.topic == showdown.OWN
        hand = records[q.source.removeprefix("pokerstars hand ")]
        shows = [s for s in hand.steps if isinstance(s, Show)]
        assert q.names == tuple(s.player for s in shows)
        assert q.hands == tuple(s.cards for s in shows)
        # the engine's winners are the players the site paid (heads-up: one pot)
        collected = {s.player for s in hand.steps if isinstance(s, Collect)}
        assert {q.names[i] for i in winners(q.hands, D27)} == collected


def test_a_broken_stored_show_is_passed_over(con: db.Connection) -> None:
    q = own.showdown_at(con, D27, 0)
    assert q is not None
    con.execute("UPDATE shows SET cards = '7s7s5d4c3h' WHERE player = ? AND hand = ("
                "SELECT max(hand) FROM shows)", [q.names[0]])  # fmt: skip
    assert own.showdown_at(con, D27, 0) is None
    assert own.random_showdown(con, D27, random.Random(0)) is not None


def test_the_heros_draws_are_the_records_draws(
    con: db.Connection, records: dict[str, Hand]
) -> None:
    total = own.count_hero_draws(con, D27)
    expected = sum(
        1
        for h in records.values()
        for s in h.steps
        if isinstance(s, Draw) and s.player == h.hero and s.kept is not None
    )
    assert total == expected > 100
    for index in range(0, total, 7):
        hd = own.hero_draw_at(con, D27, index)
        assert hd is not None
        hand = records[hd.where.removeprefix("pokerstars hand ")]
        mine = next(
            s
            for s in hand.steps
            if isinstance(s, Draw) and s.player == hand.hero and s.draw == hd.draw
        )
        assert hd.kept == mine.kept
        assert sorted(hd.hand) == sorted((*(mine.kept or ()), *(mine.discarded or ())))
        others = tuple(
            s.count
            for s in hand.steps
            if isinstance(s, Draw) and s.player != hand.hero and s.draw == hd.draw
        )
        assert hd.opponents == others
        q = own.question_of(hd)
        assert q.topic == draws.OWN and q.draws_left == 4 - hd.draw and q.taken == hd.kept
        assert q.drawing == others and q.pat is None


def test_a_replayed_draw_shows_the_best_choice_beside_the_one_taken(con: db.Connection) -> None:
    q = own.random_hero_draw(con, D27, random.Random(4))
    assert q is not None and q.taken is not None
    thrown = [c for c in q.hand if c not in q.taken]
    fb = draws.check(q, thrown, trials=500)
    assert fb.taken is fb.chosen
    assert fb.best is fb.choices[0] and fb.chosen.loss == pytest.approx(
        fb.best.equity - fb.chosen.equity)  # fmt: skip


def test_the_session_mixes_own_showdowns_in(con: db.Connection) -> None:
    topics = session.showdown_topics(con, D27)
    assert topics == (*showdown.TOPICS[D27], showdown.OWN)
    assert session.showdown_topics(con, D27, use_own=False) == showdown.TOPICS[D27]
    assert session.draw_topics(con, Ranking.ACE_FIVE) == draws.TOPICS
    rng = random.Random(0)
    seen = {session.next_showdown(con, D27, rng).topic for _ in range(12)}
    assert showdown.OWN in seen
