"""Before/after in one run: the same bench script against two checkouts, alternating.

``python bench/trees.py SCRIPT --trees OLD NEW [--rounds R] [--key K ...] -- SCRIPT_ARGS``
runs ``SCRIPT`` (a bench whose last output line is one JSON object) ``R`` times per tree, the
trees taking turns, and prints the best of each ``--key`` per tree as one JSON line (the
highest, or the lowest for a key also named by ``--lower``, such as a time). Make the
old tree with ``git worktree add /tmp/before <commit>``.

Each run is a fresh process that imports the project from its tree only: the editable install's
import hook (which would always load this checkout) is taken out first.
"""

from __future__ import annotations

import argparse
import json
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

_CHILD = "--child"


def run_on_tree(tree: Path, script: Path, args: list[str]) -> dict[str, Any]:
    """One run of ``script`` with the project imported from ``tree``: its last JSON line."""
    out = subprocess.run(
        [sys.executable, __file__, _CHILD, str(tree), str(script), *args],
        check=True, capture_output=True, text=True,
    ).stdout
    last: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return last


def _child(tree: str, script: str, args: list[str]) -> None:
    sys.meta_path[:] = [f for f in sys.meta_path if "__editable__" not in type(f).__module__]
    sys.path[:0] = [tree]
    sys.argv = [script, *args]
    runpy.run_path(script, run_name="__main__")


def main(argv: list[str]) -> None:
    if argv[:1] == [_CHILD]:
        _child(argv[1], argv[2], argv[3:])
        return
    extra: list[str] = []
    if "--" in argv:
        at = argv.index("--")
        argv, extra = argv[:at], argv[at + 1:]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("script", type=Path)
    parser.add_argument("--trees", nargs="+", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--key", action="append", required=True, help="a figure of the JSON line to compare")
    parser.add_argument("--lower", action="append", default=[], help="a key for which lower is better")
    opts = parser.parse_args(argv)
    runs: dict[str, list[dict[str, Any]]] = {str(t): [] for t in opts.trees}
    for _ in range(opts.rounds):
        for tree in opts.trees:
            runs[str(tree)].append(run_on_tree(tree.resolve(), opts.script.resolve(), extra))
    best = {
        tree: {k: (min if k in opts.lower else max)(r[k] for r in rs) for k in opts.key}
        for tree, rs in runs.items()
    }
    every = {tree: {k: [r[k] for r in rs] for k in opts.key} for tree, rs in runs.items()}
    print(json.dumps({"script": str(opts.script), "rounds": opts.rounds, "best": best, "runs": every}))


if __name__ == "__main__":
    main(sys.argv[1:])
