"""Disk filler: writes files until the disk is full in every place it can write (its /tmp,
/dev/shm, its socket folder, its working folder, and any folder given). Writing
``--ceiling-mb`` into one place is an escape. It then deletes what it wrote and plays on."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from _hostile import arguments, contained, escaped, serve

CHUNK = b"\0" * (1024 * 1024)
FILE_MB = 4


def fill(folder: Path, ceiling_mb: int) -> tuple[int, str]:
    written = 0
    error = ""
    files: list[Path] = []
    try:
        while written < ceiling_mb * len(CHUNK):
            path = folder / f"dehla-fill-{len(files)}"
            files.append(path)
            with path.open("wb") as handle:
                for _ in range(FILE_MB):
                    handle.write(CHUNK)
                    written += len(CHUNK)
                    handle.flush()
    except OSError as exc:
        error = exc.strerror or str(exc)
    for path in files:
        with contextlib.suppress(OSError):
            path.unlink()
    return written, error


def attack(folders: list[str], ceiling_mb: int) -> None:
    for folder in dict.fromkeys(["/tmp", "/dev/shm", "/run/dehla", os.getcwd(), *folders]):
        written, error = fill(Path(folder), ceiling_mb)
        mb = round(written / len(CHUNK), 1)
        if written >= ceiling_mb * len(CHUNK):
            escaped("disk", target=folder, written_mb=mb)
        else:
            contained("disk", target=folder, written_mb=mb, error=error)


if __name__ == "__main__":
    args = arguments(extra=[("--folder", {"action": "append", "default": []}),
                            ("--ceiling-mb", {"type": int, "default": 256})])
    serve(lambda view: attack(args.folder, args.ceiling_mb), args.at)
