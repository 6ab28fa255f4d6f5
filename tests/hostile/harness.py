"""Running hostile bots at real tables, for the sandbox tests.

A seat is a ``BotCommand`` (started by the given runner, like the referee does) or a ``Bot``
object played in this process (cheap company for a hostile bot that attacks the host rather
than its table). Sockets live in a short private folder (unix socket paths are limited to
107 bytes); logs and the match record in the test's folder. Every seat is closed whatever
happens, and the bots' reports (``HOSTILE {...}`` lines) are read back from their logs.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import json
import os
import select
import shutil
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.bots.manifest import Resources
from arena.contract.faults import Fault, FaultKind, FaultPolicy
from arena.contract.messages import SeatEndpoint
from arena.contract.time_control import TimeControl
from arena.engine.match import MatchFormat
from arena.engine.rules import rules_for
from arena.referee.grpc_seat import GrpcSeat
from arena.referee.in_process import InProcessSeat
from arena.referee.launcher import BotCommand, BotProcess
from arena.referee.local import seat_limits
from arena.referee.match_recorder import MatchRecorder, read_match_record
from arena.referee.table import Table
from arena.referee.table_values import MatchOutcome, TableConfig
from arena.sandbox import Limits, LocalRunner, Program, Runner, RunReport, SandboxUnavailable
from arena.sandbox.bwrap import SOCKET_FOLDER, SOCKET_NAME, SandboxConfig, SandboxLaunch, SandboxRunner
from arena.sandbox.runner import Launch
from sample_bots.random.bot import RandomBot
from sdk.bot import Bot

BOTS = Path(__file__).resolve().parent / "bots"
MARK = "HOSTILE "
SMALL = Resources(memory_mb=128, cpus=1.0, processes=24, disk_mb=8, open_files=128)
"""Tight limits for hostile bots: enough for a Python gRPC bot, little to attack with."""
CLOCK = TimeControl(per_move=2.0, bank=3.0, startup=30.0)
"""Generous clocks: four interpreters may start at once on a busy 2-core machine, and an
attacker throttled to its CPU share must not time out by accident. The tests about timeouts
use their own short clock."""
RANDOM = BotCommand("random", (sys.executable, "-m", "sample_bots.random"))


def hostile(script: str, *args: str, resources: Resources = SMALL, code: Path = BOTS) -> BotCommand:
    """A bot from ``tests/hostile/bots`` (its code folder, shown at /bot inside a sandbox), or
    from a copy of them in ``code``."""
    return BotCommand(script, (sys.executable, f"{script}.py", *args), cwd=str(code), resources=resources)


def copy_bots(folder: Path, *scripts: str) -> Path:
    """A private code folder with ``scripts`` (and what they share), readable by the seat uids."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o755)
    for script in ("_hostile", *scripts):
        shutil.copyfile(BOTS / f"{script}.py", folder / f"{script}.py")
    return folder


class FollowingLaunch(Launch):
    """The referee's connect path before issue 12, for negative controls: it dials ``bot.sock``
    by name through the monitor's root, so the kernel follows whatever the bot put there."""

    def __init__(self, inner: SandboxLaunch) -> None:
        super().__init__(inner.argv, inner.env, inner.cwd, inner.pass_fds, inner.report)
        self.inner = inner

    def started(self, pid: int) -> None:
        self.inner.started(pid)

    def dial_address(self, address: str) -> str | None:
        pid = self.inner.pid
        return None if pid is None else f"unix:/proc/{pid}/root{self.inner.stage}/{SOCKET_FOLDER}/{SOCKET_NAME}"

    def terminate(self, pid: int) -> None:
        self.inner.terminate(pid)

    async def finish(self) -> RunReport:
        return await self.inner.finish()

    def abandon(self) -> None:
        self.inner.abandon()


class FollowingSandboxRunner(SandboxRunner):
    """The sandbox with the old connect path (``FollowingLaunch``)."""

    def prepare(self, program: Program, address: str, limits: Limits) -> Launch:
        launch = super().prepare(program, address, limits)
        assert isinstance(launch, SandboxLaunch)
        return FollowingLaunch(launch)


@functools.cache
def following_runner() -> FollowingSandboxRunner:
    return FollowingSandboxRunner(SandboxConfig.from_env())


@dataclass
class WatchedProcess(BotProcess):
    """A ``BotProcess`` that says when it has started (for tests that act on its pid)."""

    up: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    async def start(self) -> None:
        await super().start()
        self.up.set()


def monitor_socket(process: BotProcess) -> str:
    """The path of a seat's socket through its monitor's root, in the referee's namespace."""
    launch = process.launch.inner if isinstance(process.launch, FollowingLaunch) else process.launch
    assert isinstance(launch, SandboxLaunch) and process.process is not None
    return f"/proc/{process.process.pid}/root{launch.stage}/{SOCKET_FOLDER}/{SOCKET_NAME}"


During = Callable[[list["BotProcess | None"]], Awaitable[None]]
"""Run alongside a table, given its seats' processes (e.g. to hand a bot its partner's pid)."""


@functools.cache
def sandbox_runner(cgroup: str | None = None) -> SandboxRunner:
    """The host's sandbox runner (``DEHLA_SANDBOX_*`` as the referee reads them), cgroups as asked."""
    config = SandboxConfig.from_env()
    return SandboxRunner(config if cgroup is None else dataclasses.replace(config, cgroup=cgroup))


