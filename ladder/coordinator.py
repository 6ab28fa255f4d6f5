"""One coordinator per data folder: an OS lock held for the whole of ``dehla ladder run``.

A coordinator assumes it is alone: as it starts it puts every ``running`` match back in the
queue and clears the attempt folders of runs that died (``ladder/loop.py``). A second one on
the same folder would take the first one's matches from under it, so it is refused with one
line. ``flock`` on ``DATA/ladder.lock`` is dropped by the kernel when its holder dies, however
it dies (``kill -9`` included): a stale lock never needs clearing. The pid in the file is only
there for the message.

Extension point: several coordinators on one PostgreSQL store (the scale-out issue) need
per-owner leases with heartbeats and a requeue of only the dead owners' matches
(``requeue_abandoned(owners=...)``) instead of this lock.
"""

from __future__ import annotations

import fcntl
import os

from arena.engine.errors import ArenaError
from ladder.paths import ArenaData

LOCK_FILE = "ladder.lock"


class CoordinatorBusy(ArenaError):  # noqa: N818 - reads as a state
    """Another coordinator holds the data folder; the message names its pid and the folder."""


class CoordinatorLock:
    """``acquire()`` (or ``CoordinatorBusy``) before the run, ``release()`` after it."""

    def __init__(self, data: ArenaData) -> None:
        self.data = data
        self._fd: int | None = None

    def acquire(self) -> None:
        path = self.data.root / LOCK_FILE
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            os.close(fd)
            pid = f" (pid {holder})" if holder.isdigit() else ""
            raise CoordinatorBusy(f"another `dehla ladder run`{pid} is using the data folder {self.data.root}; "
                                  "one coordinator at a time: wait for it to end, or stop it with Ctrl-C") from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.ftruncate(self._fd, 0)
            os.close(self._fd)  # closing the only descriptor drops the lock
            self._fd = None
