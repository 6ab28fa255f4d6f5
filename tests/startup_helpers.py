"""A sample bot started as a table starts it, timed against the start-up clock (issue 26): the
sandbox's and the containers' start-up tests share it."""

from __future__ import annotations

import asyncio
import shutil

from arena.contract.time_control import TimeControl
from arena.referee.launcher import resolve_bot
from arena.referee.startup_probe import StartTiming, start_seats
from arena.sandbox import Runner
from tests.hostile.harness import socket_folder, table_config

LADDER_CLOCK = TimeControl()
"""The clock the ladder plays with: its ``startup`` (10 s) is the start-up clock judged."""


def start_alone(bot: str, runner: Runner, control: TimeControl = LADDER_CLOCK) -> StartTiming:
    """One start of the sample bot ``bot`` by ``runner`` under ``control``: the referee's path
    (``BotProcess``, ``GrpcSeat.start``) to StartMatch answered, or its fault; then stopped."""
    sockets = socket_folder()
    try:
        config = table_config(f"startup-{bot}", time_control=control)
        [timing] = asyncio.run(start_seats([resolve_bot(bot)], runner, config, sockets))
    finally:
        shutil.rmtree(sockets, ignore_errors=True)
    return timing


def within_clock(timing: StartTiming, control: TimeControl = LADDER_CLOCK) -> str:
    """Why ``timing`` is not a start within ``control.startup`` ("" if it is)."""
    if timing.fault is not None:
        return f"no StartMatch answer: {timing.fault.detail}\n{timing.log_tail}"
    if timing.seconds >= control.startup:
        return f"StartMatch answered after {timing.seconds:.3f} s, over the {control.startup:g} s clock"
    return ""
