"""Run in each Dask worker of the ladder as it starts (a Dask preload: ``dask_setup``).

A terminal's Ctrl-C reaches a local cluster's worker processes too (one process group with the
coordinator). They ignore it, as an idle process-pool worker does: the coordinator stops the
run and closes the cluster, and a worker must not die first with a traceback of its own.
"""

from __future__ import annotations

import signal
import threading
from typing import Any


def dask_setup(worker: Any) -> None:
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
