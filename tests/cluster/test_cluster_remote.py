"""A scheduler of its own (``dask scheduler``), ``dehla worker`` processes and a coordinator on
``--cluster tcp://...``, as on several machines: a worker SIGKILLed mid-match takes its bots
along, the scheduler (``allowed-failures`` 0, as docs/operating.md says to start it) hands
the match back, and it is counted once when another worker joins; a scheduler SIGKILLed
mid-match loses nothing, and a new one at its address plays the match, whether it starts after
the coordinator gave up on the old one or while its client still reconnects."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest

from tests.cluster_helpers import add_staller_and_random, parent_of, replayed_once, stalled_cluster_run
from tests.coordinator_helpers import SLOW_CLOCK, clean_env, wait_all_exit
from tests.ladder_helpers import check_store_is_consistent

DASK = Path(sys.executable).with_name("dask")
GIVE_UP_SOONER = {"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "5s"}
"""The coordinator's reconnect time (Dask's connect timeout, 30 s by default) where a test waits
for it to give up on a scheduler that will not come back."""
STOP_BOUND = 15.0
"""Seconds a stopped worker may take to leave: half the staller's move clock (``SLOW_CLOCK``), so
a worker that waits for its match to end cannot pass, however slow the machine."""


def read_until(process: subprocess.Popen[bytes], pattern: re.Pattern[bytes], timeout: float) -> re.Match[bytes]:
    """Read ``process``'s stderr (a pipe) until ``pattern`` shows."""
    assert process.stderr is not None
    fd = process.stderr.fileno()
    seen = b""
    deadline = time.monotonic() + timeout
    while (found := pattern.search(seen)) is None:
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        assert ready, f"timed out waiting for {pattern.pattern!r}: {seen[-2000:]!r}"
        chunk = os.read(fd, 65536)
        assert chunk, f"it ended before {pattern.pattern!r}: {seen[-2000:]!r}"
        seen += chunk
    return found


Started = tuple[subprocess.Popen[bytes], re.Match[bytes]]


@contextmanager
def started(argv: list[str], env: dict[str, str], ready: re.Pattern[bytes]) -> Iterator[Started]:
    """A process that says ``ready`` on stderr (then drained by a thread, so it never blocks
    on a full pipe); SIGTERMed at the end if still there."""
    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               env=env, start_new_session=True)
    assert process.stderr is not None
    drain = threading.Thread(target=process.stderr.read, daemon=True)
    try:
        found = read_until(process, ready, 90)
        drain.start()
        yield process, found
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if drain.is_alive():
            drain.join(30)  # EOF once the process (and what it started) closed the pipe
        process.stderr.close()


def dehla_worker(address: str, env: dict[str, str], slots: int) -> AbstractContextManager[Started]:
    """A worker for these tests' bots: ``--runner local`` (the coordinator's ``SLOW_CLOCK``; a
    sandbox worker refuses their jobs)."""
    return started([sys.executable, "-m", "arena", "worker", address, "--slots", str(slots), "--host", "127.0.0.1",
                    "--runner", "local"],
                   env, re.compile(rb"dehla worker tcp://\S+: \d+ match slot"))


