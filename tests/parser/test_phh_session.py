"""PHH of a 6-max PokerStars triple-draw session: all-ins, new players, deck reshuffles.

The session in ``cash/Stars/Draw/3-Draw-Limit-USD-0.10-0.20-200911.txt`` has what a
single hand rarely shows: draws run with no betting after a player is all-in, players who
sit down post a big blind out of turn, and the dealer reshuffles the discards.  Each must
come out of ``write_phh`` in a form pokerkit plays, and back out of the standard fields.
"""

from __future__ import annotations

import warnings
from decimal import Decimal

from pokerkit import HandHistory

from engine.cards import parse_cards
from engine.record import Hand, Note, PostKind
from engine.verify import verify
from parser.phh import read_phh, write_phh
from parser.reader import read_path, read_text
from tests.corpus import CORPUS
from tests.parser_corpus import without_position

SESSION = CORPUS / "cash/Stars/Draw/3-Draw-Limit-USD-0.10-0.20-200911.txt"


def session_hand(hand_id: str) -> Hand:
    hands = [o for _, o in read_path(SESSION) if isinstance(o, Hand) and o.hand_id == hand_id]
    assert len(hands) == 1
    return hands[0]


def standard_actions(text: str) -> list[str]:
    data = HandHistory.loads(text)
    return [str(a) for a in data.actions]


def standard_only(text: str) -> str:
    return text.split("# The whole DrawLab record")[0]


def blinds_line(text: str) -> str:
    return next(line for line in text.split("\n") if line.startswith("blinds_or_straddles"))


