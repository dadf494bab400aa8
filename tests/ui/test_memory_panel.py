"""AppTest of the user's notes in the replayer: tag the hand shown, write its note, find
it again by the tag, and the note on a player beside his seat."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from analysis.storage import db, memory, queries
from tests.app_support import (  # noqa: F401  (fixtures)
    HOSTILE_NAMES,
    app_for,
    corpus_db_file_fixture,
    corpus_db_fixture,
    markdown_sources,
    texts,
)


def replayer(path: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    at = app_for(path, monkeypatch).run()
    return at.switch_page("ui/replayer_page.py").run()


def _save(at: AppTest, key: str, tags: list[str], note: str) -> AppTest:
    at.multiselect(key=f"mem_tags_{key}").set_value(tags)
    at.text_area(key=f"mem_note_{key}").set_value(note)
    return next(b for b in at.button if b.label == "Save").click().run()


def test_tag_the_hand_shown_and_find_it_by_the_tag(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    con = db.connect(corpus_db)
    latest = queries.list_hands(con, limit=3)
    con.close()
    second = int(latest["id"].iloc[1])
    key = str(latest["key"].iloc[1])
    at = replayer(corpus_db, monkeypatch)
    at.selectbox(key="replay_hand").set_value(second).run()
    assert "No tags" in texts(at)
    note = HOSTILE_NAMES["Player1"]  # a note is text, never Markdown
    at = _save(at, key, ["review", "Chased Draws"], note)
    assert not at.exception
    assert [s.value for s in at.success] == ["Saved."]
    assert "Tags: chased draws, review" in texts(at) and note in texts(at)
    assert note not in "".join(markdown_sources(at))
    con = db.connect(corpus_db)
    assert memory.tags_of(con, key) == ("chased draws", "review")
    assert memory.note_of(con, key) == note
    con.close()
    label = at.selectbox(key="replay_hand").format_func(second)  # type: ignore[misc]
    assert label.endswith(" · tags: chased draws, review")
    at.selectbox(key="r_tag").set_value("chased draws").run()
    assert at.selectbox(key="replay_hand").options == [label]
    at = _save(at, key, ["review"], "")
    con = db.connect(corpus_db)
    assert (memory.tags_of(con, key), memory.note_of(con, key)) == (("review",), "")
    con.close()
    assert at.selectbox(key="r_tag").options[1:] == [
        "bad beat", "good play", "mistake", "review"]


def test_a_player_note_is_shown_on_his_seat(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    con = db.connect(corpus_db)
    latest = queries.list_hands(con, limit=1)
    hand = int(latest["id"].iloc[0])
    seated = con.execute("SELECT player FROM seats WHERE hand = ? ORDER BY seat",
                         [hand]).fetchall()
    site = str(latest["site"].iloc[0])
    memory.set_player_note(con, site, str(seated[0][0]), "**raises light**", "red")
    con.close()
    at = replayer(corpus_db, monkeypatch)
    lines = [t for t in texts(at) if t.startswith("seat ")]
    noted = [line for line in lines if line.endswith(" · note: [red] **raises light**")]
    assert len(noted) == 1 and str(seated[0][0]) in noted[0]


def test_a_person_picked_in_the_finder_lists_the_hands_of_every_name(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    con = db.connect(corpus_db)
    memory.add_alias(con, "regular", "pokerstars", "Player1")
    memory.add_alias(con, "regular", "fulltilt", "Player1")
    want = con.execute(
        "SELECT count(DISTINCT s.hand) FROM seats s JOIN hands h ON h.id = s.hand "
        "WHERE s.player = 'Player1' AND h.site IN ('pokerstars', 'fulltilt')").fetchall()[0][0]
    stars = con.execute(
        "SELECT count(DISTINCT s.hand) FROM seats s JOIN hands h ON h.id = s.hand "
        "WHERE s.player = 'Player1' AND h.site = 'pokerstars'").fetchall()[0][0]
    con.close()
    at = replayer(corpus_db, monkeypatch)
    picker = at.selectbox(key="r_player")
    assert picker.options[:2] == ["(all)", "regular · every name"]
    picker.set_value(("person", "regular")).run()
    assert not at.exception
    assert len(at.selectbox(key="replay_hand").options) == min(want, 100) > 0
    at.selectbox(key="r_site").set_value("pokerstars").run()
    assert len(at.selectbox(key="replay_hand").options) == min(stars, 100)
