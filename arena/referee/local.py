"""Local head-to-head matches: start the bots with a runner, play, clean up.

Partnership A sits at seats 0 and 2, partnership B at 1 and 3. Each bot serves on a unix
socket in its own folder of a private temporary folder; its log goes next to the match record.
The runner decides how bots are started: plain processes (``local``, the default for an
author's own machine), bubblewrap sandboxes (``sandbox``) or docker containers (``docker``).
Sandboxed bots get their manifest's resources and a CPU-time budget sized for this match.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from arena.engine.match import FormatKind
from arena.engine.outcome import HandResult
from arena.referee.grpc_seat import GrpcSeat
from arena.referee.launcher import BotCommand, BotProcess
from arena.referee.match_recorder import MatchRecorder
from arena.referee.table import NOTIFY_TIMEOUT, Table
from arena.referee.table_values import MatchOutcome, TableConfig
from arena.sandbox import Limits, LocalRunner, Runner, match_cpu_seconds


def match_hands(config: TableConfig) -> int:
    """The most hands the match can last."""
    match_format = config.match_format
    if match_format.kind is FormatKind.DUPLICATE:
        return 2 * match_format.count
    if match_format.kind is FormatKind.HANDS:
        return match_format.count
    return config.max_hands


def seat_limits(command: BotCommand, config: TableConfig) -> Limits:
    """The bot's manifest resources, with RLIMIT_CPU sized for this match."""
    control = config.time_control
    cpu = match_cpu_seconds(command.resources.cpus, match_hands(config), control.per_move + control.grace,
                            control.bank, control.startup, NOTIFY_TIMEOUT)
    return command.resources.limits(cpu)


async def play_local_match(
    partnership_a: tuple[BotCommand, BotCommand],
    partnership_b: tuple[BotCommand, BotCommand],
    config: TableConfig,
    records: Path,
    on_hand: Callable[[int, HandResult], None] | None = None,
    runner: Runner | None = None,
) -> MatchOutcome:
    """Run one match between two partnerships of bots started by ``runner`` (default: local)."""
    runner = runner or LocalRunner()
    commands = [partnership_a[0], partnership_b[0], partnership_a[1], partnership_b[1]]
    sockets = Path(tempfile.mkdtemp(prefix="dehla-"))
    seats: list[GrpcSeat] = []
    try:
        for seat, command in enumerate(commands):
            folder = sockets / f"seat{seat}"
            folder.mkdir()
            process = BotProcess(command, f"unix:{folder}/bot.sock", records / f"{config.match_id}.seat{seat}.log",
                                 runner=runner, limits=seat_limits(command, config))
            seats.append(GrpcSeat(command.name, process.address, process))
        recorder = MatchRecorder(records / f"{config.match_id}.jsonl")
        return await Table(config, seats, recorder, on_hand).run()
    finally:
        await close_all(seats)
        shutil.rmtree(sockets, ignore_errors=True)


async def close_all(seats: list[GrpcSeat]) -> None:
    """Close every seat, stopping its bot, even when the match is cancelled meanwhile (a Ctrl-C
    that lands as the match ends): a seat whose close was cut short would leave its bot running
    past the match, and its pipes to be closed by the collector after the event loop is gone
    (``Exception ignored ... Event loop is closed`` on the terminal). The cancellation is raised
    once every seat is closed."""
    closing = asyncio.gather(*(seat.close() for seat in seats), return_exceptions=True)
    cancelled = False
    while not closing.done():
        try:
            await asyncio.shield(closing)
        except asyncio.CancelledError:
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError
