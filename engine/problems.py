"""The problem codes the replay reports: stable strings, one meaning each.

Tools and the database key on these strings, so a code is never renamed or reused for
another meaning; new codes may be added.  ``CODES`` maps each code to the sentence that
defines it (the docstring of its constant is the same sentence, kept beside it for
readers of this file).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.verdict import Problem, Severity

OUT_OF_TURN = "OUT_OF_TURN"
"""A player acted or drew when it was another player's turn."""

ILLEGAL_ACTION = "ILLEGAL_ACTION"
"""An action the rules do not allow at that point: a check facing a bet, a raise when the
betting was not reopened, any action after the hand or the betting round was over, an
action by a player who has folded or is all-in, a first bet without openers."""

BAD_AMOUNT = "BAD_AMOUNT"
"""A call, bet or raise of the wrong size: not the fixed-limit bet, under the no-limit or
pot-limit minimum, over the pot-limit maximum, a call that is not the amount owed, a
stated total that disagrees with the chips, or an all-in with chips left."""

CAP_EXCEEDED = "CAP_EXCEEDED"
"""A raise in fixed limit after the round was capped (a bet and three raises)."""

BAD_BLIND = "BAD_BLIND"
"""A blind of the wrong size or posted from the wrong seat for the button."""

BAD_ANTE = "BAD_ANTE"
"""An ante of the wrong size."""

BAD_BUTTON = "BAD_BUTTON"
"""The button is on a seat nobody holds."""

MISSING_ACTION = "MISSING_ACTION"
"""The history moves on while a player still had to act or to draw."""

UNKNOWN_PLAYER = "UNKNOWN_PLAYER"
"""A step names a player who is not seated at the table (or was not dealt in)."""

BAD_DRAW = "BAD_DRAW"
"""A draw that cannot be: more cards than the game allows, discards the player does not
hold, a count that disagrees with the cards, or more cards than the deck can give."""

DUPLICATE_CARD = "DUPLICATE_CARD"
"""One card seen twice in a hand: in two hands at once, or received again without the
deck having run out since it was thrown."""

SHOW_MISMATCH = "SHOW_MISMATCH"
"""Cards shown or mucked that are not the hand the player is known to hold."""

SHOWDOWN_ORDER = "SHOWDOWN_ORDER"
"""Hands shown in another order than the rules say (the last aggressor first)."""

WRONG_WINNER = "WRONG_WINNER"
"""A pot went to a player who did not have the best hand among those eligible for it, or
the best hand got nothing."""

UNDECIDED = "UNDECIDED"
"""A showdown whose winner cannot be checked because the hands were not written."""

POT_MISMATCH = "POT_MISMATCH"
"""A pot the site states (total pot, main or side pot) differs from the chips put in."""

UNCALLED_MISMATCH = "UNCALLED_MISMATCH"
"""An uncalled bet returned of the wrong amount or to the wrong player, or not reported
by a site that always reports it."""

COLLECT_MISMATCH = "COLLECT_MISMATCH"
"""What the players collected plus the rake is not what the pot held."""

RAKE_MISMATCH = "RAKE_MISMATCH"
"""The stated rake is negative, larger than the pot, or disagrees with the site's own
totals while the collected amounts agree."""

NET_MISMATCH = "NET_MISMATCH"
"""A player's result stated by the site differs from the replay's."""

STACK_MISMATCH = "STACK_MISMATCH"
"""Chips that do not exist: a player puts in more than the stack, or a stack that does
not carry over from the previous hand at the table."""

STACK_CHANGE = "STACK_CHANGE"
"""A cash-game stack that changed between two hands by an amount a top-up or a rebuy
explains (sites do not always log them): a warning."""

HAND_MISSING = "HAND_MISSING"
"""A hand missing from the history between two hands of a table (the button moved past a
seat dealt in both, the hands are close in time, and stacks changed): a warning on the
table's chain in place of the stacks' mismatches; both hands keep their own verdicts."""

RUN_IT_TWICE = "RUN_IT_TWICE"
"""A hand run twice at a site whose profile does not allow it."""

PAYOUT_UNSTATED = "PAYOUT_UNSTATED"
"""The history does not say who collected what (a format where payouts are optional): the
winners are computed, but the collections cannot be checked.  A warning."""

