"""Drills: which hand wins, what to draw, who gets which pot; score, streak and progress.

A page script.  Questions, checking, the schedule and the progress all live in
``analysis.drills``; this page keeps the current question in the session, times the answer
and draws.  Player names from the database (own showdowns) are untrusted: they reach the
screen only through ``st.text`` and ``st.dataframe``; widget labels are fixed texts; card
tiles are built from card numbers (``ui.cards``).
"""

from __future__ import annotations

import random
import time
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from analysis.drills import draws, pots, progress, session, showdown
from analysis.drills.progress import Recorded
from engine.ranking import Ranking, describe
from engine.sim.draw_choice import DrawChoice
from ui import cards, state
from ui.labels import seconds

DRILLS = {
    progress.SHOWDOWN: "Which hand wins",
    progress.DRAW: "What to draw",
    progress.POTS: "Who gets the pot",
}
GAMES = {
    Ranking.DEUCE_SEVEN: "2-7", Ranking.ACE_FIVE: "A-5", Ranking.HIGH: "High",
    Ranking.BADUGI: "Badugi",
}  # fmt: skip
POT_GAMES = [Ranking.DEUCE_SEVEN, Ranking.ACE_FIVE, Ranking.HIGH]  # five-card pot drills
GAME_TOPICS = {Ranking.DEUCE_SEVEN.value: "2-7 lowball", Ranking.ACE_FIVE.value: "A-5 lowball",
               Ranking.HIGH.value: "high hands",
               Ranking.BADUGI.value: "Badugi"}  # the progress tables' game column
NO_PICK = "Tick the hand that wins (or every hand that ties), then answer."


def rng() -> random.Random:
    if "drill_rng" not in st.session_state:
        st.session_state["drill_rng"] = random.Random()
    r: random.Random = st.session_state["drill_rng"]
    return r


def _clear(prefix: str) -> None:
    for key in [k for k in st.session_state if str(k).startswith(prefix)]:
        del st.session_state[key]


def current(drill: str, ranking: Ranking, make: Any) -> Any:
    """The open question of this drill and game, made when there is none.

    Each new question gets a new serial number, part of its widgets' keys: the browser
    keeps a widget's value for as long as its key lives, so reused keys would carry the last
    question's ticks into the next one."""
    key = f"dq_{drill}_{ranking.value}"
    if key not in st.session_state:
        open_question(drill, ranking, make())
    return st.session_state[key]


def open_question(drill: str, ranking: Ranking, q: Any) -> None:
    _clear(f"dq_{drill}_")  # one open question per drill: its answer is the one shown
    st.session_state[f"dq_{drill}_{ranking.value}"] = q
    st.session_state[f"dt_{drill}"] = time.monotonic()
    st.session_state[f"dn_{drill}"] = int(st.session_state.get(f"dn_{drill}", 0)) + 1
    st.session_state.pop(f"df_{drill}", None)
    st.session_state.pop(f"de_{drill}", None)
    _clear(f"{drill}_pick_")


def pick_key(drill: str, item: object) -> str:
    """The key of an answer widget of the open question."""
    return f"{drill}_pick_{st.session_state.get(f'dn_{drill}', 0)}_{item}"


def next_button(drill: str, ranking: Ranking) -> None:
    if st.button("Next question", key=f"{drill}_next", type="primary",
                 icon=":material/skip_next:"):  # fmt: skip
        st.session_state.pop(f"dq_{drill}_{ranking.value}", None)
        st.session_state.pop(f"df_{drill}", None)
        st.rerun()


def elapsed(drill: str) -> float:
    return time.monotonic() - float(st.session_state.get(f"dt_{drill}", time.monotonic()))


def verdict(correct: bool, rec: Recorded) -> None:
    gained = f"+{rec.points} points" if rec.points else "no points"
    moved = ""
    if rec.level_after > rec.level_before:
        moved = f" · up to level {rec.level_after}"
    elif rec.level_after < rec.level_before:
        moved = f" · back to level {rec.level_after}"
    if correct:
        st.success(f"Right · {gained} · streak {rec.streak}{moved}", icon=":material/check:")
    else:
        st.error(f"Not quite · streak reset{moved}", icon=":material/close:")


# --- which hand wins --------------------------------------------------------------------


