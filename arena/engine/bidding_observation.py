"""What one seat may know of a Twenty-eight hand: the only view of it meant for a bot.

A seat sees its own hand, every call of the auction and the contract (bids are public), every
card played, the points each team has taken, and the trump suit once it may know it: the bidder
from the moment it puts the card face down, everybody else only once it is exposed. The face-down
card itself is shown to the bidder alone until then. Nobody sees another hand, the cards still
to be dealt or the deal's seed.

In the first phase the hidden trump changes nothing that others see: trumps have no effect, so
the winners and points do not depend on it, and only the bidder's own legal actions (it may not
lead the trump suit) follow from it (``tests/engine/test_bidding_properties.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from arena.engine.auction import Call
from arena.engine.bidding_hand import BiddingAction, BiddingDecision, BiddingHand, Contract
from arena.engine.bidding_outcome import BiddingMatchScore, BiddingResult, team_points
from arena.engine.bidding_rules import BiddingRules
from arena.engine.cards import Card, Suit, cards_of
from arena.engine.jsonable import fields_json
from arena.engine.outcome import Trick
from arena.engine.seats import Seat, team_of
from arena.engine.trump import TrumpReveal


@dataclass(frozen=True, slots=True)
class BiddingObservation:
    """A seat's complete view of a Twenty-eight hand now."""

    rules: BiddingRules
    seat: Seat
    dealer: Seat
    first_player: Seat
    to_move: Seat | None
    decision: BiddingDecision | None
    legal_actions: tuple[BiddingAction, ...]
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, int, int, int]
    cards_to_come: tuple[int, int, int, int]
    calls: tuple[tuple[Seat, Call], ...]
    contract: Contract | None
    trump: Suit | None
    """The trump suit if this seat may know it (the bidder's own, or exposed)."""
    hidden_trump_holder: Seat | None
    """The bidder while its trump card is face down."""
    hidden_trump_card: Card | None
    """The face-down card, for the bidder only."""
    reveal: TrumpReveal | None
    trump_led: bool
    """A trick was led with the trump suit: only for a seat that knows the suit (it would tell
    the others which suit is trumps)."""
    must_play_trump: bool
    trick_number: int
    current_trick: tuple[tuple[Seat, Card], ...]
    tricks: tuple[Trick, ...]
    points: tuple[int, int]
    """Card points each team has taken so far (the last trick's point once it is won)."""
    result: BiddingResult | None
    match: BiddingMatchScore | None

    JSON_OMIT: ClassVar[frozenset[str]] = frozenset({"rules"})

    @property
    def my_turn(self) -> bool:
        return self.to_move == self.seat

    @property
    def tricks_won(self) -> tuple[int, int]:
        """Tricks each team has won so far (public: every finished trick's winner is)."""
        won = [0, 0]
        for trick in self.tricks:
            won[team_of(trick.winner)] += 1
        return (won[0], won[1])

    def to_json(self) -> dict[str, Any]:
        return fields_json(self)


def observe_bidding(hand: BiddingHand, seat: Seat, match: BiddingMatchScore | None = None) -> BiddingObservation:
    """The view of ``hand`` that ``seat`` is entitled to."""
    if seat not in (0, 1, 2, 3):
        raise ValueError(f"seat must be 0..3, not {seat!r}")
    contract = hand.contract
    hidden = hand.hidden_card
    holder = contract.bidder if hidden is not None and contract is not None else None
    trump = hand.trump if hand.reveal is not None or (holder == seat and hidden is not None) else None
    tricks = hand.tricks
    last = team_of(tricks[-1].winner) if len(tricks) == hand.rules.hand_size else None
    my_turn = hand.to_move == seat
    return BiddingObservation(
        rules=hand.rules,
        seat=seat,
        dealer=hand.dealer,
        first_player=hand.first_player,
        to_move=hand.to_move,
        decision=hand.decision,
        legal_actions=hand.legal_actions() if my_turn else (),
        hand=cards_of(hand.hand(seat)),
        hand_sizes=_four([hand.hand(s).bit_count() for s in range(4)]),
        cards_to_come=_four([hand.undealt(s).bit_count() for s in range(4)]),
        calls=hand.auction.calls,
        contract=contract,
        trump=trump,
        hidden_trump_holder=holder,
        hidden_trump_card=hidden if holder == seat else None,
        reveal=hand.reveal,
        trump_led=hand.trump_led and trump is not None,
        must_play_trump=hand.must_play_trump and my_turn,
        trick_number=hand.trick_number,
        current_trick=hand.current_trick,
        tricks=tricks,
        points=team_points(hand.rules, (hand.captured(0), hand.captured(1)), last),
        result=hand.result,
        match=match,
    )


def _four(values: list[int]) -> tuple[int, int, int, int]:
    a, b, c, d = values
    return (a, b, c, d)
