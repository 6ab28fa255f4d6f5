"""Orphan: at start-up it leaves a daemon behind (double fork, new session where allowed,
SIGTERM and SIGHUP ignored) that would run for minutes, then plays normally and exits at the end.
``--pidfile`` receives the daemon's pid where the bot can write it (outside a sandbox)."""

from __future__ import annotations

import subprocess
import sys

from _hostile import arguments, contained, serve

DAEMON = r"""
import contextlib, os, signal, sys, time
if os.fork():
    os._exit(0)
with contextlib.suppress(OSError):  # refused in a sandbox (autogroup counter): a daemon anyway
    os.setsid()
signal.signal(signal.SIGTERM, signal.SIG_IGN)
signal.signal(signal.SIGHUP, signal.SIG_IGN)
with contextlib.suppress(OSError):  # no pidfile inside a sandbox: the daemon lives on anyway
    with open(sys.argv[1], "w") as f:
        f.write(str(os.getpid()))
time.sleep(300)  # the daemon's whole life: outlive the match
"""


def attack(pidfile: str) -> None:
    subprocess.run([sys.executable, "-c", DAEMON, pidfile], check=False)
    contained("orphan", note="left a daemon; the test checks it is gone after the match")


if __name__ == "__main__":
    args = arguments(extra=[("--pidfile", {"default": "/tmp/dehla-orphan.pid"})])
    serve(lambda view: attack(args.pidfile), "start")
