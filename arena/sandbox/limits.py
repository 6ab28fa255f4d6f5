"""What one sandboxed bot may use, and the CPU-time budget of a match.

``Limits`` comes from the manifest's ``[resources]`` (``Resources.limits``, capped by the manifest's bounds) plus
``cpu_seconds``, which ``RLIMIT_CPU`` enforces. ``RLIMIT_CPU`` counts a process's whole life, so
the budget is sized per match: the longest the match can last, times the bot's CPU share.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MIB = 1024 * 1024

SANDBOX_TASKS = 2
"""Tasks the sandbox itself adds to a bot's process count (bubblewrap's monitor and init)."""

DECISIONS_PER_HAND = 15
"""An upper bound on one seat's decisions in a hand (13 plays plus trump and reveal decisions)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Resource limits for one bot; every runner enforces what it can of them."""

    memory_mb: int = 512
    cpus: float = 1.0
    processes: int = 32
    """Processes and threads at once (the sandbox's own two tasks are added on top)."""
    disk_mb: int = 64
    """Size of the private ``/tmp`` (and of ``/dev/shm``), and the largest file the bot may write."""
    open_files: int = 256
    cpu_seconds: int = 3600
    """Total CPU time of each of the bot's processes over the whole match (``RLIMIT_CPU``)."""

    @property
    def memory_bytes(self) -> int:
        return self.memory_mb * MIB

    @property
    def disk_bytes(self) -> int:
        return self.disk_mb * MIB

    @property
    def tasks(self) -> int:
        """The process/thread limit including the sandbox's own tasks."""
        return self.processes + SANDBOX_TASKS


def match_cpu_seconds(cpus: float, hands: int, per_move: float, bank: float, startup: float,
                      notify: float = 2.0) -> int:
    """CPU seconds a bot may use in a match: the match's longest possible wall time (every seat
    using its whole allowance at every decision, plus start-up and notifications) times ``cpus``."""
    wall = startup + hands * (4 * DECISIONS_PER_HAND * per_move + 2 * notify) + 4 * bank + notify
    return max(1, math.ceil(wall * cpus))
