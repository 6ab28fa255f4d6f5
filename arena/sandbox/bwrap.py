"""The ``sandbox`` runner: a bot in its own Linux namespaces (bubblewrap), as its own uid.

The referee (root) starts one command chain per seat; each step ``exec``s the next, so the
pid the referee holds is, in the end, bubblewrap's monitor:

1. ``unshare --mount``: a private mount namespace, so the set-up below never touches the host;
2. ``sh``: joins the seat's cgroups (before anything of the bot runs), mounts a small tmpfs
   (the *stage*) and bind-mounts into it every folder the bot may see, since the bot's uid
   could not reach e.g. an interpreter under ``/root`` by itself; the stage also holds the
   seat's socket folder;
3. ``prlimit``: the rlimit backstops (processes, open files, file size, CPU seconds, no core);
4. ``setpriv``: drops to the seat's own unprivileged uid/gid, no groups, no capabilities,
   no new privileges;
5. ``bwrap``: new user, pid, network, ipc, uts and cgroup namespaces; a read-only root with the
   system, the interpreter, the arena's packages and the bot's code at ``/bot``; a fresh
   ``/proc`` (its host-wide counters covered by static files: ``freeze_proc``) and minimal
   ``/dev``; size-capped private tmpfs ``/tmp`` and ``/dev/shm``; the socket folder at
   ``/run/dehla``; killed with its parent; no nested user namespaces.

The referee reaches the bot's socket through ``/proc/<pid>/root``, the monitor's view of the
private mount namespace, but never by following the name ``bot.sock``, which the bot owns: it
walks to the stage's socket folder without following links, opens ``bot.sock`` with
``O_NOFOLLOW``, accepts only a socket on that tmpfs owned by the seat's uid and dials it
through ``/proc/self/fd/N`` (``arena.sandbox.sockets``). So the only place the bot can write
that outlives nothing and is shared with the referee alone is a 64 KiB tmpfs; the bot can write
nothing at all on the host's disks.

The chain starts in ``/`` with nothing but ``PATH`` (and ``sh`` unsets the ``PWD`` it would
export): bubblewrap's init (the bot's pid 1) keeps the environment the monitor was started with
in ``/proc/1/environ``, so that must hold nothing of the referee's, its working folder included.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import os
import platform
import secrets
import shutil
import signal
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.sandbox import cgroups, seccomp, sockets
from arena.sandbox.host_binds import HostBinds, build_host_binds
from arena.sandbox.limits import MIB, Limits
from arena.sandbox.procmask import freeze_proc
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
from arena.sandbox.uids import DEFAULT_FIRST_UID, DEFAULT_UID_COUNT, UidLease, UidPool, processes_of

INSIDE_SOCKETS = "/run/dehla"
SOCKET_NAME = "bot.sock"
INSIDE_SOCKET = f"{INSIDE_SOCKETS}/{SOCKET_NAME}"
SOCKET_FOLDER = "sock"
"""The seat's socket folder in the stage (``$stage/sock``, shown at ``/run/dehla``)."""
INSIDE_CODE = "/bot"
STAGE_BYTES = 64 * 1024
"""Size of the stage tmpfs, i.e. all the bot can write into its socket folder."""
STAGE_INODES = 64
AS_ALLOWANCE = 1024 * MIB
"""Without a memory cgroup, RLIMIT_AS = memory limit + this (threads reserve address space)."""
NPROC_MARGIN = 8
"""With a pids cgroup, RLIMIT_NPROC sits a little above pids.max: the cgroup is the limit
(and counts what it refused), the rlimit the backstop."""
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
BOT_PATH = "/usr/local/bin:/usr/bin:/bin"
SECCOMP_FD = 9
"""The start-up script opens the seccomp filter on this descriptor for bubblewrap."""
TOOLS = ("unshare", "sh", "mount", "prlimit", "setpriv", "bwrap")
STAGE_SCRIPT = r"""set -eu
unset PWD OLDPWD
n=$1; shift
while [ "$n" -gt 0 ]; do echo $$ > "$1"; shift; n=$((n - 1)); done
stage=$1; uid=$2; options=$3; filter=$4; n=$5; shift 5
mount -t tmpfs -o "$options" dehla-stage "$stage"
mkdir -m 0700 "$stage/sock"
chown "$uid:$uid" "$stage/sock"
i=0
while [ "$i" -lt "$n" ]; do
  if [ -d "$1" ]; then mkdir "$stage/$i"; else : > "$stage/$i"; fi
  mount --bind "$1" "$stage/$i"
  shift; i=$((i + 1))
done
if [ -n "$filter" ]; then exec "$@" 9<"$filter"; fi
exec "$@"
"""


