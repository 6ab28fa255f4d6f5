"""The host-wide counters under ``/proc`` that a bot can move and its partner read, and the
static stand-ins both runners show in their place (the sandbox binds them with bubblewrap,
podman with a bind mount or its ``mask`` option): one partner moving a counter and the other
reading it is a covert channel (docs/sandbox.md, *Host-wide counters*)."""

from __future__ import annotations

import contextlib
import os
import stat
import threading
from collections.abc import Callable
from pathlib import Path

from arena.sandbox.runner import SandboxUnavailable

FROZEN_PROC = ("stat", "meminfo", "loadavg", "uptime")
"""Host-wide counters under ``/proc`` that programs parse to learn about the machine (glibc
counts the CPUs in ``stat`` when ``/sys`` is absent; ``os.getloadavg`` reads ``loadavg``): the
sandbox shows a copy frozen when the first runner since boot started."""
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
    readable by the bots' uids) once per boot; returns the masks for ``SeatPlan.proc_masks``. A
    counter the kernel does not have is left out (bubblewrap cannot create a file in a procfs).

    A stand-in, once written, is never replaced: another referee on this host may be setting up a
    sandbox that binds it at this moment, and bubblewrap fails a bind whose source was replaced
    under it ("Unable to find ... (deleted) in mount table"). So the frozen copies are those of the
    first runner since boot (``/run`` is emptied at boot), and every emptied counter shares one
    empty file."""
    folder.mkdir(mode=0o755, exist_ok=True)
    _check_roots(folder, stat.S_ISDIR)
    folder.chmod(0o755)
    masks = []
    for name in (*FROZEN_PROC, *EMPTIED_PROC):
        source = proc / name
        if not source.is_file():
            continue
        if name in FROZEN_PROC:
            path = _write_once(folder / f"frozen_{name}", source.read_bytes())
        else:
            path = _write_once(folder / "empty", b"")
        masks.append((str(path), f"/proc/{name}"))
    return tuple(masks)


def _write_once(path: Path, content: bytes) -> Path:
    """``path`` holding ``content`` unless a stand-in is there already (linked, never renamed
    over, so no reader's file is ever replaced); a file there that is not root's plain file, or an
    emptied one that is not empty, is refused."""
    draft = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    draft.write_bytes(content)
    draft.chmod(0o644)
    try:
        with contextlib.suppress(FileExistsError):  # another runner wrote it first: theirs stays
            os.link(draft, path)
    finally:
        draft.unlink()
    _check_roots(path, stat.S_ISREG)
    if not content and path.stat().st_size:
        raise SandboxUnavailable(f"{path} must be empty")
    return path


def _check_roots(path: Path, is_kind: Callable[[int], bool]) -> None:
    """A stand-in or its folder must be root's own, not a link: a bot's uid never owns it."""
    info = path.lstat()
    if not is_kind(info.st_mode) or info.st_uid != 0:
        raise SandboxUnavailable(f"{path} must be a {'folder' if is_kind is stat.S_ISDIR else 'file'} owned by root")
