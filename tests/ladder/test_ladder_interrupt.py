"""``dehla ladder run`` as users run it (real processes): Ctrl-C mid-run, and ``--mode mixed``;
and, in process, the Ctrl-C that comes while a leased match waits for a worker. What the mixed
run stored is then read by ``dehla ladder partnerships`` and ``show`` in this process
(``tests.cli_helpers.run_dehla``, the same ``arena.cli.main`` with the same environment; a
traceback fails the test): their subject is what they print.

The bots are copies of the ``random`` sample bot under different names, stored directly (no
validation matches: they only slow the test down), played with the local runner, one duplicate
deal per match and a short clock.
"""

from __future__ import annotations

import json
import os
import pty
import random
import re
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import pytest

from ladder.coordinator.leases import LeaseTerms, take
from ladder.coordinator.loop import LadderRun, StopRule
from ladder.coordinator.queue import MatchSettings, enqueue, release, unlease
from ladder.execution.executors import InlineExecutor
from ladder.execution.jobs import MatchJob, MatchReport
from ladder.rating.ratings import RatingEnv
from ladder.rating.scheduler import Mode, Pairing, Scheduler
from ladder.store.database import Store
from ladder.store.schema import Match, MatchStatus
from tests.cli_helpers import run_dehla
from tests.coordinator_helpers import FAST, bot_processes_under, clean_env, dehla
from tests.ladder_helpers import add_bots, add_random_bots, check_store_is_consistent, fake_play, store_at

P = ParamSpec("P")
T = TypeVar("T")

ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")
COUNTED = re.compile(rb"\b([1-9]\d*)/(?:\?|\d+)")
"""The progress bar's ``counted/total`` column (``?`` for ``--forever``), once a match is counted."""
SETTLE = 60.0
"""Seconds a test waits for a thread at most: a bound on failure, never a pause."""


def read_until(fd: int, pattern: re.Pattern[bytes], times: int, deadline: float) -> bytes:
    """Read ``fd`` (a pty) until its text, without terminal escapes, matches ``pattern`` ``times`` times."""
    seen = b""
    while len(pattern.findall(ANSI.sub(b"", seen))) < times:
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"timed out waiting for {pattern.pattern!r}; got {ANSI.sub(b'', seen)[-500:]!r}"
        ready, _, _ = select.select([fd], [], [], remaining)
        if ready:
            chunk = os.read(fd, 65536)
            assert chunk, f"the output ended before {pattern.pattern!r}: {ANSI.sub(b'', seen)[-500:]!r}"
            seen += chunk
    return seen


def read_to_end(fd: int, deadline: float) -> bytes:
    """Everything ``fd`` (a pty's controller side) still gives until the process closes it."""
    rest = b""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], deadline - time.monotonic())
        if not ready:
            break
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: every process holding the terminal side has exited
            break
        if not chunk:
            break
        rest += chunk
    return rest


