"""The timing-leak detector (issue 23) on honest sample bots and on a bot signalling its cards.

Plays ``--matches`` duplicate matches of ``--deals`` deal pairs per lineup, in this process
(``--grpc``: each bot its own process over gRPC on unix sockets, as the ladder plays them, the
transport's noise included), and feeds each record to ``arena.referee.timing_leak``:

- ``random``, ``heuristic``, ``search`` (its move time capped at ``--search-ms``): all four seats;
- ``signaller``: ``tests/bots/timing_signaller.py`` (the heuristic's moves, each reply held
  ``base + unit * c`` ms for a card c of its hand) at seats 0 and 2, the heuristic at 1 and 3.

Per lineup: each measured seat's bits, z and p; the version's figures as the ladder aggregates
them (``ladder/store/timing_leaks.py``: decision-weighted mean bits, Stouffer's z over its seats) and the
flag; how many matches alone would pass the bits-and-z rule (``single_match_flags``); the
detector's cost per record (ms, median). ``--keep DIR`` keeps the records. The last line
printed is one JSON object.

    .venv/bin/python bench/timing_detector.py [--matches 6] [--deals 8] [--grpc] [--unit-ms 0.5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena.contract.time_control import TimeControl  # noqa: E402
from arena.engine.match import MatchFormat  # noqa: E402
from arena.engine.rules import rules_for  # noqa: E402
from arena.referee.in_process import play_in_process  # noqa: E402
from arena.referee.launcher import BotCommand  # noqa: E402
from arena.referee.local import play_local_match  # noqa: E402
from arena.referee.table_values import TableConfig  # noqa: E402
from arena.referee.timing_leak import LeakEstimate, record_leaks  # noqa: E402
from ladder.store.timing_leaks import FLAG_BITS, FLAG_SEATS, FLAG_Z, TimingFigures, flagged  # noqa: E402
from sample_bots.heuristic.bot import HeuristicBot  # noqa: E402
from sample_bots.random.bot import RandomBot  # noqa: E402
from sample_bots.search.bot import SearchBot, SearchBudget  # noqa: E402
from sdk.bot import Bot  # noqa: E402
from tests.bots.timing_signaller import TimingSignaller  # noqa: E402

LINEUPS = ("random", "heuristic", "search", "signaller")
MEASURED = {"random": (0, 1, 2, 3), "heuristic": (0, 1, 2, 3), "search": (0, 1, 2, 3), "signaller": (0, 2)}


def in_process_bots(lineup: str, args: argparse.Namespace) -> list[Bot]:
    makers: dict[str, Callable[[int], Bot]] = {
        "random": RandomBot, "heuristic": lambda seat: HeuristicBot(),
        "search": lambda seat: SearchBot(seat, SearchBudget(max_per_move=args.search_ms / 1000)),
    }
    if lineup == "signaller":
        return [TimingSignaller(args.base_ms, args.unit_ms), HeuristicBot(),
                TimingSignaller(args.base_ms, args.unit_ms), HeuristicBot()]
    return [makers[lineup](seat) for seat in range(4)]


def commands(lineup: str, args: argparse.Namespace) -> list[BotCommand]:
    python = sys.executable
    env = (("PYTHONPATH", str(ROOT)),)
    honest = {name: BotCommand(name, (python, "-m", f"sample_bots.{name}"), env) for name in ("random", "heuristic")}
    if lineup == "search":  # the sample's default budget: its share of a per-move limit of --search-ms
        return [BotCommand("search", (python, "-m", "sample_bots.search"), env)] * 4
    if lineup == "signaller":
        signaller = BotCommand("signaller", (python, "-m", "tests.bots.timing_signaller", "--base-ms",
                                             str(args.base_ms), "--unit-ms", str(args.unit_ms)), env)
        return [signaller, honest["heuristic"], signaller, honest["heuristic"]]
    return [honest[lineup]] * 4


def play(lineup: str, seed: int, args: argparse.Namespace, folder: Path) -> str:
    if not args.grpc:
        path = folder / f"{lineup}-{seed}.jsonl"
        play_in_process(in_process_bots(lineup, args), deals=args.deals, seed=seed, record=path)
        return path.read_text()
    per_move = args.search_ms / 1000 / 0.6 if lineup == "search" else 1.0
    config = TableConfig(f"{lineup}-{seed}", rules_for("dehla-pakad"), "dehla-pakad",
                         MatchFormat.parse(f"duplicate:{args.deals}"), seed,
                         TimeControl(per_move=per_move, bank=30.0, startup=30.0))
    seats = commands(lineup, args)
    asyncio.run(play_local_match((seats[0], seats[2]), (seats[1], seats[3]), config, folder))
    return (folder / f"{lineup}-{seed}.jsonl").read_text()


def version_figures(estimates: list[LeakEstimate]) -> dict[str, Any]:
    decisions = sum(e.decisions for e in estimates)
    bits = sum(e.bits * e.decisions for e in estimates) / decisions
    z = sum(e.z for e in estimates) / math.sqrt(len(estimates))
    return {"seats": len(estimates), "bits": round(bits, 4), "z": round(z, 2),
            "flagged": TimingFigures(len(estimates), bits, z).flagged, "over_bits_and_z": flagged(bits, z)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--grpc", action="store_true")
    parser.add_argument("--search-ms", type=float, default=10.0)
    parser.add_argument("--base-ms", type=float, default=2.0)
    parser.add_argument("--unit-ms", type=float, default=0.5)
    parser.add_argument("--lineups", default=",".join(LINEUPS))
    parser.add_argument("--keep", type=Path, help="Keep the match records in this folder.")
    args = parser.parse_args()
    report: dict[str, Any] = {"matches": args.matches, "deals": args.deals, "grpc": args.grpc,
                              "unit_ms": args.unit_ms, "base_ms": args.base_ms, "flag_bits": FLAG_BITS,
                              "flag_z": FLAG_Z, "flag_seats": FLAG_SEATS, "lineups": {}}
    costs: list[float] = []
    with tempfile.TemporaryDirectory(prefix="timing-bench-") as tmp:
        for lineup in args.lineups.split(","):
            seats: list[LeakEstimate] = []
            per_match: list[dict[str, Any]] = []
            for number in range(args.matches):
                seed = args.seed + number
                folder = Path(tmp) / f"{lineup}-{seed}"
                folder.mkdir()
                text = play(lineup, seed, args, folder)
                if args.keep:
                    args.keep.mkdir(parents=True, exist_ok=True)
                    (args.keep / f"{lineup}-{seed}.jsonl").write_text(text)
                start = time.perf_counter()
                leaks = record_leaks(text)
                costs.append((time.perf_counter() - start) * 1000)
                found = [leaks[seat] for seat in MEASURED[lineup] if seat in leaks]
                seats += found
                per_match.append(version_figures(found))
                print(lineup, seed, " ".join(f"{e.bits:+.3f}/z{e.z:+.1f}/p{e.p_value:.3f}" for e in found),
                      file=sys.stderr, flush=True)
            report["lineups"][lineup] = {
                "version": version_figures(seats),
                "seat_bits": [round(e.bits, 4) for e in seats], "seat_z": [round(e.z, 2) for e in seats],
                "max_seat_bits": round(max(e.bits for e in seats), 4), "max_seat_z": round(max(e.z for e in seats), 2),
                "single_match_flags": sum(m["over_bits_and_z"] for m in per_match),
                "decisions_per_seat": round(statistics.mean(e.decisions for e in seats)),
            }
    report["detector_ms_per_record"] = round(statistics.median(costs), 1)
    for name, figures in report["lineups"].items():
        version = figures["version"]
        print(f"{name:10} bits {version['bits']:+.4f}  z {version['z']:+6.2f}  flagged {version['flagged']}  "
              f"(max seat bits {figures['max_seat_bits']:+.3f}, z {figures['max_seat_z']:+.1f}; "
              f"matches flagged alone {figures['single_match_flags']}/{args.matches})")
    print(json.dumps(report, separators=(",", ":")))


if __name__ == "__main__":
    main()
