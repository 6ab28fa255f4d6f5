"""Deals: the four hands in the order they are dealt, from a seed or given explicitly.

Order matters: the first packet (five cards) is what the trump caller sees, what cut-trump
play starts with, and where a hidden trump card comes from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arena.engine.cards import Card, CardMask, cards_of, mask_of
from arena.engine.chance import shuffled
from arena.engine.errors import DealError, InvalidCardError
from arena.engine.jsonable import fields_json
from arena.engine.rules import Rules


@dataclass(frozen=True, slots=True)
class Deal:
    """Each seat's cards in deal order, plus the seed of the hand's random choices.

    ``chance`` drives the few random events inside a hand (the cut-trump fallback card, the
    open-random trump card), so an explicit deal replays exactly too.
    """

    hands: tuple[tuple[Card, ...], ...]
    chance: int = 0

    @classmethod
    def from_seed(cls, rules: Rules, seed: int) -> Deal:
        deck = shuffled(cards_of(rules.deck_mask), seed, "deal")
        size = rules.hand_size
        return cls(tuple(tuple(deck[s * size:(s + 1) * size]) for s in range(4)), chance=seed)

    @classmethod
    def from_text(cls, rules: Rules, hands: Sequence[Sequence[str]], chance: int = 0) -> Deal:
        """Parse ``[["AS", "10H", ...], ...]`` and check it against the rules' deck."""
        if not isinstance(hands, Sequence) or isinstance(hands, str) or len(hands) != 4:
            raise DealError("deal.hands must be a list of 4 hands")
        parsed: list[tuple[Card, ...]] = []
        for seat, hand in enumerate(hands):
            if not isinstance(hand, Sequence) or isinstance(hand, str):
                raise DealError(f"deal.hands[{seat}] must be a list of cards")
            cards = []
            for i, text in enumerate(hand):
                try:
                    cards.append(Card.parse(text))
                except InvalidCardError as exc:
                    raise DealError(f"deal.hands[{seat}][{i}]: {exc}") from None
            parsed.append(tuple(cards))
        deal = cls(tuple(parsed), chance=chance)
        deal.check(rules)
        return deal

    def check(self, rules: Rules) -> list[CardMask]:
        """Raise ``DealError`` unless this is a full deal of the rules' deck; return the masks."""
        size = rules.hand_size
        deck = rules.deck_mask
        if len(self.hands) == 4:
            try:
                # Summing bits equals OR-ing them exactly when no card repeats, which the
                # popcount check below confirms.
                masks = [sum(map(_BITS.__getitem__, hand)) for hand in self.hands]
            except (IndexError, TypeError):
                masks = []
            if masks and (masks[0] | masks[1] | masks[2] | masks[3]) == deck and all(
                m.bit_count() == size == len(h) for m, h in zip(masks, self.hands, strict=True)
            ):
                return masks
        self._explain_bad_deal(size, deck, rules)
        raise AssertionError("unreachable: _explain_bad_deal always raises")

    def _explain_bad_deal(self, size: int, deck: CardMask, rules: Rules) -> None:
        if len(self.hands) != 4:
            raise DealError(f"a deal has 4 hands, not {len(self.hands)}")
        seen: CardMask = 0
        for seat, hand in enumerate(self.hands):
            if len(hand) != size:
                raise DealError(f"deal.hands[{seat}] has {len(hand)} cards, expected {size}")
            for card in hand:
                if not isinstance(card, int) or not 0 <= card < 52:
                    raise DealError(f"deal.hands[{seat}]: {card!r} is not a card")
                if seen >> card & 1:
                    raise DealError(f"deal.hands[{seat}]: card {card} is dealt twice")
                if not deck >> card & 1:
                    raise DealError(f"deal.hands[{seat}]: card {card} is not in the {rules.deck} deck")
                seen |= 1 << card
        raise DealError("the deal does not use every card of the deck exactly once")

    def mask(self, seat: int) -> CardMask:
        return mask_of(self.hands[seat])

    def to_json(self) -> dict[str, Any]:
        return fields_json(self)

    def rotated(self, shift: int) -> Deal:
        """The same cards with every hand moved ``shift`` seats on (for duplicate play)."""
        return Deal(tuple(self.hands[(s - shift) % 4] for s in range(4)), self.chance)


_BITS = tuple(1 << c for c in range(52))
