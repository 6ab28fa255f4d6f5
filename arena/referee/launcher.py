"""Starting bots as local processes: resolving a bot spec, the address, capped logs, clean-up.

A bot is told where to serve by the ``DEHLA_BOT_ADDRESS`` environment variable (``unix:PATH``
or ``127.0.0.1:PORT``). Each bot runs in its own session (process group), so closing it kills
everything it started. Its stdout and stderr go to one log capped at ``log_cap`` bytes; the
rest is drained and counted, so a flooding bot never blocks or fills the disk.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import shutil
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path

from arena.bots.manifest import load_manifest
from arena.errors import ArenaError

ADDRESS_ENV = "DEHLA_BOT_ADDRESS"
SAMPLE_BOTS_PACKAGE = "sample_bots"
DEFAULT_LOG_CAP = 256 * 1024


class BotSpecError(ArenaError):
    """A bot spec that names no sample bot and no runnable command."""


@dataclass(frozen=True, slots=True)
class BotCommand:
    """How to start one bot: a display name and the command line."""

    name: str
    argv: tuple[str, ...]
    env: tuple[tuple[str, str], ...] = ()
    cwd: str | None = None


def sample_bot_names() -> list[str]:
    root = Path(__file__).resolve().parents[2] / SAMPLE_BOTS_PACKAGE
    return sorted(p.parent.name for p in root.glob("*/__main__.py"))


def resolve_bot(spec: str) -> BotCommand:
    """A sample bot name (``random``), a bot folder (with ``bot.toml``), or a command line that
    starts a bot serving the protocol."""
    spec = spec.strip()
    if not spec:
        raise BotSpecError("empty bot spec")
    if spec in sample_bot_names():
        return BotCommand(spec, (sys.executable, "-m", f"{SAMPLE_BOTS_PACKAGE}.{spec}"))
    folder = Path(spec)
    if folder.is_dir():
        manifest = load_manifest(folder)
        return BotCommand(manifest.name, manifest.argv(), cwd=str(folder.resolve()))
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


def resolve_partnership(spec: str) -> tuple[BotCommand, BotCommand]:
    """``A`` (a bot partnered with a copy of itself) or ``A1+A2`` (a mixed partnership)."""
    parts = spec.split("+")
    if len(parts) == 1:
        bot = resolve_bot(parts[0])
        return bot, bot
    if len(parts) == 2:
        return resolve_bot(parts[0]), resolve_bot(parts[1])
    raise BotSpecError(f"partnership {spec!r}: expected BOT or BOT1+BOT2")


@dataclass
class BotProcess:
    """One running bot process and its capped log."""

    command: BotCommand
    address: str
    log_path: Path
    log_cap: int = DEFAULT_LOG_CAP
    process: asyncio.subprocess.Process | None = None
    logged: int = 0
    dropped: int = 0
    _pump: asyncio.Task[None] | None = field(default=None, repr=False)

    async def start(self) -> None:
        env = dict(os.environ)
        env.update(self.command.env)
        env[ADDRESS_ENV] = self.address
        env.setdefault("PYTHONUNBUFFERED", "1")
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self.process = await asyncio.create_subprocess_exec(
            *self.command.argv,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            env=env,
            cwd=self.command.cwd,
            start_new_session=True,
        )
        self._pump = asyncio.create_task(self._pump_log())

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
            if self.dropped:
                log.write(f"\n[log capped at {self.log_cap} bytes; {self.dropped} more dropped]\n".encode())

    def log_tail(self, size: int = 2000) -> str:
        try:
            data = self.log_path.read_bytes()
        except OSError:
            return ""
        return data[-size:].decode("utf-8", "replace")

    async def stop(self, grace: float = 1.0) -> None:
        """Terminate the bot's whole process group; kill it if it does not go in time."""
        process = self.process
        if process is None:
            return
        if process.returncode is None:
            _signal_group(process.pid, signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), grace)
            except TimeoutError:
                _signal_group(process.pid, signal.SIGKILL)
                await process.wait()
        # Whatever the bot left behind in its session goes too.
        _signal_group(process.pid, signal.SIGKILL)
        if self._pump is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._pump, grace)


def _signal_group(pid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)
