"""How long before the per-move limit a move plans to end, learnt from the bot's own bank.

The referee's clock runs from its request to the reply: the bot's search, the last world it
finishes after its deadline, the reply's trip and the machine's scheduling. Only the first is the
bot's to plan; the rest is the machine's, and on a loaded machine its tail is tens of ms. But the
bot sees the result: under ``on-reply`` release the referee books every move's time past the
per-move limit against the bank, so a bank lower than at the previous decision means that move
went over the limit. ``LimitMargin`` keeps the margin where about ``TARGET_OVER`` of the moves go
over (a quantile tracked by stochastic approximation: up a step on a move over the limit, down
``TARGET_OVER / (1 - TARGET_OVER)`` of a step on one within), aiming to keep the referee's p99
within the limit at any load (measured: 38.9 to 45.3 ms at 50 ms a move in three 300-deal
matches, 50.4 ms in one where the heuristic's own p99 was 38.9 ms; docs/bots.md), and to give a
calm machine a thin margin and more search.
"""

from __future__ import annotations

from dataclasses import dataclass

TARGET_OVER = 0.003
"""The share of moves the margin lets go over the per-move limit (the issue: the p99 within it).
Matches see more than this (a load burst sends several moves over before the margin reacts):
at 0.005, 0.8% and 1.0% of the moves on the loaded machine, a p99 of 49.9 ms at 50 ms; hence 0.003."""
STEP = 0.1
"""A step of the margin, in shares of the per-move limit (5 ms at 50 ms a move)."""
FLOOR = 0.1
"""The thinnest margin, in shares of the per-move limit (a move plans at most 0.9 of it)."""
CEILING = 0.9
"""The widest margin, in shares of the per-move limit (a move always plans 0.1 of it)."""
START_SECONDS = 0.03
"""The margin before any evidence: 30 ms, or ``FLOOR`` of the limit where that is more (at
50 ms a move the plan is 20 ms). A match's first hands are its busiest (eight bot processes
starting and warming up): from 20 ms (version 7's fixed rule) a third of the moves over the limit
in a 211-pair match came in its first 10 hands, while the margin climbed to the load's."""
BANK_RESOLUTION = 0.0005
"""The protocol carries the bank in whole ms: a drop smaller than half of one is rounding."""


@dataclass(slots=True)
class LimitMargin:
    """The margin (seconds) a move keeps before the per-move limit; ``observe`` every decision's
    bank, ``reset`` at a match's start."""

    per_move: float | None = None
    seconds: float = START_SECONDS
    last_bank: float | None = None
    start: float = START_SECONDS
    """The margin before any evidence (at least ``FLOOR`` of the limit)."""
    overs: int = 0
    """Moves seen to go over the limit (bank drops) in this match."""

    def reset(self) -> None:
        self.per_move, self.seconds, self.last_bank, self.overs = None, self.start, None, 0

    def current(self, per_move: float) -> float:
        """The margin for a move at ``per_move`` (the starting one if the clock is new)."""
        return self.seconds if per_move == self.per_move else max(self.start, FLOOR * per_move)

    def observe(self, per_move: float, bank_left: float) -> float:
        """Book the previous decision (over the limit if the bank dropped since) and return the
        margin for this one."""
        if per_move != self.per_move:  # a new clock: start afresh
            self.seconds, self.per_move, self.last_bank = self.current(per_move), per_move, None
        if self.last_bank is not None:
            step = STEP * per_move
            if bank_left < self.last_bank - BANK_RESOLUTION:
                self.overs += 1
                self.seconds += step
            else:
                self.seconds -= step * TARGET_OVER / (1 - TARGET_OVER)
            self.seconds = min(max(self.seconds, FLOOR * per_move), CEILING * per_move)
        self.last_bank = bank_left
        return self.seconds
