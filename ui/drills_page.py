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

from analysis.drills import draws, pots, progress, session, showdown, wild_showdown
from analysis.drills.progress import Recorded
from engine.ranking import Ranking, describe
from engine.sim.draw_choice import DrawChoice
from engine.wild import Wild, wild_cards
from ui import cards, state
from ui.labels import seconds

DRILLS = {
    progress.SHOWDOWN: "Which hand wins",
    progress.DRAW: "What to draw",
    progress.POTS: "Who gets the pot",
}
GAMES: dict[str, str] = {
    Ranking.DEUCE_SEVEN: "2-7", Ranking.ACE_FIVE: "A-5", Ranking.HIGH: "High",
    Ranking.BADUGI: "Badugi", pots.HIGH_LOW: "High-low split",
}  # fmt: skip
SHOWDOWN_GAMES = [Ranking.DEUCE_SEVEN, Ranking.ACE_FIVE, Ranking.HIGH, Ranking.BADUGI]
# five-card pot drills, and California high-low (each pot halved, high and A-5 low)
POT_GAMES: list[str] = [Ranking.DEUCE_SEVEN, Ranking.ACE_FIVE, Ranking.HIGH, pots.HIGH_LOW]
WILD = wild_showdown.WILD_GAME  # "which hand wins" with wild cards: a game of its own here
WILD_LABEL = "High, wild cards"
GAME_TOPICS = {Ranking.DEUCE_SEVEN.value: "2-7 lowball", Ranking.ACE_FIVE.value: "A-5 lowball",
               Ranking.HIGH.value: "high hands", Ranking.BADUGI.value: "Badugi",
               WILD: "wild-card high hands", draws.WILD_DRAW: "five-card draw, wild cards",
               draws.HIGH_LOW_DRAW: "five-card draw, high-low",
               pots.HIGH_LOW: "high-low split"}  # the progress tables' game column
WILD_CHOICES = {None: "no wild cards", Wild.JOKER: "a joker (Jk)", Wild.TWO_JOKERS: "two jokers",
                Wild.DEUCES: "deuces", Wild.ONE_EYED_JACKS: "one-eyed jacks"}  # fmt: skip
NO_PICK = "Tick the hand that wins (or every hand that ties), then answer."


def rng() -> random.Random:
    if "drill_rng" not in st.session_state:
        st.session_state["drill_rng"] = random.Random()
    r: random.Random = st.session_state["drill_rng"]
    return r


def _clear(prefix: str) -> None:
    for key in [k for k in st.session_state if str(k).startswith(prefix)]:
        del st.session_state[key]


def current(drill: str, game: str, make: Any) -> Any:
    """The open question of this drill and game (a Ranking, ``WILD`` or the high-low pot
    game), made when there is none.

    Each new question gets a new serial number, part of its widgets' keys: the browser
    keeps a widget's value for as long as its key lives, so reused keys would carry the last
    question's ticks into the next one."""
    key = f"dq_{drill}_{game}"
    if key not in st.session_state:
        open_question(drill, game, make())
    return st.session_state[key]


def open_question(drill: str, game: str, q: Any) -> None:
    _clear(f"dq_{drill}_")  # one open question per drill: its answer is the one shown
    st.session_state[f"dq_{drill}_{game}"] = q
    st.session_state[f"dt_{drill}"] = time.monotonic()
    st.session_state[f"dn_{drill}"] = int(st.session_state.get(f"dn_{drill}", 0)) + 1
    st.session_state.pop(f"df_{drill}", None)
    st.session_state.pop(f"de_{drill}", None)
    _clear(f"{drill}_pick_")


def pick_key(drill: str, item: object) -> str:
    """The key of an answer widget of the open question."""
    return f"{drill}_pick_{st.session_state.get(f'dn_{drill}', 0)}_{item}"


def _drop_question(drill: str, game: str) -> None:
    st.session_state.pop(f"dq_{drill}_{game}", None)
    st.session_state.pop(f"df_{drill}", None)


def next_button(drill: str, game: str) -> None:
    """A callback drops the question before the run, so that one run draws the next
    (a rerun from inside the run would draw the page twice)."""
    st.button("Next question", key=f"{drill}_next", type="primary",
              icon=":material/skip_next:", on_click=_drop_question, args=(drill, game))


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
    showdown_view(
        ranking, q.hands, q.names, frozenset(),
        lambda picked: session.answer_showdown(state.connection(), q, picked,
                                               elapsed(progress.SHOWDOWN)),
        lambda hand: describe(hand, ranking),
    )  # fmt: skip


