"""Tournaments: what each one cost and paid, the totals, the profit graphs, and the hands.

A page script.  Every figure comes from ``analysis.tournaments``; this page picks, caches
and draws.  Money is shown one currency at a time (dollars, euros, play money and player
points are never added together).  Tournament names and player names are untrusted text
from files: they reach the screen only through ``st.dataframe`` and selectbox options,
and the charts are labelled with numbers and dates alone.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, tzinfo

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from analysis import times
from analysis import tournaments as tours
from analysis.storage import memory
from analysis.storage.db import Connection
from analysis.tournament_report import amount_text
from engine.rules import game_name
from engine.tournament import Kind
from ui import memory_panel, scope, state
from ui.data import cached
from ui.labels import site_name

ANY = "(all)"
REPLAYER_HANDS = "replayer_hand_ids"  # agreed with the replayer page: list[int] of hands.id
REPLAYER_PAGE = "ui/replayer_page.py"
KIND_NAMES: dict[str, str] = {Kind.SIT_AND_GO: "sit-and-go", Kind.MULTI_TABLE: "multi-table",
                              Kind.SHOOTOUT: "shootout", Kind.SATELLITE: "satellite"}


@cached(16)
def results(_con: Connection, path: str, gen: int,
            f: tours.TournamentFilters) -> list[tours.TournamentResult]:
    return tours.tournament_results(_con, f)


def _game(text: str) -> str:
    return game_name(text) if text else "–"


def _pick(label: str, options: list[str], key: str,
          shown: Callable[[str], str] = str) -> str | None:
    if st.session_state.get(key) not in (None, ANY, *options):
        del st.session_state[key]
    choice = st.selectbox(label, [ANY, *options], key=key,
                          format_func=lambda o: o if o == ANY else shown(o))
    return None if choice == ANY else str(choice)


def filters(con: Connection,
            everything: list[tours.TournamentResult]) -> tuple[tours.TournamentFilters, str]:
    """The sidebar's filters and the currency shown (one at a time, the most played first).
    A person (``drawlab alias``) picked: the results of every name of theirs."""
    with st.sidebar:
        st.header("Filters")
        currencies = [t.currency for t in tours.totals(everything)]
        if st.session_state.get("t_currency") not in currencies:
            st.session_state.pop("t_currency", None)
        currency = st.selectbox("Currency", currencies, key="t_currency",
                                help="Totals are kept within one currency, never across them.")
        people = [p for _, p in memory_panel.people_options(con)]
        person = _pick("Person", people, "t_person", lambda p: f"{p} · every name") if (
            people) else None
        player = st.text_input("Player", key="t_player", disabled=person is not None,
                               help="Empty: the player each summary or hand history is about.")
        site = _pick("Site", sorted({r.site for r in everything}), "t_site", site_name)
        game = _pick("Game", sorted({r.game for r in everything}), "t_game", _game)
        kind = _pick("Kind", list(KIND_NAMES), "t_kind", lambda k: KIND_NAMES[k])
        buy_ins = sorted({r.buy_in + r.fee + r.bounty for r in everything
                          if r.currency == currency})
        buy_in = _pick("Buy-in", [str(b) for b in buy_ins], "t_buy_in",
                       lambda b: amount_text(int(b), currency or ""))
        zone = times.day_zone(con)
        date_from, date_to = _dates(tours.start_days(everything, zone))
    return tours.TournamentFilters(
        player=person or player.strip() or None, site=site, game=game, kind=kind,
        buy_in=int(buy_in) if buy_in else None, date_from=date_from, date_to=date_to,
        currency=currency, names=None if person is None else memory.person_names(con, person),
        zone=zone,
    ), currency or ""


def _dates(span: tuple[date, date] | None) -> tuple[date | None, date | None]:
    """The days picked, of the display zone (``span``: the first and last start there);
    none while the whole span is, which keeps the tournaments without a start too."""
    if span is None or span[0] == span[1]:
        return None, None
    held = st.session_state.get("t_dates")
    if isinstance(held, tuple) and (held == st.session_state.get("_t_dates_span") or not all(
            span[0] <= d <= span[1] for d in held)):
        st.session_state.pop("t_dates", None)  # the whole span, or days outside it, before
    st.session_state["_t_dates_span"] = span
    chosen = st.date_input("Dates", value=span, key="t_dates", min_value=span[0],
                           max_value=span[1], help="Days the tournaments started on, in "
                                                   "the zone times are shown in.")
    if isinstance(chosen, tuple) and len(chosen) == 2 and tuple(chosen) != span:
        return chosen[0], chosen[1]
    return None, None


def totals_row(shown: list[tours.TournamentResult], currency: str) -> None:
    found = tours.totals(shown)
    if not found:
        return
    t = found[0]
    first, second = st.columns(4), st.columns(4)
    first[0].metric("Tournaments", f"{t.tournaments:,}")
    first[1].metric("Cost", amount_text(t.cost, currency))
    first[2].metric("Prizes", amount_text(t.prizes, currency))
    first[3].metric("Bounties", amount_text(t.bounties, currency))
    second[0].metric("Net", amount_text(t.net, currency))
    second[1].metric("ROI", "–" if t.roi is None else f"{t.roi:+.1%}")
    second[2].metric("In the money", "–" if t.itm is None else f"{t.itm:.1%}")
    second[3].metric("Average finish", "–" if t.average_finish is None
                     else f"{t.average_finish:.1f}")


def profit_charts(shown: list[tours.TournamentResult], currency: str,
                  zone: tzinfo = UTC) -> None:
    """The profit by tournament and by date, the dates ``zone``'s clock."""
    curve = tours.profit_curve(shown)
    if not curve:
        return
    scale = 1 if currency == "PLAY" else 100
    left, right = st.columns(2)
    by_number = go.Figure(go.Scatter(x=[n for n, _, _ in curve],
                                     y=[net / scale for _, _, net in curve], mode="lines+markers"))
    by_number.update_layout(title="Profit by tournament", xaxis_title="Tournaments",
                            yaxis_title=f"Net ({currency})", height=340,
                            margin={"t": 50, "b": 40, "l": 40, "r": 10})
    left.plotly_chart(by_number, key="t_by_number")
    dated = [(times.in_zone(when, zone).replace(tzinfo=None), net)
             for _, when, net in curve if when is not None]
    by_date = go.Figure(go.Scatter(x=[w for w, _ in dated], y=[n / scale for _, n in dated],
                                   mode="lines+markers"))
    by_date.update_layout(title="Profit by date", xaxis_title="Date",
                          yaxis_title=f"Net ({currency})", height=340,
                          margin={"t": 50, "b": 40, "l": 40, "r": 10})
    right.plotly_chart(by_date, key="t_by_date")


