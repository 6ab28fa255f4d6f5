"""The container runner: bots in hardened containers, under docker or podman (one command line).

No network, a read-only root, the bot's code read-only at ``/bot`` (or baked into its version's
image), size-capped tmpfs ``/tmp`` and ``/dev/shm``, memory/CPU/pids limits, rlimit backstops,
every capability dropped, no new privileges, and the seat's own unprivileged uid (leased like the
sandbox's). The bot serves on a unix socket in its seat folder, bind-mounted at ``/run/dehla``;
as root the runner first mounts a 64 KiB tmpfs on that folder so the bot cannot fill the host's
disk through it, and the referee dials only a socket the seat's uid bound there
(``arena.sandbox.sockets``). Output is streamed to the referee (``--log-driver none``: the engine
keeps no copy on disk). An image is never pulled (``--pull never``). The container is not run
with ``--rm``: ``finish`` reads how it ended (killed for memory?) before it removes it.

Podman needs a few things said that docker does by default or not at all: the runtime (``runc``
here: crun is not installed), no user namespace (the socket check compares the host uid), no
tmpfs of its own on ``/run``, ``/tmp`` and ``/var/tmp`` of a read-only container (uncapped),
no ``VOLUME`` of the image (a writable host folder), no proxy variables copied from the host.

Podman's default seccomp profile lets any process call ``unshare``/``clone`` for a new user
namespace (and inside it, ``mount`` and the rest); docker's refuses them without
``CAP_SYS_ADMIN``. So under podman the runner passes a profile of its own (``seccomp_profile``):
podman's default, minus the namespace calls, minus the sandbox's covert-channel and host-counter
calls (``arena.sandbox.seccomp``: ``flock``, ``inotify``, ``mincore``, ``sysinfo``, ``ustat``,
``setsid``, pidfds; not ``statfs``/``fstatfs``, which runc needs after loading the filter, nor
``fcntl`` locks). And podman shows the sandbox's stand-ins for the host-wide ``/proc`` counters
(``arena.sandbox.procmask``): the frozen copies bound, the rest and ``/sys`` masked.

A container does not die with the referee by itself: ``finish`` removes it, and every container
carries the label ``dehla.arena=bot`` and its referee's pid for ``sweep`` after a crash.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import functools
import hashlib
import json
import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from arena.sandbox import seccomp, sockets
from arena.sandbox.limits import Limits
from arena.sandbox.procmask import FROZEN_PROC, SYS_MASKED, freeze_proc
from arena.sandbox.runner import (
    ADDRESS_ENV,
    Launch,
    Program,
    Runner,
    RunnerKind,
    RunReport,
    SandboxError,
    SandboxUnavailable,
    describe_exit,
    unix_path,
)
from arena.sandbox.uids import DEFAULT_FIRST_UID, DEFAULT_UID_COUNT, UidLease, UidPool

BASE_IMAGE = "dehla-arena/bot-base:1"
"""The image bot folders build on (see ``dehla bot new``): Python and the arena SDK."""
INSIDE_SOCKETS = "/run/dehla"
INSIDE_CODE = "/bot"
SEAT_DIR_BYTES = 64 * 1024
LABEL = "dehla.arena=bot"
REFEREE_LABEL = "dehla.referee"
"""Label holding ``PID:START`` of the referee that started a container (``sweep``)."""
ENGINE_ENV = "DEHLA_CONTAINER_ENGINE"


class Engine(StrEnum):
    """The program that runs containers: a docker engine (a daemon) or podman (none)."""

    DOCKER = "docker"
    PODMAN = "podman"


def default_engine(environ: Mapping[str, str] | None = None) -> Engine:
    """``$DEHLA_CONTAINER_ENGINE``, else podman where it is installed, else docker."""
    env = os.environ if environ is None else environ
    named = env.get(ENGINE_ENV, "")
    if named:
        try:
            return Engine(named)
        except ValueError:
            raise SandboxUnavailable(f"${ENGINE_ENV}={named!r}: choose docker or podman") from None
    return Engine.PODMAN if shutil.which("podman") else Engine.DOCKER


@dataclass(frozen=True, slots=True)
class ContainerConfig:
    engine: Engine = Engine.PODMAN
    client: str = ""
    """The engine's command ("": the engine's own name on ``PATH``)."""
    runtime: str = "/usr/sbin/runc"
    """Podman only: the OCI runtime (``--runtime``); "" leaves podman's default."""
    image: str = BASE_IMAGE
    """The image of bots that have none of their own; their code is mounted at ``/bot``."""
    python: str = "python"
    """The image's interpreter, used where the command names the referee's own."""
    first_uid: int = DEFAULT_FIRST_UID
    uid_count: int = DEFAULT_UID_COUNT
    lock_dir: Path = Path("/run/dehla-sandbox/uids")
    seccomp_base: str = "/usr/share/containers/seccomp.json"
    """Podman only: the engine's default seccomp profile, which ``seccomp_profile`` narrows."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, engine: Engine | None = None) -> ContainerConfig:
        """``$DEHLA_CONTAINER_ENGINE``, ``$DEHLA_DOCKER``/``$DEHLA_PODMAN`` (the client),
        ``$DEHLA_CONTAINER_RUNTIME`` and ``$DEHLA_CONTAINER_IMAGE`` (or ``$DEHLA_DOCKER_IMAGE``)."""
        env = os.environ if environ is None else environ
        chosen = engine or default_engine(env)
        default = cls()
        return cls(chosen, env.get(f"DEHLA_{chosen.value.upper()}", ""),
                   env.get("DEHLA_CONTAINER_RUNTIME", default.runtime),
                   env.get("DEHLA_CONTAINER_IMAGE", env.get("DEHLA_DOCKER_IMAGE", default.image)))

    @property
    def program(self) -> str:
        return self.client or self.engine.value

    def command(self, *args: str) -> list[str]:
        """The engine's command line for ``args`` (podman with its runtime)."""
        front = [self.program]
        if self.engine is Engine.PODMAN and self.runtime:
            front += ["--runtime", self.runtime]
        return [*front, *args]


