"""Leases that expire (ladder/coordinator/leases.py) on a real store, SQLite or PostgreSQL (tests/database.py):
taking, renewing, sweeping, a run that loses a lease mid-match, and the coordinator lock."""

from __future__ import annotations

import random
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sqlalchemy import event, func, select, update

from arena.contract.status import OutcomeStatus
from ladder.coordinator.folder_lock import CoordinatorBusy, CoordinatorLock, several_coordinators
from ladder.coordinator.leases import DEFAULT_LEASE_SECONDS, LeaseTerms, renew, store_now, sweep, take, take_match
from ladder.coordinator.loop import LadderRun, PlayFn, StopRule
from ladder.coordinator.queue import MAX_ATTEMPTS, MatchSettings, enqueue, partnership, release
from ladder.coordinator.results import record_report
from ladder.execution.jobs import MatchJob, MatchReport
from ladder.rating.ratings import RatingEnv
from ladder.rating.scheduler import Mode, Pairing, Scheduler
from ladder.store.database import Store
from ladder.store.paths import ArenaData
from ladder.store.schema import Match, MatchStatus, Partnership, Result
from tests.database import POSTGRES
from tests.ladder_helpers import add_bots, fake_play, open_store

TERMS = LeaseTerms(seconds=30)
SETTLE = 60.0
"""Seconds a test waits for a thread at most: a bound on failure, never a pause."""


def store_with_queue(tmp_path: Path, count: int) -> tuple[Store, list[int]]:
    """A store with two bots and ``count`` queued matches between them."""
    store = open_store(tmp_path / "data")
    a, b = (s.version_id for s in add_bots(store, ["s1", "s2"], tmp_path / "src"))
    with store.transaction() as session:
        ids = [enqueue(session, RatingEnv(), Pairing((a, a), (b, b)), n, MatchSettings()).id for n in range(count)]
    return store, ids


def row(store: Store, match_id: int) -> Match:
    with store.reading() as session:
        return session.get_one(Match, match_id)


def expire(store: Store, match_id: int) -> None:
    """What time does to a lease nobody renews."""
    with store.transaction() as session:
        now = store_now(session)
        session.execute(update(Match).where(Match.id == match_id).values(lease_until=now - timedelta(seconds=1)))


def test_take_leases_the_oldest_queued_match_until_now_plus_the_lease(tmp_path: Path) -> None:
    store, ids = store_with_queue(tmp_path, 2)
    with store.transaction() as session:
        before = store_now(session)
        assert take(session, "me", TERMS) == (ids[0], 1)
        assert take(session, "me", TERMS) == (ids[1], 1)
        assert take(session, "me", TERMS) is None  # the queue is empty
        after = store_now(session)
    first = row(store, ids[0])
    assert (first.status, first.lease_owner, first.attempt) == (MatchStatus.RUNNING, "me", 1)
    assert first.lease_until is not None
    until = first.lease_until.replace(tzinfo=before.tzinfo)  # SQLite hands times back without their zone
    assert before + timedelta(seconds=30) <= until <= after + timedelta(seconds=30)


def test_renew_keeps_only_the_leases_still_held(tmp_path: Path) -> None:
    store, _ = store_with_queue(tmp_path, 3)
    with store.transaction() as session:
        mine = [take(session, "me", TERMS), take(session, "me", TERMS)]
        theirs = take(session, "them", TERMS)
    assert None not in mine and theirs is not None
    kept_one, lost = mine[0], mine[1]
    assert kept_one is not None and lost is not None
    with store.transaction() as session:  # the second lease was swept and leased again (attempt 2)
        session.execute(update(Match).where(Match.id == lost[0]).values(status=MatchStatus.QUEUED))
        assert take_match(session, lost[0], "me", TERMS) == (lost[0], 2)
    expire(store, kept_one[0])  # expired but not yet swept: a renewal in time still keeps it
    with store.transaction() as session:
        kept = renew(session, "me", {kept_one, lost, theirs}, LeaseTerms(seconds=600))
    assert kept == {kept_one}  # not the old attempt, not another coordinator's
    renewed = row(store, kept_one[0]).lease_until
    assert renewed is not None and row(store, theirs[0]).lease_until != renewed
    with store.transaction() as session:
        assert renew(session, "me", set(), TERMS) == set()


