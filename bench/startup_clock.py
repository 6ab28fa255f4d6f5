"""The sample bots' start-up against the start-up clock, under every runner available here.

For each sample bot (``random``, the baseline; ``heuristic``; ``search``; ``expert`` at each
``--level``) and each runner (``local``, the bubblewrap ``sandbox``, a ``container`` under
podman on the arena's base image), the wall seconds from the launch to StartMatch answered,
through the referee's own path (``arena.referee.startup_probe``: ``BotProcess`` and
``GrpcSeat.start``, as a table starts a seat), and their ratio to the start-up clock
(``TimeControl.startup``, 10 s by default, which the ladder uses):

- ``alone``: one bot at a time, ``--runs`` starts each, bots and runners interleaved so that the
  machine's drift spreads over all of them;
- ``crowd``: ``--crowd`` seats of one bot started at once (8: a duplicate match's two rooms,
  which the ladder starts together), ``--crowd-rounds`` times per bot in ``--crowd-bots`` and runner;
  the slowest seat is what the clock must hold;
- ``runner``: the runner's own part of a crowd, ``--crowd`` launches of ``/bin/true`` at once
  (no interpreter, no bot: the sandbox chain or ``podman run``), to its exit, once per crowd
  round.

Bots are timed against a clock of ``--measure-clock`` seconds (60), so a slow start is measured
rather than cut off, and the ratio is to ``--clock`` (10). The base image is built first when
its inputs changed (``ladder.versions.base_image``), so the containers run this tree's code. Run
as root, under ``nice -n 19`` on a shared machine:

    .venv/bin/python bench/startup_clock.py [--runs 3] [--crowd 8] [--runners local sandbox container]

Progress on stderr; the table, then one JSON object as the last line, on stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
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
from arena.referee.launcher import BotCommand, resolve_bot
from arena.referee.startup_probe import StartTiming, start_seats
from arena.referee.table_values import TableConfig
from arena.sandbox import Limits, LocalRunner, Program, Runner, SandboxUnavailable, runner_for
from arena.sandbox.containers import ContainerConfig, ContainerRunner, Engine
from sample_bots.expert.levels import Level

RUNNERS = ("local", "sandbox", "container")
PODMAN = ContainerConfig(Engine.PODMAN)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def sample_bots() -> dict[str, BotCommand]:
    """The bots by label: the three plain samples, then the expert at each level."""
    bots = {name: resolve_bot(name) for name in ("random", "heuristic", "search")}
    for level in Level:
        bots[f"expert-{int(level)}"] = BotCommand(
            "expert", (sys.executable, "-m", "sample_bots.expert", "--level", str(int(level))))
    return bots


def available_runners(names: list[str], build_image: bool) -> tuple[dict[str, Runner], dict[str, str]]:
    """The runners that can start bots here, and why each other cannot."""
    runners: dict[str, Runner] = {}
    missing: dict[str, str] = {}
    for name in names:
        runner: Runner = LocalRunner() if name == "local" else \
            ContainerRunner(PODMAN) if name == "container" else runner_for(name)
        try:
            if name == "container" and build_image:
                from ladder.versions.base_image import build_base_image  # noqa: PLC0415 - only for containers

                built = build_base_image(PODMAN)
                log(f"base image {built.image}: {'built' if built.built else 'current'} ({built.seconds:.1f} s)")
            runner.check()
        except SandboxUnavailable as exc:
            missing[name] = str(exc)
            continue
        runners[name] = runner
    return runners, missing


def table_config(control: TimeControl) -> TableConfig:
    return TableConfig("startup-clock", rules_for("dehla-pakad"), "dehla-pakad", MatchFormat.parse("duplicate:1"),
                       1, control, FaultPolicy.FORFEIT)


def timed(commands: list[BotCommand], runner: Runner, config: TableConfig) -> list[StartTiming]:
    folder = Path(tempfile.mkdtemp(prefix="dh-"))
    try:
        timings = asyncio.run(start_seats(commands, runner, config, folder))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    for timing in timings:
        if timing.fault is not None:
            raise SystemExit(f"error: {commands[0].argv[-3:]} failed to start: {timing.fault.detail}\n"
                             f"{timing.log_tail}")
    return timings


async def _spawn_true(runner: Runner, folder: Path, number: int) -> float:
    (folder / f"s{number}").mkdir()
    launch = runner.prepare(Program(("/bin/true",)), f"unix:{folder}/s{number}/bot.sock", Limits())
    began = time.perf_counter()
    try:
        process = await asyncio.create_subprocess_exec(*launch.argv, env=launch.env, cwd=launch.cwd,
                                                       pass_fds=launch.pass_fds, stdout=asyncio.subprocess.DEVNULL,
                                                       stderr=asyncio.subprocess.DEVNULL, start_new_session=True)
    except BaseException:
        launch.abandon()
        raise
    launch.started(process.pid)
    await process.wait()
    took = time.perf_counter() - began
    await launch.finish()
    return took


def runner_crowd(runner: Runner, size: int) -> float:
    """The slowest of ``size`` launches of ``/bin/true`` at once by ``runner``, to its exit."""
    folder = Path(tempfile.mkdtemp(prefix="dh-"))

    async def crowd() -> list[float]:
        return list(await asyncio.gather(*(_spawn_true(runner, folder, n) for n in range(size))))

    try:
        return max(asyncio.run(crowd()))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="starts of each bot alone, per runner")
    parser.add_argument("--crowd", type=int, default=8, help="seats started at once in the crowd arm (0: none)")
    parser.add_argument("--crowd-bots", nargs="*", default=["random", "expert-5"])
    parser.add_argument("--crowd-rounds", type=int, default=2, help="crowds of each bot, per runner")
    parser.add_argument("--runners", nargs="*", default=list(RUNNERS), choices=RUNNERS)
    parser.add_argument("--bots", nargs="*", default=None, help="labels (default: all)")
    parser.add_argument("--clock", type=float, default=TimeControl().startup, help="the start-up clock judged against")
    parser.add_argument("--measure-clock", type=float, default=60.0, help="the clock the bots start under here")
    parser.add_argument("--no-build", action="store_true", help="use the base image as it is")
    args = parser.parse_args()
    bots = sample_bots()
    labels = args.bots or list(bots)
    runners, missing = available_runners(args.runners, not args.no_build)
    for name, why in missing.items():
        log(f"runner {name} skipped: {why}")
    config = table_config(TimeControl(startup=args.measure_clock))
    load_before = os.getloadavg()
    alone: dict[str, dict[str, list[float]]] = {r: {b: [] for b in labels} for r in runners}
    for run in range(args.runs):
        order = labels if run % 2 == 0 else labels[::-1]
        for label in order:
            for runner_name in (runners if run % 2 == 0 else list(runners)[::-1]):
                [timing] = timed([bots[label]], runners[runner_name], config)
                alone[runner_name][label].append(timing.seconds)
                log(f"run {run} {label:>10} {runner_name:>9}: {timing.seconds:.3f} s")
    crowd: dict[str, dict[str, list[float]]] = {r: {} for r in runners}
    """Per runner and bot: each round's slowest seat."""
    for round_ in range(args.crowd_rounds if args.crowd else 0):
        for label in args.crowd_bots:
            for runner_name in (runners if round_ % 2 == 0 else list(runners)[::-1]):
                began = time.perf_counter()
                timings = timed([bots[label]] * args.crowd, runners[runner_name], config)
                slowest = max(t.seconds for t in timings)
                crowd[runner_name].setdefault(label, []).append(slowest)
                log(f"crowd of {args.crowd} {label:>10} {runner_name:>9}: slowest {slowest:.3f} s"
                    f" (all started and stopped in {time.perf_counter() - began:.1f} s)")
        for runner_name in (runners if round_ % 2 == 0 else list(runners)[::-1]):
            slowest = runner_crowd(runners[runner_name], args.crowd)
            crowd[runner_name].setdefault("runner only", []).append(slowest)
            log(f"crowd of {args.crowd} /bin/true {runner_name:>9}: slowest {slowest:.3f} s")
    load_after = os.getloadavg()
    result = report(alone, crowd, args.clock, args.crowd)
    result.update({"bench": "startup_clock", "runs": args.runs, "clock_s": args.clock,
                   "load_1min": [round(load_before[0], 2), round(load_after[0], 2)], "skipped": missing})
    print(json.dumps(result))


