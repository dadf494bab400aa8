"""AppTest of the Drills page: questions render, answers move score, streak and progress."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from analysis.drills import draws, progress, showdown
from analysis.drills.draws import DrawQuestion
from analysis.drills.pots import PotQuestion
from analysis.drills.showdown import ShowdownQuestion
from analysis.storage import db
from engine.cards import parse_cards
from engine.ranking import Ranking
from tests.app_support import HOSTILE_NAMES, app_for, markdown_sources, texts
from ui.cards import cards_label

PAGE = "ui/drills_page.py"


def drills(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[AppTest, Path]:
    """The app on an empty database (no sample import), on the Drills page."""
    monkeypatch.setenv("DRAWLAB_SAMPLES", "")
    path = tmp_path / "drills.duckdb"
    at = app_for(path, monkeypatch).run()
    at.switch_page(PAGE).run()
    assert not at.exception
    return at, path


def pick(drill: str, at: AppTest, item: object) -> str:
    """The key of an answer widget of the open question (numbered per question)."""
    return f"{drill}_pick_{at.session_state[f'dn_{drill}']}_{item}"


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def stored(path: Path) -> progress.Summary:
    con = db.connect(path, read_only=False)
    try:
        return progress.summary(con)
    finally:
        con.close()


def test_the_page_opens_on_a_which_hand_wins_question(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at, _ = drills(tmp_path, monkeypatch)
    assert [t.value for t in at.title] == ["Drills"]
    assert metrics(at) == {"Score": "0", "Streak": "0", "Best streak": "0", "Accuracy": "–",
                           "Level": "1"}  # fmt: skip
    q: ShowdownQuestion = at.session_state["dq_showdown_27"]
    assert len(q.hands) == 2  # level 1
    assert [c.label for c in at.checkbox] == ["Wins", "Wins"]
    assert texts(at)[:2] == ["Hand 1", "Hand 2"]
    assert at.info[0].value == "Answer a question to start your progress chart."


def test_a_right_then_a_wrong_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at, path = drills(tmp_path, monkeypatch)
    q: ShowdownQuestion = at.session_state["dq_showdown_27"]
    for i in q.winners:
        at.checkbox(key=pick("showdown", at, i)).check()
    at.button(key="showdown_answer").click().run()
    assert not at.exception
    assert at.success[0].value == "Right · +15 points · streak 1"
    assert metrics(at)["Score"] == "15" and metrics(at)["Streak"] == "1"
    assert metrics(at)["Accuracy"] == "100%"
    assert showdown.reasons(q)[0] in texts(at)
    assert len(at.get("plotly_chart")) == 1
    by_day, by_topic = at.dataframe[0].value, at.dataframe[1].value
    assert list(by_day["answered"]) == [1] and list(by_day["accuracy"]) == [100.0]
    assert list(by_topic["topic"]) == [showdown.TOPIC_LABELS[q.topic]]
    assert list(by_topic["box"]) == [2]
    assert (stored(path).answered, stored(path).score) == (1, 15)

    at.button(key="showdown_next").click().run()
    q2: ShowdownQuestion = at.session_state["dq_showdown_27"]
    assert q2 is not q
    assert not any(c.value for c in at.checkbox)  # the new question starts blank
    losers = [i for i in range(len(q2.hands)) if i not in q2.winners]
    # tick a loser; on a tie of every hand, ticking one of them only is wrong
    at.checkbox(key=pick("showdown", at, (losers or [0])[0])).check()
    at.button(key="showdown_answer").click().run()
    assert at.error[0].value == "Not quite · streak reset"
    assert metrics(at) == {"Score": "15", "Streak": "0", "Best streak": "1", "Accuracy": "50%",
                           "Level": "1"}  # fmt: skip
    s = stored(path)
    assert (s.answered, s.correct, s.score, s.streak) == (2, 1, 15, 0)


def test_what_to_draw_scores_every_choice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at, path = drills(tmp_path, monkeypatch)
    at.radio(key="drill_kind").set_value(progress.DRAW).run()
    q = at.session_state["dq_draw_27"]
    assert [c.label.split()[0] for c in at.checkbox] == ["Throw"] * 5
    at.checkbox(key=pick("draw", at, 0)).check()
    at.button(key="draw_answer").click().run()
    assert not at.exception
    fb, _ = at.session_state["df_draw"]
    table = at.dataframe[0].value
    assert list(table["choice"]) == [draws.choice_label(c, cards_label) for c in fb.choices]
    assert table["equity %"].iloc[0] == round(100 * fb.best.equity, 2)
    assert list(table["± %"]) == [
        "exact" if c.exact else f"±{100 * c.stderr:.2f}" for c in fb.choices]
    assert fb.chosen.discard == (q.hand[0],)
    assert texts(at)[0].startswith(f"Best: {draws.choice_label(fb.best, cards_label)}")
    assert draws.why(q, fb.best, cards_label) in texts(at)
    assert stored(path).answered == 1


def test_pot_payouts_are_checked_to_the_cent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at, path = drills(tmp_path, monkeypatch)
    at.radio(key="drill_kind").set_value(progress.POTS).run()
    q: PotQuestion = at.session_state["dq_pots_27"]
    pay = q.payout()
    for s in q.seats:
        at.number_input(key=pick("pots", at, s.seat)).set_value(pay[s.name] / 100)
    at.button(key="pots_answer").click().run()
    assert not at.exception
    assert at.success[0].value.startswith("Right")
    assert metrics(at)["Streak"] == "1"
    at.button(key="pots_next").click().run()
    q = at.session_state["dq_pots_27"]
    at.button(key="pots_answer").click().run()  # everybody 0.00: never right
    assert at.error[0].value == "Not quite · streak reset"
    table = at.dataframe[1].value
    assert list(table["engine pays"]) == [
        f"{q.payout()[s.name] // 100}.{q.payout()[s.name] % 100:02d}"
        for s in sorted(q.seats, key=lambda s: s.seat)
    ]
    assert stored(path).answered == 2


def test_names_from_the_database_are_plain_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at, _ = drills(tmp_path, monkeypatch)
    names = tuple(HOSTILE_NAMES.values())[:2]
    q = ShowdownQuestion(Ranking.DEUCE_SEVEN, showdown.OWN, (parse_cards("8s6d4h3c2s"),
                         parse_cards("KsQdJh9c8d")), names, source="pokerstars hand 1")  # fmt: skip
    at.session_state["dq_showdown_27"] = q
    at.run()
    at.checkbox(key=pick("showdown", at, 0)).check()
    at.button(key="showdown_answer").click().run()
    shown = texts(at)
    assert names[0] in shown and names[1] in shown
    assert f"Winner: {names[0]}" in shown
    for source in markdown_sources(at):
        for name in names:
            assert name not in source


def test_a_hand_set_up_by_the_player_is_drilled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at, _ = drills(tmp_path, monkeypatch)
    at.radio(key="drill_kind").set_value(progress.DRAW).run()
    at.text_input(key="draw_custom_hand").input("8s 6d 4h 3c Kd")
    at.text_input(key="draw_custom_pat").input("9h 7c 5d 4s 2h")
    at.button(key="draw_custom_go").click().run()
    q = at.session_state["dq_draw_27"]
    assert q.hand == parse_cards("8s 6d 4h 3c Kd") and q.pat == parse_cards("9h 7c 5d 4s 2h")
    at.checkbox(key=pick("draw", at, 4)).check()  # throw the king
    at.button(key="draw_answer").click().run()
    assert at.success[0].value.startswith("Right")
    assert texts(at)[0] == "Best: keep 8♠ 6♦ 4♥ 3♣, draw 1 (21.4% of the pot)"  # as the tiles
    assert texts(at)[2] == (
        "Keep 8♠ 6♦ 4♥ 3♣, draw 1: 9 of the 42 unseen cards beat the pat 9♥ 7♣ 5♦ 4♠ 2♥ "
        "(9-7-5-4-2): the 2s, 5s and 7s (21% this draw).")
    assert set(at.dataframe[0].value["± %"]) == {"exact"}  # every draw counted: no error
    at.text_input(key="draw_custom_hand").input("8s 8s")
    at.button(key="draw_custom_go").click().run()
    assert at.error[0].value == "That is not a situation to drill:"
    assert "card 8s appears twice" in texts(at)


def test_a_situation_the_simulator_cannot_deal_is_not_scored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at, path = drills(tmp_path, monkeypatch)
    at.radio(key="drill_kind").set_value(progress.DRAW).run()
    at.session_state["dq_draw_27"] = DrawQuestion(
        Ranking.DEUCE_SEVEN, draws.OWN, parse_cards("8s 6d 4h 3c Kd"), 3,
        drawing=(2, 3, 1, 2, 0), source="pokerstars hand 2",
    )  # fmt: skip
    at.run()

    def refuse(*args: object, **kwargs: object) -> None:
        # what engine.sim.ranges says of five unknown hands it cannot deal apart
        raise ValueError("the unknown hands can hardly ever be dealt without sharing cards")

    monkeypatch.setattr(draws, "check", refuse)
    at.button(key="draw_answer").click().run()
    assert not at.exception
    assert at.error[0].value == "This situation cannot be simulated; it is not scored."
    assert "the unknown hands can hardly ever be dealt without sharing cards" in texts(at)
    assert stored(path).answered == 0
    at.button(key="draw_next").click().run()
    assert not at.error and at.session_state["dq_draw_27"].topic != draws.OWN


def test_answer_with_nothing_ticked_asks_instead_of_scoring(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at, path = drills(tmp_path, monkeypatch)
    at.button(key="showdown_answer").click().run()
    assert not at.exception
    assert [w.value for w in at.warning] == [
        "Tick the hand that wins (or every hand that ties), then answer."]
    assert not at.error and not at.success
    assert "df_showdown" not in at.session_state
    assert metrics(at)["Accuracy"] == "–"
    assert stored(path).answered == 0


def test_progress_after_one_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at, _ = drills(tmp_path, monkeypatch)
    q: ShowdownQuestion = at.session_state["dq_showdown_27"]
    for i in q.winners:
        at.checkbox(key=pick("showdown", at, i)).check()
    at.button(key="showdown_answer").click().run()
    chart = json.loads(at.get("plotly_chart")[0].proto.spec)
    # one answer is a point to see, not an empty chart of lines
    assert [t["mode"] for t in chart["data"]] == ["lines+markers", "lines+markers"]
    layout = chart["layout"]
    assert layout["xaxis"]["tickformat"] == "d" and layout["xaxis"]["dtick"] == 1
    assert layout["yaxis2"]["tickformat"] == "d"
    by_day, by_topic = at.dataframe[0].value, at.dataframe[1].value
    assert list(by_day["day"]) == [f"{date.today():%Y-%m-%d}"]  # a date, not midnight
    assert list(by_topic["game"]) == ["2-7 lowball"]  # not the code "27"
    assert re.fullmatch(r"\d+(\.\d)? s", by_topic["median_seconds"].iloc[0])


def test_a_simulated_draw_shows_each_equitys_standard_error_and_the_outs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at, _ = drills(tmp_path, monkeypatch)
    at.radio(key="drill_kind").set_value(progress.DRAW).run()
    at.text_input(key="draw_custom_hand").input("8s 6d 4h 3c Kd")
    at.number_input(key="draw_custom_left").set_value(2)
    at.text_input(key="draw_custom_counts").input("1")
    at.button(key="draw_custom_go").click().run()
    at.checkbox(key=pick("draw", at, 4)).check()  # throw the king
    at.button(key="draw_answer").click().run()
    assert not at.exception
    fb, _ = at.session_state["df_draw"]
    errors = list(at.dataframe[0].value["± %"])
    assert errors == [f"±{100 * c.stderr:.2f}" for c in fb.choices]
    assert all(c.stderr > 0.001 for c in fb.choices)  # a real error, not the zeros of before
    assert ("Keep 8♠ 6♦ 4♥ 3♣, draw 1: 20 of the 47 unseen cards make a ten-low or better "
            "without a pair, straight or flush: the 2s, 5s, 7s, 9s and tens (43% this draw)."
            ) in texts(at)


def test_a_badugi_question_is_answered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at, path = drills(tmp_path, monkeypatch)
    at.selectbox(key="drill_game_showdown").select(Ranking.BADUGI).run()
    assert not at.exception
    q: ShowdownQuestion = at.session_state["dq_showdown_badugi"]
    assert q.ranking is Ranking.BADUGI and [len(h) for h in q.hands] == [4, 4]
    for i in q.winners:
        at.checkbox(key=pick("showdown", at, i)).check()
    at.button(key="showdown_answer").click().run()
    assert not at.exception
    assert at.success[0].value == "Right · +15 points · streak 1"
    assert showdown.reasons(q)[0] in texts(at)
    assert (stored(path).answered, stored(path).score) == (1, 15)