def showdown_drill(ranking: Ranking, use_own: bool) -> None:
    con = state.connection()
    q: showdown.ShowdownQuestion = current(
        progress.SHOWDOWN, ranking, lambda: session.next_showdown(con, ranking, rng(),
                                                                 use_own=use_own))  # fmt: skip
    st.caption(f"{GAMES[ranking]} · {showdown.TOPIC_LABELS[q.topic]} · tick every winner")
    if q.topic == showdown.OWN:
        st.text(f"From your showdowns: {q.source}")
    done = st.session_state.get(f"df_{progress.SHOWDOWN}")
    cols = st.columns(len(q.hands))
    for i, (col, hand) in enumerate(zip(cols, q.hands, strict=True)):
        with col:
            st.text(q.names[i])
            cards.show_cards(hand)
            st.checkbox("Wins", key=pick_key(progress.SHOWDOWN, i), disabled=done is not None)
    if done is None:
        if st.button("Answer", key="showdown_answer", icon=":material/gavel:"):
            picked = {i for i in range(len(q.hands))
                      if st.session_state.get(pick_key(progress.SHOWDOWN, i))}  # fmt: skip
            if not picked:  # every question has a winner: nothing ticked is no answer yet
                st.warning(NO_PICK, icon=":material/touch_app:")
                return
            fb, rec = session.answer_showdown(con, q, picked, elapsed(progress.SHOWDOWN))
            st.session_state[f"df_{progress.SHOWDOWN}"] = (fb, rec)
            st.rerun()
        return
    fb, rec = done
    verdict(fb.correct, rec)
    won = " and ".join(q.names[i] for i in sorted(fb.winners))
    st.text(f"Winner{'s' if len(fb.winners) > 1 else ''}: {won}")
    for i, hand in enumerate(q.hands):
        st.text(f"{q.names[i]}: {describe(hand, ranking)}")
    for line in fb.reasons:
        st.text(line)
    next_button(progress.SHOWDOWN, ranking)


# --- what to draw -----------------------------------------------------------------------


def _situation(q: draws.DrawQuestion) -> str:
    left = f"{q.draws_left} draw{'s' if q.draws_left > 1 else ''} left"
    against = []
    if q.pat is not None:
        against.append("a pat hand (shown below)")
    for d in q.drawing:
        against.append("a player standing pat" if d == 0 else f"a player drawing {d}")
    return f"{GAMES[q.ranking]} · {left} · against " + ", ".join(against)


def _label(c: DrawChoice) -> str:
    return draws.choice_label(c, cards.cards_label)  # suit symbols, as on the tiles


def _error_text(c: DrawChoice) -> str:
    """The standard error of a simulated equity; an exact one (every draw counted) has
    none, and says so rather than showing ±0."""
    return "exact" if c.exact else f"±{100 * c.stderr:.2f}"


def _choices_table(fb: draws.DrawFeedback) -> pd.DataFrame:
    rows = []
    for c in fb.choices:
        mark = []
        if c is fb.chosen:
            mark.append("your answer")
        if fb.taken is not None and c is fb.taken:
            mark.append("what you did at the table")
        rows.append({
            "choice": _label(c), "equity %": round(100 * c.equity, 2),
            "loss %": round(100 * c.loss, 2),
            "± %": _error_text(c), "": ", ".join(mark),
        })  # fmt: skip
    return pd.DataFrame(rows)


def custom_draw(ranking: Ranking) -> None:
    """Set up a hand: the player's own situation as the next question."""
    with st.expander("Set up a hand of your own"):
        cols = st.columns([3, 1, 3, 2], vertical_alignment="bottom")
        hand = cols[0].text_input("Your five cards", placeholder="8s 6d 4h 3c Kd",
                                  key="draw_custom_hand")  # fmt: skip
        left = cols[1].number_input("Draws left", 1, 3, 1, key="draw_custom_left")
        pat = cols[2].text_input("Pat hand to beat (optional)", placeholder="9h 7c 5d 4s 2h",
                                 key="draw_custom_pat")  # fmt: skip
        counts = cols[3].text_input("Opponents draw (optional)", placeholder="1 2",
                                    key="draw_custom_counts")  # fmt: skip
        if st.button("Drill this hand", key="draw_custom_go"):
            try:
                q = draws.custom(ranking, hand, int(left), pat, counts)
            except ValueError as exc:  # CardError is a ValueError
                st.error("That is not a situation to drill:")
                st.text(str(exc))
                return
            open_question(progress.DRAW, ranking, q)
            st.rerun()


