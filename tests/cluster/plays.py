"""Match players shipped to the cluster's workers by the tests (importable there: top level)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from ladder.execution.jobs import MatchJob, MatchReport
from tests.ladder_helpers import fake_play

KILL_MARKS = "DEHLA_TEST_KILL_MARKS"
"""A folder: the first attempt of each match to reach a worker kills that worker (``kill_once``)."""


def kill_once(job: MatchJob) -> MatchReport:
    """The worker playing a match's first attempt dies outright (SIGKILL), as a lost machine does;
    every later attempt plays (a fake match)."""
    mark = Path(os.environ[KILL_MARKS]) / job.key
    try:
        os.close(os.open(mark, os.O_WRONLY | os.O_CREAT | os.O_EXCL))
    except FileExistsError:
        return fake_play(job)
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable")


def kill_always_first(job: MatchJob) -> MatchReport:
    """Match 1 kills every worker it runs on (a hostile bot could); the others play."""
    if job.match_id != 1:
        return fake_play(job)
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable")


def where(job: MatchJob) -> MatchReport:
    """A fake match whose void reason says which worker process played it, and with what store."""
    store = f"{os.environ.get('DEHLA_DATA')} {os.environ.get('DEHLA_DATABASE_URL')}"
    return MatchReport(job.match_id, job.attempt, "void", None, (0.0, 0.0), 0, void_reason=f"{os.getpid()} {store}")



def tell(fifo: Path, text: str) -> None:
    with fifo.open("w") as out:  # blocks until the test holds the FIFO open
        out.write(text + "\n")


def wait_for_go(fifo: Path) -> None:
    """Take one ``go\n`` off ``fifo`` (unbuffered: a line left there is the next waiter's)."""
    fd = os.open(fifo, os.O_RDONLY)
    try:
        os.read(fd, 3)
    finally:
        os.close(fd)


def held_first(job: MatchJob) -> MatchReport:
    """The first attempt tells the test its Dask key (FIFO ``said``) and waits for ``go`` before
    it plays; a later attempt tells the test it started, and plays."""
    from distributed import get_worker  # noqa: PLC0415 - only on a Dask worker

    marks = Path(os.environ[KILL_MARKS])
    if job.attempt == 1:
        tell(marks / "said", str(get_worker().get_current_task()))
        wait_for_go(marks / "go")
    else:
        tell(marks / "said", f"attempt {job.attempt}")
    return fake_play(job)


def held(job: MatchJob) -> MatchReport:
    """Every match tells the test it is in play (FIFO ``held/said``) and waits for a ``go`` line."""
    marks = Path(os.environ[KILL_MARKS]) / "held"
    tell(marks / "said", job.key)
    wait_for_go(marks / "go")
    return fake_play(job)
