"""CPU seconds of a process from ``/proc/PID/stat`` (proc(5)): its own, and what it has reaped
of its children's, for the benches that split a run's CPU by process."""

from __future__ import annotations

import os
from dataclasses import dataclass

TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class ProcessCpu:
    parent: int
    own: float
    """user + system seconds (utime, stime)"""
    reaped: float
    """user + system seconds of the children it waited for (cutime, cstime)"""


def process_cpu(pid: int | str) -> ProcessCpu:
    """Raises ``OSError`` if the process is gone."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()  # after the command, which may hold spaces
    user, system, children_user, children_system = map(int, fields[11:15])  # stat(5) fields 14-17
    return ProcessCpu(int(fields[1]), (user + system) / TICKS_PER_SECOND,
                      (children_user + children_system) / TICKS_PER_SECOND)
