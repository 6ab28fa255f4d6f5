"""Sandbox cost: bot start-up and the decision round trip, sandbox runner against local runner.

Both runners start the random sample bot exactly as the referee does (``BotProcess`` plus
``GrpcSeat``), alternating which goes first round by round because this machine is noisy:

- start-up: from ``BotProcess.start()`` to the first SERVING answer of the bot's health
  service (what the referee waits for before StartMatch), and to StartMatch answered; taken
  in pairs (one start with each runner, back to back, the order alternating), so the paired
  difference cancels most of the machine's drift;
- spawn: the runner's own cost, running ``/usr/bin/true`` instead of a bot (a local
  subprocess against the whole sandbox chain: namespaces, mounts, cgroups, uid drop);
- decision round trip: with one bot of each runner up, ``--calls`` Decide calls through
  ``GrpcSeat.decide`` (the referee's own path: encode, call, decode), alternating between the
  two bots call by call, on a mid-hand play decision.

Run as root: ``python bench/sandbox.py [--rounds R] [--starts S] [--calls N]``. Progress goes to stderr; the
table to stdout; the last line on stdout is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench.positions, run as a script

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from arena.contract.messages import DecisionRequest, MatchStart
from arena.contract.time_control import TimeControl
from arena.engine.match import MatchFormat
from arena.engine.rules import rules_for
from arena.referee.grpc_seat import CHANNEL_OPTIONS, GrpcSeat
from arena.referee.launcher import BotProcess, resolve_bot
from arena.sandbox import Limits, Program, Runner, runner_for
from bench.positions import mid_hand_request

STARTUP_TARGET = 0.5
"""Seconds the sandbox may add to a bot's start-up."""
DECIDE_TARGET = 1.10
"""The sandbox's decision round trip may be at most 10% above local."""
RULES = rules_for("dehla-pakad")
CONTROL = TimeControl(per_move=5.0, bank=0.0, startup=60.0)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


async def healthy(address: str) -> None:
    """Wait for SERVING as the referee does: its channel options (reconnects every 20-100 ms)."""
    async with grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        request = health_pb2.HealthCheckRequest(service="")
        while True:
            reply = await stub.Check(request, wait_for_ready=True, timeout=60)
            if reply.status == health_pb2.HealthCheckResponse.SERVING:
                return


class Bot:
    """One random bot started by ``runner``, with its seat."""

    def __init__(self, runner: Runner, folder: Path, name: str) -> None:
        (folder / name).mkdir()
        self.process = BotProcess(resolve_bot("random"), f"unix:{folder}/{name}/bot.sock", folder / f"{name}.log",
                                  runner=runner)
        self.seat = GrpcSeat(name, self.process.address)  # the process is started and stopped here

    async def start(self) -> tuple[float, float]:
        """Seconds to the first SERVING answer, and to StartMatch answered."""
        begin = time.perf_counter()
        await self.process.start()
        address = await self.process.dial_address(asyncio.get_running_loop().time() + CONTROL.startup)
        if address is None:
            raise RuntimeError(f"{self.seat.name} bound no socket within the start-up budget")
        await healthy(address)
        serving = time.perf_counter() - begin
        self.seat = GrpcSeat(self.seat.name, address)  # the socket the runner vouches for, not a name in its folder
        start = MatchStart("bench", 0, 2, "dehla-pakad", RULES, MatchFormat.parse("hands:1"), CONTROL)
        await self.seat.start(start, CONTROL.startup)  # connects and calls StartMatch
        return serving, time.perf_counter() - begin

    async def decide(self, request: DecisionRequest) -> float:
        begin = time.perf_counter()
        await self.seat.decide(request, CONTROL.per_move)
        return time.perf_counter() - begin

    async def close(self) -> None:
        await self.seat.close()
        await self.process.stop()


def spawn_seconds(runner: Runner, folder: Path) -> float:
    """The runner's own start cost: ``/usr/bin/true`` instead of a bot."""
    launch = runner.prepare(Program(("/usr/bin/true",)), f"unix:{folder}/true/bot.sock", Limits())
    begin = time.perf_counter()
    subprocess.run(launch.argv, env=launch.env, cwd=launch.cwd, check=True)
    elapsed = time.perf_counter() - begin
    asyncio.run(launch.finish())
    return elapsed


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def start_once(runner: Runner, folder: Path, name: str) -> tuple[float, float]:
    bot = Bot(runner, folder, name)
    try:
        return await bot.start()
    finally:
        await bot.close()