NAMESPACE_CALLS = ("unshare", "setns", "mount", "umount", "umount2", "pivot_root", "chroot", "keyctl", "add_key",
                   "request_key", "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick",
                   "mount_setattr", "bpf", "perf_event_open", "userfaultfd")
CLONE_NAMESPACES = 0x7E020000
"""``CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET``: ``clone`` flags refused."""
CLONE_REFUSED = CLONE_NAMESPACES | seccomp.CLONE_PIDFD
"""Also no pidfd: its inode number counts the host's pids (issue 23)."""
SOCKET_OPTIONS = {"getsockopt": seccomp.SO_PEERPIDFD, "setsockopt": seccomp.SO_PASSPIDFD}
"""Allowed only without the option that hands out a pidfd."""
ENOSYS = 38
RUNTIME_CALLS = frozenset({"statfs", "fstatfs"})
"""Left allowed: runc itself calls ``fstatfs`` once the filter is loaded (is /proc procfs?)."""


def seccomp_profile(base: dict[str, object], abi: seccomp.Abi | None = None) -> dict[str, object]:
    """The engine's default profile without namespace calls, covert channels or host counters:
    they fail with EPERM (``setsid`` and ``pidfd_open`` too); ``clone`` is allowed without
    namespace flags or ``CLONE_PIDFD``; ``clone3`` (whose flags a filter cannot read) fails with
    ENOSYS, so libc falls back to ``clone``; ``getsockopt``/``setsockopt`` without the pidfd
    options. ``abi``: the host's (another for negative controls; without ``pidfds``, pidfds pass)."""
    abi = abi or seccomp.host_abi()
    pidfds = abi is None or abi.pidfds is not None
    sockopts = SOCKET_OPTIONS if pidfds else {}
    denied = set(NAMESPACE_CALLS) | (set(abi.denied) | set(abi.counters) if abi else set())
    denied -= RUNTIME_CALLS
    profile = copy.deepcopy(base)
    rules = [dict(rule) for rule in profile.get("syscalls", [])]  # type: ignore[attr-defined]
    for rule in rules:
        rule["names"] = [name for name in rule.get("names", [])
                         if name not in denied | {"clone", "clone3"} | set(sockopts)]
    rules = [rule for rule in rules if rule["names"]]
    rules += [{"names": sorted(denied), "action": "SCMP_ACT_ERRNO", "errnoRet": 1},
              {"names": ["clone3"], "action": "SCMP_ACT_ERRNO", "errnoRet": ENOSYS},
              {"names": ["clone"], "action": "SCMP_ACT_ALLOW",
               "args": [{"index": 0, "value": CLONE_REFUSED if pidfds else CLONE_NAMESPACES, "valueTwo": 0,
                         "op": "SCMP_CMP_MASKED_EQ"}]}]
    for name, option in sorted(sockopts.items()):  # EPERM, as in the sandbox (not the profile's ENOSYS)
        rules += [{"names": [name], "action": action, "args": [{"index": 2, "value": option, "valueTwo": 0, "op": op}],
                   **({"errnoRet": 1} if action == "SCMP_ACT_ERRNO" else {})}
                  for action, op in (("SCMP_ACT_ALLOW", "SCMP_CMP_NE"), ("SCMP_ACT_ERRNO", "SCMP_CMP_EQ"))]
    profile["syscalls"] = rules
    return profile


