"""Running the ladder: schedule, lease, play through an executor, record, until told to stop.

The coordinators write the store; workers only play. Each lease a coordinator takes expires
unless it renews it (``ladder/coordinator/leases.py``): the loop waits for its matches with a timeout and
renews them on time, and sweeps the expired leases of coordinators that died back to the queue.
On SQLite (one coordinator per store) a starting run puts every ``running`` match back at once.
On Ctrl-C the run stops leasing, records the matches that had already finished, and gives every
unfinished one back to the queue: no match is ever half-counted, and one that no worker had
started yet gets back the attempt its lease took.
"""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from sqlalchemy.orm import Session

from arena.contract.status import OutcomeStatus
from ladder.coordinator.deal_seeds import deal_seed, seed_key
from ladder.coordinator.interrupts import DeferredInterrupt
from ladder.coordinator.leases import Held, LeaseTerms, Swept, renew, sweep, take, take_match
from ladder.coordinator.queue import MatchSettings, enqueue, entries, job_for, release, requeue_abandoned, unlease
from ladder.coordinator.results import record_report
from ladder.execution.executors import ClusterLost, ExecutorFactory, SlotCounting
from ladder.execution.jobs import MatchJob, MatchReport, play_match_job
from ladder.rating.ratings import RatingEnv
from ladder.rating.scheduler import Scheduler
from ladder.store.archives import ArchiveUnavailableError, session_source
from ladder.store.database import Store, retry_on_conflict
from ladder.store.read_model import ranking
from ladder.store.schema import MatchStatus
from ladder.versions.version_cache import VersionCache, VersionUnavailableError

MATCH_SEED_BITS = 63
"""A match seed is drawn from this many bits: a bot that sees 13 cards must not be able to try
every seed until one deals it its hand (and then know every other hand of the match). The draw is
then keyed with the store's secret (``ladder/coordinator/deal_seeds.py``), since ``--seed`` may be small."""

