"""Per-player facts of hands written by hand, each value worked out from the history."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.statistics.definitions import BETTING
from analysis.statistics.fact_row import FACT_COLUMNS, PlayerHandFacts
from analysis.statistics.facts import (
    hand_fact_rows,
    hand_facts,
    rake_shares,
    stakes_label,
)
from analysis.statistics.hand_classes import _five_card_class, hand_class, is_made
from analysis.statistics.positions import middle_labels, positions
from engine.cards import parse_cards
from engine.ranking import ranking_for
from engine.record import (
    Action,
    ActionKind,
    Collect,
    Draw,
    Game,
    Hand,
    Post,
    PostKind,
    Seat,
    Show,
    Stakes,
    Structure,
    Uncalled,
)
from engine.sim.dealer import deal_hands
from tests.corpus import CORPUS
from tests.handbuild import make_hand

# The PokerStars sample "Triple Draw 2-7 Lowball-FL-USD-0.10-0.20-201106", rebuilt by hand.
STARS_SAMPLE = make_hand(
    [(1, "P1", 436), (2, "Hero", 340), (3, "P2", 300), (4, "P3", 398), (5, "P4", 446)],
    [
        ("post", "Hero", "sb", 5), ("post", "P2", "bb", 10),
        ("call", "P3", 0, 10), ("fold", "P4", 0), ("call", "P1", 0, 10),
        ("fold", "Hero", 0), ("check", "P2", 0),
        ("draw", "P2", 1, 3), ("draw", "P3", 1, 2), ("draw", "P1", 1, 2),
        ("check", "P2", 1), ("check", "P3", 1), ("bet", "P1", 1, 10),
        ("fold", "P2", 1), ("call", "P3", 1, 10),
        ("draw", "P3", 2, 2), ("draw", "P1", 2, 0),
        ("check", "P3", 2), ("bet", "P1", 2, 20), ("call", "P3", 2, 20),
        ("draw", "P3", 3, 1), ("draw", "P1", 3, 0),
        ("bet", "P3", 3, 20), ("call", "P1", 3, 20),
        ("show", "P3", "7d2s8d5h5c"), ("show", "P1", "3c6s7h8c9d"),
        ("collect", "P1", 129),
    ],
    button=1, stakes=Stakes(5, 10, 10, 20), hero="Hero", dealt="8sTdKdQsQc", rake=6,
)

# Three-handed: the button steals, the small blind (hero, a made 8-low) 3-bets, the big
# blind folds facing the 3-bet, the button caps; the button stands pat, the hero breaks
# the 8 and then folds to the pat button's bet.
STEAL_CAP = make_hand(
    [(1, "A", 2000), (2, "H", 2000), (3, "C", 2000)],
    [
        ("post", "H", "sb", 50), ("post", "C", "bb", 100),
        ("raise", "A", 0, 200, 200), ("raise", "H", 0, 250, 300), ("fold", "C", 0),
        ("raise", "A", 0, 200, 400), ("call", "H", 0, 100),
        ("draw", "A", 1, 0), ("draw", "H", 1, 1, "8s", "6d4c3h2s", "Kd"),
        ("check", "H", 1), ("bet", "A", 1, 100), ("fold", "H", 1),
        ("uncalled", "A", 100), ("collect", "A", 900),
    ],
    button=1, hero="H", dealt="8s6d4c3h2s",
)

# Heads-up walk: the button folds its small blind.
WALK = make_hand(
    [(1, "X", 1000), (2, "Y", 1000)],
    [("post", "X", "sb", 50), ("post", "Y", "bb", 100), ("fold", "X", 0),
     ("uncalled", "Y", 50), ("collect", "Y", 100)],
    button=1,
)

# No-limit single draw heads-up: the hero raises the button, stands pat on a pair of
# kings (a snow) and is called down by an 8-low; rake 18.
SNOW = make_hand(
    [(1, "H", 5000), (2, "V", 5000)],
    [
        ("post", "H", "sb", 50), ("post", "V", "bb", 100),
        ("raise", "H", 0, 250, 300), ("call", "V", 0, 200),
        ("draw", "V", 1, 2), ("draw", "H", 1, 0),
        ("check", "V", 1), ("bet", "H", 1, 600), ("call", "V", 1, 600),
        ("show", "H", "KdKc9s5h2c"), ("show", "V", "8c7d5s3d2h"),
        ("collect", "V", 1782),
    ],
    button=1, game=Game.SINGLE_DRAW_27, structure=Structure.NO_LIMIT,
    stakes=Stakes(50, 100, 100, 100), hero="H", dealt="KdKc9s5h2c", rake=18,
)


def by_player(hand: Any) -> dict[str, PlayerHandFacts]:
    return {r.player: r for r in hand_facts(hand)}


def test_fact_columns_are_the_row_fields_then_every_betting_statistics_columns() -> None:
    row = hand_facts(WALK)[0]
    fields = [f for f in PlayerHandFacts.__slots__ if f != "flags"]  # type: ignore[attr-defined]
    betting = [c for s in BETTING if s.spot is not None for c in (s.spot.column, s.key)]
    assert list(FACT_COLUMNS) == [*fields, *dict.fromkeys(betting)]
    assert len(row.as_tuple()) == len(FACT_COLUMNS)
    by_column = dict(zip(FACT_COLUMNS, row.as_tuple(), strict=True))
    assert (by_column["player"], by_column["vpip"], by_column["net"]) == ("X", False, -50)
    walk = hand_facts(WALK)[1]  # the big blind, given a walk: no decision
    assert walk.predraw_acted is False and walk.position == "BB"
    assert FACT_COLUMNS["net"] == "BIGINT"
    assert FACT_COLUMNS["drawn_1"] == "SMALLINT"
    assert FACT_COLUMNS["time"] == "TIMESTAMP"
    assert FACT_COLUMNS["vpip"] == "BOOLEAN"
    assert FACT_COLUMNS["final_class"] == "VARCHAR"


def test_stars_sample_positions_money_and_showdown() -> None:
    f = by_player(STARS_SAMPLE)
    assert list(f) == ["P1", "Hero", "P2", "P3", "P4"]
    assert {p: r.position for p, r in f.items()} == {
        "P1": "BTN", "Hero": "SB", "P2": "BB", "P3": "UTG", "P4": "CO",
    }
    assert {p: (r.invested, r.collected, r.net) for p, r in f.items()} == {
        "P1": (60, 129, 69), "Hero": (5, 0, -5), "P2": (10, 0, -10),
        "P3": (60, 0, -60), "P4": (0, 0, 0),
    }
    assert f["P1"].rake_share == 6 and f["P3"].rake_share == 0
    assert f["P1"].went_to_showdown and f["P3"].went_to_showdown
    assert not f["P2"].went_to_showdown and not f["Hero"].went_to_showdown
    assert f["P1"].won_at_showdown and not f["P3"].won_at_showdown
    assert (f["P1"].net_showdown, f["P1"].net_nonshowdown) == (69, 0)
    assert (f["P2"].net_showdown, f["P2"].net_nonshowdown) == (0, -10)
    assert f["P1"].final_class == "9-low" and f["P1"].final_cards == "3c6s7h8c9d"
    assert f["P3"].final_class == "paired"
    assert f["Hero"].final_class is None and f["Hero"].final_cards is None
    assert all(r.players == 5 for r in f.values())
    assert f["Hero"].is_hero and not f["P1"].is_hero
    assert f["P1"].stakes == "0.10/0.20" and f["P1"].big_bet == 20


def test_stars_sample_pre_draw_flags() -> None:
    f = by_player(STARS_SAMPLE)
    flags = ("predraw_acted", "vpip", "rfi_opp", "rfi", "pfr", "steal_opp", "three_bet_opp")
    got = {p: tuple(getattr(r, k) for k in flags) for p, r in f.items()}
    assert got == {
        "P1": (True, True, False, False, False, False, False),
        "Hero": (True, False, False, False, False, False, False),
        "P2": (True, False, False, False, False, False, False),
        "P3": (True, True, True, False, False, False, False),
        "P4": (True, False, False, False, False, False, False),
    }
    assert {p: r.folded_round for p, r in f.items()} == {
        "P1": None, "Hero": 0, "P2": 1, "P3": None, "P4": 0,
    }


def test_stars_sample_draws_and_rounds() -> None:
    f = by_player(STARS_SAMPLE)
    assert (f["P1"].drawn_1, f["P1"].drawn_2, f["P1"].drawn_3) == (2, 0, 0)
    assert (f["P1"].pat_1, f["P1"].pat_2, f["P1"].pat_3) == (False, True, True)
    assert (f["P3"].drawn_1, f["P3"].drawn_2, f["P3"].drawn_3) == (2, 2, 1)
    assert (f["P2"].drawn_1, f["P2"].drawn_2, f["P2"].pat_2) == (3, None, None)
    assert f["Hero"].drawn_1 is None and f["Hero"].pat_1 is None
    assert {p: r.draws_seen for p, r in f.items()} == {
        "P1": 3, "Hero": 0, "P2": 1, "P3": 3, "P4": 0,
    }
    assert f["P2"].saw_draw_1 and not f["P2"].won_saw_draw_1 and f["P1"].won_saw_draw_1
    # P1 stood pat on draws 2 and 3 and showed a 9-low: two known pats, a made hand.
    assert (f["P1"].snow_opp, f["P1"].snowed, f["P1"].break_opp, f["P1"].broke) == (
        True, False, True, False)
    assert (f["P3"].snow_opp, f["P3"].break_opp) == (False, False)
    # P3 called P1's bet after P1 stood pat on the second draw.
    assert (f["P3"].fold_to_pat_opp, f["P3"].fold_to_pat) == (True, False)
    assert (f["P2"].fold_to_pat_opp, f["P1"].fold_to_pat_opp) == (False, False)
    p1 = f["P1"]
    assert (p1.calls_0, p1.bets_1, p1.bets_2, p1.calls_3, p1.raises_0) == (1, 1, 1, 1, 0)
    p2 = f["P2"]
    assert (p2.checks_0, p2.checks_1, p2.calls_1) == (1, 1, 0)


def test_steal_three_bet_cap_break_and_fold_to_pat() -> None:
    f = by_player(STEAL_CAP)
    assert {p: r.position for p, r in f.items()} == {"A": "BTN", "H": "SB", "C": "BB"}
    a, h, c = f["A"], f["H"], f["C"]
    assert (a.rfi_opp, a.rfi, a.steal_opp, a.steal, a.pfr, a.vpip) == (True,) * 6
    assert (a.three_bet_opp, a.cap_opp, a.cap) == (False, True, True)
    assert (a.fold_to_three_bet_opp, a.fold_to_three_bet) == (True, False)
    assert (c.fold_to_three_bet_opp, h.fold_to_three_bet_opp) == (False, False)
    assert (h.rfi_opp, h.three_bet_opp, h.three_bet, h.cap_opp) == (False, True, True, False)
    assert (h.fold_to_steal_opp, h.fold_to_steal) == (True, False)
    assert (c.fold_to_steal_opp, c.cap_opp, c.cap, c.three_bet_opp) == (
        False, True, False, False)
    assert (c.vpip, c.predraw_acted) == (False, True)
    assert (a.raises_0, h.raises_0, h.calls_0) == (2, 1, 1)
    assert (a.invested, a.collected, a.net) == (400, 900, 500)
    assert (h.net, c.net) == (-400, -100)
    assert not a.went_to_showdown and a.net_nonshowdown == 500 and a.won
    assert (h.break_opp, h.broke, h.snow_opp) == (True, True, False)
    assert (a.snow_opp, a.pat_1, a.drawn_1) == (False, True, 0)
    assert (h.fold_to_pat_opp, h.fold_to_pat) == (True, True)
    assert (a.draws_seen, h.draws_seen, c.draws_seen) == (1, 1, 0)


def test_heads_up_walk() -> None:
    f = by_player(WALK)
    assert {p: r.position for p, r in f.items()} == {"X": "BTN", "Y": "BB"}
    x, y = f["X"], f["Y"]
    assert (x.rfi_opp, x.rfi, x.steal_opp, x.steal, x.predraw_acted) == (
        True, False, True, False, True)
    assert (y.predraw_acted, y.vpip, y.rfi_opp, y.fold_to_steal_opp) == (False,) * 4
    assert (y.invested, y.collected, y.net, x.net) == (50, 100, 50, -50)
    assert (x.draws_seen, y.draws_seen, y.went_to_showdown) == (0, 0, False)


def test_snow_with_a_pair_and_showdown_classes() -> None:
    f = by_player(SNOW)
    h, v = f["H"], f["V"]
    assert (h.snow_opp, h.snowed, h.break_opp, h.broke) == (True, True, False, False)
    assert (h.final_class, v.final_class) == ("paired", "8-low")
    assert (h.net, h.net_showdown, v.net, v.rake_share) == (-900, -900, 882, 18)
    assert (v.won_at_showdown, h.won_at_showdown) == (True, False)
    assert (v.fold_to_pat_opp, v.fold_to_pat) == (True, False)
    assert (v.fold_to_steal_opp, v.fold_to_steal, v.three_bet_opp, v.three_bet) == (
        True, False, True, False)
    assert (h.steal, h.drawn_1, h.drawn_2, h.pat_2) == (True, 0, None, None)
    assert h.game == "27_single_draw" and h.structure == "no_limit"


def test_site_stated_net_wins_over_chips() -> None:
    hand = make_hand(
        [(1, "X", 1000), (2, "Y", 1000)],
        [("post", "X", "sb", 50), ("post", "Y", "bb", 100), ("fold", "X", 0),
         ("collect", "Y", 150)],
        button=1, net=(("X", -50), ("Y", 45)),
    )
    f = by_player(hand)
    assert (f["Y"].invested, f["Y"].collected, f["Y"].net, f["X"].net) == (100, 150, 45, -50)


def test_players_sitting_out_are_not_dealt_in() -> None:
    hand = make_hand(
        [(1, "X", 1000), (2, "Y", 1000), (3, "Z", 1000)],
        [("post", "X", "sb", 50), ("post", "Y", "bb", 100), ("fold", "X", 0),
         ("uncalled", "Y", 50), ("collect", "Y", 100)],
        button=3,
    )
    f = by_player(hand)
    assert list(f) == ["X", "Y"]
    assert f["X"].players == 2 and f["X"].position == "BTN"


def test_hand_with_nobody_dealt_in_has_no_rows() -> None:
    assert hand_facts(make_hand([(1, "X", 1000)], [], button=1)) == []


def test_positions_six_handed_and_dead_small_blind() -> None:
    seats = [(i, f"p{i}", 1000) for i in range(1, 7)]
    six = make_hand(seats, [("post", "p2", "sb", 50), ("post", "p3", "bb", 100)], button=1)
    assert positions(six, [f"p{i}" for i in range(1, 7)]) == {
        "p1": "BTN", "p2": "SB", "p3": "BB", "p4": "UTG", "p5": "MP", "p6": "CO",
    }
    dead_sb = make_hand(seats[:5], [("post", "p3", "bb", 100)], button=1)
    assert positions(dead_sb, [f"p{i}" for i in range(1, 6)]) == {
        "p2": "BTN", "p3": "BB", "p4": "UTG", "p5": "MP", "p1": "CO",
    }


def test_middle_labels() -> None:
    assert middle_labels(0) == ()
    assert middle_labels(1) == ("CO",)
    assert middle_labels(3) == ("UTG", "MP", "CO")
    assert middle_labels(5) == ("UTG", "UTG+1", "UTG+2", "MP", "CO")


def test_rake_split_in_proportion_to_collections() -> None:
    assert rake_shares(10, {"a": 300, "b": 0, "c": 100}) == {"a": 8, "b": 0, "c": 2}
    assert rake_shares(5, {"a": 100, "b": 100}) == {"a": 3, "b": 2}
    assert rake_shares(5, {"a": 0}) == {"a": 0}


def test_stakes_label_formats_hundredths() -> None:
    assert stakes_label(WALK) == "1/2"
    assert stakes_label(STARS_SAMPLE) == "0.10/0.20"


@pytest.mark.parametrize(
    ("cards", "game", "cls", "made"),
    [
        ("7s5d4h3c2s", Game.TRIPLE_DRAW_27, "7-low", True),
        ("8s6d4h3c2s", Game.TRIPLE_DRAW_27, "8-low", True),
        ("Ts9d4h3c2s", Game.TRIPLE_DRAW_27, "10-low", True),
        ("Js9d4h3c2s", Game.TRIPLE_DRAW_27, "J-low or worse", False),
        ("As5d4h3c2s", Game.TRIPLE_DRAW_27, "J-low or worse", False),
        ("6s5d4h3c2s", Game.TRIPLE_DRAW_27, "straight or flush", False),
        ("8s6s4s3s2s", Game.TRIPLE_DRAW_27, "straight or flush", False),
        ("7s7d4h3c2s", Game.TRIPLE_DRAW_27, "paired", False),
        ("As5d4h3c2s", Game.TRIPLE_DRAW_A5, "5-low", True),
        ("6s5s4s3s2s", Game.TRIPLE_DRAW_A5, "6-low", True),
        ("KsQd4h3cAs", Game.SINGLE_DRAW_A5, "J-low or worse", False),
        ("As5d4h3c2s", Game.FIVE_CARD_DRAW, "straight", True),
        ("AsAd4h4c2s", Game.FIVE_CARD_DRAW, "two pair", False),
        ("AsAdAh4c4s", Game.FIVE_CARD_DRAW, "full house", True),
    ],
)
def test_hand_classes(cards: str, game: Game, cls: str, made: bool) -> None:
    assert hand_class(parse_cards(cards), game) == cls
    assert is_made(parse_cards(cards), game) is made


def test_hand_class_needs_five_cards() -> None:
    assert hand_class(parse_cards("7s5d4h3c"), Game.TRIPLE_DRAW_27) is None


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True))
def test_a_class_kept_per_rank_value_is_the_class_of_every_hand_of_that_value(
    cards: list[int],
) -> None:
    """``hand_class`` works a class out once per rank value and reuses it for every hand
    of that value: each hand still gets the class its own cards give, in every ranking
    (the suits of a flush, the ace low in A-5)."""
    for game in (Game.TRIPLE_DRAW_27, Game.TRIPLE_DRAW_A5, Game.FIVE_CARD_DRAW):
        assert hand_class(tuple(cards), game) == _five_card_class(tuple(cards), ranking_for(game))


# --- properties: any record, however odd, gives consistent rows ---------------------------

NAMES = ("a", "b", "c", "d", "e")


some_cards = st.lists(st.integers(-1, 53), max_size=6).map(tuple)
maybe_cards = st.one_of(st.none(), some_cards)


@st.composite
def odd_hands(draw: st.DrawFn) -> Hand:
    n = draw(st.integers(1, 5))
    seats = tuple(Seat(i + 1, NAMES[i], 1000, i, draw(st.booleans())) for i in range(n))
    who = st.sampled_from((*NAMES[:n], "ghost"))
    step = st.one_of(
        st.builds(Post, who, st.sampled_from(list(PostKind)), st.integers(0, 300), st.just(1)),
        st.builds(Action, who, st.integers(0, 4), st.sampled_from(list(ActionKind)),
                  st.just(1), st.integers(0, 300)),
        st.builds(Draw, who, st.integers(1, 4), st.integers(0, 5), st.just(1),
                  maybe_cards, maybe_cards, maybe_cards, st.integers(0, 2)),
        st.builds(Show, who, some_cards, st.just(1), st.booleans(), st.integers(0, 2)),
        st.builds(Uncalled, who, st.integers(0, 300), st.just(1)),
        st.builds(Collect, who, st.integers(0, 900), st.just(1)),
    )
    base = make_hand([], [], button=draw(st.one_of(st.none(), st.integers(0, 6))),
                     game=draw(st.sampled_from(list(Game))),
                     hero=draw(st.sampled_from((None, *NAMES))), dealt="7s5d4h3c2s",
                     rake=draw(st.one_of(st.none(), st.integers(0, 50))))
    return replace(base, seats=seats, steps=tuple(draw(st.lists(step, max_size=30))),
                   dealt=draw(maybe_cards))


def check_consistent(rows: list[PlayerHandFacts]) -> None:
    assert len({r.position for r in rows}) == len(rows)
    assert len({r.player for r in rows}) == len(rows)
    for r in rows:
        assert r.players == len(rows)
        for s in BETTING:  # an event only where its opportunity was
            assert s.spot is not None
            assert getattr(r, s.spot.column) or not getattr(r, s.key), s.key
        for taken, opp in (
            (r.snowed, r.snow_opp), (r.broke, r.break_opp), (r.pfr, r.vpip),
            (r.won_at_showdown, r.went_to_showdown), (r.won_saw_draw_1, r.saw_draw_1),
            (r.steal_opp, r.rfi_opp), (r.fold_to_three_bet_opp, r.cap_opp),
            (r.went_to_showdown, r.folded_round is None),
        ):
            assert opp or not taken
        assert 0 <= r.draws_seen <= 3
        assert r.net_showdown + r.net_nonshowdown == r.net
        for k in (1, 2, 3):
            d, pat = getattr(r, f"drawn_{k}"), getattr(r, f"pat_{k}")
            assert pat == (None if d is None else d == 0)
        assert (r.final_class is None) or r.went_to_showdown
        assert r.saw_draw_1 == (r.draws_seen >= 1)


_PYTHON_TYPES: dict[str, tuple[type, ...]] = {
    "VARCHAR": (str,), "BIGINT": (int,), "SMALLINT": (int,), "BOOLEAN": (bool,),
    "TIMESTAMP": (datetime,),
}


def check_tuples(hand: Hand, rows: list[PlayerHandFacts]) -> None:
    """The importer's tuples are the rows' values after the lead, each of its column's
    type (a ``1`` where a flag belongs would be stored as another value)."""
    assert hand_fact_rows(hand, (7, "x")) == [(7, "x", *r.as_tuple()) for r in rows]
    for r in rows:
        for (name, column), value in zip(FACT_COLUMNS.items(), r.as_tuple(), strict=True):
            assert value is None or (
                type(value) in _PYTHON_TYPES[column] and (column == "BOOLEAN") == (
                    type(value) is bool)
            ), (name, value)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(odd_hands())
def test_any_record_gives_consistent_rows(hand: Hand) -> None:
    """However odd the record, the facts do not raise and hold together."""
    rows = hand_facts(hand)
    check_consistent(rows)
    check_tuples(hand, rows)
    shares = sum(r.rake_share for r in rows)
    assert shares in (0, hand.rake) if hand.rake is not None else shares >= 0


def dealt_of_every_kind() -> Iterator[Hand]:
    """Every game and table size, cash and tournament (short stacks: all-ins), with and
    without a hero (no known cards at all), fixed, pot and no limit."""
    seed = 100
    for game in Game:
        for players in (2, 3, 4, 5, 6):
            seed += 1
            yield from deal_hands(120, game, players, seed)
            yield from deal_hands(40, game, players, seed, tournament=True)
        yield from deal_hands(60, game, 4, seed, hero=None)
        yield from deal_hands(60, game, 3, seed, structure=Structure.NO_LIMIT)
        yield from deal_hands(60, game, 6, seed, structure=Structure.POT,
                              start=datetime(2024, 3, 1, 12, 0))


@pytest.mark.slow
def test_dealt_hands_of_every_kind_give_consistent_rows() -> None:
    """Thousands of dealt hands of every game hold together and balance, with many of
    the cases the walk treats apart (all-ins, walks, split pots, showdowns of unknown
    cards)."""
    seen = {"hands": 0, "all_in": 0, "walk": 0, "split": 0, "unknown": 0, "showdown": 0}
    games: set[Game] = set()
    for hand in dealt_of_every_kind():
        rows = hand_facts(hand)
        check_consistent(rows)
        check_tuples(hand, rows)
        assert sum(r.net for r in rows) == -(hand.rake or 0)
        games.add(hand.game)
        seen["hands"] += 1
        seen["all_in"] += any(r.all_in for r in rows)
        seen["walk"] += any(r.position == "BB" and not r.predraw_acted for r in rows)
        seen["split"] += len({s.player for s in hand.steps if isinstance(s, Collect)}) > 1
        seen["unknown"] += any(r.went_to_showdown and r.final_cards is None for r in rows)
        seen["showdown"] += any(r.went_to_showdown for r in rows)
    assert games == set(Game)
    floors = {"hands": 5_000, "all_in": 100, "walk": 100, "split": 20, "unknown": 100,
              "showdown": 1_000}
    assert all(seen[k] >= floors[k] for k in floors), seen


@settings(max_examples=500, deadline=None)
@given(st.integers(-5, 400),
       st.dictionaries(st.sampled_from("abcdef"), st.integers(-50, 900), max_size=6))
def test_rake_shares_add_up_in_proportion(rake: int, collected: dict[str, int]) -> None:
    """The whole rake, on those who collected: each their part in whole hundredths, or one
    more where the remainder falls (to the largest collectors first)."""
    shares = rake_shares(rake, collected)
    assert set(shares) == set(collected)
    winners = {p: v for p, v in collected.items() if v > 0}
    if rake <= 0 or not winners:
        assert set(shares.values()) <= {0}
        return
    assert sum(shares.values()) == rake
    total = sum(winners.values())
    for p, v in collected.items():
        if v > 0:
            assert rake * v // total <= shares[p] <= rake * v // total + 1, p
        else:
            assert shares[p] == 0, p


odd_cards = st.lists(st.integers(-1, 53), min_size=0, max_size=6).map(tuple)
real_cards = st.permutations(range(52)).map(lambda p: tuple(p[:5]))


@pytest.mark.parametrize("game", list(Game))
@settings(max_examples=300, deadline=None)
@given(st.one_of(odd_cards, real_cards, real_cards.map(lambda c: c[:4])))
def test_a_class_only_for_a_whole_hand_of_the_deck(game: Game, cards: tuple[int, ...]) -> None:
    """Five (Badugi: four) distinct cards of the deck have a class, anything else none;
    and a hand is made or not exactly when it has a class."""
    size = 4 if game is Game.BADUGI else 5
    whole = len(cards) == len(set(cards)) == size and all(0 <= c <= 51 for c in cards)
    cls = hand_class(cards, game)
    assert (cls is not None) == whole
    assert (is_made(cards, game) is None) == (cls is None)
    if whole and game is not Game.BADUGI:
        assert cls == _five_card_class(cards, ranking_for(game))


@pytest.mark.parametrize(
    ("game", "players"),
    [(Game.TRIPLE_DRAW_27, 6), (Game.TRIPLE_DRAW_27, 2), (Game.SINGLE_DRAW_27, 4),
     (Game.TRIPLE_DRAW_A5, 3), (Game.FIVE_CARD_DRAW, 5)],
)
def test_dealt_hands_balance_and_know_the_heros_showdown_hand(game: Game, players: int) -> None:
    labels = {
        2: {"BTN", "BB"}, 3: {"BTN", "SB", "BB"}, 4: {"CO", "BTN", "SB", "BB"},
        5: {"UTG", "CO", "BTN", "SB", "BB"}, 6: {"UTG", "MP", "CO", "BTN", "SB", "BB"},
    }
    for hand in deal_hands(150, game, players, seed=3):
        rows = hand_facts(hand)
        check_consistent(rows)
        assert sum(r.net for r in rows) == -(hand.rake or 0)
        assert sum(r.rake_share for r in rows) == (hand.rake or 0)
        assert {r.position for r in rows} == labels[len(rows)]
        for r in rows:
            if r.is_hero and r.went_to_showdown:
                assert r.final_class is not None
            assert r.drawn_2 is None or game in (Game.TRIPLE_DRAW_27, Game.TRIPLE_DRAW_A5)


def test_times_are_stored_in_utc_without_zone() -> None:
    from datetime import UTC, datetime, timedelta, timezone

    from analysis.statistics.facts import stored_time

    cet = timezone(timedelta(hours=1))
    assert stored_time(datetime(2024, 1, 1, 12, 0, tzinfo=cet)) == datetime(2024, 1, 1, 11, 0)
    assert stored_time(datetime(2024, 1, 1, 12, 0, tzinfo=UTC)) == datetime(2024, 1, 1, 12, 0)
    assert stored_time(datetime(2024, 1, 1, 12, 0)) == datetime(2024, 1, 1, 12, 0)
    assert stored_time(None) is None


# --- money the history leaves implicit ----------------------------------------------------

SILENT = [
    ("post", "X", "sb", 50), ("post", "Y", "bb", 100), ("raise", "X", 0, 150, 200),
    ("call", "Y", 0, 100), ("draw", "X", 1, 1), ("draw", "Y", 1, 2),
    ("bet", "X", 1, 100), ("fold", "Y", 1),
]


def test_uncalled_bet_returned_silently_comes_off_the_investment() -> None:
    # Boss style: the unmatched 100 goes back with no line; X collects the pot less rake.
    hand = make_hand([(1, "X", 1000), (2, "Y", 1000)], [*SILENT, ("collect", "X", 390)],
                     button=1, rake=10)
    f = by_player(hand)
    assert (f["X"].invested, f["X"].collected, f["X"].net) == (200, 390, 190)
    assert (f["Y"].net, f["X"].rake_share) == (-200, 10)


def test_uncalled_bet_folded_into_the_collection_stays_invested() -> None:
    hand = make_hand([(1, "X", 1000), (2, "Y", 1000)], [*SILENT, ("collect", "X", 490)],
                     button=1, rake=10)
    f = by_player(hand)
    assert (f["X"].invested, f["X"].collected, f["X"].net) == (300, 490, 190)


def test_unstated_rake_is_what_went_in_and_did_not_come_out() -> None:
    hand = make_hand([(1, "X", 1000), (2, "Y", 1000)],
                     [*SILENT, ("uncalled", "X", 100), ("collect", "X", 381)], button=1)
    f = by_player(hand)
    assert (f["X"].net, f["X"].rake_share, f["Y"].net) == (181, 19, -200)
    stated = replace(hand, net=(("X", 190), ("Y", -200)))
    assert by_player(stated)["X"].rake_share == 10


# --- real histories ---------------------------------------------------------------------

STARS_FILE = CORPUS / "cash/Stars/Draw/Triple Draw 2-7 Lowball-FL-USD-0.10-0.20-201106.sample.txt"


def test_the_real_stars_sample_gives_the_facts_worked_by_hand() -> None:
    from parser.reader import read_path

    (hand,) = [out for _, out in read_path(STARS_FILE) if isinstance(out, Hand)]
    got = [replace(r, time=None) for r in hand_facts(hand)]
    names = {"P1": "Player1", "P2": "Player2", "P3": "Player3", "P4": "Player4", "Hero": "Hero"}
    want = [replace(r, time=None, hand_id="63845186378", player=names[r.player])
            for r in hand_facts(STARS_SAMPLE)]
    assert got == want
    assert hand_facts(hand)[0].time == datetime(2011, 6, 26, 17, 34, 2)  # 18:34 WET


def test_every_corpus_hand_gives_consistent_rows_and_balances() -> None:
    from analysis.pipeline.verify_files import verify_paths

    seen = balanced = 0
    for res in verify_paths([CORPUS]):
        if res.hand is None:
            continue
        rows = hand_facts(res.hand)
        check_consistent(rows)
        seen += 1
        if res.status == "ok":
            assert sum(r.net for r in rows) == -sum(r.rake_share for r in rows), res.file
            if res.hand.rake is not None:
                assert sum(r.rake_share for r in rows) in (0, res.hand.rake), res.file
            balanced += 1
    assert seen >= 60 and balanced >= 50


five_cards = st.permutations(range(52)).map(lambda p: tuple(p[:5]))


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(five_cards, five_cards, st.sampled_from([Game.TRIPLE_DRAW_27, Game.TRIPLE_DRAW_A5]))
def test_low_classes_order_hands_as_the_ranking_does(a: Any, b: Any, game: Game) -> None:
    from analysis.statistics.hand_classes import LOWBALL_27_CLASSES, LOWBALL_A5_CLASSES, PAIRED
    from engine.ranking import rank, ranking_for

    order = LOWBALL_27_CLASSES if game is Game.TRIPLE_DRAW_27 else LOWBALL_A5_CLASSES
    low = order[: order.index(PAIRED)]  # the no-pair classes, best first
    ca, cb = hand_class(a, game), hand_class(b, game)
    ra, rb = rank(a, ranking_for(game)), rank(b, ranking_for(game))
    if ca in low and cb in low and low.index(ca) < low.index(cb):
        assert ra < rb
    if ca in low and cb not in low:
        assert ra < rb
    assert is_made(a, game) == (ca in low[:-1])


def test_cards_out_of_range_give_no_text_and_no_class() -> None:
    hand = replace(SNOW, steps=tuple(
        replace(s, cards=(60, 1, 2, 3, 4)) if isinstance(s, Show) and s.player == "V" else s
        for s in SNOW.steps
    ))
    v = by_player(hand)["V"]
    assert (v.final_cards, v.final_class, v.cards_shown) == (None, None, True)


def test_positions_without_blinds_count_from_the_button() -> None:
    seats = [(i, f"p{i}", 1000) for i in range(1, 5)]
    antes = make_hand(seats, [("post", f"p{i}", "ante", 10) for i in range(1, 5)], button=2)
    assert positions(antes, ["p1", "p2", "p3", "p4"]) == {
        "p3": "UTG", "p4": "MP", "p1": "CO", "p2": "BTN",
    }


def test_fold_to_three_bet() -> None:
    hand = make_hand(
        [(1, "A", 2000), (2, "H", 2000), (3, "C", 2000)],
        [("post", "H", "sb", 50), ("post", "C", "bb", 100),
         ("raise", "A", 0, 200, 200), ("raise", "H", 0, 250, 300), ("fold", "C", 0),
         ("fold", "A", 0), ("uncalled", "H", 100), ("collect", "H", 500)],
        button=1,
    )
    f = by_player(hand)
    assert (f["A"].fold_to_three_bet_opp, f["A"].fold_to_three_bet) == (True, True)
    assert (f["H"].three_bet, f["H"].net, f["A"].net) == (True, 300, -200)


# Fixed limit, bets of 100: U raises all-in 40 over the big blind (less than half a bet),
# the button completes to 200 (the first full raise, not a 3-bet), the big blind 3-bets.
SHORT_ALL_IN_COMPLETED = make_hand(
    [(1, "A", 2000), (2, "S", 2000), (3, "B", 2000), (4, "U", 140)],
    [
        ("post", "S", "sb", 50), ("post", "B", "bb", 100),
        ("raise", "U", 0, 140, 140, True), ("raise", "A", 0, 200, 200), ("fold", "S", 0),
        ("raise", "B", 0, 200, 300), ("call", "A", 0, 100),
        ("collect", "B", 790),
    ],
    button=1,
)


def test_a_completion_of_a_short_all_in_is_the_first_raise_not_a_three_bet() -> None:
    f = by_player(SHORT_ALL_IN_COMPLETED)
    u, a, b = f["U"], f["A"], f["B"]
    assert (u.pfr, u.three_bet_opp, u.three_bet) == (True, False, False)
    assert (a.pfr, a.three_bet_opp, a.three_bet) == (True, False, False)
    assert (b.three_bet_opp, b.three_bet, b.cap_opp, b.cap) == (True, True, False, False)
    assert (a.cap_opp, a.fold_to_three_bet_opp, a.fold_to_three_bet) == (True, True, False)
    # an all-in of half a bet or more is a full raise: the same hand with U all-in to 150
    # makes the button's raise to 200 the completion of U's 2-bet, and the big blind's the
    # 3-bet still
    half = make_hand(
        [(1, "A", 2000), (2, "S", 2000), (3, "B", 2000), (4, "U", 150)],
        [
            ("post", "S", "sb", 50), ("post", "B", "bb", 100),
            ("raise", "U", 0, 150, 150, True), ("raise", "A", 0, 200, 200), ("fold", "S", 0),
            ("raise", "B", 0, 200, 300), ("call", "A", 0, 100),
            ("collect", "B", 800),
        ],
        button=1,
    )
    f = by_player(half)
    assert (f["U"].pfr, f["A"].three_bet_opp, f["A"].three_bet) == (True, True, False)
    assert (f["B"].three_bet, f["B"].cap) == (True, False)


def test_each_row_carries_its_seat_stakes_tournament_and_what_was_shown() -> None:
    from engine.record import Tournament

    snow = by_player(SNOW)
    assert {p: (r.seat, r.small_bet, r.big_bet, r.currency, r.tournament_id, r.cards_shown)
            for p, r in snow.items()} == {
        "H": (1, 100, 100, "USD", None, True), "V": (2, 100, 100, "USD", None, True),
    }
    steal = by_player(replace(STEAL_CAP, tournament=Tournament("T77", 500, 50),
                              currency="EUR"))
    assert {p: (r.seat, r.small_bet, r.big_bet, r.currency, r.tournament_id, r.cards_shown)
            for p, r in steal.items()} == {
        "A": (1, 100, 200, "EUR", "T77", False), "H": (2, 100, 200, "EUR", "T77", False),
        "C": (3, 100, 200, "EUR", "T77", False),
    }
    # a show with the cards mucked is no open show
    mucked = make_hand(
        [(1, "X", 1000), (2, "Y", 1000)],
        [("post", "X", "sb", 50), ("post", "Y", "bb", 100), ("call", "X", 0, 50),
         ("check", "Y", 0), ("draw", "Y", 1, 1), ("draw", "X", 1, 0), ("check", "Y", 1),
         ("check", "X", 1), ("show", "X", "7s5d4h3c2s"), ("show", "Y", "8c7d6s3d2h", True),
         ("collect", "X", 200)],
        button=1, game=Game.SINGLE_DRAW_27,
    )
    m = by_player(mucked)
    assert (m["X"].cards_shown, m["Y"].cards_shown) == (True, False)
    assert (m["Y"].final_cards, m["Y"].final_class) == ("8c7d6s3d2h", "8-low")


def test_all_in_marks_the_player_who_went_all_in_only() -> None:
    f = by_player(SHORT_ALL_IN_COMPLETED)
    assert {p: r.all_in for p, r in f.items()} == {"A": False, "S": False, "B": False, "U": True}
