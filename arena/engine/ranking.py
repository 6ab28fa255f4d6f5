"""Rank orders and card points: how strong a card is in its suit, and what it is worth.

The engine's ``Rank`` numbers the ranks ace high (``card % 13``), which is the order of every
Dehla Pakad, Mendikot and Court Piece preset. Twenty-eight and Twenty-nine rank every suit
**J 9 A 10 K Q 8 7** and count card points J 3, 9 2, A 1, 10 1 (``docs/rules.md``), so a game
that plays them compares cards through ``strength`` here, never through ``card % 13``.
"""

from __future__ import annotations

from enum import StrEnum

from arena.engine.cards import CardMask, Rank


class RankOrder(StrEnum):
    """The order of the ranks within a suit, high to low."""

    ACE_HIGH = "ace_high"
    """A K Q J 10 9 ... 2: Dehla Pakad, Mendikot, Court Piece."""
    JACK_NINE = "jack_nine"
    """J 9 A 10 K Q 8 7: Twenty-eight and Twenty-nine."""


_HIGH_TO_LOW: dict[RankOrder, tuple[Rank, ...]] = {
    RankOrder.ACE_HIGH: tuple(reversed(Rank)),
    RankOrder.JACK_NINE: (
        Rank.JACK, Rank.NINE, Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.EIGHT, Rank.SEVEN,
        # Not in the 32-card pack; below the seven so that the order stays total.
        Rank.SIX, Rank.FIVE, Rank.FOUR, Rank.THREE, Rank.TWO,
    ),
}


def _strengths(order: RankOrder) -> tuple[int, ...]:
    """``strength[rank]``: 12 for the highest rank of ``order`` down to 0 for the lowest."""
    high_to_low = _HIGH_TO_LOW[order]
    out = [0] * 13
    for place, rank in enumerate(high_to_low):
        out[rank] = 12 - place
    return tuple(out)


_STRENGTH: dict[RankOrder, tuple[int, ...]] = {order: _strengths(order) for order in RankOrder}


def strength(order: RankOrder, card: int) -> int:
    """How high ``card`` ranks in its suit under ``order`` (0..12; higher beats lower)."""
    return _STRENGTH[order][card % 13]


def ranks_high_to_low(order: RankOrder) -> tuple[Rank, ...]:
    """The ranks of ``order``, highest first (for messages and the rules page)."""
    return _HIGH_TO_LOW[order]


CARD_POINTS_28: tuple[int, ...] = tuple(
    {Rank.JACK: 3, Rank.NINE: 2, Rank.ACE: 1, Rank.TEN: 1}.get(Rank(rank), 0) for rank in range(13)
)
"""Twenty-eight's card points by rank: J 3, 9 2, A 1, 10 1, the others 0 (28 in the pack)."""

_POINT_CARDS: tuple[tuple[CardMask, int], ...] = tuple(
    (sum(1 << (suit * 13 + rank) for suit in range(4)), points)
    for rank, points in enumerate(CARD_POINTS_28)
    if points
)


def card_points(mask: CardMask) -> int:
    """The card points of the cards in ``mask`` (Twenty-eight's scale)."""
    return sum((mask & cards).bit_count() * points for cards, points in _POINT_CARDS)