def groups_table(shown: list[tours.TournamentResult], key: str, currency: str) -> pd.DataFrame:
    return pd.DataFrame([{
        "game" if key == "game" else "buy-in":
            _game(g.label) if key == "game" else amount_text(int(g.label), currency),
        "tournaments": g.tournaments, "cost": amount_text(g.cost, currency),
        "net": amount_text(g.net, currency),
        "ROI": "–" if g.roi is None else f"{g.roi:+.1%}",
        "in the money": "–" if g.itm is None else f"{g.itm:.1%}",
    } for g in tours.by(shown, key)])


def listing(shown: list[tours.TournamentResult], currency: str,
            zone: tzinfo = UTC) -> pd.DataFrame:
    """One row per tournament; its start in ``zone``, with the zone named."""
    return pd.DataFrame([{
        "started": times.shown(r.started, zone, fmt="%Y-%m-%d %H:%M"),
        "site": site_name(r.site), "tournament": r.tournament_id,
        "name": r.name, "game": _game(r.game),
        "kind": ", ".join(KIND_NAMES.get(k, k) for k in r.kinds),
        "buy-in": amount_text(r.buy_in + r.fee + r.bounty, currency),
        "entrants": r.entrants, "player": r.player,
        "place": "running" if r.place is None else str(r.place),
        "prize": amount_text(r.prize, currency) + (f" + {r.ticket}" if r.ticket else ""),
        "bounties": amount_text(r.bounties_won, currency), "entries": r.entries,
        "cost": amount_text(r.cost, currency), "net": amount_text(r.net, currency),
    } for r in shown])


def open_hands(con: Connection, shown: list[tours.TournamentResult]) -> None:
    """Pick a tournament; its stored hands open in the replayer."""
    labels = [f"{site_name(r.site)} #{r.tournament_id} {r.name}".strip() for r in shown]
    picked = st.selectbox("Tournament", range(len(shown)), key="t_pick",
                          format_func=lambda i: labels[i])
    if picked is None:
        return
    chosen = shown[int(picked)]
    ids = tours.tournament_hand_ids(con, chosen.site, chosen.tournament_id)
    if not ids:
        st.caption("No hands of this tournament are stored: import its hand history.")
        return
    if st.button(f"Open its {len(ids):,} hands in the replayer", icon=":material/style:",
                 key="t_open"):
        st.session_state[REPLAYER_HANDS] = ids
        st.switch_page(REPLAYER_PAGE)


def main() -> None:
    st.title("Tournaments")
    con = state.connection()
    path, gen = state.db_path(), state.generation()
    everything = results(con, path, gen, tours.TournamentFilters())
    if not everything:
        st.info("No tournaments yet: import the tournament summaries your poker site "
                "writes (or tournament hand histories) on the Import page.")
        return
    chosen, currency = filters(con, everything)
    shown = results(con, path, gen, chosen)
    if not shown:
        st.info("No tournament matches these filters.")
        return
    totals_row(shown, currency)
    zone = scope.display_zone()
    profit_charts(shown, currency, zone)
    left, right = st.columns(2)
    left.subheader("By game")
    left.dataframe(groups_table(shown, "game", currency), hide_index=True, key="t_games")
    right.subheader("By buy-in")
    right.dataframe(groups_table(shown, "buy_in", currency), hide_index=True, key="t_buy_ins")
    st.subheader("Tournaments")
    st.dataframe(listing(shown, currency, zone), hide_index=True, key="t_list")
    open_hands(con, shown)


main()
