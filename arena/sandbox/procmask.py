"""The host-wide counters under ``/proc`` that a bot can move and its partner read, and the
static stand-ins both runners show in their place (the sandbox binds them with bubblewrap,
podman with a bind mount or its ``mask`` option): one partner moving a counter and the other
reading it is a covert channel (docs/sandbox.md, *Host-wide counters*)."""

from __future__ import annotations

import os
from pathlib import Path

from arena.sandbox.runner import SandboxUnavailable

FROZEN_PROC = ("stat", "meminfo", "loadavg", "uptime")
"""Host-wide counters under ``/proc`` that programs parse to learn about the machine (glibc
counts the CPUs in ``stat`` when ``/sys`` is absent; ``os.getloadavg`` reads ``loadavg``): the
sandbox shows a copy frozen when the runner started."""
EMPTIED_PROC = ("vmstat", "zoneinfo", "buddyinfo", "pagetypeinfo", "interrupts", "softirqs", "schedstat",
                "diskstats", "swaps", "locks", "key-users", "cgroups", "pressure/cpu", "pressure/io",
                "pressure/memory", "pressure/irq", "sys/fs/file-nr", "sys/fs/inode-nr", "sys/fs/inode-state",
                "sys/fs/dentry-state", "sys/fs/aio-nr", "sys/kernel/pty/nr", "sys/kernel/random/entropy_avail")
"""The other host-wide counters a bot can move (threads, forks, open files, inodes, memory,
ptys, interrupts, I/O, CPU time), shown empty. Each of these, like ``FROZEN_PROC``, is a
covert channel between partners otherwise: one moves the counter, the other reads it."""
SYS_MASKED = ("/sys",)
"""Containers only (the sandbox shows no ``/sys``): sysfs repeats the counters (free memory per
NUMA node, disk I/O, CPU frequencies); hidden whole, glibc counts the CPUs in the frozen ``stat``."""


def freeze_proc(folder: Path, proc: Path = Path("/proc")) -> tuple[tuple[str, str], ...]:
    """Write the static stand-ins for the host-wide ``/proc`` counters into ``folder`` (root's,
    readable by the bots' uids); returns the masks for ``SeatPlan.proc_masks``. A counter the
    kernel does not have is left out (bubblewrap cannot create a file in a procfs)."""
    folder.mkdir(mode=0o755, exist_ok=True)
    if folder.is_symlink() or folder.stat().st_uid != 0:
        raise SandboxUnavailable(f"{folder} must be a folder owned by root")
    folder.chmod(0o755)
    masks = []
    for name in (*FROZEN_PROC, *EMPTIED_PROC):
        source = proc / name
        if not source.is_file():
            continue
        path = folder / name.replace("/", "_")
        draft = path.with_suffix(f".{os.getpid()}.tmp")
        draft.write_bytes(source.read_bytes() if name in FROZEN_PROC else b"")
        draft.chmod(0o644)
        draft.replace(path)  # atomic: another referee's sandbox may be reading it
        masks.append((str(path), f"/proc/{name}"))
    return tuple(masks)
