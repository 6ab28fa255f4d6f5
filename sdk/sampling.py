"""Imagined deals: place the cards a seat cannot see, consistently with everything it knows.

A search bot asks "what could the other hands be?" many times per decision. ``Sampler`` answers
with a ``Placement`` of the unseen cards (the other hands, the packets still to be dealt, a
face-down trump the seat did not set, and the maker's face-down discards it may not see) that
respects every hand size, every void the seat has seen, every card whose holder is known, (cut
trump) the voids shown before the deal was completed, and (``reveal: on_play``) the suits a
face-down trump can be of given the trick winners it decided (``CardTracker.hidden_suits``). A
face-down discard is a one-card place with its own voids: neither the led suit nor a suit its
player had shown void in before (``CardTracker.face_down_slots``); an on_play trump is a
one-card place barred from the suits the winners exclude. Each consistent placement is equally
likely: the sampler is exact, not greedy.

How it stays exact and fast: cards of one suit are interchangeable for the constraints (voids are
per suit), so a placement is drawn in two steps. First how many cards of each suit go to each
constrained hand, weighted by the number of placements with those counts (a small dynamic
programme over the hands' remaining room, computed once per observation and cached); then which
cards, by shuffling each suit. Hands with no relevant void, the packets to come and a
face-down card of any suit accept any card, so they share one slot that is split at the end;
an on_play face-down card with suits ruled out is a constrained one-card "hand".

``sample_states`` turns placements into playable ``HandState`` values through
``sdk.worlds``: worlds the seat cannot tell from the real one.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from math import factorial

from arena.engine.cards import CARDS, SUIT_MASKS, Card, CardMask, cards_of
from arena.engine.hand import HandState
from arena.engine.observation import Observation
from sdk.bot import BotView
from sdk.tracker import CardTracker
from sdk.worlds import WorldBuilder

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


class _SlotKind(Enum):
    """Where a slot's cards go; a slot is a destination with a size, ``(kind, index)``."""

    HAND = "hand"
    """The hand of seat ``index``."""
    UNDEALT = "undealt"
    """The packets seat ``index`` is still to be dealt."""
    HIDDEN = "hidden"
    """The face-down trump card of its holder ``index`` (size 1)."""
    DOWN = "down"
    """The ``index``-th face-down discard the seat may not see (size 1)."""


_Slot = tuple[_SlotKind, int]
_Options = tuple[list[int], list[tuple[int, ...]], int]
"""Cumulative weights, the matching counts per constrained hand, and the total weight."""