def draw_drill(ranking: Ranking, use_own: bool) -> None:
    con = state.connection()
    custom_draw(ranking)
    q: draws.DrawQuestion = current(
        progress.DRAW, ranking, lambda: session.next_draw(con, ranking, rng(), use_own=use_own))
    st.caption(f"{_situation(q)} · tick the cards to throw (none: stand pat)")
    if q.topic == draws.OWN:
        st.text(f"From your hands: {q.source}")
    done = st.session_state.get(f"df_{progress.DRAW}")
    failed = st.session_state.get(f"de_{progress.DRAW}")
    cards.show_cards(q.hand)
    cols = st.columns(5)
    for i, card in enumerate(q.hand):
        cols[i].checkbox(f"Throw {cards.card_label(card)}", key=pick_key(progress.DRAW, i),
                         disabled=done is not None)  # fmt: skip
    if q.pat is not None:
        st.caption("The pat hand to beat")
        cards.show_cards(q.pat)
    if failed is not None:
        st.error("This situation cannot be simulated; it is not scored.")
        st.text(str(failed))
        next_button(progress.DRAW, ranking)
        return
    if done is None:
        if st.button("Draw", key="draw_answer", icon=":material/playing_cards:"):
            discard = [c for i, c in enumerate(q.hand)
                       if st.session_state.get(pick_key(progress.DRAW, i))]  # fmt: skip
            try:
                with st.spinner("Dealing out every choice…"):
                    fb, rec = session.answer_draw(con, q, discard, elapsed(progress.DRAW))
            except ValueError as exc:  # a situation the simulator cannot deal: not scored
                st.session_state[f"de_{progress.DRAW}"] = str(exc)
            else:
                st.session_state[f"df_{progress.DRAW}"] = (fb, rec)
            st.rerun()
        return
    fb, rec = done
    verdict(fb.correct, rec)
    st.text(f"Best: {_label(fb.best)} ({100 * fb.best.equity:.1f}% of the pot)")
    st.text(f"Yours: {_label(fb.chosen)} ({100 * fb.chosen.equity:.1f}%, "
            f"{100 * fb.chosen.loss:.1f}% of the pot less)")  # fmt: skip
    if fb.taken is not None:
        st.text(f"At the table you played: {_label(fb.taken)} "
                f"({100 * fb.taken.loss:.1f}% of the pot less than the best)")  # fmt: skip
    for line in draws.reasons(q, fb, cards.cards_label):
        st.text(line)
    for note in fb.notes:
        st.caption(note)
    st.dataframe(_choices_table(fb), hide_index=True, width="stretch")
    next_button(progress.DRAW, ranking)


# --- pots -------------------------------------------------------------------------------


def _seats_table(q: pots.PotQuestion) -> pd.DataFrame:
    rows = []
    for s in pots.seats_in_order(q):
        rows.append({
            "seat": s.seat, "player": s.name + (" (button)" if s.seat == q.button else ""),
            "chips in": pots.money(s.put_in), "folded": "yes" if s.folded else "",
            "cards": cards.cards_label(s.cards) if s.cards else "",
            "hand": describe(s.cards, q.ranking) if s.cards else "",
        })  # fmt: skip
    return pd.DataFrame(rows)


def pot_drill(ranking: Ranking) -> None:
    con = state.connection()
    q: pots.PotQuestion = current(progress.POTS, ranking,
                                  lambda: session.next_pot(con, ranking, rng()))  # fmt: skip
    st.caption(f"{GAMES[ranking]} · {pots.TOPIC_LABELS[q.topic]} · chips in after any uncalled "
               "bet went back · how much does each player collect?")  # fmt: skip
    st.dataframe(_seats_table(q), hide_index=True, width="stretch")
    done = st.session_state.get(f"df_{progress.POTS}")
    seats = pots.seats_in_order(q)
    cols = st.columns(len(seats))
    for col, s in zip(cols, seats, strict=True):
        col.number_input(f"Seat {s.seat} collects", min_value=0.0, step=0.01, format="%.2f",
                         key=pick_key(progress.POTS, s.seat), disabled=done is not None)
    if done is None:
        if st.button("Pay out", key="pots_answer", icon=":material/payments:"):
            given = {s.name: round(100 * float(st.session_state.get(
                pick_key(progress.POTS, s.seat)) or 0.0)) for s in seats}  # fmt: skip
            fb, rec = session.answer_pot(con, q, given, elapsed(progress.POTS))
            st.session_state[f"df_{progress.POTS}"] = (fb, rec)
            st.rerun()
        return
    fb, rec = done
    verdict(fb.correct, rec)
    table = pd.DataFrame([
        {"player": s.name, "you said": pots.money(fb.given[s.name]),
         "engine pays": pots.money(fb.expected[s.name]),
         "": "" if s.name not in fb.wrong else "wrong"}
        for s in seats
    ])  # fmt: skip
    st.dataframe(table, hide_index=True, width="stretch")
    for line in fb.lines:
        st.text(line)
    next_button(progress.POTS, ranking)


