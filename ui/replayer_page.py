"""Replayer: find a hand, then step through it event by event or street by street.

A page script.  The hand comes back from ``analysis.storage.queries.get_hand`` (its stored text,
parsed again) and ``analysis.replayer.steps.hand_view`` gives the steps a player watches
(the forced bets as one step, bets swept between rounds, collects paid into stacks, the
pots settled with their winners); this page only chooses which step to draw.  Names,
hand ids and the step texts (which quote names) are untrusted and go through
``st.text``, ``st.code``, ``st.dataframe``, plain-text selectbox options or the escaped
HTML of ``ui.table_picture``, never Markdown; card tiles are built from card numbers
(``ui.cards``).
"""

from __future__ import annotations

from datetime import UTC, tzinfo
from typing import Any

import pandas as pd
import streamlit as st

from analysis import times
from analysis.replayer import share
from analysis.replayer.stepping import draw_step, hero_draws, street_jumps
from analysis.replayer.steps import HandView, SeatStep, Units, ViewStep
from analysis.storage import memory
from analysis.storage.filters import NO_FILTERS, Filters
from analysis.storage.queries import PotUnit, StoredHand
from engine.rules import game_name
from engine.verdict import Problem
from ui import cards, data, memory_panel, replayer_data, scope, state, table_picture
from ui.labels import site_name

ANY = "(all)"
SOURCES = ("Latest hands", "Biggest pots", "Hands with problems", "Search by id")
SENT = "Sent here"  # the hands another page opened here (the hands behind a figure, a draw)
# what other pages put in the session to open hands here (agreed with ui/overview_page.py
# and ui/review_page.py): the stored hands.id, the step to show, a reviewed draw's choices
SENT_IDS, SENT_STEP, SENT_CHOICES = (
    "replayer_hand_ids", "replayer_step", "replayer_alternatives",
)  # fmt: skip
LOSS_NOTE = ("The loss is the pot at this draw times the share of it given up in the "
             "review's model; the bets after the draw are not counted, except folds to the "
             "hero's bet after the last draw.")
NOISE = "A choice within the simulation's noise of the best is not a mistake."
STATUS_CHOICES = (ANY, "ok", "invalid", "incomplete", "unsupported")


# --- finding a hand ---------------------------------------------------------------------


def hand_list() -> pd.DataFrame:
    """The hands the finder currently lists (columns of ``analysis.storage.queries``)."""
    con, path, gen = state.connection(), state.db_path(), state.generation()
    options = data.filter_options(con, path, gen)
    sent = tuple(int(i) for i in st.session_state.get(SENT_IDS) or ())
    sources = (SENT, *SOURCES) if sent else SOURCES
    if sent and st.session_state.get("replayer_sent_seen") != sent:
        st.session_state["finder"] = SENT  # just sent: show them first
        st.session_state["replayer_sent_seen"] = sent
    source = st.radio("Find", sources, horizontal=True, key="finder")
    if source == SENT:
        return replayer_data.hands_by_id(con, path, gen, sent)
    if source == "Search by id":
        wanted = st.text_input("Hand id (as the site writes it, e.g. 210000000042)",
                               key="search_id")
        return data.find_hand_ids(con, path, gen, wanted.strip(), options.sites)
    cols = st.columns(5)
    site = cols[0].selectbox("Site", (ANY, *options.sites), key="r_site")
    game = cols[1].selectbox("Game", (ANY, *options.games), key="r_game", format_func=game_name)
    status = cols[2].selectbox("Verdict", STATUS_CHOICES, key="r_status")
    players = data.player_list(con, path, gen, NO_FILTERS)
    people: list[object] = list(memory_panel.people_options(con))  # (drawlab alias)
    player: object = cols[3].selectbox(
        "Player", [ANY, *people, *map(str, players["player"])], key="r_player",
        format_func=lambda p: f"{p[1]} · every name" if isinstance(p, tuple) else str(p))
    tag = cols[4].selectbox("Tag", (ANY, *data.all_tags(con, path, gen)), key="r_tag",
                            help="Only the hands you tagged so")
    f = Filters(
        player=player if isinstance(player, str) and player != ANY else None,
        site=None if site == ANY else site,
        game=None if game == ANY else game,
        status=None if status == ANY else status,
        tag=None if tag == ANY else tag,
    )
    if isinstance(player, tuple):  # a person: the hands of every name of theirs
        f = memory.person_filters(con, str(player[1]), f) or f
    if source == "Biggest pots":
        units = replayer_data.pot_units(con, path, gen, f)
        if not units:
            return data.latest_hands(con, path, gen, f).head(0)
        counts = dict(units)
        unit: PotUnit = st.selectbox(  # never chips and money, nor two currencies, in one list
            "Pots in", [u for u, _ in units], key="r_pot_unit",
            format_func=lambda u: f"{u.label} · {counts.get(u, 0):,} hands",
            help="Pots are ranked within one currency or within tournament chips",
        )
        return replayer_data.biggest_pots(con, path, gen, f, unit)
    if source == "Hands with problems":
        return data.problem_hands(con, path, gen, f)
    return data.latest_hands(con, path, gen, f)


