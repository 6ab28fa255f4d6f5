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

How it stays exact and fast: ``sdk.placement_draw`` (shared with ``sdk.bidding_sampling``) draws
the counts of each suit per constrained place by a small memoised dynamic programme, then the
cards by shuffling each suit. An on_play face-down card with suits ruled out is a constrained
one-card "hand".

``sample_states`` turns placements into playable ``HandState`` values through
``sdk.worlds``: worlds the seat cannot tell from the real one.
"""

from __future__ import annotations

import random

from arena.engine.cards import CardMask
from arena.engine.hand import HandState
from arena.engine.observation import Observation
from sdk.bot import BotView
from sdk.placement_draw import InconsistentViewError, Limit, Placement, PlacementDraw, PlaceSpec, SlotKind, suits_mask
from sdk.tracker import CardTracker
from sdk.worlds import WorldBuilder

__all__ = ["InconsistentViewError", "Placement", "Sampler", "sample_placement", "sample_states", "sampler_for"]


class Sampler:
    """Draws placements for one observation; build it once per decision, then ``sample`` often."""

    __slots__ = ("_core", "_worlds", "observation", "tracker")

    def __init__(self, view: Observation | BotView) -> None:
        obs = view.observation if isinstance(view, BotView) else view
        tracker = CardTracker.from_view(obs)
        self.observation = obs
        self.tracker = tracker
        me = obs.seat
        base = [tracker.known[s] for s in range(4)]
        base[me] = tracker.hand
        places: list[PlaceSpec] = []
        for seat in range(4):
            if seat != me:
                room = tracker.hand_sizes[seat] - tracker.known[seat].bit_count()
                if room < 0:
                    raise InconsistentViewError(f"seat {seat} is known to hold more cards than it has")
                places.append(PlaceSpec((SlotKind.HAND, seat), room, tracker.voids[seat]))
            if tracker.cards_to_come[seat]:
                places.append(PlaceSpec((SlotKind.UNDEALT, seat), tracker.cards_to_come[seat]))
        if tracker.hidden_holder is not None and tracker.own_hidden is None:
            # Another seat's card, or this seat's own blind one (``hidden_blind``: unknown to it
            # too). An on_play trump: only the suits the trick winners (and the holder's voids) allow.
            places.append(PlaceSpec((SlotKind.HIDDEN, tracker.hidden_holder), 1, 0xF & ~tracker.hidden_suits))
        places += [PlaceSpec((SlotKind.DOWN, k), 1, suits) for k, suits in enumerate(tracker.face_down_slots)]
        self._core = PlacementDraw(tracker.unknown, base, tracker.own_hidden, places, _cut_limits(obs, tracker))
        self._worlds = WorldBuilder(obs)

    @property
    def limits(self) -> tuple[Limit, ...]:
        """Cut trump's early-void limits: ``(seat, cards, most)``, applied by rejection."""
        return self._core.limits

    def count_unlimited(self) -> int:
        """The number of consistent placements, ignoring the cut-trump early-void limits."""
        return self._core.count_unlimited()

    def sample(self, rng: random.Random) -> Placement:
        """One placement, uniformly among the consistent ones."""
        return self._core.sample(rng)

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


def _cut_limits(obs: Observation, tracker: CardTracker) -> tuple[Limit, ...]:
    """Cut trump: a seat void in a suit before the deal was completed can hold that suit only
    from the later packets, so its hand holds at most (later packets - those it has played since)
    cards of it."""
    if not any(tracker.early_voids) or any(obs.cards_to_come) or obs.trump_setting is None:
        return ()
    completed_after = obs.trump_setting.trick
    new_cards = sum(obs.rules.packets[1:])
    out: list[Limit] = []
    for seat in range(4):
        suits = tracker.early_voids[seat] & ~tracker.voids[seat]
        if not suits or seat == obs.seat:
            continue
        vmask: CardMask = suits_mask(suits)
        plays = [(s, c) for t in obs.tricks[completed_after:] for s, c in zip(t.seats, t.cards, strict=True)]
        plays += obs.current_trick
        played_since = sum(1 for s, c in plays if s == seat and c is not None and vmask >> c & 1)
        limit = new_cards - played_since
        if limit < tracker.hand_sizes[seat]:
            out.append((seat, vmask, limit))
    return tuple(out)
