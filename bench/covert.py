"""Covert channels between two sandboxes: bit error rate and rate, masked against unmasked.

A sender and a receiver sandbox (``tests/hostile/bots/covert.py``, started by the sandbox
runner exactly as the referee starts bots, each with one CPU's share) agree on a wall-clock
start and a slot length; the sender sends a known seeded bit string, one bit per slot, over
one channel, and the receiver decodes what it sees. Per channel and slot length the same run
takes the sandbox as it is (``masked``) and, as the baseline, the sandbox with the ``/proc``
masks taken out of the command line and the seccomp filter as it was before it refused the
counter calls (``unmasked``):

- ``processes``: the fork counter in ``/proc/stat`` (the reported attack: threads created);
- ``threads``: the thread count in ``/proc/loadavg``; ``file-nr``: open files, host-wide;
- ``sysinfo-procs``: the same thread count from the ``sysinfo(2)`` call (refused by seccomp);
- ``statfs-free``: free blocks of the host filesystems it sees, moved by the sender's log,
  one 4 KiB block for a 1 (``statfs`` refused by seccomp);
- ``pipe-ino``: the kernel's counter of pipe and socket inode numbers (2048 pipes for a 1, at
  5 bit/s: what remains, no mask or filter hides it);
- ``cpu``: the sender spins or sleeps, the receiver counts its own loop's iterations (what
  remains; it does not depend on the masks); once as the runner starts them, once with the
  sender pinned to CPU 0 and the receiver to CPU 1 (``taskset`` before the chain), an estimate
  of what disjoint cpusets would leave (the bot could widen a plain affinity; a cpuset not).

A bit error rate near 0.5 is no channel; the receiver decoding a constant gives the share of
ones in the message (0.5, the string is balanced). Run as root:
``python bench/covert.py [--bits N] [--repeats R]``. Progress on stderr; a table and, as the
last line on stdout, one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.hostile.covert_pair import Sandboxed
from tests.hostile.harness import sandbox_problem

COUNTER_SLOT = 0.05
"""50 ms a bit: the 20 bit/s of the report."""
COUNTERS = ("processes", "threads", "file-nr", "sysinfo-procs", "statfs-free", "pipe-ino")
SLOTS = {"pipe-ino": 0.2}
"""Counters whose sender needs longer than ``COUNTER_SLOT`` for a 1 (2048 pipes: ~60 ms)."""
CPU_SLOTS = (0.05, 0.1, 0.2)
START_MARGIN = 8.0
"""Seconds from launch to the first slot: two sandboxes start well within it on a busy host."""


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def message(count: int, seed: int) -> str:
    """A balanced known string: as many ones as zeros, in a seeded order."""
    bits = list("1" * (count // 2) + "0" * (count - count // 2))
    random.Random(seed).shuffle(bits)
    return "".join(bits)


def pin(cpu: int | None) -> list[str]:
    """``taskset`` before the chain: the sandbox inherits the CPU affinity."""
    if cpu is None:
        return []
    taskset = shutil.which("taskset")
    if taskset is None:
        raise SystemExit("bench/covert.py: taskset (util-linux) is needed for the pinned runs")
    return [taskset, "-c", str(cpu)]


def transmit(folder: Path, bits: str, channel: str, slot: float, masked: bool, pinned: bool) -> dict[str, Any]:
    start = time.time() + START_MARGIN
    timing = ["--channel", channel, "--start", repr(start), "--slot", repr(slot)]
    receiver = Sandboxed(folder / "receive", "--role", "receive", "--count", str(len(bits)), *timing, masked=masked,
                         prefix=pin(1 if pinned else None))
    sender = Sandboxed(folder / "send", "--role", "send", "--bits", bits, *timing, masked=masked,
                       prefix=pin(0 if pinned else None))
    try:
        got = receiver.next_report("covert-receive")
        sender.next_report("covert-send")
    finally:
        receiver.close()
        sender.close()
    if got["late"]:
        raise SystemExit(f"the receiver started after the first slot: raise START_MARGIN ({START_MARGIN} s)")
    errors = sum(a != b for a, b in zip(bits, got["bits"], strict=True))
    return {"errors": errors, "ber": errors / len(bits), "ones_decoded": got["bits"].count("1")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bits", type=int, default=48, help="bits per transmission (a hand is about 40)")
    parser.add_argument("--repeats", type=int, default=2, help="transmissions per channel, slot and mode")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--channels", nargs="+", choices=[*COUNTERS, "cpu"], default=[*COUNTERS, "cpu"])
    args = parser.parse_args()
    if problem := sandbox_problem():
        raise SystemExit(f"bench/covert.py: {problem}")
    plan = [(channel, SLOTS.get(channel, COUNTER_SLOT), masked, False) for channel in COUNTERS
            if channel in args.channels for masked in (False, True)]
    if "cpu" in args.channels:
        plan += [("cpu", slot, True, pinned) for pinned in (False, True) for slot in CPU_SLOTS]
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="dh-covert-") as scratch:
        for channel, slot, masked, pinned in plan:
            runs = []
            for repeat in range(args.repeats):
                bits = message(args.bits, args.seed + repeat)
                runs.append(transmit(Path(scratch) / f"{len(results)}-{repeat}", bits, channel, slot, masked, pinned))
            errors = sum(run["errors"] for run in runs)
            total = args.bits * args.repeats
            mode = ("masked" if masked else "unmasked") + (", pinned" if pinned else "")
            result = {"channel": channel, "mode": mode, "slot_s": slot,
                      "rate_bit_s": round(1 / slot, 1), "bits": total, "errors": errors,
                      "ber": round(errors / total, 3), "bers": [round(run["ber"], 3) for run in runs],
                      "ones_decoded": [run["ones_decoded"] for run in runs]}
            results.append(result)
            log(f"{channel:14} {mode:15} {result['rate_bit_s']:5} bit/s  BER {result['ber']:.3f}")
    print(f"{'channel':14} {'sandbox':15} {'bit/s':>6} {'BER':>6}  per run")
    for result in results:
        print(f"{result['channel']:14} {result['mode']:15} {result['rate_bit_s']:6} {result['ber']:6.3f}  "
              f"{result['bers']}")
    with open("/proc/loadavg") as handle:
        load = handle.read().split()[:3]
    print(json.dumps({"bits_per_run": args.bits, "repeats": args.repeats, "seed": args.seed, "loadavg": load,
                      "results": results}))


if __name__ == "__main__":
    main()
