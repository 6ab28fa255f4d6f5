"""Coordinators per data folder: one on an SQLite store, several on a PostgreSQL one.

An SQLite store has one writer, and a coordinator starting on it puts every ``running`` match
back in the queue (``ladder/coordinator/loop.py``): a second one would take the first one's matches from
under it, so it is refused with one line. It holds ``DATA/ladder.lock`` exclusively (``flock``)
for the whole of ``dehla ladder run``. A PostgreSQL store takes several coordinators at once, on
one host or many: their leases expire and only expired ones are swept (``ladder/coordinator/leases.py``).
Each holds the same file *shared*, which says only that it is alive (and keeps an SQLite
coordinator off a data folder they use). The kernel drops a ``flock`` when its holder dies,
however it dies (``kill -9`` included): a stale lock never needs clearing. The pid in the file
is only there for the message.
"""

from __future__ import annotations

import fcntl
import os

from sqlalchemy import make_url
from sqlalchemy.exc import ArgumentError

from arena.engine.errors import ArenaError
from ladder.store.paths import ArenaData

LOCK_FILE = "ladder.lock"


class CoordinatorBusy(ArenaError):  # noqa: N818 - reads as a state
    """Another coordinator holds the data folder; the message names its pid and the folder."""


def _open_lock(path: os.PathLike[str] | str) -> int:
    return os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)


def _try(fd: int, operation: int) -> bool:
    try:
        fcntl.flock(fd, operation | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


class CoordinatorLock:
    """``acquire()`` (or ``CoordinatorBusy``) before the run, ``release()`` after it. ``several``:
    the store takes several coordinators at once (PostgreSQL)."""

    def __init__(self, data: ArenaData, several: bool = False) -> None:
        self.data = data
        self.several = several
        self._fd: int | None = None

    def acquire(self) -> None:
        fd = _open_lock(self.data.root / LOCK_FILE)
        try:
            self._take(fd)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd

    def _take(self, fd: int) -> None:
        if self.several:  # held shared: only an SQLite store's coordinator holds it exclusively
            if not _try(fd, fcntl.LOCK_SH):
                self._refuse(fd)
            return
        if not _try(fd, fcntl.LOCK_EX):
            self._refuse(fd)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)

    def _refuse(self, fd: int) -> None:
        holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        pid = f" (pid {holder})" if holder.isdigit() else ""
        if self.several:
            raise CoordinatorBusy(f"a `dehla ladder run`{pid} on an SQLite store uses the data folder "
                                  f"{self.data.root}; this store takes several coordinators, that one does not: "
                                  "wait for it to end, or stop it with Ctrl-C")
        raise CoordinatorBusy(f"another `dehla ladder run`{pid} is using the data folder {self.data.root}; "
                              "one coordinator at a time: wait for it to end, or stop it with Ctrl-C")

    def release(self) -> None:
        if self._fd is not None:
            if not self.several:
                os.ftruncate(self._fd, 0)
            os.close(self._fd)  # closing the only descriptor drops the lock
            self._fd = None


def several_coordinators(database_url: str) -> bool:
    """Whether the store takes several coordinators at once: any server database, not SQLite."""
    try:
        return make_url(database_url).get_backend_name() != "sqlite"
    except ArgumentError:
        return False
