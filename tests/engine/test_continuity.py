"""Stacks carried from hand to hand at one table: exact in tournaments, top-ups warned in cash."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from engine.continuity import ContinuityTracker, check_continuity, table_key
from engine.problems import HAND_MISSING, STACK_CHANGE, STACK_MISMATCH
from engine.record import Game, Hand, Tournament
from engine.replay import replay
from engine.sim.dealer import deal_hands
from engine.verdict import Severity


def _session() -> list[Hand]:
    return list(deal_hands(30, Game.TRIPLE_DRAW_27, 4, seed=3))


def _restack(hand: Hand, player: str, delta: int) -> Hand:
    seats = tuple(
        replace(s, stack=s.stack + delta) if s.player == player else s for s in hand.seats
    )
    return replace(hand, seats=seats)


def test_a_dealt_session_carries_every_stack_over() -> None:
    hands = _session()
    assert len({h.table for h in hands}) == 1
    assert check_continuity(hands) == {}


def test_a_cash_top_up_is_a_warning_and_a_lost_chip_an_error() -> None:
    hands = _session()
    player = hands[10].seats[0].player
    line = hands[10].seats[0].line
    up = [*hands[:10], _restack(hands[10], player, 500), *hands[11:]]
    found = check_continuity(up)
    key = (hands[10].site, hands[10].hand_id)
    after = (hands[11].site, hands[11].hand_id)  # the next hand starts below the topped-up end
    assert set(found) == {key, after}
    assert [p.code for p in found[after]] == [STACK_MISMATCH]
    (problem,) = found[key]
    assert (problem.code, problem.severity, problem.line) == (STACK_CHANGE, Severity.WARNING, line)
    assert "top-up or rebuy of 5" in problem.message
    down = [*hands[:10], _restack(hands[10], player, -1), *hands[11:]]
    (problem,) = check_continuity(down)[key]
    assert (problem.code, problem.severity) == (STACK_MISMATCH, Severity.ERROR)


def test_in_a_tournament_any_difference_is_an_error() -> None:
    tour = Tournament("77")
    hands = [replace(h, tournament=tour) for h in _session()]
    player = hands[5].seats[1].player
    up = [*hands[:5], _restack(hands[5], player, 100), *hands[6:]]
    (problem,) = check_continuity(up)[(hands[5].site, hands[5].hand_id)]
    assert (problem.code, problem.severity) == (STACK_MISMATCH, Severity.ERROR)


def test_hands_far_apart_or_in_other_files_are_not_compared() -> None:
    hands = _session()
    player = hands[10].seats[0].player
    later = replace(_restack(hands[10], player, -300), time=hands[9].time + timedelta(hours=1))
    assert (hands[10].site, hands[10].hand_id) not in check_continuity([*hands[:10], later])
    elsewhere = replace(_restack(hands[10], player, -300), file="other.txt")
    assert check_continuity([*hands[:10], elsewhere]) == {}


def test_the_order_given_does_not_matter_times_do() -> None:
    hands = _session()
    assert check_continuity(list(reversed(hands))) == {}


def _numbered(hands: list[Hand]) -> list[Hand]:
    """The hands as one file holds them, 20 lines each."""
    return [replace(h, file="s.txt", line=1 + 20 * i) for i, h in enumerate(hands)]


def _fed(tracker: ContinuityTracker, hands: list[Hand]) -> list[tuple[str, ...]]:
    out = []
    for hand in hands:
        final = replay(hand).final
        out.append(tuple(p.code for p in tracker.feed(hand, final)))
    return out


def test_a_break_in_a_file_ends_every_chain_across_its_line_and_no_other() -> None:
    hands = _numbered(_session()[:4])
    player = hands[2].seats[0].player
    hands[2] = _restack(hands[2], player, -1)  # hand 3 starts a chip short, hand 4 one up
    broken = [(), (), (STACK_MISMATCH,), (STACK_CHANGE,)]
    assert _fed(ContinuityTracker(), hands) == broken
    tracker = ContinuityTracker()
    tracker.break_chains("s.txt", 30)  # a failed hand between hand 2 (line 21) and 3 (41)
    assert _fed(tracker, hands) == [(), (), (), (STACK_CHANGE,)]
    tracker = ContinuityTracker()
    tracker.break_chains("s.txt", 50)  # between hand 3 and 4
    assert _fed(tracker, hands) == [(), (), (STACK_MISMATCH,), ()]
    elsewhere = ContinuityTracker()
    elsewhere.break_chains("other.txt", 30)  # another file's failed hand says nothing here
    elsewhere.break_chains("s.txt", 70)  # nor one after the last hand
    assert _fed(elsewhere, hands) == broken


def test_a_break_of_one_table_leaves_the_other_tables_chains() -> None:
    hands = _numbered(_session()[:4])
    hands[2] = _restack(hands[2], hands[2].seats[0].player, -1)
    tracker = ContinuityTracker()
    tracker.break_chains("s.txt", 30, key=("s.txt", hands[0].site, "", "another table"))
    assert _fed(tracker, hands) == [(), (), (STACK_MISMATCH,), (STACK_CHANGE,)]
    tracker = ContinuityTracker()
    tracker.break_chains("s.txt", 30, key=table_key(hands[0]))
    assert _fed(tracker, hands) == [(), (), (), (STACK_CHANGE,)]



def _tournament_session() -> list[Hand]:
    tour = Tournament("77")
    return [replace(h, tournament=tour) for h in _session()]


def _changed_across(hands: list[Hand], k: int) -> list[str]:
    """The players whose stacks after hand k-1 differ from their stacks in hand k+1."""
    final = replay(hands[k - 1]).final
    return [s.player for s in hands[k + 1].seats if final.get(s.player, s.stack) != s.stack]


def _same_players(hands: list[Hand], k: int) -> bool:
    seats = [{(s.seat, s.player) for s in hands[j].seats} for j in (k - 1, k, k + 1)]
    return seats[0] == seats[1] == seats[2]


def test_a_hand_missing_from_a_tournament_file_is_one_warning_on_the_chain() -> None:
    hands = _tournament_session()
    k = next(
        k for k in range(5, len(hands) - 1) if _same_players(hands, k) and _changed_across(hands, k)
    )
    before, gone, later = hands[k - 1], hands[k], hands[k + 1]
    changed = len(_changed_across(hands, k))
    found = check_continuity([*hands[:k], *hands[k + 1 :]])
    assert list(found) == [(later.site, later.hand_id)]
    (problem,) = found[(later.site, later.hand_id)]
    assert (problem.code, problem.severity, problem.line) == (
        HAND_MISSING,
        Severity.WARNING,
        later.line,
    )
    assert problem.message.startswith(
        f"a hand is missing between hands {before.hand_id} and {later.hand_id}: the button "
        f"moved from seat {before.button} to seat {later.button}, past seat {gone.button} "
        "dealt in both, "
    )
    plural = "s" if changed > 1 else ""
    assert problem.message.endswith(f"and {changed} stack{plural} changed in between")
    assert " apart, " in problem.message
    # both hands keep their own verdicts
    assert replay(before).verdict.ok and replay(later).verdict.ok


def test_a_stack_change_without_a_skipped_button_is_still_an_error() -> None:
    hands = _tournament_session()
    k = next(
        k for k in range(5, len(hands) - 1) if _same_players(hands, k) and _changed_across(hands, k)
    )
    # the same gap, but the later hand's button where the missing hand had it: nothing
    # says a hand is missing, so each stack that changed is an error
    later = replace(hands[k + 1], button=hands[k].button)
    found = check_continuity([*hands[:k], later, *hands[k + 2 :]])
    codes = [p.code for p in found[(later.site, later.hand_id)]]
    assert codes == [STACK_MISMATCH] * len(_changed_across(hands, k))
