"""Site profiles: what each site does its own way, and the tolerant default for the others."""

from __future__ import annotations

from engine.profiles import PROFILES, TotalPot, UncalledReport, profile_for


def test_an_unknown_site_gets_the_rulebook_and_a_tolerant_reading_of_money() -> None:
    p = profile_for("somesite")
    assert p.site == "somesite"
    assert (p.cap_heads_up, p.casino_short_all_ins, p.odd_chip_clockwise) == (True, True, True)
    assert (p.uncalled, p.total_pot) == (UncalledReport.ANY, TotalPot.ANY)
    assert not p.home_rules


def test_the_sites_the_corpus_shows_have_their_settings() -> None:
    assert profile_for("pokerstars").uncalled is UncalledReport.LINE
    assert profile_for("pokerstars").total_pot is TotalPot.WITH_RAKE
    assert profile_for("kingsclub").uncalled is UncalledReport.SILENT
    assert profile_for("kingsclub").run_it_twice
    assert not profile_for("merge").cap_heads_up
    assert profile_for("home").home_rules
    assert set(PROFILES) >= {
        "pokerstars",
        "fulltilt",
        "winamax",
        "merge",
        "kingsclub",
        "ongame",
        "boss",
        "phh",
    }
    assert all(name == p.site for name, p in PROFILES.items())
