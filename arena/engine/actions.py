"""Actions a seat can take, as small immutable values with a text round trip.

Every action value is a shared singleton (``PLAY[card]``, ``DOWN[card]``, ``CALL[suit]``,
``HIDE[card]``, ``REVEAL``, ``DECLINE``), so legal-action lists allocate nothing on the hot path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from arena.engine.cards import CARDS, Card, Suit
from arena.engine.errors import InvalidActionError, InvalidCardError


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play a card to the current trick (or lead it). ``face_down``: the caller of a hidden trump
    who cannot follow discards it unseen (``maker_discard: face_down``); it cannot win."""

    card: Card
    face_down: bool = False

    def __str__(self) -> str:
        return f"play {self.card} down" if self.face_down else f"play {self.card}"


@dataclass(frozen=True, slots=True)
class CallTrump:
    """Name the trump suit (called trump, after seeing the first five cards)."""

    suit: Suit

    def __str__(self) -> str:
        return f"call {self.suit}"


@dataclass(frozen=True, slots=True)
class HideTrump:
    """Put one of the first five cards face down; its suit is trumps (hidden trump)."""

    card: Card

    def __str__(self) -> str:
        return f"hide {self.card}"


@dataclass(frozen=True, slots=True)
class RevealTrump:
    """Ask for the face-down trump to be shown (or, as its owner, show it)."""

    def __str__(self) -> str:
        return "reveal"


@dataclass(frozen=True, slots=True)
class DeclineTrump:
    """Decline to choose trumps from the first five cards (seed 003): the rules' ``trump_card:
    later`` or ``decline: second_packet`` then say which card sets them, turned face up."""

    def __str__(self) -> str:
        return "decline"


Action: TypeAlias = PlayCard | CallTrump | HideTrump | RevealTrump | DeclineTrump

PLAY: tuple[PlayCard, ...] = tuple(PlayCard(c) for c in CARDS)
DOWN: tuple[PlayCard, ...] = tuple(PlayCard(c, face_down=True) for c in CARDS)
HIDE: tuple[HideTrump, ...] = tuple(HideTrump(c) for c in CARDS)
CALL: tuple[CallTrump, ...] = tuple(CallTrump(s) for s in Suit)
REVEAL = RevealTrump()
DECLINE = DeclineTrump()


def parse_action(text: str) -> Action:
    """Parse ``play 10H``, ``play 10H down``, ``call S``, ``hide 10H``, ``reveal`` or ``decline``;
    a bare card means play."""
    if not isinstance(text, str):
        raise InvalidActionError(f"{text!r} is not an action (expected text such as 'play 10H')")
    words = text.split()
    try:
        if len(words) == 1 and words[0].lower() == "reveal":
            return REVEAL
        if len(words) == 1 and words[0].lower() == "decline":
            return DECLINE
        if len(words) == 1:
            return PLAY[Card.parse(words[0])]
        if len(words) == 2:
            verb, arg = words[0].lower(), words[1]
            if verb == "play":
                return PLAY[Card.parse(arg)]
            if verb == "hide":
                return HIDE[Card.parse(arg)]
            if verb == "call":
                return CALL[Suit.parse(arg)]
        if len(words) == 3 and words[0].lower() == "play" and words[2].lower() == "down":
            return DOWN[Card.parse(words[1])]
    except InvalidCardError as exc:
        raise InvalidActionError(f"{text!r} is not an action: {exc}") from None
    raise InvalidActionError(
        f"{text!r} is not an action (expected 'play CARD', 'play CARD down', 'call SUIT', 'hide CARD', 'reveal' "
        "or 'decline')"
    )
