"""A finished Twenty-eight hand's result, and the match score in game points.

The bidding team makes its bid if the card points of the tricks it took (plus the last trick's
point in Twenty-nine) reach the bid. It scores +1 game point if it did and -1 if not (option
``game_points: by_bid``: 14-19: 1, 20-23: 2, 24-27: 3, 28 and up: 4). A void hand (nobody
called for the trump in the first seven tricks) scores nothing and the same dealer deals again;
otherwise the deal passes to the next player. The first team to the target wins the match.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from arena.engine.bidding_rules import BiddingRules, GamePoints
from arena.engine.cards import CardMask
from arena.engine.jsonable import fields_json
from arena.engine.ranking import card_points
from arena.engine.seats import Seat, Team, next_seats, team_of

_BID_SCALE = ((28, 4), (24, 3), (20, 2))
"""``game_points: by_bid``: the least bid of each step above 1 point, highest first."""


def game_point_value(rules: BiddingRules, bid: int) -> int:
    """What a hand bid at ``bid`` is worth, won or lost (always 1 under ``game_points: one``)."""
    if rules.game_points is GamePoints.ONE:
        return 1
    return next((value for least, value in _BID_SCALE if bid >= least), 1)


@dataclass(frozen=True, slots=True)
class BiddingResult:
    """A finished hand: the contract, the points each team took, and what it scores."""

    bidder: Seat
    bid: int
    points: tuple[int, int]
    """Card points per team, the last trick's point included (Twenty-nine)."""
    void: bool
    """Nobody called for the trump in the first seven tricks: the hand stands invalid."""
    made: bool
    game_points: int
    """Signed, for the bidding team: +value if it made its bid, -value if not, 0 if void."""
    tricks_played: int

    @property
    def bidding_team(self) -> Team:
        return team_of(self.bidder)

    @property
    def winner(self) -> Team | None:
        """The team that won the hand (``None`` for a void hand)."""
        if self.void:
            return None
        return self.bidding_team if self.made else 1 - self.bidding_team

    def to_json(self) -> dict[str, Any]:
        return fields_json(self)


def team_points(rules: BiddingRules, captured: tuple[CardMask, CardMask], last_trick: Team | None) -> tuple[int, int]:
    """Each team's card points, plus the last trick's point for the team that took it."""
    bonus = rules.last_trick_points
    return (
        card_points(captured[0]) + (bonus if last_trick == 0 else 0),
        card_points(captured[1]) + (bonus if last_trick == 1 else 0),
    )


def decide_bidding_hand(
    rules: BiddingRules,
    bidder: Seat,
    bid: int,
    captured: tuple[CardMask, CardMask],
    last_trick: Team | None,
    tricks_played: int,
    void: bool = False,
) -> BiddingResult:
    """The result of a hand whose tricks went to the teams as ``captured`` says."""
    points = team_points(rules, captured, last_trick)
    if void:
        return BiddingResult(bidder, bid, points, True, False, 0, tricks_played)
    made = points[team_of(bidder)] >= bid
    value = game_point_value(rules, bid)
    return BiddingResult(bidder, bid, points, False, made, value if made else -value, tricks_played)


@dataclass(frozen=True, slots=True)
class BiddingMatchScore:
    """Game points per team between hands; ``after`` gives the next score."""

    dealer: Seat
    hands_played: int = 0
    points: tuple[int, int] = (0, 0)

    def after(self, rules: BiddingRules, result: BiddingResult) -> BiddingMatchScore:
        """The score with ``result`` counted: a void hand is dealt again by the same dealer."""
        played = self.hands_played + 1
        if result.void:
            return replace(self, hands_played=played)
        team = result.bidding_team
        points = list(self.points)
        points[team] += result.game_points
        return BiddingMatchScore(next_seats(rules.direction)[self.dealer], played, (points[0], points[1]))

    def is_over(self, rules: BiddingRules) -> bool:
        return max(self.points) >= rules.target

    def winner(self) -> Team | None:
        """The team with more game points (``None`` while level)."""
        a, b = self.points
        return None if a == b else (0 if a > b else 1)

    def to_json(self) -> dict[str, Any]:
        return fields_json(self)
