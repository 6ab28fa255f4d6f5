"""Starting bots: resolving a bot spec, the address, the runner, capped logs, clean-up.

A bot is told where to serve by the ``DEHLA_BOT_ADDRESS`` environment variable (``unix:PATH``
or ``127.0.0.1:PORT``). A ``Runner`` (``arena.sandbox``) decides how the process is started:
a plain subprocess (``local``, the default), a bubblewrap sandbox or a docker container. Each
bot runs in its own session (process group), so closing it kills everything it started there;
the sandboxed runners also kill whatever else the bot left. Its stdout and stderr go to one
log capped at ``log_cap`` bytes; the rest is drained slowly and counted, so a flooding bot
slows only itself and never fills the disk. Sandboxed runners end the log with one line
saying how the bot ended and what its limits caught.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import shutil
import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from arena.bots.manifest import Resources, load_manifest
from arena.engine.errors import ArenaError
from arena.sandbox.limits import Limits
from arena.sandbox.runner import (
    ADDRESS_ENV,
    Launch,
    LocalRunner,
    Program,
    Runner,
    RunnerKind,
    RunReport,
    SandboxError,
)

__all__ = ["ADDRESS_ENV", "BotCommand", "BotProcess", "BotSpecError", "resolve_bot", "resolve_partnership"]

SAMPLE_BOTS_PACKAGE = "sample_bots"
DEFAULT_LOG_CAP = 256 * 1024
DRAIN_PAUSE = 0.05
"""Seconds between 64 KiB reads once the log is full: a flood drains at about 1 MB/s."""
SOCKET_POLL = 0.01
"""Seconds between looks for a contained bot's socket while it starts."""
LOG_SETTLE = 1.0
"""Seconds to wait, after a bot exits, for the pump to read what it wrote just before (longer
only if something it left behind holds its log pipe open)."""


class BotSpecError(ArenaError):
    """A bot spec that names no sample bot and no runnable command."""


@dataclass(frozen=True, slots=True)
class BotCommand:
    """How to start one bot: a display name, the command line, its folder and its resources."""

    name: str
    argv: tuple[str, ...]
    env: tuple[tuple[str, str], ...] = ()
    cwd: str | None = None
    """The bot's own folder (its working directory; a sandbox shows it read-only at /bot)."""
    resources: Resources = field(default_factory=Resources)

    def program(self) -> Program:
        return Program(self.argv, self.env, self.cwd)


def sample_bot_names() -> list[str]:
    root = Path(__file__).resolve().parents[2] / SAMPLE_BOTS_PACKAGE
    return sorted(p.parent.name for p in root.glob("*/__main__.py"))


NameLookup = Callable[[str], Path | None]
"""Maps a bot name to its folder, or None: the command line passes the ladder's, for submitted bots."""


def resolve_bot(spec: str, lookups: Sequence[NameLookup] = ()) -> BotCommand:
    """A sample bot name (``random``), a submitted bot (``NAME`` or ``NAME#VERSION``, through one
    of ``lookups``), a bot folder (with ``bot.toml``), or a command line that starts a bot
    serving the protocol."""
    spec = spec.strip()
    if not spec:
        raise BotSpecError("empty bot spec")
    if spec in sample_bot_names():
        return BotCommand(spec, (sys.executable, "-m", f"{SAMPLE_BOTS_PACKAGE}.{spec}"))
    folder = Path(spec)
    for lookup in lookups:
        found = lookup(spec)
        if found is not None:
            folder = found
            break
    if folder.is_dir():
        manifest = load_manifest(folder)
        return BotCommand(manifest.name, manifest.argv(), cwd=str(folder.resolve()), resources=manifest.resources)
    try:
        argv = shlex.split(spec)
    except ValueError as exc:
        raise BotSpecError(f"bot {spec!r}: cannot split the command line ({exc})") from None
    if shutil.which(argv[0]) is None and not Path(argv[0]).is_file():
        raise BotSpecError(
            f"unknown bot {spec!r}: not a sample bot ({', '.join(sample_bot_names())}) "
            f"and {argv[0]!r} is not a command"
        )
    return BotCommand(Path(argv[0]).name if len(argv) == 1 else spec, tuple(argv))


def resolve_partnership(spec: str, lookups: Sequence[NameLookup] = ()) -> tuple[BotCommand, BotCommand]:
    """``A`` (a bot partnered with a copy of itself) or ``A1+A2`` (a mixed partnership)."""
    parts = spec.split("+")
    if len(parts) == 1:
        bot = resolve_bot(parts[0], lookups)
        return bot, bot
    if len(parts) == 2:
        return resolve_bot(parts[0], lookups), resolve_bot(parts[1], lookups)
    raise BotSpecError(f"partnership {spec!r}: expected BOT or BOT1+BOT2")


def partnership_name(spec: str, pair: tuple[BotCommand, BotCommand]) -> str:
    """How a match names the partnership given as ``spec``: a bot folder by its manifest's name
    (``dehla match . random`` is ``mybot``, never ``.``); a sample, a submitted bot
    (``NAME#N``) or a command line as it was written."""
    parts = [part.strip() for part in spec.split("+")]
    if len(parts) == 1:
        return _bot_name(parts[0], pair[0])
    return "+".join(_bot_name(part, bot) for part, bot in zip(parts, pair, strict=True))


def _bot_name(part: str, bot: BotCommand) -> str:
    folder = Path(part)
    if bot.cwd is not None and part not in sample_bot_names() and folder.is_dir() \
            and Path(bot.cwd) == folder.resolve():
        return bot.name
    return part


@dataclass
class BotProcess:
    """One running bot, started by ``runner``, and its capped log."""

    command: BotCommand
    address: str
    log_path: Path
    log_cap: int = DEFAULT_LOG_CAP
    runner: Runner = field(default_factory=LocalRunner)
    limits: Limits | None = None
    """What the bot may use; by default its manifest's resources with an hour of CPU time."""
    process: asyncio.subprocess.Process | None = None
    logged: int = 0
    dropped: int = 0
    report: RunReport | None = None
    """What the runner saw, once the bot has been stopped."""
    launch: Launch | None = field(default=None, repr=False)
    _pump: asyncio.Task[None] | None = field(default=None, repr=False)

    async def start(self) -> None:
        limits = self.limits or self.command.resources.limits()
        launch = self.runner.prepare(self.command.program(), self.address, limits)
        try:
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
            self.process = await asyncio.create_subprocess_exec(
                *launch.argv,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,
                env=launch.env,
                cwd=launch.cwd,
                start_new_session=True,
                pass_fds=launch.pass_fds,
            )
        except OSError as exc:
            launch.abandon()
            if launch.argv[:1] != self.command.argv[:1]:  # the runner's own tool failed, not the bot
                kind = self.runner.kind.value
                raise SandboxError(f"cannot start the {kind} runner ({launch.argv[0]}): {exc}") from None
            raise
        except BaseException:
            launch.abandon()
            raise
        self.launch = launch
        self._pump = asyncio.create_task(self._pump_log())
        try:
            launch.started(self.process.pid)
        except OSError as exc:
            await self.stop(grace=0)
            raise SandboxError(f"cannot set up the bot's sandbox after starting it: {exc}") from None

    async def dial_address(self, deadline: float) -> str | None:
        """Where to dial the started bot (``Launch.dial_address``): waits, until the loop time
        ``deadline``, for a contained bot to bind its socket. None if the bot exited or the time
        ran out first; ``UntrustedSocket`` if something else is at its socket's name."""
        loop = asyncio.get_running_loop()
        while (launch := self.launch) is not None:
            address = launch.dial_address(self.address)
            if address is not None:
                return address
            if self.exited or loop.time() >= deadline:
                return None
            await asyncio.sleep(SOCKET_POLL)
        return None

    @property
    def exited(self) -> bool:
        return self.process is not None and self.process.returncode is not None

    async def _pump_log(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        with self.log_path.open("wb") as log:
            while chunk := await self.process.stdout.read(65536):
                room = max(0, self.log_cap - self.logged)
                if room:
                    log.write(chunk[:room])
                    log.flush()
                    self.logged += min(room, len(chunk))
                self.dropped += max(0, len(chunk) - room)
                if self.logged >= self.log_cap:
                    await asyncio.sleep(DRAIN_PAUSE)
            if self.dropped:
                log.write(f"\n[log capped at {self.log_cap} bytes; {self.dropped} more dropped]\n".encode())

    def log_tail(self, size: int = 2000) -> str:
        try:
            data = self.log_path.read_bytes()
        except OSError:
            return ""
        return data[-size:].decode("utf-8", "replace")

    async def settled_log_tail(self, size: int = 2000) -> str:
        """The log's tail, for an exited bot once its last output is read: its exit can be seen
        before the pump has read the lines it wrote just before (a fault's evidence lost)."""
        pump = self._pump
        if self.exited and pump is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(pump), LOG_SETTLE)
        return self.log_tail(size)

    async def stop(self, grace: float = 1.0) -> None:
        """Terminate the bot's whole process group (kill it if it does not go in time), let the
        runner kill whatever else is left and clean up, then close the log."""
        process = self.process
        if process is None:
            return
        if process.returncode is None:
            if self.launch is not None:
                self.launch.terminate(process.pid)
            else:
                _signal_group(process.pid, signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), grace)
            except TimeoutError:
                _signal_group(process.pid, signal.SIGKILL)
                await process.wait()
        # Whatever the bot left behind in its session goes too.
        _signal_group(process.pid, signal.SIGKILL)
        launch, self.launch = self.launch, None
        if launch is not None:
            self.report = await launch.finish()
        if self._pump is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._pump, grace)
            self._pump = None
        # A process the bot left outside its group (possible with the local runner) may still
        # hold the log pipe: close our end rather than leave the transport to the collector.
        transport = getattr(process, "_transport", None)
        if transport is not None:
            transport.close()
        if self.report is not None and self.report.runner is not RunnerKind.LOCAL:
            with contextlib.suppress(OSError), self.log_path.open("ab") as log:
                log.write(f"\n[{self.report.summary(process.returncode)}]\n".encode())


def _signal_group(pid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)
