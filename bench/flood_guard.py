"""The flood guard's cost on a decision round trip: one random sample bot (a real process,
``sdk.server``, local runner), reached by two ``GrpcSeat``s on the same socket, one through the
referee's flood guard (as every seat is now) and one with the guard bypassed (the old direct
dial); ``GrpcSeat.decide`` calls on a mid-hand play decision alternate between the two call by
call, so load on the machine falls on both alike.

Run: ``python bench/flood_guard.py [--calls N] [--rounds R]``. The last line is one JSON object.
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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench.positions, run as a script

from arena.contract.messages import MatchStart
from arena.contract.time_control import TimeControl
from arena.engine.match import MatchFormat
from arena.engine.rules import rules_for
from arena.referee.grpc_seat import GrpcSeat
from arena.referee.launcher import BotProcess, resolve_bot
from bench.positions import mid_hand_request

RULES = rules_for("dehla-pakad")
CONTROL = TimeControl(per_move=5.0, bank=60.0, startup=60.0)


class Unguarded(GrpcSeat):
    """The old dial: the channel connects to the bot's socket itself."""

    def _guarded(self, address: str) -> str:
        return address


def ms(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))], 4)


async def run(calls: int, rounds: int) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="bench-guard-"))
    process = BotProcess(resolve_bot("random"), f"unix:{folder}/bot.sock", folder / "bot.log")
    await process.start()
    seats = {"guarded": GrpcSeat("guarded", process.address), "direct": Unguarded("direct", process.address)}
    start = MatchStart("bench", 0, 2, "dehla-pakad", RULES, MatchFormat.parse("hands:1"), CONTROL)
    try:
        for seat in seats.values():
            await seat.start(start, CONTROL.startup)
        request = mid_hand_request(CONTROL)
        for seat in seats.values():  # warm-up
            for _ in range(50):
                await seat.decide(request, CONTROL.per_move)
        times: dict[str, list[float]] = {name: [] for name in seats}
        per_round = []
        for number in range(rounds):
            order = list(seats) if number % 2 == 0 else list(reversed(seats))
            this_round: dict[str, list[float]] = {name: [] for name in seats}
            for _ in range(calls):
                for name in order:
                    begin = time.perf_counter()
                    await seats[name].decide(request, CONTROL.per_move)
                    this_round[name].append(time.perf_counter() - begin)
            for name in seats:
                times[name] += this_round[name]
            ratio = statistics.median(this_round["guarded"]) / statistics.median(this_round["direct"])
            per_round.append(round(ratio, 4))
            print(f"round {number + 1}: median ratio guarded/direct {ratio:.3f}", file=sys.stderr)
    finally:
        for seat in seats.values():
            await seat.close()
        await process.stop()
    result: dict[str, Any] = {name: {"p50_ms": ms(values, 0.5), "p90_ms": ms(values, 0.9), "p99_ms": ms(values, 0.99)}
                              for name, values in times.items()}
    result["ratio_p50"] = round(result["guarded"]["p50_ms"] / result["direct"]["p50_ms"], 4)
    result["added_p50_us"] = round(1000 * (result["guarded"]["p50_ms"] - result["direct"]["p50_ms"]), 1)
    result["ratio_per_round"] = per_round
    result["calls"] = calls * rounds
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1000, help="calls per seat per round")
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.calls, args.rounds))))


if __name__ == "__main__":
    main()
