"""Scheduling and running the ladder with a fake match player (no bot processes)."""

from __future__ import annotations

import os
import random
from collections import Counter
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from ladder.coordinator.deal_seeds import KEY_NAME
from ladder.coordinator.loop import StopRule
from ladder.coordinator.queue import entries
from ladder.execution.executors import pool_factory
from ladder.execution.jobs import MatchJob, MatchReport
from ladder.rating.ratings import RatingEnv, Skill
from ladder.rating.scheduler import Entry, Mode, Scheduler
from ladder.store.read_model import ranking
from ladder.store.schema import BotVersion, Match, RatingChange, StoreSecret
from tests.ladder_helpers import add_bots, fake_play, make_run, open_store


def test_scheduler_prefers_new_and_idle_entries_and_connects_everyone() -> None:
    env = RatingEnv()
    scheduler = Scheduler(env, Mode.SELF, random.Random(3))
    pool = {i: Entry(i, Skill(20 + 2 * i, 2.0), 40, 0) for i in range(1, 7)}
    pool[99] = Entry(99, env.new(), 0, 1000)
    played: Counter[int] = Counter()
    pairings = set()
    settled_after = 0
    for number in range(300):
        pairing = scheduler.next(list(pool.values()))
        assert pairing is not None and pairing.team_a[0] == pairing.team_a[1]
        pairings.add(frozenset(pairing.versions))
        for version, entry in pool.items():  # idle counts matches since each entry last played
            idle = 0 if version in pairing.versions else entry.idle + 1
            pool[version] = Entry(version, entry.skill, entry.matches + (idle == 0), idle)
        played.update(pairing.versions)
        if pool[99].matches >= 10 and not settled_after:  # settled
            settled_after = number + 1
            pool[99] = Entry(99, Skill(27, 2.0), pool[99].matches, pool[99].idle)
    assert settled_after <= 25  # new: 10 of its first matches among the first 25 (fair share: 7)
    assert min(played.values()) >= 30  # the least recently played get their turn
    assert len(pairings) >= 15  # randomness: most of the 21 pairings occur, no clique
    assert scheduler.next([pool[99]]) is None


def test_mixed_mode_never_puts_a_version_on_both_sides() -> None:
    env = RatingEnv()
    scheduler = Scheduler(env, Mode.MIXED, random.Random(5))
    for count in (2, 3, 6):
        pool = [Entry(i, env.new(), 0, 0) for i in range(count)]
        for _ in range(100):
            pairing = scheduler.next(pool)
            assert pairing is not None and not set(pairing.team_a) & set(pairing.team_b)


def test_ladder_finds_the_true_order_and_counts_every_match_once(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    add_bots(store, ["s1", "s3", "s5", "s7"], tmp_path / "src")
    summary = make_run(store).run(StopRule(matches=60))
    assert (summary.counted, summary.requeued, summary.failed, summary.interrupted) == (60, 0, 0, False)
    with store.reading() as session:
        assert [row.bot for row in ranking(session)] == ["s7", "s5", "s3", "s1"]
        assert sum(v.matches for v in session.scalars(select(BotVersion))) == 120  # two versions a match
        assert session.scalar(select(func.count()).select_from(Match).where(Match.status == "done")) == 60
        assert session.scalar(select(func.count()).select_from(RatingChange)) == 60 * 4


def test_mixed_mode_and_until_stable(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    add_bots(store, ["s1", "s4", "s8"], tmp_path / "src")
    summary = make_run(store, Mode.MIXED, seed=2).run(StopRule(until_stable=True, window=15))
    assert summary.stable and summary.counted < 1000
    with store.reading() as session:
        assert next(row.bot for row in ranking(session)) == "s8"
        assert all(e.matches >= 10 for e in entries(session))


def test_same_seed_same_ladder(tmp_path: Path) -> None:
    """The same store (its deal-seed key) and the same ``--seed``: the same ladder. Two stores of
    the same key stand in for one store run twice."""
    results = []
    key: str | None = None
    for name in ("a", "b"):
        store = open_store(tmp_path / name)
        with store.transaction() as session:
            secret = session.get_one(StoreSecret, KEY_NAME)
            if key is None:
                key = secret.value
            secret.value = key
        add_bots(store, ["s1", "s2", "s3"], tmp_path / name / "src")
        make_run(store, seed=9).run(StopRule(matches=12))
        with store.reading() as session:
            results.append([(r.bot, r.mu, r.sigma) for r in ranking(session)])
    assert results[0] == results[1]


def die_on_first_attempt(job: MatchJob) -> MatchReport:
    if job.attempt == 1 and job.match_id == 2:
        os._exit(3)  # the worker process dies mid-match
    return fake_play(job)


def test_a_worker_that_dies_puts_its_match_back_in_the_queue(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    add_bots(store, ["s1", "s2"], tmp_path / "src")
    summary = make_run(store, play=die_on_first_attempt, factory=pool_factory(1)).run(StopRule(matches=3))
    assert summary.counted == 3 and summary.requeued == 1
    with store.reading() as session:
        second = session.get_one(Match, 2)
        assert (second.status, second.attempt) == ("done", 2)
        assert sum(v.matches for v in session.scalars(select(BotVersion))) == 6


class _Interrupt:
    """Plays two matches, then the operator presses Ctrl-C during the third."""

    def __init__(self) -> None:
        self.played = 0

    def __call__(self, job: MatchJob) -> MatchReport:
        self.played += 1
        if self.played == 3:
            raise KeyboardInterrupt
        return fake_play(job)


class _KeyboardExecutor(Executor):
    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def test_ctrl_c_stops_cleanly_with_no_match_half_counted(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    add_bots(store, ["s1", "s2", "s3"], tmp_path / "src")
    summary = make_run(store, play=_Interrupt(), factory=_KeyboardExecutor).run(StopRule(matches=10))
    assert summary.interrupted and summary.counted == 2 and summary.requeued == 1
    with store.reading() as session:
        statuses = Counter(session.scalars(select(Match.status)))
        assert statuses == {"done": 2, "queued": 1}
        assert session.scalar(select(func.count()).select_from(RatingChange)) == 8
    resumed = make_run(store).run(StopRule(matches=2))  # the queued match is played first
    assert resumed.counted == 2
    with store.reading() as session:
        assert session.get_one(Match, 3).status == "done"


def test_match_seeds_are_too_wide_to_recover_from_one_hand(tmp_path: Path) -> None:
    """A seat sees 13 cards; with 31-bit seeds it could try every seed until one deals it that
    hand, and then know every hand of the match. Seeds are 63-bit, stored as such (not clipped
    to a 32-bit column) and read back exactly."""
    store = open_store(tmp_path)
    add_bots(store, ["s1", "s3"], tmp_path / "src")
    make_run(store, seed=5).run(StopRule(matches=12))
    with store.reading() as session:
        seeds = list(session.scalars(select(Match.seed)))
    assert len(seeds) == 12 and all(0 <= s < 2**63 for s in seeds)
    assert sum(s >= 2**40 for s in seeds) >= 11  # 31-bit seeds: none; 63-bit: each with odds 1 - 2**-23