def row_units(row: dict[Any, Any]) -> Units:
    """The units of a listed hand: chips in a tournament, else its currency."""
    tournament = row.get("tournament_id")
    chips = tournament is not None and not pd.isna(tournament)
    currency = row.get("currency")
    return Units(chips, "" if currency is None or pd.isna(currency) else str(currency))


def hand_label(row: dict[Any, Any], tags: tuple[str, ...] = (), zone: tzinfo = UTC) -> str:
    clock = times.hand_clock(row.get("time_utc"))
    when = "" if pd.isna(row["time"]) else (
        f" · {times.shown(row['time'], zone, clock, '%Y-%m-%d %H:%M')}")
    pot = ""
    if not pd.isna(row.get("total_pot")):
        units = row_units(row)
        pot = f" · pot {units.text(int(row['total_pot']))} {units.name}".rstrip()
    event = row.get("tournament_id")
    where = site_name(row["site"])
    if event is not None and not pd.isna(event):
        where += f" · {event}"  # the tournament (a PHH event's name)
    tagged = f" · tags: {', '.join(tags)}" if tags else ""
    return f"#{row['hand_id']} · {where} · {row['status']}{when}{pot}{tagged}"


def pick_hand(listed: pd.DataFrame) -> int | None:
    if listed.empty:
        st.info("No hand matches.")
        return None
    ids = [int(i) for i in listed["id"]]
    remembered = memory.hand_memory(state.connection(), ids)
    zone = scope.display_zone()
    labels = {int(r["id"]): hand_label(r, remembered[int(r["id"])].tags
                                       if int(r["id"]) in remembered else (), zone)
              for r in listed.to_dict("records")}
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


