"""The ladder's loop on a real ``LocalCluster`` (one per module, started by ``start_cluster``):
real bots, a worker that dies mid-match, a match that kills every worker, the workers' store.

Each run gets its own client on the shared cluster (its shutdown closes only the client)."""

from __future__ import annotations

import os
import random
import select
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from distributed import Client
from sqlalchemy import select as query

from arena.console.data import DATA_ENV
from arena.contract.time_control import MoveRelease
from ladder.coordinator.loop import LadderRun, StopRule
from ladder.coordinator.queue import MAX_ATTEMPTS, MatchSettings
from ladder.execution.cluster import ClusterExecutor, ClusterSpec, start_cluster
from ladder.execution.jobs import play_match_job
from ladder.rating.ratings import RatingEnv
from ladder.rating.scheduler import Mode, Scheduler
from ladder.store.database import Store
from ladder.store.match_files import stored_names
from ladder.store.paths import DATABASE_URL_ENV
from ladder.store.schema import Match, MatchStatus, Result
from tests.cluster.plays import KILL_MARKS, held, held_first, kill_always_first, kill_once, where
from tests.ladder_helpers import add_bots, add_random_bots, check_store_is_consistent, open_store, store_at

SLOTS = 2


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ClusterExecutor, Path]]:
    marks = tmp_path_factory.mktemp("kill-marks")
    executor = start_cluster(ClusterSpec(local_slots=SLOTS), {DATA_ENV: "/the/workers/data",
                                                              DATABASE_URL_ENV: "sqlite:////the/workers.db",
                                                              KILL_MARKS: str(marks)})
    try:
        yield executor, marks
    finally:
        executor.shutdown(cancel_futures=True)


def on(cluster: tuple[ClusterExecutor, Path]) -> Any:
    address = cluster[0].cluster.scheduler_address

    def make() -> ClusterExecutor:
        return ClusterExecutor(Client(address, set_as_default=False))
    return make


def make_run(store: Store, factory: Any, play: Any, settings: MatchSettings | None = None) -> LadderRun:
    settings = settings or MatchSettings()
    env = RatingEnv()
    return LadderRun(store, env, Scheduler(env, Mode.SELF, random.Random(5)), settings, factory, play=play,
                     rng=random.Random(5))


def test_real_bots_play_on_the_cluster_and_every_match_counts_once(cluster: Any, tmp_path: Path) -> None:
    data = tmp_path / "arena"
    add_random_bots(data, ["r1", "r2"])
    store = store_at(data)
    try:
        settings = MatchSettings(match_format="duplicate:1", runner="local", per_move=0.5,
                                 release=MoveRelease.ON_REPLY)
        summary = make_run(store, on(cluster), play_match_job, settings).run(StopRule(matches=3))
        matches = check_store_is_consistent(data)
        with store.reading() as session:  # each record came back from its worker into the store
            assert all(m.record_path in stored_names(session, m.id) for m in matches)
    finally:
        store.close()
    assert (summary.counted, summary.requeued, summary.failed) == (3, 0, 0)
    assert [m.status for m in matches] == [MatchStatus.DONE.value] * 3


def test_the_run_keeps_as_many_matches_in_play_as_the_cluster_has_slots(cluster: Any, tmp_path: Path) -> None:
    """The run is given ``workers=1``: the cluster's two ``match`` slots decide, so two matches
    are in play at once (each waits for the test's go once it has said so)."""
    executor = on(cluster)()
    try:
        assert executor.slots(wait=True) == SLOTS
    finally:
        executor.shutdown()
    marks = cluster[1] / "held"
    marks.mkdir()
    for name in ("said", "go"):
        os.mkfifo(marks / name)
    store = open_store(tmp_path)
    add_bots(store, ["s1", "s2"], tmp_path / "src")
    run = make_run(store, on(cluster), held)
    outcome: list[Any] = []
    coordinator = threading.Thread(target=lambda: outcome.append(run.run(StopRule(matches=2))))
    go = os.open(marks / "go", os.O_RDWR)
    said = Said(marks / "said")
    coordinator.start()
    try:
        in_play = {said.line(60), said.line(60)}
        assert in_play == {"m000001", "m000002"}
    finally:
        os.write(go, b"go\ngo\n")
        coordinator.join(60)
        os.close(go)
        said.close()
    assert outcome[0].counted == 2
    store.close()


@pytest.mark.alone("Dask restarts the killed worker (a new interpreter): under the other workers' load "
                   "once left no worker (no nanny process) and the run waited on for over ten minutes")
