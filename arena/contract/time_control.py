"""Time control: a per-move limit plus a per-match time bank, measured by the referee.

A decision may take up to ``per_move + bank``. Time beyond ``per_move`` is charged to the
bank; a decision that overruns the whole allowance is a timeout. The gRPC deadline is the
allowance plus a small grace for transport jitter (Python gRPC round trips jitter by ~30 ms),
and the referee's own measurement decides, not the deadline.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field


class TimeControl(BaseModel):
    """Clock settings for a match (seconds)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    per_move: float = Field(1.0, gt=0, description="limit for each decision before the bank is used")
    bank: float = Field(30.0, ge=0, description="extra time for the whole match")
    grace: float = Field(0.05, ge=0, description="transport slack added to the gRPC deadline only")
    startup: float = Field(10.0, gt=0, description="budget to start and answer StartMatch")


@dataclass(slots=True)
class SeatClock:
    """One seat's remaining bank; ``charge`` books a measured decision time."""

    control: TimeControl
    bank_left: float

    @classmethod
    def new(cls, control: TimeControl) -> SeatClock:
        return cls(control, control.bank)

    @property
    def allowance(self) -> float:
        return self.control.per_move + self.bank_left

    @property
    def deadline(self) -> float:
        return self.allowance + self.control.grace

    def charge(self, elapsed: float) -> bool:
        """Book ``elapsed`` seconds; False when it exceeded the allowance (a timeout)."""
        within = elapsed <= self.allowance
        over = max(0.0, elapsed - self.control.per_move)
        self.bank_left = max(0.0, self.bank_left - over)
        return within
