"""Covert channels between two bots: bit error rate and rate per channel and runner, with the
defences (``masked``) against without them (``unmasked``).

A sender and a receiver (``tests/hostile/bots/covert.py``, started by the runner exactly as
the referee starts bots, each with one CPU's share) agree on a wall-clock start and a slot
length; the sender sends a known seeded bit string, one bit per slot, over one channel, and the
receiver decodes what it sees. Both run in sandboxes (``sandbox``) or podman containers
(``podman``, where podman and the base image are available). Per channel the same run takes the
runner as it is (``masked``) and, as the baseline, the runner as it was before: the sandbox
without its ``/proc`` masks and with the seccomp filter before it refused the counter calls;
podman without the ``/proc`` binds and masks and with its profile before issue 23
(``tests/hostile/covert_pair.py``):

- ``processes``: the fork counter in ``/proc/stat`` (the reported attack: threads created);
- ``threads``: the thread count in ``/proc/loadavg``; ``file-nr``: open files, host-wide;
- ``sysinfo-procs``: the same thread count from the ``sysinfo(2)`` call (refused by seccomp);
- ``statfs-free``: free blocks of the host filesystems it sees, moved by the sender's log,
  one 4 KiB block for a 1 (``statfs`` refused by the sandbox's filter; allowed under podman);
- ``autogroup``: the number of a new session's autogroup (``setsid``; 8 sessions for a 1, at
  10 bit/s: issue 23);
- ``pidfd-ino``: a pidfd's inode number, the host's count of pids (16 threads for a 1);
  ``pidfs-handle``: the same number found without a pidfd, by probing pidfs file handles
  (``open_by_handle_at``) upwards for its new child's;
- ``pipe-ino``: the kernel's counter of pipe, socket and ``/proc`` inode numbers (2048 pipes
  for a 1, at 5 bit/s: what remains, no mask or filter hides it); ``proc-ino``: the same
  counter moved and read through ``/proc`` entries alone, no pipe or socket (what a filter
  refusing pipes and sockets would leave);
- ``cpu``: the sender spins or sleeps, the receiver counts its own loop's iterations (what
  remains; it does not depend on the masks); in the sandbox once as the runner starts them,
  once with the sender pinned to CPU 0 and the receiver to CPU 1 (``taskset`` before the
  chain), an estimate of what disjoint cpusets would leave (the bot could widen a plain
  affinity; a cpuset not).

A bit error rate near 0.5 is no channel; the receiver decoding a constant gives the share of
ones in the message (0.5, the string is balanced). Run as root:
``python bench/covert.py [--bits N] [--repeats R] [--runners sandbox podman] [--channels ...]``.
Progress on stderr; a table (one row per channel, runner and mode) and, as the last line on
stdout, one JSON object.
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

from arena.sandbox.containers import ContainerConfig, Engine, container_problem
from tests.hostile.covert_pair import Contained, Sandboxed, Start
from tests.hostile.harness import sandbox_problem

COUNTER_SLOT = 0.05
"""50 ms a bit: the 20 bit/s of the report."""
COUNTERS = ("processes", "threads", "file-nr", "sysinfo-procs", "statfs-free", "autogroup", "pidfd-ino",
            "pidfs-handle", "pipe-ino", "proc-ino")
SLOTS = {"pipe-ino": 0.2, "proc-ino": 0.2, "autogroup": 0.1}
"""Counters whose sender needs longer than ``COUNTER_SLOT`` for a 1 (2048 pipes: ~60 ms; 8
sessions, a fork each: ~30 ms; the rate of issue 23's autogroup attack)."""
CPU_SLOTS = (0.05, 0.1, 0.2)
RUNNERS: dict[str, Start] = {"sandbox": Sandboxed, "podman": Contained}
START_MARGIN = {"sandbox": 8.0, "podman": 15.0}
"""Seconds from launch to the first slot: two bots start well within it on a busy host."""


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


def transmit(folder: Path, bits: str, channel: str, slot: float, masked: bool, pinned: bool,
             runner: str = "sandbox") -> dict[str, Any]:
    start = time.time() + START_MARGIN[runner]
    timing = ["--channel", channel, "--start", repr(start), "--slot", repr(slot)]
    bot = RUNNERS[runner]
    receiver = bot(folder / "receive", "--role", "receive", "--count", str(len(bits)), *timing, masked=masked,
                   prefix=pin(1 if pinned else None))
    sender = bot(folder / "send", "--role", "send", "--bits", bits, *timing, masked=masked,
                 prefix=pin(0 if pinned else None))
    try:
        got = receiver.next_report("covert-receive")
        sender.next_report("covert-send")
    finally:
        receiver.close()
        sender.close()
    if got["late"]:
        raise SystemExit(f"the receiver started after the first slot: raise START_MARGIN ({START_MARGIN[runner]} s)")
    errors = sum(a != b for a, b in zip(bits, got["bits"], strict=True))
    return {"errors": errors, "ber": errors / len(bits), "ones_decoded": got["bits"].count("1")}


def podman_problem() -> str:
    """Why the podman rows cannot run here ("" if they can)."""
    return container_problem(ContainerConfig(Engine.PODMAN), ContainerConfig().image)


def plan_runs(channels: list[str], runners: list[str]) -> list[tuple[str, str, float, bool, bool]]:
    """(runner, channel, slot, masked, pinned) for every row of the table."""
    plan = []
    for runner in runners:
        plan += [(runner, channel, SLOTS.get(channel, COUNTER_SLOT), masked, False) for channel in COUNTERS
                 if channel in channels for masked in (False, True)]
        if "cpu" in channels:
            pinning = (False, True) if runner == "sandbox" else (False,)
            plan += [(runner, "cpu", slot, True, pinned) for pinned in pinning for slot in CPU_SLOTS]
    return plan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bits", type=int, default=48, help="bits per transmission (a hand is about 40)")
    parser.add_argument("--repeats", type=int, default=2, help="transmissions per channel, slot and mode")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--channels", nargs="+", choices=[*COUNTERS, "cpu"], default=[*COUNTERS, "cpu"])
    parser.add_argument("--runners", nargs="+", choices=sorted(RUNNERS), default=None,
                        help="default: the sandbox, and podman where it is available")
    args = parser.parse_args()
    if problem := sandbox_problem():
        raise SystemExit(f"bench/covert.py: {problem}")
    runners = args.runners
    if runners is None:
        runners = ["sandbox"]
        if problem := podman_problem():
            log(f"no podman rows: {problem}")
        else:
            runners.append("podman")
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="dh-cv-") as scratch:  # short: a seat's socket path has 107 bytes
        for runner, channel, slot, masked, pinned in plan_runs(args.channels, runners):
            runs = []
            for repeat in range(args.repeats):
                bits = message(args.bits, args.seed + repeat)
                runs.append(transmit(Path(scratch) / f"{len(results)}-{repeat}", bits, channel, slot, masked, pinned,
                                     runner))
            errors = sum(run["errors"] for run in runs)
            total = args.bits * args.repeats
            mode = ("masked" if masked else "unmasked") + (", pinned" if pinned else "")
            result = {"channel": channel, "runner": runner, "mode": mode, "slot_s": slot,
                      "rate_bit_s": round(1 / slot, 1), "bits": total, "errors": errors,
                      "ber": round(errors / total, 3), "bers": [round(run["ber"], 3) for run in runs],
                      "ones_decoded": [run["ones_decoded"] for run in runs]}
            results.append(result)
            log(f"{channel:14} {runner:8} {mode:15} {result['rate_bit_s']:5} bit/s  BER {result['ber']:.3f}")
    print(f"{'channel':14} {'runner':8} {'mode':15} {'bit/s':>6} {'BER':>6}  per run")
    for result in results:
        print(f"{result['channel']:14} {result['runner']:8} {result['mode']:15} {result['rate_bit_s']:6} "
              f"{result['ber']:6.3f}  {result['bers']}")
    with open("/proc/loadavg") as handle:
        load = handle.read().split()[:3]
    print(json.dumps({"bits_per_run": args.bits, "repeats": args.repeats, "seed": args.seed, "loadavg": load,
                      "results": results}))


if __name__ == "__main__":
    main()
