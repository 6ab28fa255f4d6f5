"""Card tracking for a bidding game (Twenty-eight, Twenty-nine): what is still out, who is void,
which card is the master of its suit under the preset's rank order, and the points at stake.

The trick-taking games' ``CardTracker`` knows the ace-high order and the tens; a bidding game
ranks J 9 A 10 K Q 8 7 and counts card points, so it has a tracker of its own. Like that one it is
a pure function of one seat's observation (``BiddingTracker.from_view``): build a fresh one for
every decision, and nothing in it is guessed. Who holds what comes from ``bidding_facts``, the
same facts the sampler draws worlds from, so the two never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.engine.bidding_observation import BiddingObservation
from arena.engine.cards import SUIT_MASKS, Card, CardMask, cards_of
from arena.engine.ranking import RankOrder, card_points, strength
from arena.engine.seats import Seat
from sdk.bidding_sampling import BiddingFacts, bidding_facts
from sdk.bot import BiddingView

__all__ = ["BiddingTracker"]


@dataclass(frozen=True, slots=True)
class BiddingTracker:
    """One seat's knowledge of where the cards of a bidding hand are."""

    seat: Seat
    order: RankOrder
    facts: BiddingFacts
    mine: CardMask
    """This seat's hand, and its own face-down trump card while it is down."""
    points_taken: tuple[int, int]
    """Card points each team has taken so far (the observation's)."""

    @classmethod
    def from_view(cls, view: BiddingObservation | BiddingView) -> BiddingTracker:
        obs = view.observation if isinstance(view, BiddingView) else view
        mine = sum(1 << card for card in obs.hand)
        if obs.hidden_trump_card is not None:
            mine |= 1 << obs.hidden_trump_card
        return cls(obs.seat, obs.rules.rank_order, bidding_facts(obs), mine, obs.points)

    @property
    def unknown(self) -> CardMask:
        """The cards of the pack this seat has not seen: in the other hands, still to be dealt,
        or the bidder's face-down card (for a seat that is not the bidder)."""
        return self.facts.unknown

    @property
    def out(self) -> CardMask:
        """The cards not yet played that this seat does not hold (the unknown ones and the exposed
        trump card still in the bidder's hand)."""
        known_elsewhere = 0
        for seat, known in enumerate(self.facts.known):
            if seat != self.seat:
                known_elsewhere |= known
        return self.unknown | known_elsewhere

    def out_of(self, suit: int) -> CardMask:
        return self.out & SUIT_MASKS[suit]

    def higher_out(self, card: int) -> CardMask:
        """The cards of ``card``'s suit still out that rank above it in this game."""
        rank = strength(self.order, card)
        return sum(1 << c for c in cards_of(self.out_of(card // 13)) if strength(self.order, c) > rank)

    def top_out(self, suit: int) -> Card | None:
        """The highest card of ``suit`` still out, in this game's rank order."""
        cards = cards_of(self.out_of(suit))
        return max(cards, key=lambda c: strength(self.order, c)) if cards else None

    def is_master(self, card: int) -> bool:
        """No card of its suit that ranks above ``card`` is still out."""
        return not self.higher_out(card)

    def void(self, seat: Seat, suit: int) -> bool:
        """``seat`` has shown it holds no unknown card of ``suit`` (failed to follow it, or called
        for the trump and then played another suit)."""
        return bool(self.facts.voids[seat] >> suit & 1)

    @property
    def card_points_out(self) -> int:
        """Card points in the cards not yet played, this seat's own included (Twenty-nine's point
        for the last trick apart)."""
        return card_points(self.out | self.mine)
