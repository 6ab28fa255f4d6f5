"""Cluster figures: ladder matches per minute on a Dask ``LocalCluster`` against the local process
pool with the same number of slots, 1, 2, 4 and 8, in the same run.

The bots spend their move time waiting (``--wait`` seconds before each card, else the random
sample bot), so the figure measures the platform (leases, submission, results, the store),
not this machine's 2 cores. Each arm: a real store with two such bots, a real ``LadderRun``
with ``play_match_job`` and the local runner, one-deal duplicate matches (2 hands, 104 cards),
``--per-slot`` matches for each slot. The executor is started and warmed before the clock
starts (every worker process up), so each figure is the steady rate, not the start-up.

Each arm also says how long a match took as its worker timed it, how busy the slots were (the
matches' seconds over slots x the arm's seconds: a slot idles between a match's end and the
next one's start, and at the end), and where the machine's CPU went, in CPU seconds per match
(from ``/proc``, between the clock's start and the last match counted): ``coordinator`` (this
process: the ladder loop, and a local cluster's scheduler and nannies), ``workers`` (the
executor's worker processes: the referee, the job) and ``bots`` (the bot processes the workers
started and reaped).

    .venv/bin/python bench/cluster.py [--slots 1 2 4 8] [--per-slot 3] [--wait 0.2]
    .venv/bin/python bench/cluster.py --idle 15 [--slots 8]

``--idle S`` measures instead what each executor costs doing nothing: the machine's busy cores
over S seconds with the largest ``--slots`` warmed and idle, for the pool, a local cluster with
Dask's defaults for the settings ``ladder/execution/cluster.py`` changes (``WORKER_CONFIG``), and one with
the ladder's, alternating, twice.

The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Executor, wait
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.contract.time_control import MoveRelease
from bench.proc_cpu import process_cpu
from ladder.coordinator.loop import LadderRun, RunProgress, StopRule
from ladder.coordinator.queue import MatchSettings
from ladder.execution.cluster import WORKER_CONFIG, ClusterExecutor, ClusterSpec, start_cluster
from ladder.execution.executors import MatchPool
from ladder.rating.ratings import RatingEnv
from ladder.rating.scheduler import Mode, Scheduler
from ladder.store.database import Store
from ladder.store.paths import ArenaData
from ladder.submission.submit import submit

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
    import ladder.execution.jobs  # noqa: F401, PLC0415 - what a match job imports first

    time.sleep(seconds)
    return seconds


def cpu_seconds() -> dict[str, float]:
    """CPU seconds so far of this process, its child processes (the workers) and theirs they
    reaped (the bots)."""
    used = {"coordinator": 0.0, "workers": 0.0, "bots": 0.0}
    me = os.getpid()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cpu = process_cpu(entry.name)
        except OSError:  # gone meanwhile
            continue
        if int(entry.name) == me:
            used["coordinator"] += cpu.own
        elif cpu.parent == me:
            used["workers"] += cpu.own
            used["bots"] += cpu.reaped
    return used


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
         wait_seconds: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "arena"
        root.mkdir()
        store = make_store(root, wait_seconds)
        executor = make(slots)
        env = RatingEnv()
        matches = slots * per_slot
        at_end: dict[str, float] = {}
        played: list[float] = []

        def on_progress(progress: RunProgress) -> None:
            if progress.last is not None:
                played.append(progress.last.seconds)
            if progress.counted == matches:  # before the executor stops and its workers go
                at_end.update(cpu_seconds())

        run = LadderRun(store, env, Scheduler(env, Mode.SELF, random.Random(1)),
                        MatchSettings(match_format="duplicate:1", runner="local", per_move=1.0,
                                      release=MoveRelease.ON_REPLY),
                        lambda: executor, workers=slots, rng=random.Random(1), on_progress=on_progress)
        at_start = cpu_seconds()
        start = time.perf_counter()
        summary = run.run(StopRule(matches=matches))
        seconds = time.perf_counter() - start
        store.close()
    assert summary.counted == matches and summary.requeued == 0, summary
    per_minute = matches / seconds * 60
    cpu = {part: round((at_end[part] - at_start[part]) / matches, 2) for part in at_start}
    match_seconds = sum(played) / len(played)
    busy = sum(played) / (slots * seconds)
    print(f"{kind:8} {slots} slot(s): {matches} matches in {seconds:.1f} s = {per_minute:.1f} per minute; "
          f"a match {match_seconds:.1f} s, slots busy {busy:.0%}; CPU s per match: {cpu}", flush=True)
    return {"seconds": round(seconds, 2), "per_minute": round(per_minute, 2), "match_seconds": round(match_seconds, 2),
            "slots_busy": round(busy, 3), "cpu_per_match": cpu}


def busy_cores(seconds: float) -> float:
    """How many of the machine's cores were busy, on average, over the next ``seconds``."""
    def sample() -> tuple[int, int]:
        fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        idle = fields[3] + fields[4]  # idle, iowait
        return sum(fields) - idle, sum(fields)
    busy_before, total_before = sample()
    time.sleep(seconds)
    busy_after, total_after = sample()
    return (busy_after - busy_before) / (total_after - total_before) * (os.cpu_count() or 1)


def idle_costs(slots: int, seconds: float) -> dict[str, list[float]]:
    """Busy cores with each executor warmed and idle (``--idle``)."""
    import dask  # noqa: PLC0415 - the cluster extra
    import distributed  # noqa: F401, PLC0415 - its defaults join Dask's configuration on import

    ladder_config = dict(WORKER_CONFIG)
    dask_defaults = {key: dask.config.get(key) for key in ladder_config}
    arms: dict[str, Callable[[], Executor]] = {
        "pool": lambda: warmed_pool(slots),
        "cluster_dask_defaults": lambda: configured_cluster(dask_defaults, slots),
        "cluster_ladder_config": lambda: configured_cluster(ladder_config, slots),
    }
    costs: dict[str, list[float]] = {name: [] for name in arms}
    for _ in range(2):
        for name, make in arms.items():
            executor = make()
            costs[name].append(round(busy_cores(seconds), 3))
            executor.shutdown()
            print(f"{name}: {costs[name][-1]} cores busy while idle", flush=True)
    WORKER_CONFIG.update(ladder_config)
    return costs


def configured_cluster(config: dict[str, Any], slots: int) -> Executor:
    WORKER_CONFIG.update(config)  # what start_cluster applies (quiet_dask)
    return warmed_cluster(slots)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slots", type=int, nargs="+", default=[1, 2, 4, 8])
    parser.add_argument("--per-slot", type=int, default=3)
    parser.add_argument("--wait", type=float, default=0.2)
    parser.add_argument("--idle", type=float, default=None)
    args = parser.parse_args()
    if args.idle is not None:
        print(json.dumps({"idle_seconds": args.idle, "slots": max(args.slots),
                          "busy_cores": idle_costs(max(args.slots), args.idle)}))
        return
    results: dict[str, dict[str, dict[str, Any]]] = {"pool": {}, "cluster": {}}
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
