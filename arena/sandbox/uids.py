"""Per-seat user ids: every sandboxed bot runs as its own unprivileged uid.

A uid is leased from a range reserved for the arena by taking an exclusive ``flock`` on a lock
file, so referees on the same host never hand out the same uid twice, and a crashed referee's
leases free themselves. A uid that some process still uses is skipped. Because the uid is
unique and unprivileged, ``RLIMIT_NPROC`` holds (the kernel ignores it for root) and the
bot can signal or read nothing of any other bot even if it could see it.
"""

from __future__ import annotations

import fcntl
import os
from dataclasses import dataclass
from pathlib import Path

from arena.sandbox.runner import SandboxError

DEFAULT_FIRST_UID = 1_900_000_000
"""Far above login users (1000+), systemd's dynamic users (61184-65519) and the usual
/etc/subuid ranges (100000 + 65536 per user); configurable with ``DEHLA_SANDBOX_UIDS``."""
DEFAULT_UID_COUNT = 1024


def uids_in_use(proc: Path = Path("/proc")) -> set[int]:
    """Every real, effective, saved and filesystem uid of every live process."""
    used: set[int] = set()
    for entry in os.scandir(proc):
        if not entry.name.isdigit():
            continue
        try:
            text = Path(entry.path, "status").read_text()
        except OSError:
            continue
        for line in text.splitlines():
            if line.startswith("Uid:"):
                used.update(int(u) for u in line.split()[1:])
                break
    return used


def processes_of(uid: int, proc: Path = Path("/proc")) -> list[int]:
    """Pids of live processes with ``uid`` as real or effective uid (zombies excluded)."""
    pids = []
    for entry in os.scandir(proc):
        if not entry.name.isdigit():
            continue
        try:
            text = Path(entry.path, "status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
        if fields.get("State", "").strip().startswith(("Z", "X")):
            continue
        if uid in {int(u) for u in fields.get("Uid", "").split()[:2]}:
            pids.append(int(entry.name))
    return pids


@dataclass
class UidLease:
    """One leased uid; ``release`` when no process of it remains."""

    uid: int
    _fd: int

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


class UidPool:
    """Uids ``first .. first+count-1``, leased through lock files in ``lock_dir``."""

    def __init__(self, first: int, count: int, lock_dir: Path) -> None:
        if first < 1000 or count < 1:
            raise SandboxError(f"uid range {first}+{count}: must be unprivileged (>= 1000) and not empty")
        self.first = first
        self.count = count
        self.lock_dir = lock_dir
        self._next = 0

    def lease(self) -> UidLease:
        self.lock_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        busy = uids_in_use()
        for step in range(self.count):
            uid = self.first + (self._next + step) % self.count
            if uid in busy:
                continue
            fd = os.open(self.lock_dir / f"uid-{uid}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            self._next = (self._next + step + 1) % self.count
            return UidLease(uid, fd)
        raise SandboxError(f"no free sandbox uid in {self.first}..{self.first + self.count - 1} "
                           f"(all {self.count} leased or in use)")
