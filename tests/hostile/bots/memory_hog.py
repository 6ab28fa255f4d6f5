"""Memory hog: allocates and touches memory without end (up to ``--ceiling-mb``, an escape).

Inside the sandbox the memory cgroup's OOM killer ends it (a crash), or, with rlimits only,
the allocation fails (MemoryError, reported as contained, then it plays on).
"""

from __future__ import annotations

from _hostile import arguments, contained, escaped, serve

CHUNK = 8 * 1024 * 1024


def attack(ceiling_mb: int) -> None:
    hoard = []
    try:
        while len(hoard) * CHUNK < ceiling_mb * 1024 * 1024:
            block = bytearray(CHUNK)
            block[::4096] = b"x" * (CHUNK // 4096)  # touch every page
            hoard.append(block)
    except MemoryError:
        got = len(hoard) * CHUNK // (1024 * 1024)
        hoard.clear()
        contained("memory", allocated_mb=got)
        return
    escaped("memory", allocated_mb=ceiling_mb)
    hoard.clear()


if __name__ == "__main__":
    args = arguments(extra=[("--ceiling-mb", {"type": int, "default": 2048})])
    serve(lambda view: attack(args.ceiling_mb), args.at)
