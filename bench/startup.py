"""Start-up of the ``dehla`` command line: ``dehla rules --json`` against a bare interpreter.

Both are started as fresh processes, alternating, best of ``--runs``; the difference is what
importing and running the CLI costs. ``--tree PATH`` times another checkout of the project
(for example an older commit, ``git worktree add /tmp/old REV``). Also reports whether gRPC
and SQLAlchemy were imported. Run: ``python bench/startup.py``; the last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

RULES = ("import sys; from arena.cli import main; main(['rules', '--json'], standalone_mode=False); "
         "print(sorted(m for m in ('grpc', 'sqlalchemy') if m in sys.modules), file=sys.stderr)")


def seconds(code: str, tree: Path) -> tuple[float, str]:
    start = time.perf_counter()
    environment = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", code], cwd=tree, env=environment, capture_output=True, text=True,
                          check=True)
    return time.perf_counter() - start, done.stderr.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    bare, rules, heavy = 1e9, 1e9, ""
    for _ in range(args.runs):
        bare = min(bare, seconds("pass", args.tree)[0])
        took, heavy = seconds(RULES, args.tree)
        rules = min(rules, took)
    print(json.dumps({"bench": "startup", "tree": str(args.tree), "bare_python_ms": round(bare * 1000),
                      "dehla_rules_ms": round(rules * 1000), "cli_cost_ms": round((rules - bare) * 1000),
                      "heavy_modules_loaded": heavy}))


if __name__ == "__main__":
    main()
