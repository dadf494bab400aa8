"""Hands corrupted on purpose: every problem code is reported, on the line where it happens."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

import engine.replay as replay_module
from engine import problems as P
from engine.record import (
    Action,
    Collect,
    Draw,
    Game,
    Hand,
    HouseRules,
    Post,
    PostKind,
    Seat,
    Show,
    Stakes,
    Structure,
    Uncalled,
)
from engine.replay import replay
from engine.sim.dealer import deal_hands
from engine.verdict import Problem, Severity
from parser.pokerstars_writer import write_pokerstars
from parser.reader import read_text
from tests.verify_hands import (
    BASE_STEPS,
    WALK,
    B,
    C,
    F,
    R,
    X,
    act,
    base_hand,
    draw,
    make_hand,
    show,
    with_step,
)


def found(hand: Hand) -> set[tuple[str, int]]:
    return {(p.code, p.line) for p in replay(hand).verdict.problems}


def test_the_clean_hands_verify_without_a_single_remark() -> None:
    assert replay(base_hand()).verdict.problems == ()
    assert replay(make_hand(WALK, rake=0, total_pot=10)).verdict.problems == ()


def _swap(a: int, b: int) -> list:  # type: ignore[type-arg]
    steps = list(BASE_STEPS)
    steps[a - 6], steps[b - 6] = steps[b - 6], steps[a - 6]
    return steps


def _cap() -> Hand:
    steps = [
        *BASE_STEPS[:2],
        act("A", 0, R, 20),  # 8: 2 bets
        act("B", 0, R, 25),  # 9: 3 bets
        act("C", 0, R, 30),  # 10: 4 bets, capped
        act("A", 0, R, 30),  # 11: a fifth
    ]
    return make_hand(steps, rake=None, total_pot=None)


def _ante() -> Hand:
    steps = [Post("A", PostKind.ANTE, 3, 0), Post("B", PostKind.ANTE, 2, 0)]
    steps += list(BASE_STEPS)
    stakes = Stakes(5, 10, 10, 20, ante=2)
    return make_hand(steps, stakes=stakes, rake=None, total_pot=None, first_line=4)


def _read_with(code: str, line: int, message: str) -> Hand:
    """The clean hand with one warning its reader left on it (``Hand.warnings``)."""
    return replace(base_hand(), warnings=(Problem(code, Severity.WARNING, line, message),))


def _undecided() -> Hand:
    steps = [s for i, s in enumerate(BASE_STEPS) if i + 6 not in (29, 30)]
    return make_hand(steps)


def _joker_shown() -> Hand:
    """C shows a joker at line 30 in a game dealt from 52 cards."""
    shown = BASE_STEPS[30 - 6]
    assert isinstance(shown, Show) and shown.player == "C"
    return make_hand(with_step(30, replace(shown, cards=(52, *shown.cards[1:]))))


def _dry_deck() -> tuple[Callable[[], Hand], int, Severity]:
    """A home hand at eight players with no replacement whose discards are shuffled a
    second time: the line written before the last drawer's discards."""
    house = HouseRules(no_replacement=True)
    for hand in deal_hands(200, Game.FIVE_CARD_DRAW, 8, 5, house=house):
        lines = write_pokerstars(hand).split("\n")
        if "The deck is reshuffled" not in lines:
            continue
        last = max(i for i, t in enumerate(lines) if ": discards " in t)
        if last < lines.index("The deck is reshuffled"):
            continue
        lines.insert(last, "The deck is reshuffled")
        text = "\n".join(lines)

        def build(text: str = text) -> Hand:
            return next(h for _, h in read_text(text, "x.txt") if isinstance(h, Hand))

        return build, last + 1, Severity.ERROR
    raise AssertionError("no hand whose deck was reshuffled")


