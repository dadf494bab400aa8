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
from ui import state

MESSAGE = "memory_message"  # what the last save said, shown once above the form


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
        st.session_state[MESSAGE] = ("error", f"Not saved: {exc}")
        return
    state.shared().generation += 1  # the hand lists filtered by a tag change
    st.session_state[MESSAGE] = ("ok", "Saved.")


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
            (st.error if said[0] == "error" else st.success)(said[1])
        with (st.expander("Tag this hand, write a note", expanded=False),
              st.form(f"mem_form_{key}", border=False)):
            st.multiselect(
                "Tags", sorted({*memory.all_tags(con), *tags}), default=list(tags),
                key=f"mem_tags_{key}", accept_new_options=True,
                help="Pick one or type a new one; a tag is a filter on every page",
            )
            st.text_area("Note", value=note, key=f"mem_note_{key}")
            st.form_submit_button("Save", on_click=_save_hand, args=(key,))