@dataclass(frozen=True, slots=True)
class SandboxConfig:
    """Host settings for the sandbox runner (``from_env`` reads the ``DEHLA_SANDBOX_*`` variables)."""

    first_uid: int = DEFAULT_FIRST_UID
    uid_count: int = DEFAULT_UID_COUNT
    runtime_dir: Path = Path("/run/dehla-sandbox")
    """Root-owned folder for the uid leases and the stage mount point (empty on the host)."""
    cgroup: str = "auto"
    """``auto`` (below the referee's own group), ``off``, or a delegated group path."""
    extra_ro: tuple[str, ...] = ()
    """More host folders to show read-only at their own path (e.g. a shared model folder)."""
    hostname: str = "dehla-bot"

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> SandboxConfig:
        env = os.environ if environ is None else environ
        config = cls()
        uids = env.get("DEHLA_SANDBOX_UIDS", "")
        first, count = config.first_uid, config.uid_count
        if uids:
            try:
                first_text, _, count_text = uids.partition(":")
                first, count = int(first_text), int(count_text or count)
            except ValueError:
                raise SandboxError(f"DEHLA_SANDBOX_UIDS={uids!r}: expected FIRST:COUNT") from None
        extra = tuple(p for p in env.get("DEHLA_SANDBOX_EXTRA_RO", "").split(os.pathsep) if p)
        return cls(first, count, Path(env.get("DEHLA_SANDBOX_RUNTIME", str(config.runtime_dir))),
                   env.get("DEHLA_SANDBOX_CGROUP", "auto"), extra)


@dataclass(frozen=True, slots=True)
class Tools:
    """Absolute paths of the programs in the chain."""

    unshare: str
    sh: str
    mount: str
    prlimit: str
    setpriv: str
    bwrap: str
    disable_userns: bool = True
    """bubblewrap >= 0.8 can forbid nested user namespaces."""

    @classmethod
    def find(cls) -> Tools:
        found = {name: shutil.which(name, path=SYSTEM_PATH) for name in TOOLS}
        missing = [name for name, path in found.items() if path is None]
        if missing:
            raise SandboxUnavailable(
                f"missing {', '.join(missing)}: install bubblewrap and util-linux "
                "(apt-get install -y bubblewrap util-linux)")
        paths = {name: str(path) for name, path in found.items()}
        help_text = subprocess.run([paths["bwrap"], "--help"], capture_output=True, text=True,
                                   check=False).stdout
        return cls(**paths, disable_userns="--disable-userns" in help_text)


@dataclass(frozen=True, slots=True)
class SeatPlan:
    """Everything that differs between two seats' sandboxes."""

    uid: int
    stage: str
    procs_files: tuple[str, ...] = ()
    memory_cgroup: bool = True
    pids_cgroup: bool = True
    hostname: str = "dehla-bot"
    seccomp: str = ""
    """A file with the seccomp filter (``arena.sandbox.seccomp``), "" for none."""
    proc_masks: tuple[tuple[str, str], ...] = ()
    """(static file, ``/proc`` path) pairs from ``freeze_proc``, bound over the fresh procfs."""


