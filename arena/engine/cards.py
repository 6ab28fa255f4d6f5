"""Cards, suits, ranks and card sets.

Hot values are plain ints: a card is ``suit * 13 + rank`` (0..51) and a set of cards is a
bitmask (``CardMask``). ``Card`` is an ``int`` subclass with a text round trip
(``Card.parse("10H")`` / ``str(card)``) so users never need to see the numbers.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import TypeAlias

from arena.engine.errors import InvalidCardError

CardMask: TypeAlias = int
"""A set of cards as a bitmask: bit ``c`` is set when card ``c`` is in the set."""


class Suit(IntEnum):
    """The four suits; the letter is the text form (``S H D C``)."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return "SHDC"[self]

    def __str__(self) -> str:
        return self.letter

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``S``/``H``/``D``/``C`` (any case) or a suit symbol."""
        key = text.strip().upper()
        if key in _SUIT_BY_TEXT:
            return _SUIT_BY_TEXT[key]
        raise InvalidCardError(f"{text!r} is not a suit (expected one of S, H, D, C)")


_SUIT_BY_TEXT = {
    "S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS,
    "♠": Suit.SPADES, "♥": Suit.HEARTS, "♦": Suit.DIAMONDS, "♣": Suit.CLUBS,
    "SPADES": Suit.SPADES, "HEARTS": Suit.HEARTS, "DIAMONDS": Suit.DIAMONDS, "CLUBS": Suit.CLUBS,
}


class Rank(IntEnum):
    """Ranks from low to high; the ten ranks below the jack in every suit."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def label(self) -> str:
        return _RANK_LABELS[self]

    def __str__(self) -> str:
        return self.label


_RANK_LABELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_RANK_BY_TEXT = {label: Rank(i) for i, label in enumerate(_RANK_LABELS)} | {"T": Rank.TEN}


class Card(int):
    """One card; an ``int`` (``suit * 13 + rank``) with a readable face."""

    __slots__ = ()

    @property
    def suit(self) -> Suit:
        return Suit(self // 13)

    @property
    def rank(self) -> Rank:
        return Rank(self % 13)

    @property
    def bit(self) -> CardMask:
        return 1 << self

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        return CARDS[suit * 13 + rank]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``10H``, ``TH``, ``ah``, ``Q♠``: rank then suit."""
        if not isinstance(text, str):
            raise InvalidCardError(f"{text!r} is not a card (expected text such as '10H')")
        raw = text.strip().upper()
        if len(raw) < 2:
            raise InvalidCardError(f"{text!r} is not a card (expected rank then suit, e.g. '10H')")
        rank = _RANK_BY_TEXT.get(raw[:-1])
        suit = _SUIT_BY_TEXT.get(raw[-1])
        if rank is None or suit is None:
            raise InvalidCardError(f"{text!r} is not a card (expected rank then suit, e.g. '10H')")
        return CARDS[suit * 13 + rank]

    def __str__(self) -> str:
        return _CARD_TEXT[self]

    def __repr__(self) -> str:
        return f"Card.parse({_CARD_TEXT[self]!r})"


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))
_CARD_TEXT = tuple(_RANK_LABELS[i % 13] + "SHDC"[i // 13] for i in range(52))

SUIT_MASKS: tuple[CardMask, ...] = tuple(0x1FFF << (13 * s) for s in range(4))
FULL_DECK: CardMask = (1 << 52) - 1
TENS: CardMask = sum(1 << (s * 13 + Rank.TEN) for s in range(4))
ACES: CardMask = sum(1 << (s * 13 + Rank.ACE) for s in range(4))
SHORT_DECK: CardMask = sum(
    1 << (s * 13 + r) for s in range(4) for r in range(Rank.SEVEN, Rank.ACE + 1)
)
"""The 32-card pack of short Mendikot: 2s to 6s removed."""


_SUIT_CARDS: tuple[dict[int, tuple[Card, ...]], ...] = tuple({} for _ in range(4))
"""Each suit's subsets of ranks (13-bit masks) as their cards, low to high, kept as they are met:
a bot meets a few hundred of each suit's 8,192, and building them all at import cost every bot's
start 50 ms of CPU."""


def _suit_cards(suit: int, bits: int) -> tuple[Card, ...]:
    cards = tuple(CARDS[suit * 13 + rank] for rank in range(13) if bits >> rank & 1)
    _SUIT_CARDS[suit][bits] = cards
    return cards


def cards_of(mask: CardMask) -> tuple[Card, ...]:
    """The cards of a mask in a fixed order (by suit, then rank low to high)."""
    out: tuple[Card, ...] = ()
    for s in range(4):
        bits = (mask >> (13 * s)) & 0x1FFF
        if bits:
            out += _SUIT_CARDS[s].get(bits) or _suit_cards(s, bits)
    return out


def mask_of(cards: Iterable[int]) -> CardMask:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def format_cards(mask: CardMask) -> str:
    """Space-separated text of a mask, for messages and transcripts."""
    return " ".join(str(c) for c in cards_of(mask))


def parse_cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(part) for part in text.replace(",", " ").split())
