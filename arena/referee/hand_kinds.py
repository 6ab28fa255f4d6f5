"""What differs between a trick-taking game's hand and a bidding game's (Twenty-eight) for the
table: how it is dealt and started, what a seat is asked and told, what an illegal answer is and
what the hand is worth. In one place so that the table's loops need not repeat themselves per game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TypeAlias

from arena.contract.messages import (
    AnyHandEnd,
    AnyRules,
    BiddingDecisionRequest,
    BiddingHandEnd,
    DecisionRequest,
    HandEnd,
    Move,
)
from arena.contract.time_control import SeatClock
from arena.engine.actions import CallTrump, DeclineTrump, HideTrump, PlayCard
from arena.engine.auction import Bid, Pass
from arena.engine.bidding_hand import BiddingHand
from arena.engine.bidding_observation import observe_bidding
from arena.engine.bidding_outcome import BiddingMatchScore, BiddingResult
from arena.engine.bidding_rules import BiddingRules
from arena.engine.chance import derive_seed
from arena.engine.deal import Deal
from arena.engine.errors import IllegalActionError
from arena.engine.hand import HandState
from arena.engine.match import MatchScore
from arena.engine.observation import observe
from arena.engine.outcome import HandResult, hand_value
from arena.engine.rules import Rules
from arena.referee.table_values import AnyResult
from arena.referee.tally import bidding_hand_value, duplicate_tally

AnyHand: TypeAlias = HandState | BiddingHand
"""A hand the table plays: a trick-taking game's, or a bidding game's (Twenty-eight)."""

AnyScore: TypeAlias = MatchScore | BiddingMatchScore
"""The match score a seat sees: a trick-taking game's, or a bidding game's game points."""


def deal_of(rules: AnyRules, match_seed: int, number: int) -> Deal:
    """Deal ``number`` of the match seeded ``match_seed``."""
    deck_rules = rules.deal_rules if isinstance(rules, BiddingRules) else rules
    return Deal.from_seed(deck_rules, derive_seed(match_seed, "deal", number))


def new_hand(rules: AnyRules, deal: Deal, dealer: int) -> AnyHand:
    """The hand of ``rules``'s game, ``deal`` dealt by ``dealer``."""
    if isinstance(rules, BiddingRules):
        return BiddingHand(rules, deal, dealer)
    return HandState(rules, deal, dealer)


def apply_move(state: AnyHand, action: Move) -> None:
    """Apply one of ``state``'s own legal actions."""
    if isinstance(state, BiddingHand):
        assert not isinstance(action, CallTrump | DeclineTrump)
        state.apply(action)
    else:
        assert not isinstance(action, Bid | Pass)
        state.apply(action)


def value_of(rules: AnyRules, result: AnyResult) -> float:
    """A finished hand's value for team 0 (+ won, - lost)."""
    if isinstance(result, BiddingResult):
        return bidding_hand_value(result)
    assert isinstance(rules, Rules)
    return hand_value(rules, result)


def decision_request(state: AnyHand, seat: int, score: AnyScore | None, request_id: str, hand: int,
            clock: SeatClock) -> DecisionRequest | BiddingDecisionRequest:
    """The seat's view of ``state`` as a decision request of its game."""
    per_move, bank = clock.control.per_move, clock.bank_left
    if isinstance(state, BiddingHand):
        assert score is None or isinstance(score, BiddingMatchScore)
        return BiddingDecisionRequest(request_id, hand, observe_bidding(state, seat, score), per_move, bank)
    assert score is None or isinstance(score, MatchScore)
    return DecisionRequest(request_id, hand, observe(state, seat, score), per_move, bank)


def hand_end(index: int, deal: Deal, state: AnyHand, seat: int, score: AnyScore, after: AnyScore) -> AnyHandEnd:
    """What ``seat`` is told when hand ``index`` is over: its result, the four hands of ``deal``,
    the seat's last view of the hand (with the score before it) and the score ``after`` it."""
    if isinstance(state, BiddingHand):
        assert isinstance(score, BiddingMatchScore) and isinstance(after, BiddingMatchScore)
        assert state.result is not None
        return BiddingHandEnd(index, state.result, deal.hands, observe_bidding(state, seat, score), after)
    assert isinstance(score, MatchScore) and isinstance(after, MatchScore)
    assert state.result is not None
    return HandEnd(index, state.result, deal.hands, observe(state, seat, score), after)


def why_illegal(state: AnyHand, action: Move) -> str:
    """Why ``action`` is not legal in ``state``, in the engine's words."""
    try:
        if isinstance(state, BiddingHand):
            if isinstance(action, CallTrump | DeclineTrump):
                return f"{action}: not an action of this game (a bid, a pass, hide, reveal or play)"
            state.clone().apply(action)
        else:
            if isinstance(action, Bid | Pass):
                return f"{action}: there is no auction in this game"
            state.clone().apply(action)
    except IllegalActionError as exc:
        return str(exc)
    return f"{action}: not legal now"


def substitute_action(legal: Sequence[Move]) -> Move:
    """The action the referee plays for a faulty seat: its lowest legal card (or first suit; in
    an auction a pass, else the least bid)."""
    def key(action: Move) -> tuple[int, int, int]:
        if isinstance(action, PlayCard | HideTrump):
            return (0, int(action.card.rank), int(action.card.suit))
        if isinstance(action, CallTrump):
            return (1, int(action.suit), 0)
        if isinstance(action, Pass):
            return (-2, 0, 0)
        if isinstance(action, Bid):
            return (-1, action.amount, 0)
        return (2, 0, 0)
    return min(legal, key=key)


def fresh_score(rules: AnyRules, dealer: int) -> AnyScore:
    """A match score with nothing counted yet, ``dealer`` to deal."""
    return BiddingMatchScore(dealer=dealer) if isinstance(rules, BiddingRules) else MatchScore(dealer=dealer)


def pair_score_after(rules: AnyRules, before: AnyScore, next_dealer: int, result: AnyResult) -> AnyScore:
    """The score a deal pair's seats see after a play: ``before`` with the play counted (a trick
    game's duplicate tally; a bidding game's game points, a void play counting nothing), the next
    deal's dealer set."""
    if isinstance(rules, BiddingRules):
        assert isinstance(before, BiddingMatchScore) and isinstance(result, BiddingResult)
        return replace(before.after(rules, result), dealer=next_dealer)
    assert isinstance(before, MatchScore) and isinstance(result, HandResult)
    return replace(duplicate_tally(before, result, hand_value(rules, result)), dealer=next_dealer)
