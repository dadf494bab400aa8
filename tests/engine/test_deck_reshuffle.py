"""The deck runs out in a draw: the discards become a new stub (RULES.md, "The deck runs out").

Issue 12, case 1: PokerStars writes "The deck is reshuffled" where its dealer shuffles the
discards into a new stub, before the line of the player whose draw needs it.  After it,
cards discarded earlier in the hand may be dealt again, never the drawing player's own
discards of that same draw.  Where the site says it reshuffles is authoritative; the
engine's own count of the stub (no burn cards) agrees with PokerStars on the corpus.
"""

from __future__ import annotations

from dataclasses import replace

from engine.record import Action, Draw, Game, Hand, Note, Post
from engine.rules import rules_for
from engine.sim.dealer import deal_hands
from engine.state import HandState
from engine.verdict import Problem, Severity
from engine.verify import verify
from parser.reader import read_path, read_text
from tests.corpus import CORPUS

_SESSION = CORPUS / "cash/Stars/Draw/3-Draw-Limit-USD-0.10-0.20-200911.txt"


def _session() -> list[Hand]:
    hands = [outcome for _, outcome in read_path(_SESSION)]
    assert all(isinstance(h, Hand) for h in hands), hands
    return [h for h in hands if isinstance(h, Hand)]


def _reshuffles(hand: Hand) -> list[int]:
    return [s.line for s in hand.steps if isinstance(s, Note) and s.kind == "reshuffle"]


def _without_reshuffle_notes(hand: Hand) -> Hand:
    steps = tuple(s for s in hand.steps if not (isinstance(s, Note) and s.kind == "reshuffle"))
    return replace(hand, steps=steps)


def _counted_reshuffles(hand: Hand) -> list[int]:
    """The lines of the draws at which the engine's own stub count runs out, the site's
    notes left out: the record's chips and draws fed to the state machine as they are."""
    dealt_in = {s.player for s in hand.steps if not isinstance(s, Note)}
    seats = [(s.seat, s.player, s.stack) for s in hand.seats if s.player in dealt_in]
    state = HandState(
        rules_for(hand.game, hand.structure), hand.stakes, seats, hand.button, cap_heads_up=False
    )
    lines = []
    for step in hand.steps:
        if isinstance(step, Post):
            state.apply_post(step.player, step.kind, step.amount, step.dead)
        elif isinstance(step, Action):
            state.apply_action(step.player, step.kind, step.amount)
        elif isinstance(step, Draw) and state.apply_draw(step.player, step.count):
            lines.append(step.line)
    return lines


def test_the_stars_session_with_two_reshuffles_verifies_hand_by_hand() -> None:
    hands = _session()
    assert len(hands) == 17
    assert [(h.hand_id, _reshuffles(h)) for h in hands if _reshuffles(h)] == [
        ("35839176665", [283]),
        ("35839412131", [460]),
    ]
    assert {h.hand_id: verify(h).problems for h in hands} == {h.hand_id: () for h in hands}


def test_the_engines_stub_count_runs_out_where_pokerstars_reshuffles() -> None:
    # six dealt in, 22 cards in the stub, no burn cards: the count runs out at the draw
    # written right after the site's line
    by_id = {h.hand_id: h for h in _session()}
    assert _counted_reshuffles(by_id["35839176665"]) == [284]
    assert _counted_reshuffles(by_id["35839412131"]) == [461]
    assert [_counted_reshuffles(h) for h in by_id.values()].count([]) == 15
    for hand_id in ("35839176665", "35839412131"):
        assert verify(_without_reshuffle_notes(by_id[hand_id])).problems == ()


# ---- hands written the site's way, with the hero's cards known


def _stars(seats: list[str], body: str) -> str:
    lines = [
        "PokerStars Game #35830000001:  Triple Draw 2-7 Lowball Limit ($0.10/$0.20 USD)"
        " - 2009/11/25 14:12:58 ET",
        f"Table 'Theodora VI' 6-max Seat #{len(seats)} is the button",
    ]
    lines += [f"Seat {i}: {name} ($5 in chips)" for i, name in enumerate(seats, 1)]
    return "\n".join(lines) + "\n" + body


def _read(text: str) -> Hand:
    outcomes = [outcome for _, outcome in read_text(text, "reshuffle.txt")]
    assert len(outcomes) == 1
    hand = outcomes[0]
    assert isinstance(hand, Hand), hand
    return hand