def wild_drill() -> None:
    """Which hand wins with wild cards: each question says which cards are wild."""
    con = state.connection()
    q: wild_showdown.WildQuestion = current(
        progress.SHOWDOWN, WILD, lambda: session.next_wild_showdown(con, rng()))
    st.caption(f"{wild_showdown.caption(q)} · {wild_showdown.TOPIC_LABELS[q.topic]} · "
               "tick every winner")  # fmt: skip
    st.caption("A wild card stands for any card, even one already held: five of a kind is "
               "the best hand, and a flush may hold a pair (A-A-K-9-4). Wild cards are gold.")
    showdown_view(
        WILD, q.hands, q.names, wild_cards(q.wild),
        lambda picked: session.answer_wild_showdown(state.connection(), q, picked,
                                                    elapsed(progress.SHOWDOWN)),
        lambda hand: wild_showdown.describe(q, hand),
    )  # fmt: skip


def showdown_view(
    game: str,
    hands: tuple[tuple[int, ...], ...],
    names: tuple[str, ...],
    wild: frozenset[int],
    answer: Any,
    words: Any,
) -> None:
    """The hands with a "Wins" box each, the answer, then the verdict and the reasons."""
    done = st.session_state.get(f"df_{progress.SHOWDOWN}")
    cols = st.columns(len(hands))
    for i, (col, hand) in enumerate(zip(cols, hands, strict=True)):
        with col:
            st.text(names[i])
            cards.show_cards(hand, wild=wild)
            st.checkbox("Wins", key=pick_key(progress.SHOWDOWN, i), disabled=done is not None)
    if done is None:
        st.button("Answer", key="showdown_answer", icon=":material/gavel:",
                  on_click=_answer_showdown, args=(len(hands), answer))
        if st.session_state.pop(f"dw_{progress.SHOWDOWN}", False):
            st.warning(NO_PICK, icon=":material/touch_app:")
        return
    fb, rec = done
    verdict(fb.correct, rec)
    won = " and ".join(names[i] for i in sorted(fb.winners))
    st.text(f"Winner{'s' if len(fb.winners) > 1 else ''}: {won}")
    for i, hand in enumerate(hands):
        st.text(f"{names[i]}: {words(hand)}")
    for line in fb.reasons:
        st.text(line)
    next_button(progress.SHOWDOWN, game)


def _answer_showdown(hands: int, answer: Any) -> None:
    """The answer, checked and recorded before the run (a callback), so that one run
    draws the verdict; nothing ticked is no answer yet (every question has a winner)."""
    picked = {i for i in range(hands) if st.session_state.get(pick_key(progress.SHOWDOWN, i))}
    if not picked:
        st.session_state[f"dw_{progress.SHOWDOWN}"] = True
        return
    st.session_state[f"df_{progress.SHOWDOWN}"] = answer(picked)


# --- what to draw -----------------------------------------------------------------------


def _situation(q: draws.DrawQuestion) -> str:
    left = f"{q.draws_left} draw{'s' if q.draws_left > 1 else ''} left"
    against = []
    if q.pat is not None:
        against.append("a pat hand (shown below)")
    for d in q.drawing:
        against.append("a player standing pat" if d == 0 else f"a player drawing {d}")
    return f"{draws.game_label(q)} · {left} · against " + ", ".join(against)


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


CUSTOM_EXAMPLES = {  # placeholders: a hand to draw from and a pat hand, in the game's size
    Ranking.BADUGI: ("Kc 4d 2h 2s", "9h 7c 5d 4s"),
    Ranking.HIGH: ("Qs Qd 9h 8h 2c", "Ts Td 7h 7c 2h"),
}


def custom_draw(game: Any) -> None:
    """Set up a hand: the player's own situation as the next question (a home variant's
    with its wild cards)."""
    variant = game in draws.VARIANT_LABELS
    ranking = Ranking.HIGH if variant else Ranking(game)
    size = "four" if ranking is Ranking.BADUGI else "five"
    hand_example, pat_example = CUSTOM_EXAMPLES.get(ranking, ("8s 6d 4h 3c Kd", "9h 7c 5d 4s 2h"))
    with st.expander("Set up a hand of your own"):
        wild: Wild | None = None
        if variant:
            options = list(WILD_CHOICES)[1:] if game == draws.WILD_DRAW else list(WILD_CHOICES)
            wild = st.selectbox("Wild cards", options, format_func=WILD_CHOICES.__getitem__,
                                key="draw_custom_wild")  # fmt: skip
        cols = st.columns([3, 1, 3, 2], vertical_alignment="bottom")
        hand = cols[0].text_input(f"Your {size} cards", placeholder=hand_example,
                                  key="draw_custom_hand")  # fmt: skip
        left = cols[1].number_input("Draws left", 1, 3, 1, key="draw_custom_left")
        pat = cols[2].text_input("Pat hand to beat (optional)", placeholder=pat_example,
                                 key="draw_custom_pat")  # fmt: skip
        counts = cols[3].text_input("Opponents draw (optional)", placeholder="1 2",
                                    key="draw_custom_counts")  # fmt: skip
        if st.button("Drill this hand", key="draw_custom_go"):
            try:
                if variant:
                    q = draws.custom(Ranking.HIGH, hand, int(left), pat, counts, wild=wild,
                                     high_low=game == draws.HIGH_LOW_DRAW)  # fmt: skip
                else:
                    q = draws.custom(game, hand, int(left), pat, counts)
            except ValueError as exc:  # CardError is a ValueError
                st.error("That is not a situation to drill:")
                st.text(str(exc))
                return
            open_question(progress.DRAW, game, q)
            st.rerun()