async def one_round(runners: dict[str, Runner], folder: Path, starts: int, calls: int, first: str,
                    request: DecisionRequest) -> dict[str, Any]:
    order = [first, *(name for name in runners if name != first)]
    result: dict[str, Any] = {"serving": {n: [] for n in order}, "started": {n: [] for n in order},
                              "decide": {n: [] for n in order}}
    for number in range(starts):  # pairs, one bot at a time, the order alternating
        for name in (order if number % 2 == 0 else order[::-1]):
            serving, started = await start_once(runners[name], folder, f"{name}{number}")
            result["serving"][name].append(serving)
            result["started"][name].append(started)
    bots = {name: Bot(runners[name], folder, f"{name}-decide") for name in order}
    try:
        for name in order:
            await bots[name].start()
            await bots[name].decide(request)  # warm-up
        for _ in range(calls):
            for name in order:
                result["decide"][name].append(await bots[name].decide(request))
    finally:
        await asyncio.gather(*(bot.close() for bot in bots.values()))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--starts", type=int, default=4, help="start-up pairs per round")
    parser.add_argument("--calls", type=int, default=300, help="decisions per runner per round")
    args = parser.parse_args()
    runners = {"local": runner_for("local"), "sandbox": runner_for("sandbox")}
    for runner in runners.values():
        runner.check()
    request = mid_hand_request(CONTROL)
    serving: dict[str, list[float]] = {name: [] for name in runners}
    started: dict[str, list[float]] = {name: [] for name in runners}
    decide: dict[str, list[float]] = {name: [] for name in runners}
    round_medians: dict[str, list[float]] = {name: [] for name in runners}
    spawn: dict[str, list[float]] = {name: [] for name in runners}
    differences: list[float] = []
    for number in range(args.rounds):
        first = list(runners)[number % 2]
        with tempfile.TemporaryDirectory(prefix="dhb-") as folder:
            for name in (first, *(n for n in runners if n != first)):
                spawn[name].append(spawn_seconds(runners[name], Path(folder)))
            result = asyncio.run(one_round(runners, Path(folder), args.starts, args.calls, first, request))
        for name in runners:
            serving[name] += result["serving"][name]
            started[name] += result["started"][name]
            decide[name] += result["decide"][name]
            round_medians[name].append(statistics.median(result["decide"][name]))
        pairs = zip(result["serving"]["sandbox"], result["serving"]["local"], strict=True)
        differences += [sandboxed - local for sandboxed, local in pairs]
        log(f"round {number + 1}/{args.rounds}: " + ", ".join(
            f"{name} start {statistics.median(result['serving'][name]):.3f} s decide "
            f"{round_medians[name][-1] * 1e3:.3f} ms" for name in runners))

    def summary(values: list[float]) -> dict[str, float]:
        return {"median": statistics.median(values), "best": min(values)}

    startup = {name: summary(serving[name]) for name in runners}
    overhead = statistics.median(differences)
    overhead_best = startup["sandbox"]["best"] - startup["local"]["best"]
    rtt = {name: {"median_ms": statistics.median(decide[name]) * 1e3, "p90_ms": percentile(decide[name], 0.9) * 1e3,
                  "best_round_median_ms": min(round_medians[name]) * 1e3} for name in runners}
    ratio = rtt["sandbox"]["median_ms"] / rtt["local"]["median_ms"]
    ratio_best = rtt["sandbox"]["best_round_median_ms"] / rtt["local"]["best_round_median_ms"]
    rows = [
        ("start-up to SERVING, median (s)", startup["local"]["median"], startup["sandbox"]["median"], "{:.3f}"),
        ("start-up to SERVING, best (s)", startup["local"]["best"], startup["sandbox"]["best"], "{:.3f}"),
        ("start-up to StartMatch answered, median (s)", statistics.median(started["local"]),
         statistics.median(started["sandbox"]), "{:.3f}"),
        ("spawn /usr/bin/true, median (s)", statistics.median(spawn["local"]), statistics.median(spawn["sandbox"]),
         "{:.4f}"),
        ("decision round trip, median (ms)", rtt["local"]["median_ms"], rtt["sandbox"]["median_ms"], "{:.3f}"),
        ("decision round trip, p90 (ms)", rtt["local"]["p90_ms"], rtt["sandbox"]["p90_ms"], "{:.3f}"),
        ("decision round trip, best round median (ms)", rtt["local"]["best_round_median_ms"],
         rtt["sandbox"]["best_round_median_ms"], "{:.3f}"),
    ]
    print(f"{'':46} {'local':>10} {'sandbox':>10}")
    for label, local, sandbox, fmt in rows:
        print(f"{label:46} {fmt.format(local):>10} {fmt.format(sandbox):>10}")
    print(f"sandbox start-up overhead: {overhead:+.3f} s median of {len(differences)} pairs, "
          f"{overhead_best:+.3f} s best against best "
          f"(target < {STARTUP_TARGET} s); decision round trip ratio {ratio:.3f} median, {ratio_best:.3f} best "
          f"round (target <= {DECIDE_TARGET})")
    print(json.dumps({
        "rounds": args.rounds, "start_pairs": len(differences), "calls_per_round": args.calls,
        "startup_s": {"local": startup["local"], "sandbox": startup["sandbox"],
                      "overhead_median_of_pairs": round(overhead, 4), "overhead_best": round(overhead_best, 4)},
        "startmatch_s": {name: statistics.median(started[name]) for name in runners},
        "spawn_true_s": {name: statistics.median(spawn[name]) for name in runners},
        "decide_ms": rtt, "decide_ratio_median": round(ratio, 4), "decide_ratio_best_round": round(ratio_best, 4),
        "targets": {"startup_overhead_s": STARTUP_TARGET, "decide_ratio": DECIDE_TARGET},
        "met": {"startup": overhead < STARTUP_TARGET, "decide": ratio <= DECIDE_TARGET},
    }))


if __name__ == "__main__":
    main()
