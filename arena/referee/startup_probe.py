"""Bots started as a table starts them, each timed from launch to StartMatch answered.

The start-up clock (``TimeControl.startup``) covers a bot's whole start: the runner building its
sandbox or container, the interpreter's imports, the health check and the StartMatch call. A
table starts its seats at once (``Table._start_all``), through ``BotProcess`` and ``GrpcSeat``;
so does ``start_seats``, which only adds a stopwatch per seat, so that a bench or a test can say
how much of the clock a bot's start takes under a runner, alone or in a crowd of seats.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.contract.messages import BotFault, MatchStart
from arena.referee.grpc_seat import GrpcSeat
from arena.referee.launcher import BotCommand, BotProcess
from arena.referee.local import close_all, seat_limits
from arena.referee.seeds import seat_seed
from arena.referee.table_values import TableConfig
from arena.sandbox import Runner


@dataclass(frozen=True, slots=True)
class StartTiming:
    """One seat's start: wall seconds from launch to StartMatch answered (or to its failure),
    the fault if it failed (over the clock, exited, ...), and its log's tail for a failure."""

    seconds: float
    fault: BotFault | None = None
    log_tail: str = ""


async def start_seats(commands: Sequence[BotCommand], runner: Runner, config: TableConfig,
                      folder: Path) -> list[StartTiming]:
    """Start one seat per command at once (seat ``i`` as the table's seat ``i % 4``), each with
    the table's limits and within ``config.time_control.startup``; time each; then stop them
    all. Sockets and logs go under ``folder`` (keep its path short: a unix socket's is)."""
    seats: list[GrpcSeat] = []
    for number, command in enumerate(commands):
        seat_folder = folder / f"s{number}"
        seat_folder.mkdir()
        process = BotProcess(command, f"unix:{seat_folder}/bot.sock", folder / f"s{number}.log", runner=runner,
                             limits=seat_limits(command, config, number % 4))
        seats.append(GrpcSeat(command.name, process.address, process))
    try:
        starts = (_timed_start(seat, number % 4, config) for number, seat in enumerate(seats))
        return list(await asyncio.gather(*starts))
    finally:
        await close_all(seats)


async def _timed_start(seat: GrpcSeat, number: int, config: TableConfig) -> StartTiming:
    start = MatchStart(config.match_id, number, number ^ 2, config.preset, config.rules, config.match_format,
                       config.time_control, config.policy, seat_seed(config.seed, number))
    loop = asyncio.get_running_loop()
    began = loop.time()
    try:
        await seat.start(start, config.time_control.startup)
    except BotFault as fault:
        tail = seat.process.log_tail() if seat.process is not None else ""
        return StartTiming(loop.time() - began, fault, tail)
    return StartTiming(loop.time() - began)
