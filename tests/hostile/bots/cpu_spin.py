"""CPU spinner. ``--mode decide``: spins inside its first decision for ever (a timeout).
``--mode background``: starts ``--workers`` spinning processes at start-up and plays on
(the CPU quota throttles them). ``--mode burn``: spins in its first decision until the
CPU-time rlimit kills it (a crash)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from _hostile import arguments, contained, serve


def spin() -> None:
    """Burn CPU for ever: the attack itself (only the referee's clock or the rlimit ends it)."""
    while True:
        pass


def background(workers: int) -> None:
    for _ in range(workers):
        subprocess.Popen([sys.executable, "-c", "while True: pass"])
    contained("cpu-background", workers=workers, note="the cgroup CPU quota decides what they get")


def burn() -> None:
    start = time.process_time()
    while True:
        if time.process_time() - start > 600:  # never reached inside the sandbox
            break
    contained("cpu-burn", seconds=time.process_time() - start, pid=os.getpid())


if __name__ == "__main__":
    args = arguments(extra=[("--mode", {"choices": ["decide", "background", "burn"], "default": "decide"}),
                            ("--workers", {"type": int, "default": 3})])
    if args.mode == "background":
        serve(lambda view: background(args.workers), "start")
    elif args.mode == "burn":
        serve(lambda view: burn(), "decide")
    else:
        serve(lambda view: spin(), "decide")