def controls(steps: tuple[ViewStep, ...]) -> int:
    last = len(steps) - 1
    if st.session_state.get("replay_for") != st.session_state.get("replay_hand"):
        st.session_state["replay_for"] = st.session_state.get("replay_hand")
        st.session_state["replay_step"] = 0
    step = min(int(st.session_state.get("replay_step", 0)), last)
    st.session_state["replay_step"] = step
    streets = street_jumps(steps, step)
    row = st.columns(6)
    buttons = (
        ("Start", "first_page", 0, "b_start", "Home", "The forced bets (Home)"),
        ("Street", "fast_rewind", streets.back, "b_prev_street", "Up",
         "Back to the start of the street (↑)"),
        ("Back", "chevron_left", max(0, step - 1), "b_prev", "Left", "One step back (←)"),
        ("Next", "chevron_right", min(last, step + 1), "b_next", "Right", "One step on (→)"),
        ("Street", "fast_forward", streets.on, "b_next_street", "Down",
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


def seat_line(seat: SeatStep, units: Units, hero: str | None, note: str = "") -> str:
    """One seat as plain text (the picture cuts long names; this line has them whole),
    ending with the user's note on the player, if any."""
    who = seat.player + (" (hero)" if seat.player == hero else "")
    parts = [f"seat {seat.seat}", who]
    if seat.position:
        parts.append(seat.position)
    parts.append(f"stack {units.text(seat.stack)}")
    if seat.bet:
        parts.append(f"bet {units.text(seat.bet)}")
    parts.append(f"in {units.text(seat.total)}")
    if seat.cards:
        parts.append(cards.cards_label(seat.cards))
    elif seat.up is not None:
        parts.append(f"face up {cards.card_label(seat.up)}")
    if seat.drawn:
        parts.append("drew " + ", ".join("pat" if n == 0 else str(n) for n in seat.drawn))
    flags = [name for name, on in (("to act", seat.to_act), ("folded", seat.folded),
                                   ("all-in", seat.all_in), ("winner", seat.winner)) if on]
    if seat.collected:
        parts.append(f"collected {units.text(seat.collected)}")
    return " · ".join(parts + flags + ([f"note: {note}"] if note else []))


def show_problems(problems: tuple[Problem, ...]) -> None:
    for p in problems:  # codes are ours; messages quote names, so they go as text
        box = st.error if p.severity == "error" else st.warning
        box(f"{p.severity.capitalize()} at line {p.line}: {p.code}", icon=":material/report:")
        st.text(p.message)


def problem_table(problems: tuple[Problem, ...], key: str) -> None:
    st.dataframe(
        pd.DataFrame([{"line": p.line, "severity": str(p.severity), "code": p.code,
                       "message": p.message} for p in problems]),
        hide_index=True, key=key,
    )


def table_view(view: HandView, s: ViewStep) -> None:
    units = view.units
    # the picture beside the figures, not under them: with the step controls above, both
    # fit on one screen (1280x720)
    picture, facts = st.columns([3, 1])
    with facts:
        st.metric("Pot", units.text(s.pot))
        if s.rake:
            st.caption(f"Rake {units.text(s.rake)}: the house's, not in the pot")
        st.metric("Street", s.street)
        st.caption("What happened")
        st.text(s.text)
    with picture:
        st.html(table_picture.table_html(s, view.header, units, view.hand.hero))
    notes = data.note_labels(state.connection(), state.db_path(), state.generation(),
                             view.hand.site)
    with st.container(key="seat_lines"):
        for seat in s.seats:
            note = notes.get((view.hand.site, seat.player), "")
            st.text(seat_line(seat, units, view.hand.hero, note))
    if len(s.pots) > 1 or any(p.winners for p in s.pots):
        st.caption("Pots")
        st.dataframe(
            pd.DataFrame([{"pot": p.name, "amount": units.text(p.amount),
                           "eligible": ", ".join(p.eligible), "winners": ", ".join(p.winners)}
                          for p in s.pots]),
            hide_index=True, key="pots_table",
        )
    show_problems(s.problems)


def hero_draw_view(view: HandView, s: ViewStep) -> None:
    draws = hero_draws(view, s)
    if not draws:
        return
    st.caption("The hero's draws so far")
    for d in draws:
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


def jump_to_sent_step(hand_id: int, view: HandView) -> None:
    """Open a hand another page sent at the step it named (once: then the user steps)."""
    wanted = st.session_state.get(SENT_STEP)
    if not wanted or st.session_state.get("replayer_step_done") == (hand_id, str(wanted)):
        return
    at = draw_step(view, str(wanted.get("player")), int(wanted.get("draw", 0)))
    if at is not None:
        st.session_state["replay_for"] = hand_id
        st.session_state["replay_step"] = at
    st.session_state["replayer_step_done"] = (hand_id, str(wanted))


def sent_choices(view: HandView, s: ViewStep) -> None:
    """A reviewed draw's alternatives beside its step, best first (from the Review page)."""
    alt = st.session_state.get(SENT_CHOICES)
    if not alt or draw_step(view, str(alt.get("player")), int(alt.get("draw", 0))) != s.index:
        return
    st.subheader(f"Draw {alt['draw']}: the choices weighed")
    st.text(f"{alt['player']} held {alt['held']}, kept {alt['kept'] or 'nothing'}; "
            f"the best keep was {alt['best_kept'] or 'nothing'}")
    rows = [{"keep": c["kept"] or "(draw all)", "equity %": 100 * float(c["equity"]),
             "± %": 100 * float(c["stderr"]), "loss %": 100 * float(c["loss"]),
             "kept": c["kept"] == alt["kept"], "best": c["kept"] == alt["best_kept"],
             "as good as best": bool(c["as_good_as_best"])}
            for c in sorted(alt["choices"], key=lambda c: -float(c["equity"]))]
    st.dataframe(pd.DataFrame(rows), hide_index=True, key="sent_choices",
                 column_config={"equity %": st.column_config.NumberColumn(format="%.1f"),
                                "± %": st.column_config.NumberColumn(format="%.1f"),
                                "loss %": st.column_config.NumberColumn(format="%.1f")})
    st.caption(LOSS_NOTE + " " + NOISE)


def open_addressed() -> None:
    """A URL naming a hand (a link, a bookmark: ``?hand=KEY&step=N``) opens it at that
    step, once per address: after that the user steps, and the URL follows."""
    address = share.address_of(st.query_params.to_dict())
    if address is None or st.session_state.get("replay_address") == address:
        return
    hand_id = share.hand_id_of(state.connection(), address.key)
    if hand_id is None:
        st.warning("The address names no stored hand (deleted, or from another database):",
                   icon=":material/link_off:")
        st.text(address.key)
        return
    st.session_state["replay_address"] = address
    for sent in (SENT_STEP, SENT_CHOICES):  # another page's draw belongs to its own hand
        st.session_state.pop(sent, None)
    st.session_state[SENT_IDS] = (hand_id,)
    st.session_state["replay_hand"] = hand_id
    st.session_state["replay_for"] = hand_id
    st.session_state["replay_step"] = address.step


def keep_address(key: str, step: int) -> None:
    """The URL names the hand and step shown, so it can be copied or bookmarked."""
    address = share.Address(key, step)
    st.session_state["replay_address"] = address
    if st.query_params.to_dict() != share.params_of(address):
        st.query_params.from_dict(share.params_of(address))


def copy_hand(stored: StoredHand, step: int) -> None:
    """The hand's link and its texts in code blocks, each with its copy button."""
    texts = share.hand_texts(stored)
    with st.expander("Copy hand"):
        st.caption("Link to this hand at this step")
        st.code(share.link(st.context.url or "/replayer", share.Address(
            str(stored.row["key"]), step)), language=None, wrap_lines=True)
        st.caption(f"As {site_name(stored.row['site'])} wrote it")
        st.code(texts.site, language=None)
        st.caption("As PHH (the poker hand history format)")
        if texts.phh is None:
            st.text(f"Not written: {texts.phh_missing}")
        else:
            st.code(texts.phh, language="toml")


def main() -> None:
    st.title("Replayer")
    open_addressed()
    listed = hand_list()
    hand_id = pick_hand(listed)
    if hand_id is None:
        return
    con, path, gen = state.connection(), state.db_path(), state.generation()
    stored = data.stored_hand(con, path, gen, hand_id)
    if stored is None:
        st.warning("This hand is no longer in the database.")
        return
    view = replayer_data.view_of(con, path, gen, hand_id, scope.display_zone())
    step = 0
    if stored.hand is None or view is None or not view.steps:
        st.warning("This hand cannot be replayed.")
        if stored.note:
            st.text(stored.note)
        show_problems(stored.problems)
    else:
        st.html(table_picture.header_html(view.header))
        if view.unplaced:
            errors = sum(p.severity == "error" for p in view.unplaced)
            box = st.error if errors else st.warning
            box(f"{len(view.unplaced)} problem(s) of this hand belong to no step: what the "
                "reader noticed, or what changed since the table's previous hand",
                icon=":material/report:")
            problem_table(view.unplaced, "unplaced_problems")
        jump_to_sent_step(hand_id, view)
        step = controls(view.steps)
        s = view.steps[step]
        st.caption(f"Step {step} of {len(view.steps) - 1} · source line {s.line}")
        table_view(view, s)
        hero_draw_view(view, s)
        sent_choices(view, s)
        problems = (*view.verdict.problems,
                    *(p for p in stored.problems if p not in view.verdict.problems))
        if problems:
            with st.expander(f"All problems of this hand ({len(problems)})"):
                problem_table(problems, "all_problems")
    keep_address(str(stored.row["key"]), step)
    memory_panel.hand_panel(str(stored.row["key"]))
    copy_hand(stored, step)
    with st.expander("Original text", expanded=stored.hand is None):
        st.code(stored.text, language=None, line_numbers=True)


main()
