"""The replayer's steps (analysis/replayer/steps.py): forced bets, sweeps, collects, settling."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from zoneinfo import ZoneInfo

from analysis.replayer.steps import FORCED_BETS, SETTLED, Units, hand_view
from engine.problems import STACK_CHANGE
from engine.record import Hand
from engine.replay import replay
from engine.verdict import Problem, Severity
from parser.reader import read_path
from tests.app_support import STARS_TRIPLE
from tests.engine.test_short_all_ins import COMPLETION, HALF_BET_RAISE, read_hand
from tests.paths import REPOSITORY

ROOT = REPOSITORY
SNG = ROOT / "sample_histories" / "pokerstars" / "27_triple_draw_fl_sit_and_go_6max.txt"
CASH = ROOT / "sample_histories" / "pokerstars" / "27_triple_draw_fl_0.10-0.20_6max.txt"


def hands_of(path: Path) -> list[Hand]:
    return [h for _, h in read_path(path) if isinstance(h, Hand)]


def one_hand(path: Path, hand_id: str) -> Hand:
    return next(h for h in hands_of(path) if h.hand_id == hand_id)


def test_step_zero_shows_the_forced_bets_and_their_pot() -> None:
    [hand] = hands_of(STARS_TRIPLE)  # Hero posts the small blind 0.05, Player2 the big 0.10
    view = hand_view(hand)
    first = view.steps[0]
    assert (first.index, first.street, first.text) == (0, "blinds", FORCED_BETS)
    assert first.pot == 15
    assert {s.player: s.bet for s in first.seats} == {
        "Player1": 0, "Hero": 5, "Player2": 10, "Player3": 0, "Player4": 0}
    assert [(p.name, p.amount, len(p.eligible)) for p in first.pots] == [("main", 15, 5)]
    assert view.steps[1].text == "Player3 calls 0.10"
    assert replay(hand, views=True).states[0].pot == 0  # what the engine's first view holds


def test_bets_are_swept_when_the_round_closes_and_streets_follow_the_record() -> None:
    [hand] = hands_of(STARS_TRIPLE)
    steps = hand_view(hand).steps
    closing = steps[5]  # Player2's check closes the betting before the first draw
    assert (closing.text, closing.street, closing.pot) == ("Player2 checks", "pre-draw", 35)
    assert all(s.bet == 0 for s in closing.seats)
    assert [s.street for s in steps[6:9]] == ["draw 1"] * 3
    assert steps[11].seat("Player1").bet == 10  # type: ignore[union-attr]


def test_the_collect_pays_the_winner_and_the_last_step_settles_the_pots() -> None:
    hand = one_hand(SNG, "220001120265")  # level IX, sevenfive2 all-in wins 640, Hero folds
    view = hand_view(hand)
    collect = next(s for s in view.steps if s.text == "sevenfive2 collects 640")
    sevenfive2 = collect.seat("sevenfive2")
    assert sevenfive2 is not None
    assert (sevenfive2.stack, sevenfive2.collected, sevenfive2.winner) == (64000, 64000, True)
    assert collect.pot == 0
    last = view.steps[-1]
    assert last.index == len(view.steps) - 1 == collect.index + 1
    assert last.text == f"{SETTLED}: main pot 640 to sevenfive2"
    assert {s.player: s.stack for s in last.seats} == {  # the stacks hand ...266 starts from
        "Hero": 414000, "sevenfive2": 64000, "RazzleDazzle2": 422000}
    assert all(s.bet == 0 for s in last.seats)
    assert [(p.name, p.amount, p.eligible, p.winners) for p in last.pots] == [
        ("main", 64000, ("sevenfive2", "RazzleDazzle2"), ("sevenfive2",))]
    assert [s.player for s in last.seats if s.winner] == ["sevenfive2"]


def test_every_hand_ends_with_the_stacks_the_next_hand_starts_from() -> None:
    hands = hands_of(CASH)[:120]
    checked = 0
    for hand, following in pairwise(hands):
        last = hand_view(hand).steps[-1]
        final = replay(hand).final
        assert {s.player: s.stack for s in last.seats} == {
            s.player: final[s.player] for s in last.seats}
        for seat in following.seats:
            ended = last.seat(seat.player)
            if ended is not None and following.table == hand.table:
                assert ended.stack == seat.stack, (hand.hand_id, seat.player)
                checked += 1
    assert checked > 300


def test_the_rake_leaves_the_pot_empty_and_is_named_apart() -> None:
    [hand] = hands_of(STARS_TRIPLE)
    steps = hand_view(hand).steps
    assert steps[-2].text == "Player1 collects 1.29"
    assert steps[-2].seat("Player1").stack == 505  # type: ignore[union-attr]
    assert (steps[-1].text, steps[-1].pot, steps[-1].rake) == (
        f"{SETTLED}: main pot 1.35 to Player1; rake 0.06", 0, 6)


def test_problems_no_step_shows_are_listed_once() -> None:
    [hand] = hands_of(STARS_TRIPLE)
    between = Problem(STACK_CHANGE, Severity.WARNING, 3, "Hero's stack grew by 1.00")
    view = hand_view(hand, (between, between))
    assert view.unplaced == (between,)
    shown = [p for s in view.steps for p in s.problems]
    assert shown == list(view.verdict.problems)  # a clean hand: nothing at any step


def test_the_header_names_game_limit_stakes_table_and_tournament() -> None:
    header = hand_view(one_hand(SNG, "220001120265")).header
    assert header.lines() == [
        "Hand #220001120265 · pokerstars · 2-7 Triple Draw · Fixed limit · 300/600 chips",
        "Table 2200011206 1 (6-max, 3 players dealt in, button seat 1)",
        "Tournament #2200011206, level IX",
        "2026-03-02 07:26:04 UTC",  # written "7:26:04 UTC [2026/03/02 2:26:04 ET]"
    ]
    eastern = hand_view(one_hand(SNG, "220001120265"), zone=ZoneInfo("America/New_York"))
    assert eastern.header.time == "2026-03-02 02:26:04 EST"
    [cash] = hands_of(STARS_TRIPLE)
    assert hand_view(cash).header.stakes == "0.10/0.20 USD"


def test_chips_are_whole_and_money_has_cents() -> None:
    chips, dollars = Units(True, "chips"), Units(False, "USD")
    assert (chips.text(526000), chips.plain(526000), chips.name) == ("5,260", "5260", "chips")
    assert (chips.text(50), dollars.text(-123450)) == ("0.50", "-1,234.50")
    assert (dollars.plain(526000), dollars.plain(10), dollars.name) == ("5260.00", "0.10", "USD")


def test_the_completion_of_a_short_all_in_is_shown_as_such() -> None:
    texts = [s.text for s in hand_view(read_hand(COMPLETION)).steps]
    at = texts.index("Ann bets 50")
    assert texts[at : at + 3] == ["Ann bets 50", "Bob completes to 300", "Cat raises to 600"]
    # after an all-in raise of half a bet, the raise to the level it would have made
    texts = [s.text for s in hand_view(read_hand(HALF_BET_RAISE)).steps]
    assert texts[1:6] == [
        "Dan raises to 120",
        "Ann raises to 150",
        "Bob folds",
        "Cat calls 90",
        "Dan completes to 180",
    ]
