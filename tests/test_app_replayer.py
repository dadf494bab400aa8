"""AppTest of the Replayer: finding hands, stepping, streets, problems, hostile names."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from analysis import db, queries
from analysis.importer import import_bytes
from engine.replay import replay
from tests.app_support import (  # noqa: F401  (fixtures)
    HOSTILE_HAND_ID,
    HOSTILE_NAMES,
    app_for,
    corpus_db_file_fixture,
    corpus_db_fixture,
    hostile_history,
    markdown_sources,
    texts,
)
from ui.cards import cards_html


def replayer(path: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    at = app_for(path, monkeypatch).run()
    return at.switch_page("ui/replayer_page.py").run()


def states_of(path: Path, hand_id: int) -> tuple[object, ...]:
    stored = queries.get_hand(db.connect(path), hand_id)
    assert stored is not None and stored.hand is not None
    return replay(stored.hand).states


def test_latest_hand_is_opened_at_its_first_step(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = replayer(corpus_db, monkeypatch)
    assert not at.exception
    con = db.connect(corpus_db)
    latest = queries.list_hands(con, limit=200)
    options = at.selectbox(key="replay_hand").options
    assert len(options) == len(latest)
    assert [o.split(" · ")[:2] for o in options] == [
        [f"#{h}", s] for h, s in zip(latest["hand_id"], latest["site"], strict=True)
    ]
    first = int(latest["id"].iloc[0])
    assert int(at.selectbox(key="replay_hand").value) == first
    states = states_of(corpus_db, first)
    slider = at.slider(key="replay_step")
    assert (slider.value, slider.max) == (0, len(states) - 1)
    assert texts(at)[0] == states[0].text  # type: ignore[attr-defined]


def test_step_buttons_and_street_jumps(corpus_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = replayer(corpus_db, monkeypatch)
    hand = int(at.selectbox(key="replay_hand").value)
    states = states_of(corpus_db, hand)
    at.button(key="b_next").click().run()
    assert at.slider(key="replay_step").value == 1
    assert texts(at)[0] == states[1].text  # type: ignore[attr-defined]
    at.button(key="b_prev").click().run()
    assert at.slider(key="replay_step").value == 0
    at.button(key="b_next_street").click().run()
    step = at.slider(key="replay_step").value
    keys = [(s.street, s.draw) for s in states]  # type: ignore[attr-defined]
    assert step > 0 and keys[step] != keys[step - 1] and len(set(keys[:step])) == 1
    at.button(key="b_end").click().run()
    assert at.slider(key="replay_step").value == len(states) - 1
    assert texts(at)[0] == states[-1].text  # type: ignore[attr-defined]
    at.slider(key="replay_step").set_value(2).run()
    assert texts(at)[0] == states[2].text  # type: ignore[attr-defined]
    at.button(key="b_start").click().run()
    assert at.slider(key="replay_step").value == 0


def test_next_and_previous_hand(corpus_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = replayer(corpus_db, monkeypatch)
    ids = [int(i) for i in queries.list_hands(db.connect(corpus_db), limit=200)["id"]]
    at.button(key="b_end").click().run()
    at.button(key="b_next_hand").click().run()
    assert int(at.selectbox(key="replay_hand").value) == ids[1]
    assert at.slider(key="replay_step").value == 0
    at.button(key="b_prev_hand").click().run()
    assert int(at.selectbox(key="replay_hand").value) == ids[0]
    at.button(key="b_prev_hand").click().run()
    assert int(at.selectbox(key="replay_hand").value) == ids[0]


def test_biggest_pots_lists_the_largest_pot_first(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = replayer(corpus_db, monkeypatch)
    at.radio(key="finder").set_value("Biggest pots").run()
    assert not at.exception
    biggest = queries.biggest_pots(db.connect(corpus_db), limit=1)
    assert int(at.selectbox(key="replay_hand").value) == int(biggest["id"].iloc[0])


def test_problem_is_shown_at_the_step_it_happened(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = replayer(corpus_db, monkeypatch)
    at.radio(key="finder").set_value("Hands with problems").run()
    at.selectbox(key="r_status").set_value("invalid").run()
    hand = int(at.selectbox(key="replay_hand").value)
    states = states_of(corpus_db, hand)
    where = next(i for i, s in enumerate(states) if s.problems)  # type: ignore[attr-defined]
    at.slider(key="replay_step").set_value(where).run()
    shown = [e.value for e in at.error] + [w.value for w in at.warning]
    for p in states[where].problems:  # type: ignore[attr-defined]
        assert f"{p.severity.capitalize()} at line {p.line}: {p.code}" in shown
        assert p.message in texts(at)
    if where > 0:
        at.slider(key="replay_step").set_value(where - 1).run()
        before = states[where - 1].problems  # type: ignore[attr-defined]
        assert len(at.error) + len(at.warning) == len(before)


def test_search_by_id(corpus_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    con = db.connect(corpus_db)
    some = queries.list_hands(con, limit=5).iloc[3]
    at = replayer(corpus_db, monkeypatch)
    at.radio(key="finder").set_value("Search by id").run()
    assert [i.value for i in at.info] == ["No hand matches."]
    at.text_input(key="search_id").set_value(f"#{some['hand_id']}").run()
    assert int(at.selectbox(key="replay_hand").value) == int(some["id"])
    at.text_input(key="search_id").set_value("no-such-hand").run()
    assert [i.value for i in at.info] == ["No hand matches."]


def test_original_text(corpus_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = replayer(corpus_db, monkeypatch)
    hand = int(at.selectbox(key="replay_hand").value)
    stored = queries.get_hand(db.connect(corpus_db), hand)
    assert stored is not None
    assert at.code[-1].value == stored.text


def test_what_the_hero_threw_and_got(corpus_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    con = db.connect(corpus_db)
    found = None
    for hand_id in queries.list_hands(con, limit=200)["id"]:
        stored = queries.get_hand(con, int(hand_id))
        if stored is None or stored.hand is None:
            continue
        mine = [d for d in stored.hand.draws
                if d.player == stored.hand.hero and d.discarded and d.received]
        if mine:
            found = (stored, mine)
            break
    assert found is not None
    stored, mine = found
    at = replayer(corpus_db, monkeypatch)
    at.radio(key="finder").set_value("Search by id").run()
    at.text_input(key="search_id").set_value(stored.hand.hand_id).run()  # type: ignore[union-attr]
    at.button(key="b_end").click().run()
    shown = texts(at)
    assert "The hero's draws so far" in [c.value for c in at.caption]
    assert shown.count("threw") == len(mine) and shown.count("got") == len(mine)
    tiles = [str(h.proto.body) for h in at.get("html")]
    for d in mine:
        assert cards_html(d.discarded) in tiles
        assert cards_html(d.received) in tiles


def test_hostile_names_show_as_plain_text(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    con = db.connect(corpus_db)
    import_bytes(con, "hostile.txt", hostile_history().encode())
    con.close()
    at = replayer(corpus_db, monkeypatch)
    at.radio(key="finder").set_value("Search by id").run()
    at.text_input(key="search_id").set_value(HOSTILE_HAND_ID).run()
    at.button(key="b_end").click().run()
    assert not at.exception
    shown = texts(at)
    for evil in HOSTILE_NAMES.values():
        assert evil in shown  # the seat boxes name each player as plain text
    for body in markdown_sources(at):
        assert "evil.example/)" not in body and "<script>" not in body and "<img" not in body


def test_side_pots_are_listed_when_there_are_several(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    con = db.connect(corpus_db)
    found = None
    for hand_id in queries.list_hands(con, limit=200)["id"]:
        stored = queries.get_hand(con, int(hand_id))
        if stored is None or stored.hand is None:
            continue
        states = replay(stored.hand).states
        at_step = next((i for i, s in enumerate(states) if len(s.pots) > 1), None)
        if at_step is not None:
            found = (stored.hand.hand_id, states[at_step], at_step)
            break
    assert found is not None  # the corpus's "sidepot" hand
    hand_id, state, step = found
    at = replayer(corpus_db, monkeypatch)
    at.radio(key="finder").set_value("Search by id").run()
    at.text_input(key="search_id").set_value(hand_id).run()
    at.slider(key="replay_step").set_value(step).run()
    table = at.dataframe[0].value
    assert list(table["pot"]) == ["main"] + [f"side {i}" for i in range(1, len(state.pots))]
    assert list(table["amount"]) == [p.amount / 100 for p in state.pots]
    assert list(table["eligible"]) == [", ".join(p.eligible) for p in state.pots]
    assert at.metric[0].value == f"{state.pot / 100:,.2f}"
