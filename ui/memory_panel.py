"""The user's own notes on the pages: a hand's tags and note (set and shown in the
replayer), a player's note and colour label (beside his name in the HUD, the opponents
table and the replayer's seats).

Rendering only: ``analysis.storage.memory`` reads and writes them.  Everything here is
text the user wrote or a name from a history, so it goes through ``st.text``, widgets'
plain labels and data frames, never Markdown.  A write that meets another program's (the
watcher) is said in one sentence and the user saves again; nothing is lost from the form.
"""

from __future__ import annotations

import duckdb
import streamlit as st

from analysis.storage import memory
from analysis.storage.filters import Filters
from ui import data, state

MESSAGE = "memory_message"  # what the last save said, shown once above the form
PERSON = ""  # the site of a person in a player picker: every name of theirs (drawlab alias)


def people_options(db: duckdb.DuckDBPyConnection) -> list[tuple[str, str]]:
    """The people the user named (``drawlab alias``) as a player picker offers them:
    (``PERSON``, person), each counting every name of theirs."""
    return [(PERSON, p) for p in data.people(db, state.db_path(), state.generation())]


def _say(kind: str, words: str, text: str) -> None:
    """What a save did: our words in the box, the user's text (a name, an error that
    quotes it) below it as plain text, never Markdown."""
    (st.error if kind == "error" else st.success)(words)
    if text:
        st.text(text)


def _save_hand(key: str) -> None:
    """The form's tags and note written for the hand ``key`` (a form's callback)."""
    con = state.connection()
    chosen = [str(t) for t in st.session_state.get(f"mem_tags_{key}", [])]
    note = str(st.session_state.get(f"mem_note_{key}", ""))
    try:
        wanted = {memory.tag_text(t) for t in chosen if t.strip()}
        memory.remove_tags(con, key, set(memory.tags_of(con, key)) - wanted)
        memory.add_tags(con, key, wanted)
        memory.set_hand_note(con, key, note)
    except (memory.MemoryInputError, duckdb.Error) as exc:
        st.session_state[MESSAGE] = ("error", "Not saved:", str(exc))
        return
    state.shared().generation += 1  # the hand lists filtered by a tag change
    st.session_state[MESSAGE] = ("ok", "Saved.", "")


def hand_panel(key: str) -> None:
    """The tags and note of the hand shown, and a form to change them."""
    con = state.connection()
    tags, note = memory.tags_of(con, key), memory.note_of(con, key)
    said = st.session_state.pop(MESSAGE, None)
    with st.container(key="hand_memory"):
        st.caption("Your tags and note on this hand")
        st.text(("Tags: " + ", ".join(tags)) if tags else "No tags")
        if note:
            st.text(note)
        if said is not None:
            _say(*said)
        with (st.expander("Tag this hand, write a note", expanded=False),
              st.form(f"mem_form_{key}", border=False)):
            st.multiselect(
                "Tags", sorted({*memory.all_tags(con), *tags}), default=list(tags),
                key=f"mem_tags_{key}", accept_new_options=True,
                help="Pick one or type a new one; a tag is a filter on every page",
            )
            st.text_area("Note", value=note, key=f"mem_note_{key}")
            st.form_submit_button("Save", on_click=_save_hand, args=(key,))


# --- saved filters (the overview's sidebar) ------------------------------------------

SAVED_PICK, SAVED_NAME = "saved_filters_pick", "saved_filters_name"
NONE_PICKED = "(choose a saved set)"
# the overview's filter widgets (``ui.overview_page.filters_sidebar``) a saved set sets;
# its site is the hero's, which the hero picker sets (``drawlab stats --filters`` reads it)
PICKS = {"game": "f_game", "stakes": "f_stakes", "position": "f_position", "tag": "f_tag"}
FILTERS_MESSAGE = "saved_filters_message"
RANGES = {"f_dates": ("date_from", "date_to"), "f_players": ("players_min", "players_max")}


def _apply_saved() -> None:
    """Set the overview's filter widgets to the saved set picked (a widget whose field
    the set leaves open goes back to its default, which does not filter)."""
    name = st.session_state.get(SAVED_PICK)
    if name in (None, NONE_PICKED):
        return
    try:
        saved = memory.saved_filters(state.connection(), str(name))
    except (memory.MemoryInputError, duckdb.Error) as exc:
        st.session_state[FILTERS_MESSAGE] = ("error", "Not applied:", str(exc))
        return
    for field, key in PICKS.items():
        value = getattr(saved, field)
        if value is None:
            st.session_state.pop(key, None)
        else:
            st.session_state[key] = value
    for key, (low, high) in RANGES.items():
        pair = (getattr(saved, low), getattr(saved, high))
        if None in pair:
            st.session_state.pop(key, None)
        else:
            st.session_state[key] = pair
    if saved.tournament is not None and saved.currency is not None:
        st.session_state["f_money"] = (saved.tournament, saved.currency)
    st.session_state[FILTERS_MESSAGE] = ("ok", "Applied the saved filters:", str(name))


def _save_current(filters: Filters) -> None:
    name = str(st.session_state.get(SAVED_NAME, "")).strip()
    try:
        memory.save_filters(state.connection(), name, filters)
    except (memory.MemoryInputError, duckdb.Error) as exc:
        st.session_state[FILTERS_MESSAGE] = ("error", "Not saved:", str(exc))
        return
    st.session_state[FILTERS_MESSAGE] = ("ok", "Saved the filters as:", name)


def saved_filters_panel(filters: Filters) -> None:
    """Pick a saved filter set (it sets the overview's filters) or save the filters
    shown under a name: the same sets as ``drawlab stats --filters NAME``."""
    names = data.saved_filter_names(state.connection(), state.db_path(), state.generation())
    said = st.session_state.pop(FILTERS_MESSAGE, None)
    with st.expander("Saved filters", expanded=said is not None):
        if said is not None:
            _say(*said)
        if st.session_state.get(SAVED_PICK) not in (None, NONE_PICKED, *names):
            del st.session_state[SAVED_PICK]
        st.selectbox("Use a saved set", [NONE_PICKED, *names], key=SAVED_PICK,
                     on_change=_apply_saved)
        st.text_input("Save these filters as", key=SAVED_NAME,
                      help="The game, stakes, position, tag, days, table size and money "
                           "shown, and the hero's site; drawlab stats --filters NAME uses "
                           "them too")
        st.button("Save filters", key="saved_filters_save", on_click=_save_current,
                  args=(filters,))
