"""Review: the draws that cost the player the most, found in their own hands.

A page script.  The review is computed and stored by ``analysis.review`` (this page only
starts it for the hands not reviewed yet, in this process); the page shows the summary,
the loss by draw and by hand kept, and the costliest spots, each opening the replayer at
that draw with the alternatives weighed (``replayer_hand_ids``, ``replayer_step`` and
``replayer_alternatives`` in the session).  Names and hand ids come from files anyone
could write: they reach the screen only through ``st.dataframe``, ``st.text`` and
selectbox options.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from analysis import review
from analysis.storage import memory
from analysis.storage.filters import NO_FILTERS, Filters
from ui import data, memory_panel, state
from ui.data import cached
from ui.labels import count

REPLAYER = "ui/replayer_page.py"
LOSS_NOTE = (
    "Big bets lost = the share of the pot at the draw given up × that pot, in the model: "
    "opponents ranged from the whole hand by the profile chosen, folding to your bet after "
    "the last draw; the other bets after the draw are not counted. Choices within the "
    "simulation's noise of the best are not mistakes."
)
PROFILE_HELP = (
    "How the opponents' ranges are read: standard is the default strategy, tight keeps and "
    "stands pat one rank lower and calls less, loose one rank higher and calls more."
)


def loss_chart(parts: list[review.Breakdown], title: str) -> go.Figure:
    """Big bets lost per slice (draw numbers or hand types: never a player's name)."""
    fig = go.Figure(go.Bar(x=[p.label for p in parts], y=[round(p.lost, 3) for p in parts],
                           customdata=[p.decisions for p in parts],
                           hovertemplate="%{x}: %{y} big bets lost, %{customdata} draws"
                                         "<extra></extra>"))  # fmt: skip
    fig.update_layout(title=title, yaxis_title="Big bets lost", height=320,
                      margin={"t": 50, "b": 40, "l": 40, "r": 10})  # fmt: skip
    return fig


def open_in_replayer(spot: dict[str, Any]) -> None:
    """Hand the spot to the replayer: the hand, the draw to show, the alternatives."""
    st.session_state["replayer_hand_ids"] = [spot["hand"]]
    st.session_state["replayer_step"] = {
        "kind": "draw", "draw": spot["draw"], "player": spot["player"],
    }  # fmt: skip
    st.session_state["replayer_alternatives"] = {
        "draw": spot["draw"], "player": spot["player"], "held": spot["held"],
        "kept": spot["kept"], "best_kept": spot["best_kept"], "choices": spot["choices"],
        "exact": spot["exact"],
    }  # fmt: skip
    st.switch_page(REPLAYER)


# The review's reads, once per database generation (a review run writes, so changes it):
# counting the hands not reviewed yet lists them, every one of a million hands.
@cached(16)
def pending_count(_con: Any, path: str, gen: int, player: str, profile: str,
                  names: tuple[str, ...] | None) -> int:
    return len(review.pending_hands(_con, player, profile=profile, names=names))


@cached(16)
def reviewed(_con: Any, path: str, gen: int, player: str, profile: str,
             names: tuple[str, ...] | None) -> tuple[review.ReviewSummary, list[dict[str, Any]]]:
    """The summary and the costliest spots of the stored review."""
    return (review.summary(_con, player, profile=profile, names=names),
            review.costliest(_con, player, profile=profile, names=names))


def spot_label(spot: dict[str, Any]) -> str:
    return (
        f"{spot['site']} #{spot['hand_id']} · draw {spot['draw']} · held {spot['held']} · "
        f"kept {spot['kept'] or '-'} · best {spot['best_kept'] or '-'} · "
        f"{spot['cost']:.2f} BB"
    )


st.title("Review")
con, path, gen = state.connection(), state.db_path(), state.generation()
hero = data.hero_name(con, path, gen, NO_FILTERS)
if hero is None:
    st.info("No hand of yours with known cards yet: import some hands first.")
    st.stop()
people: list[tuple[str, str] | None] = [None, *memory_panel.people_options(con)]
if st.session_state.get("review_player") not in people:
    st.session_state.pop("review_player", None)
picked = st.selectbox(
    "Player", people, key="review_player",
    format_func=lambda o: f"{hero} (detected)" if o is None else f"{o[1]} · every name",
    help="A person (drawlab alias): the draws of every name of theirs, reviewed together.")
player = hero if picked is None else picked[1]
names = None if picked is None else memory.person_names(con, player)
st.text(f"Player: {player}" + (f" ({', '.join(names)})" if names else ""))
scoped = Filters() if names is None else Filters(names=names)
with_errors = data.with_errors(con, path, gen, scoped, player)
if with_errors:  # never reviewed, whatever the figures' switch: a draw needs every card
    st.caption(f"{count(with_errors, 'hand')} with errors left out: only hands the replay "
               "found valid are reviewed.")
profiles = list(review.PROFILE_NAMES)
chosen_profile = st.selectbox(
    "Opponents' ranges", profiles, index=profiles.index(review.DEFAULT_PROFILE),
    key="review_profile", help=PROFILE_HELP,
)  # fmt: skip
profile = str(chosen_profile)
pending = pending_count(con, path, gen, player, profile, names)
if pending:
    st.caption(f"{pending} hands not reviewed yet.")
    if st.button("Review them", key="review_run", icon=":material/play_arrow:"):
        bar = st.progress(0.0, text="Reviewing…")

        def advance(done: int, total: int) -> None:
            bar.progress(done / max(total, 1), text="Reviewing…")

        review.run_review(con, player, workers=1, progress=advance, profile=profile,
                          names=names)
        st.rerun()

summary, spots = reviewed(con, path, gen, player, profile, names)
cols = st.columns(4)
cols[0].metric("Hands reviewed", f"{summary.hands:,}")
cols[1].metric("Draws reviewed", f"{summary.decisions:,}")
cols[2].metric("Mistakes", f"{summary.mistakes:,}")
cols[3].metric("Big bets lost / 100 hands", f"{summary.loss_per_100:.2f}", help=LOSS_NOTE)
st.caption(LOSS_NOTE)
if not summary.decisions:
    st.info("No draw reviewed yet.")
    st.stop()

charts = st.columns(2)
charts[0].plotly_chart(loss_chart(summary.by_draw, "Loss by draw"), key="review_by_draw")
charts[1].plotly_chart(loss_chart(summary.by_kind, "Loss by hand kept"), key="review_by_kind")
st.dataframe(
    pd.DataFrame([vars(p) for p in summary.by_position]).rename(
        columns={"label": "position", "lost": "big bets lost"}),
    hide_index=True,
)  # fmt: skip

st.subheader("The costliest spots")
if not spots:
    st.info("No mistake found: every draw was as good as the best within the noise.")
    st.stop()
remembered = memory.hand_memory(con, [int(s["hand"]) for s in spots])  # the user's tags
table = pd.DataFrame(
    [{"hand": s["hand_id"], "site": s["site"],
      "tags": ", ".join(remembered[s["hand"]].tags) if s["hand"] in remembered else "",
      "draw": s["draw"], "position": s["position"],
      "held": s["held"], "kept": s["kept"], "best": s["best_kept"],
      "equity kept": round(s["equity_chosen"], 3), "equity best": round(s["equity_best"], 3),
      "pot (BB)": round(s["pot"], 2), "lost (BB)": round(s["cost"], 3),
      "line": s["line"], "spot": review.spot_text(s)} for s in spots]
)  # fmt: skip
st.dataframe(table, hide_index=True, key="review_spots")
pick = st.selectbox("Spot", range(len(spots)), format_func=lambda i: spot_label(spots[i]),
                    key="review_pick")  # fmt: skip
chosen = spots[int(pick)]
st.text(review.spot_text(chosen))
alternatives = pd.DataFrame(
    [{"keep": c["kept"] or "(draw five)", "equity": round(c["equity"], 4),
      "stderr": round(c["stderr"], 4), "loss": round(c["loss"], 4),
      "as good as best": c["as_good_as_best"]} for c in chosen["choices"]]
)  # fmt: skip
st.dataframe(alternatives, hide_index=True, key="review_alternatives")
if st.button("Open in the replayer", key="review_open", icon=":material/style:"):
    open_in_replayer(chosen)
