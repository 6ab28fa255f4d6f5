"""Flood: from start-up, two threads write to stdout and stderr as fast as they can (up to
``--ceiling-mb`` each), while the bot plays normally."""

from __future__ import annotations

import os
import threading

from _hostile import arguments, contained, serve

BLOCK = b"flood " * 10922 + b"\n"


def pour(fd: int, ceiling_mb: int) -> None:
    written = 0
    while written < ceiling_mb * 1024 * 1024:
        try:
            written += os.write(fd, BLOCK)
        except OSError:
            return


def attack(ceiling_mb: int) -> None:
    contained("flood", note="flooding stdout and stderr from two threads")
    for fd in (1, 2):
        threading.Thread(target=pour, args=(fd, ceiling_mb), daemon=True).start()


if __name__ == "__main__":
    args = arguments(extra=[("--ceiling-mb", {"type": int, "default": 512})])
    serve(lambda view: attack(args.ceiling_mb), "start")
