"""``dehla tournament``'s pairings at once against one at a time: the wall time of one round robin.

Arms, alternating, ``--runs`` each: ``concurrency-1`` (the baseline: one pairing at a time) and
``concurrency-K`` (``--concurrency K``, default the number of cores). Each run is the command as a
user runs it (``python -m arena tournament``, a new data folder each time), sample bots at
``--per-move`` seconds, ``--deals`` deal pairs per pairing. Wall seconds and the CPU seconds of
the command and its bots (``RUSAGE_CHILDREN``) are printed per arm, mean and best.

    nice -n 19 .venv/bin/python bench/tournament.py [--runs 2] [--deals 2] [--concurrency 2]

The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
BOTS = ("random", "heuristic", "random+heuristic", "heuristic+random")


def run_once(concurrency: int, deals: int, per_move: float) -> tuple[float, float]:
    """One tournament: (wall seconds, CPU seconds of the command and everything it started)."""
    with tempfile.TemporaryDirectory(prefix="bench-tournament-") as data:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "arena", "tournament", *BOTS, "--deals", str(deals),
                               "--per-move", str(per_move), "--concurrency", str(concurrency), "--data", data,
                               "--json"], capture_output=True, text=True, cwd=HERE, check=False)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0 or not json.loads(done.stdout)["complete"]:
        raise SystemExit(f"tournament failed: {done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--per-move", type=float, default=0.05)
    parser.add_argument("--concurrency", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    arms = {"concurrency-1": 1, f"concurrency-{args.concurrency}": args.concurrency}
    walls: dict[str, list[float]] = {arm: [] for arm in arms}
    cpus: dict[str, list[float]] = {arm: [] for arm in arms}
    for run in range(args.runs):
        for arm, concurrency in arms.items():
            wall, cpu = run_once(concurrency, args.deals, args.per_move)
            walls[arm].append(wall)
            cpus[arm].append(cpu)
            print(f"run {run + 1} {arm}: {wall:.2f} s wall, {cpu:.2f} s CPU", flush=True)
    summary = {arm: {"wall_mean": round(statistics.fmean(walls[arm]), 3), "wall_best": round(min(walls[arm]), 3),
                     "cpu_mean": round(statistics.fmean(cpus[arm]), 3)} for arm in arms}
    baseline, parallel = (summary[arm]["wall_mean"] for arm in arms)
    print(json.dumps({"bench": "tournament", "pairings": len(BOTS) * (len(BOTS) - 1) // 2, "deals": args.deals,
                      "per_move": args.per_move, "runs": args.runs, "cores": os.cpu_count(), "arms": summary,
                      "speedup": round(baseline / parallel, 3)}))


if __name__ == "__main__":
    main()
