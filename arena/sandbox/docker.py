"""The ``docker`` runner: the hardened ``docker run`` equivalent of the sandbox.

No network, a read-only root, the bot's code read-only at ``/bot``, size-capped tmpfs ``/tmp``
and ``/dev/shm``, memory/CPU/pids limits, rlimit backstops, every capability dropped,
no new privileges, and the seat's own unprivileged uid (leased like the sandbox's). The bot
serves on a unix socket in its seat folder, bind-mounted at ``/run/dehla``; as root the runner
first mounts a 64 KiB tmpfs on that folder so the bot cannot fill the host's disk through it.
Output is streamed to the referee (``--log-driver none``: the daemon keeps no copy on disk).
A container does not die with the referee by itself: ``finish`` removes it, and every
container carries the label ``dehla.arena=bot`` for a sweep after a crash.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.sandbox import sockets
from arena.sandbox.limits import Limits
from arena.sandbox.runner import (
    ADDRESS_ENV,
    Launch,
    Program,
    Runner,
    RunnerKind,
    RunReport,
    SandboxError,
    SandboxUnavailable,
    unix_path,
)
from arena.sandbox.uids import DEFAULT_FIRST_UID, DEFAULT_UID_COUNT, UidLease, UidPool

BASE_IMAGE = "dehla-arena/bot-base:1"
"""The image bot folders build on (see ``dehla bot new``): Python and the arena SDK."""
INSIDE_SOCKETS = "/run/dehla"
INSIDE_CODE = "/bot"
SEAT_DIR_BYTES = 64 * 1024
LABEL = "dehla.arena=bot"


@dataclass(frozen=True, slots=True)
class DockerConfig:
    docker: str = "docker"
    image: str = BASE_IMAGE
    python: str = "python"
    """The image's interpreter, used where the command names the referee's own."""
    first_uid: int = DEFAULT_FIRST_UID
    uid_count: int = DEFAULT_UID_COUNT
    lock_dir: Path = Path("/run/dehla-sandbox/uids")

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> DockerConfig:
        env = os.environ if environ is None else environ
        default = cls()
        return cls(env.get("DEHLA_DOCKER", default.docker), env.get("DEHLA_DOCKER_IMAGE", default.image))


def docker_argv(config: DockerConfig, program: Program, limits: Limits, uid: int, name: str,
                seat_dir: str) -> list[str]:
    """The ``docker run`` command line for one seat."""
    argv = list(program.argv)
    if argv and argv[0] == sys.executable:
        argv[0] = config.python
    if program.code:
        code = program.code.rstrip("/")
        argv = [INSIDE_CODE + a[len(code):] if a == code or a.startswith(code + "/") else a for a in argv]
    env = {"HOME": "/tmp", "TMPDIR": "/tmp", "PYTHONUNBUFFERED": "1", "PYTHONDONTWRITEBYTECODE": "1",
           **dict(program.env), ADDRESS_ENV: f"unix:{INSIDE_SOCKETS}/bot.sock"}
    command = [config.docker, "run", "--rm", "--name", name, "--label", LABEL, "--init",
               "--network", "none", "--read-only", "--cap-drop", "ALL",
               "--security-opt", "no-new-privileges", "--user", f"{uid}:{uid}",
               "--pids-limit", str(limits.tasks),
               "--memory", f"{limits.memory_mb}m", "--memory-swap", f"{limits.memory_mb}m",
               "--cpus", f"{limits.cpus:g}",
               "--ulimit", f"nofile={limits.open_files}:{limits.open_files}",
               "--ulimit", f"nproc={limits.tasks}:{limits.tasks}",
               "--ulimit", f"fsize={limits.disk_bytes}:{limits.disk_bytes}",
               "--ulimit", f"cpu={limits.cpu_seconds}:{limits.cpu_seconds + 1}",
               "--ulimit", "core=0:0",
               "--tmpfs", f"/tmp:rw,nosuid,nodev,size={limits.disk_mb}m,mode=1777",
               "--shm-size", f"{limits.disk_mb}m",
               "--mount", f"type=bind,source={seat_dir},target={INSIDE_SOCKETS}",
               "--hostname", "dehla-bot", "--log-driver", "none", "--stop-timeout", "1"]
    if program.code:
        command += ["--mount", f"type=bind,source={os.path.realpath(program.code)},target={INSIDE_CODE},readonly"]
    command += ["--workdir", INSIDE_CODE if program.code else "/tmp"]
    for key, value in env.items():
        command += ["--env", f"{key}={value}"]
    return [*command, config.image, *argv]


class DockerLaunch(Launch):
    def __init__(self, argv: Sequence[str], report: RunReport, config: DockerConfig, lease: UidLease,
                 name: str, seat_dir: str, mounted: bool) -> None:
        super().__init__(tuple(argv), dict(os.environ), None, (), report)
        self.config = config
        self.lease: UidLease | None = lease
        self.name = name
        self.seat_dir = seat_dir
        self.mounted = mounted
        self.uid = lease.uid
        self.socket_fd: int | None = None

    def dial_address(self, address: str) -> str | None:
        """The socket the container's bot bound in its seat folder, never a link it put there."""
        if self.socket_fd is None:
            try:
                folder = os.open(self.seat_dir, sockets.DIRECTORY_FLAGS)  # the referee's own folder
            except OSError as exc:
                raise SandboxError(f"cannot open the seat folder {self.seat_dir}: {exc}") from None
            try:
                self.socket_fd = sockets.open_bound_socket(folder, "bot.sock", self.uid)
            finally:
                os.close(folder)
        return None if self.socket_fd is None else sockets.fd_address(self.socket_fd)

    async def finish(self) -> RunReport:
        remove = await asyncio.create_subprocess_exec(
            self.config.docker, "rm", "--force", self.name,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
        await remove.wait()
        self.abandon()
        return self.report

    def abandon(self) -> None:
        sockets.close_quietly(self.socket_fd)
        self.socket_fd = None
        if self.mounted:
            subprocess.run(["umount", "--lazy", self.seat_dir], check=False, capture_output=True)
            self.mounted = False
        if self.lease is not None:
            self.lease.release()
            self.lease = None


class DockerRunner(Runner):
    """Bots in hardened docker containers (for hosts that run a docker engine)."""

    kind = RunnerKind.DOCKER

    def __init__(self, config: DockerConfig | None = None) -> None:
        self.config = config or DockerConfig.from_env()
        self._pool = UidPool(self.config.first_uid, self.config.uid_count, self.config.lock_dir)

    @functools.cached_property
    def _problem(self) -> str:
        return docker_problem(self.config.docker, self.config.image)

    def check(self) -> None:
        if self._problem:
            raise SandboxUnavailable(f"docker runner unavailable: {self._problem}")

    def prepare(self, program: Program, address: str, limits: Limits) -> Launch:
        self.check()
        seat_dir = os.path.dirname(unix_path(address))
        Path(seat_dir).mkdir(parents=True, exist_ok=True)
        lease = self._pool.lease()
        mounted = False
        try:
            if os.geteuid() == 0:
                subprocess.run(["mount", "-t", "tmpfs", "-o",
                                f"size={SEAT_DIR_BYTES},nr_inodes=16,mode=0700,uid={lease.uid},gid={lease.uid},"
                                "nosuid,nodev,noexec", "dehla-seat", seat_dir], check=True, capture_output=True)
                mounted = True
            else:
                os.chown(seat_dir, lease.uid, lease.uid)
        except (OSError, subprocess.CalledProcessError) as exc:
            lease.release()
            raise SandboxError(f"cannot prepare the seat folder {seat_dir}: {exc}") from None
        name = f"dehla-bot-{lease.uid}-{secrets.token_hex(4)}"
        argv = docker_argv(self.config, program, limits, lease.uid, name, seat_dir)
        return DockerLaunch(argv, RunReport(RunnerKind.DOCKER, lease.uid, limits), self.config, lease,
                            name, seat_dir, mounted)


def docker_problem(docker: str = "docker", image: str | None = None) -> str:
    """Why docker cannot run bots here ("" if it can): no client, no engine, no image."""
    if shutil.which(docker) is None:
        return f"no {docker!r} command"
    try:
        info = subprocess.run([docker, "info"], capture_output=True, text=True, timeout=15, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"`{docker} info` failed: {exc}"
    if info.returncode != 0:
        detail = (info.stderr or info.stdout).strip().splitlines()
        return f"`{docker} info` does not answer: {detail[-1] if detail else 'no output'}"
    if image is not None:
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            found = subprocess.run([docker, "image", "inspect", image], capture_output=True, timeout=15, check=False)
            if found.returncode != 0:
                return f"image {image!r} not found (build the arena's bot base image first)"
    return ""
