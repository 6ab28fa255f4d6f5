"""The runner interface: how a bot program is started, and the plain-subprocess runner.

A ``Runner`` turns a ``Program`` (argv, environment, code folder), the address the referee
will call and the bot's ``Limits`` into a ``Launch``: the exact command line to execute, plus
what to do once it has a pid (``started``), where the referee dials it (``dial_address``) and
after it has exited (``finish``, which cleans up and reports what the limits caught). The
referee's ``BotProcess`` spawns the command, pumps its capped log and stops it the same way
whatever the runner.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from arena.sandbox.limits import Limits

ADDRESS_ENV = "DEHLA_BOT_ADDRESS"


class RunnerKind(StrEnum):
    """``local``: a plain subprocess (an author's own machine). ``sandbox``: bubblewrap
    namespaces, a per-seat uid, cgroups and rlimits. ``container``: a hardened container run by
    the configured engine (``$DEHLA_CONTAINER_ENGINE``); ``docker``, ``podman``: by that engine."""

    LOCAL = "local"
    SANDBOX = "sandbox"
    CONTAINER = "container"
    DOCKER = "docker"
    PODMAN = "podman"


class SandboxError(RuntimeError):
    """The platform could not set up or tear down a sandbox: a platform fault, no bot is blamed."""


class SandboxUnavailable(SandboxError):  # noqa: N818 - reads as a state, like FileNotFoundError
    """This host lacks something a runner needs; the message says what and how to get it."""


@dataclass(frozen=True, slots=True)
class Program:
    """What to run: the command line, extra environment and the bot's own code folder (its
    working directory; the sandbox shows it read-only at ``/bot``)."""

    argv: tuple[str, ...]
    env: tuple[tuple[str, str], ...] = ()
    code: str | None = None


@dataclass
class RunReport:
    """What a runner saw of one bot's life: for the log trailer, the record and the tests."""

    runner: RunnerKind
    uid: int | None = None
    limits: Limits | None = None
    events: dict[str, int] = field(default_factory=dict)
    """Limit events, e.g. ``oom_kill``, ``memory_max``, ``pids_max``, ``cpu_throttled``."""
    notes: list[str] = field(default_factory=list)

    def summary(self, returncode: int | None) -> str:
        parts = [f"runner {self.runner.value}"]
        if self.uid is not None:
            parts.append(f"uid {self.uid}")
        parts.append(describe_exit(returncode))
        parts += [f"{name} {count}" for name, count in sorted(self.events.items()) if count]
        parts += self.notes
        return "; ".join(parts)


SIGNAL_NAMES = {int(sig): sig.name for sig in signal.Signals}


def describe_exit(returncode: int | None) -> str:
    """``exit code 3``, ``killed by SIGKILL``, with the sandbox's 128+N convention decoded."""
    if returncode is None:
        return "still running"
    number = -returncode if returncode < 0 else returncode - 128 if returncode > 128 else 0
    name = SIGNAL_NAMES.get(number)
    return f"exit code {returncode} (killed by {name})" if name else f"exit code {returncode}"


class Launch:
    """One prepared start. Subclasses add set-up after the spawn and clean-up after the exit."""

    def __init__(self, argv: tuple[str, ...], env: dict[str, str], cwd: str | None = None,
                 pass_fds: tuple[int, ...] = (), report: RunReport | None = None) -> None:
        self.argv = argv
        self.env = env
        self.cwd = cwd
        self.pass_fds = pass_fds
        self.report = report or RunReport(RunnerKind.LOCAL)

    def started(self, pid: int) -> None:
        """The command runs as ``pid`` (called at once, before the referee calls the bot)."""

    def dial_address(self, address: str) -> str | None:
        """Where the referee dials the bot that was told to serve on ``address``: here that
        address itself (a local bot is not contained, so the name in its folder is as good as
        any). A contained bot owns its folder, so its runner dials only the socket its own
        process bound (``arena.sandbox.sockets``) and returns None until there is one."""
        return address

    def terminate(self, pid: int) -> None:
        """Ask the bot to stop: SIGTERM to its process group (the referee kills it if it stays)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGTERM)

    async def finish(self) -> RunReport:
        """The command has exited and been reaped: kill leftovers, release resources, report."""
        return self.report

    def abandon(self) -> None:
        """The spawn failed: release what ``prepare`` took."""


class Runner(ABC):
    """Starts bot programs one way; chosen by configuration (``runner_for``)."""

    kind: ClassVar[RunnerKind]

    def check(self) -> None:
        """Raise ``SandboxUnavailable`` (with the reason) if this host cannot run bots this way."""

    @abstractmethod
    def prepare(self, program: Program, address: str, limits: Limits) -> Launch:
        """What to execute so that ``program`` serves on ``address`` (``unix:PATH``) within ``limits``."""


class LocalRunner(Runner):
    """A plain subprocess with the referee's environment: no isolation, no limits (its own
    session only, so stopping it stops what it started in that session).

    The bot is started through ``setpriv --pdeathsig KILL`` where util-linux has it, so it dies
    with the process that started it even when that process is killed outright (a ladder worker
    SIGKILLed mid-match), as the sandbox's ``--die-with-parent`` does (armed by setpriv just
    before it runs the bot: a starter killed in the first milliseconds can still leave it). A program that does not
    resolve is started bare, so that spawning it fails as it would without the wrapper."""

    kind = RunnerKind.LOCAL

    def prepare(self, program: Program, address: str, limits: Limits) -> Launch:
        env = dict(os.environ)
        env.update(program.env)
        env[ADDRESS_ENV] = address
        env.setdefault("PYTHONUNBUFFERED", "1")
        argv = program.argv
        setpriv = shutil.which("setpriv")
        if setpriv and argv and _resolves(argv[0], env.get("PATH"), program.code):
            argv = (setpriv, "--pdeathsig", "KILL", "--", *argv)
        return Launch(argv, env, program.code, report=RunReport(RunnerKind.LOCAL, limits=limits))


def _resolves(command: str, search_path: str | None, cwd: str | None) -> bool:
    """Whether ``command`` names an executable file (found as ``execvp`` would find it)."""
    if "/" in command:
        path = os.path.join(cwd or os.getcwd(), command)
        return os.path.isfile(path) and os.access(path, os.X_OK)
    return shutil.which(command, path=search_path) is not None


def unix_path(address: str) -> str:
    """The socket path of a ``unix:PATH`` address (the sandboxed runners serve only on those)."""
    if not address.startswith("unix:"):
        raise SandboxError(f"address {address!r}: sandboxed bots serve on unix:PATH addresses only")
    path = address.removeprefix("unix:")
    if not os.path.isabs(path):
        raise SandboxError(f"address {address!r}: the socket path must be absolute")
    return path