def test_after_an_all_in_each_draws_cards_are_dealt_before_the_next_draw() -> None:
    # cypis28 (p2) is all-in on the first draw's betting: the second and third draws
    # follow one another with no betting, and pokerkit wants the second draw's card dealt
    # before anybody draws again ("Unable to repair the hand history" otherwise).
    text = write_phh(session_hand("35839118248"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        actions = standard_actions(text)
    first_draw = actions.index("p2 sd ????")
    assert actions[first_draw:] == [
        "p2 sd ????",
        "p3 sd ??",
        "d dh p2 ????",
        "d dh p3 ??",
        "p2 cbr 0.1",
        "p3 cbr 0.2",
        "p2 cbr 0.22",
        "p3 cc",
        "p2 sd ??",
        "p3 sd",
        "d dh p2 ??",
        "p2 sd",
        "p3 sd",
        "p2 sm 7h3s2h8h6h",
        "p3 sm 4d7c2c5s6d",
    ]


def test_the_standard_fields_number_draws_with_no_betting_between() -> None:
    back = read_phh(standard_only(write_phh(session_hand("35839118248"))), "s.phh")
    assert [(d.player, d.draw, d.count) for d in back.draws] == [
        ("cypis28", 1, 2),
        ("bakter9", 1, 1),
        ("cypis28", 2, 1),
        ("bakter9", 2, 0),
        ("cypis28", 3, 0),
        ("bakter9", 3, 0),
    ]


ALL_IN_PREFLOP = """\
variant = 'F2L3D'
antes = [0, 0]
blinds_or_straddles = [1, 0.5]
small_bet = 1
big_bet = 2
starting_stacks = [2, 30]
actions = [
  'd dh p1 ??????????',
  'd dh p2 ??????????',
  'p2 cbr 2',
  'p1 cc',
  'p1 sd',
  'p2 sd ??',
  'd dh p2 ??',
  'p1 sd',
  'p2 sd',
  'p1 sd ????',
  'p2 sd ??',
  'd dh p1 ????',
  'd dh p2 ??',
  'p1 sm 8s6d4c3h2d',
  'p2 sm 9s7d5c4h2s',
]
"""


def test_three_draws_after_an_all_in_before_the_draw_are_the_first_second_and_third() -> None:
    # Standing pat leaves no deal line between the second and the third draw: a player
    # drawing again is what begins the next draw.
    hand = read_phh(ALL_IN_PREFLOP, "a.phh")
    assert [(d.player, d.draw, d.count) for d in hand.draws] == [
        ("p1", 1, 0),
        ("p2", 1, 1),
        ("p1", 2, 0),
        ("p2", 2, 0),
        ("p1", 3, 2),
        ("p2", 3, 1),
    ]
    assert verify(hand).errors == ()


def test_a_big_blind_posted_out_of_turn_is_pokerkits_post_bet() -> None:
    # tom1206 (p5) and X USN-USMC (p3) just sat down and post a big blind to play at once;
    # a positive blind there would make pokerkit open the betting after them.
    six = write_phh(session_hand("35839176665"))
    assert blinds_line(six) == "blinds_or_straddles = [0.05, 0.1, 0, 0, -0.1, 0]"
    three = write_phh(session_hand("35839272371"))
    assert blinds_line(three) == "blinds_or_straddles = [0.05, 0.1, -0.1, 0, 0, 0]"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        state = next(
            s for s, a in HandHistory.loads(six).state_actions if s.actor_index is not None
        )
    # the first to act is p3 (rumble1111, after the big blind), and p5's post is live
    blind, big = Decimal("0.05"), Decimal("0.1")
    assert (state.actor_index, state.bets) == (2, [blind, big, 0, 0, big, 0])


def test_a_post_bet_reads_back_as_the_big_blind_it_was() -> None:
    hand = session_hand("35839176665")
    back = read_phh(standard_only(write_phh(hand)), "p.phh")
    assert [(p.player, p.kind, p.amount, p.dead) for p in back.posts] == [
        ("TheLabman", PostKind.SMALL_BLIND, 5, 0),
        ("Hero", PostKind.BIG_BLIND, 10, 0),
        ("tom1206", PostKind.BIG_BLIND, 10, 0),
    ]
    assert [(p.player, p.kind, p.amount) for p in back.posts] == [
        (p.player, p.kind, p.amount) for p in hand.posts
    ]
    assert verify(back).errors == ()


# A hand of our own making (no site wrote it): the stub runs out in the third draw, the
# discards are reshuffled, and the hero gets back the jack of spades he threw in the first.
RESHUFFLED = """\
PokerStars Game #90000000001:  Triple Draw 2-7 Lowball Limit ($0.10/$0.20 USD) \
- 2009/11/25 14:16:46 ET
Table 'Synthetic I' 6-max Seat #5 is the button
Seat 1: Hero ($4.54 in chips)
Seat 2: Bea ($3.53 in chips)
Seat 3: Cal ($7.54 in chips)
Seat 4: Dot ($4 in chips)
Seat 5: Eve ($2.22 in chips)
Seat 6: Fay ($6.54 in chips)
Fay: posts small blind $0.05
Hero: posts big blind $0.10
*** DEALING HANDS ***
Dealt to Hero [5d Js 7d Jd 4d]
Bea: calls $0.10
Cal: calls $0.10
Dot: calls $0.10
Eve: folds
Fay: calls $0.05
Hero: checks
*** FIRST DRAW ***
Fay: discards 3 cards
Hero: discards 2 cards [Js Jd]
Dealt to Hero [5d 7d 4d] [6d 2s]
Bea: discards 2 cards
Cal: discards 2 cards
Dot: discards 2 cards
Fay: checks
Hero: checks
Bea: checks
Cal: checks
Dot: checks
*** SECOND DRAW ***
Fay: discards 3 cards
Hero: stands pat on [5d 7d 4d 6d 2s]
Bea: discards 2 cards
Cal: discards 1 card
Dot: discards 2 cards
Fay: checks
Hero: checks
Bea: checks
Cal: checks
Dot: checks
*** THIRD DRAW ***
Fay: discards 3 cards
The deck is reshuffled
Hero: discards 2 cards [6d 2s]
Dealt to Hero [5d 7d 4d] [Js 3c]
Bea: discards 1 card
Cal: discards 1 card
Dot: discards 2 cards
Fay: checks
Hero: bets $0.20
Bea: folds
Cal: folds
Dot: folds
Fay: folds
Uncalled bet ($0.20) returned to Hero
Hero collected $0.48 from pot
*** SUMMARY ***
Total pot $0.50 | Rake $0.02
Seat 1: Hero (big blind) collected ($0.48)
Seat 2: Bea folded after the 3rd Draw
Seat 3: Cal folded after the 3rd Draw
Seat 4: Dot folded after the 3rd Draw
Seat 5: Eve (button) folded before the Draw (didn't bet)
Seat 6: Fay (small blind) folded after the 3rd Draw
"""


def test_a_discard_dealt_again_after_the_reshuffle_is_played_by_pokerkit() -> None:
    ((_, hand),) = read_text(RESHUFFLED, "reshuffled.txt")
    assert isinstance(hand, Hand)
    assert verify(hand).problems == ()
    assert [s.text for s in hand.steps if isinstance(s, Note) and s.kind == "reshuffle"] == [
        "The deck is reshuffled"
    ]
    third = next(d for d in hand.draws if d.player == "Hero" and d.draw == 3)
    assert third.received == parse_cards("Js3c")
    text = write_phh(hand)
    assert '  "d dh p2 Js3c",' in text.split("\n")
    # pokerkit deals from its own deck: the jack is in its discards, not its stub, so it
    # warns (the card "is not recommended to be dealt") and deals it all the same.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        final = list(HandHistory.loads(text))[-1]
    assert [str(w.message) for w in caught] == [
        "A card being dealt Js is not recommended to be dealt. For more details, please "
        "consult the method 'pokerkit.state.State.get_dealable_cards()'."
    ]
    assert [repr(c) for c in final.hole_cards[1]] == ["5d", "7d", "4d", "Js", "3c"]
    # pokerkit takes no rake: Hero gets the whole $0.50 pot
    assert final.stacks == [
        Decimal("6.44"), Decimal("4.94"), Decimal("3.43"),
        Decimal("7.44"), Decimal("3.9"), Decimal("2.22"),
    ]  # fmt: skip
    assert without_position(read_phh(text, "r.phh")) == without_position(hand)
    back = read_phh(standard_only(text), "r.phh")
    assert [(d.player, d.draw, d.received) for d in back.draws if d.player == "Hero"] == [
        ("Hero", 1, parse_cards("6d2s")),
        ("Hero", 2, ()),
        ("Hero", 3, parse_cards("Js3c")),
    ]


SHOWS_AFTER_FOLDS = """\
PokerStars Game #90000000002:  Triple Draw 2-7 Lowball Limit ($0.10/$0.20 USD) \
- 2009/11/25 14:20:00 ET
Table 'Synthetic I' 6-max Seat #1 is the button
Seat 1: Ann ($4 in chips)
Seat 2: Bob ($4 in chips)
Seat 3: Cy ($4 in chips)
Bob: posts small blind $0.05
Cy: posts big blind $0.10
*** DEALING HANDS ***
Dealt to Ann [7s 5d 4h 3c 2s]
Ann: raises $0.10 to $0.20
Bob: folds
Cy: folds
Uncalled bet ($0.10) returned to Ann
Ann collected $0.25 from pot
Ann: shows [7s 5d 4h 3c 2s] (Lo: 7,5,4,3,2)
*** SUMMARY ***
Total pot $0.25 | Rake $0
Seat 1: Ann (button) collected ($0.25)
Seat 2: Bob (small blind) folded before the Draw
Seat 3: Cy (big blind) folded before the Draw
"""


def test_a_show_after_everyone_folded_is_commented_out_for_pokerkit_and_read_back() -> None:
    # pokerkit ends the hand at the last fold: "p3 sm" there is "Unable to repair".
    ((_, hand),) = read_text(SHOWS_AFTER_FOLDS, "shows.txt")
    assert isinstance(hand, Hand)
    text = write_phh(hand)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert standard_actions(text)[-3:] == ["p1 f", "p2 f", "# p3 sm 7s5d4h3c2s"]
        final = list(HandHistory.loads(text))[-1]
    assert final.stacks == [Decimal("3.95"), Decimal("3.9"), Decimal("4.15")]
    back = read_phh(standard_only(text), "s.phh")
    assert [(s.player, s.cards) for s in back.shows] == [("Ann", parse_cards("7s5d4h3c2s"))]
    assert verify(back).problems == ()
    # a comment that is not such an action stays a comment
    other = read_phh(standard_only(text).replace("# p3 sm 7s5d4h3c2s", "# p3 sm later"), "o.phh")
    assert [n.text for n in other.steps if isinstance(n, Note)] == ["p3 sm later"]
    assert other.shows == ()
