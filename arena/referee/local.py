"""Local head-to-head matches: start the bots as processes, play, clean up.

Partnership A sits at seats 0 and 2, partnership B at 1 and 3. Each bot serves on a unix
socket in a private temporary folder; its log goes next to the match record.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from arena.outcome import HandResult
from arena.referee.grpc_seat import GrpcSeat
from arena.referee.launcher import BotCommand, BotProcess
from arena.referee.recorder import MatchRecorder
from arena.referee.table import MatchOutcome, Table, TableConfig


async def play_local_match(
    partnership_a: tuple[BotCommand, BotCommand],
    partnership_b: tuple[BotCommand, BotCommand],
    config: TableConfig,
    records: Path,
    on_hand: Callable[[int, HandResult], None] | None = None,
) -> MatchOutcome:
    """Run one match between two partnerships of local bot processes."""
    commands = [partnership_a[0], partnership_b[0], partnership_a[1], partnership_b[1]]
    sockets = Path(tempfile.mkdtemp(prefix="dehla-"))
    seats: list[GrpcSeat] = []
    try:
        for seat, command in enumerate(commands):
            process = BotProcess(command, f"unix:{sockets}/seat{seat}.sock",
                                 records / f"{config.match_id}.seat{seat}.log")
            seats.append(GrpcSeat(command.name, process.address, process))
        recorder = MatchRecorder(records / f"{config.match_id}.jsonl")
        return await Table(config, seats, recorder, on_hand).run()
    finally:
        await asyncio.gather(*(seat.close() for seat in seats), return_exceptions=True)
        shutil.rmtree(sockets, ignore_errors=True)
