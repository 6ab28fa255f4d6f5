"""Per-seat control groups: memory, process count and CPU share, on cgroup v1 or v2.

Each seat gets a leaf group ``dehla-sandbox-<referee pid>/<seat>`` below the referee's own
group in every hierarchy that carries one of the controllers (v1 mounts one hierarchy per
controller, v2 one for all). The sandbox's start-up script writes its own pid into the leaves'
``cgroup.procs`` before anything of the bot runs, so nothing escapes the limits.

Where a controller cannot be had (not mounted, not writable, or v2 refusing to enable it
below a group that holds processes), it is reported missing and the runner falls back to
rlimits for it. ``DEHLA_SANDBOX_CGROUP`` names a delegated group to use instead of our own.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import os
import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from arena.sandbox.limits import Limits

CONTROLLERS = ("memory", "pids", "cpu")
CPU_PERIOD_US = 100_000
PARENT_PREFIX = "dehla-sandbox-"


@dataclass(frozen=True, slots=True)
class Mount:
    version: int
    mountpoint: Path
    root: str
    """The mount's root within the hierarchy (not ``/`` inside some containers)."""
    controllers: frozenset[str]


def parse_mounts(mountinfo: str) -> list[Mount]:
    """The cgroup (v1) and cgroup2 mounts of ``/proc/self/mountinfo``."""
    mounts = []
    for line in mountinfo.splitlines():
        before, _, after = line.partition(" - ")
        fields, tail = before.split(), after.split()
        if len(fields) < 5 or len(tail) < 3:
            continue
        fstype, options = tail[0], set(tail[2].split(","))
        mountpoint = Path(fields[4].replace("\\040", " "))
        if fstype == "cgroup":
            mounts.append(Mount(1, mountpoint, fields[3], frozenset(options & set(CONTROLLERS))))
        elif fstype == "cgroup2":
            mounts.append(Mount(2, mountpoint, fields[3], frozenset()))
    return mounts


def parse_membership(self_cgroup: str) -> dict[str, str]:
    """Controller name -> our group path (``""`` is the v2 group) from ``/proc/self/cgroup``."""
    paths: dict[str, str] = {}
    for line in self_cgroup.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        if controllers == "":
            paths[""] = path
        for name in controllers.split(","):
            paths[name] = path
    return paths


def _relative(path: str, root: str) -> str:
    if root != "/" and (path == root or path.startswith(root + "/")):
        path = path[len(root):]
    return path.lstrip("/")


def _write(path: Path, value: str) -> None:
    with path.open("w") as handle:
        handle.write(value)


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _keyed(text: str, key: str) -> int:
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name == key and value.strip().lstrip("-").isdigit():
            return int(value)
    return 0


@dataclass(frozen=True, slots=True)
class Hierarchy:
    """One writable hierarchy: its version, which of our controllers it carries, and the
    folder where this referee puts its seats' groups."""

    version: int
    controllers: frozenset[str]
    parent: Path


@dataclass
class CgroupHost:
    """The controllers this referee can use, and why any others are missing."""

    hierarchies: list[Hierarchy] = field(default_factory=list)
    missing: dict[str, str] = field(default_factory=dict)
    """Controller -> why it is not available (the runner falls back to rlimits for it)."""
    active: int = 0
    """Seat groups alive now: the parent's CPU weight is scaled by it (see ``_weigh``)."""
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    """Seats are cleaned up in worker threads."""

    @property
    def controllers(self) -> set[str]:
        return {c for h in self.hierarchies for c in h.controllers}

    def close(self) -> None:
        """Remove this referee's (empty) parent groups; at exit."""
        for hierarchy in self.hierarchies:
            with contextlib.suppress(OSError):
                hierarchy.parent.rmdir()

    def create(self, name: str, limits: Limits) -> SeatCgroup:
        seat = SeatCgroup([])
        try:
            for hierarchy in self.hierarchies:
                hierarchy.parent.mkdir(exist_ok=True)
                if hierarchy.version == 2:
                    enable_parent_v2(hierarchy.parent, hierarchy.controllers)
                folder = hierarchy.parent / name
                folder.mkdir()
                seat.groups.append((hierarchy, folder))
                _apply(hierarchy, folder, limits)
        except OSError:
            seat.remove()
            raise
        seat.host = self
        with self._lock:
            self.active += 1
            self._weigh()
        return seat

    def released(self) -> None:
        with self._lock:
            self.active = max(0, self.active - 1)
            self._weigh()

    def _weigh(self) -> None:
        """Give the parent the CPU weight of one process per live seat, so that under contention
        each sandboxed bot gets what a plain process would (all the seats of a referee under one
        parent of the default weight would share one process's worth)."""
        seats = max(1, self.active)
        for hierarchy in self.hierarchies:
            if "cpu" not in hierarchy.controllers:
                continue
            name, value = (("cpu.shares", min(262144, 1024 * seats)) if hierarchy.version == 1
                           else ("cpu.weight", min(10000, 100 * seats)))
            with contextlib.suppress(OSError):
                _write(hierarchy.parent / name, str(value))