@pytest.mark.parametrize("ctrl_c", ["terminal", "coordinator"])
def test_ctrl_c_stops_the_run_and_leaves_no_match_half_counted(tmp_path: Path, ctrl_c: str) -> None:
    """``terminal``: SIGINT to the run's process group, as Ctrl-C in a terminal sends it (the
    coordinator and its workers; bots run in their own sessions). ``coordinator``: to the
    coordinator alone (``kill -INT PID``), whose workers finish the match they are playing.

    Two workers (one may be idle when the signal comes), ``--forever`` for the terminal's
    Ctrl-C (exit 0: its normal end) and ``--matches 1000`` for the coordinator's (exit 130)."""
    data = tmp_path / "arena"
    add_random_bots(data, ["r1", "r2", "r3"])
    # stderr on a terminal, so the progress bar is live and shows the counted matches
    controller, terminal = pty.openpty()
    try:
        goal = ["--forever"] if ctrl_c == "terminal" else ["--matches", "1000"]
        run = subprocess.Popen([sys.executable, "-m", "arena", "ladder", "run", *goal, "--workers", "2",
                                "--seed", "7", *FAST, "--data", str(data)],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=terminal, env=clean_env(data),
                               start_new_session=True)
        os.close(terminal)
        try:
            # the bar is redrawn ten times a second: three frames showing a counted match, and the
            # coordinator has handed the next match to the worker and waits for it
            progress = read_until(controller, COUNTED, 3, time.monotonic() + 60)
            if ctrl_c == "terminal":
                os.killpg(run.pid, signal.SIGINT)
            else:
                run.send_signal(signal.SIGINT)
            progress += read_to_end(controller, time.monotonic() + 30)
            code = run.wait(timeout=30)
            ranking = run.stdout.read().decode() if run.stdout else ""
        finally:
            if run.poll() is None:
                os.killpg(run.pid, signal.SIGKILL)
                run.wait()
            if run.stdout:
                run.stdout.close()
    finally:
        os.close(controller)
    text = ANSI.sub(b"", progress).decode(errors="replace").replace("\r\n", "\n")
    # Ctrl-C is how --forever stops: a normal end; a run stopped short of --matches says so
    assert code == (0 if ctrl_c == "terminal" else 130), text
    summary = re.search(r"interrupted; (\d+) matches counted \((\d+) void\), (\d+) back in the queue, 0 failed",
                        text)
    assert summary, text
    assert "rank" in ranking and "r1" in ranking
    matches = check_store_is_consistent(data)
    finished = [m for m in matches if m.status in (MatchStatus.DONE.value, MatchStatus.VOID.value)]
    assert len(finished) == int(summary[1]) >= 1
    assert sum(m.status == MatchStatus.QUEUED.value for m in matches) == int(summary[3])
    if ctrl_c == "coordinator":
        # every match a worker started, its worker finished, and it was counted: none went back to
        # the queue with an attempt spent. One leased and handed to the pool in the instant of the
        # signal, but that no worker had taken yet, may be back in the queue: with its attempt
        # undone, as one scheduled but not yet leased (test_a_match_no_worker_started_...).
        assert all(m.status in (MatchStatus.DONE.value, MatchStatus.VOID.value) for m in matches if m.attempt), \
            [(m.id, m.status, m.attempt) for m in matches]
    assert bot_processes_under(data.resolve()) == []
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text


