"""Where every known card is during a hand, so that no card is seen twice.

A card can be in one live hand, or thrown away.  A thrown card can come back only after
the stub ran out and the discards were shuffled into a new one (RULES.md, "The deck runs
out"), and never to the player who throws it in that same draw.  The tracker keeps, for
each thrown card, the number of reshuffles done when it was thrown: it may be dealt again
once that number has grown.

Hands of players whose cards the history does not show are ``None``: their draws are
counts only, and their cards are checked when they are shown.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Cards, format_card, format_cards
from engine.problems import BAD_DRAW, DUPLICATE_CARD, NOT_IN_DECK, SHOW_MISMATCH, Finding


class CardTracker:
    __slots__ = ("deck_size", "hands", "holder", "thrown")

    def __init__(self, deck_size: int = 52) -> None:
        self.deck_size = deck_size  # cards 0..deck_size-1 are dealt (52, 53: the jokers)
        self.holder: dict[int, str] = {}  # card -> the player holding it now
        self.hands: dict[str, list[int] | None] = {}
        self.thrown: dict[int, tuple[int, str]] = {}  # card -> (reshuffles then, who)

    def copy(self) -> CardTracker:
        other = CardTracker(self.deck_size)
        other.holder = dict(self.holder)
        other.hands = {p: (None if h is None else list(h)) for p, h in self.hands.items()}
        other.thrown = dict(self.thrown)
        return other

    def hand(self, player: str) -> Cards | None:
        h = self.hands.get(player)
        return None if h is None else tuple(h)

    def deal(self, player: str, cards: Sequence[int], hand_size: int) -> list[Finding]:
        out: list[Finding] = []
        if len(cards) != hand_size:
            out.append(
                Finding(
                    BAD_DRAW,
                    f"{player} is dealt {len(cards)} cards ({format_cards(cards)}), "
                    f"not {hand_size}",
                )
            )
        out.extend(self._claim_all(cards, player, "dealt to"))
        self.hands[player] = list(cards)
        return out

    def claim_up(self, player: str, card: int) -> list[Finding]:
        """A card dealt face up to ``player`` (shotgun) whose other cards are unknown: it is
        seen, so it is theirs until they throw it, and nobody else can hold it."""
        return self._claim_all((card,), player, "dealt face up to")

    def throw_shown(self, player: str, cards: Cards, reshuffles: int) -> None:
        """Cards ``player`` showed and then threw (the ace of a five-card draw): on the
        discard pile from now on, wherever the draw's own record leaves them."""
        for c in cards:
            if self.holder.get(c) == player:
                del self.holder[c]
            self.thrown[c] = (reshuffles, player)

    def _claim(self, card: int, player: str, reshuffles: int = 0) -> str | None:
        """``player`` gets ``card`` now; why that cannot be, or ``None``."""
        owner = self.holder.get(card)
        reason: str | None = None
        if owner is not None:
            reason = "their own hand" if owner == player else f"{owner}'s hand"
            reason = f"already in {reason}"
        elif card in self.thrown:
            then, by = self.thrown[card]
            if then >= reshuffles:
                reason = f"thrown away by {by} and the deck has not run out since"
        self.holder[card] = player
        self.thrown.pop(card, None)
        return reason

    def _claim_all(
        self, cards: Sequence[int], player: str, how: str, reshuffles: int = 0
    ) -> list[Finding]:
        """One finding per reason, naming every card it concerns (``how`` the cards came:
        "dealt to", "received by", "shown by" the player)."""
        bad: dict[str, list[int]] = {}
        holder, thrown, size = self.holder, self.thrown, self.deck_size
        for c in cards:
            if c >= size:
                out_of_deck = [x for x in cards if x >= size]
                text = f"{format_cards(out_of_deck)} {how} {player}: not a card of this deck"
                return [Finding(NOT_IN_DECK, text)]
            if c not in holder and c not in thrown:  # a card not seen before: simply taken
                holder[c] = player
                continue
            reason = self._claim(c, player, reshuffles)
            if reason is not None:
                bad.setdefault(reason, []).append(c)
        if not bad:
            return []
        return [
            Finding(DUPLICATE_CARD, f"{format_cards(cs)} {how} {player}: {reason}")
            for reason, cs in bad.items()
        ]

    def draw(
        self,
        player: str,
        count: int,
        *,
        discarded: Cards | None,
        kept: Cards | None,
        received: Cards | None,
        reshuffles_before: int,
        reshuffles_after: int,
        hand_size: int,
    ) -> list[Finding]:
        """One player's draw; counts and cards are checked against each other and the table."""
        held = self.hands.get(player)
        out: list[Finding] = []
        if discarded is not None and len(discarded) != count:
            out.append(
                Finding(
                    BAD_DRAW,
                    f"{player} draws {count} but the discards shown are "
                    f"{len(discarded)} ({format_cards(discarded) or 'none'})",
                )
            )
        if received is not None and len(received) != count:
            out.append(
                Finding(
                    BAD_DRAW,
                    f"{player} draws {count} but receives {len(received)} cards "
                    f"({format_cards(received)})",
                )
            )
        if kept is not None and received is not None and len(kept) + len(received) != hand_size:
            out.append(
                Finding(
                    BAD_DRAW,
                    f"{player} keeps {len(kept)} and receives {len(received)}: "
                    f"not a hand of {hand_size}",
                )
            )
        if held is not None:
            for verb, cards in (("discards", discarded), ("keeps", kept)):
                if cards:
                    foreign = [c for c in cards if c not in held]
                    if foreign:
                        text = f"{player} {verb} {format_cards(foreign)}, not in their hand"
                        out.append(Finding(BAD_DRAW, text))
        # what leaves the hand
        throw: Sequence[int] = ()
        if discarded is not None:
            throw = discarded
        elif held is not None and kept is not None:
            throw = [c for c in held if c not in kept]
        holder = self.holder
        thrown_now = (reshuffles_after, player)
        for c in throw:
            owner = holder.get(c)
            if owner == player:
                del holder[c]
            elif owner is not None and c not in (held or ()):
                out.append(
                    Finding(
                        DUPLICATE_CARD,
                        f"{player} discards {format_card(c)}, which is in {owner}'s hand",
                    )
                )
            self.thrown[c] = thrown_now
        # what comes in: a card thrown before the latest reshuffle may come back
        if received:
            back = [c for c in received if c in throw] if throw else []
            if back:
                text = f"{player} receives {format_cards(back)}, thrown away in this same draw"
                out.append(Finding(DUPLICATE_CARD, text))
            fresh = [c for c in received if c not in throw] if back else received
            out.extend(self._claim_all(fresh, player, "received by", reshuffles_after))
        self.hands[player] = self._new_hand(
            held, throw, kept=kept, received=received, count=count, hand_size=hand_size
        )
        return out

    @staticmethod
    def _new_hand(
        held: list[int] | None,
        throw: Sequence[int],
        *,
        kept: Cards | None,
        received: Cards | None,
        count: int,
        hand_size: int,
    ) -> list[int] | None:
        if received is None:
            return list(held) if held is not None and count == 0 else None
        if kept is not None:
            return [*kept, *received]
        if held is not None and len(throw) == count:
            return [c for c in held if c not in throw] + list(received)
        if count == hand_size:
            return list(received)
        return None

    def show(self, player: str, cards: Cards, hand_size: int, reshuffles: int) -> list[Finding]:
        """``player`` shows (or the summary reveals) ``cards`` at the end of the hand."""
        out: list[Finding] = []
        if len(cards) != hand_size:
            out.append(
                Finding(
                    SHOW_MISMATCH,
                    f"{player} shows {len(cards)} cards ({format_cards(cards)}), not {hand_size}",
                )
            )
        held = self.hands.get(player)
        if held is not None:
            if sorted(held) != sorted(cards):
                out.append(
                    Finding(
                        SHOW_MISMATCH,
                        f"{player} shows {format_cards(cards)} but holds {format_cards(held)}",
                    )
                )
            return out
        if len(set(cards)) != len(cards):
            text = f"{player} shows a card twice: {format_cards(cards)}"
            out.append(Finding(DUPLICATE_CARD, text))
        new = [c for c in dict.fromkeys(cards) if self.holder.get(c) != player]
        out.extend(self._claim_all(new, player, "shown by", reshuffles))
        self.hands[player] = list(cards)
        return out
