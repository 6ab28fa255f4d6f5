"""A coordinator that is killed outright, late reports of its matches, and a second coordinator.

The subprocess tests run ``dehla ladder run`` as users do, with a bot (``staller``) whose first
copy to play a card tells the test through a FIFO and then never answers: from that moment a
match is certainly in play, its worker and bots alive. Without the fix (``git stash`` of
``ladder/``), the SIGKILLed coordinator's workers, bots and resource tracker live on, and a
second coordinator runs and takes the first one's match.
"""

from __future__ import annotations

import dataclasses
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import select as query

from ladder.jobs import MatchJob, MatchReport
from ladder.loop import StopRule
from ladder.match_files import read_stored
from ladder.queue import MatchSettings, enqueue, lease, requeue_abandoned
from ladder.ratings import RatingEnv
from ladder.records import ReportFile
from ladder.scheduler import Pairing
from ladder.schema import Match, MatchStatus
from ladder.store import Store
from ladder.submit import submit
from tests.ladder.test_ladder_interrupt import add_random_bots, clean_env, store_at
from tests.ladder.test_ladder_run import make_run
from tests.ladder_helpers import add_bots, fake_play, no_validation, open_store

STALLER = '''
import os
import threading

from sample_bots.random.bot import RandomBot
from sdk.server import run


class Staller(RandomBot):
    """The first copy of this bot to play a card says so (its pid, through the test's FIFO),
    then never answers."""

    def play(self, view):
        fifo = os.environ["DEHLA_TEST_STALL"]
        try:
            os.close(os.open(fifo + ".taken", os.O_WRONLY | os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            return super().play(view)
        with open(fifo, "w") as out:
            out.write(f"{os.getpid()}\\n")
        threading.Event().wait()


run(Staller())
'''

SLOW_CLOCK = ("--deals", "1", "--per-move", "30", "--runner", "local")
"""The staller must not time out while the test looks at it."""


# ------------------------------------------------------------- per-attempt records, in process
def staged_play(job: MatchJob) -> MatchReport:
    """A fake match whose report carries its record, as a worker's does."""
    record = ReportFile(f"{job.key}.jsonl", f'{{"attempt": {job.attempt}}}\n'.encode())
    return dataclasses.replace(fake_play(job), files=(record,))


def stored_record(store: Store, match_id: int) -> bytes | None:
    with store.reading() as session:
        found = read_stored(session, match_id, f"m{match_id:06d}.jsonl", 1 << 20)
    return None if found is None else found.content


