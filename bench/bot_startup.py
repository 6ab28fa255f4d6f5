"""A sample bot's start-up: the CPU seconds from its exec to its first SERVING health answer.

Every match starts four bot processes, so their start-up is most of a short match's CPU on a
busy machine (``bench/cluster.py`` at 8 slots). Arms, alternating, ``--runs`` starts each:

- ``bytecode``: the tree as ``scripts/setup.sh`` leaves it (its packages compiled);
- ``source``: a copy of the tree's packages without their bytecode, as a checkout is before
  setup compiles it (the bots run with ``PYTHONDONTWRITEBYTECODE=1``, as in the sandbox, so
  nothing is cached: each start compiles the project's modules again);
- ``baseline`` with ``--tree PATH``: another checkout (e.g. ``git worktree add /tmp/old REV``),
  compiled the same way first.

The bot is ``sample_bots.random`` served on a unix socket; CPU is its process's user + system
time from ``/proc`` once it first answers ``SERVING``. Mean and best are printed per arm.

    .venv/bin/python bench/bot_startup.py [--runs 20] [--tree /tmp/old]

The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import compileall
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))

from bench.proc_cpu import process_cpu  # noqa: E402

PACKAGES = ("arena", "protocol", "sdk", "sample_bots")


def compile_tree(tree: Path) -> None:
    for package in PACKAGES:
        if (tree / package).is_dir():
            compileall.compile_dir(str(tree / package), quiet=1)


def source_copy(tree: Path, into: Path) -> Path:
    for package in PACKAGES:
        shutil.copytree(tree / package, into / package, ignore=shutil.ignore_patterns("__pycache__"))
    return into


def start_once(tree: Path, folder: Path) -> float:
    """One bot process: started, waited for until SERVING (the health call blocks until the
    channel is ready: no polling), its CPU read, then stopped."""
    socket = folder / "bot.sock"
    socket.unlink(missing_ok=True)
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1",
           "DEHLA_BOT_ADDRESS": f"unix:{socket}"}
    bot = subprocess.Popen([sys.executable, "-m", "sample_bots.random"], cwd=tree, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        with grpc.insecure_channel(f"unix:{socket}") as channel:
            stub = health_pb2_grpc.HealthStub(channel)
            answer = stub.Check(health_pb2.HealthCheckRequest(), timeout=60, wait_for_ready=True)
            if answer.status != health_pb2.HealthCheckResponse.SERVING:
                raise SystemExit(f"bot_startup: the bot answered {answer.status}, not SERVING")
        return process_cpu(bot.pid).own
    finally:
        bot.kill()
        bot.wait()


def summary(samples: list[float]) -> dict[str, float]:
    return {"mean_cpu_s": round(statistics.fmean(samples), 3), "best_cpu_s": round(min(samples), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--tree", type=Path, help="a baseline checkout to time as well")
    args = parser.parse_args()
    compile_tree(HERE)
    if args.tree:
        compile_tree(args.tree.resolve())
    samples: dict[str, list[float]] = {"bytecode": [], "source": []}
    if args.tree:
        samples["baseline"] = []
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        source = source_copy(HERE, folder / "source")
        for _ in range(args.runs):
            samples["bytecode"].append(start_once(HERE, folder))
            samples["source"].append(start_once(source, folder))
            if args.tree:
                samples["baseline"].append(start_once(args.tree.resolve(), folder))
    result = {"bench": "bot_startup", "runs": args.runs, **{arm: summary(s) for arm, s in samples.items()}}
    for arm, figures in result.items():
        if isinstance(figures, dict):
            print(f"{arm:>9}: {figures['mean_cpu_s']:.3f} CPU s mean, {figures['best_cpu_s']:.3f} best")
    result["source_over_bytecode"] = round(result["source"]["mean_cpu_s"] / result["bytecode"]["mean_cpu_s"], 2)
    if args.tree:
        result["baseline_over_bytecode"] = round(result["baseline"]["mean_cpu_s"] / result["bytecode"]["mean_cpu_s"], 2)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