def bot_environment(program: Program) -> dict[str, str]:
    """The bot's whole environment: nothing of the referee's (which may hold secrets)."""
    env = {"PATH": BOT_PATH, "HOME": "/tmp", "TMPDIR": "/tmp", "LANG": "C.UTF-8",
           "PYTHONUNBUFFERED": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    env.update(program.env)
    env[ADDRESS_ENV] = f"unix:{INSIDE_SOCKET}"
    return env


def inside_argv(program: Program) -> list[str]:
    """The command as seen inside: paths into the code folder point to ``/bot``."""
    code = program.code
    if not code:
        return list(program.argv)
    code = code.rstrip("/")
    return [INSIDE_CODE + arg[len(code):] if arg == code or arg.startswith(code + "/") else arg
            for arg in program.argv]


def proc_mask_argv(masks: Sequence[tuple[str, str]]) -> list[str]:
    """bubblewrap arguments that cover each masked ``/proc`` file (after ``--proc /proc``)."""
    return [arg for source, dest in masks for arg in ("--ro-bind", source, dest)]


def sandbox_argv(tools: Tools, program: Program, limits: Limits, plan: SeatPlan, view: HostBinds) -> list[str]:
    """The whole command chain for one seat (see the module docstring)."""
    binds = [(b.source, b.dest) for b in view.binds]
    if program.code:
        binds.append((os.path.realpath(program.code), INSIDE_CODE))
    stage_options = (f"size={STAGE_BYTES},nr_inodes={STAGE_INODES + len(binds)},mode=0711,"
                     "nosuid,nodev,noexec")
    argv = [tools.unshare, "--mount", "--propagation", "private", "--",
            tools.sh, "-c", STAGE_SCRIPT, "dehla-sandbox",
            str(len(plan.procs_files)), *plan.procs_files,
            plan.stage, str(plan.uid), stage_options, plan.seccomp, str(len(binds)),
            *(source for source, _ in binds)]
    nproc = limits.tasks + (NPROC_MARGIN if plan.pids_cgroup else 0)
    rlimits = [f"--nproc={nproc}:{nproc}",
               f"--nofile={limits.open_files}:{limits.open_files}",
               f"--fsize={limits.disk_bytes}:{limits.disk_bytes}",
               f"--cpu={limits.cpu_seconds}:{limits.cpu_seconds + 1}",
               "--core=0:0"]
    if not plan.memory_cgroup:
        address_space = limits.memory_bytes + AS_ALLOWANCE
        rlimits.append(f"--as={address_space}:{address_space}")
    argv += [tools.prlimit, *rlimits, "--"]
    argv += [tools.setpriv, f"--reuid={plan.uid}", f"--regid={plan.uid}", "--clear-groups",
             "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
    argv += [tools.bwrap, "--unshare-all", "--unshare-user"]
    if tools.disable_userns:
        argv.append("--disable-userns")
    if plan.seccomp:
        argv += ["--seccomp", str(SECCOMP_FD)]
    argv += ["--die-with-parent", "--new-session", "--cap-drop", "ALL", "--hostname", plan.hostname,
             "--clearenv"]
    for name, value in bot_environment(program).items():
        argv += ["--setenv", name, value]
    # The private /tmp and /dev/shm go first: a read-only bind whose host path lies under /tmp
    # (a project or virtualenv checked out there) is then mounted on top instead of hidden.
    disk = str(limits.disk_bytes)
    argv += ["--proc", "/proc", "--dev", "/dev",
             "--size", disk, "--perms", "1777", "--tmpfs", "/tmp",
             "--size", disk, "--perms", "1777", "--tmpfs", "/dev/shm"]
    argv += proc_mask_argv(plan.proc_masks)
    for index, (_, dest) in enumerate(binds):
        if dest != INSIDE_CODE:
            argv += ["--ro-bind", f"{plan.stage}/{index}", dest]
    for link in view.symlinks:
        argv += ["--symlink", link.target, link.dest]
    argv += ["--bind", f"{plan.stage}/sock", INSIDE_SOCKETS]
    if program.code:
        argv += ["--ro-bind", f"{plan.stage}/{len(binds) - 1}", INSIDE_CODE]
    argv += ["--remount-ro", "/dev", "--remount-ro", "/",
             "--chdir", INSIDE_CODE if program.code else "/tmp", "--", *inside_argv(program)]
    return argv


class SandboxLaunch(Launch):
    """One seat's sandbox: its uid lease, cgroups and the socket its bot bound."""

    def __init__(self, argv: Sequence[str], report: RunReport, lease: UidLease,
                 cgroup: cgroups.SeatCgroup | None, stage: str) -> None:
        super().__init__(tuple(argv), {"PATH": SYSTEM_PATH}, "/", (), report)
        self.lease: UidLease | None = lease
        self.uid = lease.uid
        self.cgroup = cgroup
        self.stage = stage
        self.pid: int | None = None
        self.socket_fd: int | None = None
        """The bot's socket, once found and checked; held until clean-up (the channel dials it)."""

    def started(self, pid: int) -> None:
        self.pid = pid

    def dial_address(self, address: str) -> str | None:
        if self.socket_fd is None and self.pid is not None:
            self.socket_fd = self._open_socket(self.pid)
        return None if self.socket_fd is None else sockets.fd_address(self.socket_fd)

    def _open_socket(self, pid: int) -> int | None:
        """The seat's socket through the monitor's root, or None while it is not there yet
        (the chain has not mounted the stage, or the bot has not bound its socket)."""
        opened: list[int] = []
        try:
            root = os.open(f"/proc/{pid}/root", sockets.DIRECTORY_FLAGS & ~os.O_NOFOLLOW)  # our own child's
            opened.append(root)
            parent = sockets.walk(root, os.path.dirname(self.stage))
            opened.append(parent)
            stage = os.open(os.path.basename(self.stage), sockets.DIRECTORY_FLAGS, dir_fd=parent)
            opened.append(stage)
            folder = os.open(SOCKET_FOLDER, sockets.DIRECTORY_FLAGS, dir_fd=stage)
            opened.append(folder)
            stage_dev = os.fstat(stage).st_dev
            owner = os.fstat(folder)
            if stage_dev == os.fstat(parent).st_dev or owner.st_dev != stage_dev or owner.st_uid != self.uid:
                return None  # the stage tmpfs is not mounted, or its socket folder not handed over, yet
            return sockets.open_bound_socket(folder, SOCKET_NAME, self.uid)
        except FileNotFoundError:  # not created yet, or the monitor has exited (its caller sees that)
            return None
        except OSError as exc:
            raise SandboxError(f"cannot reach the seat's socket folder: {exc}") from None
        finally:
            for fd in opened:
                os.close(fd)

    def terminate(self, pid: int) -> None:
        """SIGTERM to the bot's own processes, so it can shut down as it would outside (a
        SIGTERM to bubblewrap's monitor would kill the whole sandbox at once)."""
        for other in processes_of(self.uid):
            if other != pid:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(other, signal.SIGTERM)

    async def finish(self) -> RunReport:
        await asyncio.to_thread(self.cleanup)
        return self.report

    def abandon(self) -> None:
        self.cleanup()

    def cleanup(self, timeout: float = 5.0) -> None:
        """Kill whatever of the seat is left, read the limit events, free the uid and groups."""
        if self.cgroup is not None:
            if not self.cgroup.kill(timeout):
                self.report.notes.append("cgroup not empty after SIGKILL")
            self.report.events.update(self.cgroup.events())
            self.cgroup.remove()
            self.cgroup = None
        if self.lease is not None:
            if _kill_uid(self.lease.uid, timeout):
                self.lease.release()
            else:  # keep the lease: a uid with live processes must not go to another bot
                self.report.notes.append(f"uid {self.lease.uid} kept: processes remain")
            self.lease = None
        sockets.close_quietly(self.socket_fd)
        self.socket_fd = None


def _kill_uid(uid: int, timeout: float) -> bool:
    """SIGKILL every process of ``uid`` (only this seat's bot uses it) until none is left."""
    deadline = time.monotonic() + timeout
    while pids := processes_of(uid):
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


class SandboxRunner(Runner):
    """Bots in bubblewrap sandboxes with per-seat uids, cgroups and rlimits. Needs root."""

    kind = RunnerKind.SANDBOX

    def __init__(self, config: SandboxConfig | None = None) -> None:
        self.config = config or SandboxConfig.from_env()
        self._tools: Tools | None = None
        self._view: HostBinds | None = None
        self._cgroups: cgroups.CgroupHost | None = None
        self._pool: UidPool | None = None
        self._stage = str(self.config.runtime_dir / "stage")
        self._seccomp = ""
        self._proc_masks: tuple[tuple[str, str], ...] = ()

    @functools.cached_property
    def _problem(self) -> str:
        try:
            self._setup()
        except SandboxUnavailable as exc:
            return str(exc)
        except OSError as exc:
            return f"cannot set up {self.config.runtime_dir}: {exc}"
        return ""

    def check(self) -> None:
        if self._problem:
            raise SandboxUnavailable(f"sandbox runner unavailable: {self._problem}")

    @property
    def cgroups(self) -> cgroups.CgroupHost:
        self.check()
        assert self._cgroups is not None
        return self._cgroups

    def _setup(self) -> None:
        if os.geteuid() != 0:
            raise SandboxUnavailable(
                "it must run as root, to give each seat its own unprivileged uid and to mount "
                "the seat's private folders (run the referee as root, or use the docker runner)")
        self._tools = Tools.find()
        runtime = self.config.runtime_dir
        for folder, mode in ((runtime, 0o755), (runtime / "stage", 0o755), (runtime / "uids", 0o700)):
            folder.mkdir(mode=mode, parents=True, exist_ok=True)
            if folder.is_symlink() or folder.stat().st_uid != 0:
                raise SandboxUnavailable(f"{folder} must be a folder owned by root")
            folder.chmod(mode)
        self._stage = os.path.realpath(runtime / "stage")  # the referee walks it without following links
        self._pool = UidPool(self.config.first_uid, self.config.uid_count, runtime / "uids")
        abi = seccomp.host_abi()
        if abi is not None:
            program = seccomp.build_filter(abi)
            # Named by its content: a referee of another version on this host (a rolling upgrade,
            # another checkout) writes its own filter beside this one instead of over it.
            digest = hashlib.sha256(program).hexdigest()[:16]
            path = runtime / f"seccomp-{platform.machine()}-{digest}.bpf"
            draft = path.with_suffix(f".{os.getpid()}.tmp")
            draft.write_bytes(program)
            draft.chmod(0o644)
            draft.replace(path)  # atomic: another referee's sandbox may be reading it
            self._seccomp = str(path)
        self._proc_masks = freeze_proc(runtime / "proc")
        self._view = build_host_binds(self.config.extra_ro)
        self._cgroups = cgroups.detect(self.config.cgroup)
        self._probe()

    def _probe(self) -> None:
        """Run ``true`` in a sandbox once: proves user namespaces and the whole chain work."""
        launch = self._launch(Program(("/usr/bin/true",) if os.path.exists("/usr/bin/true") else ("true",)),
                              Limits(memory_mb=64, processes=8, disk_mb=1, cpu_seconds=5))
        try:
            done = subprocess.run(launch.argv, env=launch.env, cwd=launch.cwd, capture_output=True, timeout=30,
                                  check=False)
        finally:
            launch.cleanup()
        if done.returncode != 0:
            detail = (done.stderr or done.stdout).decode(errors="replace").strip()[-400:]
            raise SandboxUnavailable(f"a trial sandbox failed (exit code {done.returncode}): {detail}")

    def prepare(self, program: Program, address: str, limits: Limits) -> Launch:
        self.check()
        unix_path(address)  # checked, but never used: the referee dials the socket the bot bound
        try:
            return self._launch(program, limits)
        except OSError as exc:  # the platform's failure, never the bot's
            raise SandboxError(f"cannot prepare a sandbox: {exc}") from None

    def _launch(self, program: Program, limits: Limits) -> SandboxLaunch:
        assert self._tools is not None and self._pool is not None and self._view is not None
        assert self._cgroups is not None
        lease = self._pool.lease()
        report = RunReport(RunnerKind.SANDBOX, lease.uid, limits)
        host = self._cgroups
        seat_group = None
        try:
            if host.hierarchies:
                seat_group = host.create(f"seat-{lease.uid}-{secrets.token_hex(3)}", limits)
        except OSError as exc:
            lease.release()
            raise SandboxError(f"cannot create the seat's cgroups: {exc}") from None
        for name, why in sorted(host.missing.items()):
            report.notes.append(f"no {name} cgroup ({why}): rlimits only")
        if not self._seccomp:
            report.notes.append(f"no seccomp filter for {platform.machine()}")
        plan = SeatPlan(lease.uid, self._stage,
                        tuple(str(p) for p in (seat_group.procs_files if seat_group else [])),
                        "memory" in host.controllers, "pids" in host.controllers, self.config.hostname,
                        self._seccomp, self._proc_masks)
        argv = sandbox_argv(self._tools, program, limits, plan, self._view)
        return SandboxLaunch(argv, report, lease, seat_group, self._stage)