@functools.cache
def seccomp_file(base: str, folder: Path) -> str:
    """The narrowed profile of ``base``, written once under ``folder`` and named by its content
    (referees of other versions on the host keep their own)."""
    try:
        with open(base, encoding="utf-8") as source:
            text = json.dumps(seccomp_profile(json.load(source)), sort_keys=True)
    except (OSError, ValueError) as exc:
        raise SandboxUnavailable(f"cannot read podman's seccomp profile {base}: {exc}") from None
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"container-seccomp-{hashlib.sha256(text.encode()).hexdigest()[:16]}.json"
    if not path.exists():
        scratch = path.with_suffix(f".{os.getpid()}.tmp")
        scratch.write_text(text, encoding="utf-8")
        scratch.replace(path)
    return str(path)


def proc_mask_options(masks: Sequence[tuple[str, str]]) -> list[str]:
    """Podman options that show the sandbox's stand-ins for the host-wide counters (issue 23):
    the frozen copies bound read-only (runc allows binds over exactly these ``/proc`` files),
    the emptied counters and ``/sys`` masked (podman's ``mask``: ``/dev/null`` over a file, an
    empty read-only tmpfs over a folder)."""
    frozen = {f"/proc/{name}" for name in FROZEN_PROC}
    options = [arg for source, dest in masks if dest in frozen
               for arg in ("--mount", f"type=bind,source={source},target={dest},readonly")]
    masked = [dest for _, dest in masks if dest not in frozen] + list(SYS_MASKED)
    return [*options, "--security-opt", "mask=" + ":".join(masked)]