@functools.cache
def sandbox_problem() -> str:
    """Why the sandbox runner cannot run here ("" if it can)."""
    try:
        sandbox_runner().check()
    except SandboxUnavailable as exc:
        return str(exc)
    return ""


def table_config(match_id: str, *, policy: FaultPolicy = FaultPolicy.SUBSTITUTE, match_format: str = "hands:1",
                 time_control: TimeControl = CLOCK, seed: int = 11) -> TableConfig:
    return TableConfig(match_id, rules_for("dehla-pakad"), "dehla-pakad", MatchFormat.parse(match_format),
                       seed, time_control, policy)


@dataclass
class Played:
    """A finished table: the outcome, the bot processes (stopped) and the record."""

    outcome: MatchOutcome
    processes: list[BotProcess | None]
    record: list[dict[str, Any]]
    closed_after: float

    def process(self, seat: int) -> BotProcess:
        process = self.processes[seat]
        assert process is not None, f"seat {seat} was played in-process"
        return process

    def log(self, seat: int) -> str:
        return self.process(seat).log_path.read_text(errors="replace")

    def findings(self, seat: int) -> list[dict[str, Any]]:
        """The seat's ``HOSTILE`` reports, in order."""
        found = []
        for line in self.log(seat).splitlines():
            if MARK in line:
                found.append(json.loads(line[line.index(MARK) + len(MARK):]))
        return found

    def escapes(self, seat: int) -> list[dict[str, Any]]:
        return [f for f in self.findings(seat) if f["outcome"] == "escaped"]

    def faults(self, seat: int | None = None) -> list[Fault]:
        return [f for f in self.outcome.faults if seat is None or f.seat == seat]

    def fault_kinds(self, seat: int) -> list[FaultKind]:
        return [f.kind for f in self.faults(seat)]

    def uid(self, seat: int) -> int:
        report = self.process(seat).report
        assert report is not None and report.uid is not None
        return report.uid

    def events(self, seat: int) -> dict[str, int]:
        report = self.process(seat).report
        assert report is not None
        return report.events


def socket_folder() -> Path:
    """A short private folder for the seats' sockets (``SOCKETS/sN/bot.sock``)."""
    return Path(tempfile.mkdtemp(prefix="dh-"))


async def run_table(config: TableConfig, lineup: Sequence[BotCommand | Bot], folder: Path,
                    runner: Runner | Sequence[Runner], limits: dict[int, Limits] | None = None,
                    sockets: Path | None = None, during: During | None = None) -> Played:
    runners = [runner] * 4 if isinstance(runner, Runner) else list(runner)
    sockets = sockets or socket_folder()
    endpoints: list[SeatEndpoint] = []
    processes: list[BotProcess | None] = []
    loop = asyncio.get_running_loop()
    try:
        for seat, entry in enumerate(lineup):
            if isinstance(entry, Bot):
                endpoints.append(InProcessSeat(entry))
                processes.append(None)
                continue
            (sockets / f"s{seat}").mkdir()
            seat_limit = (limits or {}).get(seat) or seat_limits(entry, config, seat)
            process = WatchedProcess(entry, f"unix:{sockets}/s{seat}/bot.sock", folder / f"seat{seat}.log",
                                 runner=runners[seat], limits=seat_limit)
            endpoints.append(GrpcSeat(entry.name, process.address, process))
            processes.append(process)
        record = folder / "match.jsonl"
        start = loop.time()
        helper = asyncio.create_task(during(processes)) if during is not None else None
        try:
            outcome = await Table(config, endpoints, MatchRecorder(record)).run()
            if helper is not None and helper.done():
                helper.result()  # its failure is the test's
        finally:
            if helper is not None:
                helper.cancel()
            await asyncio.gather(*(e.close() for e in endpoints if isinstance(e, GrpcSeat)),
                                 return_exceptions=True)
        return Played(outcome, processes, list(read_match_record(record)), loop.time() - start)
    finally:
        shutil.rmtree(sockets, ignore_errors=True)


def play(config: TableConfig, lineup: Sequence[BotCommand | Bot], folder: Path,
         runner: Runner | Sequence[Runner] | None = None, limits: dict[int, Limits] | None = None,
         sockets: Path | None = None, during: During | None = None) -> Played:
    folder.mkdir(parents=True, exist_ok=True)
    return asyncio.run(run_table(config, lineup, folder, runner or sandbox_runner(), limits, sockets, during))


def alone(bot: BotCommand, seat: int = 0) -> list[BotCommand | Bot]:
    """``bot`` at ``seat``, random bots played in-process at the other three."""
    lineup: list[BotCommand | Bot] = [RandomBot(s) for s in range(4)]
    lineup[seat] = bot
    return lineup


LOCAL = LocalRunner()


def wait_gone(pids: Iterable[int], timeout: float) -> list[int]:
    """Wait on pidfds (no polling) until every pid has exited; returns those still alive."""
    fds: dict[int, int] = {}
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            fds[pid] = os.pidfd_open(pid)
    try:
        alive = dict(fds)
        end = time.monotonic() + timeout
        while alive and (remaining := end - time.monotonic()) > 0:
            ready, _, _ = select.select(list(alive.values()), [], [], remaining)
            alive = {pid: fd for pid, fd in alive.items() if fd not in ready}
        return sorted(alive)
    finally:
        for fd in fds.values():
            os.close(fd)