def report(alone: dict[str, dict[str, list[float]]], crowd: dict[str, dict[str, list[float]]], clock: float,
           crowd_size: int) -> dict[str, object]:
    """Print the table (median and slowest start, the slowest's share of the clock) and return
    the figures for the JSON line."""
    figures: dict[str, dict[str, object]] = {}
    ratios: list[float] = []
    print(f"| bot | runner | alone: median s | alone: max s | max / clock ({clock:g} s) "
          f"| crowd of {crowd_size}: slowest s, each round | slowest / clock |")
    print("|---|---|---|---|---|---|---|")
    for runner_name, by_bot in alone.items():
        for label in dict.fromkeys([*by_bot, *crowd.get(runner_name, {})]):
            samples = by_bot.get(label, [])
            crowded = crowd.get(runner_name, {}).get(label, [])
            if not samples and not crowded:
                continue
            row: dict[str, object] = {}
            cells = ["", "", ""]
            if samples:
                row = {"median_s": round(statistics.median(samples), 3), "max_s": round(max(samples), 3),
                       "max_ratio": round(max(samples) / clock, 3)}
                cells = [f"{statistics.median(samples):.2f}", f"{max(samples):.2f}", f"{max(samples) / clock:.2f}"]
                ratios.append(max(samples) / clock)
            if crowded:
                row.update({"crowd_slowest_s": [round(s, 3) for s in crowded],
                            "crowd_ratio": round(max(crowded) / clock, 3)})
                cells += [", ".join(f"{s:.2f}" for s in crowded), f"{max(crowded) / clock:.2f}"]
                ratios.append(max(crowded) / clock)
            else:
                cells += ["", ""]
            figures[f"{label}/{runner_name}"] = row
            print(f"| {label} | {runner_name} | {' | '.join(cells)} |")
    return {"starts": figures, "worst_ratio": round(max(ratios), 3) if ratios else None}


if __name__ == "__main__":
    main()