def test_sweep_requeues_expired_leases_only_and_fails_the_last_attempt(tmp_path: Path) -> None:
    store, ids = store_with_queue(tmp_path, 4)
    live, expired, unbounded, last = ids
    with store.transaction() as session:
        for match_id in ids:
            assert take_match(session, match_id, "other", TERMS) is not None
        session.execute(update(Match).where(Match.id == unbounded).values(lease_until=None))  # leased before 0007
        session.execute(update(Match).where(Match.id == last).values(attempt=MAX_ATTEMPTS))
    expire(store, expired)
    expire(store, last)
    with store.transaction() as session:
        swept = sweep(session)
    assert (swept.requeued, swept.failed) == (2, 1)
    assert row(store, live).status is MatchStatus.RUNNING and row(store, live).lease_owner == "other"
    for match_id in (expired, unbounded):
        back = row(store, match_id)
        assert (back.status, back.lease_owner, back.lease_until) == (MatchStatus.QUEUED, None, None)
    failed = row(store, last)
    assert failed.status is MatchStatus.FAILED and failed.error is not None and "lease expired" in failed.error
    with store.transaction() as session:
        assert sweep(session) == type(swept)()  # nothing more to do


@pytest.mark.skipif(not POSTGRES, reason="SQLite has one writer: no two transactions take leases at once")
def test_two_coordinators_taking_at_once_skip_each_others_rows(tmp_path: Path) -> None:
    """Coordinator A's transaction has taken the oldest match and not committed: B neither waits
    for it nor gets it (``SKIP LOCKED``), and takes the next one."""
    store, ids = store_with_queue(tmp_path, 2)
    with store.transaction() as first:
        assert take(first, "a", TERMS) == (ids[0], 1)
        with store.transaction() as second:
            second.connection().exec_driver_sql("SET LOCAL lock_timeout = '5s'")  # a wait fails, not hangs
            assert take(second, "b", TERMS) == (ids[1], 1)
    assert (row(store, ids[0]).lease_owner, row(store, ids[1]).lease_owner) == ("a", "b")


def test_lease_terms_are_bounded() -> None:
    assert LeaseTerms().seconds == DEFAULT_LEASE_SECONDS and LeaseTerms(3).renew_every == 1
    for seconds in (0.5, 86_401.0):
        with pytest.raises(ValueError, match="a lease lasts"):
            LeaseTerms(seconds)


# ------------------------------------------------------------------------------- the loop
def make_run(store: Store, terms: LeaseTerms, factory: object, play: PlayFn = fake_play) -> LadderRun:
    env = RatingEnv()
    return LadderRun(store, env, Scheduler(env, Mode.SELF, random.Random(1)), MatchSettings(runner="local"),
                     factory, play=play, rng=random.Random(1), terms=terms)  # type: ignore[arg-type]


def test_a_run_forgets_a_match_whose_lease_it_lost_and_plays_on(tmp_path: Path) -> None:
    """Attempt 1 of match 1 loses its lease while it plays (another coordinator swept it). With
    one slot, the run can lease again only once it has forgotten that match: the next lease is
    match 1 itself (the oldest queued), attempt 2, which is what counts. Without the renewal's
    check the run waits for attempt 1, which waits for that second lease: it never comes."""
    store = open_store(tmp_path / "data")
    add_bots(store, ["s1", "s2"], tmp_path / "src")
    second_lease, gave_up = threading.Event(), threading.Event()
    played: list[tuple[int, int]] = []

    def play(job: MatchJob) -> MatchReport:
        played.append((job.match_id, job.attempt))
        if job.attempt > 1:
            second_lease.set()
            return fake_play(job)
        with store.transaction() as session:  # another coordinator's sweep
            session.execute(update(Match).where(Match.id == job.match_id)
                            .values(status=MatchStatus.QUEUED, lease_owner=None, lease_until=None))
        if not second_lease.wait(SETTLE):
            gave_up.set()  # the run never leased again
        return fake_play(job)

    with ThreadPoolExecutor(2) as threads:
        run = make_run(store, LeaseTerms(seconds=1), lambda: threads, play)
        summary = run.run(StopRule(matches=1))
    assert not gave_up.is_set()
    assert summary.counted == 1 and played == [(1, 1), (1, 2)]
    done = row(store, 1)
    assert (done.status, done.attempt) == (MatchStatus.DONE, 2)
    with store.reading() as session:
        assert list(session.scalars(select(Match.id).where(Match.status == MatchStatus.RUNNING))) == []