# Six players: 22 cards in the stub.  Four players draw five in the first draw and the hero
# two: the stub is empty.  The first card of the second draw needs a new stub, and the hero
# gets back the king he threw in the first draw.
_SIX = _stars(
    ["A", "B", "C", "D", "E", "Hero"],
    """\
A: posts small blind $0.05
B: posts big blind $0.10
*** DEALING HANDS ***
Dealt to Hero [7s 5d 4h Kd Qd]
C: calls $0.10
D: calls $0.10
E: calls $0.10
Hero: calls $0.10
A: calls $0.05
B: checks
*** FIRST DRAW ***
A: discards 5 cards
B: discards 5 cards
C: discards 5 cards
D: discards 5 cards
E: stands pat
Hero: discards 2 cards [Kd Qd]
Dealt to Hero [7s 5d 4h] [3c 9c]
A: checks
B: checks
C: checks
D: checks
E: checks
Hero: checks
*** SECOND DRAW ***
The deck is reshuffled
A: discards 1 card
B: stands pat
C: stands pat
D: stands pat
E: stands pat
Hero: discards 1 card [9c]
Dealt to Hero [7s 5d 4h 3c] [Kd]
A: checks
B: checks
C: checks
D: checks
E: checks
Hero: checks
*** THIRD DRAW ***
A: stands pat
B: stands pat
C: stands pat
D: stands pat
E: stands pat
Hero: stands pat on [7s 5d 4h 3c Kd]
A: checks
B: checks
C: checks
D: checks
E: checks
Hero: bets $0.20
A: folds
B: folds
C: folds
D: folds
E: folds
Uncalled bet ($0.20) returned to Hero
Hero collected $0.60 from pot
*** SUMMARY ***
Total pot $0.60 | Rake $0
Seat 6: Hero (button) collected ($0.60)
""",
)


def test_a_card_thrown_before_the_reshuffle_comes_back() -> None:
    hand = _read(_SIX)
    assert _reshuffles(hand) == [34]
    assert verify(hand).problems == ()


def test_the_drawing_players_own_discards_never_come_back_in_that_draw() -> None:
    text = _SIX.replace("Dealt to Hero [7s 5d 4h 3c] [Kd]", "Dealt to Hero [7s 5d 4h 3c] [9c]")
    text = text.replace("stands pat on [7s 5d 4h 3c Kd]", "stands pat on [7s 5d 4h 3c 9c]")
    assert verify(_read(text)).problems == (
        Problem(
            "DUPLICATE_CARD",
            Severity.ERROR,
            40,
            "Hero receives 9c, thrown away in this same draw",
        ),
    )


# Three players: the stub holds 37 cards and the count never runs out, but the site says it
# reshuffled before the hero's second draw (a site that burns cards, or keeps others out):
# where the site says so is where the stub is new.
_THREE = _stars(
    ["A", "B", "Hero"],
    """\
A: posts small blind $0.05
B: posts big blind $0.10
*** DEALING HANDS ***
Dealt to Hero [7s 5d 4h Kd Qd]
Hero: calls $0.10
A: calls $0.05
B: checks
*** FIRST DRAW ***
A: discards 2 cards
B: discards 2 cards
Hero: discards 2 cards [Kd Qd]
Dealt to Hero [7s 5d 4h] [3c 9c]
A: checks
B: checks
Hero: checks
*** SECOND DRAW ***
A: discards 1 card
B: discards 1 card
The deck is reshuffled
Hero: discards 1 card [9c]
Dealt to Hero [7s 5d 4h 3c] [Kd]
A: checks
B: checks
Hero: bets $0.20
A: folds
B: folds
Uncalled bet ($0.20) returned to Hero
Hero collected $0.30 from pot
*** SUMMARY ***
Total pot $0.30 | Rake $0
""",
)


def test_the_reshuffle_the_site_states_is_authoritative() -> None:
    hand = _read(_THREE)
    assert verify(hand).problems == ()
    assert verify(_without_reshuffle_notes(hand)).problems == (
        Problem(
            "DUPLICATE_CARD",
            Severity.ERROR,
            25,
            "Kd received by Hero: thrown away by Hero and the deck has not run out since",
        ),
    )


# ---- the dealer


def test_the_dealer_writes_where_it_reshuffles_as_pokerstars_does() -> None:
    hands = list(deal_hands(120, Game.TRIPLE_DRAW_27, 6, seed=7))
    with_notes = [h for h in hands if _reshuffles_in_steps(h)]
    assert with_notes  # six-handed triple draw runs out of cards now and then
    for hand in with_notes:
        index = next(
            i
            for i, s in enumerate(hand.steps)
            if isinstance(s, Note) and s.kind == "reshuffle"
        )
        note, after = hand.steps[index], hand.steps[index + 1]
        assert isinstance(note, Note) and note.text == "The deck is reshuffled"
        assert isinstance(after, Draw) and after.count > 0  # the draw that needs the new stub
        assert _counted_reshuffles(_without_reshuffle_notes(hand)) != []
        assert verify(hand).problems == ()
    assert all(not _counted_reshuffles(h) for h in hands if not _reshuffles_in_steps(h))


def _reshuffles_in_steps(hand: Hand) -> bool:
    return any(isinstance(s, Note) and s.kind == "reshuffle" for s in hand.steps)
