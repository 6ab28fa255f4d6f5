"""Running the ladder: schedule, lease, play through an executor, record, until told to stop.

The coordinator (this process) is the only writer of the store; workers only play. Matches
left ``running`` by a run that died are put back in the queue when the next run starts. On
Ctrl-C the run stops leasing, records the matches that had already finished, and gives every
unfinished one back to the queue: no match is ever half-counted.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from arena.contract.status import OutcomeStatus
from ladder.executors import ClusterLost, ExecutorFactory, SlotCounting
from ladder.interrupts import DeferredInterrupt
from ladder.jobs import MatchJob, MatchReport, play_match_job
from ladder.queue import MatchSettings, enqueue, entries, job_for, lease, queued, release, requeue_abandoned
from ladder.ratings import RatingEnv
from ladder.records import clear_stale, discard, put_in_place
from ladder.results import record_report
from ladder.scheduler import Scheduler
from ladder.schema import MatchStatus
from ladder.store import Store
from ladder.views import ranking

MATCH_SEED_BITS = 63
"""A match seed is drawn from this many bits: a bot that sees 13 cards must not be able to try
every seed until one deals it its hand (and then know every other hand of the match)."""

PlayFn = Callable[[MatchJob], MatchReport]


@dataclass(frozen=True, slots=True)
class StopRule:
    """``matches``: stop after this many rated or voided matches (None: no limit).
    ``until_stable``: stop once the ranking has not changed for ``window`` matches and every
    active version has settled. Neither: run until interrupted."""

    matches: int | None = None
    until_stable: bool = False
    window: int | None = None
    safety_cap: int = 100_000


@dataclass(frozen=True, slots=True)
class RunProgress:
    counted: int
    target: int | None
    stable_for: int
    last: MatchReport | None


@dataclass(frozen=True, slots=True)
class RunSummary:
    counted: int
    voided: int
    requeued: int
    failed: int
    interrupted: bool
    stable: bool


class LadderRun:
    def __init__(self, store: Store, env: RatingEnv, scheduler: Scheduler, settings: MatchSettings,
                 executor_factory: ExecutorFactory, workers: int = 1, play: PlayFn = play_match_job,
                 rng: random.Random | None = None,
                 on_progress: Callable[[RunProgress], None] | None = None) -> None:
        self.store = store
        self.env = env
        self.scheduler = scheduler
        self.settings = settings
        self.executor_factory = executor_factory
        self.workers = workers
        self.play = play
        self.rng = rng or random.Random()
        self.on_progress = on_progress
        self.owner = f"run-{uuid.uuid4().hex[:12]}"
        self.counted = self.voided = self.requeued = self.failed = 0
        self.stable_for = 0
        self._order: tuple[int, ...] = ()

    def run(self, stop: StopRule) -> RunSummary:
        """Play until ``stop``. The caller holds the coordinator lock (``ladder/coordinator.py``):
        what a run that died left (running matches, attempt folders) is taken back here."""
        with self.store.transaction() as session:
            self.requeued += requeue_abandoned(session)
        clear_stale(self.store.data.matches)
        inflight: dict[Future[MatchReport], tuple[int, int]] = {}
        executor = self.executor_factory()
        interrupted = False
        with DeferredInterrupt() as guard:
            try:
                while not self._should_stop(stop):
                    slots = self._slots(executor, inflight)
                    while len(inflight) < slots and not self._budget_full(stop, len(inflight)):
                        with guard.critical():  # a leased match is always in `inflight`
                            job = self._next_job()
                            if job is None:
                                break
                            try:
                                future = executor.submit(self.play, job)
                            except BaseException:  # e.g. an executor that plays inline, interrupted
                                self._give_back(job.match_id, job.attempt)
                                raise
                            inflight[future] = (job.match_id, job.attempt)
                    if not inflight:
                        break
                    done, _ = wait(list(inflight), return_when=FIRST_COMPLETED)
                    for future in done:
                        with guard.critical():  # recorded and forgotten together
                            broken = self._collect(future, *inflight[future])
                            del inflight[future]
                        if broken:
                            executor.shutdown(wait=True, cancel_futures=True)
                            executor = self.executor_factory()
            except KeyboardInterrupt:
                interrupted = True
            finally:
                with guard.critical(reraise=False):  # a second Ctrl-C must not cut the wind-down short
                    self._wind_down(executor, inflight)
                interrupted |= guard.pending
        return RunSummary(self.counted, self.voided, self.requeued, self.failed, interrupted,
                          stop.until_stable and self._is_stable(stop))

    def _wind_down(self, executor: Executor, inflight: dict[Future[MatchReport], tuple[int, int]]) -> None:
        """Stop the executor (matches in play end first: workers that got the Ctrl-C too give
        theirs up); record what finished and give the rest back to the queue."""
        for future in inflight:
            future.cancel()
        executor.shutdown(wait=True, cancel_futures=True)
        for future, (match_id, attempt) in inflight.items():
            if future.done() and not future.cancelled() and future.exception() is None:
                self._collect(future, match_id, attempt)
            else:
                self._give_back(match_id, attempt)
        inflight.clear()

    def _give_back(self, match_id: int, attempt: int) -> None:
        with self.store.transaction() as session:
            release(session, match_id, attempt)
        self.requeued += 1

    # ------------------------------------------------------------------ steps
    def _next_job(self) -> MatchJob | None:
        with self.store.transaction() as session:
            candidates = queued(session, 8)
            if not candidates:
                pairing = self.scheduler.next(entries(session))
                if pairing is None:
                    return None
                seed = self.rng.getrandbits(MATCH_SEED_BITS)
                candidates = [enqueue(session, self.env, pairing, seed, self.settings).id]
            for match_id in candidates:
                attempt = lease(session, match_id, self.owner)
                if attempt is not None:
                    return job_for(session, match_id, attempt, self.store.data.root, self.settings)
        return None

    def _collect(self, future: Future[MatchReport], match_id: int, attempt: int) -> bool:
        """Record one finished future; True if the executor broke and must be replaced."""
        try:
            report = future.result()
        except BrokenProcessPool:
            with self.store.transaction() as session:
                release(session, match_id, attempt)
            self.requeued += 1
            return True
        except ClusterLost:  # not the match's doing: no attempt spent (a dead worker's ``WorkerLost`` is one)
            self._give_back(match_id, attempt)
            return False
        except Exception as exc:
            with self.store.transaction() as session:
                status = release(session, match_id, attempt, f"{type(exc).__name__}: {exc}"[:2000])
            self.failed += status is MatchStatus.FAILED
            self.requeued += status is MatchStatus.QUEUED
            return False
        counted = self.record(report)
        if counted:
            self.counted += 1
            self.voided += report.status is OutcomeStatus.VOID
            self._track_order()
        if self.on_progress:
            self.on_progress(RunProgress(self.counted, None, self.stable_for, report))
        return False

    def _slots(self, executor: Executor, inflight: dict[Future[MatchReport], tuple[int, int]]) -> int:
        """How many matches to keep in play: a cluster's slots as they are now (waiting for a
        worker when nothing is in play), else the ``workers`` the run was given."""
        if isinstance(executor, SlotCounting):
            return executor.slots(wait=not inflight)
        return self.workers

    def record(self, report: MatchReport) -> bool:
        """Count the report and put its record in place before the count commits (a crash in
        between leaves a whole record of a match that will be played again); a report that does
        not count leaves the counted record alone."""
        records = self.store.data.matches
        with self.store.transaction() as session:
            counted = record_report(session, self.env, report, self.store.data.root)
            if counted and report.staged is not None:
                put_in_place(Path(report.staged), records)
        if not counted and report.staged is not None:
            discard(Path(report.staged), records)
        return counted

    def _track_order(self) -> None:
        with self.store.reading() as session:
            order = tuple(row.version_id for row in ranking(session, enabled_only=True))
        self.stable_for = self.stable_for + 1 if order == self._order else 0
        self._order = order

    # ------------------------------------------------------------- stopping
    def _window(self, stop: StopRule) -> int:
        return stop.window or max(10, 3 * len(self._order))

    def _is_stable(self, stop: StopRule) -> bool:
        if self.stable_for < self._window(stop):
            return False
        with self.store.reading() as session:
            return all(row.matches >= self.scheduler.settle_matches
                       for row in ranking(session, enabled_only=True))

    def _should_stop(self, stop: StopRule) -> bool:
        if stop.matches is not None and self.counted >= stop.matches:
            return True
        if self.counted >= stop.safety_cap:
            return True
        return stop.until_stable and self._is_stable(stop)

    def _budget_full(self, stop: StopRule, running: int) -> bool:
        return stop.matches is not None and self.counted + running >= stop.matches