def container_argv(config: ContainerConfig, program: Program, limits: Limits, uid: int, name: str,
                   seat_dir: str, image: str | None = None, proc_masks: Sequence[tuple[str, str]] = ()) -> list[str]:
    """The ``run`` command line for one seat: the bot's code mounted at ``/bot`` on the base
    image, or (``image``) its version's own image, which holds its code at ``/bot``. Under
    podman, ``proc_masks`` (``freeze_proc``'s) hide the host-wide counters as in the sandbox."""
    argv = list(program.argv)
    if argv and argv[0] == sys.executable:
        argv[0] = config.python
    if program.code:
        code = program.code.rstrip("/")
        argv = [INSIDE_CODE + a[len(code):] if a == code or a.startswith(code + "/") else a for a in argv]
    env = {"HOME": "/tmp", "TMPDIR": "/tmp", "PYTHONUNBUFFERED": "1", "PYTHONDONTWRITEBYTECODE": "1",
           **dict(program.env), ADDRESS_ENV: f"unix:{INSIDE_SOCKETS}/bot.sock"}
    command = config.command(
        "run", "--pull=never", "--name", name, "--label", LABEL,
        "--label", f"{REFEREE_LABEL}={referee_mark()}", "--init",
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
        "--hostname", "dehla-bot", "--log-driver", "none", "--stop-timeout", "1")
    if config.engine is Engine.PODMAN:
        command += ["--userns", "host", "--read-only-tmpfs=false", "--image-volume", "ignore",
                    "--http-proxy=false", "--systemd", "false",
                    "--security-opt", f"seccomp={seccomp_file(config.seccomp_base, config.lock_dir.parent)}",
                    *proc_mask_options(proc_masks)]
    if program.code and image is None:
        command += ["--mount", f"type=bind,source={os.path.realpath(program.code)},target={INSIDE_CODE},readonly"]
    command += ["--workdir", INSIDE_CODE if program.code else "/tmp"]
    for key, value in env.items():
        command += ["--env", f"{key}={value}"]
    # The command itself, never the image's ENTRYPOINT (a version's Dockerfile may set one).
    command += ["--entrypoint", argv[0]] if argv else []
    return [*command, image or config.image, *argv[1:]]


def referee_mark(pid: int | None = None) -> str:
    """``PID:START``: this process and its start time (a reused pid is another referee)."""
    pid = os.getpid() if pid is None else pid
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return f"{pid}:gone"
    return f"{pid}:{stat.rsplit(')', 1)[1].split()[19]}"


