"""Sleeper: ignores SIGTERM and sleeps past every deadline: before serving (``--mode start``)
or inside its first decision (``--mode decide``)."""

from __future__ import annotations

import signal
import time

from _hostile import arguments, contained, serve


def sleep_forever() -> None:
    contained("sleep", note="sleeping for ever")
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    args = arguments(extra=[("--mode", {"choices": ["start", "decide"], "default": "decide"})])
    serve(lambda view: sleep_forever(), args.mode)
