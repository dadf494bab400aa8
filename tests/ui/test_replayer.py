"""AppTest of the Replayer: finding hands, stepping, streets, problems, hostile names,
and the defects of issue 13 (hands that did not open, stacks after the collect, step 0,
the header, chips shown as money, pots of different units ranked together, problems
never shown)."""

from __future__ import annotations

import html
from html import escape
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from analysis.pipeline.importer import import_bytes, import_paths
from analysis.replayer.steps import ViewStep, hand_view
from analysis.storage import db, queries
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
from tests.paths import REPOSITORY
from ui.cards import cards_html
from ui.labels import site_name


def replayer(path: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    at = app_for(path, monkeypatch).run()
    return at.switch_page("ui/replayer_page.py").run()


def states_of(path: Path, hand_id: int) -> tuple[ViewStep, ...]:
    """The replayer's steps of a stored hand: the oracle of what the page shows."""
    con = db.connect(path)
    stored = queries.get_hand(con, hand_id)
    con.close()
    assert stored is not None and stored.hand is not None
    return hand_view(stored.hand, stored.problems).steps


WSOP_HAND = """\
variant = "F2L3D"
antes = [0, 0, 0]
blinds_or_straddles = [250000, 500000, 0]
small_bet = 500000
big_bet = 1000000
starting_stacks = [10000000, 12000000, 9000000]
actions = [
  "d dh p1 ??????????",
  "d dh p2 ??????????",
  "d dh p3 ??????????",
  "p3 f",
  "p1 f",
]
event = "EVENT"
hand = 7
table = 1
players = ["Alice", "Bob", "Carol"]
"""


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
        [f"#{h}", site_name(s)] for h, s in zip(latest["hand_id"], latest["site"], strict=True)
    ]
    first = int(latest["id"].iloc[0])
    assert int(at.selectbox(key="replay_hand").value) == first
    states = states_of(corpus_db, first)
    slider = at.slider(key="replay_step")
    assert (slider.value, slider.max) == (0, len(states) - 1)
    assert texts(at)[0] == states[0].text


