"""The exact draw behind every sampler: unseen cards into places with room, some barred from suits.

A sampler (``sdk.sampling`` for the trick-taking games, ``sdk.bidding_sampling`` for
Twenty-eight) reads an observation and says where the unseen cards may go: each place a
``PlaceSpec`` (a seat's hand, its packets to come, a face-down card), its room and the suits it
may not hold. ``PlacementDraw`` then draws a ``Placement`` uniformly among all that fit.

Cards of one suit are interchangeable for the constraints (bars are per suit), so a placement is
drawn in two steps: first how many cards of each suit go to each barred place, weighted by the
number of placements with those counts (a small dynamic programme over the places' remaining
room, memoised); then which cards, by shuffling each suit. Places with no bar that matters share
one slot that is split at the end.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from math import factorial

from arena.engine.cards import CARDS, SUIT_MASKS, Card, CardMask, cards_of

_FACT = tuple(factorial(n) for n in range(53))
_BIT = tuple(1 << c for c in range(52))


@dataclass(frozen=True, slots=True)
class Placement:
    """Where the unseen cards are in one imagined world (the seat's own hand included as is)."""

    hands: tuple[CardMask, CardMask, CardMask, CardMask]
    undealt: tuple[CardMask, CardMask, CardMask, CardMask]
    hidden_card: Card | None
    """The face-down trump card while it is down (the seat's own one when it set it)."""
    face_down: tuple[Card, ...] = ()
    """The face-down discards this seat may not see, in the order played."""


class InconsistentViewError(ValueError):
    """No placement of the unseen cards fits the observation (a bug or a forged view)."""


class SlotKind(Enum):
    """Where a place's cards go; a place is ``(kind, index)``."""

    HAND = "hand"
    """The hand of seat ``index``."""
    UNDEALT = "undealt"
    """The packets seat ``index`` is still to be dealt."""
    HIDDEN = "hidden"
    """The face-down trump card of its holder ``index`` (size 1)."""
    DOWN = "down"
    """The ``index``-th face-down discard the seat may not see (size 1)."""


Slot = tuple[SlotKind, int]
_Options = tuple[list[int], list[tuple[int, ...]], int]
"""Cumulative weights, the matching counts per barred place, and the total weight."""


@dataclass(frozen=True, slots=True)
class PlaceSpec:
    """One place for unseen cards: where, how many, and the suits (bits 0..3) it may not hold."""

    slot: Slot
    room: int
    barred_suits: int = 0


Limit = tuple[int, CardMask, int]
"""``(seat, cards, most)``: seat's hand may hold at most ``most`` of ``cards`` (checked by rejection)."""


class PlacementDraw:
    """Uniform placements of ``pool`` into ``places`` on top of the known ``base_hands``."""

    __slots__ = (
        "_allowed",
        "_base_hands",
        "_caps",
        "_constrained",
        "_free_sizes",
        "_free_slots",
        "_hidden",
        "_limits",
        "_memo",
        "_n_down",
        "_suit_cards",
        "_suit_counts",
    )

    def __init__(self, pool: CardMask, base_hands: Sequence[CardMask], hidden: Card | None,
                 places: Sequence[PlaceSpec], limits: tuple[Limit, ...] = ()) -> None:
        self._base_hands = tuple(base_hands)
        self._hidden = hidden
        constrained: list[Slot] = []
        barred: list[int] = []
        caps: list[int] = []
        free_slots: list[Slot] = []
        free_sizes: list[int] = []
        for place in places:
            if place.room < 0:
                raise InconsistentViewError(f"{place.slot[0].value} {place.slot[1]} has room for {place.room} cards")
            if suits_mask(place.barred_suits) & pool and place.room:
                constrained.append(place.slot)
                barred.append(place.barred_suits)
                caps.append(place.room)
            elif place.room:
                free_slots.append(place.slot)
                free_sizes.append(place.room)
        self._n_down = sum(place.slot[0] is SlotKind.DOWN for place in places)
        if sum(caps) + sum(free_sizes) != pool.bit_count():
            raise InconsistentViewError(f"{pool.bit_count()} unseen cards for {sum(caps) + sum(free_sizes)} places")
        self._constrained = tuple(constrained)
        self._caps = tuple(caps)
        self._free_slots = tuple(free_slots)
        self._free_sizes = tuple(free_sizes)
        allowed = [tuple(j for j, suits in enumerate(barred) if not suits >> s & 1) for s in range(4)]
        # One level per suit with unseen cards; the suit with the most choices goes last, where
        # its placement is forced by the room left (so it is never enumerated).
        levels = sorted(
            (s for s in range(4) if pool & SUIT_MASKS[s]),
            key=lambda s: (len(allowed[s]), (pool & SUIT_MASKS[s]).bit_count()),
        )
        self._suit_cards = tuple(cards_of(pool & SUIT_MASKS[s]) for s in levels)
        self._suit_counts = tuple(len(cards) for cards in self._suit_cards)
        self._allowed = tuple(allowed[s] for s in levels)
        self._limits = limits
        self._memo: dict[tuple[int, tuple[int, ...]], _Options] = {}
        if self.count_unlimited() == 0:
            raise InconsistentViewError("no placement of the unseen cards respects the voids shown")

    @property
    def limits(self) -> tuple[Limit, ...]:
        return self._limits

    # ------------------------------------------------------------------ counting
    def _options_for(self, k: int, caps: tuple[int, ...]) -> _Options:
        """The ways to place level ``k``'s suit given the barred places' room ``caps``."""
        key = (k, caps)
        found = self._memo.get(key)
        if found is not None:
            return found
        cum: list[int] = []
        dists: list[tuple[int, ...]] = []
        total = 0
        levels = len(self._suit_counts)
        if k == levels:
            if not any(caps):
                cum, dists, total = [1], [()], 1
        else:
            count = self._suit_counts[k]
            allowed = self._allowed[k]
            free_room = sum(self._suit_counts[k:]) - sum(caps)
            if k == levels - 1:
                # The last suit fills exactly the room that is left.
                choices: list[tuple[int, ...]] = []
                if all(c == 0 or j in allowed for j, c in enumerate(caps)) and 0 <= free_room <= count:
                    choices.append(tuple(caps[j] for j in allowed))
            else:
                low = max(0, count - free_room)  # cards the barred places must take
                choices = [d for d in _compositions(count, [caps[j] for j in allowed]) if sum(d) >= low]
            fact = _FACT
            for dist in choices:
                ways = fact[count] // fact[count - sum(dist)]
                new_caps = list(caps)
                for j, n in zip(allowed, dist, strict=True):
                    new_caps[j] -= n
                    ways //= fact[n]
                weight = ways * self._options_for(k + 1, tuple(new_caps))[2]
                if weight:
                    total += weight
                    cum.append(total)
                    full = [0] * len(caps)
                    for j, n in zip(allowed, dist, strict=True):
                        full[j] = n
                    dists.append(tuple(full))
        result = (cum, dists, total)
        self._memo[key] = result
        return result

    def count_unlimited(self) -> int:
        """The number of consistent placements, ignoring the ``limits``."""
        ways = self._options_for(0, self._caps)[2]
        free = sum(self._free_sizes)
        split = _FACT[free]
        for size in self._free_sizes:
            split //= _FACT[size]
        return ways * split

    # ------------------------------------------------------------------ sampling
    def sample(self, rng: random.Random) -> Placement:
        """One placement, uniformly among the consistent ones."""
        for _ in range(10_000):
            placement = self._draw(rng)
            if not self._limits or all(
                (placement.hands[seat] & vmask).bit_count() <= limit for seat, vmask, limit in self._limits
            ):
                return placement
        raise InconsistentViewError("could not place the unseen cards within the cut-trump limits")

    def _draw(self, rng: random.Random) -> Placement:
        hands = list(self._base_hands)
        undealt = [0, 0, 0, 0]
        hidden = self._hidden
        down: list[Card | None] = [None] * self._n_down
        free: list[Card] = []
        constrained = self._constrained
        if not constrained:
            for cards in self._suit_cards:
                free += cards
        else:
            caps = self._caps
            extra = [0] * len(constrained)
            for k, cards in enumerate(self._suit_cards):
                cum, dists, total = self._options_for(k, caps)
                dist = dists[bisect_right(cum, rng.randrange(total))] if len(dists) > 1 else dists[0]
                if any(dist):
                    shuffled = list(cards)
                    rng.shuffle(shuffled)
                    pos = 0
                    for j, n in enumerate(dist):
                        if n:
                            mask = 0
                            for c in shuffled[pos:pos + n]:
                                mask |= _BIT[c]
                            extra[j] |= mask
                            pos += n
                    free += shuffled[pos:]
                    caps = tuple(c - n for c, n in zip(caps, dist, strict=True))
                else:
                    free += cards
            for (kind, index), mask in zip(constrained, extra, strict=True):
                if kind is SlotKind.HAND:
                    hands[index] |= mask
                elif kind is SlotKind.HIDDEN:
                    hidden = CARDS[mask.bit_length() - 1]
                else:
                    down[index] = CARDS[mask.bit_length() - 1]
        slots = self._free_slots
        if len(slots) > 1:
            rng.shuffle(free)
        pos = 0
        for (kind, seat), size in zip(slots, self._free_sizes, strict=True):
            part = free[pos:pos + size]
            pos += size
            if kind is SlotKind.HIDDEN:
                hidden = CARDS[part[0]]
                continue
            if kind is SlotKind.DOWN:
                down[seat] = CARDS[part[0]]
                continue
            mask = 0
            for c in part:
                mask |= _BIT[c]
            if kind is SlotKind.HAND:
                hands[seat] |= mask
            else:
                undealt[seat] |= mask
        return Placement(
            (hands[0], hands[1], hands[2], hands[3]),
            (undealt[0], undealt[1], undealt[2], undealt[3]),
            hidden,
            tuple(c for c in down if c is not None),
        )


def suits_mask(suits: int) -> CardMask:
    """Every card of the suits whose bits (0..3) are set in ``suits``."""
    mask = 0
    for s in range(4):
        if suits >> s & 1:
            mask |= SUIT_MASKS[s]
    return mask



def _compositions(total: int, caps: list[int]) -> Iterator[tuple[int, ...]]:
    """Every ``(n_1..n_m)`` with ``0 <= n_j <= caps[j]`` and ``sum <= total``."""
    if not caps:
        yield ()
        return
    first, rest = caps[0], caps[1:]
    for n in range(min(first, total) + 1):
        for tail in _compositions(total - n, rest):
            yield (n, *tail)