def dask_scheduler(env: dict[str, str], port: str) -> AbstractContextManager[Started]:
    """``dask scheduler`` on ``port`` (0: any), as docs/operating.md says to start it; its match
    groups are its address and port."""
    return started([str(DASK), "scheduler", "--host", "127.0.0.1", "--port", port, "--no-dashboard"],
                   {**env, "DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "0"},
                   re.compile(rb"Scheduler at:\s+(tcp://127\.0\.0\.1:(\d+))"))


def staller_arena(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A data folder with the staller and a random bot, and the environment its runs need."""
    data = tmp_path / "arena"
    add_staller_and_random(data)
    os.mkfifo(tmp_path / "stall")
    return data, {**clean_env(data), "DEHLA_TEST_STALL": str(tmp_path / "stall")}


@contextmanager
def scheduler_killed_mid_match(tmp_path: Path, env: dict[str, str], run_env: Mapping[str, str] | None = None,
                               ) -> Iterator[tuple[str, str, subprocess.Popen[bytes], int]]:
    """A run on a scheduler of its own with one worker, the scheduler SIGKILLed with a match in
    play: (its address, its port, the run, the stalled bot's pid); ``run_env`` is the run's."""
    with dask_scheduler(env, "0") as (scheduler, found):
        address, port = found[1].decode(), found[2].decode()
        with dehla_worker(address, env, 1), \
                stalled_cluster_run(tmp_path, "--matches", "2", cluster=("--cluster", address),
                                    run_env=run_env) as (run, staller, _):
            scheduler.send_signal(signal.SIGKILL)
            scheduler.wait(timeout=30)
            yield address, port, run, staller


def test_a_dehla_worker_killed_mid_match_takes_its_bots_and_another_worker_replays_it(tmp_path: Path) -> None:
    data, env = staller_arena(tmp_path)  # env: the workers' own (the bots read it)
    with dask_scheduler(env, "0") as (scheduler, found):
        address = found[1].decode()
        with dehla_worker(address, env, 1) as (first, _), \
                stalled_cluster_run(tmp_path, "--matches", "2", cluster=("--cluster", address)) as (run, staller, _):
            assert parent_of(staller) == first.pid  # the bot runs below the worker playing its match
            first.send_signal(signal.SIGKILL)
            assert wait_all_exit([staller], 30) == [], "the stalled bot outlived its worker"
            with dehla_worker(address, env, 2) as (second, _):
                code = run.wait(timeout=240)
                log = (tmp_path / "run.log").read_text()
                assert code == 0, log[-3000:]
                second.send_signal(signal.SIGTERM)
                assert second.wait(timeout=60) == 0
        assert scheduler.poll() is None
    assert "2 matches counted (0 void), 1 back in the queue, 0 failed" in log, log[-3000:]
    assert "Traceback" not in log, log[-3000:]
    replayed_once(data)


@pytest.mark.parametrize("scheduler_lost", [False, True], ids=["scheduler-up", "scheduler-killed"])
def test_a_dehla_worker_stopped_mid_match_exits_at_once_with_its_bots(tmp_path: Path, scheduler_lost: bool) -> None:
    """SIGTERM to a worker playing a match: it leaves at once, its bots with it, instead of
    playing the match out for nobody (the staller's move clock is 30 s; the worker waited for
    it before), also when its scheduler is gone and Dask is closing it on its own terms."""
    _, env = staller_arena(tmp_path)
    with dask_scheduler(env, "0") as (scheduler, found), dehla_worker(found[1].decode(), env, 1) as (worker, _), \
            stalled_cluster_run(tmp_path, "--matches", "1", cluster=("--cluster", found[1].decode())) as (_, bot, _):
        if scheduler_lost:
            scheduler.send_signal(signal.SIGKILL)
            scheduler.wait(timeout=30)
        stopped = time.monotonic()
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=60) == 0
        assert time.monotonic() - stopped < STOP_BOUND, "the worker played its match out before leaving"
        assert wait_all_exit([bot], 30) == [], "the stalled bot outlived its worker"


def test_a_scheduler_killed_mid_match_loses_nothing_and_a_new_one_plays_it(tmp_path: Path) -> None:
    """The scheduler dies with a match in play: the coordinator gives the match back and says so
    in one line; nothing is left running or half-counted. A new scheduler at the same address,
    a new worker and the coordinator again: the match is played and counted once."""
    data, env = staller_arena(tmp_path)
    with scheduler_killed_mid_match(tmp_path, env, GIVE_UP_SOONER) as (address, port, run, staller):
        code = run.wait(timeout=120)
        log = (tmp_path / "run.log").read_text()
        assert code == 2, log[-3000:]
        assert "lost the Dask scheduler" in log and "Traceback" not in log, log[-3000:]
    assert wait_all_exit([staller], 60) == [], "the stalled bot outlived its worker"
    check_store_is_consistent(data)  # nothing running, nothing half-counted
    with dask_scheduler(env, port), dehla_worker(address, env, 2):
        again = subprocess.run([sys.executable, "-m", "arena", "ladder", "run", "--matches", "2", "--cluster", address,
                                *SLOW_CLOCK, "--data", str(data)], capture_output=True, text=True, timeout=240,
                               check=False, env=env)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "Traceback" not in again.stderr, again.stderr[-3000:]
    replayed_once(data)


def test_a_scheduler_restarted_mid_run_loses_nothing_and_the_run_goes_on(tmp_path: Path) -> None:
    """The scheduler dies with a match in play and a new one starts at its address before the
    coordinator's client gives up reconnecting: the run goes on through the new one (a new worker
    joins it), and the match that was in play comes back to the queue and is counted once."""
    data, env = staller_arena(tmp_path)
    with scheduler_killed_mid_match(tmp_path, env) as (address, port, run, staller):
        with dask_scheduler(env, port), dehla_worker(address, env, 2):
            code = run.wait(timeout=240)
        log = (tmp_path / "run.log").read_text()
    assert wait_all_exit([staller], 60) == [], "the stalled bot outlived its worker"
    assert code == 0, log[-3000:]
    assert "2 matches counted (0 void), 1 back in the queue, 0 failed" in log, log[-3000:]
    assert "Traceback" not in log, log[-3000:]
    replayed_once(data)
