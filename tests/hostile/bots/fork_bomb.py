"""Fork bomb: every process forks two more, as deep as it can (with a safety ceiling).

It runs at start-up in a fresh interpreter (forking a gRPC server is unsafe), counts the
processes that got born within a second or so, kills the whole bomb, reports, then serves.
Reaching ``--ceiling`` processes is an escape: the limits should stop it far below.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time

from _hostile import arguments, contained, escaped, serve

REFUSALS = 8
"""Refused forks after which the bomb has clearly hit a limit."""

BOMB = r"""
import os, sys, time
w, depth = int(sys.argv[1]), int(sys.argv[2])
os.setpgrp()
def grow(level):
    for _ in range(2):
        if level <= 0:
            return
        try:
            pid = os.fork()
        except OSError:
            os.write(w, b"-")
            continue
        if pid == 0:
            os.write(w, b"+")
            grow(level - 1)
            time.sleep(60)
            os._exit(0)
grow(depth)
time.sleep(60)
"""


def bomb_group_gone(group: int, timeout: float = 5.0) -> None:
    """Kill the whole bomb and wait until its last process is gone (the gRPC server about to
    start needs the process slots back)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.killpg(group, signal.SIGKILL)
        except OSError:  # ProcessLookupError: nobody left
            return
        time.sleep(0.01)


def attack(ceiling: int, seconds: float) -> None:
    depth = max(1, ceiling.bit_length() - 1)
    read, write = os.pipe()
    try:
        bomb = subprocess.Popen([sys.executable, "-c", BOMB, str(write), str(depth)], pass_fds=(write,))
    except OSError as exc:
        contained("fork-bomb", born=0, refused=0, error=exc.strerror)
        return
    os.close(write)
    born = refused = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and born < ceiling and refused < REFUSALS:
        ready, _, _ = select.select([read], [], [], 0.05)
        if ready:
            data = os.read(read, 4096)
            born += data.count(b"+")
            refused += data.count(b"-")
    with contextlib.suppress(OSError):
        os.killpg(bomb.pid, signal.SIGKILL)
    bomb.wait()  # reap its root: a zombie would keep the group alive
    bomb_group_gone(bomb.pid)
    os.close(read)
    (escaped if born >= ceiling - 1 else contained)("fork-bomb", born=born, refused=refused, ceiling=ceiling)


if __name__ == "__main__":
    args = arguments(extra=[("--ceiling", {"type": int, "default": 256}),
                            ("--seconds", {"type": float, "default": 1.5}),
                            ("--standalone", {"action": "store_true", "help": "attack, report and exit"})])
    if args.standalone:
        attack(args.ceiling, args.seconds)
    else:
        serve(lambda view: attack(args.ceiling, args.seconds), "start")
