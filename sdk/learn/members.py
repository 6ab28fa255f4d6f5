"""An ensemble's members trained at once: one process per member, each from its own seed.

Why processes: a member's training is one core's work (numpy with one BLAS thread, the batched
engine), so on the 2-core machine the documented run trains two members in the wall time of
one. The processes are started with ``spawn``: a fresh interpreter, never a fork of a process
that may hold threads (a test runner's, a caller's); so the teacher is sent to each process and
must pickle, as the sample bots do. Each member prints its own progress lines, prefixed with its
number.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace

from sdk.bot import Bot
from sdk.learn.training import IterationReport, TrainConfig, TrainResult, train

ProgressLine = Callable[[IterationReport], str]
"""An iteration's progress as one line of text."""


@dataclass(frozen=True, slots=True)
class MemberRun:
    """What one member's process is given: its config (its seed), its number, the teacher and how
    to word its progress (module-level, so that ``spawn`` can send it)."""

    config: TrainConfig
    member: int
    members: int
    teacher: Bot | None
    line: ProgressLine


def member_seed(config: TrainConfig, member: int) -> int:
    """Member ``member``'s seed: the run's seed, then the next ones."""
    return config.seed + member


def _train_member(run: MemberRun) -> TrainResult:
    prefix = f"member {run.member}: " if run.members > 1 else ""

    def show(report: IterationReport) -> None:
        print(prefix + run.line(report), file=sys.stderr, flush=True)

    return train(run.config, show, run.teacher)


def train_members(config: TrainConfig, members: int, teacher: Bot | None,
                  line: ProgressLine) -> tuple[list[TrainResult], float]:
    """``members`` policies, member ``k`` trained from seed ``config.seed + k``, as many at once as
    there are cores; and the CPU seconds of the member processes (a single member trains in this
    process: none)."""
    runs = [MemberRun(replace(config, seed=member_seed(config, k)), k, members, teacher, line)
            for k in range(members)]
    if members == 1:
        return [_train_member(runs[0])], 0.0
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with ProcessPoolExecutor(max_workers=min(members, os.cpu_count() or 1),
                             mp_context=multiprocessing.get_context("spawn")) as pool:
        results = list(pool.map(_train_member, runs))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the pool's processes have been reaped
    return results, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