@pytest.mark.slow  # over 1.5 s: make test runs it
def test_step_buttons_and_street_jumps(corpus_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = replayer(corpus_db, monkeypatch)
    hand = int(at.selectbox(key="replay_hand").value)
    states = states_of(corpus_db, hand)
    at.button(key="b_next").click().run()
    assert at.slider(key="replay_step").value == 1
    assert texts(at)[0] == states[1].text
    at.button(key="b_prev").click().run()
    assert at.slider(key="replay_step").value == 0
    at.button(key="b_next_street").click().run()
    step = at.slider(key="replay_step").value
    keys = [s.street for s in states]
    assert step > 0 and keys[step] != keys[step - 1] and len(set(keys[:step])) == 1
    at.button(key="b_end").click().run()
    assert at.slider(key="replay_step").value == len(states) - 1
    assert texts(at)[0] == states[-1].text
    at.slider(key="replay_step").set_value(2).run()
    assert texts(at)[0] == states[2].text
    at.button(key="b_start").click().run()
    assert at.slider(key="replay_step").value == 0


@pytest.mark.slow  # over 1.5 s: make test runs it
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


@pytest.mark.slow  # over 1.5 s: make test runs it
def test_problem_is_shown_at_the_step_it_happened(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = replayer(corpus_db, monkeypatch)
    at.radio(key="finder").set_value("Hands with problems").run()
    at.selectbox(key="r_status").set_value("invalid").run()
    hand = int(at.selectbox(key="replay_hand").value)
    con = db.connect(corpus_db)
    stored = queries.get_hand(con, hand)
    con.close()
    assert stored is not None and stored.hand is not None
    view = hand_view(stored.hand, stored.problems)
    states = view.steps
    where = next(i for i, s in enumerate(states) if s.problems)
    at.slider(key="replay_step").set_value(where).run()
    shown = [e.value for e in at.error] + [w.value for w in at.warning]
    for p in states[where].problems:
        assert f"{p.severity.capitalize()} at line {p.line}: {p.code}" in shown
        assert p.message in texts(at)
    if where > 0:
        at.slider(key="replay_step").set_value(where - 1).run()
        before = states[where - 1].problems
        above = 1 if view.unplaced else 0  # the box over the list of unplaced problems
        assert len(at.error) + len(at.warning) == len(before) + above


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
    for evil in HOSTILE_NAMES.values():  # the seat lines name each player as plain text
        assert sum(t.startswith("seat ") and f" · {evil} · " in t for t in shown) == 1
    picture = next(b for b in html_bodies(at) if "dl-table" in b)
    for evil in HOSTILE_NAMES.values():  # the picture has them escaped, never as markup
        assert html.escape(evil, quote=True) in picture
    assert "<img" not in picture and "<script" not in picture
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
        steps = hand_view(stored.hand, stored.problems).steps
        at_step = next((i for i, s in enumerate(steps) if len(s.pots) > 1), None)
        if at_step is not None:
            found = (stored.hand.hand_id, steps[at_step], at_step)
            break
    con.close()
    assert found is not None  # the corpus's "sidepot" hand
    hand_id, step, index = found
    at = replayer(corpus_db, monkeypatch)
    at.radio(key="finder").set_value("Search by id").run()
    at.text_input(key="search_id").set_value(hand_id).run()
    at.slider(key="replay_step").set_value(index).run()
    [table] = [d.value for d in at.dataframe if "eligible" in d.value.columns]
    assert list(table["pot"]) == ["main"] + [f"side {i}" for i in range(1, len(step.pots))]
    assert list(table["amount"]) == [f"{p.amount / 100:,.2f}" for p in step.pots]
    assert list(table["eligible"]) == [", ".join(p.eligible) for p in step.pots]
    assert at.metric[0].value == f"{step.pot / 100:,.2f}"


# --- issue 13: the defects a tracker user stopped trusting it for ------------------------

SAMPLES = REPOSITORY / "sample_histories"
SNG = SAMPLES / "pokerstars" / "27_triple_draw_fl_sit_and_go_6max.txt"
CASH_SAMPLE = SAMPLES / "pokerstars" / "27_triple_draw_fl_0.10-0.20_6max.txt"


def db_of(tmp_path: Path, *paths: Path) -> Path:
    path = tmp_path / "drawlab.duckdb"
    con = db.connect(path)
    import_paths(con, list(paths), workers=0)
    con.close()
    return path


def open_hand(at: AppTest, hand_id: str) -> AppTest:
    at.radio(key="finder").set_value("Search by id").run()
    return at.text_input(key="search_id").set_value(hand_id).run()


def seat_lines(at: AppTest) -> list[str]:
    return [t for t in texts(at) if t.startswith("seat ")]


def html_bodies(at: AppTest) -> list[str]:
    return [str(h.proto.body) for h in at.get("html")]


@pytest.mark.slow
def test_every_bundled_sample_hand_opens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = db_of(tmp_path, SAMPLES / "phh")  # home games are stored under the venue 'home'
    at = replayer(path, monkeypatch)
    ids = at.selectbox(key="replay_hand").options
    assert len(ids) == 11  # ten PHH sample hands and the Badugi one
    sites = set()
    for i in range(len(ids)):
        if i:
            at.button(key="b_next_hand").click().run()
        assert not at.exception
        assert "This hand cannot be replayed." not in [w.value for w in at.warning]
        assert texts(at)[0] == "the forced bets are posted"
        picked = at.selectbox(key="replay_hand")
        sites.add(picked.options[picked.index].split(" · ")[1])
    assert sites == {"home game", "PokerStars"}


def test_a_phh_event_hand_is_listed_and_headed_as_that_tournaments_chips(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = "2023 World Series of Poker Event #33: $1,500 Deuce to Seven Triple Draw"
    folder = tmp_path / "wsop"
    folder.mkdir()
    (folder / "final.phh").write_text(WSOP_HAND.replace("EVENT", event), encoding="utf-8")
    at = replayer(db_of(tmp_path, folder), monkeypatch)
    assert not at.exception
    [label] = at.selectbox(key="replay_hand").options
    assert label.startswith(f"#7 · PHH · {event} · ok")
    [head] = [b for b in html_bodies(at) if "dl-hand-header" in b]
    assert escape(event) in head and "500,000/1,000,000 chips" in head


@pytest.mark.slow  # over 1.5 s: make test runs it
def test_stacks_after_the_collect_include_what_was_won(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = open_hand(replayer(db_of(tmp_path, SNG), monkeypatch), "220001120265")
    at.button(key="b_end").click().run()
    assert texts(at)[0] == "the pots are settled: main pot 640 to sevenfive2"
    assert seat_lines(at) == [  # the stacks hand #220001120266 starts from
        "seat 1 · Hero (hero) · BTN · stack 4,140 · in 0 · 5♦ 6♥ Q♣ 3♠ A♣ · folded",
        "seat 5 · sevenfive2 · SB · stack 640 · in 320 · 4♥ 6♦ 2♥ 7♠ T♣ · drew 3, 2, 2"
        " · collected 640 · winner",
        "seat 6 · RazzleDazzle2 · BB · stack 4,220 · in 320 · drew 1, 1, 1",
    ]
    [pots] = [d.value for d in at.dataframe if "winners" in d.value.columns]
    assert pots.to_dict("records") == [{"pot": "main", "amount": "640",
                                        "eligible": "sevenfive2, RazzleDazzle2",
                                        "winners": "sevenfive2"}]
    assert at.metric[0].value == "0"
    at.button(key="b_prev").click().run()
    assert texts(at)[0] == "sevenfive2 collects 640"
    assert "stack 640" in seat_lines(at)[1] and seat_lines(at)[1].endswith("winner")
    picture = next(b for b in html_bodies(at) if "dl-table" in b)
    assert "wins 640" in picture and "3px solid #d4a017" in picture


def test_step_zero_shows_the_forced_bets_and_the_pot(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = open_hand(replayer(corpus_db, monkeypatch), "63845186378")
    assert at.slider(key="replay_step").value == 0
    assert texts(at)[0] == "the forced bets are posted"
    assert at.metric[0].value == "0.15"
    lines = seat_lines(at)
    assert lines[1].startswith("seat 2 · Hero (hero) · SB · stack 3.35 · bet 0.05 ·")
    assert lines[2].startswith("seat 3 · Player2 · BB · stack 2.90 · bet 0.10 ·")
    picture = next(b for b in html_bodies(at) if "dl-table" in b)
    assert "Pot 0.15" in picture and picture.count('class="dl-bet"') == 2


@pytest.mark.slow  # over 1.5 s: make test runs it
def test_the_header_and_tournament_chips(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_hand(replayer(db_of(tmp_path, SNG), monkeypatch), "220001120265")
    picked = at.selectbox(key="replay_hand")
    assert picked.options[picked.index].endswith(" · pot 640 chips")
    [header] = [b for b in html_bodies(at) if "dl-hand-header" in b]
    for fact in ("2-7 Triple Draw", "Fixed limit", "300/600 chips", "2200011206 1", "6-max",
                 "seat 1", "#2200011206", "IX"):
        assert f'<span style="font-weight:700">{fact}</span>' in header
    assert at.metric[0].value == "450"  # blinds 150 and 300, in chips, no cents
    assert "SB" in seat_lines(at)[1] and "640.00" not in " ".join(texts(at))


@pytest.mark.slow
def test_biggest_pots_are_ranked_within_one_currency_or_chips(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = db_of(tmp_path, SNG, CASH_SAMPLE)
    at = replayer(path, monkeypatch)
    at.radio(key="finder").set_value("Biggest pots").run()
    unit = at.selectbox(key="r_pot_unit")
    assert unit.options == [
        "USD (cash) · 900 hands", "tournament chips · 300 hands"]
    options = at.selectbox(key="replay_hand").options
    assert all(o.endswith(" USD") for o in options) and len(options) == 200
    con = db.connect(path)
    usd = queries.biggest_pots_in(con, queries.PotUnit(False, "USD"), limit=1)
    con.close()
    assert int(at.selectbox(key="replay_hand").value) == int(usd["id"].iloc[0])
    at.selectbox(key="r_pot_unit").select_index(1).run()
    options = at.selectbox(key="replay_hand").options
    # hand #220001120274 writes the sample's biggest total pot, 8680
    assert options[0].startswith("#220001120274 ") and options[0].endswith(" · pot 8,680 chips")
    assert all(o.endswith(" chips") for o in options)


def test_a_problem_between_hands_is_shown_above_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hands = CASH_SAMPLE.read_text(encoding="utf-8").split("PokerStars Hand #")[1:3]
    grown = hands[1].replace("Seat 5: Hero ($4.70 in chips)", "Seat 5: Hero ($5.70 in chips)")
    path = tmp_path / "drawlab.duckdb"
    con = db.connect(path)
    import_bytes(con, "grown.txt", ("PokerStars Hand #" + hands[0] + "PokerStars Hand #"
                                    + grown).encode())
    con.close()
    at = replayer(path, monkeypatch)
    at.radio(key="finder").set_value("Hands with problems").run()
    assert at.selectbox(key="replay_hand").options[0].startswith("#220001010001 ")
    assert [w.value for w in at.warning] == [
        "1 problem(s) of this hand belong to no step: what the reader noticed, or what "
        "changed since the table's previous hand"]
    unplaced, everything = [d.value for d in at.dataframe if "code" in d.value.columns]
    assert unplaced.equals(everything)  # the hand has no other problem
    table = unplaced
    assert table.to_dict("records") == [{
        "line": 59, "severity": "warning", "code": "STACK_CHANGE",
        "message": "Hero starts with 5.70 but ended hand 220001010000 with 4.70 "
                   "(a top-up or rebuy of 1?)"}]
