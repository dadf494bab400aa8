"""The home variants of five-card draw (RULES.md, "Home variants") as the dealer deals them
and the replay verifies them: every dealt hand is sound, and a hand broken in each way the
house rules forbid is flagged with the problem code of that rule."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli import main
from engine.cards import parse_cards
from engine.continuity import check_continuity
from engine.problems import (
    BAD_DRAW,
    CARRIED_POT_MISMATCH,
    COLLECT_MISMATCH,
    DEALER_MISMATCH,
    DECK_EXHAUSTED,
    DUPLICATE_CARD,
    ILLEGAL_ACTION,
    NOT_IN_DECK,
    UP_CARD_MISMATCH,
    WRONG_WINNER,
)
from engine.record import (
    MISDEAL_NOTE,
    Action,
    Collect,
    Draw,
    Game,
    Hand,
    HouseRules,
    Note,
    Show,
    Structure,
)
from engine.rules import can_open
from engine.sim.dealer import deal_hands
from engine.verify import verify
from engine.wild import Wild, winners_high
from parser.phh import read_phh, write_phh
from parser.pokerstars_writer import write_pokerstars
from parser.reader import read_text
from tests.engine.sim.test_dealer_roundtrip import placeless

HIGH_LOW = HouseRules(high_low=True)
SHOTGUN = HouseRules(shotgun=True)
ACE_FIVE = HouseRules(max_draw_with_ace=5)
NO_REPLACEMENT = HouseRules(no_replacement=True)
OPEN_ANY = HouseRules(jacks_to_open=False, ante_again=False)
EVERYTHING = HouseRules(high_low=True, shotgun=True, max_draw_with_ace=5, no_replacement=True)


def _deal(
    house: HouseRules,
    players: int = 5,
    n: int = 200,
    seed: int = 11,
    structure: Structure = Structure.FIXED,
    misdeals: int = 0,
) -> list[Hand]:
    return list(
        deal_hands(n, Game.FIVE_CARD_DRAW, players, seed, structure=structure, house=house,
                   misdeal_per_mille=misdeals)
    )  # fmt: skip


def _codes(hand: Hand) -> set[str]:
    return {p.code for p in verify(hand).problems}


def _misdeal(hand: Hand) -> bool:
    return any(isinstance(s, Note) and s.kind == MISDEAL_NOTE for s in hand.steps)


# ---- every dealt hand is sound -----------------------------------------------------------

JOKER = HouseRules(wild="joker")
DEUCES_HIGH_LOW = HouseRules(wild="deuces", high_low=True)

VARIANTS = [
    (JOKER, 5),
    (DEUCES_HIGH_LOW, 6),
    (HouseRules(wild="two-jokers", shotgun=True, no_replacement=True), 8),
    (HouseRules(wild="one-eyed-jacks", max_draw_with_ace=5), 4),
    (HIGH_LOW, 5),
    (SHOTGUN, 6),
    (ACE_FIVE, 6),
    (NO_REPLACEMENT, 8),
    (OPEN_ANY, 4),
    (EVERYTHING, 7),
]


@pytest.mark.parametrize("structure", list(Structure))
@pytest.mark.parametrize(("house", "players"), VARIANTS)
def test_dealt_home_variants_verify_and_carry_over(
    house: HouseRules, players: int, structure: Structure
) -> None:
    hands = _deal(house, players, n=150, structure=structure, misdeals=60)
    for hand in hands:
        assert hand.house == house and hand.site == "home"
        assert verify(hand).problems == (), hand.hand_id
    assert check_continuity(hands) == {}
    assert sum(_misdeal(h) for h in hands) >= 2
    assert sum(1 for h in hands if h.carried) >= 5


def test_jokers_are_dealt_from_a_deck_of_53_or_54() -> None:
    for house, jokers in ((JOKER, {52}), (HouseRules(wild="two-jokers"), {52, 53})):
        seen: set[int] = set()
        for hand in _deal(house, 6, n=200):
            for s in hand.shows:
                seen |= {c for c in s.cards if c >= 52}
        assert seen == jokers


def test_a_joker_opens_with_a_jack() -> None:
    jack_and_joker = (*parse_cards("Jh9c7d4s"), 52)
    assert can_open(jack_and_joker, Wild.JOKER)
    assert not can_open((*parse_cards("Th9c7d4s"), 52), Wild.JOKER)
    assert can_open(parse_cards("2h9c9d4sKs"), Wild.DEUCES)  # nines and a deuce: trips
    assert not can_open(parse_cards("2h9c8d4sKs"), None)


def test_high_low_pots_are_split_between_two_hands() -> None:
    split = 0
    for hand in _deal(HIGH_LOW, 5, n=300):
        takers = {c.player for c in hand.collects}
        shown = [s for s in hand.shows if not s.mucked]
        if len(takers) == 2 and len(shown) >= 2:
            split += 1
    assert split > 15


def test_shotgun_deals_every_player_one_card_face_up_the_first_of_their_five() -> None:
    for hand in _deal(SHOTGUN, 6, n=100, misdeals=40):
        if _misdeal(hand):
            assert hand.up_cards == () and hand.dealt is None
            continue
        up = dict(hand.up_cards)
        assert sorted(up) == sorted(s.player for s in hand.seats)
        assert len(set(up.values())) == len(up)
        assert hand.dealt is not None and hand.hero is not None
        assert up[hand.hero] == hand.dealt[0]


def test_a_house_of_five_lets_an_ace_shown_buy_five_new_cards() -> None:
    fives = fours = 0
    for hand in _deal(ACE_FIVE, 6, n=300):
        for d in hand.draws:
            if d.count == 5:
                fives += 1
                assert d.shown is not None and [c >> 2 for c in d.shown] == [12]
                assert d.kept == ()
            elif d.count == 4:
                fours += 1
                assert d.shown is not None and d.kept == d.shown and d.shown[0] >> 2 == 12
            else:
                assert d.count <= 3 and d.shown is None
    assert fives > 5 and fours > 5


def _exhausted(hand: Hand) -> bool:
    """Every card the no-replacement deck could give was given: the stub after the deal,
    plus the discards thrown before the one shuffle (not the drawer's own at it)."""
    steps = list(hand.steps)
    shuffle = next((i for i, s in enumerate(steps) if isinstance(s, Note)
                    and s.kind == "reshuffle"), None)  # fmt: skip
    if shuffle is None:
        return False
    before = sum(s.count for s in steps[:shuffle] if isinstance(s, Draw))
    drawn = sum(d.count for d in hand.draws)
    return drawn == 52 - 5 * len(hand.seats) + before


def test_no_replacement_at_eight_players_runs_the_deck_dry_and_deals_nothing_after() -> None:
    hands = _deal(NO_REPLACEMENT, 8, n=300)
    assert all(len(h.seats) == 8 for h in hands)
    dry = [h for h in hands if _exhausted(h)]
    assert len(dry) > 5
    assert all(sum(isinstance(s, Note) and s.kind == "reshuffle" for s in h.steps) <= 1
               for h in hands)  # fmt: skip


def test_seven_or_eight_players_need_the_no_replacement_rule() -> None:
    with pytest.raises(ValueError, match="7-8 only with no replacement"):
        _deal(HIGH_LOW, 7, n=1)


def test_a_misdeal_is_redealt_by_the_same_dealer_with_its_antes_in_the_pot() -> None:
    hands = _deal(HIGH_LOW, 5, n=300, misdeals=60)
    seen = 0
    for before, after in itertools.pairwise(hands):
        if _misdeal(before) and after.table == before.table:
            seen += 1
            assert after.button == before.button
            # its antes (none when it was itself a redeal) stay in for the new deal
            antes = sum(p.amount for p in before.posts)
            assert antes in (0, 5 * before.stakes.ante)
            assert after.carried == before.total_pot == before.carried + antes
            assert not after.posts  # the antes are in already
            assert [type(s) for s in before.steps[-1:]] == [Note]
            assert not before.collects
    assert seen > 5


# ---- broken hands, each flagged with its rule's code ---------------------------------------


def _first(hands: list[Hand], test: object) -> Hand:
    assert callable(test)
    return next(h for h in hands if test(h))


def _split_hand(hands: list[Hand]) -> Hand:
    def two_takers_one_pot(h: Hand) -> bool:
        return len({c.player for c in h.collects}) == 2 and {c.pot for c in h.collects} == {0}

    return _first(hands, two_takers_one_pot)


def test_a_high_low_pot_paid_whole_to_the_high_hand_is_a_wrong_winner() -> None:
    hand = _split_hand(_deal(HIGH_LOW, 5, n=300))
    assert _codes(hand) == set()
    first, second = hand.collects
    whole = Collect(first.player, first.amount + second.amount, 0, pot=0)
    steps = (*(s for s in hand.steps if not isinstance(s, Collect)), whole)
    assert _codes(dataclasses.replace(hand, steps=steps)) == {WRONG_WINNER, COLLECT_MISMATCH}


def test_a_high_low_hand_replayed_as_plain_high_pays_the_wrong_player() -> None:
    hand = _split_hand(_deal(HIGH_LOW, 5, n=300))
    plain = dataclasses.replace(hand, house=HouseRules())
    assert WRONG_WINNER in _codes(plain)


def _wild_decides(hand: Hand, wild: Wild) -> bool:
    """The shown hands' best high differs with and without the wild cards counted."""
    shown = [s.cards for s in hand.shows if not s.mucked]
    if len(shown) < 2 or any(c >= 52 for cards in shown for c in cards):
        return False
    return winners_high(shown, wild) != winners_high(shown, None)


def test_a_wild_card_not_counted_pays_the_wrong_player() -> None:
    hands = _deal(HouseRules(wild="deuces"), 6, n=300)
    decided = [h for h in hands if _wild_decides(h, Wild.DEUCES)]
    assert len(decided) > 3
    for hand in decided:
        assert _codes(hand) == set()
        assert WRONG_WINNER in _codes(dataclasses.replace(hand, house=HouseRules()))


def test_a_joker_in_a_game_without_jokers_is_not_in_the_deck() -> None:
    hand = _first(_deal(JOKER, 5, n=200), lambda h: any(c >= 52 for s in h.shows for c in s.cards))
    assert _codes(hand) == set()
    assert NOT_IN_DECK in _codes(dataclasses.replace(hand, house=HouseRules(wild="deuces")))


def _shotgun_hand() -> Hand:
    return _first(_deal(SHOTGUN, 6, n=40), lambda h: bool(h.up_cards) and h.dealt is not None)


def test_a_shotgun_hand_without_a_face_up_card_is_flagged() -> None:
    hand = _shotgun_hand()
    assert _codes(hand) == set()
    assert _codes(dataclasses.replace(hand, up_cards=hand.up_cards[1:])) == {UP_CARD_MISMATCH}


def test_a_face_up_card_that_is_not_in_the_hand_dealt_is_flagged() -> None:
    hand = _shotgun_hand()
    assert hand.hero is not None and hand.dealt is not None
    known = {c for _, c in hand.up_cards} | set(hand.dealt)
    for s in hand.steps:
        if isinstance(s, Show):
            known |= set(s.cards)
        if isinstance(s, Draw):
            known |= set(s.received or ())
    stranger = next(c for c in range(52) if c not in known)
    up = tuple((p, stranger if p == hand.hero else c) for p, c in hand.up_cards)
    assert _codes(dataclasses.replace(hand, up_cards=up)) == {UP_CARD_MISMATCH}


def test_a_face_up_card_seen_in_another_hand_is_a_duplicate() -> None:
    hand = _shotgun_hand()
    assert hand.hero is not None and hand.dealt is not None
    other = next(p for p, _ in hand.up_cards if p != hand.hero)
    up = tuple((p, hand.dealt[1] if p == other else c) for p, c in hand.up_cards)
    assert DUPLICATE_CARD in _codes(dataclasses.replace(hand, up_cards=up))


def test_face_up_cards_in_a_game_without_shotgun_are_flagged() -> None:
    hand = _first(_deal(HIGH_LOW, 4, n=20), lambda h: h.dealt is not None and h.hero)
    assert hand.hero is not None and hand.dealt is not None
    broken = dataclasses.replace(hand, up_cards=((hand.hero, hand.dealt[0]),))
    assert _codes(broken) == {UP_CARD_MISMATCH}


def _four_card_draw(hands: list[Hand]) -> tuple[Hand, int]:
    for hand in hands:
        for i, s in enumerate(hand.steps):
            if isinstance(s, Draw) and s.count == 4 and s.player != hand.hero:
                return hand, i
    raise AssertionError("no four-card draw dealt")


def _unseen_king(hand: Hand) -> int:
    seen = set(hand.dealt or ()) | {c for s in hand.steps if isinstance(s, Show) for c in s.cards}
    seen |= {c for s in hand.steps if isinstance(s, Draw) for c in (*(s.kept or ()),
             *(s.received or ()), *(s.discarded or ()))}  # fmt: skip
    return next(c for c in parse_cards("KsKhKdKc") if c not in seen)


def test_a_four_card_draw_needs_an_ace_shown() -> None:
    hand, i = _four_card_draw(_deal(HouseRules(), 6, n=200))
    assert _codes(hand) == set()
    steps = list(hand.steps)
    draw = steps[i]
    assert isinstance(draw, Draw)
    steps[i] = dataclasses.replace(draw, kept=None, shown=None)
    assert _codes(dataclasses.replace(hand, steps=tuple(steps))) == {BAD_DRAW}
    king = (_unseen_king(hand),)
    steps[i] = dataclasses.replace(draw, kept=king, shown=king)
    broken = dataclasses.replace(hand, steps=tuple(steps))
    assert _codes(broken) == {BAD_DRAW}
    messages = [p.message for p in verify(broken).problems]
    assert any("not an ace" in m for m in messages)
    assert any("draws 4 cards; the most allowed is 3" in m for m in messages)


def test_five_cards_with_an_ace_shown_only_where_the_house_allows_five() -> None:
    hands = _deal(ACE_FIVE, 6, n=300)
    hand = _first(hands, lambda h: any(d.count == 5 for d in h.draws))
    assert _codes(hand) == set()
    under_four = dataclasses.replace(hand, house=HouseRules(max_draw_with_ace=4))
    assert _codes(under_four) == {BAD_DRAW}


def test_a_card_drawn_after_the_no_replacement_deck_ran_dry_is_flagged() -> None:
    hands = _deal(NO_REPLACEMENT, 8, n=300)
    for hand in hands:
        if not _exhausted(hand):
            continue
        steps = list(hand.steps)
        last = max(i for i, s in enumerate(steps) if isinstance(s, Draw))
        draw = steps[last]
        assert isinstance(draw, Draw)
        if draw.player == hand.hero or draw.count >= 3:
            continue
        steps[last] = dataclasses.replace(draw, count=draw.count + 1, discarded=None,
                                          kept=None, received=None)  # fmt: skip
        assert _codes(hand) == set()
        assert _codes(dataclasses.replace(hand, steps=tuple(steps))) == {DECK_EXHAUSTED}
        return
    raise AssertionError("no dry deck with a last drawer to give a card to")


def test_the_discards_shuffled_twice_under_no_replacement_is_flagged() -> None:
    hands = _deal(NO_REPLACEMENT, 8, n=300)
    hand = _first(hands, lambda h: any(isinstance(s, Note) and s.kind == "reshuffle"
                                       for s in h.steps))  # fmt: skip
    steps = list(hand.steps)
    last = max(i for i, s in enumerate(steps) if isinstance(s, Draw))
    steps.insert(last, Note("reshuffle", "The deck is reshuffled", 0))
    assert DECK_EXHAUSTED in _codes(dataclasses.replace(hand, steps=tuple(steps)))
    plain = dataclasses.replace(hand, house=HouseRules(), steps=tuple(steps))
    assert DECK_EXHAUSTED not in _codes(plain)


def _pairs(hands: list[Hand], what: object) -> Iterator[tuple[int, Hand, Hand]]:
    assert callable(what)
    for i, (before, after) in enumerate(itertools.pairwise(hands)):
        if what(before) and after.table == before.table:
            yield i + 1, before, after


def _problems_of(hands: list[Hand], index: int, changed: Hand) -> set[str]:
    table = list(hands)
    table[index] = changed
    found = check_continuity(table)
    return {p.code for p in found.get((changed.site, changed.hand_id), ())}


def test_a_carried_pot_that_is_not_what_the_dead_hand_left_is_flagged() -> None:
    hands = _deal(HouseRules(), 4, n=200)
    index, before, after = next(_pairs(hands, lambda h: not h.collects))
    assert after.carried == before.total_pot
    short = dataclasses.replace(after, carried=after.carried - after.stakes.ante)
    assert _problems_of(hands, index, short) == {CARRIED_POT_MISMATCH}


def test_a_pot_carried_in_after_a_hand_that_was_won_is_flagged() -> None:
    hands = _deal(HouseRules(), 4, n=200)
    index, _, after = next(_pairs(hands, lambda h: bool(h.collects)))
    assert after.carried == 0
    made_up = dataclasses.replace(after, carried=40)
    assert _problems_of(hands, index, made_up) == {CARRIED_POT_MISMATCH}


def test_after_a_dead_hand_the_deal_passes() -> None:
    hands = _deal(HouseRules(), 4, n=200)
    index, before, after = next(_pairs(hands, lambda h: not h.collects and not _misdeal(h)))
    stays = dataclasses.replace(after, button=before.button)
    assert _problems_of(hands, index, stays) == {DEALER_MISMATCH}


def test_after_a_misdeal_the_same_dealer_deals_again() -> None:
    hands = _deal(HouseRules(), 4, n=300, misdeals=60)
    index, before, after = next(_pairs(hands, _misdeal))
    seats = [s.seat for s in after.seats if s.seat != before.button]
    moved = dataclasses.replace(after, button=seats[0])
    assert _problems_of(hands, index, moved) == {DEALER_MISMATCH}


def test_a_misdeal_called_after_the_betting_began_is_illegal() -> None:
    hands = _deal(HouseRules(), 4, n=100, misdeals=60)
    misdealt = _first(hands, _misdeal)
    assert _codes(misdealt) == set()
    played = _first(hands, lambda h: any(isinstance(s, Action) and s.amount for s in h.steps))
    steps = list(played.steps)
    first_bet = next(i for i, s in enumerate(steps) if isinstance(s, Action) and s.amount)
    steps.insert(first_bet + 1, Note(MISDEAL_NOTE, "Misdeal", 0))
    assert ILLEGAL_ACTION in _codes(dataclasses.replace(played, steps=tuple(steps)))


def test_a_pot_carried_into_an_online_game_is_flagged() -> None:
    hand = next(iter(deal_hands(1, Game.FIVE_CARD_DRAW, 4, 3)))
    assert _codes(hand) == set()
    assert CARRIED_POT_MISMATCH in _codes(dataclasses.replace(hand, carried=50))


# ---- histories ------------------------------------------------------------------------------


@pytest.mark.parametrize(("house", "players"), VARIANTS)
def test_home_variant_hands_travel_through_phh_unchanged(house: HouseRules, players: int) -> None:
    for hand in _deal(house, players, n=60, misdeals=50):
        back = read_phh(write_phh(hand), "home.phh")
        assert placeless(back) == placeless(hand)
        assert back.house == house and verify(back).problems == ()


def test_no_ace_rule_travels_through_phh() -> None:
    house = HouseRules(max_draw_with_ace=None, max_draw=4)
    hand = _deal(house, 4, n=1)[0]
    assert read_phh(write_phh(hand), "x.phh").house == house


def _read_all(path: Path) -> list[Hand]:
    parsed = [h for _, h in read_text(path.read_text(encoding="utf-8"), str(path))]
    assert all(isinstance(h, Hand) for h in parsed)
    return [h for h in parsed if isinstance(h, Hand)]


def test_simulate_deals_the_house_rules_asked_for(tmp_path: Path) -> None:
    out = tmp_path / "home.phhs"
    args = ["simulate", "--hands", "60", "--players", "8", "--game", "five_card_draw",
            "--home", "--high-low", "--shotgun", "--ace-draws", "5", "--no-replacement",
            "--misdeals", "50", "--seed", "4", "--format", "phh", "--out", str(out)]  # fmt: skip
    assert main(args) == 0
    hands = _read_all(out)
    assert len(hands) == 60
    assert {h.house for h in hands} == {EVERYTHING}
    assert all(verify(h).problems == () for h in hands)
    assert check_continuity(hands) == {}
    dealt = _deal(EVERYTHING, 8, n=60, seed=4, misdeals=50)
    assert [h.hand_id for h in hands] == [h.hand_id for h in dealt]


def test_simulate_takes_the_opener_draw_and_ante_rules(tmp_path: Path) -> None:
    out = tmp_path / "home.phhs"
    args = ["simulate", "--hands", "20", "--players", "4", "--game", "five_card_draw",
            "--home", "--anything-opens", "--draw", "4", "--ace-draws", "0",
            "--no-ante-again", "--format", "phh", "--out", str(out)]  # fmt: skip
    assert main(args) == 0
    want = HouseRules(jacks_to_open=False, max_draw=4, max_draw_with_ace=None, ante_again=False)
    assert {h.house for h in _read_all(out)} == {want}


@pytest.mark.parametrize(
    ("extra", "error"),
    [
        (["--players", "8"], "--players 2 to 6"),
        (["--high-low"], "need --home"),
        (["--home", "--draw", "4"], "--ace-draws must be more than --draw"),
        (["--home", "--misdeals", "1001"], "per thousand"),
    ],
)
def test_simulate_refuses_house_rules_that_cannot_be_dealt(
    extra: list[str], error: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["simulate", "--hands", "3", "--game", "five_card_draw", *extra]
    assert main(args) == 2
    assert error in capsys.readouterr().err


@pytest.mark.parametrize(("house", "players"), VARIANTS)
def test_home_variant_hands_travel_through_the_home_game_text_unchanged(
    house: HouseRules, players: int
) -> None:
    hands = _deal(house, players, n=60, misdeals=50)
    text = "\n".join(write_pokerstars(h) for h in hands)
    back = [h for _, h in read_text(text, "home.txt")]
    assert [placeless(h) for h in back if isinstance(h, Hand)] == [placeless(h) for h in hands]
    assert all(isinstance(h, Hand) and verify(h).problems == () for h in back)


def test_the_home_game_text_states_the_house_rules_and_what_the_table_saw() -> None:
    house = HouseRules(wild="two-jokers", high_low=True, shotgun=True, max_draw_with_ace=5)
    hands = _deal(house, 6, n=200, misdeals=60)
    text = "\n".join(write_pokerstars(h) for h in hands)
    assert text.count("PokerStars Home Game Hand #") == 200
    rules = "House rules: jacks or better to open, draw 3 (5 with an ace shown), two jokers wild"
    assert text.count(f"{rules}, high-low split, shotgun; ante $0.05\n") == 200
    assert "Pot carried from the last deal: $" in text
    assert "Misdeal: the " in text and ": shows [A" in text and " to draw\n" in text
    assert "Dealt face up to " in text and "Jk2" in text


def test_a_house_rules_line_drawlab_does_not_know_is_an_unknown_line() -> None:
    hand = _deal(HouseRules(), 4, n=1)[0]
    text = write_pokerstars(hand).replace("jacks or better to open", "kings or better", 1)
    ((_, back),) = read_text(text, "x.txt")
    assert isinstance(back, Hand) and back.house is None and back.site == "pokerstars"
    assert [w.code for w in back.warnings] == ["UNKNOWN_LINE"]


def test_simulate_writes_the_home_game_text_that_reads_back(tmp_path: Path) -> None:
    out = tmp_path / "home.txt"
    args = ["simulate", "--hands", "40", "--players", "5", "--game", "five_card_draw",
            "--home", "--wild", "deuces", "--high-low", "--shotgun", "--misdeals", "50",
            "--out", str(out)]  # fmt: skip
    assert main(args) == 0
    hands = _read_all(out)
    assert {h.house for h in hands} == {HouseRules(wild="deuces", high_low=True, shotgun=True)}
    assert all(verify(h).problems == () for h in hands)
    assert check_continuity(hands) == {}
