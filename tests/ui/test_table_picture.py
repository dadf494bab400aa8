"""The table picture (ui/table_picture.py): seats in place, escaped names, bets, button, pot."""

from __future__ import annotations

import math
import re
from html import escape

from analysis.replayer.steps import hand_view
from engine.record import Hand
from parser.reader import read_text
from tests.app_support import HOSTILE_NAMES, hostile_history
from tests.paths import REPOSITORY
from ui.table_picture import header_html, places, table_html


def hostile_view():  # type: ignore[no-untyped-def]
    [(_, hand)] = list(read_text(hostile_history(), "hostile.txt"))
    assert isinstance(hand, Hand)
    return hand_view(hand)


def test_hostile_names_are_escaped_text_in_the_picture() -> None:
    view = hostile_view()
    for step in (view.steps[0], view.steps[-1]):
        html = table_html(step, view.header, view.units, view.hand.hero)
        for evil in HOSTILE_NAMES.values():
            assert escape(evil, quote=True) in html
        assert "<img" not in html and "<script" not in html
        assert html.count('class="dl-seat"') == len(step.seats) == 5
    assert "<" not in re.sub(r"<[^>]*>", "", header_html(view.header))


def test_bets_button_pot_and_backs_are_drawn() -> None:
    view = hostile_view()
    first = view.steps[0]  # small blind 0.05 and big blind 0.10 in front of their seats
    html = table_html(first, view.header, view.units, view.hand.hero)
    assert re.findall(r'class="dl-bet"[^>]*>([^<]*)<', html) == ["0.05", "0.10"]
    assert html.count('class="dl-button"') == 1
    assert re.search(r'class="dl-pot"[^>]*>Pot 0.15<', html)
    assert html.count("dl-card-back") == 4 * 5  # the hero's cards are known, no one else's
    assert 'data-seat="1"' in html


def test_the_hero_sits_at_the_bottom_and_seats_keep_their_order() -> None:
    angles = places([1, 2, 4, 6], 6, 4)
    assert math.isclose(angles[4], math.pi / 2)
    assert math.isclose(angles[6] - angles[4], 2 * math.pi * 2 / 6)
    assert math.isclose(angles[1] - angles[4], 2 * math.pi * 3 / 6)
    assert places([3, 5], None, None) == {3: math.pi / 2, 5: math.pi / 2 + 2 * math.pi * 2 / 5}


def test_a_badugi_seat_holds_four_cards_never_a_fifth_back() -> None:
    text = (REPOSITORY / "sample_histories" / "pokerstars" / "badugi_fl_0.50-1_6max.txt").read_text(
        encoding="utf-8")
    hands = [h for _, h in read_text(text, "badugi.txt") if isinstance(h, Hand)]
    shown = next(h for h in hands if sum(1 for s in h.steps if type(s).__name__ == "Show") >= 2)
    view = hand_view(shown)
    assert view.header.hand_size == 4
    for step in (view.steps[0], view.steps[-1]):
        html = table_html(step, view.header, view.units, shown.hero)
        for seat in re.findall(r'<div class="dl-seat".*?(?=<div class="dl-seat"|$)', html):
            tiles = seat.count("dl-card-back") + len(re.findall(r'class="dl-card[ "]', seat))
            assert tiles in (0, 4), seat  # a folded seat shows none, every other four


def test_the_settled_pot_is_empty_and_the_rake_shown_on_its_own() -> None:
    view = hostile_view()
    assert view.hand.rake  # a raked cash hand
    last = view.steps[-1]
    assert (last.pot, last.rake) == (0, view.hand.rake)
    html = table_html(last, view.header, view.units, view.hand.hero)
    assert re.search(r'class="dl-pot"[^>]*>Pot 0.00<', html)
    rake = re.findall(r'class="dl-rake"[^>]*>([^<]*)<', html)
    assert rake == [f"rake {view.units.text(view.hand.rake)}"]
    assert all(s.rake == 0 for s in view.steps[:-1])