class ContainerLaunch(Launch):
    def __init__(self, argv: Sequence[str], report: RunReport, config: ContainerConfig, lease: UidLease,
                 name: str, seat_dir: str, mounted: bool, client_dir: str) -> None:
        super().__init__(tuple(argv), dict(os.environ), client_dir, (), report)
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
        """Read how the container ended (the client's own exit says little: the referee may have
        stopped it after the bot died), remove the container (a client killed outright leaves it
        running) and release the seat."""
        inspect = await asyncio.create_subprocess_exec(
            *self.config.command("inspect", "--type", "container", "--format",
                                 "{{.State.OOMKilled}} {{.State.ExitCode}}", self.name),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
        state, _ = await inspect.communicate()
        oom_killed, _, code = state.decode(errors="replace").strip().partition(" ")
        if oom_killed == "true":
            self.report.events["oom_kill"] = 1
        if code.lstrip("-").isdigit() and int(code):
            self.report.notes.append(f"container {describe_exit(int(code))}")
        remove = await asyncio.create_subprocess_exec(
            *self.config.command("rm", "--force", "--time", "0", self.name),
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


ImageOf = Callable[[Program], "str | None"]
"""The image of a program's own version (None: the base image with its code mounted)."""


class ContainerRunner(Runner):
    """Bots in hardened containers (docker or podman, ``ContainerConfig.engine``)."""

    kind = RunnerKind.CONTAINER

    def __init__(self, config: ContainerConfig | None = None, image_of: ImageOf | None = None) -> None:
        self.config = config or ContainerConfig.from_env()
        self.image_of = image_of
        self._pool = UidPool(self.config.first_uid, self.config.uid_count, self.config.lock_dir)

    @functools.cached_property
    def _problem(self) -> str:
        problem = container_problem(self.config, self.config.image)
        if not problem and self.config.engine is Engine.PODMAN:
            try:  # here, not while a seat's uid and folder are held
                seccomp_file(self.config.seccomp_base, self.config.lock_dir.parent)
                _ = self._proc_masks
            except SandboxUnavailable as exc:
                problem = str(exc)
            except OSError as exc:
                problem = f"cannot write the /proc stand-ins: {exc}"
        if not problem:
            try:  # here too, not while a seat's uid and folder are held
                _ = self._client_dir
            except OSError as exc:
                problem = f"cannot make the engine client's folder: {exc}"
        return problem

    @functools.cached_property
    def _proc_masks(self) -> tuple[tuple[str, str], ...]:
        """The sandbox's stand-ins for the host-wide ``/proc`` counters (podman, as root)."""
        if self.config.engine is not Engine.PODMAN or os.geteuid() != 0:
            return ()
        return freeze_proc(self.config.lock_dir.parent / "proc")

    @functools.cached_property
    def _client_dir(self) -> str:
        """Where the engine's client runs: conmon leaves its ``oom`` marker in its working
        folder when a bot is killed at its memory limit, which was the referee's own."""
        folder = self.config.lock_dir.parent / "client"
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        return str(folder)

    @functools.cached_property
    def _swept(self) -> list[str]:
        return sweep(self.config)

    def check(self) -> None:
        """Raise if the engine cannot run bots here; the first time, also remove what referees
        that died before their ``finish`` left (``sweep``)."""
        if self._problem:
            raise SandboxUnavailable(f"{self.config.engine.value} runner unavailable: {self._problem}")
        _ = self._swept

    def prepare(self, program: Program, address: str, limits: Limits) -> Launch:
        self.check()
        image = self.image_of(program) if self.image_of is not None else None
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
        argv = container_argv(self.config, program, limits, lease.uid, name, seat_dir, image, self._proc_masks)
        report = RunReport(self.kind, lease.uid, limits, notes=[f"engine {self.config.engine.value}"])
        return ContainerLaunch(argv, report, self.config, lease, name, seat_dir, mounted, self._client_dir)


def container_problem(config: ContainerConfig, image: str | None = None) -> str:
    """Why this engine cannot run bots here ("" if it can): no client, no engine, no image."""
    client = config.program
    if shutil.which(client) is None:
        return f"no {client!r} command"
    if config.engine is Engine.PODMAN and config.runtime and not os.access(config.runtime, os.X_OK):
        return f"no OCI runtime at {config.runtime} (apt-get install runc, or set $DEHLA_CONTAINER_RUNTIME)"
    try:
        info = subprocess.run(config.command("info"), capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"`{client} info` failed: {exc}"
    if info.returncode != 0:
        detail = (info.stderr or info.stdout).strip().splitlines()
        return f"`{client} info` does not answer: {detail[-1] if detail else 'no output'}"
    if image is not None and not image_exists(config, image):
        return f"image {image!r} not found (build the arena's bot base image first: python tools/build_base_image.py)"
    return ""


def image_exists(config: ContainerConfig, image: str) -> bool:
    with contextlib.suppress(OSError, subprocess.TimeoutExpired):
        found = subprocess.run(config.command("image", "inspect", image), capture_output=True, timeout=30,
                               check=False)
        return found.returncode == 0
    return False


def sweep(config: ContainerConfig) -> list[str]:
    """Remove the bot containers whose referee is gone (killed before ``finish``): their names.

    Containers of live referees (other workers on this host) are left alone."""
    listed = subprocess.run(config.command("ps", "--all", "--filter", f"label={LABEL}", "--format",
                                           f'{{{{.Names}}}} {{{{index .Labels "{REFEREE_LABEL}"}}}}'),
                            capture_output=True, text=True, timeout=60, check=False)
    stale = []
    for line in listed.stdout.splitlines():
        name, _, mark = line.partition(" ")
        pid = mark.partition(":")[0]
        if name and not (pid.isdigit() and referee_mark(int(pid)) == mark):
            stale.append(name)
    if stale:
        subprocess.run(config.command("rm", "--force", "--time", "0", *stale), capture_output=True, timeout=120,
                       check=False)
    return stale
