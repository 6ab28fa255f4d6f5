"""Reading a file the store names, inside the data folder and nowhere else.

Paths are relative to the data folder; the files they name (validation logs, an upload's output)
were written next to what bots produce, so a path that is absolute or climbs out (``..``) is
refused, and the opened file itself is checked: not a link, a regular file, and its real path (as
the kernel resolved it, ``/proc/self/fd``) inside the data folder. Checking a path and then
opening it would let a link swapped in between be followed; the opened file cannot change.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path, PurePosixPath


class DataFileError(Exception):
    """Why a named file was not read, as the end of a sentence ("is missing")."""


@dataclass(frozen=True, slots=True)
class DataFile:
    """What was read: at most the cap's bytes, and the file's whole size."""

    content: bytes
    size: int


def inside(root: Path, stored_path: str) -> Path:
    """The file ``stored_path`` names in ``root``, by name only (links are checked when opened)."""
    relative = PurePosixPath(stored_path)
    if relative.is_absolute() or ".." in relative.parts:
        raise DataFileError("is outside the data folder; not read")
    return root / relative


def read_inside(root: Path, stored_path: str, cap: int, refuse_over: int | None = None) -> DataFile:
    """The first ``cap`` bytes of the file; a file larger than ``refuse_over`` is not read at all."""
    path = inside(root, stored_path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise DataFileError("is missing") from None
    except OSError as exc:
        raise DataFileError("is a link; not followed" if exc.errno == errno.ELOOP
                            else f"cannot be opened ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as file:
        opened = Path(os.readlink(f"/proc/self/fd/{fd}"))
        if root.resolve() not in opened.parents:
            raise DataFileError("links outside the data folder; not read")
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise DataFileError("is not a file")
        if refuse_over is not None and status.st_size > refuse_over:
            raise DataFileError(f"is {status.st_size} bytes, more than it can be ({refuse_over}); not read")
        return DataFile(file.read(cap), status.st_size)
