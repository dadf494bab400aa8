"""The replayer's queries: every stored hand re-reads, pots ranked within one unit, ids."""

from __future__ import annotations

import re

from analysis.pipeline.importer import import_paths
from analysis.storage import db, queries
from analysis.storage.queries import PotUnit
from tests.paths import REPOSITORY

ROOT = REPOSITORY
SAMPLES = ROOT / "sample_histories"
HOME = SAMPLES / "phh" / "five_card_draw_home_fixed.phh"
SNG = SAMPLES / "pokerstars" / "27_triple_draw_fl_sit_and_go_6max.txt"
CASH = SAMPLES / "pokerstars" / "27_triple_draw_fl_0.10-0.20_6max.txt"


def test_every_stored_phh_hand_opens_whatever_its_venue() -> None:
    con = db.connect(db.MEMORY)
    import_paths(con, [SAMPLES / "phh"], workers=0)
    rows = con.execute("SELECT id, site FROM hands ORDER BY id").fetchall()
    assert {site for _, site in rows} == {"home", "pokerstars"}  # venues, not the format
    for hand_id, site in rows:
        stored = queries.get_hand(con, int(hand_id))
        assert stored is not None
        assert (stored.note, stored.hand is not None) == ("", True), site
        assert stored.hand is not None and stored.hand.site == site


def test_the_reader_is_the_sites_own_when_it_recognises_the_text() -> None:
    text = HOME.read_text(encoding="utf-8")
    assert queries.reader_of("home", text).site == "phh"  # type: ignore[union-attr]
    assert queries.reader_of("pokerstars", text).site == "phh"  # type: ignore[union-attr]
    stars = CASH.read_text(encoding="utf-8")[:3000]
    assert queries.reader_of("nowhere", stars).site == "pokerstars"  # type: ignore[union-attr]
    assert queries.reader_of("nowhere", "no history at all") is None
    hand, note = queries.rebuild("nowhere", "f", 1, "no history at all")
    assert (hand, note) == (None, "no reader for site 'nowhere', and none recognises the text")


def test_biggest_pots_never_rank_chips_with_money() -> None:
    con = db.connect(db.MEMORY)
    import_paths(con, [SNG, CASH], workers=0)
    units = queries.pot_units(con)
    assert units == [(PotUnit(False, "USD"), 900), (PotUnit(True, None), 300)]
    assert [u.label for u, _ in units] == ["USD (cash)", "tournament chips"]
    chips = queries.biggest_pots_in(con, PotUnit(True, None), limit=500)
    money = queries.biggest_pots_in(con, PotUnit(False, "USD"), limit=1000)
    assert len(chips) == 300 and chips["tournament_id"].notna().all()
    assert len(money) == 900 and money["tournament_id"].isna().all()
    assert list(chips["total_pot"]) == sorted(chips["total_pot"], reverse=True)
    written = [int(pot) for pot in re.findall(r"^Total pot (\d+)", SNG.read_text(), re.M)]
    assert max(written) == 8680  # hand #220001120274, the biggest the sample writes
    assert int(chips["total_pot"].iloc[0]) == 868000
    assert str(chips["hand_id"].iloc[0]) == "220001120274"
    both = queries.biggest_pots(con, limit=1)  # the old list: the chips outrank every dollar
    assert int(both["total_pot"].iloc[0]) == 868000
    assert int(money["total_pot"].iloc[0]) < 868000


def test_a_hand_is_found_by_its_site_id_or_its_key() -> None:
    con = db.connect(db.MEMORY)
    import_paths(con, [SNG], workers=0)
    [(found, key)] = queries.find_hands(con, "#220001120176")
    assert key == "pokerstars:220001120176"
    assert queries.find_hands(con, key) == [(found, key)]
    assert queries.find_hands(con, "  ") == [] and queries.find_hands(con, "999") == []
