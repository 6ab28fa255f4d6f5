"""What the referee says to a seat and hears back, as engine-level values.

The wire adapter (``arena.wire``) turns these into protobuf messages and back; the in-process
seat (``arena.referee.in_process``) hands them to a bot object directly. Both sides therefore see exactly
the same information.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol, TypeAlias

from arena.contract.faults import Fault, FaultKind, FaultPolicy
from arena.contract.time_control import TimeControl
from arena.engine.actions import Action
from arena.engine.auction import Bid, Pass
from arena.engine.bidding_observation import BiddingObservation
from arena.engine.bidding_outcome import BiddingMatchScore, BiddingResult
from arena.engine.bidding_rules import BiddingRules
from arena.engine.cards import Card
from arena.engine.match import MatchFormat, MatchScore
from arena.engine.observation import Observation
from arena.engine.outcome import HandResult
from arena.engine.rules import Rules

Move: TypeAlias = Action | Bid | Pass
"""What a seat may answer: an action of the trick-taking games, or a call of a bidding game's
auction (Twenty-eight, Twenty-nine: protocol 1.6)."""

AnyRules: TypeAlias = Rules | BiddingRules
"""The rules of a match: a trick-taking game's, or a bidding game's."""


@dataclass(frozen=True, slots=True)
class MatchStart:
    """Sent once per match before any decision, with its own start-up budget."""

    match_id: str
    seat: int
    partner: int
    preset: str
    rules: AnyRules
    match_format: MatchFormat
    time_control: TimeControl
    policy: FaultPolicy = FaultPolicy.FORFEIT
    seat_seed: int = 0
    """For the seat's own random choices: repeatable, and says nothing about the deals
    (``arena.referee.seeds``); 0 from a referee older than protocol 1.1."""


@dataclass(frozen=True, slots=True)
class DecisionRequest:
    """One decision: the seat's complete view, its clock, and an opaque id to echo."""

    request_id: str
    hand_index: int
    observation: Observation
    per_move: float
    bank_left: float


@dataclass(frozen=True, slots=True)
class BiddingDecisionRequest:
    """One decision of a bidding game (Twenty-eight, Twenty-nine): as ``DecisionRequest``."""

    request_id: str
    hand_index: int
    observation: BiddingObservation
    per_move: float
    bank_left: float


AnyDecisionRequest: TypeAlias = DecisionRequest | BiddingDecisionRequest


@dataclass(frozen=True, slots=True)
class DecisionReply:
    request_id: str
    action: Move


@dataclass(frozen=True, slots=True)
class HandEnd:
    """After each hand: the result, all four hands (now public) in deal order, the seat's final
    view of the hand and the match score after it."""

    hand_index: int
    result: HandResult
    hands: tuple[tuple[Card, ...], ...]
    observation: Observation
    score: MatchScore | None


@dataclass(frozen=True, slots=True)
class BiddingHandEnd:
    """After each hand of a bidding game: as ``HandEnd``, with the auction's contract and card
    points in ``result`` and game points in ``score``."""

    hand_index: int
    result: BiddingResult
    hands: tuple[tuple[Card, ...], ...]
    observation: BiddingObservation
    score: BiddingMatchScore


AnyHandEnd: TypeAlias = HandEnd | BiddingHandEnd


class Termination(StrEnum):
    COMPLETED = "completed"
    FAULT = "fault"
    ABORTED = "aborted"


@dataclass(frozen=True, slots=True)
class MatchEnd:
    """After the match: why it ended, the winning team (None: level or aborted), the score
    and every fault in order."""

    termination: Termination
    winner_team: int | None
    score: MatchScore | BiddingMatchScore
    faults: tuple[Fault, ...] = ()


class BotFault(Exception):  # noqa: N818 - a fault of the bot, not of the program
    """Raised by a seat endpoint when its bot failed in one of the typed ways: ``detail`` in
    the referee's own words (sent to every seat), ``evidence`` what the bot said (record only)."""

    def __init__(self, kind: FaultKind, detail: str, evidence: str = "") -> None:
        super().__init__(f"{kind.value}: {detail}")
        self.kind = kind
        self.detail = detail
        self.evidence = evidence


class SeatEndpoint(Protocol):
    """A bot as the referee sees it. Implementations raise ``BotFault`` for bot failures and
    let anything else propagate (a platform fault)."""

    name: str

    async def start(self, start: MatchStart, timeout: float) -> None: ...

    async def decide(self, request: AnyDecisionRequest, timeout: float) -> DecisionReply: ...

    async def end_hand(self, end: AnyHandEnd, timeout: float) -> None: ...

    async def end_match(self, end: MatchEnd, timeout: float) -> None: ...

    async def close(self) -> None: ...