JOB_TRIES = 8
"""Matches ``_next_job`` may fail in a row (versions that cannot be played) before it lets the
loop go on with what is in flight."""

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
                 on_progress: Callable[[RunProgress], None] | None = None,
                 terms: LeaseTerms | None = None) -> None:
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
        self.terms = terms or LeaseTerms()
        self._renew_at = 0.0
        self.counted = self.voided = self.requeued = self.failed = 0
        self.stable_for = 0
        self._order: tuple[int, ...] = ()
        self._key: bytes | None = None

    def run(self, stop: StopRule) -> RunSummary:
        """Play until ``stop``. The caller holds the coordinator lock (``ladder/coordinator/folder_lock.py``);
        the matches of runs that died are taken back here."""
        self._take_back()
        inflight: dict[Future[MatchReport], Held] = {}
        executor = self.executor_factory()
        interrupted = False
        with DeferredInterrupt() as guard:
            try:
                while not self._should_stop(stop):
                    with guard.critical():  # renewed and forgotten together
                        self._tend_leases(inflight)
                    slots = self._slots(executor, inflight)
                    while len(inflight) < slots and not self._budget_full(stop, len(inflight)):
                        with guard.critical():  # a leased match is always in `inflight`
                            job = retry_on_conflict(self._next_job)
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
                    done, _ = wait(list(inflight), timeout=self._until_renewal(), return_when=FIRST_COMPLETED)
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

    def _wind_down(self, executor: Executor, inflight: dict[Future[MatchReport], Held]) -> None:
        """Stop the executor (matches in play end first: workers that got the Ctrl-C too give
        theirs up); record what finished and give the rest back to the queue, those that never
        started with their attempt undone."""
        for future in inflight:
            future.cancel()
        executor.shutdown(wait=True, cancel_futures=True)
        for future, (match_id, attempt) in inflight.items():
            if future.cancelled():  # only a future no worker had taken can be cancelled
                self._give_back_unstarted(match_id, attempt)
            elif future.done() and future.exception() is None:
                self._collect(future, match_id, attempt)
            else:
                self._give_back(match_id, attempt)
        inflight.clear()

    def _give_back(self, match_id: int, attempt: int) -> None:
        with self.store.transaction() as session:
            release(session, match_id, attempt)
        self.requeued += 1

    def _give_back_unstarted(self, match_id: int, attempt: int) -> None:
        """A lease whose job no worker took: it can never report, so its attempt is undone."""
        with self.store.transaction() as session:
            unlease(session, match_id, attempt)
        self.requeued += 1

    # ----------------------------------------------------------------- leases
    def _take_back(self) -> None:
        """What runs that died left running: on SQLite (this run is the store's only coordinator)
        all of it; on a store that several coordinators share, only the leases that expired."""
        with self.store.transaction() as session:
            if session.get_bind().dialect.name == "sqlite":
                self.requeued += requeue_abandoned(session)
            else:
                swept = sweep(session)
                self.requeued += swept.requeued
                self.failed += swept.failed
        self._renew_at = time.monotonic() + self.terms.renew_every

    def _until_renewal(self) -> float:
        return max(0.0, self._renew_at - time.monotonic())

    def _tend_leases(self, inflight: dict[Future[MatchReport], Held]) -> None:
        """When it is time: renew this run's leases, forget the matches whose lease is gone (their
        results would count nothing), and sweep every coordinator's expired leases."""
        if self._until_renewal() > 0:
            return
        def tend() -> tuple[set[Held], Swept]:
            with self.store.transaction() as session:
                return renew(session, self.owner, set(inflight.values()), self.terms), sweep(session)
        kept, swept = retry_on_conflict(tend)
        self._renew_at = time.monotonic() + self.terms.renew_every
        self.requeued += swept.requeued
        self.failed += swept.failed
        for future, held in list(inflight.items()):
            if held not in kept:  # what it reports is never recorded: its files go with it
                future.cancel()
                del inflight[future]

    # ------------------------------------------------------------------ steps
    def _next_job(self) -> MatchJob | None:
        """The next match to play: a queued one, else a newly scheduled one. A match whose version
        cannot be played fails (``_job_for``) and the next is tried, a few times at most."""
        for _ in range(JOB_TRIES):
            with self.store.transaction() as session:
                held = take(session, self.owner, self.terms)
                if held is None:
                    pairing = self.scheduler.next(entries(session))
                    if pairing is None:
                        return None
                    seed = deal_seed(self._seed_key(session), self.rng.getrandbits(MATCH_SEED_BITS))
                    scheduled = enqueue(session, self.env, pairing, seed, self.settings).id
                    held = take_match(session, scheduled, self.owner, self.terms)
                if held is None:
                    return None
                job = self._job_for(session, *held)
            if job is not None:
                return job
        return None

    def _seed_key(self, session: Session) -> bytes:
        if self._key is None:
            self._key = seed_key(session)
        return self._key

    def _job_for(self, session: Session, match_id: int, attempt: int) -> MatchJob | None:
        """The leased match's job, and this machine's version cache filled (checked, as a worker
        would: local workers then find every version there, wherever their environment's store
        points). A version that cannot be played (it has no archive, or it fails its checks) fails
        the match with that reason instead."""
        try:
            job = job_for(session, match_id, attempt, self.settings)
            cache = VersionCache()
            for bot in job.seats:
                cache.resolve(bot.ref, [session_source(session)])
        except (ArchiveUnavailableError, VersionUnavailableError) as exc:
            status = release(session, match_id, attempt, str(exc)[:2000])
            self.failed += status is MatchStatus.FAILED
            return None
        return job

    def _collect(self, future: Future[MatchReport], match_id: int, attempt: int) -> bool:
        """Record one finished future; True if the executor broke and must be replaced."""
        try:
            report = future.result()
        except BrokenProcessPool:
            with self.store.transaction() as session:
                release(session, match_id, attempt)
            self.requeued += 1
            return True
        except ClusterLost:  # not the match's doing: never fails it (a dead worker's ``WorkerLost`` can)
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

    def _slots(self, executor: Executor, inflight: dict[Future[MatchReport], Held]) -> int:
        """How many matches to keep in play: a cluster's slots as they are now (waiting for a
        worker when nothing is in play), else the ``workers`` the run was given."""
        if isinstance(executor, SlotCounting):
            return executor.slots(wait=not inflight)
        return self.workers

    def record(self, report: MatchReport) -> bool:
        """Count the report, with its files, in one transaction (``ladder/coordinator/results.py``)."""
        def count() -> bool:
            with self.store.transaction() as session:
                return record_report(session, self.env, report)
        return retry_on_conflict(count)

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
