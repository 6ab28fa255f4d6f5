"""Signaller: tries to kill its parent, every process it can see, every process at all
(``kill(-1)``) and the host pids it is given (the referee, a sentinel, other bots).

``--signal 0`` only probes (for the unsandboxed control run: it must not kill the test).
Signalling one of the given host pids, or any process that is not its own, is an escape.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

from _hostile import arguments, contained, escaped, serve


def attack(sig: int, pids: list[int]) -> None:
    me = os.getpid()
    own = {me, *(int(p) for p in os.listdir("/proc") if p.isdigit() and _is_own_child(int(p)))}
    for pid in pids:
        try:
            os.kill(pid, sig)
        except OSError as exc:
            contained("signal-pid", target=pid, error=exc.strerror)
        else:
            escaped("signal-pid", target=pid, signal=sig)
    visible = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
    contained("process-list", visible=visible, me=me, parent=os.getppid())
    hit = []
    for pid in visible:
        if pid in own:
            continue
        try:
            os.kill(pid, sig)
        except OSError:
            continue
        hit.append(pid)
    # Inside a pid namespace the only other process is its init, which ignores signals.
    if [p for p in hit if p != 1 or os.getppid() != 1]:
        escaped("signal-visible", hit=hit)
    else:
        contained("signal-visible", hit=hit)
    if sig != 0:
        try:
            os.kill(-1, sig)
            contained("signal-all", note="kill(-1) reached only what it may signal")
        except OSError as exc:
            contained("signal-all", error=exc.strerror)
    try:
        os.kill(os.getppid(), sig if sig else 0)
        contained("signal-parent", parent=os.getppid(), note="delivered; see whether the parent survived")
    except OSError as exc:
        contained("signal-parent", error=exc.strerror)


def _is_own_child(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid()


if __name__ == "__main__":
    args = arguments(extra=[("--signal", {"type": int, "default": int(signal.SIGKILL)}),
                            ("--pid", {"type": int, "action": "append", "default": []})])
    serve(lambda view: attack(args.signal, args.pid), args.at)