def test_a_starting_run_takes_back_only_what_it_may(tmp_path: Path) -> None:
    """On SQLite (one coordinator per store) every running match goes back to the queue; on a
    shared store only expired leases do, and another live coordinator's match stays its own."""
    store, ids = store_with_queue(tmp_path, 2)
    live, dead = ids
    with store.transaction() as session:
        take_match(session, live, "live-run", TERMS)
        take_match(session, dead, "dead-run", TERMS)
    expire(store, dead)
    summary = make_run(store, TERMS, lambda: ThreadPoolExecutor(1)).run(StopRule(matches=2))
    assert summary.counted == 2
    assert row(store, dead).status is MatchStatus.DONE  # swept, then played (the oldest queued)
    kept = row(store, live)
    if POSTGRES:
        assert (kept.status, kept.lease_owner, kept.attempt) == (MatchStatus.RUNNING, "live-run", 1)
    else:
        assert (kept.status, kept.attempt) == (MatchStatus.DONE, 2)


# ----------------------------------------------------------------------- coordinator lock
def test_several_coordinators_share_a_folder_an_sqlite_one_wants_it_alone(tmp_path: Path) -> None:
    data = ArenaData(tmp_path, "postgresql+psycopg:///x")
    first = CoordinatorLock(data, several=True)
    first.acquire()
    second = CoordinatorLock(data, several=True)
    second.acquire()  # beside a live one: allowed
    single = CoordinatorLock(data, several=False)
    with pytest.raises(CoordinatorBusy, match="one coordinator at a time"):
        single.acquire()  # an SQLite store's coordinator wants the folder to itself
    first.release()
    second.release()
    single.acquire()
    try:
        with pytest.raises(CoordinatorBusy, match="on an SQLite store uses the data folder"):
            CoordinatorLock(data, several=True).acquire()
    finally:
        single.release()


def test_sqlite_stores_take_one_coordinator_server_stores_several() -> None:
    assert not several_coordinators("sqlite:////tmp/x/ladder.db")
    assert not several_coordinators("sqlite+pysqlite:///:memory:")
    assert several_coordinators("postgresql+psycopg://u:secret@db/arena")
    assert not several_coordinators("::not a url")


@pytest.mark.skipif(not POSTGRES, reason="SQLite has one writer: no two coordinators schedule at once")
def test_a_pair_another_coordinator_creates_meanwhile_is_read_not_inserted_twice(tmp_path: Path) -> None:
    """Between this transaction's look for the pair and its insert, another coordinator inserts
    and commits the same pair: the insert fails on the unique key and the other's row is used."""
    store = open_store(tmp_path / "data")
    a, b = (s.version_id for s in add_bots(store, ["s1", "s2"], tmp_path / "src"))
    other = Store.open(store.data)
    raced: list[int] = []

    def meanwhile(conn: object, cursor: object, statement: str, *rest: object) -> None:
        if statement.startswith("INSERT INTO partnerships") and not raced:
            with other.transaction() as session:
                raced.append(partnership(session, RatingEnv(), a, b).id)

    event.listen(store.engine, "before_cursor_execute", meanwhile)
    try:
        with store.transaction() as session:
            found = partnership(session, RatingEnv(), b, a)
            session.flush()
            found_id = found.id
    finally:
        event.remove(store.engine, "before_cursor_execute", meanwhile)
        other.close()
    assert raced == [found_id]
    with store.reading() as session:
        assert session.scalar(select(func.count()).select_from(Partnership)) == 1