def draw_drill(ranking: Any, use_own: bool) -> None:
    """``ranking``: a Ranking, or a home variant of ``draws.VARIANT_LABELS``."""
    con = state.connection()
    custom_draw(ranking)
    if ranking in draws.VARIANT_LABELS:
        q: draws.DrawQuestion = current(
            progress.DRAW, ranking, lambda: session.next_variant_draw(con, ranking, rng()))
    else:
        q = current(progress.DRAW, ranking,
                    lambda: session.next_draw(con, ranking, rng(), use_own=use_own))  # fmt: skip
    st.caption(f"{_situation(q)} · tick the cards to throw (none: stand pat)")
    if q.topic == draws.OWN:
        st.text(f"From your hands: {q.source}")
    done = st.session_state.get(f"df_{progress.DRAW}")
    failed = st.session_state.get(f"de_{progress.DRAW}")
    if q.wild is not None:
        st.caption("Wild cards are gold: each stands for any card, even one already held.")
    cards.show_cards(q.hand, wild=wild_cards(q.wild))
    cols = st.columns(len(q.hand))
    for i, card in enumerate(q.hand):
        cols[i].checkbox(f"Throw {cards.card_label(card)}", key=pick_key(progress.DRAW, i),
                         disabled=done is not None)  # fmt: skip
    if q.pat is not None:
        st.caption("The pat hand to beat")
        cards.show_cards(q.pat, wild=wild_cards(q.wild))
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
            "hand": _hand_words(s.cards, q) if s.cards else "",
        })  # fmt: skip
    return pd.DataFrame(rows)


def _hand_words(hand: tuple[int, ...], q: pots.PotQuestion) -> str:
    if q.high_low:
        high, low = describe(hand, Ranking.HIGH), describe(hand, Ranking.ACE_FIVE)
        return f"high: {high} · low: {low}"
    return describe(hand, q.ranking)


def pot_drill(game: str) -> None:
    con = state.connection()
    high_low = game == pots.HIGH_LOW
    ranking = Ranking.HIGH if high_low else Ranking(game)
    q: pots.PotQuestion = current(
        progress.POTS, game, lambda: session.next_pot(con, ranking, rng(), high_low)
    )
    how = (" · each pot halved: the best high and the best A-5 low (no qualifier), the odd "
           "chip to the high half" if high_low else "")  # fmt: skip
    st.caption(f"{GAMES[game]} · {pots.TOPIC_LABELS[q.topic]} · chips in after any uncalled "
               f"bet went back{how} · how much does each player collect?")  # fmt: skip
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
    next_button(progress.POTS, game)


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
    labels = {**showdown.TOPIC_LABELS, **wild_showdown.TOPIC_LABELS, **draws.TOPIC_LABELS,
              **pots.TOPIC_LABELS}  # fmt: skip
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
games: list[str] = list(POT_GAMES)
if drill == progress.SHOWDOWN:
    games = [*SHOWDOWN_GAMES, WILD]
elif drill == progress.DRAW:
    games = [*draws.RANKINGS, *draws.VARIANT_LABELS]
game: str = top[1].selectbox(
    "Game", games, key=f"drill_game_{drill}",
    format_func=lambda g: GAMES.get(g) or draws.VARIANT_LABELS.get(g) or WILD_LABEL,
) or games[0]  # fmt: skip
generated_only = game == WILD or game in draws.VARIANT_LABELS
use_own = top[2].toggle("Include my own hands", value=True, key="drill_own",
                        disabled=drill == progress.POTS or generated_only)  # fmt: skip
scoreboard(drill)
if drill == progress.SHOWDOWN and game == WILD:
    wild_drill()
elif drill == progress.SHOWDOWN:
    showdown_drill(Ranking(game), use_own)
elif drill == progress.DRAW:
    draw_drill(game if game in draws.VARIANT_LABELS else Ranking(game), use_own)
else:
    pot_drill(game)
progress_section(drill)
