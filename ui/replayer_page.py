"""Replayer: find a hand, then step through it event by event or street by street.

A page script.  The hand comes back from ``analysis.queries.get_hand`` (its stored text,
parsed again) and ``engine.replay.replay`` gives the table after every step; this page
only chooses which state to draw.  Names, hand ids and the step texts (which quote
names) are untrusted and go through ``st.text``, ``st.code``, ``st.dataframe`` or
plain-text selectbox options, never Markdown; card tiles are built from card numbers (``ui.cards``).
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from analysis.queries import HandFilter
from engine.record import Draw
from engine.replay import Replay, SeatView, TableState
from ui import cards, data, state
from ui.labels import game_name, money

ANY = "(all)"
SOURCES = ("Latest hands", "Biggest pots", "Hands with problems", "Search by id")
STATUS_CHOICES = (ANY, "ok", "invalid", "incomplete", "unsupported")


def street_name(s: TableState) -> str:
    if s.step < 0:
        return "blinds"
    if s.phase in ("showdown", "end", "done", "settled"):
        return s.phase
    if s.phase == "draw":
        return f"draw {s.draw}"
    return "pre-draw" if s.street == 0 else f"after draw {s.street}"


def street_key(s: TableState) -> tuple[int, int]:
    return (s.street, s.draw)


# --- finding a hand ---------------------------------------------------------------------


def hand_list() -> pd.DataFrame:
    """The hands the finder currently lists (columns of ``analysis.queries``)."""
    con, path, gen = state.connection(), state.db_path(), state.generation()
    options = data.filter_options(con, path, gen)
    source = st.radio("Find", SOURCES, horizontal=True, key="finder")
    if source == "Search by id":
        wanted = st.text_input("Hand id (as the site writes it, e.g. 210000000042)",
                               key="search_id")
        return data.find_hand_ids(con, path, gen, wanted.strip(), options.sites)
    cols = st.columns(4)
    site = cols[0].selectbox("Site", (ANY, *options.sites), key="r_site")
    game = cols[1].selectbox("Game", (ANY, *options.games), key="r_game", format_func=game_name)
    status = cols[2].selectbox("Verdict", STATUS_CHOICES, key="r_status")
    players = data.player_list(con, path, gen, data.NO_FILTERS)
    player = cols[3].selectbox("Player", (ANY, *map(str, players["player"])), key="r_player")
    f = HandFilter(
        player=None if player == ANY else player,
        site=None if site == ANY else site,
        game=None if game == ANY else game,
        status=None if status == ANY else status,
    )
    if source == "Biggest pots":
        return data.biggest_pots(con, path, gen, f)
    if source == "Hands with problems":
        return data.problem_hands(con, path, gen, f)
    return data.latest_hands(con, path, gen, f)


def hand_label(row: dict[Any, Any]) -> str:
    when = "" if pd.isna(row["time"]) else f" · {pd.Timestamp(row['time']):%Y-%m-%d %H:%M}"
    pot = "" if pd.isna(row.get("total_pot")) else f" · pot {money(int(row['total_pot']))}"
    return f"#{row['hand_id']} · {row['site']} · {row['status']}{when}{pot}"


def pick_hand(listed: pd.DataFrame) -> int | None:
    if listed.empty:
        st.info("No hand matches.")
        return None
    ids = [int(i) for i in listed["id"]]
    labels = {int(r["id"]): hand_label(r) for r in listed.to_dict("records")}
    st.session_state["replay_ids"] = ids
    current = st.session_state.get("replay_hand")
    if current not in ids:
        st.session_state["replay_hand"] = ids[0]
    cols = st.columns([8, 1, 1], vertical_alignment="bottom")
    cols[0].selectbox("Hand", ids, format_func=lambda i: labels.get(i, str(i)),
                      key="replay_hand")
    cols[1].button("Hand", icon=":material/skip_previous:", on_click=_move_hand, args=(-1,),
                   key="b_prev_hand", help="The previous hand in the list", width="stretch")
    cols[2].button("Hand", icon=":material/skip_next:", on_click=_move_hand, args=(1,),
                   key="b_next_hand", help="The next hand in the list", width="stretch")
    chosen: int = st.session_state["replay_hand"]
    return chosen


# --- stepping ---------------------------------------------------------------------------


def _set_step(value: int) -> None:
    st.session_state["replay_step"] = value


def _move_hand(delta: int) -> None:
    ids: list[int] = st.session_state.get("replay_ids", [])
    current = st.session_state.get("replay_hand")
    if current in ids:
        at = ids.index(current) + delta
        if 0 <= at < len(ids):
            st.session_state["replay_hand"] = ids[at]
            st.session_state["replay_step"] = 0


def street_starts(states: tuple[TableState, ...]) -> list[int]:
    starts = [0]
    for i in range(1, len(states)):
        if street_key(states[i]) != street_key(states[i - 1]):
            starts.append(i)
    return starts


def controls(states: tuple[TableState, ...]) -> int:
    last = len(states) - 1
    if st.session_state.get("replay_for") != st.session_state.get("replay_hand"):
        st.session_state["replay_for"] = st.session_state.get("replay_hand")
        st.session_state["replay_step"] = 0
    step = min(int(st.session_state.get("replay_step", 0)), last)
    st.session_state["replay_step"] = step
    starts = street_starts(states)
    prev_street = max((s for s in starts if s < step), default=0)
    next_street = min((s for s in starts if s > step), default=last)
    row = st.columns(6)
    buttons = (
        ("Start", "first_page", 0, "b_start", "Home", "The forced bets (Home)"),
        ("Street", "fast_rewind", prev_street, "b_prev_street", "Up",
         "Back to the start of the street (↑)"),
        ("Back", "chevron_left", max(0, step - 1), "b_prev", "Left", "One step back (←)"),
        ("Next", "chevron_right", min(last, step + 1), "b_next", "Right", "One step on (→)"),
        ("Street", "fast_forward", next_street, "b_next_street", "Down",
         "On to the next street (↓)"),
        ("End", "last_page", last, "b_end", "End", "The last step (End)"),
    )
    for col, (label, icon, target, key, shortcut, tip) in zip(row, buttons, strict=False):
        col.button(label, icon=f":material/{icon}:", on_click=_set_step, args=(target,),
                   key=key, shortcut=shortcut, help=tip, width="stretch")
    if last > 0:
        st.slider("Step", 0, last, key="replay_step")
    return int(st.session_state["replay_step"])


# --- drawing the table ------------------------------------------------------------------


def seat_box(seat: SeatView, s: TableState, hero: str | None) -> None:
    with st.container(border=True):
        who = seat.player + ("  (hero)" if seat.player == hero else "")
        st.text(who)
        flags = []
        if s.to_act == seat.player:
            flags.append("to act")
        if seat.folded:
            flags.append("folded")
        if seat.all_in:
            flags.append("all-in")
        st.text(f"seat {seat.seat} · stack {money(seat.stack)}")
        st.text(f"bet {money(seat.bet)} · in {money(seat.total)}"
                + (f" · {', '.join(flags)}" if flags else ""))
        known = seat.cards or ()
        hidden = 0 if seat.folded else max(0, 5 - len(known))
        cards.show_cards(known, hidden)
        if seat.drawn:
            st.text("drew " + ", ".join("pat" if n == 0 else str(n) for n in seat.drawn))


def hero_draws(rep: Replay, step: int) -> list[tuple[int, Draw]]:
    hero = rep.hand.hero
    return [
        (i, d) for i, d in enumerate(rep.hand.steps)
        if isinstance(d, Draw) and d.player == hero and i <= step
    ]


def table_view(rep: Replay, s: TableState) -> None:
    head = st.columns([2, 2, 3])
    head[0].metric("Pot", money(s.pot))
    head[1].metric("Street", street_name(s))
    with head[2]:
        st.caption("What happened")
        st.text(s.text)
    n = max(1, len(s.seats))
    per_row = min(n, 3)
    for start in range(0, n, per_row):
        cols = st.columns(per_row)
        for col, seat in zip(cols, s.seats[start:start + per_row], strict=False):
            with col:
                seat_box(seat, s, rep.hand.hero)
    if len(s.pots) > 1:
        st.caption("Pots")
        st.dataframe(
            pd.DataFrame([{"pot": "main" if i == 0 else f"side {i}",
                           "amount": p.amount / 100, "eligible": ", ".join(p.eligible)}
                          for i, p in enumerate(s.pots)]),
            hide_index=True, key="pots_table",
        )
    for p in s.problems:  # codes are ours; messages quote names, so they go as text
        box = st.error if p.severity == "error" else st.warning
        box(f"{p.severity.capitalize()} at line {p.line}: {p.code}", icon=":material/report:")
        st.text(p.message)


def hero_draw_view(rep: Replay, step: int) -> None:
    draws = hero_draws(rep, step)
    if not draws:
        return
    st.caption("The hero's draws so far")
    for _, d in draws:
        cols = st.columns([1, 3, 3])
        cols[0].text(f"draw {d.draw}: " + ("pat" if d.count == 0 else f"{d.count} cards"))
        with cols[1]:
            if d.discarded:
                st.text("threw")
                cards.show_cards(d.discarded)
        with cols[2]:
            if d.received:
                st.text("got")
                cards.show_cards(d.received)


def main() -> None:
    st.title("Replayer")
    listed = hand_list()
    hand_id = pick_hand(listed)
    if hand_id is None:
        return
    con, path, gen = state.connection(), state.db_path(), state.generation()
    stored = data.stored_hand(con, path, gen, hand_id)
    if stored is None:
        st.warning("This hand is no longer in the database.")
        return
    rep = data.replay_of(con, path, gen, hand_id)
    if stored.hand is None or rep is None or not rep.states:
        st.warning("This hand cannot be replayed.")
        if stored.note:
            st.text(stored.note)
    else:
        step = controls(rep.states)
        s = rep.states[step]
        st.caption(f"Step {step} of {len(rep.states) - 1} · source line {s.line}")
        table_view(rep, s)
        hero_draw_view(rep, s.step)
        if rep.verdict.problems:
            with st.expander(f"All problems the replay found ({len(rep.verdict.problems)})"):
                st.dataframe(
                    pd.DataFrame([{"line": p.line, "severity": str(p.severity), "code": p.code,
                                   "message": p.message} for p in rep.verdict.problems]),
                    hide_index=True, key="all_problems",
                )
    with st.expander("Original text", expanded=stored.hand is None):
        st.code(stored.text, language=None, line_numbers=True)


main()
