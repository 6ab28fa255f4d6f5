"""The timing channel between partners (issue 23), released on reply against at slot end.

The sender (seat 0, ``tests/hostile/bots/timing.py --role send``) delays each reply by
``base + step * g`` ms, ``g`` the Gray code of one of its cards' six-bit number; its partner
(seat 2, ``--role receive``) decodes the time from its own reply to its next request. Both are
real bot processes started by the runner (``local``, and the bubblewrap ``sandbox`` where it
can run); the opponents are first-legal bots played in the referee's process, as fast as a bot
can be, which is the receiver's best case. Each (release, runner) plays ``--hands`` hands at
``--per-move`` seconds a move (the issue's 1 s clock and 30 + 15 c ms code by default).

Figures (``tests/hostile/timing_pair.py``): symbols paired (spans of the receiver holding one
sender move: about half of them), bit error rate over their six bits,
bits per sender move as ``6 * (1 - H(BER))``, the share decoded exactly, the correlation of
the gap with the delay code (ranks), and the match's wall time. A row per (release, runner) and, as
the LAST line on stdout, one JSON object. ``python bench/timing_channel.py [--hands N]``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.contract.time_control import MoveRelease, TimeControl
from arena.sandbox import Runner
from tests.hostile.harness import LOCAL, hostile, play, sandbox_problem, sandbox_runner, table_config
from tests.hostile.timing_pair import figures, pairs, timing_module


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def transmit(folder: Path, release: MoveRelease, runner: Runner, args: argparse.Namespace) -> dict[str, Any]:
    code = ("--base", str(args.base), "--step", str(args.step))
    fast = timing_module().HostileBot
    lineup = [hostile("timing", "--role", "send", *code), fast(), hostile("timing", "--role", "receive", *code), fast()]
    control = TimeControl(per_move=args.per_move, bank=args.bank, startup=30.0, release=release)
    config = table_config(f"timing-{release}", match_format=f"hands:{args.hands}", time_control=control,
                          seed=args.seed)
    played = play(config, lineup, folder, runner)
    sent = [f for f in played.findings(0) if f["attack"] == "timing-send"]
    received = [f for f in played.findings(2) if f["attack"] == "timing-receive"]
    got = figures(pairs(sent, received))
    return {"sent": len(sent), **got.to_json(), "faults": [f.kind.value for f in played.faults()],
            "hands": len(played.outcome.hands), "match_s": round(played.closed_after, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2, help="hands per (release, runner); 13 sender moves each")
    parser.add_argument("--per-move", type=float, default=1.0)
    parser.add_argument("--bank", type=float, default=30.0)
    parser.add_argument("--base", type=float, default=30.0, help="ms of delay for card number 0")
    parser.add_argument("--step", type=float, default=15.0, help="ms more per step of the code")
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--runners", nargs="+", choices=["local", "sandbox"], default=["local", "sandbox"])
    args = parser.parse_args()
    if args.base + args.step * 63 >= args.per_move * 1000:
        raise SystemExit("bench/timing_channel.py: the longest delay must fit in --per-move")
    runners: dict[str, Runner] = {}
    for name in args.runners:
        problem = sandbox_problem() if name == "sandbox" else ""
        if problem:
            log(f"skipping the sandbox runner: {problem}")
            continue
        runners[name] = LOCAL if name == "local" else sandbox_runner()
    rows: list[dict[str, Any]] = []
    scratch = Path(tempfile.mkdtemp(prefix="dh-timing-"))
    scratch.chmod(0o755)  # the seats' uids write their logs here under the sandbox
    try:
        for name, runner in runners.items():
            for release in MoveRelease:
                row = {"release": release.value, "runner": name,
                       **transmit(scratch / f"{name}-{release}", release, runner, args)}
                rows.append(row)
                log(f"{release.value:9} {name:8} BER {row['ber']:.3f}  {row['bits_per_move']:.2f} bit/move")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"{'release':9} {'runner':8} {'symbols':>7} {'BER':>6} {'bit/move':>8} {'exact':>6} {'r':>6} "
          f"{'hands':>5} {'match s':>7}")
    for row in rows:
        print(f"{row['release']:9} {row['runner']:8} {row['symbols']:7} {row['ber']:6.3f} {row['bits_per_move']:8.2f} "
              f"{row['exact']:6.2f} {row['correlation']:6.2f} {row['hands']:5} {row['match_s']:7.1f}")
    with open("/proc/loadavg") as handle:
        load = handle.read().split()[:3]
    print(json.dumps({"per_move_s": args.per_move, "code_ms": [args.base, args.step], "hands": args.hands,
                      "seed": args.seed, "bits_per_move": "6 * (1 - H(BER)) per paired sender move",
                      "loadavg": load, "results": rows}))


if __name__ == "__main__":
    main()
