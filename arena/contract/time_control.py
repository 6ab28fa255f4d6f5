"""Time control: a per-move limit plus a per-match time bank, measured by the referee.

A decision may take up to ``per_move + bank``. Time beyond ``per_move`` is charged to the
bank; a decision that overruns the whole allowance is a timeout. The gRPC deadline is the
allowance plus a small grace for transport jitter (Python gRPC round trips jitter by ~30 ms),
and the referee's own measurement decides, not the deadline.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields


class TimeControlError(ValueError):
    """A clock setting out of range (a limit that is not above 0, a bank below 0)."""


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Clock settings for a match (seconds), checked when built. A plain dataclass: a bot builds
    one from every StartMatch without loading pydantic (``arena/engine/rules.py`` says why);
    the match record's model of it is ``arena.referee.match_record.RecordedTimeControl``."""

    per_move: float = 1.0
    """limit for each decision before the bank is used"""
    bank: float = 30.0
    """extra time for the whole match"""
    grace: float = 0.05
    """transport slack added to the gRPC deadline only"""
    startup: float = 10.0
    """budget to start and answer StartMatch"""

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise TimeControlError(f"time control {field.name}: not a number of seconds (got {value!r})")
            if value < 0 or (value == 0 and field.name in _ABOVE_ZERO) or math.isnan(value):
                least = "above 0" if field.name in _ABOVE_ZERO else "0 or more"
                raise TimeControlError(f"time control {field.name}: must be {least} (got {value!r})")


_ABOVE_ZERO = frozenset({"per_move", "startup"})


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