def _apply(hierarchy: Hierarchy, folder: Path, limits: Limits) -> None:
    quota = max(1000, round(limits.cpus * CPU_PERIOD_US))
    if hierarchy.version == 1:
        if "memory" in hierarchy.controllers:
            _write(folder / "memory.limit_in_bytes", str(limits.memory_bytes))
            if (folder / "memory.memsw.limit_in_bytes").exists():  # no swapping past the limit
                _write(folder / "memory.memsw.limit_in_bytes", str(limits.memory_bytes))
        if "pids" in hierarchy.controllers:
            _write(folder / "pids.max", str(limits.tasks))
        if "cpu" in hierarchy.controllers:
            _write(folder / "cpu.cfs_period_us", str(CPU_PERIOD_US))
            _write(folder / "cpu.cfs_quota_us", str(quota))
        return
    if "memory" in hierarchy.controllers:
        _write(folder / "memory.max", str(limits.memory_bytes))
        if (folder / "memory.swap.max").exists():
            _write(folder / "memory.swap.max", "0")
    if "pids" in hierarchy.controllers:
        _write(folder / "pids.max", str(limits.tasks))
    if "cpu" in hierarchy.controllers:
        _write(folder / "cpu.max", f"{quota} {CPU_PERIOD_US}")


@dataclass
class SeatCgroup:
    """One seat's groups (one per hierarchy)."""

    groups: list[tuple[Hierarchy, Path]]
    host: CgroupHost | None = None

    @property
    def procs_files(self) -> list[Path]:
        return [folder / "cgroup.procs" for _, folder in self.groups]

    def pids(self) -> set[int]:
        found: set[int] = set()
        for path in self.procs_files:
            found.update(int(p) for p in _read(path).split())
        return found

    def events(self) -> dict[str, int]:
        """What the limits caught: OOM kills, memory limit hits, refused forks, CPU throttling."""
        events: dict[str, int] = {}
        for hierarchy, folder in self.groups:
            v1 = hierarchy.version == 1
            if "memory" in hierarchy.controllers:
                if v1:
                    events["memory_max"] = _keyed("failcnt " + _read(folder / "memory.failcnt"), "failcnt")
                    events["oom_kill"] = _keyed(_read(folder / "memory.oom_control"), "oom_kill")
                    events["memory_peak"] = _keyed("peak " + _read(folder / "memory.max_usage_in_bytes"), "peak")
                else:
                    text = _read(folder / "memory.events")
                    events["memory_max"] = _keyed(text, "max")
                    events["oom_kill"] = _keyed(text, "oom_kill")
                    events["memory_peak"] = _keyed("peak " + _read(folder / "memory.peak"), "peak")
            if "pids" in hierarchy.controllers:
                events["pids_max"] = _keyed(_read(folder / "pids.events"), "max")
                events["pids_peak"] = _keyed("peak " + _read(folder / "pids.peak"), "peak")
            if "cpu" in hierarchy.controllers:
                events["cpu_throttled"] = _keyed(_read(folder / "cpu.stat"), "nr_throttled")
        return events

    def kill(self, timeout: float = 5.0) -> bool:
        """SIGKILL everything in the groups; True once they are empty."""
        for _, folder in self.groups:
            if (folder / "cgroup.kill").exists():
                with contextlib.suppress(OSError):
                    _write(folder / "cgroup.kill", "1")
        deadline = time.monotonic() + timeout
        while pids := self.pids():
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)
        return True

    def remove(self) -> None:
        for _, folder in reversed(self.groups):
            for _attempt in range(100):
                try:
                    folder.rmdir()
                except FileNotFoundError:
                    break
                except OSError as exc:
                    if exc.errno != errno.EBUSY:
                        break
                    time.sleep(0.005)  # the kernel frees a group a moment after its last task
                else:
                    break
        self.groups = []
        if self.host is not None:
            self.host.released()
            self.host = None


