"""Play bots in-process, with exactly the views the referee sends, for fast local tests.

``InProcessSeat`` is a seat endpoint that calls a ``Bot`` object directly (no gRPC, no
deadline enforcement: the time taken is still measured and charged like the referee does).
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from arena.contract.faults import FaultKind, FaultPolicy
from arena.contract.messages import (
    AnyDecisionRequest,
    AnyHandEnd,
    BiddingDecisionRequest,
    BiddingHandEnd,
    BotFault,
    DecisionReply,
    MatchEnd,
    MatchStart,
    Move,
)
from arena.contract.time_control import TimeControl
from arena.engine.bidding_rules import BIDDING_PRESETS, bidding_rules_for
from arena.engine.match import MatchFormat
from arena.engine.rules import rules_for
from arena.referee.match_recorder import MatchRecorder
from arena.referee.referee_clock import MONOTONIC, RefereeClock
from arena.referee.table import Table
from arena.referee.table_values import MatchOutcome, TableConfig
from sdk.bot import BiddingView, Bot, BotView

_ids = itertools.count(1)
A = TypeVar("A")
R = TypeVar("R")


class InProcessSeat:
    """A ``SeatEndpoint`` around a ``Bot`` object in this process."""

    def __init__(self, bot: Bot, name: str | None = None) -> None:
        self.bot = bot
        self.name = name or bot.name

    async def start(self, start: MatchStart, timeout: float) -> None:
        self._call(self.bot.on_match_start, start)

    async def decide(self, request: AnyDecisionRequest, timeout: float) -> DecisionReply:
        action: Move
        if isinstance(request, BiddingDecisionRequest):
            bidding = BiddingView(request.observation, request.per_move, request.bank_left)
            action = self._call(self.bot.decide_bidding, bidding)
        else:
            action = self._call(self.bot.decide, BotView(request.observation, request.per_move, request.bank_left))
        return DecisionReply(request.request_id, action)

    async def end_hand(self, end: AnyHandEnd, timeout: float) -> None:
        if isinstance(end, BiddingHandEnd):
            self._call(self.bot.on_bidding_hand_end, end)
        else:
            self._call(self.bot.on_hand_end, end)

    async def end_match(self, end: MatchEnd, timeout: float) -> None:
        self._call(self.bot.on_match_end, end)

    async def close(self) -> None:
        return None

    def _call(self, method: Callable[[A], R], argument: A) -> R:
        try:
            return method(argument)
        except Exception as exc:
            raise BotFault(FaultKind.CRASH, "the bot raised an exception",
                           f"{type(exc).__name__}: {exc}") from exc


def play_in_process(
    bots: Sequence[Bot],
    *,
    deals: int = 10,
    seed: int = 1,
    preset: str = "dehla-pakad",
    match_format: str | None = None,
    policy: FaultPolicy = FaultPolicy.FORFEIT,
    record: Path | None = None,
    clock: RefereeClock = MONOTONIC,
) -> MatchOutcome:
    """Play one match between four bots (seats 0..3; 0 and 2 are partners), in this process
    (``clock``: a test's own, whose seconds pass only when its bots say so)."""
    config = TableConfig(
        match_id=f"local-{next(_ids)}",
        rules=bidding_rules_for(preset) if preset in BIDDING_PRESETS else rules_for(preset),
        preset=preset,
        match_format=MatchFormat.parse(match_format or f"duplicate:{deals}"),
        seed=seed,
        time_control=TimeControl(),
        policy=policy,
    )
    seats = [InProcessSeat(bot) for bot in bots]
    recorder = MatchRecorder(record) if record else None
    return asyncio.run(Table(config, seats, recorder, clock=clock).run())
