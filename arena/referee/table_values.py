"""The values a table takes and gives back: its configuration (``TableConfig``), what each
decision cost (``DecisionLog``) and the match's result (``MatchOutcome``). Apart from
``table.py`` so that the recorder, which writes them, need not import the table that
plays the match."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias

from arena.contract.faults import Fault, FaultKind, FaultPolicy
from arena.contract.messages import AnyRules, Move
from arena.contract.status import OutcomeStatus
from arena.contract.time_control import TimeControl, TimeControlError
from arena.engine.bidding_hand import BiddingDecision
from arena.engine.bidding_outcome import BiddingResult
from arena.engine.hand import Decision
from arena.engine.match import MatchFormat, MatchScore
from arena.engine.outcome import HandResult


@dataclass(frozen=True, slots=True)
class TableConfig:
    match_id: str
    rules: AnyRules
    """A trick-taking game's rules, or a bidding game's (Twenty-eight, Twenty-nine)."""
    preset: str
    match_format: MatchFormat
    seed: int
    time_control: TimeControl = field(default_factory=TimeControl)
    policy: FaultPolicy = FaultPolicy.FORFEIT
    max_hands: int = 2000
    """Safety cap for ``kots:K`` and ``tens:N`` matches that take too long; the score then decides."""
    seat_time_controls: tuple[TimeControl, TimeControl, TimeControl, TimeControl] | None = None
    """Each seat's own clock, seats 0 to 3, where they differ (a person's generous one beside bots
    on the ladder's): only ``per_move`` and ``bank`` may; grace, startup and release are the
    table's (``time_control``). None: every seat's clock is ``time_control``."""

    def __post_init__(self) -> None:
        controls = self.seat_time_controls
        if controls is None:
            return
        if len(controls) != 4:
            raise TimeControlError(f"seat time controls: one for each of the 4 seats (got {len(controls)})")
        table = self.time_control
        for seat, control in enumerate(controls):
            for name in _TABLE_WIDE:
                if getattr(control, name) != getattr(table, name):
                    raise TimeControlError(f"seat {seat}'s time control {name}: must be the table's "
                                           f"({getattr(table, name)!r}, got {getattr(control, name)!r})")

    def time_control_of(self, seat: int) -> TimeControl:
        """The clock ``seat`` plays on: its own, or the table's."""
        return self.time_control if self.seat_time_controls is None else self.seat_time_controls[seat]


_TABLE_WIDE = ("grace", "startup", "release")
"""The clock settings every seat of a table shares (``TableConfig.seat_time_controls``)."""


AnyResult: TypeAlias = HandResult | BiddingResult
"""A finished hand's result: a trick-taking game's, or a bidding game's."""

OnHand: TypeAlias = Callable[[int, AnyResult], None]
"""Told each hand's index and result as the table finishes it (progress displays)."""


NO_ACTION = "-"
"""A record's ``action`` for a decision that ended in a forfeit: nothing was played."""


@dataclass(frozen=True, slots=True)
class DecisionLog:
    """What one decision cost: for records, figures and fault evidence."""

    hand: int
    seat: int
    request_id: str
    decision: Decision | BiddingDecision
    legal: int
    action: Move | None
    """What was played: the bot's move, or the one substituted for it; None: the seat forfeited here."""
    elapsed: float
    bank_left: float
    fault: FaultKind | None
    substituted: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "request_id": self.request_id, "decision": self.decision.value,
            "legal": self.legal, "action": NO_ACTION if self.action is None else str(self.action),
            "ms": round(self.elapsed * 1000, 3),
            "bank_left": round(self.bank_left, 4),
            "fault": self.fault.value if self.fault else None, "substituted": self.substituted,
        }


@dataclass
class MatchOutcome:
    """The result of a match as the ladder and the CLI need it."""

    match_id: str
    status: OutcomeStatus
    """``DONE``, or ``VOID`` (a platform fault: no bot is blamed, no rating changes)."""
    winner_team: int | None
    score: tuple[float, float]
    final: MatchScore | None = None
    """The match score at the end (duplicate: hands won and their values per team)."""
    hands: list[HandResult | BiddingResult] = field(default_factory=list)
    hand_values: list[float] = field(default_factory=list)
    """Each hand's value for team 0 (+ won, - lost; 1 per hand plus 1 per kot, or points)."""
    deal_scores: list[float] = field(default_factory=list)
    """Duplicate format: per deal, the sum of both plays' values for team 0."""
    faults: list[Fault] = field(default_factory=list)
    forfeit_team: int | None = None
    substitutions: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    decision_times: list[list[float]] = field(default_factory=lambda: [[], [], [], []])
    void_reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "match_id": self.match_id, "status": self.status.value, "winner_team": self.winner_team,
            "score": list(self.score), "hands_played": len(self.hands),
            "hand_values": self.hand_values, "deal_scores": self.deal_scores,
            "faults": [f.to_json() for f in self.faults], "forfeit_team": self.forfeit_team,
            "substitutions": self.substitutions, "void_reason": self.void_reason,
        }


@dataclass(frozen=True, slots=True)
class DealPlays:
    """What one table played of one deal: both plays (one room) or its room's one (two rooms)."""

    number: int
    rotations: tuple[int, ...]
    """The plays, in play order: 0 has partnership A at seats 0 and 2 holding hands 0 and 2, 1
    the same deal rotated one seat on; hand ``2 * number + rotation`` of the match."""
    hands: tuple[HandResult | BiddingResult, ...]
    hand_values: tuple[float, ...]
    substitutions: tuple[int, int, int, int]
    """Moves the referee played for each seat in these plays."""


@dataclass(frozen=True, slots=True)
class PlayedPair:
    """One deal played twice, the seats swapped (at one table, or one play in each room): its two
    hands in play order."""

    number: int
    hands: tuple[HandResult | BiddingResult, ...]
    hand_values: tuple[float, ...]
    tally: MatchScore
    """The duplicate tally of this pair alone (hands won, their values, kots per team)."""
    substitutions: tuple[int, int, int, int]
    """Moves the referee played for each seat in this pair."""

    @property
    def score(self) -> float:
        """The pair score: both plays' values for partnership A (team 0)."""
        return sum(self.hand_values)


class PairSource(Protocol):
    """Where a table playing deal pairs takes its next deal number and hands each deal's plays back."""

    @property
    def rotations(self) -> tuple[int, ...]:
        """The plays of each deal this table plays: ``(0, 1)`` in one room, ``(room,)`` in two."""

    def take(self) -> int | None:
        """The next deal to play, or None: stop."""

    def played(self, plays: DealPlays) -> None: ...