# --- score and progress -----------------------------------------------------------------


def scoreboard(drill: str) -> None:
    con = state.connection()
    s = progress.summary(con, drill)
    cols = st.columns(5)
    cols[0].metric("Score", f"{s.score:,}")
    cols[1].metric("Streak", f"{s.streak}")
    cols[2].metric("Best streak", f"{s.best_streak}")
    cols[3].metric("Accuracy", "–" if s.accuracy is None else f"{100 * s.accuracy:.0f}%")
    cols[4].metric("Level", f"{progress.level(con, drill)}")


def progress_chart(history: pd.DataFrame) -> go.Figure:
    """Lines with markers (one answer is a point, not an empty chart); answers and score
    are whole numbers, so are their axes' ticks."""
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=history["answer"], y=100 * history["rolling_accuracy"],
                             name=f"accuracy, last {progress.ROLLING} (%)",
                             mode="lines+markers"))
    fig.add_trace(go.Scatter(x=history["answer"], y=history["score"], name="score",
                             mode="lines+markers", yaxis="y2"))
    last = int(history["answer"].max()) if len(history) else 1
    fig.update_layout(
        height=320, margin={"l": 10, "r": 10, "t": 30, "b": 10},
        xaxis={"title": "answer", "tickformat": "d", "dtick": max(1, -(-last // 10)),
               "range": [0.5, last + 0.5]},
        yaxis={"title": "accuracy %", "range": [0, 105], "tickformat": "d"},
        yaxis2={"title": "score", "overlaying": "y", "side": "right", "tickformat": "d",
                "rangemode": "tozero"},
        legend={"orientation": "h", "y": 1.12},
    )  # fmt: skip
    return fig


def progress_section(drill: str) -> None:
    con = state.connection()
    st.subheader("Progress")
    hist = progress.history(con, drill)
    if hist.empty:
        st.info("Answer a question to start your progress chart.")
        return
    st.plotly_chart(progress_chart(hist), key="drill_progress_chart")
    days = progress.by_day(con, drill)
    days["day"] = [f"{pd.Timestamp(d):%Y-%m-%d}" for d in days["day"]]  # a date, no midnight
    days["accuracy"] = (100 * days["accuracy"]).round(0)
    st.caption("By day")
    st.dataframe(days, hide_index=True, width="stretch",
                 column_config={"accuracy": st.column_config.NumberColumn("accuracy %")})
    st.caption("By topic (the weakest first)")
    topics = progress.by_topic(con, drill)
    labels = {**showdown.TOPIC_LABELS, **draws.TOPIC_LABELS, **pots.TOPIC_LABELS}
    topics["topic"] = topics["topic"].map(lambda t: labels.get(str(t), str(t)))
    topics["game"] = topics["game"].map(lambda g: GAME_TOPICS.get(str(g), str(g)))
    topics["accuracy"] = (100 * topics["accuracy"]).round(0)
    topics["median_seconds"] = topics["median_seconds"].map(seconds)
    st.dataframe(
        topics[["game", "topic", "answered", "correct", "accuracy", "median_seconds", "box"]],
        hide_index=True, width="stretch",
        column_config={"accuracy": st.column_config.NumberColumn("accuracy %"),
                       "median_seconds": st.column_config.TextColumn(
                           "median time", help="Half the answers took less, half more."),
                       "box": st.column_config.NumberColumn("Leitner box", help=(
                           "1: comes back after one other question; each right answer moves "
                           "it up a box and further away"))},
    )  # fmt: skip


# --- page -------------------------------------------------------------------------------

st.title("Drills")
top = st.columns([3, 2, 2])
drill = top[0].radio("Drill", list(DRILLS), format_func=DRILLS.__getitem__, horizontal=True,
                     key="drill_kind")  # fmt: skip
games = {progress.SHOWDOWN: list(GAMES), progress.DRAW: list(draws.RANKINGS)}.get(drill, POT_GAMES)
ranking = top[1].selectbox("Game", games, format_func=GAMES.__getitem__, key=f"drill_game_{drill}")
use_own = top[2].toggle("Include my own hands", value=True, key="drill_own",
                        disabled=drill == progress.POTS)  # fmt: skip
scoreboard(drill)
if drill == progress.SHOWDOWN:
    showdown_drill(ranking, use_own)
elif drill == progress.DRAW:
    draw_drill(ranking, use_own)
else:
    pot_drill(ranking)
progress_section(drill)
