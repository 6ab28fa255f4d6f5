"""Chaos on a real cluster: ``dehla ladder run --cluster local:2`` as users run it, with real bots.

A bot (``staller``, from the coordinator tests) tells the test through a FIFO when its first
copy plays a card, then never answers: from then on a match is certainly in play on a Dask
worker process, its bots alive. Then a worker, or the coordinator itself, is SIGKILLed.
After each: no bot or Dask process left behind, and the store invariants of a Ctrl-C
(``check_store_is_consistent``): nothing running, rating changes for exactly the done
matches, counters equal to the history; the lost match played again and counted once.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.cluster_helpers import CLUSTER, parent_of, replayed_once, stalled_cluster_run
from tests.coordinator_helpers import SLOW_CLOCK, clean_env, descendants, wait_all_exit
from tests.ladder_helpers import run_out_leases, running


def test_a_worker_killed_mid_match_takes_its_bots_and_the_run_replays_the_match(tmp_path: Path) -> None:
    with stalled_cluster_run(tmp_path, "--matches", "3") as (run, staller, data):
        worker = parent_of(staller)  # the bot runs below the Dask worker process playing the match
        assert worker in descendants(run.pid) and worker != run.pid
        assert b"multiprocessing" in (Path("/proc") / str(worker) / "cmdline").read_bytes()
        os.kill(worker, signal.SIGKILL)
        assert wait_all_exit([staller], 30) == [], "the stalled bot outlived its worker"
        code = run.wait(timeout=240)
        log = (tmp_path / "run.log").read_text()
        assert code == 0, log[-3000:]
        rest = descendants(run.pid)
    assert rest == {}
    assert "3 matches counted (0 void), 1 back in the queue, 0 failed" in log, log[-3000:]
    assert "Traceback" not in log, log[-3000:]
    done = replayed_once(data)
    assert len(done) == 3


def test_a_killed_coordinator_takes_its_cluster_along_and_the_next_run_replays_the_match(tmp_path: Path) -> None:
    with stalled_cluster_run(tmp_path, "--matches", "50") as (run, staller, data):
        tree = descendants(run.pid)
        assert staller in tree, tree
        workers = [pid for pid, line in tree.items() if "multiprocessing" in line and "resource_tracker" not in line]
        assert len(workers) == 2, tree
        run.send_signal(signal.SIGKILL)  # the coordinator only: the scheduler, nannies and client die with it
        run.wait(timeout=30)
        alive = wait_all_exit(list(tree), 30)
        assert alive == [], {pid: tree[pid] for pid in alive}
    left = running(data)  # on PostgreSQL the next run takes them back once their leases end
    assert left
    run_out_leases(data, left, next(iter(left.values())).lease_owner)
    again = subprocess.run([sys.executable, "-m", "arena", "ladder", "run", "--matches", "2", *CLUSTER,
                            *SLOW_CLOCK, "--data", str(data)], capture_output=True, text=True, timeout=240,
                           check=False, env={**clean_env(data), "DEHLA_TEST_STALL": str(tmp_path / "stall")})
    assert again.returncode == 0, again.stderr[-3000:]
    assert "Traceback" not in again.stderr, again.stderr[-3000:]
    replayed_once(data)
    assert not (data / "matches").exists()  # nothing of a match under the data folder: its files are in the store
