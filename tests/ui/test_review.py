"""AppTest of the Review page: the summary from the stored review, the charts, the
costliest spots, and the replayer opened at the chosen draw with its alternatives."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from analysis import review
from analysis.pipeline.importer import import_bytes
from analysis.simulate import simulate
from analysis.storage import db, memory
from engine.record import Game
from tests.app_support import app_for, copy_db, reviewed_db_file_fixture, texts  # noqa: F401

PAGE = "ui/review_page.py"


def test_the_page_shows_the_stored_review_and_opens_the_replayer_at_a_spot(
    reviewed_db_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = copy_db(reviewed_db_file, tmp_path)
    con = db.connect(path)
    try:
        s = review.summary(con, "Hero")
        spots = review.costliest(con, "Hero")
    finally:
        con.close()
    monkeypatch.setenv("DRAWLAB_SAMPLES", "")
    at = app_for(path, monkeypatch).run()
    at.switch_page(PAGE).run()
    assert not at.exception
    assert [t.value for t in at.title] == ["Review"]
    assert "Player: Hero" in texts(at)
    shown = {m.label: m.value for m in at.metric}
    assert shown == {
        "Hands reviewed": f"{s.hands:,}",
        "Draws reviewed": f"{s.decisions:,}",
        "Mistakes": f"{s.mistakes:,}",
        "Big bets lost / 100 hands": f"{s.loss_per_100:.2f}",
    }
    assert len(at.get("plotly_chart")) == 2
    assert not [b for b in at.button if b.key == "review_run"]  # nothing left to review
    positions, table, alternatives_table = (d.value for d in at.dataframe)
    assert sorted(positions["position"]) == sorted(p.label for p in s.by_position)
    assert list(alternatives_table["keep"]) == [
        c["kept"] or "(draw five)" for c in spots[0]["choices"]
    ]
    assert list(table["lost (BB)"]) == [round(x["cost"], 3) for x in spots]
    assert list(table["spot"]) == [review.spot_text(x) for x in spots]
    assert at.selectbox(key="review_profile").value == "standard"
    at.selectbox(key="review_pick").set_value(0).run()
    at.button(key="review_open").click().run()
    assert not at.exception
    first = spots[0]
    assert at.session_state["replayer_hand_ids"] == [first["hand"]]
    assert at.session_state["replayer_step"] == {"kind": "draw", "draw": first["draw"],
                                                 "player": "Hero"}  # fmt: skip
    alternatives = at.session_state["replayer_alternatives"]
    assert alternatives["best_kept"] == first["best_kept"]
    assert [c["kept"] for c in alternatives["choices"]] == [c["kept"] for c in first["choices"]]
    assert [t.value for t in at.title] == ["Replayer"]
    # the replayer opens that hand at Hero's draw and weighs the choices beside it
    assert at.radio(key="finder").value == "Sent here"
    assert at.selectbox(key="replay_hand").value == first["hand"]
    step = at.session_state["replay_step"]
    assert f"Step {step} of" in " ".join(c.value for c in at.caption)
    assert at.subheader[-1].value == f"Draw {first['draw']}: the choices weighed"
    weighed = next(d.value for d in at.dataframe if "as good as best" in d.value.columns)
    by_equity = sorted(first["choices"], key=lambda c: -float(c["equity"]))
    assert list(weighed["keep"]) == [c["kept"] or "(draw all)" for c in by_equity]
    assert list(weighed["best"]) == [c["kept"] == first["best_kept"] for c in by_equity]
    assert any("share of it given up" in c.value for c in at.caption)
    assert not any("lower bound" in c.value for c in at.caption)


def test_the_page_offers_to_review_new_hands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = io.StringIO()
    simulate(out, 3, Game.TRIPLE_DRAW_27, 2, 11)
    path = tmp_path / "new.duckdb"
    con = db.connect(path)
    try:
        import_bytes(con, "dealt.txt", out.getvalue().encode(), workers=0)
    finally:
        con.close()
    con = db.connect(path)
    con.execute("UPDATE hands SET status = 'invalid' WHERE id = (SELECT max(id) FROM hands)")
    con.close()
    monkeypatch.setenv("DRAWLAB_SAMPLES", "")
    monkeypatch.setattr(review, "TRIALS", 300)
    at = app_for(path, monkeypatch, timeout=300).run()
    at.switch_page(PAGE).run()
    assert not at.exception
    captions = [str(c.value) for c in at.caption]
    # a hand with errors is said to be left out, and is not among those to review
    assert ("1 hand with errors left out: only hands the replay found valid are reviewed."
            in captions)
    assert any("2 hands not reviewed yet." in c for c in captions)
    at.button(key="review_run").click().run()
    assert not at.exception
    assert {m.label: m.value for m in at.metric}["Hands reviewed"] == "2"


def test_the_costliest_spots_show_the_users_tags(
    reviewed_db_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = copy_db(reviewed_db_file, tmp_path)
    con = db.connect(path)
    try:
        spots = review.costliest(con, "Hero")
        key = str(con.execute("SELECT key FROM hands WHERE id = ?",
                              [spots[0]["hand"]]).fetchall()[0][0])
        memory.add_tags(con, key, ["mistake", "review"])
    finally:
        con.close()
    monkeypatch.setenv("DRAWLAB_SAMPLES", "")
    at = app_for(path, monkeypatch).run()
    at.switch_page(PAGE).run()
    assert not at.exception
    table = next(d.value for d in at.dataframe if "lost (BB)" in d.value.columns)
    assert list(table["tags"]) == ["mistake, review"] + [
        "mistake, review" if s["hand"] == spots[0]["hand"] else "" for s in spots[1:]]


@pytest.mark.slow  # over 1.5 s: make test runs it
def test_a_persons_draws_are_reviewed_together_over_every_name_at_every_site(
    reviewed_db_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = copy_db(reviewed_db_file, tmp_path)  # Hero at PokerStars
    out = io.StringIO()
    simulate(out, 24, Game.TRIPLE_DRAW_27, 3, 5, hero="Other", first_hand_id=900000000001)
    con = db.connect(path)
    try:
        import_bytes(con, "other.txt", out.getvalue().encode(), workers=0)
        other = "(SELECT hand FROM player_hands WHERE player = 'Other')"  # another site's
        con.execute(f"UPDATE hands SET site = 'fulltilt' WHERE id IN {other}")
        con.execute(f"UPDATE player_hands SET site = 'fulltilt' WHERE hand IN {other}")
        review.run_review(con, "Other", workers=1, trials=300)
        memory.add_alias(con, "me", "pokerstars", "Hero")
        memory.add_alias(con, "me", "fulltilt", "Other")
        one, two = review.summary(con, "Hero"), review.summary(con, "Other")
        worst = review.costliest(con, "Hero") + review.costliest(con, "Other")
    finally:
        con.close()
    assert one.decisions and two.decisions
    monkeypatch.setenv("DRAWLAB_SAMPLES", "")
    at = app_for(path, monkeypatch).run()
    at.switch_page(PAGE).run()
    at.selectbox(key="review_player").set_value(("", "me")).run()
    assert not at.exception
    assert "Player: me (fulltilt:Other, pokerstars:Hero)" in texts(at)
    assert {m.label: m.value for m in at.metric} == {
        "Hands reviewed": f"{one.hands + two.hands:,}",
        "Draws reviewed": f"{one.decisions + two.decisions:,}",
        "Mistakes": f"{one.mistakes + two.mistakes:,}",
        "Big bets lost / 100 hands":
            f"{100 * (one.lost + two.lost) / (one.hands + two.hands):.2f}",
    }
    spots = at.dataframe[1].value
    assert set(spots["site"]) == {"pokerstars", "fulltilt"}
    assert sorted(spots["lost (BB)"]) == sorted(
        round(s["cost"], 3) for s in sorted(worst, key=lambda s: -s["cost"])[:len(spots)])
