"""Cold compile of the batched engine's kernels: what a fresh clone (CI) pays before its first hand.

Each run is a child process with an empty ``NUMBA_CACHE_DIR`` that drives the kernels the tests
drive (``BatchTables`` and ``BiddingBatchTables``: reset, the checked step, random actions, the
random and keyed steps, the masks; the vector environments' encoders and opponents), timed by
numba's compile events: CPU seconds per function (a callee compiled separately counts in its
own line and again in its caller's, so only the total adds up) and the number of compiles (a
function compiled more than once got arguments of more than one type). ``--old DIR`` runs a
checkout of earlier code (e.g. ``git worktree add /tmp/old f77d8e2``), alternating with this one.

Run: ``python bench/batch_compile.py [--old DIR] [--rounds R]``; the last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent


def _workload() -> None:
    """Every kernel the tests reach, once per signature the tests use (imported here: after the
    listener, and from the checkout the child runs)."""
    import numpy as np  # noqa: PLC0415

    from arena.batch import BatchTables  # noqa: PLC0415
    from arena.batch.bidding_tables import BiddingBatchTables  # noqa: PLC0415
    from sdk.learn.vector import vector_env  # noqa: PLC0415

    tables = BatchTables.of_preset("dehla-pakad", 8)
    tables.reset(list(range(8)))
    tables.step(tables.random_actions(tables.keyed_uniforms(0)))
    tables.step_random(np.full(8, 0.5))
    while not tables.over.all():
        tables.step_keyed(1)
    tables.legal_mask()
    tables.reveal_allowed()
    tables.down_allowed()
    bidding = BiddingBatchTables.of_preset("twenty-eight", 8)
    bidding.reset(list(range(8)))
    bidding.step(bidding.random_actions(bidding.keyed_uniforms(0)))
    bidding.step_random(np.full(8, 0.5))
    while not bidding.over.all():
        bidding.step_keyed(1)
    bidding.legal_mask()
    bidding.call_options()
    for preset in ("dehla-pakad", "twenty-eight"):
        env = vector_env(4, preset)
        observations, _ = env.reset(seed=0)
        env.step(np.argmax(observations["action_mask"], axis=1))


def child() -> None:
    """One cold run: per-function compile CPU-s and the total, as JSON on stdout."""
    from numba.core import event  # noqa: PLC0415  (the parent needs no numba)

    times: dict[str, float] = {}
    compiles: dict[str, int] = {}
    started: dict[int, float] = {}

    class Listener(event.Listener):
        def on_start(self, ev: Any) -> None:
            started[id(ev.data["dispatcher"])] = time.process_time()

        def on_end(self, ev: Any) -> None:
            dispatcher = ev.data["dispatcher"]
            name = f"{dispatcher.py_func.__module__.split('.')[-1]}.{dispatcher.py_func.__name__}"
            spent = time.process_time() - started.pop(id(dispatcher), time.process_time())
            times[name] = times.get(name, 0.0) + spent
            compiles[name] = compiles.get(name, 0) + 1

    event.register("numba:compile", Listener())  # type: ignore[no-untyped-call]
    begin = time.process_time()
    _workload()
    total = time.process_time() - begin
    print(json.dumps({"total_cpu_s": round(total, 2), "functions": {k: round(v, 2) for k, v in times.items()},
                      "compiles": sum(compiles.values()),
                      "recompiled": {k: n for k, n in compiles.items() if n > 1}}))


def run(source: Path) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(source))
        out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child"], cwd=source, env=env,
                             capture_output=True, text=True, check=True).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--old", type=Path, help="a checkout of earlier code to compare with")
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    if args.child:
        child()
        return
    sources = {"new": HERE} | ({"old": args.old.resolve()} if args.old else {})
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in sources}
    for _ in range(args.rounds):
        for name, source in sources.items():
            runs[name].append(run(source))
    summary: dict[str, Any] = {}
    for name, results in runs.items():
        best = min(results, key=lambda r: r["total_cpu_s"])
        top = sorted(best["functions"].items(), key=lambda kv: -kv[1])[:12]
        print(f"{name}: cold compile {best['total_cpu_s']:.1f} CPU-s (best of {len(results)})")
        for function, seconds in top:
            print(f"    {function:45s} {seconds:6.2f}")
        print(f"    {best['compiles']} compiles; more than one signature: {best['recompiled'] or 'none'}")
        summary[name] = {"total_cpu_s": best["total_cpu_s"], "top": dict(top), "compiles": best["compiles"],
                         "all_totals": [r["total_cpu_s"] for r in results]}
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