class OneWorkerPool(ThreadPoolExecutor):
    """One worker thread, so a second match handed to it waits, submitted and not started, while
    the first plays. ``second_waits`` is set once that second match is submitted, ``second_cancelled``
    once its future is cancelled."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.submitted = 0
        self.second_waits = threading.Event()
        self.second_cancelled = threading.Event()

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        future = super().submit(fn, *args, **kwargs)
        self.submitted += 1
        if self.submitted == 2:
            future.add_done_callback(lambda done: self.second_cancelled.set() if done.cancelled() else None)
            self.second_waits.set()
        return future


def in_process_run(store: Store, factory: Callable[[], Any], play: Callable[[MatchJob], MatchReport],
                   workers: int) -> LadderRun:
    env = RatingEnv()
    return LadderRun(store, env, Scheduler(env, Mode.SELF, random.Random(5)), MatchSettings(runner="local"),
                     factory, workers=workers, play=play, rng=random.Random(5))


def test_a_match_no_worker_started_goes_back_with_its_attempt_undone(tmp_path: Path) -> None:
    """The case of ``kill -INT`` to the coordinator that once came in CI, made on purpose: two
    slots, one worker. Match 1 plays; match 2 is leased (attempt 1) and handed to the pool, where
    it waits for the worker. The worker's match sends the SIGINT, then plays on until the run has
    cancelled match 2, and ends. Match 1, started, is counted; match 2, never started, is back in
    the queue at attempt 0 (before the fix: 1, a Ctrl-C eating one of its ``MAX_ATTEMPTS``), and
    its next lease is attempt 1 again."""
    data = (tmp_path / "arena").resolve()
    store = store_at(data)
    try:
        add_bots(store, ["s1", "s2", "s3"], tmp_path / "src")
        pool = OneWorkerPool()
        played: list[tuple[int, int]] = []
        waited: list[bool] = []
        coordinator = threading.get_ident()  # the test's thread, the main one: the run's signals go there

        def play(job: MatchJob) -> MatchReport:
            played.append((job.match_id, job.attempt))
            waited.append(pool.second_waits.wait(SETTLE))
            # kill -INT PID, aimed at the coordinator's thread (where Linux delivers it too): its wait ends
            signal.pthread_kill(coordinator, signal.SIGINT)
            waited.append(pool.second_cancelled.wait(SETTLE))
            return fake_play(job)

        summary = in_process_run(store, lambda: pool, play, workers=2).run(StopRule(matches=10))
        assert waited == [True, True] and played == [(1, 1)]
        assert summary.interrupted and (summary.counted, summary.requeued, summary.failed) == (1, 1, 0)
        matches = check_store_is_consistent(data)
        assert [(m.id, m.status, m.attempt) for m in matches] == [(1, MatchStatus.DONE.value, 1),
                                                                 (2, MatchStatus.QUEUED.value, 0)]
        resumed: list[tuple[int, int]] = []

        def play_on(job: MatchJob) -> MatchReport:
            resumed.append((job.match_id, job.attempt))
            return fake_play(job)

        assert in_process_run(store, InlineExecutor, play_on, workers=1).run(StopRule(matches=1)).counted == 1
        assert resumed == [(2, 1)]  # the oldest queued first, with the attempt number its lost lease had
        check_store_is_consistent(data)
    finally:
        store.close()


def test_an_unstarted_lease_is_undone_only_while_it_is_the_running_one(tmp_path: Path) -> None:
    """The attempt guard holds: undoing a lease that expired, was given back or was taken again
    changes nothing."""
    data = (tmp_path / "arena").resolve()
    store = store_at(data)
    try:
        a, b = (s.version_id for s in add_bots(store, ["s1", "s2"], tmp_path / "src"))
        terms = LeaseTerms(seconds=30)
        with store.transaction() as session:
            match_id = enqueue(session, RatingEnv(), Pairing((a, a), (b, b)), 1, MatchSettings()).id
        with store.transaction() as session:
            assert take(session, "run-a", terms) == (match_id, 1)
            assert unlease(session, match_id, 1)
            assert take(session, "run-a", terms) == (match_id, 1)  # the same number again
            assert release(session, match_id, 1) is MatchStatus.QUEUED  # given back, spent
            assert not unlease(session, match_id, 1)  # not running: nothing to undo
            assert take(session, "run-b", terms) == (match_id, 2)
            assert not unlease(session, match_id, 1)  # a stale lease: the running attempt stays
            found = session.get_one(Match, match_id)
            assert (found.status, found.attempt, found.lease_owner) == (MatchStatus.RUNNING, 2, "run-b")
    finally:
        store.close()


def dehla_here(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    return run_dehla(*args, "--data", str(data), env=clean_env(data))


def test_mixed_mode_counts_the_matches_and_pairs_different_versions(tmp_path: Path) -> None:
    data = tmp_path / "arena"
    add_random_bots(data, ["r1", "r2", "r3"])
    run = dehla("ladder", "run", "--mode", "mixed", "--matches", "3", "--workers", "2", "--seed", "11", *FAST,
                data=data)
    assert run.returncode == 0, run.stderr
    assert "3 matches counted (0 void), 0 back in the queue, 0 failed" in run.stderr
    matches = check_store_is_consistent(data)
    assert [m.status for m in matches] == [MatchStatus.DONE.value] * 3
    mixed = [m for m in matches if m.seat0_id != m.seat2_id or m.seat1_id != m.seat3_id]
    assert mixed, [m.seats for m in matches]  # the seed fixes the first pairings; one is mixed
    pairs = json.loads(dehla_here("ladder", "partnerships", "--json", data=data).stdout)
    assert sum(p["matches"] for p in pairs) == 2 * 3
    assert any(len(set(p["partnership"].split("+"))) == 2 for p in pairs), pairs
    show = dehla_here("ladder", "show", data=data)
    assert show.returncode == 0, show.stderr
    assert all(f" r{n} " in show.stdout for n in (1, 2, 3)), show.stdout
