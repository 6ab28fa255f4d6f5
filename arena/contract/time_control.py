"""Time control: a per-move limit plus a per-match time bank, measured by the referee.

A decision may take up to ``per_move + bank``. Time beyond ``per_move`` is charged to the
bank; a decision that overruns the whole allowance is a timeout. The gRPC deadline is the
allowance plus a small grace for transport jitter (Python gRPC round trips jitter by ~30 ms),
and the referee's own measurement decides, not the deadline.

When the referee lets a move reach the table is the ``MoveRelease`` of the match. ``on-reply``
passes it on as soon as it arrives; then the moment the next request goes out tells every seat
how long the mover took, a channel between partners (issue 23). ``slot-end`` holds a move until a
fixed point of the mover's clock, so that moment depends on nothing the bot chose, except
whether it overran once (``SeatClock.settle``; ``docs/sandbox.md`` bounds what is left).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from enum import StrEnum


class TimeControlError(ValueError):
    """A clock setting out of range (a limit that is not above 0, a bank below 0)."""


class MoveRelease(StrEnum):
    """When the referee releases a decided move to the table (and so sends the next request)."""

    ON_REPLY = "on-reply"
    """As soon as the reply arrives: fast, but the reply's timing reaches every seat."""
    SLOT_END = "slot-end"
    """At the end of the mover's per-move slot (or of its whole allowance, once, for an
    overrun that spends the whole bank): the timing carries no choice of the bot's."""


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Clock settings for a match (seconds), checked when built. A plain dataclass: a bot builds
    one from every StartMatch without loading pydantic (``arena/engine/rules.py`` says why);
    the match record's model of it is ``arena.referee.match_record_lines.RecordedTimeControl``."""

    per_move: float = 1.0
    """limit for each decision before the bank is used"""
    bank: float = 30.0
    """extra time for the whole match"""
    grace: float = 0.05
    """transport slack added to the gRPC deadline only"""
    startup: float = 10.0
    """budget to start and answer StartMatch"""
    release: MoveRelease = MoveRelease.ON_REPLY
    """when a decided move reaches the table (the ladder's referee: ``slot-end``)"""

    def __post_init__(self) -> None:
        object.__setattr__(self, "release", MoveRelease(self.release))  # a plain string from plain data
        for field in fields(self):
            if field.name == "release":
                continue
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
        return self.settle(elapsed).within

    def settle(self, elapsed: float) -> Settlement:
        """Book ``elapsed`` seconds and say when the move may reach the table.

        ``on-reply``: time over ``per_move`` comes off the bank, the move goes at once.
        ``slot-end``: a move within ``per_move`` goes at ``per_move``; a later one within the
        allowance spends the *whole* bank and goes at the allowance's end, so that how far into
        the bank a bot went is never seen (only that it overran, which it can do once); a
        timeout (or any move measured past those points) goes when it is known.
        """
        allowance = self.allowance
        within = elapsed <= allowance
        per_move = self.control.per_move
        if self.control.release is MoveRelease.ON_REPLY:
            self.bank_left = max(0.0, self.bank_left - max(0.0, elapsed - per_move))
            return Settlement(within, elapsed)
        if elapsed <= per_move:
            return Settlement(within, per_move)
        self.bank_left = 0.0
        return Settlement(within, allowance if within else elapsed)


@dataclass(frozen=True, slots=True)
class Settlement:
    """A booked decision: within the allowance or not, and when its move is released, in seconds
    from the moment its request went out (the clock's own start)."""

    within: bool
    release_at: float
