"""The referee's peak memory under HTTP/2 floods, with the flood guard and without its bounds.

Each case is one 2-hand match in a fresh referee process (this script runs itself with
``--case``): three in-process random bots and, at seat 1, ``tests/bots/ping_flood.py`` in a
flood mode (or the random sample bot as a process, the baseline). The figure is the referee
process's VmHWM (peak resident memory) at the end, with the match's time and fault. Three
ways per flood: ``guarded`` (as the referee runs), ``direct`` (the guard bypassed: the channel
dials the bot itself, as before the guard) and, for the header flood, ``unbounded`` (the relay
with limits that bound nothing, to count the header bytes gRPC is handed).

Run: ``python bench/flood_memory.py``. Progress on stderr; the last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.contract.time_control import TimeControl  # noqa: E402
from arena.referee import grpc_seat  # noqa: E402
from arena.referee.flood_guard import FloodLimits  # noqa: E402
from tests.referee_helpers import RANDOM, among_in_process_bots, misbehaving_bot, run_seats, table_config  # noqa: E402

MODES = {
    "baseline": (),
    "ping": ("--frame", "ping"),
    "settings": ("--frame", "settings"),
    "headers-no-ack": ("--headers", "--no-ack-settings"),
}


def peak_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc/self/status")


def run_case(mode: str, way: str) -> dict[str, Any]:
    if way == "unbounded":
        grpc_seat.FLOOD_LIMITS = FloodLimits(burst=2**62, per_second=0.0, header_block=2**62)
    elif way == "direct":
        grpc_seat.GrpcSeat._guarded = lambda self, address: address  # type: ignore[method-assign]
    command = RANDOM if mode == "baseline" else misbehaving_bot("ping_flood", *MODES[mode])
    folder = Path(tempfile.mkdtemp(prefix="bench-flood-"))
    seats = among_in_process_bots(command, 1, folder)
    control = TimeControl(per_move=1.0, bank=1.0, startup=20.0)
    before = peak_rss_mb()
    begin = time.perf_counter()
    played = asyncio.run(run_seats(table_config("mem", time_control=control, match_format="hands:2"), seats, folder))
    seat = played.seats[1]
    guard = seat.flood_guard if isinstance(seat, grpc_seat.GrpcSeat) else None
    return {"mode": mode, "way": way, "rss_before_mb": round(before, 1), "peak_rss_mb": round(peak_rss_mb(), 1),
            "seconds": round(time.perf_counter() - begin, 2),
            "fault": [f.detail for f in played.outcome.faults],
            "header_bytes_forwarded": None if guard is None else guard.header_bytes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", nargs=2, metavar=("MODE", "WAY"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        print(json.dumps(run_case(*args.case)))
        return
    results = []
    for mode in MODES:
        ways = ("guarded", "direct") + (("unbounded",) if mode.startswith("headers") else ())
        for way in ways:
            out = subprocess.run([sys.executable, __file__, "--case", mode, way],
                                 capture_output=True, text=True, check=True, cwd=ROOT)
            result = json.loads(out.stdout.strip().splitlines()[-1])
            print(json.dumps(result), file=sys.stderr)
            results.append(result)
    print(json.dumps({"cases": results}))


if __name__ == "__main__":
    main()
