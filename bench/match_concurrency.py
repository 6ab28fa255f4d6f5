"""``dehla match --concurrency 2`` against ``--concurrency 1`` (the baseline, in the same run), on
the same deals, with bots that mostly wait: each move is released at the end of its 50 ms slot
(``--release slot-end --per-move 0.05``, as the ladder plays), so a table is idle most of the time.

``python -m bench.match_concurrency [DEALS] [SEED]``

Four matches per pairing, K = 1, 2, 2, 1 (so a drift in the machine's load favours neither), each
a real ``dehla match`` (bot processes over gRPC), timed from the command's start to its exit (bot
start-up included); the faster of each K's two counts. Each match runs to its end whatever its
faults (``BANK``); the records are compared between fault-free runs. The load average is printed before and
after, and the CPU seconds each run used (its bots included): on a shared machine the ratio is
only as good as the quiet it was measured in. 16 deal pairs by default: at 104 moves of 50 ms a
pair, 83 s of slots at K = 1 and 42 s at K = 2, beside which the bots' start-up (4 processes
at K = 1, 8 at K = 2) is small.
Pairings: ``search`` (the search bot against the heuristic: the search bot thinks for a few
ms of its 50 ms slot, by the clock, so its choices may differ between runs) and ``heuristic``
(the heuristic against itself: a deterministic bot, whose record must be the same card for
card). For each: the wall times, their ratio (K = 1 over K = 2; goal 1.8 or more), whether the
records hold the same deals in the same order, and whether every decision's action is the same.
The last line is one JSON object.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BANK = 0.2
"""Seconds. Under ``slot-end`` a move that overruns its slot spends the whole bank and is held to
the bank's end (by design: how far into the bank a bot went is never seen), so one overrun on a
loaded machine would cost the default bank's 30 s of wall time and swamp the figure. With a
0.2 s bank and ``--policy substitute`` an overrun costs 0.2 s and a later one a substituted move
(a fault in the report), and the match runs to its end."""
PAIRINGS = {"search": ("search", "heuristic"), "heuristic": ("heuristic", "heuristic")}


def cpu_seconds() -> float:
    """User and system CPU of this process's finished children and theirs (the bots)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def play(a: str, b: str, deals: int, seed: int, tables: int,
         records: Path) -> tuple[float, float, list[dict[str, Any]], list[str]]:
    """Wall and CPU seconds of one ``dehla match``, its record's hand lines and its faults (on a
    loaded machine a 50 ms slot can be overrun: a timeout ends the match early, its record differs)."""
    cpu = cpu_seconds()
    started = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "arena", "match", a, b, "--deals", str(deals), "--seed", str(seed),
                          "--per-move", "0.05", "--release", "slot-end", "--bank", str(BANK), "--policy", "substitute",
                          "--concurrency", str(tables),
                          "--records", str(records), "--json"], capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    cpu = cpu_seconds() - cpu
    if out.returncode != 0:
        raise SystemExit(f"dehla match failed ({out.returncode}): {out.stderr.strip()}")
    report = json.loads(out.stdout)
    lines = [json.loads(line) for line in Path(report["record"]).read_text().splitlines()]
    faults = [f"seat {f['seat']} {f['kind']} in hand {f['hand']}" for f in report["faults"]]
    return seconds, cpu, lines[1:-1], faults


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 16
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    figures: dict[str, dict[str, Any]] = {}
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder:
        for name, (a, b) in PAIRINGS.items():
            times: dict[int, list[float]] = {1: [], 2: []}
            hands: dict[int, list[dict[str, Any]]] = {}
            faults: list[list[str]] = []
            cpu: dict[int, list[float]] = {1: [], 2: []}
            for run, tables in enumerate((1, 2, 2, 1)):
                seconds, used, played, run_faults = play(a, b, deals, seed, tables, Path(folder) / f"{name}-{run}")
                times[tables].append(seconds)
                cpu[tables].append(round(used, 1))
                faults.append(run_faults)
                if not run_faults or tables not in hands:
                    hands[tables] = played
            clean = not any(faults)
            one, two = min(times[1]), min(times[2])
            hands_one, hands_two = hands[1], hands[2]
            same_deals = [(h["index"], h["record"]["deal"], h["record"]["dealer"]) for h in hands_one] == \
                         [(h["index"], h["record"]["deal"], h["record"]["dealer"]) for h in hands_two]
            same_plays = [(h["record"], [d["action"] for d in h["decisions"]]) for h in hands_one] == \
                         [(h["record"], [d["action"] for d in h["decisions"]]) for h in hands_two]
            figures[name] = {"seconds_k1": [round(t, 2) for t in times[1]],
                             "seconds_k2": [round(t, 2) for t in times[2]], "ratio": round(one / two, 3),
                             "hands": len(hands_one), "same_deals_in_order": same_deals, "all_runs_fault_free": clean,
                             "same_actions": same_plays, "faults_by_run": faults,
                             "cpu_seconds_k1": cpu[1], "cpu_seconds_k2": cpu[2]}
            print(f"{name}: K=1 {one:.1f} s, K=2 {two:.1f} s, ratio {one / two:.2f}; same deals in order: "
                  f"{same_deals}; same actions: {same_plays}; faults (runs K=1, 2, 2, 1): {faults}; "
                  f"CPU s K=1 {cpu[1]}, K=2 {cpu[2]}")
    print(json.dumps({"bench": "match_concurrency", "deals": deals, "seed": seed, "per_move": 0.05,
                      "release": "slot-end", "pairings": figures,
                      "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)]}))


if __name__ == "__main__":
    main()
