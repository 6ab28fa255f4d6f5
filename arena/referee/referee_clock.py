"""The referee's clock: what it measures a reply by and how it holds a move to its release.

A table reads time and waits only through a ``RefereeClock``. In play it is ``MonotonicClock``
(``perf_counter``, and a hold whose last stretch is slept by the thread: ``PRECISE_HOLD``);
a test passes a clock of its own whose seconds pass only when a bot says so, so the release
rules and the timing channel are shown exactly and at once, with no sleeping.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol

PRECISE_HOLD = 0.004
"""Seconds at the end of a hold slept by the thread, not the event loop. The loop wakes on a
millisecond grid counted from its last event, the reply: its lateness (0-1.2 ms) would carry
the reply time's sub-millisecond phase. ``time.sleep`` wakes within the kernel's timer slack
(tens of us) of the moment, whatever the phase (``tests/referee/test_move_release.py``)."""


class RefereeClock(Protocol):
    def now(self) -> float:
        """Seconds on a clock that only moves forward."""
        ...

    async def hold_until(self, moment: float) -> None:
        """Return at ``moment`` (``now`` time), or at once if it has passed."""
        ...


class MonotonicClock:
    """``perf_counter`` time; a hold that does not follow the reply's sub-millisecond phase."""

    def now(self) -> float:
        return time.perf_counter()

    async def hold_until(self, moment: float) -> None:
        """Keep the move from the table until ``moment``: under ``slot-end`` the next request
        then goes out at a time the mover did not choose (``SeatClock.settle``). The last few ms
        block the loop on purpose (``PRECISE_HOLD``): nothing else is due at a table while it
        holds a move."""
        wait = moment - time.perf_counter()
        if wait > PRECISE_HOLD:
            await asyncio.sleep(wait - PRECISE_HOLD)
        rest = moment - time.perf_counter()
        if rest > 0:
            time.sleep(rest)


class SharedLoopClock(MonotonicClock):
    """``perf_counter`` time; a hold that ends on the event loop's own timer (within about a
    millisecond), for tables that share one loop (``dehla match --concurrency``): the precise
    hold's blocking sleep would stall every other table's moves meanwhile."""

    async def hold_until(self, moment: float) -> None:
        wait = moment - time.perf_counter()
        if wait > 0:
            await asyncio.sleep(wait)


MONOTONIC = MonotonicClock()
SHARED_LOOP = SharedLoopClock()
