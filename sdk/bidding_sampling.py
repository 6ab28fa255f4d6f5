"""Imagined deals for Twenty-eight and Twenty-nine: the cards a seat cannot see, placed consistently
with everything its ``BiddingObservation`` shows, and the hand replayed to the same decision.

What a seat knows (``bidding_facts``): its own hand (and, as the bidder, its face-down card), every
card played, the exposed trump (back in the bidder's hand until played), the hand sizes and the
cards still to be dealt, and the suits each seat has shown void in: a seat that did not follow
the led suit holds none of it, and a seat that called for the exposure and then played no trump
holds no trump. While the trump is face down, another seat knows only that it is one of the cards
it has not seen: a one-card place of any suit, not bound by the bidder's voids (the card is not
in the bidder's hand while down). The bidder's first-phase leads say a little about its suit (the
bidder may not lead the trump suit while it holds anything else, unless trumps were led): a
placement the replay refuses for that reason is drawn again, so every consistent placement stays
equally likely.

The draw itself is ``sdk.placement_draw``'s, exact and uniform, as for the other games
(``sdk.sampling``). ``BiddingSampler.state`` gives a playable ``BiddingHand`` on the engine's own
rules whose view for the seat equals the real one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from arena.engine.actions import HIDE, PLAY, REVEAL
from arena.engine.bidding_hand import BiddingHand
from arena.engine.bidding_observation import BiddingObservation
from arena.engine.cards import Card, CardMask, cards_of, mask_of
from arena.engine.deal import Deal
from arena.engine.errors import ArenaError
from arena.engine.seats import Seat
from sdk.bot import BiddingView
from sdk.placement_draw import InconsistentViewError, Placement, PlacementDraw, PlaceSpec, SlotKind

__all__ = ["BiddingFacts", "BiddingSampler", "InconsistentViewError", "Placement", "bidding_facts",
           "sample_bidding_states"]

MAX_REDRAWS = 2000
"""Draws refused by the replay (the bidder's lead rule) before the view is called inconsistent."""

_Four = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class BiddingFacts:
    """Where the cards are, as far as one seat's view of a bidding hand says."""

    played: tuple[tuple[Card, ...], ...]
    """Each seat's cards played so far, in order."""
    known: _Four
    """The cards each seat is known to hold now: the seat's own hand, the exposed trump in the
    bidder's hand until it is played."""
    voids: _Four
    """Suit bits (1 << suit) each seat has shown it holds none of."""
    unknown: CardMask
    """The cards of the pack this seat has not seen (its own face-down card is seen)."""


def _plays(obs: BiddingObservation) -> list[list[tuple[Seat, Card]]]:
    """Every trick's plays so far, the current one last (no card is played face down here)."""
    tricks = [[(seat, card) for seat, card in zip(t.seats, t.cards, strict=True) if card is not None]
              for t in obs.tricks]
    return [*tricks, list(obs.current_trick)]


def bidding_facts(obs: BiddingObservation) -> BiddingFacts:
    """What ``obs`` says about who holds which cards."""
    played: list[list[Card]] = [[], [], [], []]
    voids = [0, 0, 0, 0]
    reveal = obs.reveal
    for number, plays in enumerate(_plays(obs), start=1):
        if not plays:
            continue
        led = plays[0][1].suit
        for position, (seat, card) in enumerate(plays):
            played[seat].append(card)
            if card.suit != led:
                voids[seat] |= 1 << led
            if reveal is not None and (reveal.trick, reveal.position) == (number, position) \
                    and card.suit != reveal.card.suit:
                voids[seat] |= 1 << reveal.card.suit  # called, then must play a trump if able
    known = [0, 0, 0, 0]
    known[obs.seat] = mask_of(obs.hand)
    seen = mask_of(obs.hand) | mask_of(c for cards in played for c in cards)
    if reveal is not None and obs.contract is not None and not any(reveal.card in p for p in played):
        known[obs.contract.bidder] |= 1 << reveal.card
        seen |= 1 << reveal.card
    if obs.hidden_trump_card is not None:
        seen |= 1 << obs.hidden_trump_card
    return BiddingFacts(
        played=tuple(tuple(p) for p in played),
        known=(known[0], known[1], known[2], known[3]),
        voids=(voids[0], voids[1], voids[2], voids[3]),
        unknown=obs.rules.deck_mask & ~seen,
    )


class BiddingSampler:
    """Draws worlds for one bidding observation; build it once per decision, then sample often."""

    __slots__ = ("_core", "facts", "observation")

    def __init__(self, view: BiddingObservation | BiddingView) -> None:
        obs = view.observation if isinstance(view, BiddingView) else view
        facts = bidding_facts(obs)
        self.observation = obs
        self.facts = facts
        me = obs.seat
        places: list[PlaceSpec] = []
        for seat in range(4):
            if seat != me:
                room = obs.hand_sizes[seat] - facts.known[seat].bit_count()
                places.append(PlaceSpec((SlotKind.HAND, seat), room, facts.voids[seat]))
            if obs.cards_to_come[seat]:
                places.append(PlaceSpec((SlotKind.UNDEALT, seat), obs.cards_to_come[seat]))
        holder = obs.hidden_trump_holder
        if holder is not None and obs.hidden_trump_card is None:
            places.append(PlaceSpec((SlotKind.HIDDEN, holder), 1))
        self._core = PlacementDraw(facts.unknown, facts.known, obs.hidden_trump_card, places)

    def count_unlimited(self) -> int:
        """The placements that respect sizes and voids (the bidder's lead rule not yet checked)."""
        return self._core.count_unlimited()

    def sample_world(self, rng: random.Random) -> tuple[Placement, BiddingHand]:
        """One placement, uniformly among the consistent ones, and its world."""
        for _ in range(MAX_REDRAWS):
            placement = self._core.sample(rng)
            world = self._replayed(placement)
            if world is not None:
                return placement, world
        raise InconsistentViewError(f"no consistent placement in {MAX_REDRAWS} draws")

    def sample(self, rng: random.Random) -> Placement:
        """One consistent placement (``sample_world`` gives its world too, for the same work)."""
        return self.sample_world(rng)[0]

    def state(self, placement: Placement) -> BiddingHand:
        """The playable world of one placement (a placement the replay refuses is an error)."""
        world = self._replayed(placement)
        if world is None:
            raise InconsistentViewError("the placement breaks a rule the hand was played by")
        return world

    def states(self, rng: random.Random, n: int) -> list[BiddingHand]:
        """``n`` independent imagined worlds."""
        return [self.sample_world(rng)[1] for _ in range(n)]

    def _deal(self, placement: Placement) -> tuple[Deal, Card | None]:
        """The deal of a placement (first packets first) and the card the bidder put face down."""
        obs = self.observation
        contract = obs.contract
        if obs.trump is None and obs.hidden_trump_holder is None and obs.reveal is None:
            # Before the trump is set: the hands now are the first packets, the rest is to come.
            hands = tuple((*cards_of(placement.hands[s]), *cards_of(placement.undealt[s])) for s in range(4))
            return Deal(hands), None
        assert contract is not None  # the trump is set only after the auction
        bidder = contract.bidder
        first = obs.reveal.card if obs.reveal is not None else placement.hidden_card
        assert first is not None  # down (this seat's own, or placed) or exposed
        out: list[tuple[Card, ...]] = []
        for seat in range(4):
            cards = [*self.facts.played[seat], *cards_of(placement.hands[seat])]
            if seat == bidder:
                cards = [first, *(c for c in cards if c != first)]
            out.append(tuple(cards))
        return Deal(tuple(out)), first

    def _replayed(self, placement: Placement) -> BiddingHand | None:
        obs = self.observation
        deal, face_down = self._deal(placement)
        try:
            state = BiddingHand(obs.rules, deal, obs.dealer)
            for _, call in obs.calls:
                state.apply(call)
            if face_down is not None:
                state.apply(HIDE[face_down])
            reveal = obs.reveal
            tricks = _plays(obs)
            for number, plays in enumerate(tricks, start=1):
                for position, (_, card) in enumerate(plays):
                    if reveal is not None and (reveal.trick, reveal.position) == (number, position):
                        state.apply(REVEAL)
                    state.apply(PLAY[card])
            if reveal is not None and state.reveal is None:
                state.apply(REVEAL)  # called in the current trick; the caller is still to play
        except ArenaError:
            return None
        return state


def sample_bidding_states(view: BiddingObservation | BiddingView, rng: random.Random, n: int) -> list[BiddingHand]:
    """``n`` playable worlds consistent with ``view``, drawn uniformly with ``rng``."""
    return BiddingSampler(view).states(rng, n)