def test_a_worker_killed_mid_match_sends_the_match_back_and_it_counts_once(cluster: Any, tmp_path: Path) -> None:
    store = open_store(tmp_path)
    add_bots(store, ["s1", "s2"], tmp_path / "src")
    summary = make_run(store, on(cluster), kill_once).run(StopRule(matches=1))
    assert (summary.counted, summary.failed, summary.requeued) == (1, 0, 1)
    with store.reading() as session:
        matches = list(session.scalars(query(Match).order_by(Match.id)))
    store.close()
    done = [m for m in matches if m.status == MatchStatus.DONE.value]
    assert len(done) == 1
    # the first attempt of each died with its worker; Dask did not retry it (the ladder did: attempt 2)
    assert all(m.attempt == 2 for m in done), [(m.id, m.attempt) for m in done]
    assert all("died" in (m.error or "") for m in done), [m.error for m in done]
    check_store_is_consistent(tmp_path)


@pytest.mark.alone("Dask restarts the killed worker (a new interpreter): under the other workers' load "
                   "once left no worker (no nanny process) and the run waited on for over ten minutes")
def test_a_match_that_kills_every_worker_ends_failed_after_max_attempts(cluster: Any, tmp_path: Path) -> None:
    store = open_store(tmp_path)
    add_bots(store, ["s1", "s2"], tmp_path / "src")
    summary = make_run(store, on(cluster), kill_always_first).run(StopRule(matches=1))
    with store.reading() as session:
        first = session.get_one(Match, 1)
        status, attempt = first.status, first.attempt
    store.close()
    assert (status, attempt) == (MatchStatus.FAILED.value, MAX_ATTEMPTS)
    assert (summary.counted, summary.failed) == (1, 1)
    check_store_is_consistent(tmp_path)


def test_the_workers_find_the_store_the_run_was_given(cluster: Any, tmp_path: Path) -> None:
    store = open_store(tmp_path)
    add_bots(store, ["s1", "s2"], tmp_path / "src")
    make_run(store, on(cluster), where).run(StopRule(matches=1))
    with store.reading() as session:
        reason = session.scalars(query(Result.void_reason)).one()
    store.close()
    _, data, url = (reason or "").split(" ")
    assert (data, url) == ("/the/workers/data", "sqlite:////the/workers.db")


class Said:
    """The play functions' lines on the FIFO ``said``, held open for reading *and* writing from
    before the run starts: a play's ``tell`` never waits for a reader, no line is lost between two
    reads (a FIFO whose last reader and writer close drops what it holds), a read never finds
    the pipe hung up, and two lines read at once are both kept."""

    def __init__(self, fifo: Path) -> None:
        self.fd = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
        self.pending = b""

    def line(self, timeout: float) -> str:
        """The next line (waiting on the pipe, with a bound)."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.pending:
            ready, _, _ = select.select([self.fd], [], [], max(0.0, deadline - time.monotonic()))
            assert ready, f"nothing said in time (so far {self.pending!r})"
            try:
                self.pending += os.read(self.fd, 256)
            except BlockingIOError:  # taken by nobody else, but select may still wake early
                continue
        line, _, self.pending = self.pending.partition(b"\n")
        return line.decode().strip()

    def close(self) -> None:
        os.close(self.fd)


def cancel_on_scheduler(key: str, client: str, dask_scheduler: Any) -> None:
    """What ``Client.cancel(force=True)`` asks of the scheduler, run there synchronously."""
    dask_scheduler.stimulus_cancel([key], client, True, "test", "cancelled by the test")


def test_a_match_the_scheduler_cancels_goes_back_without_spending_an_attempt(cluster: Any, tmp_path: Path) -> None:
    """As when the coordinator's connection to the scheduler is lost, or the scheduler restarts:
    the match's future is cancelled (``ClusterLost``); it is played again, and the cancelled
    attempt's late result (its worker played on) counts nothing."""
    marks = cluster[1]
    for name in ("said", "go"):
        os.mkfifo(marks / name)
    store = open_store(tmp_path)
    add_bots(store, ["s1", "s2"], tmp_path / "src")
    run = make_run(store, on(cluster), held_first)
    outcome: list[Any] = []
    coordinator = threading.Thread(target=lambda: outcome.append(run.run(StopRule(matches=1))))
    said = Said(marks / "said")
    coordinator.start()
    go = os.open(marks / "go", os.O_RDWR)  # held open: the first attempt reads its line whenever it gets there
    try:
        key = said.line(60)
        with Client(cluster[0].cluster.scheduler_address, set_as_default=False) as other:
            other.run_on_scheduler(cancel_on_scheduler, key=key, client=other.id)  # done when this returns
        os.write(go, b"go\n")  # the cancelled attempt plays on (its slot busy until then); its result is unwanted
        assert said.line(60) == "attempt 2"
    finally:
        os.write(go, b"go\n")
        coordinator.join(60)
        os.close(go)
        said.close()
    summary = outcome[0]
    assert (summary.counted, summary.requeued, summary.failed) == (1, 1, 0)
    with store.reading() as session:
        match = session.get_one(Match, 1)
        assert (match.status, match.attempt, match.error) == (MatchStatus.DONE.value, 2, None)
    store.close()
    check_store_is_consistent(tmp_path)
