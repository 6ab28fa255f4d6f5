"""Container cost: one whole match with the four bots in podman containers against the same
match in the bubblewrap sandbox (the baseline, in the same run).

Each round plays the match once with each runner, the order alternating round by round (this
machine is shared and noisy): four random sample bots, ``duplicate:1`` (two hands), the
ladder's clocks, started as the referee starts them (``play_local_match``). The containers run
on the arena's base image (``python tools/build_base_image.py`` first). Run as root:
``python bench/containers.py [--rounds R]``. Progress on stderr; the table and, last, one JSON
object on stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.contract.faults import FaultPolicy
from arena.contract.time_control import TimeControl
from arena.engine.match import MatchFormat
from arena.engine.rules import rules_for
from arena.referee.launcher import resolve_bot
from arena.referee.local import play_local_match
from arena.referee.table_values import TableConfig
from arena.sandbox import Runner, runner_for
from arena.sandbox.containers import ContainerConfig, ContainerRunner, Engine


def one_match(runner: Runner, seed: int) -> float:
    config = TableConfig(f"bench-{seed}", rules_for("dehla-pakad"), "dehla-pakad", MatchFormat.parse("duplicate:1"),
                         seed, TimeControl(startup=60.0), FaultPolicy.FORFEIT)
    bot = resolve_bot("random")
    with tempfile.TemporaryDirectory(prefix="dehla-bench-") as records:
        start = time.perf_counter()
        outcome = asyncio.run(play_local_match((bot, bot), (bot, bot), config, Path(records), None, runner))
        took = time.perf_counter() - start
    if outcome.status != "done" or outcome.faults:
        raise SystemExit(f"error: the match did not end cleanly: {outcome.status} {outcome.faults}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    runners: dict[str, Runner] = {"sandbox": runner_for("sandbox"),
                                  "podman": ContainerRunner(ContainerConfig(Engine.PODMAN))}
    for runner in runners.values():
        runner.check()
    times: dict[str, list[float]] = {name: [] for name in runners}
    for round_ in range(args.rounds):
        order = list(runners) if round_ % 2 == 0 else list(reversed(runners))
        for name in order:
            times[name].append(one_match(runners[name], 100 + round_))
            print(f"round {round_ + 1}: {name} {times[name][-1]:.2f} s", file=sys.stderr, flush=True)
    medians = {name: statistics.median(values) for name, values in times.items()}
    print(f"{'runner':<8} {'median s':>9} {'min s':>7} {'max s':>7}")
    for name, values in times.items():
        print(f"{name:<8} {medians[name]:>9.2f} {min(values):>7.2f} {max(values):>7.2f}")
    print(json.dumps({"rounds": args.rounds, "match": "4 random bots, duplicate:1",
                      "median_s": {k: round(v, 2) for k, v in medians.items()},
                      "podman_over_sandbox": round(medians["podman"] / medians["sandbox"], 2)}))


if __name__ == "__main__":
    main()
