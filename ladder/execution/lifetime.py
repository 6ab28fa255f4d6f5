"""Worker processes that die with their coordinator, even one killed outright (``kill -9``).

Linux's ``PR_SET_PDEATHSIG`` has the kernel send the worker SIGKILL when its parent dies; a
worker's bots die with it in turn (``setpriv --pdeathsig`` or bubblewrap's ``--die-with-parent``),
and the multiprocessing resource tracker ends once nobody holds its pipe. The kernel ties the
signal to the parent *thread* that created the worker: ``ProcessPoolExecutor`` (3.11) spawns
workers inside ``submit``, in the caller's thread (only ``max_tasks_per_child``, unused here,
respawns from its manager thread), so ``MatchPool.submit`` is called from the main thread only,
and the signal fires when the coordinator process ends and not before.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1
"""From ``<linux/prctl.h>``."""


def die_with_parent(parent: int) -> None:
    """Arm SIGKILL on the death of ``parent`` (this process's parent); if it is already gone
    (it died before the signal was armed), die now."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"prctl(PR_SET_PDEATHSIG): {os.strerror(code)}")
    if os.getppid() != parent:  # reparented: the coordinator died before the line above
        os.kill(os.getpid(), signal.SIGKILL)
