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
from pathlib import Path

import pytest
from sqlalchemy import select as query

from ladder.coordinator.loop import StopRule
from ladder.coordinator.queue import MatchSettings, enqueue, lease, requeue_abandoned
from ladder.execution.jobs import MatchJob, MatchReport
from ladder.rating.ratings import RatingEnv
from ladder.rating.scheduler import Pairing
from ladder.store.database import Store
from ladder.store.match_files import read_stored
from ladder.store.report_files import ReportFile
from ladder.store.schema import Match, MatchStatus
from tests.coordinator_helpers import SLOW_CLOCK, clean_env, descendants, stalled_run
from tests.ladder_helpers import add_bots, fake_play, make_run, open_store, store_at


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
def exited(pidfd: int, timeout: float) -> bool:
    return bool(select.select([pidfd], [], [], timeout)[0])


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
    # One worker, held by the stalled match: with two, the other played on meanwhile (about 50
    # bot processes this test does not need).
    with stalled_run(tmp_path, "--matches", "50", executor=("--workers", "1")) as (run, _, data):
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
