"""Cluster figures: ladder matches per minute on a Dask ``LocalCluster`` against the local process
pool with the same number of slots, 1, 2, 4 and 8, in the same run.

The bots spend their move time waiting (``--wait`` seconds before each card, else the random
sample bot), so the figure measures the platform (leases, submission, results, the store),
not this machine's 2 cores. Each arm: a real store with two such bots, a real ``LadderRun``
with ``play_match_job`` and the local runner, one-deal duplicate matches (2 hands, 104 cards),
``--per-slot`` matches for each slot. The executor is started and warmed before the clock
starts (every worker process up), so each figure is the steady rate, not the start-up.

    .venv/bin/python bench/cluster.py [--slots 1 2 4 8] [--per-slot 3] [--wait 0.2]

The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Executor, wait
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ladder.cluster import ClusterExecutor, ClusterSpec, start_cluster
from ladder.executors import MatchPool
from ladder.loop import LadderRun, StopRule
from ladder.paths import ArenaData
from ladder.queue import MatchSettings
from ladder.ratings import RatingEnv
from ladder.scheduler import Mode, Scheduler
from ladder.store import Store
from ladder.submit import submit

WAITER = '''
import time

from sample_bots.random.bot import RandomBot
from sdk.server import run


class Waiter(RandomBot):
    """The random bot, after waiting {wait} s: its move time spent, not the machine's cores."""

    def play(self, view):
        time.sleep({wait})
        return super().play(view)


run(Waiter())
'''


def no_validation(*_: object) -> None:
    return None


def make_store(root: Path, wait_seconds: float) -> Store:
    store = Store.open(ArenaData(root, f"sqlite:///{root / 'ladder.db'}"))
    for name in ("w1", "w2"):
        folder = root.parent / "sources" / name
        folder.mkdir(parents=True)
        (folder / "bot.toml").write_text(f'name = "{name}"\nversion = "1"\nauthor = "bench"\n'
                                         'command = ["python", "bot.py"]\n')
        (folder / "bot.py").write_text(WAITER.format(wait=wait_seconds))
        submit(store, RatingEnv(), folder, "local", no_validation)
    return store


def pause(seconds: float) -> float:
    """A job that only waits: warms a worker (its process started, the ladder imported)."""
    import ladder.jobs  # noqa: F401, PLC0415 - what a match job imports first

    time.sleep(seconds)
    return seconds


def warmed_pool(slots: int) -> Executor:
    pool = MatchPool(slots)
    wait([pool.submit(pause, 0.5) for _ in range(slots)])
    return pool


def warmed_cluster(slots: int) -> Executor:
    executor = start_cluster(ClusterSpec(local_slots=slots), {})
    assert isinstance(executor, ClusterExecutor)
    wait([executor.submit(pause, 0.5) for _ in range(slots)])
    return executor


def rate(kind: str, make: Callable[[int], Executor], slots: int, per_slot: int,
         wait_seconds: float) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "arena"
        root.mkdir()
        store = make_store(root, wait_seconds)
        executor = make(slots)
        env = RatingEnv()
        run = LadderRun(store, env, Scheduler(env, Mode.SELF, random.Random(1)),
                        MatchSettings(match_format="duplicate:1", runner="local", per_move=1.0),
                        lambda: executor, workers=slots, rng=random.Random(1))
        matches = slots * per_slot
        start = time.perf_counter()
        summary = run.run(StopRule(matches=matches))
        seconds = time.perf_counter() - start
        store.close()
    assert summary.counted == matches and summary.requeued == 0, summary
    per_minute = matches / seconds * 60
    print(f"{kind:8} {slots} slot(s): {matches} matches in {seconds:.1f} s = {per_minute:.1f} per minute", flush=True)
    return {"seconds": round(seconds, 2), "per_minute": round(per_minute, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slots", type=int, nargs="+", default=[1, 2, 4, 8])
    parser.add_argument("--per-slot", type=int, default=3)
    parser.add_argument("--wait", type=float, default=0.2)
    args = parser.parse_args()
    results: dict[str, dict[str, dict[str, float]]] = {"pool": {}, "cluster": {}}
    for slots in args.slots:
        results["pool"][str(slots)] = rate("pool", warmed_pool, slots, args.per_slot, args.wait)
        results["cluster"][str(slots)] = rate("cluster", warmed_cluster, slots, args.per_slot, args.wait)
    low, high = str(min(args.slots)), str(max(args.slots))
    summary = {
        "wait_per_move": args.wait, "per_slot": args.per_slot, **results,
        "cluster_speedup": round(results["cluster"][high]["per_minute"] / results["cluster"][low]["per_minute"], 2),
        "pool_speedup": round(results["pool"][high]["per_minute"] / results["pool"][low]["per_minute"], 2),
        "cluster_vs_pool": {s: round(results["cluster"][s]["per_minute"] / results["pool"][s]["per_minute"], 3)
                            for s in results["pool"]},
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
