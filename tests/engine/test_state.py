"""The table state machine: turns, legal sizes, cap, all-ins, uncalled bets, draws and the deck."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.problems import (
    BAD_AMOUNT,
    BAD_BLIND,
    BAD_DRAW,
    CAP_EXCEEDED,
    ILLEGAL_ACTION,
    OUT_OF_TURN,
    STACK_MISMATCH,
)
from engine.record import ActionKind, Game, PostKind, Stakes, Structure
from engine.rules import home_five_card_draw, rules_for
from engine.state import HandState, Phase

FOLD, CHECK, CALL, BET, RAISE = (
    ActionKind.FOLD,
    ActionKind.CHECK,
    ActionKind.CALL,
    ActionKind.BET,
    ActionKind.RAISE,
)
LIMIT = Stakes(5, 10, 10, 20)  # $0.05/$0.10 blinds, $0.10/$0.20 bets
NL = Stakes(50, 100, 100, 100)


def table(
    n: int,
    *,
    game: Game = Game.TRIPLE_DRAW_27,
    structure: Structure = Structure.FIXED,
    stakes: Stakes = LIMIT,
    stacks: list[int] | None = None,
    button: int = 1,
    blinds: bool = True,
    **settings_: bool,
) -> HandState:
    """Players A, B, C... on seats 1.. with the blinds posted left of the button."""
    names = [chr(ord("A") + i) for i in range(n)]
    chips = stacks or [1000] * n
    hs = HandState(
        rules_for(game, structure),
        stakes,
        [(i + 1, p, chips[i]) for i, p in enumerate(names)],
        button,
        **settings_,
    )
    if blinds:
        sb, bb = (hs.order[1], hs.order[0]) if n == 2 else (hs.order[0], hs.order[1])
        hs.apply_post(sb, PostKind.SMALL_BLIND, min(stakes.small_blind, hs.stack[sb]))
        hs.apply_post(bb, PostKind.BIG_BLIND, min(stakes.big_blind, hs.stack[bb]))
    hs.deal()
    return hs


def play(hs: HandState, *moves: tuple[str, ActionKind, int]) -> None:
    for player, kind, amount in moves:
        assert hs.check_action(player, kind, amount) == [], (player, kind, amount)
        hs.apply_action(player, kind, amount)


def codes(findings: list) -> list[str]:  # type: ignore[type-arg]
    return [f.code for f in findings]


def test_first_round_starts_left_of_the_big_blind_and_later_rounds_left_of_the_button() -> None:
    hs = table(5, button=1)  # B small blind, C big blind
    assert hs.order == ("B", "C", "D", "E", "A")
    assert hs.to_act == "D"
    play(hs, ("D", CALL, 10), ("E", FOLD, 0), ("A", CALL, 10), ("B", CALL, 5))
    assert hs.to_act == "C"  # the big blind has the option
    legal = hs.legal_actions()
    assert legal is not None and legal.can_check and legal.aggressive is RAISE
    play(hs, ("C", CHECK, 0))
    assert hs.phase is Phase.DRAW
    assert [hs.draw_turn().player for _ in range(1)] == ["B"]  # type: ignore[union-attr]
    for p in ("B", "C", "D", "A"):
        hs.apply_draw(p, 2)
    assert (hs.phase, hs.street, hs.to_act) == (Phase.BETTING, 1, "B")


def test_heads_up_the_button_posts_the_small_blind_acts_first_then_last() -> None:
    hs = table(2, button=2)
    assert hs.order == ("A", "B")
    assert hs.street_bet == {"A": 10, "B": 5}
    assert hs.to_act == "B"
    play(hs, ("B", CALL, 5), ("A", CHECK, 0))
    hs.apply_draw("A", 1)
    hs.apply_draw("B", 3)
    assert hs.to_act == "A"


def test_fixed_limit_sizes_small_then_big_bets() -> None:
    hs = table(3)
    legal = hs.legal_actions()
    assert legal is not None
    assert (legal.call, legal.min_to, legal.max_to) == (10, 20, 20)
    assert codes(hs.check_action("A", RAISE, 15)) == [BAD_AMOUNT]
    assert codes(hs.check_action("A", CALL, 5)) == [BAD_AMOUNT]
    play(hs, ("A", CALL, 10), ("B", CALL, 5), ("C", CHECK, 0))
    for p in ("B", "C", "A"):
        hs.apply_draw(p, 1)
    play(hs, ("B", CHECK, 0), ("C", CHECK, 0), ("A", CHECK, 0))
    for p in ("B", "C", "A"):
        hs.apply_draw(p, 1)
    legal = hs.legal_actions()
    assert legal is not None and (legal.aggressive, legal.min_to) == (BET, 20)
    assert codes(hs.check_action("B", BET, 10)) == [BAD_AMOUNT]


def test_the_cap_is_a_bet_and_three_raises() -> None:
    hs = table(3)
    play(hs, ("A", RAISE, 20), ("B", RAISE, 25), ("C", RAISE, 30))  # 10, 20, 30, 40: capped
    legal = hs.legal_actions()
    assert legal is not None and legal.aggressive is None and legal.call == 20
    assert codes(hs.check_action("A", RAISE, 30)) == [CAP_EXCEEDED]


def test_heads_up_cap_is_a_site_setting() -> None:
    capped = table(2, button=2)
    play(capped, ("B", RAISE, 15), ("A", RAISE, 20), ("B", RAISE, 20))
    assert codes(capped.check_action("A", RAISE, 20)) == [CAP_EXCEEDED]
    free = table(2, button=2, cap_heads_up=False)
    play(free, ("B", RAISE, 15), ("A", RAISE, 20), ("B", RAISE, 20), ("A", RAISE, 20))
    assert free.current_bet == 50


def test_an_all_in_raise_of_less_than_half_a_bet_does_not_reopen_fixed_limit_betting() -> None:
    hs = table(3, stacks=[1000, 1000, 14])  # C, the big blind, has 4 behind: under half of 10
    assert codes(hs.check_action("A", RAISE, 25)) == [BAD_AMOUNT]  # over one bet
    play(hs, ("A", CALL, 10), ("B", CALL, 5), ("C", RAISE, 4))
    assert hs.current_bet == 14 and "C" in hs.all_in and hs.bets == 1
    legal = hs.legal_actions()
    assert legal is not None and legal.player == "A" and legal.aggressive is None
    assert legal.call == 4
    assert codes(hs.check_action("A", RAISE, 10)) == [ILLEGAL_ACTION]
    # a site whose histories show no half-bet rule: 8 of 10 reopens nothing either
    strict = table(3, stacks=[1000, 1000, 18], casino_short_all_ins=False)
    play(strict, ("A", CALL, 10), ("B", CALL, 5), ("C", RAISE, 8))
    assert codes(strict.check_action("A", RAISE, 10)) == [ILLEGAL_ACTION]


def test_an_all_in_raise_of_half_a_bet_counts_as_a_full_raise_to_the_level_it_fell_short_of() -> (
    None
):
    hs = table(3, stacks=[1000, 1000, 18])  # C, the big blind, raises all-in 8 to 18
    play(hs, ("A", CALL, 10), ("B", CALL, 5), ("C", RAISE, 8))
    assert (hs.current_bet, hs.bets, hs.aggressor) == (18, 2, "C")
    legal = hs.legal_actions()
    assert legal is not None and legal.player == "A" and legal.aggressive is RAISE
    assert (legal.call, legal.min_to, legal.max_to) == (8, 20, 20)
    assert hs.check_action("A", RAISE, 10) == []  # to 20, the level C's raise would have made
    assert codes(hs.check_action("A", RAISE, 18)) == [BAD_AMOUNT]  # to 28: one bet above 18
    play(hs, ("A", RAISE, 10))
    assert (hs.current_bet, hs.bets) == (20, 2)  # the level was counted once, by C's all-in
    legal = hs.legal_actions()
    assert legal is not None and legal.player == "B" and (legal.min_to, legal.call) == (30, 10)


def test_no_limit_minimum_raise_is_the_last_raise_and_all_in_for_less_is_allowed() -> None:
    hs = table(3, structure=Structure.NO_LIMIT, stakes=NL, stacks=[5000, 5000, 600])
    play(hs, ("A", RAISE, 300))  # to 300: a raise of 200
    legal = hs.legal_actions()
    assert legal is not None and (legal.min_to, legal.max_to) == (500, 5000)
    assert codes(hs.check_action("B", RAISE, 350)) == [BAD_AMOUNT]  # to 400
    play(hs, ("B", RAISE, 650))  # to 700
    assert hs.check_action("C", CALL, 500) == []  # all-in to 600: a call for less
    assert codes(hs.check_action("C", CALL, 400)) == [BAD_AMOUNT]
    assert codes(hs.check_action("C", RAISE, 700)) == [STACK_MISMATCH]


def test_pot_limit_maximum_is_the_pot_after_the_call() -> None:
    hs = table(3, structure=Structure.POT, stakes=NL, stacks=[5000] * 3)
    legal = hs.legal_actions()
    assert legal is not None and (legal.min_to, legal.max_to) == (200, 350)
    assert codes(hs.check_action("A", RAISE, 400)) == [BAD_AMOUNT]
    play(hs, ("A", RAISE, 350), ("B", CALL, 300), ("C", CALL, 250))
    for p in ("B", "C", "A"):
        hs.apply_draw(p, 0)
    legal = hs.legal_actions()
    assert legal is not None and (legal.aggressive, legal.min_to, legal.max_to) == (BET, 100, 1050)


def test_out_of_turn_and_checking_into_a_bet_are_reported_without_changing_anything() -> None:
    hs = table(3)
    assert codes(hs.check_action("B", CALL, 5)) == [OUT_OF_TURN]
    assert codes(hs.check_action("A", CHECK, 0)) == [ILLEGAL_ACTION]
    assert hs.to_act == "A" and hs.pot == 15


def test_a_bet_nobody_calls_goes_back_to_its_owner() -> None:
    hs = table(3)
    play(hs, ("A", RAISE, 20), ("B", FOLD, 0), ("C", FOLD, 0))
    assert hs.phase is Phase.WON
    assert hs.returned == {"A": 10, "B": 0, "C": 0}
    assert hs.total == {"A": 10, "B": 5, "C": 10}
    assert hs.stack["A"] == 990


def test_blinds_from_the_wrong_seat_or_of_the_wrong_size() -> None:
    hs = HandState(
        rules_for(Game.TRIPLE_DRAW_27, Structure.FIXED),
        LIMIT,
        [(1, "A", 500), (2, "B", 500), (3, "C", 500)],
        1,
    )
    assert codes(hs.check_post("C", PostKind.SMALL_BLIND, 5)) == [BAD_BLIND]
    assert codes(hs.check_post("B", PostKind.SMALL_BLIND, 10)) == [BAD_BLIND]
    hs.apply_post("B", PostKind.SMALL_BLIND, 5)
    assert codes(hs.check_post("A", PostKind.BIG_BLIND, 10)) == [BAD_BLIND]
    assert hs.check_post("C", PostKind.BIG_BLIND, 10) == []


def test_draws_go_clockwise_from_the_button_and_are_limited() -> None:
    hs = table(3)
    play(hs, ("A", CALL, 10), ("B", CALL, 5), ("C", CHECK, 0))
    assert codes(hs.check_draw("C", 1)) == [OUT_OF_TURN]
    assert codes(hs.check_draw("B", 6)) == [BAD_DRAW]
    hs.apply_draw("B", 5)
    assert codes(hs.check_draw("B", 1)) == [BAD_DRAW]  # twice in one draw


def test_the_stub_runs_out_and_the_earlier_discards_are_shuffled_in() -> None:
    hs = table(6)
    play(hs, *[(p, CALL, 10) for p in "DEFA"], ("B", CALL, 5), ("C", CHECK, 0))
    assert hs.stub == 22
    reshuffled = [hs.apply_draw(p, 5) for p in ("B", "C", "D", "E", "F")]
    assert reshuffled == [False, False, False, False, True]
    assert (hs.stub, hs.pile, hs.reshuffles) == (17, 5, 1)  # 20 old discards less 3 dealt


def test_a_draw_the_deck_cannot_give() -> None:
    hs = table(10)  # 50 cards dealt, a stub of 2 and no discards yet
    play(hs, *[(p, CALL, 10) for p in "DEFGHIJA"], ("B", CALL, 5), ("C", CHECK, 0))
    assert hs.check_draw("B", 2) == []
    assert codes(hs.check_draw("B", 3)) == [BAD_DRAW]


def test_jacks_or_better_nobody_opens_the_hand_is_dead() -> None:
    hs = HandState(
        home_five_card_draw(), Stakes(0, 0, 10, 20, ante=5), [(1, "A", 100), (2, "B", 100)], 1
    )
    for p in ("A", "B"):
        hs.apply_post(p, PostKind.ANTE, 5)
    hs.deal()
    assert hs.to_act == "B"
    play(hs, ("B", CHECK, 0), ("A", CHECK, 0))
    assert hs.phase is Phase.DEAD and hs.pot == 10


def _random_play(hs: HandState, rng: random.Random) -> None:
    """Drive the machine with random legal choices, checking each one is judged legal."""
    for _ in range(500):
        if hs.phase is Phase.DRAW:
            turn = hs.draw_turn()
            assert turn is not None
            count = rng.randint(0, turn.limit)
            assert hs.check_draw(turn.player, count) == []
            hs.apply_draw(turn.player, count)
            continue
        legal = hs.legal_actions()
        if legal is None:
            return
        choices: list[tuple[ActionKind, int]] = [(FOLD, 0)]
        choices.append((CHECK, 0) if legal.can_check else (CALL, legal.call))
        if legal.aggressive is not None:
            to = rng.randint(legal.min_to, legal.max_to)
            if rng.random() < 0.2 and legal.all_in_to <= legal.max_to:
                to = legal.all_in_to
            choices.append((legal.aggressive, to - hs.street_bet[legal.player]))
        kind, amount = rng.choice(choices)
        assert hs.check_action(legal.player, kind, amount) == [], (legal, kind, amount)
        hs.apply_action(legal.player, kind, amount)
    raise AssertionError("the hand never ended")


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(2, 6),
    game=st.sampled_from(list(Game)),
    structure=st.sampled_from(list(Structure)),
    stacks=st.lists(st.integers(1, 600), min_size=6, max_size=6),
    seed=st.integers(0, 2**32),
)
def test_random_legal_play_ends_and_keeps_every_chip(
    n: int, game: Game, structure: Structure, stacks: list[int], seed: int
) -> None:
    stakes = LIMIT if structure is Structure.FIXED else Stakes(5, 10, 10, 10)
    chips = [s * 5 for s in stacks[:n]]
    hs = HandState(
        rules_for(game, structure),
        stakes,
        [(i + 1, chr(65 + i), c) for i, c in enumerate(chips)],
        n,
    )
    sb, bb = (hs.order[1], hs.order[0]) if n == 2 else (hs.order[0], hs.order[1])
    hs.apply_post(sb, PostKind.SMALL_BLIND, min(stakes.small_blind, hs.stack[sb]))
    hs.apply_post(bb, PostKind.BIG_BLIND, min(stakes.big_blind, hs.stack[bb]))
    hs.deal()
    _random_play(hs, random.Random(seed))
    assert hs.phase in (Phase.SHOWDOWN, Phase.WON)
    assert sum(hs.stack.values()) + hs.pot == sum(chips)
    assert all(v >= 0 for v in hs.stack.values())
    live_levels = [hs.total[p] - hs.dead[p] for p in hs.order]
    top = sorted(live_levels)[-2:]
    assert len(top) < 2 or top[0] == top[1]  # nothing unmatched is left in the pot


def test_a_big_blind_all_in_for_less_may_be_called_for_what_it_holds_or_in_full() -> None:
    hs = table(3, stacks=[1000, 1000, 6])  # C can post only 6 of the 10
    assert "C" in hs.all_in and hs.stack["C"] == 0
    legal = hs.legal_actions()
    assert legal is not None and legal.player == "A" and legal.call == 6
    assert hs.check_action("A", CALL, 6) == []
    assert hs.check_action("A", CALL, 10) == []  # the sites that want a full blind
    assert codes(hs.check_action("A", CALL, 8)) == [BAD_AMOUNT]
    play(hs, ("A", CALL, 10))
    legal = hs.legal_actions()
    assert legal is not None and legal.player == "B" and legal.call == 5


def test_a_fixed_limit_small_blind_may_be_rounded_the_site_s_way() -> None:
    stakes = Stakes(12, 25, 25, 50)  # a $0.25/$0.50 header: half a small bet is 12.5
    hs = HandState(
        rules_for(Game.TRIPLE_DRAW_27, Structure.FIXED),
        stakes,
        [(1, "A", 500), (2, "B", 500), (3, "C", 500)],
        1,
    )
    assert hs.check_post("B", PostKind.SMALL_BLIND, 10) == []
    assert hs.check_post("B", PostKind.SMALL_BLIND, 15) == []
    assert codes(hs.check_post("B", PostKind.SMALL_BLIND, 25)) == [BAD_BLIND]
    assert codes(hs.check_post("B", PostKind.SMALL_BLIND, 5)) == [BAD_BLIND]


def _snapshot(hs: HandState) -> dict[str, object]:
    """Every field of the state, copied deep enough to see any change a check could make."""
    import copy

    # a compiled class names its fields in ``__mypyc_attrs__``, a Python one in ``__slots__``
    names = getattr(HandState, "__mypyc_attrs__", None) or HandState.__slots__
    return {name: copy.deepcopy(getattr(hs, name)) for name in names}


def test_checks_change_nothing_and_the_deal_is_a_step_of_its_own() -> None:
    hs = HandState(rules_for(Game.TRIPLE_DRAW_27, Structure.FIXED), LIMIT,
                   [(1, "A", 1000), (2, "B", 1000), (3, "C", 1000)], 1)
    hs.apply_post("B", PostKind.SMALL_BLIND, 5)
    hs.apply_post("C", PostKind.BIG_BLIND, 10)
    before = _snapshot(hs)
    assert [f.message for f in hs.check_action("A", CALL, 10)] == [
        "A calls before the cards are dealt"
    ]
    assert [f.message for f in hs.check_draw("A", 2)] == [
        "A draws when no draw is being dealt"
    ]
    assert codes(hs.check_post("A", PostKind.BIG_BLIND, 20)) == [BAD_BLIND]
    assert _snapshot(hs) == before and hs.phase is Phase.DEAL
    hs.deal()
    assert (hs.phase, hs.to_act, hs.stub) == (Phase.BETTING, "A", 37)
    dealt = _snapshot(hs)
    assert hs.check_action("A", CALL, 10) == []
    assert codes(hs.check_action("B", RAISE, 25)) == [OUT_OF_TURN, BAD_AMOUNT]
    assert codes(hs.check_draw("A", 2)) == [ILLEGAL_ACTION]
    assert _snapshot(hs) == dealt
    play(hs, ("A", CALL, 10), ("B", CALL, 5), ("C", CHECK, 0))
    in_draw = _snapshot(hs)
    assert codes(hs.check_draw("C", 6)) == [OUT_OF_TURN, BAD_DRAW]
    assert codes(hs.check_action("A", BET, 10)) == [ILLEGAL_ACTION]
    assert _snapshot(hs) == in_draw


def _order(seats: list[tuple[int, str, int]], button: int | None, small: str | None) -> tuple:
    rules = rules_for(Game.TRIPLE_DRAW_27, Structure.FIXED)
    return HandState(rules, LIMIT, seats, button, small_blind_player=small).order


def test_position_order_starts_left_of_the_button_whatever_order_the_seats_come_in() -> None:
    seats = [(6, "F", 100), (2, "B", 100), (9, "I", 100), (4, "D", 100)]
    assert _order(seats, 4, None) == ("F", "I", "B", "D")
    assert _order(seats, 5, None) == ("F", "I", "B", "D")  # a dead button on an empty seat
    assert _order(seats, 9, None) == ("B", "D", "F", "I")
    assert _order(seats, 1, None) == ("B", "D", "F", "I")


def test_position_order_without_a_button_follows_the_small_blind_or_the_seats() -> None:
    seats = [(6, "F", 100), (2, "B", 100), (9, "I", 100)]
    assert _order(seats, None, "F") == ("F", "I", "B")
    assert _order(seats, None, "Z") == ("B", "F", "I")  # a small blind not dealt in
    assert _order(seats, None, None) == ("B", "F", "I")
    assert _order([(6, "F", 100), (2, "B", 100)], None, "F") == ("B", "F")  # heads-up: SB last