class Sampler:
    """Draws placements for one observation; build it once per decision, then ``sample`` often."""

    __slots__ = (
        "_allowed",
        "_base_hands",
        "_base_undealt",
        "_caps",
        "_constrained",
        "_free_sizes",
        "_free_slots",
        "_hidden",
        "_limits",
        "_memo",
        "_n_down",
        "_pool",
        "_suit_cards",
        "_suit_counts",
        "_worlds",
        "observation",
        "tracker",
    )

    def __init__(self, view: Observation | BotView) -> None:
        obs = view.observation if isinstance(view, BotView) else view
        tracker = CardTracker.from_view(obs)
        self.observation = obs
        self.tracker = tracker
        me = obs.seat
        pool = tracker.unknown
        self._pool = pool
        base = [tracker.known[s] for s in range(4)]
        base[me] = tracker.hand
        self._base_hands = tuple(base)
        self._base_undealt = (0, 0, 0, 0)
        self._hidden: Card | None = tracker.own_hidden

        constrained: list[_Slot] = []
        barred: list[int] = []
        caps: list[int] = []
        free_slots: list[_Slot] = []
        free_sizes: list[int] = []

        def place(slot: _Slot, room: int, barred_suits: int) -> None:
            """A slot whose barred suits hold unseen cards is placed suit by suit; else freely."""
            if _suits_mask(barred_suits) & pool and room:
                constrained.append(slot)
                barred.append(barred_suits)
                caps.append(room)
            elif room:
                free_slots.append(slot)
                free_sizes.append(room)

        for seat in range(4):
            if seat != me:
                room = tracker.hand_sizes[seat] - tracker.known[seat].bit_count()
                if room < 0:
                    raise InconsistentViewError(f"seat {seat} is known to hold more cards than it has")
                place((_SlotKind.HAND, seat), room, tracker.voids[seat])
            if tracker.cards_to_come[seat]:
                free_slots.append((_SlotKind.UNDEALT, seat))
                free_sizes.append(tracker.cards_to_come[seat])
        if tracker.hidden_holder is not None and tracker.own_hidden is None:
            # Another seat's card, or this seat's own blind one (``hidden_blind``: unknown to it
            # too). An on_play trump: only the suits the trick winners (and the holder's voids) allow.
            place((_SlotKind.HIDDEN, tracker.hidden_holder), 1, 0xF & ~tracker.hidden_suits)
        for k, suits in enumerate(tracker.face_down_slots):
            place((_SlotKind.DOWN, k), 1, suits)
        self._n_down = len(tracker.face_down_slots)
        if sum(caps) + sum(free_sizes) != pool.bit_count():
            raise InconsistentViewError(
                f"{pool.bit_count()} unseen cards for {sum(caps) + sum(free_sizes)} places"
            )
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
        self._limits = _cut_limits(obs, tracker)
        self._memo: dict[tuple[int, tuple[int, ...]], _Options] = {}
        self._worlds = WorldBuilder(obs)
        if self.count_unlimited() == 0:
            raise InconsistentViewError("no placement of the unseen cards respects the voids shown")

    # ------------------------------------------------------------------ counting
    def _options_for(self, k: int, caps: tuple[int, ...]) -> _Options:
        """The ways to place level ``k``'s suit given the constrained hands' room ``caps``."""
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
                low = max(0, count - free_room)  # cards the constrained hands must take
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
        """The number of consistent placements, ignoring the cut-trump early-void limits."""
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
        undealt = list(self._base_undealt)
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
                if kind is _SlotKind.HAND:
                    hands[index] |= mask
                elif kind is _SlotKind.HIDDEN:
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
            if kind is _SlotKind.HIDDEN:
                hidden = CARDS[part[0]]
                continue
            if kind is _SlotKind.DOWN:
                down[seat] = CARDS[part[0]]
                continue
            mask = 0
            for c in part:
                mask |= _BIT[c]
            if kind is _SlotKind.HAND:
                hands[seat] |= mask
            else:
                undealt[seat] |= mask
        return Placement(
            (hands[0], hands[1], hands[2], hands[3]),
            (undealt[0], undealt[1], undealt[2], undealt[3]),
            hidden,
            tuple(c for c in down if c is not None),
        )

    def state(self, placement: Placement) -> HandState:
        """The playable world of one placement."""
        return self._worlds.world(
            placement.hands, placement.undealt,
            None if placement.hidden_card is None else int(placement.hidden_card),
            placement.face_down,
        )

    def states(self, rng: random.Random, n: int) -> list[HandState]:
        """``n`` independent imagined worlds."""
        return [self.state(self.sample(rng)) for _ in range(n)]


def sample_placement(view: Observation | BotView, rng: random.Random) -> Placement:
    """One placement for ``view`` (build a ``Sampler`` instead when drawing many)."""
    return sampler_for(view).sample(rng)


def sample_states(view: Observation | BotView, rng: random.Random, n: int) -> list[HandState]:
    """``n`` playable worlds consistent with ``view``, drawn uniformly with ``rng``.

    The sampler of the most recent observation is kept (by identity), so calling this in a loop
    with the same observation does the per-observation set-up once.
    """
    return sampler_for(view).states(rng, n)


def sampler_for(view: Observation | BotView) -> Sampler:
    """The ``Sampler`` of ``view``, reused while the same observation object is asked about."""
    obs = view.observation if isinstance(view, BotView) else view
    cached = _LAST[0]
    if cached is not None and cached.observation is obs:
        return cached
    sampler = Sampler(obs)
    _LAST[0] = sampler
    return sampler


_LAST: list[Sampler | None] = [None]
"""A one-entry cache: search bots sample the same observation many times per decision."""


def _suits_mask(suits: int) -> CardMask:
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


def _cut_limits(obs: Observation, tracker: CardTracker) -> tuple[tuple[int, CardMask, int], ...]:
    """Cut trump: a seat void in a suit before the deal was completed can hold that suit only
    from the later packets, so its hand holds at most (later packets - those it has played since)
    cards of it."""
    if not any(tracker.early_voids) or any(obs.cards_to_come) or obs.trump_setting is None:
        return ()
    completed_after = obs.trump_setting.trick
    new_cards = sum(obs.rules.packets[1:])
    out: list[tuple[int, CardMask, int]] = []
    for seat in range(4):
        suits = tracker.early_voids[seat] & ~tracker.voids[seat]
        if not suits or seat == obs.seat:
            continue
        vmask = _suits_mask(suits)
        plays = [(s, c) for t in obs.tricks[completed_after:] for s, c in zip(t.seats, t.cards, strict=True)]
        plays += obs.current_trick
        played_since = sum(1 for s, c in plays if s == seat and c is not None and vmask >> c & 1)
        limit = new_cards - played_since
        if limit < tracker.hand_sizes[seat]:
            out.append((seat, vmask, limit))
    return tuple(out)