# ------------------------------------------------------------------- interleavings
OWNERS = ("a", "b", "c")
STEPS = st.lists(st.tuples(st.sampled_from(["take", "renew", "expire", "sweep", "report", "release"]),
                           st.sampled_from(OWNERS), st.integers(0, 3)), max_size=40)


def test_any_interleaving_of_coordinators_counts_each_match_at_most_once(tmp_path: Path) -> None:
    """Three coordinators take, renew, report and give back leases while time expires some and
    sweeps run, in any order: a match is counted at most once, only by the attempt that holds it,
    a renewal keeps exactly the leases their holder still has, and every running match is held."""
    store = open_store(tmp_path / "data")
    a, b = (s.version_id for s in add_bots(store, ["s1", "s2"], tmp_path / "src"))

    @settings(max_examples=40, deadline=None)
    @given(steps=STEPS)
    @example(steps=[("take", "a", 0), ("expire", "a", 0), ("sweep", "b", 0), ("renew", "a", 0)])
    def interleaving(steps: list[tuple[str, str, int]]) -> None:
        with store.transaction() as session:  # the earlier examples' matches are out of the way
            session.execute(update(Match).where(Match.status.in_([MatchStatus.QUEUED, MatchStatus.RUNNING]))
                            .values(status=MatchStatus.FAILED, lease_owner=None))
            ids = {enqueue(session, RatingEnv(), Pairing((a, a), (b, b)), n, MatchSettings()).id for n in range(3)}
        play(steps, ids)

    def play(steps: list[tuple[str, str, int]], ids: set[int]) -> None:
        held: dict[str, set[tuple[int, int]]] = {owner: set() for owner in OWNERS}
        counted: set[int] = set()
        for op, owner, pick in steps:
            mine = sorted(held[owner])
            with store.transaction() as session:
                if op == "take":
                    taken = take(session, owner, TERMS)
                    if taken is not None:
                        held[owner].add(taken)
                elif op == "renew":
                    kept = renew(session, owner, held[owner], TERMS)
                    assert kept <= held[owner]
                    for match_id, attempt in kept:
                        current = session.get_one(Match, match_id)
                        assert (current.status, current.lease_owner, current.attempt) == (
                            MatchStatus.RUNNING, owner, attempt)
                    held[owner] = kept
                elif op == "expire" and mine:
                    session.execute(update(Match).where(Match.id == mine[pick % len(mine)][0])
                                    .values(lease_until=store_now(session) - timedelta(seconds=1)))
                elif op == "sweep":
                    sweep(session)
                elif op in ("report", "release") and mine:
                    match_id, attempt = mine[pick % len(mine)]
                    held[owner].discard((match_id, attempt))
                    if op == "release":
                        release(session, match_id, attempt)
                        continue
                    current = session.get_one(Match, match_id)
                    holds = current.status is MatchStatus.RUNNING and current.attempt == attempt
                    report = MatchReport(match_id, attempt, OutcomeStatus.DONE, 0, (1.0, 0.0), 1)
                    assert record_report(session, RatingEnv(), report) == holds
                    if holds:
                        assert match_id not in counted
                        counted.add(match_id)
        with store.reading() as session:
            results = Counter(session.scalars(select(Result.match_id).where(Result.match_id.in_(ids))))
            done = set(session.scalars(select(Match.id).where(Match.id.in_(ids), Match.status == MatchStatus.DONE)))
            running = list(session.scalars(select(Match).where(Match.id.in_(ids),
                                                               Match.status == MatchStatus.RUNNING)))
        assert set(results) == done == counted and all(n == 1 for n in results.values())
        assert all(m.lease_owner is not None and (m.id, m.attempt) in held[m.lease_owner] for m in running)

    interleaving()
