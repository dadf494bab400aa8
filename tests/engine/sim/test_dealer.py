"""Dealt hands: reproducible, legal under the state machine, every chip accounted for, stacks
carried from hand to hand, the button moving, and the deck running out when it must."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from engine.pots import clockwise_from_button
from engine.profiles import profile_for
from engine.record import (
    Action,
    ActionKind,
    Collect,
    Draw,
    Game,
    Hand,
    Muck,
    Post,
    PostKind,
    Show,
    Structure,
    Uncalled,
)
from engine.replay import replay
from engine.rules import rules_for
from engine.sim.dealer import deal_hands
from engine.state import HandState, Phase

GAMES = [
    (Game.TRIPLE_DRAW_27, Structure.FIXED),
    (Game.TRIPLE_DRAW_27, Structure.POT),
    (Game.SINGLE_DRAW_27, Structure.NO_LIMIT),
    (Game.TRIPLE_DRAW_A5, Structure.FIXED),
    (Game.SINGLE_DRAW_A5, Structure.FIXED),
    (Game.FIVE_CARD_DRAW, Structure.FIXED),
    (Game.FIVE_CARD_DRAW, Structure.POT),
    (Game.FIVE_CARD_DRAW, Structure.NO_LIMIT),
]


def final_stacks(hand: Hand) -> dict[str, int]:
    """Stacks after the hand, from the record alone."""
    stacks = {s.player: s.stack for s in hand.seats}
    for step in hand.steps:
        if isinstance(step, Post | Action):
            stacks[step.player] -= step.amount
        elif isinstance(step, Uncalled | Collect):
            stacks[step.player] += step.amount
    return stacks


def _hands(game: Game, structure: Structure, players: int, n: int, seed: int) -> list[Hand]:
    return list(deal_hands(n, game, players, seed, structure=structure))


def test_the_same_seed_deals_the_same_hands_and_another_seed_others() -> None:
    a = _hands(Game.TRIPLE_DRAW_27, Structure.FIXED, 6, 30, seed=11)
    b = _hands(Game.TRIPLE_DRAW_27, Structure.FIXED, 6, 30, seed=11)
    c = _hands(Game.TRIPLE_DRAW_27, Structure.FIXED, 6, 30, seed=12)
    assert a == b
    assert a != c
    assert [h.hand_id for h in a] == [str(int(a[0].hand_id) + i) for i in range(30)]


@pytest.mark.parametrize(("game", "structure"), GAMES)
@pytest.mark.parametrize("players", [2, 3, 6])
def test_every_chip_is_accounted_for(game: Game, structure: Structure, players: int) -> None:
    for hand in _hands(game, structure, players, 60, seed=players * 101):
        start = sum(s.stack for s in hand.seats)
        final = final_stacks(hand)
        assert hand.rake is not None and hand.total_pot is not None
        assert start == sum(final.values()) + hand.rake
        assert all(v >= 0 for v in final.values())
        collected = sum(c.amount for c in hand.collects)
        assert collected == hand.total_pot - hand.rake
        assert hand.rake <= max(50, 3 * hand.stakes.big_bet)
        assert hand.rake * 1000 <= hand.total_pot * 50


@pytest.mark.parametrize(("game", "structure"), GAMES)
def test_stacks_carry_over_and_the_button_moves_one_seat(game: Game, structure: Structure) -> None:
    hands = _hands(game, structure, 4, 120, seed=5)
    for before, after in itertools.pairwise(hands):
        if before.table != after.table:
            continue  # the hero went broke and moved to a new table
        final = final_stacks(before)
        for seat in after.seats:
            if before.seat_of(seat.player) is not None:
                assert seat.stack == final[seat.player]
            else:
                left = next(s for s in before.seats if s.seat == seat.seat)
                assert final[left.player] < before.stakes.big_blind  # the broke player left
        seats = sorted(s.seat for s in before.seats)
        assert before.button is not None
        later = [x for x in seats if x > before.button]
        assert after.button == (later[0] if later else seats[0])


@pytest.mark.parametrize(("game", "structure"), GAMES)
def test_dealt_hands_are_legal_step_by_step_under_the_state_machine(
    game: Game, structure: Structure
) -> None:
    rules = rules_for(game, structure)
    for hand in _hands(game, structure, 5, 80, seed=77):
        profile = profile_for(hand.site)
        hs = HandState(rules, hand.stakes, [(s.seat, s.player, s.stack) for s in hand.seats],
                       hand.button, cap_heads_up=profile.cap_heads_up)
        for step in hand.steps:
            if not isinstance(step, Post) and hs.phase is Phase.DEAL:
                hs.deal()  # the forced bets are in: the cards are dealt, a step of its own
            if isinstance(step, Post):
                assert hs.check_post(step.player, step.kind, step.amount) == []
                hs.apply_post(step.player, step.kind, step.amount)
            elif isinstance(step, Action):
                assert hs.check_action(step.player, step.kind, step.amount, step.to,
                                       step.all_in) == []
                hs.apply_action(step.player, step.kind, step.amount)
            elif isinstance(step, Draw):
                assert hs.check_draw(step.player, step.count) == []
                hs.apply_draw(step.player, step.count)
        assert hs.over
        uncalled = Counter[str]()
        for step in hand.steps:
            if isinstance(step, Uncalled):
                uncalled[step.player] += step.amount
        assert {p: v for p, v in hs.returned.items() if v} == dict(uncalled)
        shown = {s.player for s in hand.steps if isinstance(s, Show | Muck)}
        if hs.phase is Phase.SHOWDOWN:
            assert shown == set(hs.live)
        else:
            assert hs.phase is Phase.WON and not shown


def test_hands_reach_every_street_showdowns_all_ins_and_side_pots() -> None:
    seen = Counter[str]()
    hands = [h for seed in (3, 4, 5) for h in _hands(Game.TRIPLE_DRAW_27, Structure.FIXED, 6,
                                                     300, seed)]
    for hand in hands:
        seen[f"street{max((a.street for a in hand.actions), default=0)}"] += 1
        seen["showdown"] += bool(hand.shows)
        seen["all_in"] += any(a.all_in for a in hand.actions)
        seen["side_pot"] += any(c.pot for c in hand.collects)
        seen["split"] += len({c.player for c in hand.collects if c.pot == 0}) > 1
        seen["uncalled"] += any(isinstance(s, Uncalled) for s in hand.steps)
        seen["raise"] += any(a.kind is ActionKind.RAISE for a in hand.actions)
    for key in ("street0", "street1", "street2", "street3", "showdown", "all_in", "side_pot",
                "split", "uncalled", "raise"):
        assert seen[key] > 0, key
    assert seen["showdown"] > 300


def _stub_runs_out(hand: Hand) -> bool:
    used = 5 * len(hand.seats)
    for d in hand.draws:
        if d.count > 52 - used:
            return True
        used += d.count
    return False


def test_six_players_drawing_often_run_the_stub_out_and_nobody_gets_a_card_twice() -> None:
    hands = _hands(Game.TRIPLE_DRAW_27, Structure.FIXED, 6, 300, seed=21)
    exhausted = [h for h in hands if _stub_runs_out(h)]
    assert len(exhausted) >= 10
    for hand in hands:
        hero_seen = list(hand.dealt or ())
        for d in hand.draws:
            if d.player == hand.hero and d.received is not None:
                # never a card the hero is throwing in this same draw
                assert not set(d.received) & set(d.discarded or ())
                hero_seen.extend(d.received)
        shown = [c for s in hand.shows for c in s.cards]
        assert len(shown) == len(set(shown))  # live hands never share a card
        if not _stub_runs_out(hand):
            final_hero = set(next((s.cards for s in hand.shows if s.player == hand.hero), ()))
            others = set(shown) - final_hero
            assert not others & set(hero_seen)


def test_triple_draw_hero_draws_record_discards_kept_and_received() -> None:
    for hand in _hands(Game.TRIPLE_DRAW_27, Structure.FIXED, 3, 40, seed=8):
        assert hand.hero == "Hero" and hand.dealt is not None
        holding = set(hand.dealt)
        for d in hand.draws:
            if d.player != "Hero":  # only a pat is known of the others: nothing thrown
                if d.count:
                    assert d.discarded is None and d.received is None
                else:
                    assert d.discarded == d.received == () and d.kept is None
                continue
            assert d.discarded is not None and d.kept is not None and d.received is not None
            assert set(d.discarded) | set(d.kept) == holding
            assert len(d.discarded) == len(d.received) == d.count
            holding = set(d.kept) | set(d.received)
        hero_show = [s for s in hand.shows if s.player == "Hero"]
        if hero_show:
            assert set(hero_show[0].cards) == holding


def test_sit_and_go_hands_rise_in_level_knock_players_out_and_start_new_tournaments() -> None:
    hands = list(deal_hands(300, Game.TRIPLE_DRAW_27, 6, seed=3, tournament=True))
    assert all(h.tournament is not None and h.currency == "chips" for h in hands)
    assert all(h.rake == 0 for h in hands)
    ids = [h.tournament.tournament_id for h in hands if h.tournament is not None]
    assert len(set(ids)) >= 2
    first = [h for h in hands if h.tournament is not None and h.tournament.tournament_id == ids[0]]
    assert [s.stack for s in first[0].seats] == [150_000] * 6  # 1,500 chips each
    levels = [h.tournament.level for h in first if h.tournament is not None]
    assert levels[:21] == ["I"] * 10 + ["II"] * 10 + ["III"]
    assert [h.stakes.big_blind for h in first[9:11]] == [2000, 3000]
    assert len(first[-1].seats) < 6  # players were knocked out, nobody replaced them
    for before, after in itertools.pairwise(first):
        final = final_stacks(before)
        assert {s.player: s.stack for s in after.seats} == {
            p: v for p, v in final.items() if v > 0
        }
    short = [p for h in hands for p in h.posts if p.all_in]
    assert short  # a stack shorter than its blind posts all of it
    for hand in hands:
        assert replay(hand).verdict.problems == ()


def test_no_limit_sit_and_goes_add_antes_from_level_four_posted_before_the_blinds() -> None:
    hands = list(deal_hands(120, Game.SINGLE_DRAW_27, 3, seed=9, structure=Structure.NO_LIMIT,
                            tournament=True))
    for hand in hands:
        assert hand.tournament is not None
        antes = [p for p in hand.posts if p.kind is PostKind.ANTE]
        if hand.tournament.level in ("I", "II", "III"):
            assert antes == [] and hand.stakes.ante == 0
            continue
        assert hand.stakes.ante == hand.stakes.big_blind // 10 > 0
        assert [p.player for p in antes] == [s.player for s in hand.seats]
        assert all(p.amount == hand.stakes.ante or p.all_in for p in antes)
        kinds = [p.kind for p in hand.posts]
        assert kinds[: len(antes)] == [PostKind.ANTE] * len(antes)
        assert replay(hand).verdict.problems == ()
    assert any(p.kind is PostKind.ANTE for h in hands for p in h.posts)


@pytest.mark.slow
def test_an_odd_chip_goes_to_the_first_winner_left_of_the_button() -> None:
    odd = 0
    for seed in range(6):
        for hand in _hands(Game.TRIPLE_DRAW_27, Structure.FIXED, 6, 300, seed=seed):
            by_pot: dict[int | None, list[Collect]] = {}
            for c in hand.collects:
                by_pot.setdefault(c.pot, []).append(c)
            for collects in by_pot.values():
                amounts = {c.player: c.amount for c in collects}
                if len(amounts) < 2 or len(set(amounts.values())) == 1:
                    continue
                odd += 1
                assert hand.button is not None
                seat_of = {s.player: s.seat for s in hand.seats}
                first = clockwise_from_button(list(amounts), seat_of, hand.button)[0]
                assert amounts[first] == max(amounts.values())
                assert max(amounts.values()) - min(amounts.values()) == 1
    assert odd > 0


def test_a_table_without_a_hero_shows_no_hole_cards_but_the_showdowns() -> None:
    hands = list(deal_hands(50, Game.TRIPLE_DRAW_27, 4, 1, hero=None))
    assert all(h.hero is None and h.dealt is None for h in hands)
    assert all(d.received in (None, ()) for h in hands for d in h.draws)
    assert any(h.shows for h in hands)
    assert all(replay(h).verdict.problems == () for h in hands)


def test_impossible_tables_are_refused_at_once() -> None:
    with pytest.raises(ValueError):
        deal_hands(5, Game.TRIPLE_DRAW_27, 7, 1)
    with pytest.raises(ValueError):
        deal_hands(5, Game.TRIPLE_DRAW_27, 1, 1)
    with pytest.raises(ValueError):
        deal_hands(5, Game.TRIPLE_DRAW_27, 4, 1, home=True)
    assert list(deal_hands(0, Game.TRIPLE_DRAW_27, 4, 1)) == []