def _replay_failed(monkeypatch: pytest.MonkeyPatch) -> Hand:
    """A hand whose replay meets a bug of the engine at its first action: the step's
    handler raises.  Swapped in the handlers' table, which the replay reads at run time
    compiled or not (a compiled class's method cannot be patched)."""
    def boom(*args: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setitem(replay_module._HANDLERS, Action, boom)
    return base_hand()


# code -> (the corrupted hand, the line the problem must be reported on, its severity)
CASES: dict[str, tuple[Callable[[], Hand], int, Severity]] = {
    P.OUT_OF_TURN: (lambda: make_hand(_swap(9, 10)), 9, Severity.ERROR),
    P.ILLEGAL_ACTION: (lambda: make_hand(with_step(18, act("C", 1, X))), 18, Severity.ERROR),
    P.BAD_AMOUNT: (lambda: make_hand(with_step(22, act("A", 2, B, 15))), 22, Severity.ERROR),
    P.CAP_EXCEEDED: (_cap, 11, Severity.ERROR),
    P.BAD_BLIND: (
        lambda: make_hand(with_step(6, Post("B", PostKind.SMALL_BLIND, 10, 0))),
        6,
        Severity.ERROR,
    ),
    P.BAD_ANTE: (_ante, 4, Severity.ERROR),
    P.BAD_BUTTON: (lambda: base_hand(button=9), 1, Severity.WARNING),
    P.MISSING_ACTION: (lambda: make_hand(with_step(18, None)), 18, Severity.ERROR),
    P.UNKNOWN_PLAYER: (lambda: make_hand(with_step(17, act("Ghost", 1, F))), 17, Severity.ERROR),
    P.BAD_DRAW: (lambda: make_hand(with_step(11, draw("B", 1, 6))), 11, Severity.ERROR),
    P.DUPLICATE_CARD: (
        lambda: make_hand(with_step(30, show("C", "8h 6h 4d 3d 2s"))),
        30,
        Severity.ERROR,
    ),
    P.SHOW_MISMATCH: (
        lambda: make_hand(with_step(29, show("A", "7s 5d 4h 3c 2d"))),
        29,
        Severity.ERROR,
    ),
    P.SHOWDOWN_ORDER: (lambda: make_hand(_swap(29, 30)), 29, Severity.WARNING),
    P.WRONG_WINNER: (
        lambda: make_hand(with_step(31, replace(BASE_STEPS[-1], player="C"))),
        31,
        Severity.ERROR,
    ),
    P.UNDECIDED: (_undecided, 29, Severity.WARNING),
    P.POT_MISMATCH: (lambda: base_hand(total_pot=190), 31, Severity.ERROR),
    P.UNCALLED_MISMATCH: (
        lambda: make_hand([*WALK[:4], Uncalled("C", 10, 0), *WALK[5:]], rake=0, total_pot=10),
        10,
        Severity.ERROR,
    ),
    P.COLLECT_MISMATCH: (
        lambda: make_hand(with_step(31, replace(BASE_STEPS[-1], amount=181))),
        31,
        Severity.ERROR,
    ),
    P.RAKE_MISMATCH: (
        lambda: base_hand(rake=10, net=(("A", 91), ("B", -20), ("C", -80))),
        31,
        Severity.ERROR,
    ),
    P.NET_MISMATCH: (
        lambda: base_hand(net=(("A", 91), ("B", -25), ("C", -80))),
        31,
        Severity.ERROR,
    ),
    P.STACK_MISMATCH: (lambda: base_hand(stacks=(1000, 12, 1000)), 9, Severity.ERROR),
    P.PAYOUT_UNSTATED: (  # a PHH file may leave the payouts out: the last step's line
        lambda: make_hand(with_step(31, None), site="phh", rake=None, total_pot=None),
        30,
        Severity.WARNING,
    ),
    P.RUN_IT_TWICE: (
        lambda: make_hand(with_step(12, draw("C", 1, 1, run=1))),
        12,
        Severity.ERROR,
    ),
    P.UNKNOWN_LINE: (  # a line the reader could not place, between two actions
        lambda: _read_with(P.UNKNOWN_LINE, 15, "line 15 not understood: 'C is feeling happy'"),
        15,
        Severity.WARNING,
    ),
    P.DRAW_INFERRED: (  # the hero's draw worked out from the cards before and after it
        lambda: _read_with(P.DRAW_INFERRED, 13, "A's draw is inferred from the new hand"),
        13,
        Severity.WARNING,
    ),
    P.NOT_IN_DECK: (_joker_shown, 30, Severity.ERROR),
    P.UP_CARD_MISMATCH: (  # a face-up card in a game that deals none (no shotgun)
        lambda: replace(base_hand(), up_cards=(("A", 0),)),
        1,
        Severity.ERROR,
    ),
    P.CARRIED_POT_MISMATCH: (  # a pot carried in at an online table, which carries none
        lambda: replace(base_hand(), carried=50),
        1,
        Severity.ERROR,
    ),
    P.DECK_EXHAUSTED: _dry_deck(),
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_corruption_is_reported_with_its_code_and_line(code: str) -> None:
    build, line, severity = CASES[code]
    verdict = replay(build()).verdict
    matching = [p for p in verdict.problems if p.code == code and p.line == line]
    assert matching, verdict.problems
    assert matching[0].severity is severity
    assert verdict.ok is (severity is Severity.WARNING and not verdict.errors)


def test_every_problem_code_has_a_corruption_test() -> None:
    # continuity tests (DEALER_MISMATCH: tests/engine/sim/test_home_variants.py,
    # HAND_MISSING: tests/engine/test_continuity.py); the crash test below
    elsewhere = {P.STACK_CHANGE, P.DEALER_MISMATCH, P.HAND_MISSING, P.REPLAY_FAILED}
    assert set(CASES) | elsewhere == set(P.CODES)


def test_a_failing_replay_is_reported_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    verdict = replay(_replay_failed(monkeypatch)).verdict
    assert [(p.code, p.line) for p in verdict.problems] == [(P.REPLAY_FAILED, 1)]
    assert "RuntimeError: a bug" in verdict.problems[0].message


def test_an_engine_failure_in_a_step_is_the_verdict_and_the_views_stop_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def boom(*args: object) -> None:
        raise RuntimeError("a draw bug")

    monkeypatch.setitem(replay_module._HANDLERS, Draw, boom)  # read at run time, compiled too
    hand = base_hand()
    first_draw = next(i for i, s in enumerate(hand.steps) if isinstance(s, Draw))
    result = replay(hand, views=True)
    assert [(p.code, p.line) for p in result.verdict.problems] == [(P.REPLAY_FAILED, 1)]
    assert "RuntimeError: a draw bug" in result.verdict.problems[0].message
    assert (result.final, result.pots) == ({}, ())
    # the forced bets' view, then one per step before the draw that failed
    assert [s.step for s in result.states] == list(range(-1, first_draw))


def test_out_of_turn_is_reported_once_and_the_rest_still_checked() -> None:
    problems = replay(make_hand(_swap(9, 10))).verdict.problems
    assert [(p.code, p.line) for p in problems] == [(P.OUT_OF_TURN, 9)]


def test_a_five_dollar_bet_at_ten_twenty_cents_is_flagged() -> None:
    hand = make_hand(with_step(15, act("C", 1, B, 500)), rake=None, total_pot=None)
    assert (P.BAD_AMOUNT, 15) in found(hand)


def test_a_discard_the_player_does_not_hold() -> None:
    hand = make_hand(with_step(13, draw("A", 1, 1, "Qd", "7s 5d 4h 3c", "2s")))
    problems = replay(hand).verdict.problems
    assert [(p.code, p.line) for p in problems] == [(P.BAD_DRAW, 13)]
    assert problems[0].message == "A discards Qd, not in their hand"


def test_a_card_thrown_comes_back_only_after_the_deck_ran_out() -> None:
    # C receives the king A threw in the first draw, with 42 cards still in the stub
    steps = with_step(19, draw("C", 2, 1, received="Kd"))
    problems = replay(make_hand(steps)).verdict.problems
    assert [(p.code, p.line) for p in problems] == [(P.DUPLICATE_CARD, 19)]
    assert "Kd received by C: thrown away by A" in problems[0].message


def test_pot_limit_overbet_and_no_limit_underraise() -> None:
    pl = Stakes(5, 10, 10, 10)
    steps = [
        Post("B", PostKind.SMALL_BLIND, 5, 0),  # 6
        Post("C", PostKind.BIG_BLIND, 10, 0),  # 7
        act("A", 0, R, 40),  # 8: the pot-limit maximum is 35
        act("B", 0, F),  # 9
        act("C", 0, F),  # 10
        Uncalled("A", 30, 0),  # 11
    ]
    hand = make_hand(steps, stakes=pl, structure=Structure.POT, rake=None, total_pot=None)
    assert (P.BAD_AMOUNT, 8) in found(hand)
    steps[2] = act("A", 0, R, 15)  # to 15: under the no-limit minimum of 20
    steps[5] = Uncalled("A", 5, 0)
    nl = make_hand(steps, stakes=pl, structure=Structure.NO_LIMIT, rake=None, total_pot=None)
    assert (P.BAD_AMOUNT, 8) in found(nl)


def test_a_split_pot_gives_the_odd_chip_to_the_first_winner_left_of_the_button() -> None:
    steps = [
        Post("A", PostKind.ANTE, 1, 0),  # 6: one chip that makes the pot odd
        Post("B", PostKind.SMALL_BLIND, 5, 0),  # 7
        Post("C", PostKind.BIG_BLIND, 10, 0),  # 8
        act("A", 0, F),  # 9
        act("B", 0, C, 5),  # 10
        act("C", 0, X),  # 11
        *[
            s
            for d in (1, 2, 3)
            for s in (draw("B", d, 0), draw("C", d, 0), act("B", d, X), act("C", d, X))
        ],
        show("B", "8s 6d 4h 3c 2s"),  # 24
        show("C", "8h 6c 4d 3d 2c"),  # 25
    ]
    pot = BASE_STEPS[-1]
    ok = make_hand(
        [*steps, replace(pot, player="B", amount=11), replace(pot, player="C", amount=10)],
        rake=0,
        total_pot=21,
        dealt=None,
    )
    assert replay(ok).verdict.problems == ()
    wrong = make_hand(
        [*steps, replace(pot, player="B", amount=10), replace(pot, player="C", amount=11)],
        rake=0,
        total_pot=21,
        dealt=None,
    )
    assert found(wrong) == {(P.COLLECT_MISMATCH, 26), (P.COLLECT_MISMATCH, 27)}


def test_side_pots_go_to_the_best_hand_that_reached_them() -> None:
    # C is all-in for 30; A and B go on and B wins the side pot, C the main pot
    steps = [
        Post("B", PostKind.SMALL_BLIND, 5, 0),
        Post("C", PostKind.BIG_BLIND, 10, 0),
        act("A", 0, R, 20),
        act("B", 0, C, 15),
        act("C", 0, C, 10),  # C has 10 behind after this
        draw("B", 1, 0),
        draw("C", 1, 0),
        draw("A", 1, 0),
        act("B", 1, B, 10),
        act("C", 1, C, 10),  # all-in
        act("A", 1, C, 10),
        draw("B", 2, 0),
        draw("C", 2, 0),
        draw("A", 2, 0),
        act("B", 2, B, 20),
        act("A", 2, C, 20),
        draw("B", 3, 0),
        draw("C", 3, 0),
        draw("A", 3, 0),
        act("B", 3, X),
        act("A", 3, X),
        show("B", "8s 6d 4h 3c 2s"),
        show("C", "7h 5c 4c 3s 2d"),
        show("A", "9h 6c 4d 3d 2c"),
    ]
    main, side = 90, 40
    good = [
        replace(BASE_STEPS[-1], player="C", amount=main, pot=0),
        replace(BASE_STEPS[-1], player="B", amount=side, pot=1),
    ]
    hand = make_hand(
        [*steps, *good], stacks=(1000, 1000, 30), rake=0, total_pot=130, dealt="9h 6c 4d 3d 2c"
    )
    assert replay(hand).verdict.problems == ()
    swapped = [replace(good[0], player="B"), replace(good[1], player="C")]
    bad = make_hand(
        [*steps, *swapped], stacks=(1000, 1000, 30), rake=0, total_pot=130, dealt="9h 6c 4d 3d 2c"
    )
    reported = {(p.code, p.line) for p in replay(bad).verdict.problems}
    assert (P.WRONG_WINNER, 30) in reported and (P.WRONG_WINNER, 31) in reported


def test_a_seat_line_for_a_player_who_never_plays_is_not_a_problem() -> None:
    hand = base_hand()
    seats = (*hand.seats, Seat(6, "Sleeper", 500, 5, sitting_out=True))
    assert replay(replace(hand, seats=seats)).verdict.problems == ()


def _home(steps: list, hero_cards: str = "Ac Kd 7s 4h 2c") -> Hand:  # type: ignore[type-arg]
    antes = [Post(p, PostKind.ANTE, 5, 0) for p in "ABC"]  # lines 6-8
    hand = make_hand(
        [*antes, *steps],
        site="home",
        game=Game.FIVE_CARD_DRAW,
        stakes=Stakes(0, 0, 10, 20, ante=5),
        dealt=hero_cards,
        rake=None,
        total_pot=None,
    )
    return replace(hand, hero="B")


def test_home_five_card_draw_a_hand_nobody_opens_is_dead_and_the_antes_stay() -> None:
    dead = _home([act("B", 0, X), act("C", 0, X), act("A", 0, X)])
    assert replay(dead).verdict.problems == ()
    paid = _home([act("B", 0, X), act("C", 0, X), act("A", 0, X), Collect("A", 15, 0)])
    assert found(paid) == {(P.COLLECT_MISMATCH, 12)}


def test_home_five_card_draw_openers_and_the_draw_limits() -> None:
    steps = [
        act("B", 0, X),  # 9
        act("C", 0, B, 10),  # 10
        act("A", 0, F),  # 11
        act("B", 0, C, 10),  # 12
        draw("B", 1, 4, "Kd 7s 4h 2c", "Ac", "3c 3d 9h 9s"),  # 13: four, keeping an ace
        draw("C", 1, 3),  # 14
        act("B", 1, X),  # 15
        act("C", 1, X),  # 16
        show("B", "Ac 3c 3d 9h 9s"),  # 17
        show("C", "Qs Qh 5d 6c 8h"),  # 18
        Collect("B", 35, 0),  # 19
    ]
    assert replay(_home(steps)).verdict.problems == ()
    four = list(steps)
    four[5] = draw("C", 1, 4)
    assert found(_home(four)) == {(P.BAD_DRAW, 14)}
    no_jacks = list(steps)
    no_jacks[0] = act("B", 0, B, 10)  # the hero opens with ace-king high
    no_jacks[1] = act("C", 0, C, 10)
    assert (P.ILLEGAL_ACTION, 9) in found(_home(no_jacks))


@pytest.mark.parametrize(
    ("site", "collect", "problems"),
    [
        ("pokerstars", [Uncalled("C", 5, 0), Collect("C", 10, 0)], set()),
        # a site of unknown habits may fold the returned bet into what is collected...
        ("somesite", [Collect("C", 15, 0)], set()),
        # ...or return it silently
        ("somesite", [Collect("C", 10, 0)], set()),
        # KingsClub returns it silently: counting it as collected is too much
        ("kingsclub", [Collect("C", 15, 0)], {(P.COLLECT_MISMATCH, 10)}),
        # PokerStars always writes the line: its absence is a warning only
        ("pokerstars", [Collect("C", 10, 0)], {(P.UNCALLED_MISMATCH, 10)}),
    ],
)
def test_how_a_site_reports_the_uncalled_bet_is_a_profile_setting(
    site: str,
    collect: list,
    problems: set[tuple[str, int]],  # type: ignore[type-arg]
) -> None:
    hand = make_hand([*WALK[:4], *collect], site=site, rake=0, total_pot=10)
    assert found(hand) == problems


def test_run_it_twice_each_run_wins_half_the_pot() -> None:
    nl = Stakes(5, 10, 10, 10)
    steps = [
        Post("B", PostKind.SMALL_BLIND, 5, 0),  # 6
        Post("C", PostKind.BIG_BLIND, 10, 0),  # 7
        act("A", 0, F),  # 8
        act("B", 0, R, 995),  # 9: all-in to 1,000
        act("C", 0, C, 990),  # 10: all-in
        draw("B", 1, 1, run=1),  # 11
        draw("B", 1, 1, run=2),  # 12
        draw("C", 1, 0),  # 13
        show("B", "7s 5d 4h 3c 2s", run=1),  # 14: B wins the first run
        show("B", "Ks 5d 4h 3c 2s", run=2),  # 15: and loses the second
        show("C", "8h 6c 4d 3d 2c"),  # 16
    ]
    pot = BASE_STEPS[-1]
    halves = [replace(pot, player="B", amount=1000), replace(pot, player="C", amount=1000)]
    hand = make_hand(
        [*steps, *halves],
        site="kingsclub",
        game=Game.SINGLE_DRAW_27,
        stakes=nl,
        structure=Structure.NO_LIMIT,
        rake=0,
        total_pot=2000,
        dealt=None,
    )
    assert replay(hand).verdict.problems == ()
    one_takes_all = make_hand(
        [*steps, replace(pot, player="B", amount=2000)],
        site="kingsclub",
        game=Game.SINGLE_DRAW_27,
        stakes=nl,
        structure=Structure.NO_LIMIT,
        rake=0,
        total_pot=2000,
        dealt=None,
    )
    assert found(one_takes_all) == {(P.COLLECT_MISMATCH, 17), (P.WRONG_WINNER, 17)}


def test_where_the_site_writes_no_rake_the_missing_chips_must_look_like_one() -> None:
    def hand(amount: int) -> Hand:
        steps = with_step(31, replace(BASE_STEPS[-1], amount=amount))
        return make_hand(steps, site="merge", rake=None, total_pot=None)

    assert replay(hand(171)).verdict.problems == ()  # 9 of 180 (5%) kept as rake
    assert replay(hand(162)).verdict.problems == ()  # 10%
    assert found(hand(150)) == {(P.COLLECT_MISMATCH, 31)}


def test_a_reading_warning_comes_first_in_the_verdict_and_the_hand_stays_ok() -> None:
    warning = Problem(P.UNKNOWN_LINE, Severity.WARNING, 15, "line 15 not understood: 'C waves'")
    verdict = replay(replace(base_hand(), warnings=(warning,))).verdict
    assert verdict.problems == (warning,)
    assert verdict.ok
