"""The match pool and Ctrl-C: an idle worker survives it, a worker in a job gives the job up."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from pathlib import Path

from ladder.execution.executors import MatchPool


def square(value: int) -> int:
    return value * value


def announce_then_wait(fifo: str) -> str:
    """A job that says it has started (through ``fifo``), then works for a long time."""
    with open(fifo, "w") as out:
        out.write("started\n")
    time.sleep(60)  # the workload: only a Ctrl-C ends it early
    return "finished"


def worker_pids() -> list[int]:
    return [child.pid for child in multiprocessing.active_children() if child.pid is not None]


def test_an_idle_worker_ignores_ctrl_c() -> None:
    with MatchPool(1) as pool:
        assert pool.submit(square, 3).result(timeout=60) == 9  # the worker now waits for its next job
        (pid,) = worker_pids()
        os.kill(pid, signal.SIGINT)
        assert pool.submit(square, 4).result(timeout=60) == 16  # same worker, alive: the pool is not broken
        assert worker_pids() == [pid]


def test_a_worker_in_a_job_gives_it_up_on_ctrl_c(tmp_path: Path) -> None:
    fifo = tmp_path / "started"
    os.mkfifo(fifo)
    with MatchPool(1) as pool:
        job = pool.submit(announce_then_wait, str(fifo))
        with open(fifo) as started:  # blocks until the job is running
            assert started.readline() == "started\n"
        (pid,) = worker_pids()
        os.kill(pid, signal.SIGINT)
        assert isinstance(job.exception(timeout=30), KeyboardInterrupt)
        assert pool.submit(square, 5).result(timeout=60) == 25  # and then goes back to ignoring it