UNKNOWN_LINE = "UNKNOWN_LINE"
"""A line the reader could not place, kept as a warning with its text: reading goes on and
the replay's accounting of every chip and card decides whether the hand is sound."""

DRAW_INFERRED = "DRAW_INFERRED"
"""A draw the history did not write as a line, worked out by the reader from the cards
before and after it: a warning."""

REPLAY_FAILED = "REPLAY_FAILED"
"""The replay itself failed on this record (a bug of ours, reported instead of crashing)."""

DECK_EXHAUSTED = "DECK_EXHAUSTED"
"""A card dealt after the deck ran out in a home game played with "no replacement": once
the stub and the discards shuffled into a new one are used up, nobody draws a card."""

UP_CARD_MISMATCH = "UP_CARD_MISMATCH"
"""Shotgun: a player's face-up first card is not written, is not a card of their hand, or a
face-up card is written in a game that deals none."""

CARRIED_POT_MISMATCH = "CARRIED_POT_MISMATCH"
"""The pot a home hand starts with differs from what the hand before it left in (the antes
of a hand nobody opened, or of a misdeal), or a pot is carried in where none was left."""

DEALER_MISMATCH = "DEALER_MISMATCH"
"""The deal after a misdeal is not dealt by the same dealer, or the deal after a hand
nobody opened does not pass to the next dealer."""

NOT_IN_DECK = "NOT_IN_DECK"
"""A card the game's deck does not hold: a joker where no joker is dealt."""

CODES: dict[str, str] = {
    OUT_OF_TURN: "A player acted or drew out of turn.",
    ILLEGAL_ACTION: "An action the rules do not allow at that point.",
    BAD_AMOUNT: "A call, bet or raise of the wrong size.",
    CAP_EXCEEDED: "A raise after the betting round was capped.",
    BAD_BLIND: "A blind of the wrong size or from the wrong seat.",
    BAD_ANTE: "An ante of the wrong size.",
    BAD_BUTTON: "The button is on a seat nobody holds.",
    MISSING_ACTION: "The history moves on while a player still had to act or draw.",
    UNKNOWN_PLAYER: "A step names a player who is not at the table.",
    BAD_DRAW: "A draw that cannot be.",
    DUPLICATE_CARD: "One card seen twice in a hand.",
    SHOW_MISMATCH: "Cards shown that are not the hand the player holds.",
    SHOWDOWN_ORDER: "Hands shown in another order than the rules say.",
    WRONG_WINNER: "A pot went to the wrong player.",
    UNDECIDED: "The winner of a showdown cannot be checked.",
    POT_MISMATCH: "A stated pot differs from the chips put in.",
    UNCALLED_MISMATCH: "An uncalled bet returned wrongly.",
    COLLECT_MISMATCH: "Collected plus rake is not the pot.",
    RAKE_MISMATCH: "The stated rake is impossible.",
    NET_MISMATCH: "A stated result differs from the replay's.",
    STACK_MISMATCH: "Chips that do not exist.",
    STACK_CHANGE: "A cash stack changed between hands (top-up or rebuy).",
    HAND_MISSING: "A hand missing between two hands of a table (a warning).",
    RUN_IT_TWICE: "Run twice where the site does not.",
    PAYOUT_UNSTATED: "No payouts written: the collections cannot be checked.",
    UNKNOWN_LINE: "A line the reader could not place (kept as a warning).",
    DRAW_INFERRED: "A draw worked out from the cards, not written as a line.",
    REPLAY_FAILED: "The replay failed on this record.",
    DECK_EXHAUSTED: "A card dealt after the deck ran out (no replacement).",
    UP_CARD_MISMATCH: "A shotgun face-up card missing or not in the hand.",
    CARRIED_POT_MISMATCH: "The carried pot differs from what the hand before left.",
    DEALER_MISMATCH: "The wrong dealer after a misdeal or a hand nobody opened.",
    NOT_IN_DECK: "A card the game's deck does not hold (a joker).",
}


@dataclass(frozen=True, slots=True)
class Finding:
    """A problem before it has a line: what the state machine can say by itself."""

    code: str
    message: str
    severity: Severity = Severity.ERROR

    def at(self, line: int) -> Problem:
        return Problem(self.code, self.severity, line, self.message)
