"""Running referee tables against real bot processes over gRPC on unix sockets, for tests.

Like ``arena.referee.local.play_local_match``, but the sockets and logs live in a folder the
test owns (``tmp_path``) and the seats stay available afterwards, so a test can look at the
bot processes (exit codes, pids) and the match record.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.contract.faults import Fault, FaultPolicy
from arena.contract.messages import SeatEndpoint
from arena.contract.time_control import TimeControl
from arena.engine.match import MatchFormat
from arena.engine.rules import rules_for
from arena.referee.grpc_seat import GrpcSeat
from arena.referee.in_process import InProcessSeat
from arena.referee.launcher import BotCommand, BotProcess
from arena.referee.match_recorder import MatchRecorder, read_match_record
from arena.referee.scratch import process_exists
from arena.referee.table import Table
from arena.referee.table_values import MatchOutcome, TableConfig
from sample_bots.random.bot import RandomBot

ROOT = Path(__file__).resolve().parents[1]
MAX_UNIX_PATH = 107
"""Longest unix socket path (sun_path holds 108 bytes with the terminating NUL)."""

RANDOM = BotCommand("random", (sys.executable, "-m", "sample_bots.random"))

CLOCK = TimeControl(per_move=1.0, bank=1.0, startup=10.0)
"""Clocks that no sound bot runs out of, even on a loaded CI machine (where starting four
Python bots with gRPC can take several seconds)."""

TIGHT = TimeControl(per_move=0.2, bank=0.1, startup=10.0)
"""Small clocks for timeout tests: a hung decision costs a third of a second."""


def misbehaving_bot(module: str, *args: str) -> BotCommand:
    """A bot from ``tests/bots`` (``python -m tests.bots.MODULE ARGS``), named after the module."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return BotCommand(module, (sys.executable, "-m", f"tests.bots.{module}", *args), (("PYTHONPATH", path),))


def lineup(bot: BotCommand, seat: int) -> list[BotCommand]:
    """``bot`` at ``seat``, the random sample bot at the other three."""
    commands = [RANDOM] * 4
    commands[seat] = bot
    return commands


def among_in_process_bots(command: BotCommand, at: int, folder: Path) -> list[SeatEndpoint]:
    """A bot process at seat ``at``, in-process random bots at the other three: no other process
    to start, so a start-up test can use a small budget without flaking on a busy machine."""
    endpoints: list[SeatEndpoint] = [InProcessSeat(RandomBot(s)) for s in range(4)]
    endpoints[at] = grpc_seat(command, at, folder)
    return endpoints


def table_config(match_id: str, *, policy: FaultPolicy = FaultPolicy.FORFEIT,
                 time_control: TimeControl = CLOCK, match_format: str = "hands:1",
                 preset: str = "dehla-pakad", seed: int = 7) -> TableConfig:
    return TableConfig(match_id, rules_for(preset), preset, MatchFormat.parse(match_format), seed,
                       time_control, policy)


def grpc_seat(command: BotCommand, seat: int, folder: Path) -> GrpcSeat:
    """A seat whose bot process serves on ``folder/seatN.sock`` and logs to ``folder/seatN.log``."""
    folder.mkdir(parents=True, exist_ok=True)
    socket = folder / f"seat{seat}.sock"
    if len(str(socket)) > MAX_UNIX_PATH:
        raise ValueError(f"socket path too long for a unix socket ({len(str(socket))} bytes): {socket}")
    process = BotProcess(command, f"unix:{socket}", folder / f"seat{seat}.log")
    return GrpcSeat(command.name, process.address, process)


def grpc_seats(commands: Sequence[BotCommand], folder: Path) -> list[GrpcSeat]:
    return [grpc_seat(command, seat, folder) for seat, command in enumerate(commands)]


@dataclass
class Played:
    """A finished table: the outcome, the seats (closed), the record's lines and timings."""

    outcome: MatchOutcome
    seats: list[SeatEndpoint]
    record: list[dict[str, Any]]
    elapsed: float
    """Seconds in ``Table.run`` (start-up to end of match, bots still running)."""
    closed_after: float
    """Seconds from the start of ``Table.run`` until every seat was closed."""

    @property
    def fault(self) -> Fault:
        """The match's only fault (fails the test if there is not exactly one)."""
        assert len(self.outcome.faults) == 1, self.outcome.faults
        return self.outcome.faults[0]

    @property
    def pids(self) -> list[int]:
        """The pids of the bot processes that were started."""
        return [process.process.pid for seat in range(4)
                if (process := self.bot_process(seat)) is not None and process.process is not None]

    def bot_process(self, seat: int) -> BotProcess | None:
        endpoint = self.seats[seat]
        return endpoint.process if isinstance(endpoint, GrpcSeat) else None

    def returncode(self, seat: int) -> int | None:
        process = self.bot_process(seat)
        assert process is not None and process.process is not None
        return process.process.returncode

    def log(self, seat: int) -> str:
        process = self.bot_process(seat)
        assert process is not None
        return process.log_path.read_text(errors="replace")

    def lines(self, kind: str) -> list[dict[str, Any]]:
        return [line for line in self.record if line["type"] == kind]


async def run_table(config: TableConfig, commands: Sequence[BotCommand], folder: Path) -> Played:
    """Play one table with bot processes serving in ``folder``; close every seat after."""
    return await run_seats(config, grpc_seats(commands, folder), folder)


async def run_seats(config: TableConfig, seats: Sequence[SeatEndpoint], folder: Path) -> Played:
    """Play one table with these seats, record it in ``folder``, close every seat whatever happens."""
    record = folder / f"{config.match_id}.jsonl"
    start = time.perf_counter()
    try:
        outcome = await Table(config, seats, MatchRecorder(record)).run()
        elapsed = time.perf_counter() - start
    finally:
        await asyncio.gather(*(seat.close() for seat in seats), return_exceptions=True)
    closed_after = time.perf_counter() - start
    return Played(outcome, list(seats), list(read_match_record(record)), elapsed, closed_after)


def play(config: TableConfig, commands: Sequence[BotCommand], folder: Path) -> Played:
    return asyncio.run(run_table(config, commands, folder))


def is_running(pid: int) -> bool:
    """True while ``pid`` is a live process (a zombie awaiting its parent counts as gone)."""
    if not Path("/proc/self/stat").exists():  # no procfs: ask the kernel (a zombie counts as alive)
        return process_exists(pid)
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    state = stat.rsplit(")", 1)[1].split()[0]
    return state not in ("Z", "X")


def live_children(parent: int | None = None) -> list[int]:
    """Live child processes of ``parent`` (default: this process), from procfs; [] without it.

    The standard library's own long-lived helpers (multiprocessing's resource tracker and
    forkserver, started by process pools in other tests) are not bots and are left out.
    """
    parent = os.getpid() if parent is None else parent
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes()
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
        if any(helper in cmdline for helper in _STDLIB_HELPERS):
            continue
        if int(fields[1]) == parent and fields[0] not in ("Z", "X"):
            children.append(int(stat.parent.name))
    return children


_STDLIB_HELPERS = (b"multiprocessing.resource_tracker", b"multiprocessing.forkserver")