def test_a_late_report_of_an_old_attempt_never_touches_the_counted_record(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    add_bots(store, ["s1", "s2"], tmp_path / "src")
    run = make_run(store, play=staged_play)
    assert run.run(StopRule(matches=1)).counted == 1
    assert stored_record(store, 1) == b'{"attempt": 1}\n'
    with store.transaction() as session:  # match 2 leased by a run that then died, its worker still playing
        first = session.get_one(Match, 1)
        pairing = Pairing((first.seat0_id, first.seat2_id), (first.seat1_id, first.seat3_id))
        assert lease(session, enqueue(session, RatingEnv(), pairing, 5, MatchSettings()).id, "dead-run") == 1
        requeue_abandoned(session)  # what the next run does as it starts
    again = make_run(store, play=staged_play)
    assert again.run(StopRule(matches=1)).counted == 1  # match 2, attempt 2
    assert stored_record(store, 2) == b'{"attempt": 2}\n'
    # the dead run's worker finishes attempt 1 now and its report arrives late
    late = MatchReport(2, 1, "done", 0, (1.0, 0.0), 2,
                       files=(ReportFile("m000002.jsonl", b'{"attempt": 1, "late": true}\n'),))
    assert not again.record(late)
    assert stored_record(store, 2) == b'{"attempt": 2}\n'
    assert not store.data.matches.exists()  # nothing of a match is written under the data folder


# ------------------------------------------------------------------- real coordinators
def add_staller(root: Path) -> None:
    folder = root.parent / "sources" / "staller"
    folder.mkdir(parents=True)
    (folder / "bot.toml").write_text('name = "staller"\nversion = "1"\nauthor = "t"\ncommand = ["python", "bot.py"]\n')
    (folder / "bot.py").write_text(STALLER)
    store = store_at(root)
    try:
        submit(store, RatingEnv(), folder, "local", no_validation)
    finally:
        store.close()


def exited(pidfd: int, timeout: float) -> bool:
    return bool(select.select([pidfd], [], [], timeout)[0])


@contextmanager
def stalled_run(tmp_path: Path, *goal: str, executor: tuple[str, ...] = ("--workers", "2"),
                ) -> Iterator[tuple[subprocess.Popen[bytes], int, Path]]:
    """A ``dehla ladder run`` with a match certainly in play: (the run, the stalled bot's pid, data).
    ``tmp_path/arena`` may hold its bots already, and ``tmp_path/stall`` be made."""
    data = tmp_path / "arena"
    if not data.exists():
        add_random_bots(data, ["r1"])
        add_staller(data)
    fifo = tmp_path / "stall"
    if not fifo.exists():
        os.mkfifo(fifo)
    env = {**clean_env(data), "DEHLA_TEST_STALL": str(fifo)}
    log = (tmp_path / "run.log").open("wb")
    run = subprocess.Popen([sys.executable, "-m", "arena", "ladder", "run", *goal, *executor, "--seed", "3",
                            *SLOW_CLOCK, "--data", str(data)], stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                           env=env, start_new_session=True)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    run_fd = os.pidfd_open(run.pid)
    try:
        text = b""
        deadline = time.monotonic() + 120
        while not text.endswith(b"\n"):
            ready, _, _ = select.select([reader, run_fd], [], [], max(0.0, deadline - time.monotonic()))
            assert ready, "no match reached the staller's first card in time"
            assert reader in ready, f"the run ended first: {(tmp_path / 'run.log').read_text()[-2000:]}"
            text += os.read(reader, 64)
        yield run, int(text), data
    finally:
        os.close(reader)
        os.close(run_fd)
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
        run.wait()
        log.close()


def wait_all_exit(pids: list[int], timeout: float) -> list[int]:
    """Wait (on pidfds, no polling) until every one of ``pids`` has exited; those still alive."""
    fds = {}
    for pid in pids:
        try:
            fds[pid] = os.pidfd_open(pid)
        except ProcessLookupError:  # already gone
            continue
    deadline = time.monotonic() + timeout
    try:
        while fds and time.monotonic() < deadline:
            ready, _, _ = select.select(list(fds.values()), [], [], deadline - time.monotonic())
            for pid in [pid for pid, fd in fds.items() if fd in ready]:
                os.close(fds.pop(pid))
        return list(fds)
    finally:
        for fd in fds.values():
            os.close(fd)


def descendants(root: int) -> dict[int, str]:
    """Every process below ``root`` (by parent pid), with its command line."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: dict[int, str] = {}
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in found:
                try:
                    found[pid] = (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                except OSError:
                    continue
                frontier.append(pid)
    return found


@pytest.mark.sqlite_only("on PostgreSQL the killed run's match waits for its lease to expire: "
                         "tests/ladder/test_ladder_coordinators.py")
def test_a_killed_coordinator_takes_its_workers_and_bots_along_and_the_match_is_replayed(tmp_path: Path) -> None:
    with stalled_run(tmp_path, "--matches", "50") as (run, staller, data):
        tree = descendants(run.pid)
        assert staller in tree, tree  # the stalled bot, below a worker
        assert any("resource_tracker" in line for line in tree.values()), tree
        workers = [pid for pid, line in tree.items() if "multiprocessing" in line and "resource_tracker" not in line]
        assert len(workers) == 2, tree
        pidfds = {}
        for pid in tree:
            try:
                pidfds[pid] = os.pidfd_open(pid)
            except ProcessLookupError:  # ended between the listing and now (a bot of a match that ended)
                continue
        try:
            run.send_signal(signal.SIGKILL)  # the coordinator only: no clean-up code of it runs
            run.wait(timeout=30)
            deadline = time.monotonic() + 30
            alive = dict(pidfds)
            while alive and time.monotonic() < deadline:
                ready, _, _ = select.select(list(alive.values()), [], [], deadline - time.monotonic())
                alive = {pid: fd for pid, fd in alive.items() if fd not in ready}
            assert not alive, {pid: tree[pid] for pid in alive}
        finally:
            for fd in pidfds.values():
                if not exited(fd, 0):
                    signal.pidfd_send_signal(fd, signal.SIGKILL)
                os.close(fd)
    again = subprocess.run([sys.executable, "-m", "arena", "ladder", "run", "--matches", "2", "--workers", "1",
                            *SLOW_CLOCK, "--data", str(data)], capture_output=True, text=True, timeout=180,
                           check=False, env={**clean_env(data), "DEHLA_TEST_STALL": str(tmp_path / "stall")})
    assert again.returncode == 0, again.stderr
    store = store_at(data)
    try:
        with store.reading() as session:
            done = [m for m in session.scalars(query(Match)) if m.status == MatchStatus.DONE.value]
    finally:
        store.close()
    assert any(m.attempt == 2 for m in done), [(m.id, m.attempt) for m in done]  # the killed run's match
    for match in done:
        assert match.record_path == f"m{match.id:06d}.jsonl"
        replay = subprocess.run([sys.executable, "-m", "arena", "replay", "--match", str(match.id), "--data",
                                 str(data)], capture_output=True, text=True, timeout=60, check=False,
                                env=clean_env(data))
        assert replay.returncode == 0 and "result: team" in replay.stdout, (match.id, replay.stderr)
    assert not (data / "matches").exists(), "a match's files go to the store, none under the data folder"


@pytest.mark.sqlite_only("a PostgreSQL store takes several coordinators (tests/ladder/test_ladder_coordinators.py)")
def test_a_second_coordinator_on_the_same_store_is_refused(tmp_path: Path) -> None:
    with stalled_run(tmp_path, "--matches", "50") as (run, _, data):
        second = subprocess.run([sys.executable, "-m", "arena", "ladder", "run", "--matches", "1", *SLOW_CLOCK,
                                 "--data", str(data)], capture_output=True, text=True, timeout=120, check=False,
                                env={**clean_env(data), "DEHLA_TEST_STALL": str(tmp_path / "stall")})
        assert second.returncode == 2, second.stderr
        assert second.stderr == (f"error: another `dehla ladder run` (pid {run.pid}) is using the data folder "
                                 f"{data.resolve()}; one coordinator at a time: wait for it to end, or stop it "
                                 "with Ctrl-C\n")
        store = store_at(data)
        try:
            with store.reading() as session:
                running = [m for m in session.scalars(query(Match)) if m.status == MatchStatus.RUNNING.value]
        finally:
            store.close()
        assert running and all(m.lease_owner and m.attempt == 1 for m in running)  # not taken from the first
