"""Several ``dehla ladder run`` processes on one PostgreSQL store, as operators run them: at once,
beside one with a match in play, and after one was killed outright (its leases expire, another
coordinator sweeps them back and plays them). After each: the store invariants of a Ctrl-C
(``check_store_is_consistent``), every match counted once, no bot process left.

On the code before leases (one coordinator per data folder, and a starting run that put every
``running`` match back in the queue) the second coordinator is refused, or takes the first's
match from under it: each test here fails there. SQLite keeps refusing a second coordinator
(``test_ladder_coordinator.py``).
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import select as query

from ladder.store.schema import Match, MatchFile, MatchStatus
from tests.coordinator_helpers import (
    FAST,
    SLOW_CLOCK,
    bot_processes_under,
    clean_env,
    descendants,
    stalled_run,
    wait_all_exit,
)
from tests.database import POSTGRES, database_url
from tests.ladder_helpers import add_random_bots, check_store_is_consistent, run_out_leases, running, store_at

pytestmark = pytest.mark.skipif(not POSTGRES, reason="several coordinators share only a PostgreSQL store")

RUN_OPTIONS = {"pool": ["--workers", "2"], "cluster": ["--cluster", "local:2"]}
"""How the runs play their matches: a process pool each, or a LocalCluster each."""
SHORT_LEASE = ("--lease-seconds", "2")
COUNTED = re.compile(r"(\d+) matches counted")


def dehla_run(data: Path, *args: str, extra_env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "arena", "ladder", "run", *args, "--data", str(data)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**clean_env(data), **(extra_env or {})})


def finished(run: subprocess.Popen[str]) -> int:
    """The run's exit code 0 and the matches it says it counted."""
    _, err = run.communicate(timeout=180)
    assert run.returncode == 0, err[-3000:]
    found = COUNTED.search(err)
    assert found, err[-3000:]
    return int(found.group(1))


def counted_matches(data: Path) -> list[Match]:
    matches = check_store_is_consistent(data)
    return [m for m in matches if m.status in (MatchStatus.DONE.value, MatchStatus.VOID.value)]


def all_matches(data: Path) -> dict[int, Match]:
    store = store_at(data)
    try:
        with store.reading() as session:
            return {m.id: m for m in session.scalars(query(Match))}
    finally:
        store.close()


@pytest.mark.parametrize("executor", sorted(RUN_OPTIONS))
def test_two_coordinators_at_once_on_one_store_count_every_match_once(tmp_path: Path, executor: str) -> None:
    data = tmp_path / "arena"
    add_random_bots(data, ["r1", "r2", "r3"])
    options = (*RUN_OPTIONS[executor], *FAST, *SHORT_LEASE)
    first = dehla_run(data, "--matches", "2", "--seed", "1", *options)
    second = dehla_run(data, "--matches", "2", "--seed", "2", *options)
    counted = finished(first) + finished(second)
    assert counted == 4
    done = counted_matches(data)  # nothing running, ratings moved once per counted match
    assert len(done) == counted and all(m.lease_owner is None for m in done)
    assert bot_processes_under(data.resolve()) == []


def test_coordinators_on_two_machines_share_only_the_store(tmp_path: Path) -> None:
    """Two coordinators as on two machines: each its own data folder and version cache, one
    PostgreSQL store. The second folder has never seen a bot: its workers fetch every version's
    archive from the store by content hash, and every match's record lands in the store."""
    data = tmp_path / "arena"
    add_random_bots(data, ["r1", "r2", "r3"])
    store_env = {"DEHLA_DATABASE_URL": database_url(data.resolve())}
    other = tmp_path / "elsewhere"
    other.mkdir()
    options = (*RUN_OPTIONS["pool"], *FAST, *SHORT_LEASE)
    first = dehla_run(data, "--matches", "2", "--seed", "1", *options,
                      extra_env={**store_env, "DEHLA_CACHE": str(tmp_path / "cache-a")})
    second = dehla_run(other, "--matches", "2", "--seed", "2", *options,
                       extra_env={**store_env, "DEHLA_CACHE": str(tmp_path / "cache-b")})
    assert finished(first) + finished(second) == 4
    assert not (other / "bots").exists()  # nothing of a bot came through the second folder
    assert sorted(p.name for p in (tmp_path / "cache-b").iterdir())  # the versions it fetched
    done = counted_matches(data)
    assert len(done) == 4
    store = store_at(data)
    try:
        with store.reading() as session:
            owners = set(session.scalars(query(MatchFile.match_id)))
    finally:
        store.close()
    assert owners == {m.id for m in done}  # each counted match's record is in the store
    assert bot_processes_under(data.resolve()) == [] and bot_processes_under(other.resolve()) == []


@pytest.mark.alone("B must run to its end while A's lease still holds: a race on the real clock")
def test_a_coordinator_killed_on_a_shared_store_leaves_its_matches_to_the_next(tmp_path: Path) -> None:
    """A has a match in play (its staller never answers). B runs beside it to the end without
    taking it: A renews its lease as B's own run outlasts it. A is killed outright; once its
    lease has run out, C sweeps A's matches back to the queue and plays them (attempt 2)."""
    with stalled_run(tmp_path, "--matches", "50", *SHORT_LEASE) as (first, _, data):
        held = running(data)
        owner = next(iter(held.values())).lease_owner
        assert owner is not None and all(m.lease_owner == owner for m in held.values())
        stall_env = {"DEHLA_TEST_STALL": str(tmp_path / "stall")}
        beside = dehla_run(data, "--matches", "1", "--workers", "1", *SLOW_CLOCK, *SHORT_LEASE, extra_env=stall_env)
        assert finished(beside) == 1
        now = all_matches(data)  # A's matches stayed A's (attempt 1): B neither swept nor took them
        assert all(now[i].attempt == 1 for i in held), {i: now[i].attempt for i in held}
        still = [i for i in held if now[i].status == MatchStatus.RUNNING.value]
        assert still, "the stalled match ended while B ran"
        for i in still:  # renewed by A while B ran (B's lease of 2 s would have swept them otherwise)
            before, after = held[i].lease_until, now[i].lease_until
            assert now[i].lease_owner == owner and before is not None and after is not None and after > before
        tree = list(descendants(first.pid))
        first.send_signal(signal.SIGKILL)  # the coordinator only: none of its clean-up runs
        first.wait(timeout=30)
        assert wait_all_exit(tree, 30) == []  # its workers and bots die with it
        left = running(data)
        assert set(left) == {m.id for m in left.values() if m.lease_owner == owner}  # A's, still leased
        run_out_leases(data, left, owner)
        next_run = dehla_run(data, "--matches", str(len(left)), "--workers", "1", *SLOW_CLOCK, *SHORT_LEASE,
                             extra_env=stall_env)
        assert finished(next_run) == len(left)
    done = {m.id: m for m in counted_matches(data)}  # and nothing is running any more
    assert set(left) <= set(done)
    assert all(done[i].attempt == 2 for i in left), {i: done[i].attempt for i in left}
    assert bot_processes_under(data.resolve()) == []