def detect(setting: str = "auto", *, mountinfo: str | None = None, self_cgroup: str | None = None,
           pid: int | None = None, prefix: Path = Path("/")) -> CgroupHost:
    """Find writable hierarchies for memory, pids and cpu. ``setting``: ``auto`` (below our own
    group), ``off``, or a group path to use in every hierarchy (a delegated group).
    ``prefix`` re-roots the cgroup mount points (tests use a fake tree)."""
    host = CgroupHost()
    if setting == "off":
        host.missing = dict.fromkeys(CONTROLLERS, "cgroups turned off by configuration")
        return host
    pid = os.getpid() if pid is None else pid
    mountinfo = _read(Path("/proc/self/mountinfo")) if mountinfo is None else mountinfo
    self_cgroup = _read(Path("/proc/self/cgroup")) if self_cgroup is None else self_cgroup
    mounts = parse_mounts(mountinfo)
    membership = parse_membership(self_cgroup)
    wanted = set(CONTROLLERS)

    def base_of(mount: Mount, key: str) -> Path:
        own = setting if setting != "auto" else membership.get(key, "/")
        return prefix / str(mount.mountpoint).lstrip("/") / _relative(own, mount.root)

    for mount in mounts:
        carried = mount.controllers & wanted
        if mount.version != 1 or not carried:
            continue
        base = base_of(mount, sorted(carried)[0])
        if not os.access(base, os.W_OK):
            for name in carried:
                host.missing[name] = f"cgroup v1 {base} is not writable"
            continue
        host.hierarchies.append(Hierarchy(1, frozenset(carried), base / f"{PARENT_PREFIX}{pid}"))
        wanted -= carried
    v2 = next((m for m in mounts if m.version == 2), None)
    if wanted and v2 is not None:
        base = base_of(v2, "")
        enabled, why = _enable_v2(base, wanted, pid)
        if enabled:
            host.hierarchies.append(Hierarchy(2, frozenset(enabled), base / f"{PARENT_PREFIX}{pid}"))
            wanted -= enabled
        for name in wanted:
            host.missing[name] = why or f"cgroup v2 at {base} does not offer {name}"
        wanted = set()
    for name in wanted:
        host.missing.setdefault(name, "no cgroup hierarchy offers it")
    for hierarchy in host.hierarchies:
        _sweep(hierarchy.parent.parent)
    if host.hierarchies:
        atexit.register(host.close)
    return host


def _enable_v2(base: Path, wanted: set[str], pid: int) -> tuple[set[str], str]:
    """Enable ``wanted`` controllers for groups below ``base``. If ``base`` holds this
    referee and nothing else, the referee first moves itself into a leaf ``dehla-referee``
    (v2 forbids controllers below a group that holds processes)."""
    offered = set(_read(base / "cgroup.controllers").split()) & wanted
    if not offered:
        return set(), f"cgroup v2 at {base} offers none of {', '.join(sorted(wanted))}"
    active = set(_read(base / "cgroup.subtree_control").split())
    try:
        if offered - active:
            try:
                _write(base / "cgroup.subtree_control", " ".join(f"+{c}" for c in sorted(offered - active)))
            except OSError as exc:
                if exc.errno != errno.EBUSY:
                    raise
                procs = set(_read(base / "cgroup.procs").split())
                if procs != {str(pid)}:
                    return set(), (f"cgroup v2 at {base} holds other processes, so controllers cannot be "
                                   f"enabled below it; set DEHLA_SANDBOX_CGROUP to a delegated group")
                leaf = base / "dehla-referee"
                leaf.mkdir(exist_ok=True)
                _write(leaf / "cgroup.procs", str(pid))
                _write(base / "cgroup.subtree_control", " ".join(f"+{c}" for c in sorted(offered - active)))
    except OSError as exc:
        return set(), f"cgroup v2 at {base}: cannot enable controllers ({exc.strerror})"
    return offered, ""


def _sweep(base: Path) -> None:
    """Remove empty groups left by referees that died (their pid no longer runs)."""
    with contextlib.suppress(OSError):
        for entry in base.iterdir():
            owner = entry.name.removeprefix(PARENT_PREFIX)
            if entry.name == owner or not owner.isdigit() or Path(f"/proc/{owner}").exists():
                continue
            for child in entry.iterdir():
                if child.is_dir():
                    with contextlib.suppress(OSError):
                        child.rmdir()
            with contextlib.suppress(OSError):
                entry.rmdir()


def enable_parent_v2(parent: Path, controllers: frozenset[str]) -> None:
    """Groups below ``parent`` get the controllers (v2 needs them in its subtree_control)."""
    active = set(_read(parent / "cgroup.subtree_control").split())
    missing = sorted(controllers - active)
    if missing:
        _write(parent / "cgroup.subtree_control", " ".join(f"+{c}" for c in missing))
